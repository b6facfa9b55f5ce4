use batchspec::data::{Dataset, Every, Provider, Trainer};
use batchspec::iteration::Schedule;
use batchspec::mapping::Model;
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
}

// The held-out set was stored with another record: its "features" are 8 wide.
#[derive(DataSpec)]
struct HeldOut {
    #[spec(source = "features")]
    x: Batch<Vector<8>>,
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

fn train(train: &Dataset<Record>, held_out: &Dataset<HeldOut>, schedule: Schedule) {
    let mut trainer = Trainer::<Record, Linear, (), ()>::new(train, schedule.clone(), (), ()).unwrap();
    let validation = Provider::<HeldOut, HeldOut>::new(held_out, schedule).unwrap();
    trainer.monitor("validation", validation, Every::Epochs(1));
}

fn main() {}
