use batchspec::prelude::*;

#[derive(DataSpec)]
struct Dataset {
    #[spec(source = "features")]
    x: Batch<Vector<3>>,
    #[spec(source = "targets")]
    y: Batch<Index<10>>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "featurs")]
    x: Batch<Vector<3>>,
}

const _: () = batchspec::mapping::assert_serves::<Dataset, Request>();

fn main() {}
