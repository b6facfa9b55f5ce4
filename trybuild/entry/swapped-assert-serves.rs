// `assert_serves` with the request first and the record second.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<784>>,
    #[spec(source = "targets")]
    y: Batch<Index<10>>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "features")]
    x: Batch<Vector<784>>,
}

const _: () = batchspec::mapping::assert_serves::<Request, Record>();

fn main() {}
