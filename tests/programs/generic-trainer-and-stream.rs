// Generic code names one bound per pairing: `R: Trains<M, C, H>` for a trainer of a dataset or of
// a source, `Q: ProvidedBy<R>` (and `R: StreamRecord` when the samples' type is generic too) for a
// stream, its batches, its owned batches and its prefetch.
use batchspec::data::{Channels, Costs, Dataset, Stream, StreamRecord, Trainer, Trains};
use batchspec::iteration::Schedule;
use batchspec::mapping::Model;
use batchspec::prelude::*;

fn epoch_of_a_dataset<R, M, C, H>(
    ds: &Dataset<R>,
    model: &mut M,
    costs: C,
    channels: H,
) -> Result<usize, batchspec::Error>
where
    R: Trains<M, C, H>,
    M: Model,
    C: Costs<M>,
    H: Channels<M>,
{
    let schedule = Schedule::builder(ds.len()).batch_size(2).build()?;
    let mut trainer = Trainer::new(ds, schedule, costs, channels)?;
    let _ = trainer.next_data();
    Ok(trainer.fit(model, 2, |_, _, _| {}).len())
}

fn epoch_of_a_stream<R, M, C, H>(
    samples: Vec<R>,
    model: &mut M,
    costs: C,
    channels: H,
) -> Result<usize, batchspec::Error>
where
    R: StreamRecord + ProvidedBy<R> + Trains<M, C, H>,
    M: Model,
    C: Costs<M>,
    H: Channels<M>,
{
    let stream = Stream::<R, R>::once(samples, 2);
    let mut trainer = Trainer::from_source(stream, costs, channels);
    Ok(trainer.epoch(model, |_, _, _| {})?.steps)
}

fn batches_of_a_stream<R: StreamRecord, Q: ProvidedBy<R> + Send + 'static>(
    make: impl FnMut(u64) -> Vec<R> + Send + 'static,
) -> Result<usize, batchspec::Error> {
    let mut stream = Stream::<R, Q>::new(make, 4).shuffle(8, 1);
    let mut seen = 0;
    while let Some(b) = stream.next_owned() {
        seen += b?.1.count_samples;
    }
    let mut ahead = Stream::<R, Q>::new(|_| Vec::new(), 4).prefetch(2, 0..1);
    while let Some(b) = ahead.next_batch() {
        seen += b?.info.count_samples;
    }
    Ok(seen)
}

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<2>>,
}

#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    x: Batch<Vector<2, f64>>,
}

struct Mean;

impl Model for Mean {
    type Input = Input;
    type Output = Vector<2, f64>;
}

fn record(n: usize) -> Record {
    Record {
        x: Batch::zeros(n, 0),
    }
}

fn main() -> Result<(), batchspec::Error> {
    let ds = Dataset::new(record(5))?;
    assert_eq!(epoch_of_a_dataset(&ds, &mut Mean, (), ())?, 2);
    let samples = (0..5).map(|_| record(1)).collect();
    assert_eq!(epoch_of_a_stream(samples, &mut Mean, (), ())?, 3);
    let seen = batches_of_a_stream::<Record, Input>(|_| (0..6).map(|_| record(1)).collect())?;
    assert_eq!(seen, 6);
    Ok(())
}
