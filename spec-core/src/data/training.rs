//! A training loop's data side, after Pylearn2's "big picture": the training algorithm asks the
//! model, its costs and its monitoring channels for their data specs, "combines them in one nested
//! data_specs, flattens it, requests iterators from the datasets, iterates over the dataset,
//! converting back the flat version of the data so it can be correctly dispatched between all
//! the objects requiring data".
//!
//! A [`Trainer`] does that with types: the combined request is the tuple
//! `(M::Input, C::Data, H::Data)` of the model's input, the costs' data and the channels' data,
//! checked against the record where the trainer is made. Each batch, every unique (source,
//! space) leaf of it is gathered from the dataset once, converted in the same pass, and shared
//! by every consumer that asks for it (`ArcBatch` fields share it without a copy): a source that
//! the model and a cost both read in the same space is gathered once, where a [`Provider`] of
//! the combined request would gather it twice. A cost that needs no data (Pylearn2's
//! `(NullSpace(), '')`, an L1 penalty) reads [`Null`], the spec with no leaves.
//!
//! [`Provider`]: crate::data::provider::Provider
//!
//! ```
//! use batchspec::prelude::*;
//! use batchspec::mapping::{Channel, Cost, Model};
//! use batchspec::data::Dataset;
//! use batchspec::iteration::Schedule;
//! use batchspec::data::Trainer;
//!
//! #[derive(DataSpec)]
//! struct Record {
//!     #[spec(source = "features")]
//!     x: Batch<Vector<2>>,
//!     #[spec(source = "targets")]
//!     y: Batch<Vector<1>>,
//! }
//! #[derive(DataSpec)]
//! struct Input {
//!     #[spec(source = "features")]
//!     x: ArcBatch<Vector<2>>,
//! }
//! #[derive(DataSpec)]
//! struct Supervised {
//!     input: Input,
//!     #[spec(source = "targets")]
//!     y: ArcBatch<Vector<1>>,
//! }
//! /// y = w·x, fitted by gradient steps.
//! struct Linear([f32; 2]);
//! impl Model for Linear {
//!     type Input = Input;
//!     type Output = Vector<1>;
//! }
//! impl Linear {
//!     fn predict(&self, x: &Input) -> Vec<f32> {
//!         x.x.array().rows().into_iter().map(|r| r[0] * self.0[0] + r[1] * self.0[1]).collect()
//!     }
//! }
//! struct Mse;
//! impl Cost<Linear> for Mse {
//!     type Data = Supervised;
//!     fn cost(&self, m: &Linear, d: &Supervised) -> f64 {
//!         let p = m.predict(&d.input);
//!         let y = d.y.array();
//!         p.iter().zip(y.iter()).map(|(p, y)| f64::from(p - y).powi(2)).sum::<f64>() / p.len() as f64
//!     }
//! }
//!
//! let x = ndarray::Array2::from_shape_fn((8, 2), |(i, j)| if j == 0 { (i % 4) as f32 } else { (i / 4) as f32 });
//! let y = x.map_axis(ndarray::Axis(1), |r| 2.0 * r[0] - r[1]).insert_axis(ndarray::Axis(1));
//! let ds = Dataset::new(Record { x: Batch::new(x)?, y: Batch::new(y)? })?;
//! let mut trainer = Trainer::<Record, Linear, (Mse,), ()>::new(&ds, Schedule::builder(8).batch_size(4).build()?, (Mse,), ())?;
//! let mut model = Linear([0.0, 0.0]);
//! for _ in 0..200 {
//!     trainer.epoch(&mut model, |m, _, data| {
//!         let (x, y) = (data.input.x.array(), data.costs.0.y.array());
//!         let p = m.predict(&data.input);
//!         for (i, r) in x.rows().into_iter().enumerate() {
//!             let e = p[i] - y[[i, 0]];
//!             m.0[0] -= 0.05 * e * r[0];
//!             m.0[1] -= 0.05 * e * r[1];
//!         }
//!     });
//! }
//! assert!((model.0[0] - 2.0).abs() < 1e-2 && (model.0[1] + 1.0).abs() < 1e-2);
//! # Ok::<(), batchspec::Error>(())
//! ```

