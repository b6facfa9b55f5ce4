//! What every source of batches serves: [`BatchInfo`], a batch's real samples and padding, and
//! [`BatchSource`], the one trait generic training code takes, with its combinators
//! ([`TakeBatches`], [`SkipBatches`], [`MapBatches`], [`IntoRequest`]; `prefetched` is the
//! prefetch file's [`IntoPrefetch`](crate::data::IntoPrefetch)).
//! Providers, streams, prefetched producers, generators and Parquet streams implement it, each
//! beside its own type.

use crate::augment::Draws;
use crate::data::dataset::{AllocFlat, gather_owned};
use crate::data::error::DataError;
use crate::data::gather::GatherFrom;
use crate::data::state::SourceState;
use crate::types::spec::{DataSpec, FlatOf};

/// What a step of a provider served besides the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchInfo {
    /// The number of real samples at the start of the batch (MXNet's `count_samples`).
    pub count_samples: usize,
    /// The number of rows after them: padding or rolled-over samples (MXNet's `pad`).
    pub pad: usize,
}

/// A source of batches of the request `Q`, whatever stands behind it: a dataset with a schedule
/// ([`Provider`](crate::data::Provider)), a stream ([`Stream`](crate::data::Stream)), a
/// producer on another thread ([`Prefetch`](crate::data::Prefetch)), a closure
/// ([`Generator`](crate::data::Generator)) or, with the feature `parquet`, a rank's share of
/// Parquet files (`batchspec::load::ParquetStream`). Training code written over it takes any of
/// them; so do burn's and candle's loaders (`batchspec-burn`'s `SourceLoader`,
/// `batchspec-candle`'s `Batches::from_source`) and the [`Trainer`](crate::data::Trainer).
///
/// A source serves epochs: [`next_batch`](Self::next_batch) gives the batches of the current
/// epoch and `None` at its end, [`start_epoch`](Self::start_epoch) starts another. Its position
/// is a value, [`state`](Self::state), and [`resume`](Self::resume) continues from a saved one
/// with exactly the batches an uninterrupted run would have served next (property-tested for
/// every source at every batch boundary). Every source also runs on a thread of its own with
/// [`IntoPrefetch::prefetched`](crate::data::IntoPrefetch::prefetched) (in the prelude).
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::BatchSource;
///
/// #[derive(DataSpec)]
/// struct Input {
///     #[spec(source = "x")]
///     x: Batch<Vector<2>>,
/// }
///
/// /// Sums the first feature of every batch, from anything that serves batches.
/// fn first_features<B: BatchSource<Input>>(batches: &mut B) -> Result<f32, batchspec::Error> {
///     let mut sum = 0.0;
///     while let Some(b) = batches.next_batch() {
///         let (batch, info) = b?;
///         sum += batch.x.array().column(0).iter().take(info.count_samples).sum::<f32>();
///     }
///     Ok(sum)
/// }
/// # use batchspec::data::Dataset;
/// # use batchspec::iteration::Schedule;
/// # use batchspec::data::Provider;
/// # use batchspec::data::Stream;
/// let ds = Dataset::new(Input { x: Batch::new(ndarray::array![[1.0f32, 0.], [2., 0.], [3., 0.]])? })?;
/// let mut provider = Provider::<Input, Input>::new(&ds, Schedule::builder(3).batch_size(2).build()?)?;
/// assert_eq!(first_features(&mut provider)?, 6.0);
/// let samples = (1..=3).map(|i| Input { x: Batch::new(ndarray::array![[i as f32, 0.]]).unwrap() });
/// let mut stream = Stream::<Input, Input>::once(samples, 2);
/// assert_eq!(first_features(&mut stream)?, 6.0);
/// # Ok::<(), batchspec::Error>(())
/// ```
// Not `Batches`: `batchspec_candle::Batches` is another item of the crate graph, and rustc
// would then print both with their whole paths in compile errors.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a source of batches of `{Q}`",
    label = "this serves no batches of `{Q}`",
    note = "a source of batches of a request is a `Provider` of it, a `Stream`, a `Generator`, a `ParquetStream`, `ImageStream` or `ShardStream` of it (a record), a `Mix` of sources of it, or one of these prefetched, taken, skipped, mapped or filtered"
)]
pub trait BatchSource<Q> {
    /// A batch lent until the next call.
    type Lent<'a>: core::ops::Deref<Target = Q>
    where
        Self: 'a;

