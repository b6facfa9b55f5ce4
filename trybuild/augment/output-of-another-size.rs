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
    const STEPS: Steps = Steps::new().pad(4).random_crop(28, 28);
}

// The augmentation makes 28×28 crops; the field asks for 32×32.
#[derive(DataSpec)]
struct Request {
    #[spec(source = "image", augment = Train)]
    image: Batch<image![32, 32, 3; BCHW, u8]>,
}

fn main() {}
