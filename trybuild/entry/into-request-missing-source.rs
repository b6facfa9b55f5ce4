use batchspec::data::{BatchSource, Dataset, Provider};
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use std::sync::Arc;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
}

// The model asks for targets, which the record's batches do not hold.
#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
    #[spec(source = "targets")]
    y: Batch<Labels<3>>,
}

fn serve(ds: Arc<Dataset<Record>>, schedule: Schedule) {
    let source = Provider::<Record, Record>::shared(ds, schedule).unwrap();
    let _ = source.into_request::<Input>();
}

fn main() {}
