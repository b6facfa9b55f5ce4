// A layout with an unknown letter inside a derived struct's field: one error, on the letter
// (not one more for every impl of the derive that names the field's type).
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<Image<32, 32, 3, 3072, layout!(nhwc)>>,
}

fn main() {}
