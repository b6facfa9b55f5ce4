// `augment = Train` (an image augmentation) on a vector field.
use batchspec::augment::{Augmentation, Steps};
use batchspec::prelude::*;

struct Train;
impl Augmentation for Train {
    type Input = image![28, 28, 1; BHWC, u8];
    const STEPS: Steps = Steps::new().flip_h(0.5);
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "features", augment = Train)]
    x: Batch<Vector<784>>,
}

fn main() {}
