use batchspec::prelude::*;
use batchspec::augment::{Augmentation, Steps};

#[derive(DataSpec)]
struct Record {
    #[spec(source = "image")]
    image: Batch<image![32, 32, 3; BHWC, u8]>,
    #[spec(source = "label")]
    label: Batch<Index<10>>,
}

struct Train;
impl Augmentation for Train {
    type Input = image![32, 32, 3; BHWC, u8];
    const STEPS: Steps = Steps::new().flip_h(0.5);
}

// The labels are mixed with the pairs of the image's augmentation, which mixes none.
#[derive(DataSpec)]
struct Request {
    #[spec(source = "image", augment = Train)]
    image: Batch<image![32, 32, 3; BCHW, u8]>,
    #[spec(source = "label", mixed_with = "image")]
    label: Batch<OneHot<10>>,
}

fn main() {}
