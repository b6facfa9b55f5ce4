use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "my features")]
    x: Batch<Vector<3>>,
}

fn main() {}
