use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Window<2, 5, 12, BWC, f32>>,
}

fn main() {}
