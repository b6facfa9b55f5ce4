use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "")]
    x: Batch<Vector<3>>,
}

fn main() {}
