// burn's DataLoader from a record that lacks a source the model asks for: refused where the
// loader is made.
use batchspec::data::Dataset;
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use batchspec_burn::SpecLoader;
use burn::tensor::Device;
use std::sync::Arc;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![28, 28, 1; BHWC, u8]>,
}

#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    image: Batch<image![28, 28, 1; BCHW, f32]>,
    #[spec(source = "targets")]
    label: Batch<Labels<10, i64>>,
}

fn loader(ds: Arc<Dataset<Record>>, schedule: Schedule, device: &Device) {
    let _ = SpecLoader::<Record, Input>::new(ds, schedule, device);
}

fn main() {}
