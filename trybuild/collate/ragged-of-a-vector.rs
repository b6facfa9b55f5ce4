use batchspec::prelude::*;

// A vector has no time axis: its samples all have the same size, a `Batch`.
#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Ragged<Vector<3>>,
}

fn main() {}
