use batchspec::prelude::*;
use batchspec::augment::{Augmentation, Steps};

// A vector has no rows and columns to flip.
struct Train;
impl Augmentation for Train {
    type Input = Vector<10>;
    const STEPS: Steps = Steps::new().flip_h(0.5);
}

fn main() {}
