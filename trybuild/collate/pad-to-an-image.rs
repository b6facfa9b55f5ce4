use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<image![8, 8, 1; BHWC, u8]>,
}

// An image has no time axis: there are no steps to pad to.
#[derive(DataSpec)]
struct Request {
    #[spec(source = "features", pad_to = 4)]
    x: Batch<image![8, 8, 1; BHWC, u8]>,
}

const _: () = batchspec::mapping::assert_serves::<Record, Request>();

fn main() {}