use crate::data::batch_source::{BatchSource, BatchesOf};
use crate::data::cursor::{OwnedBatches, SourceOf};
use crate::data::dataset::Dataset;
use crate::data::elastic::EpochCursor;
use crate::data::error::DataError;
use crate::data::hooks::{
    Control, EpochReport, Event, Every, Hook, Moment, MonitorReport, StepReport, TrainerState,
};
use crate::data::state::{SourceState, fingerprint, spec_fingerprint};
use crate::iteration::Schedule;
use crate::mapping::consumer::{Channel, Cost, Model};
use crate::mapping::dedup::Mapping;
use crate::mapping::serve::{ServeCache, ServeFrom, ServedBy};
use crate::types::space::Null;
use crate::types::spec::DataSpec;
use core::marker::PhantomData;

/// The costs of a model `M`, each reported and summed by a training step: a tuple of
/// [`Cost<M>`]s (`(Xent, L1)`), or `()` for none.
pub trait Costs<M: Model> {
    /// What the costs read: the tuple of their data.
    type Data: DataSpec;
    /// Appends the value of each cost on `data`, in order.
    fn values(&self, model: &M, data: &Self::Data, out: &mut Vec<f64>);
}

/// The monitoring channels of a model `M`, each reported by a training step: a tuple of
/// [`Channel<M>`]s, or `()` for none.
pub trait Channels<M: Model> {
    /// What the channels read: the tuple of their data.
    type Data: DataSpec;
    /// Appends the name and value of each channel on `data`, in order.
    fn values(&self, model: &M, data: &Self::Data, out: &mut Vec<(String, f64)>);
}

/// No costs: they read nothing ([`Null`]).
impl<M: Model> Costs<M> for () {
    type Data = Null;
    fn values(&self, _: &M, _: &Null, _: &mut Vec<f64>) {}
}

/// No channels: they read nothing ([`Null`]).
impl<M: Model> Channels<M> for () {
    type Data = Null;
    fn values(&self, _: &M, _: &Null, _: &mut Vec<(String, f64)>) {}
}

macro_rules! consumer_tuples {
    ($($t:ident $i:tt),+) => {
        impl<M: Model, $($t: Cost<M>),+> Costs<M> for ($($t,)+) {
            type Data = ($($t::Data,)+);
            fn values(&self, model: &M, data: &Self::Data, out: &mut Vec<f64>) {
                $( out.push(self.$i.cost(model, &data.$i)); )+
            }
        }
        impl<M: Model, $($t: Channel<M>),+> Channels<M> for ($($t,)+) {
            type Data = ($($t::Data,)+);
            fn values(&self, model: &M, data: &Self::Data, out: &mut Vec<(String, f64)>) {
                $( out.push((self.$i.name().to_owned(), self.$i.value(model, &data.$i))); )+
            }
        }
    };
}
crate::types::for_tuples!(consumer_tuples);

/// What every consumer of one training step reads, nested back from the batch's unique leaves.
pub struct StepData<M: Model, C: Costs<M>, H: Channels<M>> {
    /// The model's input.
    pub input: M::Input,
    /// Each cost's data, in the order of the costs.
    pub costs: C::Data,
    /// Each channel's data, in the order of the channels.
    pub channels: H::Data,
}

/// The combined request of a model `M`, its costs `C` and its channels `H`.
pub type Combined<M, C, H> = (
    <M as Model>::Input,
    <C as Costs<M>>::Data,
    <H as Channels<M>>::Data,
);

