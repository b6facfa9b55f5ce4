use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Vec<Batch<Vector<3>>>,
}

fn main() {}
