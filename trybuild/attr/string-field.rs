use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<3>>,
    name: String,
}

fn main() {}