/// The record `Self` serves a model `M`, its costs `C` and its channels `H`: every source any of
/// them reads is a field of the record, in a space that formats as the one asked for. The one
/// bound generic code names to make a [`Trainer`] (of a dataset or of a source) and run it.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::{Channels, Costs, Dataset, Trainer, Trains};
/// use batchspec::iteration::Schedule;
/// use batchspec::mapping::Model;
///
/// /// An epoch of any model, costs and channels on any record they can be served from.
/// fn one_epoch<R, M, C, H>(ds: &Dataset<R>, model: &mut M, costs: C, channels: H)
///     -> Result<usize, batchspec::Error>
/// where
///     R: Trains<M, C, H>,
///     M: Model,
///     C: Costs<M>,
///     H: Channels<M>,
/// {
///     let schedule = Schedule::builder(ds.len()).batch_size(2).build()?;
///     let mut trainer = Trainer::new(ds, schedule, costs, channels)?;
///     Ok(trainer.epoch(model, |_, _, _| {}).steps)
/// }
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "features")]
///     x: Batch<Vector<2>>,
/// }
/// #[derive(DataSpec)]
/// struct Input {
///     #[spec(source = "features")]
///     x: Batch<Vector<2, f64>>,
/// }
/// struct Mean;
/// impl Model for Mean {
///     type Input = Input;
///     type Output = Vector<2, f64>;
/// }
/// let ds = Dataset::new(Record { x: Batch::zeros(5, 0) })?;
/// assert_eq!(one_epoch(&ds, &mut Mean, (), ())?, 3);
/// # Ok::<(), batchspec::Error>(())
/// ```
///
/// Implemented for every record and consumers that meet it; at a call with concrete types, a
/// source the record lacks is reported in the words of the consumer's field, as without it.
pub trait Trains<M: Model, C: Costs<M>, H: Channels<M>>: DataSpec {
    /// Serves the consumers' combined request from `record` (the rows `cache` was told of).
    #[doc(hidden)]
    fn serve_consumers(record: &Self, cache: &mut ServeCache) -> Combined<M, C, H>;
}

impl<R, M, C, H> Trains<M, C, H> for R
where
    R: DataSpec,
    M: Model,
    C: Costs<M>,
    H: Channels<M>,
    M::Input: ServeFrom<R>,
    C::Data: ServedBy<R>,
    H::Data: ServedBy<R>,
{
    #[inline]
    fn serve_consumers(record: &R, cache: &mut ServeCache) -> Combined<M, C, H> {
        <Combined<M, C, H> as ServeFrom<R>>::serve_from(record, cache)
    }
}

/// The batches of a [`Trainer`] made by [`Trainer::new`]: rows of a dataset by a schedule,
/// each unique leaf gathered straight from the dataset.
pub struct DatasetRows<'d, R> {
    dataset: &'d Dataset<R>,
    cursor: EpochCursor,
}

/// The batches of a [`Trainer`] made by [`Trainer::from_source`]: batches of the record from any
/// [`BatchSource`], each unique leaf gathered from the batch.
pub struct SourceRows<S> {
    source: S,
    epoch: u64,
}

mod sealed {
    pub trait Sealed {}
    impl<R> Sealed for super::DatasetRows<'_, R> {}
    impl<S> Sealed for super::SourceRows<S> {}
}

/// What a [`Trainer`] takes its batches from: [`DatasetRows`] or [`SourceRows`].
pub trait TrainerRows<R>: sealed::Sealed {
    /// Serves the next batch to `serve` (the record and its rows); its result and the batch's
    /// samples, `None` at the end of the epoch.
    #[doc(hidden)]
    fn serve_next<T>(
        &mut self,
        rows: &mut Vec<usize>,
        serve: impl FnOnce(&R, &[usize]) -> T,
    ) -> Option<Result<(T, usize), DataError>>;
    /// Starts epoch `epoch`.
    #[doc(hidden)]
    fn start(&mut self, epoch: u64);
    /// The epoch being served.
    #[doc(hidden)]
    fn epoch(&self) -> u64;
    /// The position.
    #[doc(hidden)]
    fn position(&self) -> SourceState;
    /// Continues from a position.
    #[doc(hidden)]
    fn seek(&mut self, state: &SourceState) -> Result<(), DataError>;
}

impl<R: DataSpec> TrainerRows<R> for DatasetRows<'_, R> {
    fn serve_next<T>(
        &mut self,
        rows: &mut Vec<usize>,
        serve: impl FnOnce(&R, &[usize]) -> T,
    ) -> Option<Result<(T, usize), DataError>> {
        let step = self.cursor.advance(rows)?;
        // A batch holds its samples only: a padded last batch is served short, a rolled-over
        // one with its wrapped samples.
        let served = serve(self.dataset.fields(), &rows[..step.filled]);
        Some(Ok((served, step.filled)))
    }
    fn start(&mut self, epoch: u64) {
        self.cursor.start_epoch(epoch);
    }
    fn epoch(&self) -> u64 {
        self.cursor.index()
    }
    fn position(&self) -> SourceState {
        self.cursor.state()
    }
    fn seek(&mut self, state: &SourceState) -> Result<(), DataError> {
        self.cursor.resume(state, &mut Vec::new())
    }
}

