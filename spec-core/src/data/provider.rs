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
use crate::data::dataset::{AllocFlat, Dataset};
use crate::data::error::DataError;
use crate::data::gather::GatherFrom;
use crate::iteration::{Epoch, IndexBatch, Schedule};
use crate::types::spec::{DataSpec, Described, FlatOf};
use std::ops::Range;

/// A batch lent by a provider.
pub struct Provided<'a, Q> {
    /// The data.
    pub batch: &'a Q,
    /// Its real samples and padding.
    pub info: BatchInfo,
}

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
    dataset: &'d Dataset<R>,
    schedule: Schedule,
    epoch: Epoch,
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
        dataset.check()?;
        if schedule.num_samples() != dataset.len() {
            return Err(DataError::ScheduleMismatch {
                schedule: schedule.num_samples(),
                dataset: dataset.len(),
            });
        }
        // Every sample fits the request's collate policies: checked once, here.
        Q::check_fits(dataset.fields())?;
        let epoch = schedule.epoch(0);
        Ok(Provider {
            dataset,
            rows: Vec::with_capacity(schedule.batch_size()),
            epoch,
            schedule,
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
        &self.schedule
    }

    /// What the random choices of augmented fields are drawn from: the schedule's seed and the
    /// epoch being served.
    pub fn draws(&self) -> Draws<'static> {
        Draws::new(self.schedule.seed(), self.epoch.index())
    }

    /// Starts epoch `epoch` (its order, for shuffled schedules, depends on the seed and `epoch`).
    pub fn start_epoch(&mut self, epoch: u64) {
        self.epoch.restart(epoch);
    }

    /// The batch size.
    pub fn batch_size(&self) -> usize {
        self.schedule.batch_size()
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
        let batch = self.epoch.next_into(&mut self.rows)?;
        let info = info_of(&batch, self.schedule.batch_size());
        let filled = batch.indices().len();
        drop(batch);
        let size = self.schedule.batch_size();
        let data: &'d R = self.dataset.fields();
        // Rows past the samples (padding, or a short last batch) are zeroed.
        let draws = self.draws();
        Some(Out::gather_from(out, data, &self.rows[..filled], filled..size, draws).map(|()| info))
    }
}

impl<'d, R: DataSpec, Q: DataSpec> Provider<'d, R, Q>
where
    FlatOf<Q>: AllocFlat,
{
    /// A provider of `dataset` by `schedule`, starting at epoch 0, with a batch buffer of its
    /// own for [`Provider::next_batch`].
    ///
    /// # Errors
    /// As [`Provider::unbuffered`].
    pub fn new(dataset: &'d Dataset<R>, schedule: Schedule) -> Result<Self, DataError>
    where
        Q: GatherFrom<R>,
    {
        let mut p = Self::unbuffered(dataset, schedule)?;
        p.buffer = Some(Q::nest(FlatOf::<Q>::alloc(p.schedule.batch_size(), 0)));
        Ok(p)
    }

    /// Lends the next batch of the epoch; `None` at its end. A short last batch (policy
    /// [`LastBatch::Short`](crate::iteration::LastBatch::Short)) is lent with exactly its samples.
    pub fn next_batch(&mut self) -> Option<Provided<'_, Q>> {
        let batch = self.epoch.next_into(&mut self.rows)?;
        let size = self.schedule.batch_size();
        // A short last batch lent short has no padding: its rows are its samples.
        let info = info_of(&batch, batch.size());
        let filled = batch.indices().len();
        let rows_in_batch = batch.size();
        drop(batch);
        let data: &'d R = self.dataset.fields();
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
        let out = if rows.len() == self.schedule.batch_size() {
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
        let batch = self.epoch.next_into(&mut self.rows)?;
        let info = info_of(&batch, batch.size());
        let filled = batch.indices().len();
        let rows_in_batch = batch.size();
        drop(batch);
        let mut out = Q::nest(FlatOf::<Q>::alloc(rows_in_batch, 0));
        owned_gather((self.gather)(
            &mut out,
            self.dataset.fields(),
            &self.rows[..filled],
            filled..rows_in_batch,
            self.draws(),
        ));
        Some((out, info))
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

fn info_of(batch: &IndexBatch<'_>, size: usize) -> BatchInfo {
    let count = batch.count_samples();
    BatchInfo {
        count_samples: count,
        pad: size.saturating_sub(count).max(batch.pad()),
    }
}

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
}
