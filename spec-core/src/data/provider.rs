//! Data providers (MXNet.jl's `ArrayDataProvider`, Pylearn2's iterators): batches of a request
//! spec served from a dataset of a record spec, by a [`Schedule`].
//!
//! The provider owns one batch of the request and refills it for every step (a gather fused with
//! the conversion each leaf needs), so the steady state allocates nothing. A batch reports its
//! number of real samples (`count_samples`) and its padding (`pad`), as MXNet does.
//! [`Prefetch`](crate::data::Prefetch) runs a provider on a background thread, a bounded number
//! of batches ahead.

use crate::augment::Draws;
use crate::data::batch_source::{BatchInfo, BatchSource};
use crate::data::dataset::{AllocFlat, Dataset, gather_owned};
use crate::data::elastic::{EpochCursor, Step};
use crate::data::error::DataError;
use crate::data::gather::GatherFrom;
use crate::data::state::{SourceState, fingerprint, spec_fingerprint};
use crate::iteration::Schedule;
use crate::types::for_tuples;
use crate::types::spec::{DataSpec, Described, FlatOf, Node};
use std::ops::Range;
use std::sync::Arc;

/// A batch lent by a provider.
pub struct Provided<'a, Q> {
    /// The data.
    pub batch: &'a Q,
    /// Its real samples and padding.
    pub info: BatchInfo,
}

/// The dataset of a provider: borrowed, or shared ([`Provider::shared`], a provider that can
/// move to another thread on its own).
enum Held<'d, R> {
    Borrowed(&'d Dataset<R>),
    Shared(Arc<Dataset<R>>),
}

impl<R> core::ops::Deref for Held<'_, R> {
    type Target = Dataset<R>;
    fn deref(&self) -> &Dataset<R> {
        match self {
            Held::Borrowed(d) => d,
            Held::Shared(d) => d,
        }
    }
}

/// The request `Self` can be provided from the record `R`: every leaf gathered from `R` into
/// leaves a provider can own. The one bound generic code needs to make the pairing objects of a record
/// and a request ([`Provider`], its owned batches and [`BatchSource`](crate::data::BatchSource)
/// impl, [`Prefetch::provider`](crate::data::Prefetch::provider) and the framework loaders, with
/// `Send + 'static` where they move to a thread); implemented for every request that has both
/// (the derive's structs whose batch fields own their data).
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::{Dataset, Provider};
/// use batchspec::iteration::Schedule;
///
/// /// The samples a model of any request sees in one epoch.
/// fn epoch<R: DataSpec, Q: ProvidedBy<R>>(ds: &Dataset<R>) -> Result<usize, batchspec::Error> {
///     let schedule = Schedule::builder(ds.len()).batch_size(2).build()?;
///     let mut provider = Provider::<R, Q>::new(ds, schedule)?;
///     let mut seen = 0;
///     while let Some(b) = provider.next_batch() {
///         seen += b.info.count_samples;
///     }
///     Ok(seen)
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
/// let ds = Dataset::new(Record { x: Batch::zeros(5, 0) })?;
/// assert_eq!(epoch::<Record, Input>(&ds)?, 5);
/// # Ok::<(), batchspec::Error>(())
/// ```
///
/// Its bounds are supertraits, so that `Q: ProvidedBy<R>` alone gives what the providers ask
/// for: [`GatherFrom<R>`] and owned leaves (`FlatOf<Q>: AllocFlat`, an associated type bound,
/// which a supertrait carries to every use). The derive implements it for each struct and the
/// core for tuples of requests, each impl bounded by the supertraits: a pair that does not match
/// is reported in the words of the field (through `GatherFrom`), and a type parameter without the
/// bound as this trait, with rustc's suggestion to add it (a blanket impl would have it
/// reported as each of its bounds). Not to be confused with
/// [`mapping::ServedBy`](crate::mapping::ServedBy), the bound of a request served whole
/// ([`ServeFrom`](crate::mapping::ServeFrom)).
#[diagnostic::on_unimplemented(
    message = "the request `{Self}` is not known to be provided from the record `{R}`",
    label = "a provider of this pair needs `{Self}: ProvidedBy<{R}>`",
    note = "in generic code, bound the request with `Q: ProvidedBy<R>` (the record with `R: DataSpec`)"
)]
pub trait ProvidedBy<R>: DataSpec + GatherFrom<R> + Node<(), Flat: AllocFlat> {}

