use batchspec::data::Dataset;
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
}

// A projection onto a source the record does not hold.
#[derive(DataSpec)]
struct Masks {
    #[spec(source = "mask")]
    m: Batch<Vector<4>>,
}

fn masks(ds: &Dataset<Record>) {
    let _ = ds.project::<Masks>();
}

fn main() {}
