use batchspec::prelude::*;
use batchspec::augment::{Augmentation, Steps};
use batchspec::data::Dataset;
use batchspec::iteration::Schedule;
use batchspec::data::Provider;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "image")]
    image: Batch<image![28, 28, 1; BHWC, u8]>,
}

struct Train;
impl Augmentation for Train {
    type Input = image![32, 32, 3; BHWC, u8];
    const STEPS: Steps = Steps::new().pad(4).random_crop(32, 32);
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "image", augment = Train)]
    image: Batch<image![32, 32, 3; BCHW, u8]>,
}

// The augmentation reads 32×32×3 images; this record holds 28×28×1.
fn provide(ds: &Dataset<Record>, schedule: Schedule) {
    let _ = Provider::<Record, Request>::new(ds, schedule);
}

fn main() {}