macro_rules! provided_tuples {
    ($($t:ident $i:tt),+) => {
        impl<R, $($t: ProvidedBy<R>),+> ProvidedBy<R> for ($($t,)+) where
            ($($t,)+): DataSpec + Node<(), Flat: AllocFlat>
        {
        }
    };
}
for_tuples!(provided_tuples);

/// A request's gather from a record ([`GatherFrom::gather_from`]).
type GatherFn<Q, R> = fn(&mut Q, &R, &[usize], Range<usize>, Draws<'_>) -> Result<(), DataError>;

/// Serves batches of the request `Q` from a dataset of the record `R`.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::Dataset;
/// use batchspec::iteration::{LastBatch, Schedule};
/// use batchspec::data::Provider;
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "data")]
///     x: Batch<Vector<2>>,
///     #[spec(source = "softmax_label")]
///     y: Batch<Labels<10>>,
/// }
/// let ds = Dataset::new(Record {
///     x: Batch::new(ndarray::Array2::from_shape_fn((10, 2), |(i, j)| (i * 2 + j) as f32))?,
///     y: Batch::new(ndarray::Array1::from_iter(0..10i64))?,
/// })?;
/// // MXNet: 10 samples, batch 3, padded: counts 3, 3, 3, 1.
/// let schedule = Schedule::builder(10).batch_size(3).last_batch(LastBatch::Pad).build()?;
/// let mut provider = Provider::<Record, Record>::new(&ds, schedule)?;
/// let mut counts = vec![];
/// while let Some(b) = provider.next_batch() {
///     counts.push(b.info.count_samples);
/// }
/// assert_eq!(counts, [3, 3, 3, 1]);
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct Provider<'d, R, Q> {
    dataset: Held<'d, R>,
    // The schedule's epoch, and the position in it.
    cursor: EpochCursor,
    rows: Vec<usize>,
    buffer: Option<Q>,
    short: Option<(usize, Q)>,
    labels: Vec<&'static str>,
    // `Q`'s gather from `R`, taken where the pair is made (the constructors carry the bound, so
    // a mismatch is reported there, once).
    gather: GatherFn<Q, R>,
}