impl<R, S: BatchSource<R>> TrainerRows<R> for SourceRows<S> {
    fn serve_next<T>(
        &mut self,
        rows: &mut Vec<usize>,
        serve: impl FnOnce(&R, &[usize]) -> T,
    ) -> Option<Result<(T, usize), DataError>> {
        let (batch, info) = match self.source.next_batch()? {
            Ok(b) => b,
            Err(e) => return Some(Err(e)),
        };
        rows.clear();
        rows.extend(0..info.count_samples);
        Some(Ok((serve(&batch, rows), info.count_samples)))
    }
    fn start(&mut self, epoch: u64) {
        self.epoch = epoch;
        self.source.start_epoch(epoch);
    }
    fn epoch(&self) -> u64 {
        self.epoch
    }
    fn position(&self) -> SourceState {
        self.source.state()
    }
    fn seek(&mut self, state: &SourceState) -> Result<(), DataError> {
        self.source.resume(state)?;
        self.epoch = state.epoch();
        Ok(())
    }
}

/// A checkpoint run after every `every` steps, with the trainer's state after the step.
type Checkpoint = (u64, Box<dyn FnMut(&TrainerState) + Send>);

/// A monitoring source: batches of the record evaluated whole at its moments.
struct Monitor<'d, R> {
    name: String,
    every: Every,
    source: Box<dyn OwnedBatches<R> + 'd>,
    cache: ServeCache,
    rows: Vec<usize>,
}

