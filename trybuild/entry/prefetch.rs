// A prefetching provider: the mismatch is reported at `Prefetch::provider`.
use batchspec::data::Dataset;
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use batchspec::data::Prefetch;
use std::sync::Arc;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![28, 28, 1; BHWC, u8]>,
}

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: Batch<Vector<10>>,
}

fn train(ds: Arc<Dataset<Record>>, schedule: Schedule) {
    let mut prefetch = Prefetch::<ModelInput>::provider::<Record>(ds, schedule, 0..1, 2);
    while let Some(Ok(b)) = prefetch.next_batch() {
        let _ = b.x.array();
    }
}

fn main() {
    let _ = train;
}
