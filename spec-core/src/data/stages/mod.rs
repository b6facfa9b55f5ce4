//! Per-sample stages between a source and its batches: [`SampleStages::filter_samples`] (a
//! predicate on each sample, typed), [`SampleStages::map_samples`] (each sample made into one of
//! another spec, checked at compile time) and [`SampleStages::filter_map_samples`], each serving
//! batches of the source's batch size from the samples that pass, in the source's order,
//! resumable. [`SampleStage::workers`] runs a stage's function on a pool of threads
//! ([`ParallelStage`], in `workers.rs`).

mod workers;

pub use workers::{ParallelStage, WorkerFn};

use crate::data::batch_source::{BatchInfo, BatchSource};
use crate::data::cursor::{Cursor, Next};
use crate::data::dataset::AllocFlat;
use crate::data::error::DataError;
use crate::data::gather::GatherSame;
use crate::data::state::SourceState;
use crate::types::spec::{DataSpec, FlatOf};

/// The samples of a source passed one at a time through `f` (made by the methods of
/// [`SampleStages`]): what `f` keeps is served in batches of the source's batch size, in order.
/// Its state is the source's at the batch being read, the samples of it taken, and the stage's
/// own count; resuming gives the same batches (for an `f` that is a function of its sample).
pub struct SampleStage<'a, Q, P, F> {
    pub(crate) cursor: Cursor<'a, Q>,
    pub(crate) f: F,
    pub(crate) out: Batcher<P>,
}

/// The output side of a per-sample stage, on one thread or on workers: the samples kept,
/// batched in order at the source's batch size, lent or given, and the stage's state (the same
/// for both, so that either resumes the other).
pub(crate) struct Batcher<P> {
    kind: &'static str,
    /// The source's batch size, from its first batch (or the state).
    pub batch_size: Option<usize>,
    epoch: u64,
    batches: u64,
    samples: u64,
    staging: Option<P>,
    filled: usize,
    out: Option<P>,
}

impl<P: SampleOut> Batcher<P> {
    pub fn new(kind: &'static str) -> Self {
        Batcher {
            kind,
            batch_size: None,
            epoch: 0,
            batches: 0,
            samples: 0,
            staging: None,
            filled: 0,
            out: None,
        }
    }

    /// Whether the batch being filled is full.
    pub fn full(&self) -> bool {
        self.batch_size == Some(self.filled)
    }

    /// Takes the batch size from the source's first batch of `rows` rows, if not known yet.
    pub fn size_from(&mut self, rows: Option<usize>) {
        self.batch_size.get_or_insert(rows.unwrap_or(1).max(1));
    }

    /// Puts a kept sample (a batch of one) next in the batch.
    pub fn push(&mut self, p: &P) {
        let size = self.batch_size.unwrap_or(1);
        let staging = self.staging.get_or_insert_with(|| P::alloc_batch(size));
        P::gather_same(staging, p, &[0], self.filled);
        self.filled += 1;
    }

    /// Ends the batch being filled: its samples, or `None` if it holds none (the epoch's end).
    pub fn finish(&mut self) -> Option<usize> {
        let filled = core::mem::take(&mut self.filled);
        if filled == 0 {
            return None;
        }
        self.batches = self.batches.saturating_add(1);
        self.samples = self.samples.saturating_add(filled as u64);
        Some(filled)
    }

    fn short(&self, filled: usize) -> Option<P> {
        let mut short = P::alloc_batch(filled);
        let rows: Vec<usize> = (0..filled).collect();
        P::gather_same(&mut short, self.staging.as_ref()?, &rows, 0);
        Some(short)
    }

    /// Lends the batch of `filled` samples just finished.
    pub fn lend(&mut self, filled: usize) -> Option<(&P, BatchInfo)> {
        if Some(filled) == self.batch_size {
            return Some((self.staging.as_ref()?, info(filled)));
        }
        let short = self.short(filled)?;
        Some((&*self.out.insert(short), info(filled)))
    }

    /// Gives the batch of `filled` samples just finished away.
    pub fn give(&mut self, filled: usize) -> Option<(P, BatchInfo)> {
        if Some(filled) == self.batch_size {
            return self.staging.take().map(|p| (p, info(filled)));
        }
        Some((self.short(filled)?, info(filled)))
    }

    /// Starts epoch `epoch`: nothing served, nothing being filled.
    pub fn start(&mut self, epoch: u64) {
        self.epoch = epoch;
        self.batches = 0;
        self.samples = 0;
        self.filled = 0;
    }

    /// The stage's state: the source's `inner` state at the batch being read and the samples
    /// of it taken (`used`), the stage's batch size, counts and request.
    pub fn state(&self, (inner, used): (SourceState, usize)) -> SourceState {
        let part = SourceState::new("sample stage cursor", 0)
            .at(used as u64, self.batch_size.unwrap_or(0) as u64)
            .with_inner(vec![inner]);
        SourceState::new("per-sample stage", self.epoch)
            .with_request::<P>()
            .at(self.batches, self.samples)
            .with_plan(self.kind)
            .with_inner(vec![part])
    }