impl<'d, R: DataSpec, Q: DataSpec> Provider<'d, R, Q> {
    /// A provider that fills buffers its caller owns ([`Provider::fill_next`]): a request whose
    /// leaves borrow other memory, such as the arena of a
    /// [`BufferManager`](crate::buffer::BufferManager), is filled in place.
    ///
    /// # Errors
    /// [`DataError::ScheduleMismatch`] when the schedule is for another number of samples;
    /// [`DataError::TimeSteps`] or [`DataError::PadLabel`] when a sample breaks a collate policy
    /// of the request (a sample longer than `pad_to` without `truncate`).
    pub fn unbuffered(dataset: &'d Dataset<R>, schedule: Schedule) -> Result<Self, DataError>
    where
        Q: GatherFrom<R>,
    {
        Self::held(Held::Borrowed(dataset), schedule)
    }

    // `new` and `shared` sit in this block, bounded by `ProvidedBy` alone: generic code without
    // it is told the one bound to add (an E0277 naming `ProvidedBy`), not that the impl's bounds
    // do not hold.
    /// A provider of `dataset` by `schedule`, starting at epoch 0, with a batch buffer of its
    /// own for [`Provider::next_batch`].
    ///
    /// # Errors
    /// As [`Provider::unbuffered`].
    pub fn new(dataset: &'d Dataset<R>, schedule: Schedule) -> Result<Self, DataError>
    where
        Q: ProvidedBy<R>,
    {
        Ok(Self::unbuffered(dataset, schedule)?.buffered())
    }

    /// A provider that holds its dataset by an [`Arc`]: it borrows nothing, so it can move to
    /// another thread ([`IntoPrefetch::prefetched`](crate::data::IntoPrefetch::prefetched)) or into a framework's loader.
    ///
    /// # Errors
    /// As [`Provider::unbuffered`].
    pub fn shared(
        dataset: Arc<Dataset<R>>,
        schedule: Schedule,
    ) -> Result<Provider<'static, R, Q>, DataError>
    where
        Q: ProvidedBy<R>,
        R: 'static,
    {
        Ok(Provider::shared_unbuffered(dataset, schedule)?.buffered())
    }

    /// With a batch buffer of the schedule's batch size for [`Provider::next_batch`].
    fn buffered(mut self) -> Self
    where
        Q: ProvidedBy<R>,
    {
        let size = self.cursor.schedule().batch_size();
        self.buffer = Some(Q::nest(FlatOf::<Q>::alloc(size, 0)));
        self
    }

    /// A provider that holds its dataset by an [`Arc`] and has no batch buffer of its own, as
    /// [`Provider::unbuffered`] borrows none: for batches given away ([`Provider::next_owned`])
    /// or gathered into the caller's buffers ([`Provider::fill_next`]) by a loader that keeps
    /// one provider from epoch to epoch (`batchspec-burn`'s `SpecLoader`).
    ///
    /// # Errors
    /// As [`Provider::unbuffered`].
    pub fn shared_unbuffered(
        dataset: Arc<Dataset<R>>,
        schedule: Schedule,
    ) -> Result<Provider<'static, R, Q>, DataError>
    where
        Q: GatherFrom<R>,
        R: 'static,
    {
        Provider::held(Held::Shared(dataset), schedule)
    }

    fn held(dataset: Held<'d, R>, schedule: Schedule) -> Result<Self, DataError>
    where
        Q: GatherFrom<R>,
    {
        dataset.check()?;
        if schedule.num_samples() != dataset.len() {
            return Err(DataError::ScheduleMismatch {
                schedule: schedule.num_samples(),
                dataset: dataset.len(),
            });
        }
        // Every sample fits the request's collate policies: checked once, here.
        Q::check_fits(dataset.fields())?;
        let len = dataset.len() as u64;
        let identity = SourceState::new("provider", 0)
            .with_request::<Q>()
            .with_data(fingerprint(&[
                &len.to_le_bytes(),
                &spec_fingerprint::<R>().to_le_bytes(),
            ]));
        Ok(Provider {
            dataset,
            rows: Vec::with_capacity(schedule.batch_size()),
            cursor: EpochCursor::new(schedule, &identity),
            buffer: None,
            short: None,
            labels: vec!["targets", "softmax_label", "label"],
            gather: Q::gather_from,
        })
    }

    /// The sources [`Provider::provide_label`] lists (by default `targets`, `softmax_label` and
    /// `label`); every other source is data.
    pub fn with_label_sources(mut self, sources: &[&'static str]) -> Self {
        self.labels = sources.to_vec();
        self
    }

    /// The schedule.
    pub fn schedule(&self) -> &Schedule {
        self.cursor.schedule()
    }

    /// What the random choices of augmented fields are drawn from: the schedule's seed and the
    /// epoch being served.
    pub fn draws(&self) -> Draws<'static> {
        Draws::new(self.cursor.schedule().seed(), self.cursor.index())
    }

    /// Starts epoch `epoch` (its order, for shuffled schedules, depends on the seed and `epoch`).
    pub fn start_epoch(&mut self, epoch: u64) {
        self.cursor.start_epoch(epoch);
    }

    /// Moves to the next batch of the epoch, its rows in `self.rows`; `None` at the end.
    fn advance(&mut self) -> Option<Step> {
        self.cursor.advance(&mut self.rows)
    }

    /// Where the provider stands: the epoch, the batches and samples served in it, and what they
    /// depend on (see [`SourceState`]).
    pub fn state(&self) -> SourceState {
        self.cursor.state()
    }

    /// Continues from `state`: the next batches are those an uninterrupted run would have served
    /// after it. The epoch's batches before it are skipped without being gathered.
    ///
    /// A state taken with another number of ranks (the schedule's [`Shard`] of another
    /// `num_parts`, same samples and plan) is an elastic resume: the samples every rank of the
    /// saved job had still to serve in the epoch are dealt to this job's ranks in contiguous
    /// parts, and served in batches of the batch size under the last-batch policy (`Short` and
    /// `Pad`: each once, across the ranks; `Drop`: each at most once); the next epochs are those
    /// of a fresh run. Elastic resume needs an order without replacement and no roll-over.
    ///
    /// [`Shard`]: crate::iteration::Shard
    ///
    /// # Errors
    /// [`DataError::StateMismatch`] for a state of another dataset, request, seed or plan;
    /// [`DataError::Resume`] for an elastic resume the schedule does not allow.
    pub fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        self.cursor.resume(state, &mut self.rows)
    }

    /// The batch size.
    pub fn batch_size(&self) -> usize {
        self.cursor.schedule().batch_size()
    }

    /// `(source, shape)` of every data leaf of a batch (MXNet's `provide_data`).
    pub fn provide_data(&self) -> Vec<Described> {
        Q::describe(self.batch_size())
            .into_iter()
            .filter(|d| !self.labels.contains(&d.source))
            .collect()
    }

    /// `(source, shape)` of every label leaf of a batch (MXNet's `provide_label`).
    pub fn provide_label(&self) -> Vec<Described> {
        Q::describe(self.batch_size())
            .into_iter()
            .filter(|d| self.labels.contains(&d.source))
            .collect()
    }

    /// Writes the next batch of the epoch into `out` (which holds [`Provider::batch_size`]
    /// samples; a short last batch fills its first rows, the rest are zeroed and counted as
    /// padding). `None` at the end of the epoch.
    ///
    /// # Errors
    /// [`DataError::TimeSteps`] when a sequence batch of `out` borrows its memory and has fewer
    /// time steps than a sample of the batch (owned leaves take the steps they need); the
    /// batch's samples are skipped, the epoch goes on.
    pub fn fill_next<Out: GatherFrom<R>>(
        &mut self,
        out: &mut Out,
    ) -> Option<Result<BatchInfo, DataError>> {
        let step = self.advance()?;
        let size = self.cursor.schedule().batch_size();
        let info = info_of(&step, size);
        let filled = step.filled;
        let data = self.dataset.fields();
        // Rows past the samples (padding, or a short last batch) are zeroed.
        let draws = self.draws();
        Some(Out::gather_from(out, data, &self.rows[..filled], filled..size, draws).map(|()| info))
    }
}

impl<'d, R: DataSpec, Q: DataSpec> Provider<'d, R, Q>
where
    FlatOf<Q>: AllocFlat,
{
    /// Lends the next batch of the epoch; `None` at its end. A short last batch (policy
    /// [`LastBatch::Short`](crate::iteration::LastBatch::Short)) is lent with exactly its samples.
    pub fn next_batch(&mut self) -> Option<Provided<'_, Q>> {
        let step = self.advance()?;
        let size = self.cursor.schedule().batch_size();
        // A short last batch lent short has no padding: its rows are its samples.
        let info = info_of(&step, step.size);
        let (filled, rows_in_batch) = (step.filled, step.size);
        let data = self.dataset.fields();
        let draws = self.draws();
        let out = if rows_in_batch < size {
            // A short last batch: a buffer of its own size, kept for the next epochs.
            let short = match self.short.take() {
                Some((len, q)) if len == rows_in_batch => q,
                _ => Q::nest(FlatOf::<Q>::alloc(rows_in_batch, 0)),
            };
            &mut self.short.insert((rows_in_batch, short)).1
        } else {
            self.buffer
                .get_or_insert_with(|| Q::nest(FlatOf::<Q>::alloc(size, 0)))
        };
        owned_gather((self.gather)(
            out,
            data,
            &self.rows[..filled],
            filled..rows_in_batch,
            draws,
        ));
        Some(Provided { batch: out, info })
    }

    /// Lends the batch of the samples `rows` (any rows, in any number), outside the schedule:
    /// for batches planned elsewhere, such as [`Buckets`](crate::iteration::Buckets) of samples
    /// of similar lengths. A buffer of each size asked for last is kept.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::data::Dataset;
    /// use batchspec::iteration::{Buckets, Schedule};
    /// use batchspec::data::Provider;
    ///
    /// #[derive(DataSpec)]
    /// struct Text {
    ///     #[spec(source = "tokens")]
    ///     tokens: Ragged<IndexSeq<30>>,
    /// }
    /// #[derive(DataSpec)]
    /// struct Padded {
    ///     #[spec(source = "tokens")]
    ///     tokens: Batch<IndexSeq<30>>,
    /// }
    /// let samples = [vec![0i64], vec![1, 2, 3, 4], vec![5, 6, 7], vec![7, 8, 9, 10, 11],
    ///     vec![13, 14, 15, 16, 19, 20], vec![21, 22]];
    /// let ds = Dataset::new(Text { tokens: Ragged::from_flat_samples(&samples)? })?;
    /// let buckets = Buckets::new(ds.fields().tokens.lengths(), &[3, 5], &[2, 2, 2])?;
    /// let mut provider = Provider::<Text, Padded>::new(&ds, Schedule::builder(6).batch_size(2).build()?)?;
    /// let shapes: Vec<_> = buckets.epoch(0).iter()
    ///     .map(|rows| provider.batch_of(rows).map(|b| b.batch.tokens.shape().to_vec()))
    ///     .collect::<Result<_, _>>()?;
    /// assert_eq!(shapes, [[2, 4], [2, 6], [2, 2]]);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`SpecError::Row`](crate::types::error::SpecError::Row) for a row past the end of the
    /// dataset.
    pub fn batch_of(&mut self, rows: &[usize]) -> Result<Provided<'_, Q>, DataError> {
        let draws = self.draws();
        let len = self.dataset.len();
        if let Some(p) = rows.iter().position(|&r| r >= len) {
            return Err(crate::types::error::SpecError::Row {
                row: rows[p],
                position: p,
                len,
            }
            .into());
        }
        let out = if rows.len() == self.cursor.schedule().batch_size() {
            self.buffer
                .get_or_insert_with(|| Q::nest(FlatOf::<Q>::alloc(rows.len(), 0)))
        } else {
            let short = match self.short.take() {
                Some((n, q)) if n == rows.len() => q,
                _ => Q::nest(FlatOf::<Q>::alloc(rows.len(), 0)),
            };
            &mut self.short.insert((rows.len(), short)).1
        };
        owned_gather((self.gather)(
            out,
            self.dataset.fields(),
            rows,
            rows.len()..rows.len(),
            draws,
        ));
        Ok(Provided {
            batch: out,
            info: BatchInfo {
                count_samples: rows.len(),
                pad: 0,
            },
        })
    }

