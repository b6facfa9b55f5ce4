// Generic code that makes a trainer without `R: Trains<M, C, H>`: each consumer's request is an
// error, whose note names the one bound to add.
use batchspec::data::{Channels, Costs, Dataset, Trainer};
use batchspec::iteration::Schedule;
use batchspec::mapping::Model;
use batchspec::prelude::*;

fn one_epoch<R: DataSpec, M: Model, C: Costs<M>, H: Channels<M>>(
    ds: &Dataset<R>,
    costs: C,
    channels: H,
) -> Result<(), batchspec::Error> {
    let schedule = Schedule::builder(ds.len()).batch_size(2).build()?;
    let _trainer = Trainer::<R, M, C, H>::new(ds, schedule, costs, channels)?;
    Ok(())
}

fn main() {}
