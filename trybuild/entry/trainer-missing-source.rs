use batchspec::mapping::{Cost, Model};
use batchspec::data::Dataset;
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use batchspec::data::Trainer;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
}

#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    x: ArcBatch<Vector<4>>,
}

// The cost reads targets, which the record does not hold.
#[derive(DataSpec)]
struct Supervised {
    #[spec(source = "targets")]
    y: ArcBatch<Vector<1>>,
}

struct Linear;
impl Model for Linear {
    type Input = Input;
    type Output = Vector<1>;
}
struct Mse;
impl Cost<Linear> for Mse {
    type Data = Supervised;
    fn cost(&self, _: &Linear, _: &Supervised) -> f64 {
        0.0
    }
}

fn train(ds: &Dataset<Record>, schedule: Schedule) {
    let _ = Trainer::<Record, Linear, (Mse,), ()>::new(ds, schedule, (Mse,), ());
}

fn main() {}
