// Matching is by source: a nested request is served by a flat record, with conversions.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![32, 32, 3; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<10, 1, u8>>,
}

#[derive(DataSpec)]
struct Inner {
    #[spec(source = "features")]
    conv: Batch<image![32, 32, 3; BCHW, f32]>,
    #[spec(source = "targets")]
    onehot: Batch<Vector<10>>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "features")]
    flat: Batch<Vector<3072>>,
    inner: Inner,
    #[spec(source = "targets")]
    label: Batch<Labels<10>>,
}

const _: () = batchspec::mapping::assert_serves::<Record, Request>();
const _: () = batchspec::format::assert_formats::<Vector<12>, image![2, 2, 3; BCHW]>();
const _: () = batchspec::format::assert_formats::<Index<4, 2>, Vector<4>>();
const _: () = batchspec::format::assert_formats::<Index<4, 2>, batchspec::types::OneHot<4, 2>>();

fn main() {
    assert_eq!(Request::LEAVES, 4);
}
