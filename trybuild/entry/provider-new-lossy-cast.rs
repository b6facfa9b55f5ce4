// A provider pairing a record of f32 features with a request of i32 ones: the reason is the one
// `format_as` gives (the cast can lose values, use a `_lossy` method), not "no conversion".
use batchspec::data::{Dataset, Provider};
use batchspec::iteration::Schedule;
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<3, f32>>,
}

#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    x: Batch<Vector<3, i32>>,
}

fn train(ds: &Dataset<Record>, schedule: Schedule) {
    let _ = Provider::<Record, Input>::new(ds, schedule);
}

fn main() {
    let _ = train;
}
