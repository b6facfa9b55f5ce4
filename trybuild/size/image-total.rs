use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Image<32, 32, 3, 3000, BHWC, u8>>,
}

fn main() {}
