use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<3>>,
}

// Vectors have no time steps, so no lengths.
#[derive(DataSpec)]
struct Request {
    #[spec(lengths_of = "features")]
    len: Batch<Lengths>,
}

const _: () = batchspec::mapping::assert_serves::<Record, Request>();

fn main() {}
