use batchspec::prelude::*;

// A sequence layout given to an image.
#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Image<32, 32, 3, 3072, layout!(btwc)>>,
}

fn main() {}
