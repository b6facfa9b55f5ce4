use batchspec::data::Dataset;
use batchspec::prelude::*;
use batchspec_burn::SourceLoader;
use burn::tensor::Device;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
}

// A dataset is not a source of batches: it needs a schedule (a `Provider`) first.
fn loader(ds: Dataset<Record>, device: &Device) {
    let _ = SourceLoader::<_, Record>::new(ds, device);
}

fn main() {}
