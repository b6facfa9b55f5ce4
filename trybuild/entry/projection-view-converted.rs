use batchspec::data::Dataset;
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<image![2, 2, 1; BHWC, u8]>,
}

// A projection lends the record's leaves as they are stored: a vector of floats is a
// conversion, which only a copy (`get`, `select`, a provider) can make.
#[derive(DataSpec)]
struct Flat {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
}

fn lent(ds: &Dataset<Record>) {
    let _ = ds.project::<Flat>().view(0..2);
}

fn main() {}
