use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features", source = "targets")]
    x: Batch<Vector<3>>,
}

fn main() {}
