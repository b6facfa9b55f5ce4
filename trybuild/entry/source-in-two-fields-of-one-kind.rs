// A record that holds one source in two fields of one kind (two vectors) serves it to no request:
// nothing says which field a vector should come from. The note says so.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    raw: Batch<Vector<4>>,
    #[spec(source = "features")]
    normalized: Batch<Vector<4>>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
}

const _: () = batchspec::mapping::assert_serves::<Record, Request>();

fn main() {}
