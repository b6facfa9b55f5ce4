// A record holds each source in one field: two fields of one source serve no request, and the
// note says so. (As a request, a struct may read one source twice, in two spaces.)
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
    x: Batch<Vector<4>>,
}

const _: () = batchspec::mapping::assert_serves::<Record, Request>();

fn main() {}