    /// The next batch of the epoch and what it holds; `None` at its end.
    ///
    /// # Errors
    /// The source's errors; a stream may go on after one, a provider's batches do not fail.
    fn next_batch(&mut self) -> Option<Result<(Self::Lent<'_>, BatchInfo), DataError>>;

    /// The next batch of the epoch, given away: memory of its own, holding exactly the batch's
    /// rows (for a framework's tensor made from it without a copy); `None` at the end.
    ///
    /// # Errors
    /// As [`next_batch`](Self::next_batch).
    fn next_owned(&mut self) -> Option<Result<(Q, BatchInfo), DataError>>;

    /// Starts epoch `epoch` (its order, for shuffled sources, depends on the seed and `epoch`).
    fn start_epoch(&mut self, epoch: u64);

    /// Where the source stands: after the batches served so far (prefetched, after those the
    /// consumer took, not those made ahead).
    fn state(&self) -> SourceState;

    /// Continues from `state`, a state this source (or the same source in another process)
    /// gave: the next batches are those an uninterrupted run would have served after it.
    ///
    /// # Errors
    /// [`DataError::StateMismatch`] for a state of another source (data, request, seed, plan or
    /// number of ranks), naming the part that differs; [`DataError::Resume`] for a state this
    /// kind of source cannot resume from; the source's own errors while it seeks.
    fn resume(&mut self, state: &SourceState) -> Result<(), DataError>;

    /// The samples an epoch serves on this rank, padding not counted, where the source knows it
    /// before serving (a provider, a Parquet stream); `None` for a stream or a generator.
    fn samples_per_epoch(&self) -> Option<usize> {
        None
    }

    /// The first `n` batches of each epoch.
    fn take_batches(self, n: usize) -> TakeBatches<Self>
    where
        Self: Sized,
    {
        TakeBatches {
            source: self,
            limit: n,
            served: 0,
        }
    }

    /// Each epoch without its first `n` batches (skipped by [`resume`](Self::resume)'s seek, not
    /// gathered, where the source can).
    fn skip_batches(self, n: usize) -> SkipBatches<Self>
    where
        Self: Sized,
    {
        SkipBatches {
            source: self,
            skip: n,
            skipped: false,
        }
    }

    /// Every batch passed through `f`, which makes a batch of another request from it (a
    /// batch-level transform: a mix of samples, a tokenization, a model's own collate).
    fn map_batches<P, F>(self, f: F) -> MapBatches<Self, F, Q, P>
    where
        Self: Sized,
        F: FnMut(Q, BatchInfo) -> Result<P, DataError>,
    {
        MapBatches {
            source: self,
            f,
            lent: None,
            from: core::marker::PhantomData,
        }
    }

    /// The batches converted to the request `P`, each leaf gathered from the batch's record and
    /// converted in one pass, as a provider of `P` would from a dataset of the record (the
    /// conversion is checked at compile time: `P: GatherFrom<Q>`). For a source of records,
    /// such as a `ParquetStream`, feeding a model that asks for other layouts or types.
    /// Augmentations draw by `(seed, epoch)` and each sample's place in the epoch.
    fn into_request<P>(self) -> IntoRequest<Self, Q, P>
    where
        Self: Sized,
        Q: DataSpec,
        P: DataSpec + GatherFrom<Q>,
        FlatOf<P>: AllocFlat,
    {
        IntoRequest {
            source: self,
            lent: None,
            at: None,
            types: core::marker::PhantomData,
        }
    }
}

/// What an entry point that takes a source of batches asks for (the trainer's `from_source`):
/// any [`BatchSource`] of `Q`. A trait of its own so that a source of another request is one
/// error in words, without the implementations rustc would otherwise quote.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a source of batches of `{Q}`",
    label = "this serves no batches of `{Q}`",
    note = "a source of batches of a request is a `Provider` of it, a `Stream`, a `Generator`, a `ParquetStream`, `ImageStream` or `ShardStream` of it (a record), a `Mix` of sources of it, or one of these prefetched, taken, skipped, mapped or filtered"
)]
pub trait BatchesOf<Q>: BatchSource<Q> {}

