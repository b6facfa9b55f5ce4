use batchspec::prelude::*;
use batchspec::augment::{Augmentation, Steps};
use batchspec::mapping::{ServeCache, serve};

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

#[derive(DataSpec)]
struct Request {
    #[spec(source = "image", augment = Train)]
    image: Batch<image![32, 32, 3; BCHW, u8]>,
}

// Augmentation is drawn batch by batch; `serve` gives whole sources.
fn whole(record: &Record) -> Request {
    serve(record, &mut ServeCache::new())
}

fn main() {}
