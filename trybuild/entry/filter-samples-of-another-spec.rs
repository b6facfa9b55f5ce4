use batchspec::data::{Dataset, Provider};
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use std::sync::Arc;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
}

#[derive(DataSpec)]
struct Other {
    #[spec(source = "features")]
    x: Batch<Vector<8>>,
}

// The predicate sees the source's samples, of its spec.
fn keep(ds: Arc<Dataset<Record>>, s: Schedule) {
    let source = Provider::<Record, Record>::shared(ds, s).unwrap();
    let _ = source.filter_samples(|o: &Other| o.x.array().sum() > 0.0);
}

fn main() {}