#[diagnostic::do_not_recommend]
impl<Q, S: BatchSource<Q>> BatchesOf<Q> for S {}

/// The first batches of each epoch of a source ([`BatchSource::take_batches`]).
pub struct TakeBatches<S> {
    source: S,
    limit: usize,
    served: usize,
}

#[diagnostic::do_not_recommend]
impl<Q, S: BatchSource<Q>> BatchSource<Q> for TakeBatches<S> {
    type Lent<'a>
        = S::Lent<'a>
    where
        Self: 'a;

    fn next_batch(&mut self) -> Option<Result<(S::Lent<'_>, BatchInfo), DataError>> {
        if self.served >= self.limit {
            return None;
        }
        self.served = self.served.saturating_add(1);
        self.source.next_batch()
    }

    fn next_owned(&mut self) -> Option<Result<(Q, BatchInfo), DataError>> {
        if self.served >= self.limit {
            return None;
        }
        self.served = self.served.saturating_add(1);
        self.source.next_owned()
    }

    fn start_epoch(&mut self, epoch: u64) {
        self.served = 0;
        self.source.start_epoch(epoch);
    }

    fn state(&self) -> SourceState {
        let inner = self.source.state();
        SourceState::new("take", inner.epoch())
            .at(self.served as u64, inner.samples())
            .with_plan(format!("the first {} batches", self.limit))
            .with_inner(vec![inner])
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        state.check_against(&self.state(), true)?;
        self.source.resume(&state.inner()[0])?;
        self.served = usize::try_from(state.batches()).unwrap_or(usize::MAX);
        Ok(())
    }

    // The samples of the first batches are not known before they are served: no count.
}

/// Each epoch of a source without its first batches ([`BatchSource::skip_batches`]).
pub struct SkipBatches<S> {
    source: S,
    skip: usize,
    skipped: bool,
}

impl<S> SkipBatches<S> {
    fn skip_now<Q>(&mut self) -> Result<(), DataError>
    where
        S: BatchSource<Q>,
    {
        if self.skipped {
            return Ok(());
        }
        self.skipped = true;
        let mut at = self.source.state();
        if at.batches() >= self.skip as u64 {
            return Ok(());
        }
        // The source's own seek: a provider skips batches without gathering them, a Parquet
        // stream by its footers' row counts.
        at = SourceState::clone(&at).at(self.skip as u64, 0);
        if self.source.resume(&at).is_ok() {
            return Ok(());
        }
        for _ in 0..self.skip {
            match self.source.next_batch() {
                Some(Err(e)) => return Err(e),
                Some(Ok(_)) => {}
                None => break,
            }
        }
        Ok(())
    }
}

#[diagnostic::do_not_recommend]
impl<Q, S: BatchSource<Q>> BatchSource<Q> for SkipBatches<S> {
    type Lent<'a>
        = S::Lent<'a>
    where
        Self: 'a;

    fn next_batch(&mut self) -> Option<Result<(S::Lent<'_>, BatchInfo), DataError>> {
        if let Err(e) = self.skip_now() {
            return Some(Err(e));
        }
        self.source.next_batch()
    }

    fn next_owned(&mut self) -> Option<Result<(Q, BatchInfo), DataError>> {
        if let Err(e) = self.skip_now() {
            return Some(Err(e));
        }
        self.source.next_owned()
    }

    fn start_epoch(&mut self, epoch: u64) {
        self.skipped = false;
        self.source.start_epoch(epoch);
    }

