// A nested request: the field that cannot be served is named in its own struct.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![28, 28, 1; BHWC, u8]>,
}

#[derive(DataSpec)]
struct Targets {
    #[spec(source = "targets")]
    onehot: Batch<Vector<10>>,
}

#[derive(DataSpec)]
struct Supervised {
    #[spec(source = "features")]
    x: Batch<Vector<784>>,
    targets: Targets,
}

const _: () = batchspec::mapping::assert_serves::<Record, Supervised>();

fn main() {}
