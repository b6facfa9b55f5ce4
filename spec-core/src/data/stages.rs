//! Per-sample stages between a source and its batches: [`SampleStages::filter_samples`] (a
//! predicate on each sample, typed), [`SampleStages::map_samples`] (each sample made into one of
//! another spec, checked at compile time) and [`SampleStages::filter_map_samples`], each serving
//! batches of the source's batch size from the samples that pass, in the source's order,
//! resumable.

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
    pub(crate) kind: &'static str,
    pub(crate) batch_size: Option<usize>,
    pub(crate) epoch: u64,
    batches: u64,
    samples: u64,
    staging: Option<P>,
    filled: usize,
    out: Option<P>,
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

    /// Fills the staging batch: how many samples, or `None` at the end of the epoch.
    fn stage(&mut self) -> Option<Result<usize, DataError>> {
        loop {
            if let Some(size) = self.batch_size
                && self.filled == size
            {
                break;
            }
            let row = match self.cursor.next() {
                Ok(Next::Row(row)) => row,
                Ok(Next::End) => break,
                Err(e) => return Some(Err(e)),
            };
            let size = *self
                .batch_size
                .get_or_insert(self.cursor.batch_rows().unwrap_or(1).max(1));
            let mut one = Q::nest(FlatOf::<Q>::alloc(1, 0));
            Q::gather_same(&mut one, self.cursor.batch()?, &[row], 0);
            match self.f.call(one) {
                Ok(Some(p)) => {
                    let staging = self.staging.get_or_insert_with(|| P::alloc_batch(size));
                    P::gather_same(staging, &p, &[0], self.filled);
                    self.filled += 1;
                }
                Ok(None) => {}
                Err(e) => return Some(Err(e)),
            }
        }
        let filled = core::mem::take(&mut self.filled);
        if filled == 0 {
            return None;
        }
        self.batches += 1;
        self.samples += filled as u64;
        Some(Ok(filled))
    }

    fn short(&self, filled: usize) -> Option<P> {
        let mut short = P::alloc_batch(filled);
        let rows: Vec<usize> = (0..filled).collect();
        P::gather_same(&mut short, self.staging.as_ref()?, &rows, 0);
        Some(short)
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
        let filled = match self.stage()? {
            Ok(n) => n,
            Err(e) => return Some(Err(e)),
        };
        if Some(filled) == self.batch_size {
            return Some(Ok((self.staging.as_ref()?, info(filled))));
        }
        let short = self.short(filled)?;
        Some(Ok((&*self.out.insert(short), info(filled))))
    }

    fn next_owned(&mut self) -> Option<Result<(P, BatchInfo), DataError>> {
        let filled = match self.stage()? {
            Ok(n) => n,
            Err(e) => return Some(Err(e)),
        };
        if Some(filled) == self.batch_size {
            return self.staging.take().map(|p| Ok((p, info(filled))));
        }
        Some(Ok((self.short(filled)?, info(filled))))
    }

    fn start_epoch(&mut self, epoch: u64) {
        self.epoch = epoch;
        self.batches = 0;
        self.samples = 0;
        self.filled = 0;
        self.cursor.start_epoch(epoch);
    }

    fn state(&self) -> SourceState {
        let (inner, used) = self.cursor.state();
        // The part: the samples of the source's batch taken, and the stage's batch size.
        let part = SourceState::new("sample stage cursor", 0)
            .at(used as u64, self.batch_size.unwrap_or(0) as u64)
            .with_inner(vec![inner]);
        SourceState::new("per-sample stage", self.epoch)
            .with_request::<P>()
            .at(self.batches, self.samples)
            .with_plan(self.kind)
            .with_inner(vec![part])
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        let here = self.state().with_inner(Vec::new());
        state
            .clone()
            .with_inner(Vec::new())
            .check_against(&here, false)?;
        let [part] = state.inner() else {
            return Err(DataError::Resume(
                "the state is not a per-sample stage's".into(),
            ));
        };
        let [inner] = part.inner() else {
            return Err(DataError::Resume(
                "the state is not a per-sample stage's".into(),
            ));
        };
        self.cursor.resume(inner, part.batches() as usize)?;
        let batch_size = part.samples();
        self.batch_size = (batch_size > 0).then_some(batch_size as usize);
        self.epoch = state.epoch();
        self.batches = state.batches();
        self.samples = state.samples();
        self.filled = 0;
        Ok(())
    }
}