    fn state(&self) -> SourceState {
        let inner = self.source.state();
        SourceState::new("skip", inner.epoch())
            .at(inner.batches(), inner.samples())
            .with_plan(format!("without the first {} batches", self.skip))
            .with_inner(vec![inner])
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        state.check_against(&self.state(), true)?;
        self.source.resume(&state.inner()[0])?;
        // A state inside the skipped batches (taken before the first batch) skips the rest.
        self.skipped = false;
        Ok(())
    }
}

/// A source's batches passed through a function ([`BatchSource::map_batches`]).
pub struct MapBatches<S, F, Q, P> {
    source: S,
    f: F,
    lent: Option<P>,
    from: core::marker::PhantomData<fn(Q)>,
}

#[diagnostic::do_not_recommend]
impl<Q, P, S, F> BatchSource<P> for MapBatches<S, F, Q, P>
where
    S: BatchSource<Q>,
    F: FnMut(Q, BatchInfo) -> Result<P, DataError>,
{
    type Lent<'a>
        = &'a P
    where
        Self: 'a;

    fn next_batch(&mut self) -> Option<Result<(&P, BatchInfo), DataError>> {
        match self.next_owned()? {
            Ok((p, info)) => Some(Ok((self.lent.insert(p), info))),
            Err(e) => Some(Err(e)),
        }
    }

    fn next_owned(&mut self) -> Option<Result<(P, BatchInfo), DataError>> {
        Some(
            self.source
                .next_owned()?
                .and_then(|(q, info)| Ok(((self.f)(q, info)?, info))),
        )
    }

    fn start_epoch(&mut self, epoch: u64) {
        self.source.start_epoch(epoch);
    }

    fn state(&self) -> SourceState {
        self.source.state()
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        self.source.resume(state)
    }

    fn samples_per_epoch(&self) -> Option<usize> {
        self.source.samples_per_epoch()
    }
}

/// A source's batches converted to another request ([`BatchSource::into_request`]).
pub struct IntoRequest<S, Q, P> {
    source: S,
    lent: Option<P>,
    // The draws of the next batch: the source's seed and epoch, and the samples it served in the
    // epoch (read from its state once, then counted here).
    at: Option<Draws<'static>>,
    types: core::marker::PhantomData<fn(Q) -> P>,
}

#[diagnostic::do_not_recommend]
impl<S, Q, P> BatchSource<P> for IntoRequest<S, Q, P>
where
    S: BatchSource<Q>,
    Q: DataSpec,
    P: DataSpec + GatherFrom<Q>,
    FlatOf<P>: AllocFlat,
{
    type Lent<'a>
        = &'a P
    where
        Self: 'a;

    fn next_batch(&mut self) -> Option<Result<(&P, BatchInfo), DataError>> {
        match self.next_owned()? {
            Ok((p, info)) => Some(Ok((self.lent.insert(p), info))),
            Err(e) => Some(Err(e)),
        }
    }

    fn next_owned(&mut self) -> Option<Result<(P, BatchInfo), DataError>> {
        let at = *self.at.get_or_insert_with(|| {
            let state = self.source.state();
            Draws {
                seed: state.seed().unwrap_or(0),
                epoch: state.epoch(),
                first: state.samples(),
                globals: None,
            }
        });
        let (batch, info) = match self.source.next_batch()? {
            Ok(b) => b,
            Err(e) => return Some(Err(e)),
        };
        if let Some(next) = &mut self.at {
            next.first += info.count_samples as u64;
        }
        let rows = info.count_samples + info.pad;
        // Leaves the gather makes, each value written once where it can (no zero fill first).
        let filled: Vec<usize> = (0..info.count_samples).collect();
        let gathered = gather_owned(rows, |out: &mut P| {
            P::gather_from(out, &batch, &filled, info.count_samples..rows, at)
        });
        Some(gathered.map(|out| (out, info)))
    }

    fn start_epoch(&mut self, epoch: u64) {
        self.at = None;
        self.source.start_epoch(epoch);
    }

    fn state(&self) -> SourceState {
        self.source.state()
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        self.at = None;
        self.source.resume(state)
    }

    fn samples_per_epoch(&self) -> Option<usize> {
        self.source.samples_per_epoch()
    }
}
