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
    // Padding after normalization: the steps run in a fixed order.
    const STEPS: Steps = Steps::new().normalize(&[0.0, 0.0, 0.0], &[1.0, 1.0, 1.0]).pad(4);
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "image", augment = Train)]
    image: Batch<image![40, 40, 3; BCHW, f32]>,
}

fn main() {}
