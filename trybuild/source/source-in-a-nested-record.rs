// The record holds "targets" inside a nested struct: a record serves the sources of its own
// batch fields, and the error says so (not that the source exists nowhere).
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Meta {
    #[spec(source = "targets")]
    y: Batch<Index<10>>,
}

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<784>>,
    meta: Meta,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "targets")]
    y: Batch<Index<10>>,
}

const _: () = batchspec::mapping::assert_serves::<Record, Request>();

fn main() {}
