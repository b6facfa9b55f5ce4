use batchspec::data::Dataset;
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use batchspec_candle::Batches;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<3072>>,
}

// The model asks for a 10-wide vector; the record holds 3072.
#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    x: Batch<Vector<10>>,
}

fn batches(ds: &Dataset<Record>, schedule: Schedule) {
    let _ = Batches::<Record, Input>::new(ds, schedule, &candle_core::Device::Cpu);
}

fn main() {}
