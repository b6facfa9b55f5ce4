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
    const STEPS: Steps = Steps::new().flip_h(0.5).normalize(&[125.0, 123.0, 114.0], &[63.0, 62.0, 67.0]);
}

// Normalized values are fractions: a u8 field cannot hold them.
#[derive(DataSpec)]
struct Request {
    #[spec(source = "image", augment = Train)]
    image: Batch<image![32, 32, 3; BCHW, u8]>,
}

fn main() {}
