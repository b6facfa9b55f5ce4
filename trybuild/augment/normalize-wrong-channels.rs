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
    const STEPS: Steps = Steps::new().normalize(&[0.5], &[0.25]);
}

// One mean for a 3-channel image.
#[derive(DataSpec)]
struct Request {
    #[spec(source = "image", augment = Train)]
    image: Batch<image![32, 32, 3; BCHW, f32]>,
}

fn main() {}
