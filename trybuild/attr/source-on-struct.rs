use batchspec::prelude::*;

#[derive(DataSpec)]
#[spec(source = "features")]
struct Record {
    x: Batch<Vector<3>>,
}

fn main() {}
