use batchspec::prelude::*;

#[derive(DataSpec)]
struct Scans {
    #[spec(source = "features")]
    x: Batch<Volume<8, 32, 32, 1, 8000>>,
}

fn main() {}
