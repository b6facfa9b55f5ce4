use batchspec::data::{Dataset, Provider};
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use std::rc::Rc;
use std::sync::Arc;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
}

// The threshold is shared through an `Rc`, which cannot cross to the workers' threads.
fn keep(ds: Arc<Dataset<Record>>, s: Schedule) {
    let threshold = Rc::new(0.5f32);
    let source = Provider::<Record, Record>::shared(ds, s).unwrap();
    let _ = source
        .filter_samples(move |r: &Record| r.x.array().sum() > *threshold)
        .workers(4);
}

fn main() {}