    /// Takes the stage's part of a saved `state` (checked against `here`, this stage's): the
    /// source's state to resume and the samples of its batch taken.
    pub fn resume<'s>(
        &mut self,
        state: &'s SourceState,
        here: SourceState,
    ) -> Result<(&'s SourceState, usize), DataError> {
        state
            .clone()
            .with_inner(Vec::new())
            .check_against(&here.with_inner(Vec::new()), false)?;
        let not_ours = || DataError::Resume("the state is not a per-sample stage's".into());
        let [part] = state.inner() else {
            return Err(not_ours());
        };
        let [inner] = part.inner() else {
            return Err(not_ours());
        };
        let batch_size = part.samples();
        self.batch_size = (batch_size > 0).then_some(batch_size as usize);
        self.epoch = state.epoch();
        self.batches = state.batches();
        self.samples = state.samples();
        self.filled = 0;
        Ok((inner, part.batches() as usize))
    }
}

/// Per-sample stages on any source of batches (in the prelude).
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::Stream;
///
/// #[derive(DataSpec)]
/// struct Reading {
///     #[spec(source = "celsius")]
///     t: Batch<Vector<1>>,
/// }
/// #[derive(DataSpec)]
/// struct Kelvin {
///     #[spec(source = "kelvin")]
///     k: Batch<Vector<1>>,
/// }
/// let readings = (0..10).map(|i| Reading { t: Batch::new(ndarray::array![[i as f32 * 10.0 - 40.0]]).unwrap() });
/// let mut warm = Stream::<Reading, Reading>::once(readings, 4)
///     // Keep the readings above freezing...
///     .filter_samples(|r: &Reading| r.t.array()[[0, 0]] > 0.0)
///     // ...as kelvins: a sample of another spec.
///     .map_samples(|r: Reading| {
///         Ok(Kelvin { k: Batch::new(r.t.array().mapv(|c| c + 273.15))? })
///     });
/// let (batch, info) = warm.next_batch().unwrap()?;
/// assert_eq!(info.count_samples, 4, "batches of the source's size, of the samples kept");
/// assert_eq!(batch.k.array()[[0, 0]], 283.15);
/// let (_, info) = warm.next_batch().unwrap()?;
/// assert_eq!(info.count_samples, 1);
/// assert!(warm.next_batch().is_none());
/// # Ok::<(), batchspec::Error>(())
/// ```
pub trait SampleStages<Q>: BatchSource<Q> + Sized {
    /// Only the samples for which `keep` holds (it sees each sample as a batch of one); dropped
    /// samples never reach a batch, and the batches' counts are those of the samples kept.
    fn filter_samples<'a, F>(self, keep: F) -> SampleStage<'a, Q, Q, Keep<F>>
    where
        Self: Send + 'a,
        F: FnMut(&Q) -> bool,
        Q: DataSpec + GatherSame + 'a,
        FlatOf<Q>: AllocFlat,
    {
        SampleStage::new(self, "filter", Keep(keep))
    }

    /// Each sample made by `f` into a sample of the spec `P` (a batch of one; the output spec is
    /// checked at compile time like any request).
    fn map_samples<'a, P, F>(self, f: F) -> SampleStage<'a, Q, P, MapTo<F>>
    where
        Self: Send + 'a,
        F: FnMut(Q) -> Result<P, DataError>,
        Q: DataSpec + GatherSame + 'a,
        P: SampleOut,
        FlatOf<Q>: AllocFlat,
    {
        SampleStage::new(self, "map", MapTo(f))
    }

    /// Each sample made by `f` into a sample of `P`, or dropped (`Ok(None)`).
    fn filter_map_samples<'a, P, F>(self, f: F) -> SampleStage<'a, Q, P, FilterMap<F>>
    where
        Self: Send + 'a,
        F: FnMut(Q) -> Result<Option<P>, DataError>,
        Q: DataSpec + GatherSame + 'a,
        P: SampleOut,
        FlatOf<Q>: AllocFlat,
    {
        SampleStage::new(self, "filter-map", FilterMap(f))
    }
}

/// What a per-sample map may make: a sample of a spec whose batches own their data.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a spec a per-sample map can make",
    label = "the map's function returns `{Self}`",
    note = "a per-sample map returns `Ok(sample)`, a batch of one of a `#[derive(DataSpec)]` struct whose fields own their data (`Batch`, `ArcBatch` or `Ragged`)"
)]
pub trait SampleOut: DataSpec + GatherSame {
    #[doc(hidden)]
    fn alloc_batch(rows: usize) -> Self;
}

#[diagnostic::do_not_recommend]
impl<P: DataSpec + GatherSame> SampleOut for P
where
    FlatOf<P>: AllocFlat,
{
    fn alloc_batch(rows: usize) -> Self {
        P::nest(FlatOf::<P>::alloc(rows, 0))
    }
}

