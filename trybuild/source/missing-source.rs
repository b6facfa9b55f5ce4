use batchspec::prelude::*;

#[derive(DataSpec)]
struct Dataset {
    #[spec(source = "features")]
    x: Batch<Vector<3>>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "features")]
    x: Batch<Vector<3>>,
    #[spec(source = "mask")]
    mask: Batch<Vector<3>>,
}

const _: () = batchspec::mapping::assert_serves::<Dataset, Request>();

fn main() {}
