// A burn loader of a request with a ragged field: refused where the loader is made (a tensor
// holds sequences of one length), not when `iter()` is called.
use batchspec::data::Dataset;
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use batchspec_burn::SpecLoader;
use burn::tensor::Device;
use std::sync::Arc;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "tokens")]
    tokens: Ragged<IndexSeq<100>>,
}

fn loader(ds: Arc<Dataset<Record>>, schedule: Schedule, device: &Device) {
    let _ = SpecLoader::<Record, Record>::new(ds, schedule, device);
}

fn main() {
    let _ = loader;
}