/// A training loop's data side over batches of the record `R`: the batches of a [`Schedule`]
/// over a dataset ([`Trainer::new`]) or of any [`BatchSource`] of the record
/// ([`Trainer::from_source`]: a Parquet stream larger than memory, a prefetched provider), each
/// served to the model `M`, its costs `C` and its channels `H` from its unique leaves.
pub struct Trainer<'d, R, M: Model, C: Costs<M>, H: Channels<M>, S = DatasetRows<'d, R>> {
    rows_of: S,
    rows: Vec<usize>,
    cache: ServeCache,
    costs: C,
    channels: H,
    unique: usize,
    leaves: usize,
    /// The samples of the last batch served.
    served: usize,
    steps: u64,
    checkpoints: Vec<Checkpoint>,
    monitors: Vec<Monitor<'d, R>>,
    hooks: Vec<(Every, Box<dyn Hook + 'd>)>,
    /// Why a hook stopped the run.
    stopped: Option<String>,
    /// Every monitoring pass so far.
    monitored: Vec<MonitorReport>,
    _model: PhantomData<fn() -> (M, &'d R)>,
}

impl<'d, R, M, C, H> Trainer<'d, R, M, C, H, DatasetRows<'d, R>>
where
    R: DataSpec,
    M: Model,
    C: Costs<M>,
    H: Channels<M>,
{
    /// A trainer of `dataset` by `schedule`, from epoch 0. The combined request is checked
    /// against the record here, at compile time: every source any consumer reads must be in
    /// the record, in a space that formats as the one asked for.
    ///
    /// # Errors
    /// [`DataError::ScheduleMismatch`] when the schedule is for another number of samples;
    /// [`DataError::Invalidated`].
    pub fn new(
        dataset: &'d Dataset<R>,
        schedule: Schedule,
        costs: C,
        channels: H,
    ) -> Result<Self, DataError>
    where
        R: Trains<M, C, H>,
    {
        dataset.check()?;
        if schedule.num_samples() != dataset.len() {
            return Err(DataError::ScheduleMismatch {
                schedule: schedule.num_samples(),
                dataset: dataset.len(),
            });
        }
        let rows = Vec::with_capacity(schedule.batch_size());
        let len = dataset.len() as u64;
        let identity = SourceState::new("trainer", 0).with_data(fingerprint(&[
            &len.to_le_bytes(),
            &spec_fingerprint::<R>().to_le_bytes(),
        ]));
        Ok(Self::with_rows(
            DatasetRows {
                dataset,
                cursor: EpochCursor::new(schedule, &identity),
            },
            rows,
            costs,
            channels,
        ))
    }

    /// A trainer of the batches of `source`, a source of batches of the record `R` (a
    /// `ParquetStream`, a prefetched provider of the record, a stream), from where it stands.
    /// Each batch is served to every consumer as [`Trainer::new`]'s are, from its unique leaves.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::data::{BatchSource, Dataset, Provider, Trainer};
    /// use batchspec::iteration::Schedule;
    /// use batchspec::mapping::{Cost, Model};
    /// use std::sync::Arc;
    ///
    /// #[derive(DataSpec)]
    /// struct Record {
    ///     #[spec(source = "features")]
    ///     x: Batch<Vector<1>>,
    /// }
    /// #[derive(DataSpec)]
    /// struct Input {
    ///     #[spec(source = "features")]
    ///     x: ArcBatch<Vector<1>>,
    /// }
    /// struct Mean;
    /// impl Model for Mean {
    ///     type Input = Input;
    ///     type Output = Vector<1>;
    /// }
    /// let ds = Arc::new(Dataset::new(Record { x: Batch::new(ndarray::Array2::from_elem((10, 1), 2.0f32))? })?);
    /// let source = Provider::<Record, Record>::shared(ds, Schedule::builder(10).batch_size(4).build()?)?;
    /// let mut trainer = Trainer::<Record, Mean, (), ()>::from_source(source.prefetched(2), (), ());
    /// let report = trainer.epoch(&mut Mean, |_, _, data| assert!(data.input.x.array().iter().all(|&v| v == 2.0)))?;
    /// assert_eq!((report.steps, report.samples), (3, 10));
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    pub fn from_source<S: BatchesOf<R>>(
        source: S,
        costs: C,
        channels: H,
    ) -> Trainer<'static, R, M, C, H, SourceRows<S>>
    where
        R: 'static,
        R: Trains<M, C, H>,
    {
        let epoch = source.state().epoch();
        Trainer::with_rows(SourceRows { source, epoch }, Vec::new(), costs, channels)
    }

    /// The next batch of the epoch, served to every consumer; `None` at the end of the epoch.
    /// A batch holds its samples only: a padded last batch is served short, a rolled-over one
    /// with its wrapped samples.
    pub fn next_data(&mut self) -> Option<StepData<M, C, H>>
    where
        R: Trains<M, C, H>,
    {
        self.try_next_data().map(infallible)
    }

    /// One step: the next batch served, the costs and channels computed on it with `model` as
    /// it is, then `update(model, costs, data)` (the gradient step the caller writes); `None` at
    /// the end of the epoch.
    pub fn step(
        &mut self,
        model: &mut M,
        update: impl FnOnce(&mut M, &C, &StepData<M, C, H>),
    ) -> Option<StepReport>
    where
        R: Trains<M, C, H>,
    {
        self.try_step(model, update).map(infallible)
    }

    /// The rest of the epoch, step by step, then the next epoch started: each cost and channel
    /// averaged over the samples.
    pub fn epoch(
        &mut self,
        model: &mut M,
        update: impl FnMut(&mut M, &C, &StepData<M, C, H>),
    ) -> EpochReport
    where
        R: Trains<M, C, H>,
    {
        infallible(self.try_epoch(model, update))
    }

    /// Up to `epochs` epochs (fewer when a hook stops the run, [`Trainer::stopped`]), then
    /// the monitors and hooks of [`Every::End`](crate::data::Every::End): each epoch's report.
    pub fn fit(
        &mut self,
        model: &mut M,
        epochs: u64,
        mut update: impl FnMut(&mut M, &C, &StepData<M, C, H>),
    ) -> Vec<EpochReport>
    where
        R: Trains<M, C, H>,
    {
        let mut reports = Vec::new();
        for _ in 0..epochs {
            if self.stopped.is_some() {
                break;
            }
            reports.push(self.epoch(model, &mut update));
        }
        self.moment(model, Moment::End, None, reports.last());
        reports
    }
}

/// The result of serving a dataset's rows, which cannot fail (the rows come from a schedule
/// checked against the dataset where the trainer was made).
fn infallible<T>(result: Result<T, DataError>) -> T {
    result.unwrap_or_else(|e| unreachable!("serving a dataset's rows cannot fail, yet: {e}"))
}

impl<R, M, C, H, S> Trainer<'static, R, M, C, H, SourceRows<S>>
where
    R: DataSpec + 'static,
    M: Model,
    C: Costs<M>,
    H: Channels<M>,
    S: BatchSource<R>,
{
    /// The next batch of the epoch, served to every consumer; `None` at the end of the epoch.
    ///
    /// # Errors
    /// The source's errors.
    pub fn next_data(&mut self) -> Option<Result<StepData<M, C, H>, DataError>>
    where
        R: Trains<M, C, H>,
    {
        self.try_next_data()
    }

    /// One step (see [`Trainer::step`] of a dataset's trainer); `None` at the end of the epoch.
    ///
    /// # Errors
    /// The source's errors.
    pub fn step(
        &mut self,
        model: &mut M,
        update: impl FnOnce(&mut M, &C, &StepData<M, C, H>),
    ) -> Option<Result<StepReport, DataError>>
    where
        R: Trains<M, C, H>,
    {
        self.try_step(model, update)
    }

    /// The rest of the epoch, step by step, then the next epoch started.
    ///
    /// # Errors
    /// The source's first error, which ends the epoch.
    pub fn epoch(
        &mut self,
        model: &mut M,
        update: impl FnMut(&mut M, &C, &StepData<M, C, H>),
    ) -> Result<EpochReport, DataError>
    where
        R: Trains<M, C, H>,
    {
        self.try_epoch(model, update)
    }

    /// Up to `epochs` epochs (fewer when a hook stops the run, [`Trainer::stopped`]), then
    /// the monitors and hooks of [`Every::End`](crate::data::Every::End): each epoch's report.
    ///
    /// # Errors
    /// The source's first error, which ends the run.
    pub fn fit(
        &mut self,
        model: &mut M,
        epochs: u64,
        mut update: impl FnMut(&mut M, &C, &StepData<M, C, H>),
    ) -> Result<Vec<EpochReport>, DataError>
    where
        R: Trains<M, C, H>,
    {
        let mut reports = Vec::new();
        for _ in 0..epochs {
            if self.stopped.is_some() {
                break;
            }
            reports.push(self.try_epoch(model, &mut update)?);
        }
        self.moment(model, Moment::End, None, reports.last());
        Ok(reports)
    }
}

impl<'d, R, M, C, H, S> Trainer<'d, R, M, C, H, S>
where
    R: DataSpec,
    M: Model,
    C: Costs<M>,
    H: Channels<M>,
    S: TrainerRows<R>,
{
    fn with_rows(rows_of: S, rows: Vec<usize>, costs: C, channels: H) -> Self {
        let mapping = Mapping::<Combined<M, C, H>>::new();
        Trainer {
            rows_of,
            rows,
            cache: ServeCache::new(),
            costs,
            channels,
            unique: mapping.len(),
            leaves: <Combined<M, C, H> as DataSpec>::LEAVES,
            served: 0,
            steps: 0,
            checkpoints: Vec::new(),
            monitors: Vec::new(),
            hooks: Vec::new(),
            stopped: None,
            monitored: Vec::new(),
            _model: PhantomData,
        }
    }

    /// The unique (source, space) leaves of the combined request: what each batch gathers.
    pub fn unique_leaves(&self) -> usize {
        self.unique
    }

    /// The leaves of the combined request, counting each consumer's own.
    pub fn leaves(&self) -> usize {
        self.leaves
    }

    /// The costs.
    pub fn costs(&self) -> &C {
        &self.costs
    }

    /// The channels.
    pub fn channels(&self) -> &H {
        &self.channels
    }

    /// Starts epoch `epoch` (its order, for shuffled schedules, depends on the seed and `epoch`).
    pub fn start_epoch(&mut self, epoch: u64) {
        self.rows_of.start(epoch);
    }

    /// Where the trainer stands: the steps taken and the data's position (after the last
    /// step).
    pub fn state(&self) -> TrainerState {
        TrainerState {
            step: self.steps,
            data: self.rows_of.position(),
        }
    }

    /// Continues from `state`: the next step serves the batch an uninterrupted run would have
    /// served after it (the data's resume, elastic for a dataset's trainer as a
    /// [`Provider`](crate::data::Provider)'s is).
    ///
    /// # Errors
    /// The data's: a state of another dataset, request, seed or plan, in words.
    pub fn resume(&mut self, state: &TrainerState) -> Result<(), DataError> {
        self.rows_of.seek(&state.data)?;
        self.steps = state.step;
        Ok(())
    }

    /// Runs `save` with the trainer's state after every `every` steps (counted since the first
    /// epoch, so a resumed run saves at the same steps): the data side of a checkpoint, to be
    /// written beside the model's. A step count of 0 is taken as 1.
    pub fn checkpoint_every(
        &mut self,
        every: u64,
        save: impl FnMut(&TrainerState) + Send + 'static,
    ) -> &mut Self {
        self.checkpoints.push((every.max(1), Box::new(save)));
        self
    }

    /// Evaluates `source`, batches of the record (a validation set: a provider of another
    /// dataset, a Parquet stream of held-out files), on the timescale `every`: a whole pass of
    /// its epoch 0 each time, every cost and channel computed on each batch with the model as it
    /// is (no update) and averaged over the samples, each batch served from its unique leaves
    /// as the training batches are. The reports reach the hooks of the same moment and
    /// [`Trainer::monitored`]. The sources are evaluated in the order they were added.
    pub fn monitor<V>(&mut self, name: impl Into<String>, source: V, every: Every) -> &mut Self
    where
        V: SourceOf<R> + 'd,
    {
        self.monitors.push(Monitor {
            name: name.into(),
            every,
            source: Box::new(source),
            cache: ServeCache::new(),
            rows: Vec::new(),
        });
        self
    }

    /// Runs `hook` on the timescale `every` (after the step, or at the epoch's end, once that
    /// moment's monitors are evaluated): a [`CsvLog`](crate::data::CsvLog), an
    /// [`EarlyStopping`](crate::data::EarlyStopping), or any `FnMut(&Event) -> Control`. A hook
    /// that answers [`Control::Stop`] stops the run: the trainer serves no more steps
    /// ([`Trainer::stopped`] says why). Hooks run in the order they were added.
    pub fn hook(&mut self, every: Every, hook: impl Hook + 'd) -> &mut Self {
        self.hooks.push((every, Box::new(hook)));
        self
    }

    /// Why a hook stopped the run, if one did.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// Every monitoring pass so far (since the last [`Trainer::take_monitored`]), in order. The
    /// trainer keeps them all: a long run that evaluates often should take them as it goes, or
    /// read them in a hook ([`CsvLog`](crate::data::CsvLog) writes them down).
    pub fn monitored(&self) -> &[MonitorReport] {
        &self.monitored
    }

    /// The monitoring passes so far, taken: the trainer keeps none of them after.
    pub fn take_monitored(&mut self) -> Vec<MonitorReport> {
        core::mem::take(&mut self.monitored)
    }

    /// The steps taken since the first epoch.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    fn try_next_data(&mut self) -> Option<Result<StepData<M, C, H>, DataError>>
    where
        R: Trains<M, C, H>,
    {
        let cache = &mut self.cache;
        let served = self.rows_of.serve_next(&mut self.rows, |record, rows| {
            cache.serve_rows(rows);
            <R as Trains<M, C, H>>::serve_consumers(record, cache)
        })?;
        Some(served.map(|((input, costs, channels), n)| {
            self.served = n;
            StepData {
                input,
                costs,
                channels,
            }
        }))
    }

    fn try_step(
        &mut self,
        model: &mut M,
        update: impl FnOnce(&mut M, &C, &StepData<M, C, H>),
    ) -> Option<Result<StepReport, DataError>>
    where
        R: Trains<M, C, H>,
    {
        if self.stopped.is_some() {
            return None;
        }
        let data = match self.try_next_data()? {
            Ok(data) => data,
            Err(e) => return Some(Err(e)),
        };
        let leaves_gathered = self.cache.produced();
        let mut costs = Vec::new();
        self.costs.values(model, &data.costs, &mut costs);
        let mut channels = Vec::new();
        self.channels.values(model, &data.channels, &mut channels);
        let samples = self.served;
        update(model, &self.costs, &data);
        // The step's batch is let go before the monitors of this moment gather theirs.
        drop(data);
        self.steps += 1;
        if !self.checkpoints.is_empty() {
            let state = self.state();
            for (every, save) in &mut self.checkpoints {
                if self.steps.is_multiple_of(*every) {
                    save(&state);
                }
            }
        }
        let report = StepReport {
            samples,
            costs,
            channels,
            leaves_gathered,
        };
        self.moment(model, Moment::Update, Some(&report), None);
        Some(Ok(report))
    }

    /// The monitors and hooks of a moment.
    fn moment(
        &mut self,
        model: &M,
        moment: Moment,
        step_report: Option<&StepReport>,
        epoch_report: Option<&EpochReport>,
    ) where
        R: Trains<M, C, H>,
    {
        let steps = self.steps;
        if !self.monitors.iter().any(|m| m.every.due(steps, moment))
            && !self.hooks.iter().any(|h| h.0.due(steps, moment))
        {
            return;
        }
        let epoch = match moment {
            Moment::EpochEnd(e) => e,
            _ => self.rows_of.epoch(),
        };
        let mut now = Vec::new();
        for i in 0..self.monitors.len() {
            if self.monitors[i].every.due(steps, moment) {
                let report = self.evaluate(model, i);
                now.push(MonitorReport {
                    name: self.monitors[i].name.clone(),
                    step: steps,
                    epoch,
                    report,
                });
            }
        }
        let state = self.state();
        let event = Event {
            step: steps,
            epoch,
            step_report,
            epoch_report,
            monitors: &now,
            state: &state,
        };
        for (every, hook) in &mut self.hooks {
            if every.due(steps, moment)
                && let Control::Stop(why) = hook.run(&event)
                && self.stopped.is_none()
            {
                self.stopped = Some(why);
            }
        }
        self.monitored.extend(now);
    }

    /// A pass over monitor `i`'s epoch 0 with the model as it is.
    fn evaluate(&mut self, model: &M, i: usize) -> Result<EpochReport, DataError>
    where
        R: Trains<M, C, H>,
    {
        let monitor = &mut self.monitors[i];
        monitor.source.start_epoch(0);
        let mut report = EpochReport::default();
        let (mut costs, mut channels) = (Vec::new(), Vec::new());
        while let Some(batch) = monitor.source.next_owned() {
            let (batch, info) = batch?;
            monitor.rows.clear();
            monitor.rows.extend(0..info.count_samples);
            monitor.cache.serve_rows(&monitor.rows);
            let (_, c, h) = <R as Trains<M, C, H>>::serve_consumers(&batch, &mut monitor.cache);
            costs.clear();
            channels.clear();
            self.costs.values(model, &c, &mut costs);
            self.channels.values(model, &h, &mut channels);
            report.add(info.count_samples, &costs, &channels);
        }
        Ok(report.finish())
    }

    fn try_epoch(
        &mut self,
        model: &mut M,
        mut update: impl FnMut(&mut M, &C, &StepData<M, C, H>),
    ) -> Result<EpochReport, DataError>
    where
        R: Trains<M, C, H>,
    {
        let mut report = EpochReport::default();
        while let Some(step) = self.try_step(model, &mut update) {
            let step = step?;
            report.add(step.samples, &step.costs, &step.channels);
        }
        let report = report.finish();
        let ended = self.rows_of.epoch();
        // An epoch a hook stopped is not an epoch's end: its moment does not come.
        if self.stopped.is_none() {
            self.moment(model, Moment::EpochEnd(ended), None, Some(&report));
        }
        self.rows_of.start(ended + 1);
        Ok(report)
    }
}