/// What a stage does with one sample: keep it, make another of it, or drop it.
pub trait SampleFn<Q, P> {
    /// The sample made of `q`, or `None` to drop it.
    ///
    /// # Errors
    /// The function's own.
    fn call(&mut self, q: Q) -> Result<Option<P>, DataError>;
}

/// The function of [`SampleStages::filter_samples`].
#[derive(Clone)]
pub struct Keep<F>(F);
/// The function of [`SampleStages::map_samples`].
#[derive(Clone)]
pub struct MapTo<F>(F);
/// The function of [`SampleStages::filter_map_samples`].
#[derive(Clone)]
pub struct FilterMap<F>(F);

impl<Q, F: FnMut(&Q) -> bool> SampleFn<Q, Q> for Keep<F> {
    fn call(&mut self, q: Q) -> Result<Option<Q>, DataError> {
        Ok((self.0)(&q).then_some(q))
    }
}

impl<Q, P, F: FnMut(Q) -> Result<P, DataError>> SampleFn<Q, P> for MapTo<F> {
    fn call(&mut self, q: Q) -> Result<Option<P>, DataError> {
        (self.0)(q).map(Some)
    }
}

impl<Q, P, F: FnMut(Q) -> Result<Option<P>, DataError>> SampleFn<Q, P> for FilterMap<F> {
    fn call(&mut self, q: Q) -> Result<Option<P>, DataError> {
        (self.0)(q)
    }
}

impl<Q, S: BatchSource<Q>> SampleStages<Q> for S {}

impl<'a, Q, P, F> SampleStage<'a, Q, P, F>
where
    Q: DataSpec + GatherSame + 'a,
    P: SampleOut,
    FlatOf<Q>: AllocFlat,
    F: SampleFn<Q, P>,
{
    fn new<S: BatchSource<Q> + Send + 'a>(source: S, kind: &'static str, f: F) -> Self {
        SampleStage {
            cursor: Cursor::new(Box::new(source)),
            f,
            out: Batcher::new(kind),
        }
    }

    /// Fills the staging batch: how many samples, or `None` at the end of the epoch.
    fn stage(&mut self) -> Option<Result<usize, DataError>> {
        while !self.out.full() {
            let row = match self.cursor.next() {
                Ok(Next::Row(row)) => row,
                Ok(Next::End) => break,
                Err(e) => return Some(Err(e)),
            };
            self.out.size_from(self.cursor.batch_rows());
            let mut one = Q::nest(FlatOf::<Q>::alloc(1, 0));
            Q::gather_same(&mut one, self.cursor.batch()?, &[row], 0);
            match self.f.call(one) {
                Ok(Some(p)) => self.out.push(&p),
                Ok(None) => {}
                Err(e) => return Some(Err(e)),
            }
        }
        self.out.finish().map(Ok)
    }
}

fn info(filled: usize) -> BatchInfo {
    BatchInfo {
        count_samples: filled,
        pad: 0,
    }
}

#[diagnostic::do_not_recommend]
impl<'a, Q, P, F> BatchSource<P> for SampleStage<'a, Q, P, F>
where
    Q: DataSpec + GatherSame + 'a,
    P: SampleOut,
    FlatOf<Q>: AllocFlat,
    F: SampleFn<Q, P>,
{
    type Lent<'b>
        = &'b P
    where
        Self: 'b;

    fn next_batch(&mut self) -> Option<Result<(&P, BatchInfo), DataError>> {
        match self.stage()? {
            Ok(filled) => self.out.lend(filled).map(Ok),
            Err(e) => Some(Err(e)),
        }
    }

    fn next_owned(&mut self) -> Option<Result<(P, BatchInfo), DataError>> {
        match self.stage()? {
            Ok(filled) => self.out.give(filled).map(Ok),
            Err(e) => Some(Err(e)),
        }
    }

    fn start_epoch(&mut self, epoch: u64) {
        self.out.start(epoch);
        self.cursor.start_epoch(epoch);
    }

    fn state(&self) -> SourceState {
        self.out.state(self.cursor.state())
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        let (inner, used) = self.out.resume(state, self.state())?;
        self.cursor.resume(inner, used)
    }
}

// Worker threads (the pool in `workers.rs`).
impl<'a, Q, P, F> SampleStage<'a, Q, P, F>
where
    Q: DataSpec + GatherSame,
    P: SampleOut,
    FlatOf<Q>: AllocFlat,
{
    /// The stage's function on `workers` threads (0: as many as the machine's available
    /// parallelism; each has its own clone of the function, which must be a function of its
    /// sample for the batches to be the same at any number of workers). The samples are read
    /// from the source on the thread that asks for batches (behind `prefetched`, the prefetch
    /// thread).
    pub fn workers(self, workers: usize) -> ParallelStage<'a, Q, P>
    where
        F: WorkerFn<Q, P>,
        Q: Send + 'static,
        P: Send + 'static,
    {
        ParallelStage::start(self.cursor, self.f, self.out, workers)
    }
}
