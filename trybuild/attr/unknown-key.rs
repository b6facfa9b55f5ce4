use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(sorce = "features")]
    x: Batch<Vector<3>>,
}

fn main() {}
