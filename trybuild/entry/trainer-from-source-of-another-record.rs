use batchspec::data::{Dataset, Provider, Trainer};
use batchspec::iteration::Schedule;
use batchspec::mapping::Model;
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
    x: Batch<Vector<4>>,
}

#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    x: ArcBatch<Vector<4>>,
}

struct Linear;
impl Model for Linear {
    type Input = Input;
    type Output = Vector<1>;
}

// The trainer is of `Record`; the source serves batches of `Other`.
fn train(ds: Arc<Dataset<Other>>, schedule: Schedule) {
    let source = Provider::<Other, Other>::shared(ds, schedule).unwrap();
    let _ = Trainer::<Record, Linear, (), ()>::from_source(source, (), ());
}

fn main() {}
