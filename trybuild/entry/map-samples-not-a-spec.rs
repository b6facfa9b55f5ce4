use batchspec::data::{Dataset, Provider};
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use std::sync::Arc;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
}

// A per-sample map makes a sample of a spec, not a bare number.
fn norms(ds: Arc<Dataset<Record>>, s: Schedule) {
    let source = Provider::<Record, Record>::shared(ds, s).unwrap();
    let _ = source.map_samples(|r: Record| Ok(r.x.array().sum()));
}

fn main() {}