    /// Gathers the next batch of the epoch into a new batch of its own and gives it away; `None`
    /// at the end of the epoch. The batch holds exactly the batch's rows (a short last batch is
    /// short; padding rows are zero and counted in [`BatchInfo::pad`]). For consumers that keep
    /// the memory, such as a framework's tensor built from the batch's buffer without a copy
    /// (`batchspec-burn`, `batchspec-candle`); [`Provider::next_batch`] reuses one buffer instead.
    pub fn next_owned(&mut self) -> Option<(Q, BatchInfo)> {
        let step = self.advance()?;
        let info = info_of(&step, step.size);
        let (filled, rows_in_batch) = (step.filled, step.size);
        // Leaves the gather makes, each value written once where it can (no zero fill first).
        let (gather, draws) = (self.gather, self.draws());
        let (fields, rows) = (self.dataset.fields(), &self.rows[..filled]);
        let out = gather_owned(rows_in_batch, |out: &mut Q| {
            gather(out, fields, rows, filled..rows_in_batch, draws)
        });
        match out {
            Ok(out) => Some((out, info)),
            Err(e) => {
                owned_gather(Err(e));
                None
            }
        }
    }
}

/// The result of a gather into leaves a provider owns, which take the time steps they need
/// ([`AllocFlat`] exists only for owned leaves), of samples checked against the request's
/// policies where the provider was made: it cannot fail.
fn owned_gather(result: Result<(), DataError>) {
    if let Err(e) = result {
        unreachable!("a gather into owned leaves cannot fail, yet it did: {e}")
    }
}

fn info_of(step: &Step, size: usize) -> BatchInfo {
    BatchInfo {
        count_samples: step.count,
        pad: size.saturating_sub(step.count).max(step.pad),
    }
}

#[diagnostic::do_not_recommend]
impl<'d, R: DataSpec, Q: DataSpec> BatchSource<Q> for Provider<'d, R, Q>
where
    FlatOf<Q>: AllocFlat,
{
    type Lent<'a>
        = &'a Q
    where
        Self: 'a;

    fn next_batch(&mut self) -> Option<Result<(&Q, BatchInfo), DataError>> {
        Provider::next_batch(self).map(|Provided { batch, info }| Ok((batch, info)))
    }

    fn next_owned(&mut self) -> Option<Result<(Q, BatchInfo), DataError>> {
        Provider::next_owned(self).map(Ok)
    }

    fn start_epoch(&mut self, epoch: u64) {
        Provider::start_epoch(self, epoch);
    }

    fn state(&self) -> SourceState {
        Provider::state(self)
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        Provider::resume(self, state)
    }

    fn samples_per_epoch(&self) -> Option<usize> {
        self.cursor.schedule().num_examples()
    }
}
