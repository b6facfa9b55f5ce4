// `augment = Train` where `Train` does not implement `Augmentation`.
use batchspec::prelude::*;

struct Train;

#[derive(DataSpec)]
struct Request {
    #[spec(source = "features", augment = Train)]
    x: Batch<image![28, 28, 1; BHWC, u8]>,
}

fn main() {}
