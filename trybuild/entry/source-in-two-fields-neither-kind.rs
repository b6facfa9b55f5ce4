// A record that holds the pixels as an image and as a vector serves a request's field of either
// kind, but not of a third: labels of the pixels are neither.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![2, 2, 1; BHWC, u8]>,
    #[spec(source = "features")]
    flat: Batch<Vector<4>>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "features")]
    x: Batch<Labels<4>>,
}

const _: () = batchspec::mapping::assert_serves::<Record, Request>();

fn main() {}
