//! Data providers (MXNet.jl's `ArrayDataProvider`, Pylearn2's iterators): batches of a request
//! spec served from a dataset of a record spec, by a [`Schedule`].
//!
//! The provider owns one batch of the request and refills it for every step (a gather fused with
//! the conversion each leaf needs), so the steady state allocates nothing. A batch reports its
//! number of real samples (`count_samples`) and its padding (`pad`), as MXNet does.
//! [`Prefetch`] runs any batch producer on a background thread, a bounded number of batches
//! ahead.

use crate::augment::Draws;
use crate::data::dataset::{AllocFlat, Dataset};
use crate::data::error::DataError;
use crate::data::gather::GatherFrom;
use crate::iteration::{DeviceSplit, Epoch, IndexBatch, Schedule};
use crate::types::spec::{DataSpec, Described, FlatOf};
use std::ops::Range;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::thread::JoinHandle;

/// What a step of a provider served besides the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchInfo {
    /// The number of real samples at the start of the batch (MXNet's `count_samples`).
    pub count_samples: usize,
    /// The number of rows after them: padding or rolled-over samples (MXNet's `pad`).
    pub pad: usize,
}

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

/// Splits a batch across `devices` (MXNet's `_split_inputs`): the sample ranges of each device,
/// as equal as possible (10 over 3 gives `0..4`, `4..7`, `7..10`).
///
/// # Errors
/// [`DataError::Iteration`] when there are fewer samples than devices, or no device.
pub fn split_across<Q: DataSpec>(batch: &Q, devices: usize) -> Result<DeviceSplit, DataError> {
    let n = batch.validate()?;
    Ok(DeviceSplit::new(n, devices)?)
}

/// The rows of each device of `batch` as views, without copying (MXNet.jl's data parallelism,
/// `_split_inputs` then a slice per device): one [`ViewsOf`](crate::types::spec::ViewsOf) per
/// device, the request's structure (its generated `<Request>Mapped` struct, by field name) with
/// a borrowed view at each leaf.
///
/// # Errors
/// As [`split_across`].
pub fn device_views<Q: DataSpec>(
    batch: &Q,
    devices: usize,
) -> Result<Vec<crate::types::spec::ViewsOf<'_, Q>>, DataError> {
    Ok(split_across(batch, devices)?
        .map(|rows| batch.node_views(rows))
        .collect())
}

/// Copies the rows of each device of `batch` into the caller's buffers, one per device
/// (MXNet.jl's `load_data!` / `load_label!` with `SlicedNDArray` targets): `targets[d]` receives
/// the rows of device `d`, converted to its own spaces where they differ (it is a request served
/// by `batch`). Returns the split.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::load_into_devices;
///
/// #[derive(DataSpec)]
/// struct Input {
///     #[spec(source = "data")]
///     x: Batch<Vector<2>>,
/// }
/// // MXNet.jl: a batch of 10 over 3 devices is 1:4, 5:7, 8:10.
/// let batch = Input { x: Batch::new(ndarray::Array2::from_shape_fn((10, 2), |(i, _)| i as f32))? };
/// let mut devices: Vec<Input> = [4, 3, 3].iter().map(|&n| Input { x: Batch::zeros(n, 0) }).collect();
/// let split = load_into_devices(&batch, &mut devices)?;
/// assert_eq!(split.collect::<Vec<_>>(), [0..4, 4..7, 7..10]);
/// assert_eq!(devices[1].x.array().column(0).to_vec(), [4.0, 5.0, 6.0]);
/// # Ok::<(), batchspec::Error>(())
/// ```
///
/// # Errors
/// [`DataError::Iteration`] for fewer rows than devices or no device;
/// [`DataError::DeviceTargets`] when there is not one target per device, or a target does not
/// hold its device's rows (nothing is written then); a gather's error
/// ([`DataError::TimeSteps`]) for a borrowed sequence target too short.
pub fn load_into_devices<Q, T>(batch: &Q, targets: &mut [T]) -> Result<DeviceSplit, DataError>
where
    Q: DataSpec,
    T: DataSpec + GatherFrom<Q>,
{
    let split = split_across(batch, targets.len().max(1))?;
    if targets.is_empty() {
        return Err(DataError::DeviceTargets {
            reason: "no target was given".into(),
        });
    }
    for (d, (rows, target)) in split.clone().zip(targets.iter()).enumerate() {
        let holds = target.validate()?;
        if holds != rows.len() {
            return Err(DataError::DeviceTargets {
                reason: format!(
                    "the target of device {d} holds {holds} rows; its part of the batch is {} rows ({}..{})",
                    rows.len(),
                    rows.start,
                    rows.end
                ),
            });
        }
    }
    let mut indices = Vec::with_capacity(batch.validate()?.div_ceil(targets.len()));
    for (rows, target) in split.clone().zip(targets.iter_mut()) {
        indices.clear();
        indices.extend(rows.clone());
        T::gather_from(
            target,
            batch,
            &indices,
            rows.len()..rows.len(),
            Draws::default(),
        )?;
    }
    Ok(split)
}

/// A batch producer run by [`Prefetch`]: fills a buffer and says what it served; `None` ends the
/// stream.
pub trait Producer<Q>: Send {
    /// Fills `out` with the next batch.
    fn produce(&mut self, out: &mut Q) -> Option<Result<BatchInfo, DataError>>;
}

impl<Q, F: FnMut(&mut Q) -> Option<Result<BatchInfo, DataError>> + Send> Producer<Q> for F {
    fn produce(&mut self, out: &mut Q) -> Option<Result<BatchInfo, DataError>> {
        self(out)
    }
}

/// A batch served by [`Prefetch`]; dropping it hands its buffer back to the worker.
pub struct Prefetched<'a, Q: Send + 'static> {
    batch: Option<Q>,
    /// Its real samples and padding.
    pub info: BatchInfo,
    back: &'a Sender<Q>,
}

impl<Q: Send + 'static> std::ops::Deref for Prefetched<'_, Q> {
    type Target = Q;
    fn deref(&self) -> &Q {
        self.batch
            .as_ref()
            .unwrap_or_else(|| unreachable!("the batch is taken only on drop"))
    }
}

impl<Q: Send + 'static> Drop for Prefetched<'_, Q> {
    fn drop(&mut self) {
        if let Some(q) = self.batch.take() {
            // The worker may have stopped; the buffer is then dropped.
            let _ = self.back.send(q);
        }
    }
}

type Sent<Q> = Result<(Q, BatchInfo), DataError>;

/// How long dropping a [`Prefetch`] waits for its worker to stop before leaving it to stop by
/// itself (a producer blocked in I/O stops at its next send, which fails).
const DROP_WAIT: std::time::Duration = std::time::Duration::from_millis(100);

/// Runs a [`Producer`] on a background thread, `ahead` batches ahead of the consumer: memory is
/// bounded by `ahead + 1` buffers, made when the worker first needs them (a large `ahead`
/// allocates nothing up front) and recycled. A producer error comes out of
/// [`Prefetch::next_batch`] in the consumer's loop, and so does a panic of the producer
/// ([`DataError::WorkerPanicked`]), never as a quiet end of the stream. Dropping the `Prefetch`
/// mid-stream stops the thread: it is joined if it stops within a moment, else it ends by itself
/// at its next send (the drop does not wait for a producer blocked in I/O).
pub struct Prefetch<Q: Send + 'static> {
    batches: Option<Receiver<Sent<Q>>>,
    back: Option<Sender<Q>>,
    worker: Option<JoinHandle<()>>,
}

/// The worker's side of a [`Prefetch`]: free buffers in, filled batches out.
pub struct Feeder<Q> {
    free: Receiver<Q>,
    tx: Sender<Sent<Q>>,
    make: Box<dyn Fn() -> Q + Send>,
    // Buffers made so far, and the most there may be (`ahead + 1`).
    made: core::cell::Cell<usize>,
    limit: usize,
}

impl<Q> Feeder<Q> {
    /// A free buffer to fill (a new one while fewer than `ahead + 1` exist, else one the consumer
    /// gave back, waiting for it); `None` when the consumer is gone.
    pub fn buffer(&self) -> Option<Q> {
        match self.free.try_recv() {
            Ok(q) => Some(q),
            Err(TryRecvError::Disconnected) => None,
            Err(TryRecvError::Empty) if self.made.get() < self.limit => {
                self.made.set(self.made.get() + 1);
                Some((self.make)())
            }
            Err(TryRecvError::Empty) => self.free.recv().ok(),
        }
    }

    /// Hands a filled batch (or an error) to the consumer; `false` when the consumer is gone.
    pub fn send(&self, batch: Result<(Q, BatchInfo), DataError>) -> bool {
        self.tx.send(batch).is_ok()
    }
}

impl<Q: Send + 'static> Prefetch<Q> {
    /// Starts `producer` on a thread, with up to `ahead + 1` buffers made by `make`.
    pub fn spawn<P: Producer<Q> + 'static>(
        ahead: usize,
        make: impl Fn() -> Q + Send + 'static,
        mut producer: P,
    ) -> Self {
        Self::spawn_with(ahead, make, move |feeder: Feeder<Q>| {
            while let Some(mut q) = feeder.buffer() {
                match producer.produce(&mut q) {
                    None => break,
                    Some(Ok(info)) => {
                        if !feeder.send(Ok((q, info))) {
                            break;
                        }
                    }
                    Some(Err(e)) => {
                        feeder.send(Err(e));
                        break;
                    }
                }
            }
        })
    }

    /// Starts `body` on a thread, with up to `ahead + 1` buffers made by `make`; `body` takes
    /// buffers from the [`Feeder`] and sends them back filled, until it is done or the consumer
    /// is gone.
    pub fn spawn_with(
        ahead: usize,
        make: impl Fn() -> Q + Send + 'static,
        body: impl FnOnce(Feeder<Q>) + Send + 'static,
    ) -> Self {
        // Batches in flight are bounded by the buffers, so the channels need no bound of their
        // own (a bounded channel would allocate `ahead` slots up front).
        let (tx, rx) = channel::<Sent<Q>>();
        let (back, free) = channel::<Q>();
        let feeder = Feeder {
            free,
            tx,
            make: Box::new(make),
            made: core::cell::Cell::new(0),
            limit: ahead.max(1).saturating_add(1),
        };
        let worker = std::thread::spawn(move || body(feeder));
        Prefetch {
            batches: Some(rx),
            back: Some(back),
            worker: Some(worker),
        }
    }

    /// The next batch, waiting for the worker if it is behind; `None` at the end of the stream.
    ///
    /// # Errors
    /// The producer's error, once, or [`DataError::WorkerPanicked`] if the producer panicked;
    /// the stream ends after it.
    pub fn next_batch(&mut self) -> Option<Result<Prefetched<'_, Q>, DataError>> {
        let received = self.batches.as_ref()?.recv();
        match received {
            Ok(Ok((q, info))) => Some(Ok(Prefetched {
                batch: Some(q),
                info,
                back: self.back.as_ref()?,
            })),
            Ok(Err(e)) => {
                self.batches = None;
                Some(Err(e))
            }
            Err(_) => {
                // The worker is gone: at the end of its stream, or in a panic.
                self.batches = None;
                match self.worker.take().map(JoinHandle::join) {
                    Some(Err(payload)) => Some(Err(DataError::WorkerPanicked(panic_message(
                        payload.as_ref(),
                    )))),
                    _ => None,
                }
            }
        }
    }
}

/// The message of a panic's payload.
fn panic_message(payload: &(dyn core::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

impl<Q: DataSpec + Send + 'static> Prefetch<Q>
where
    FlatOf<Q>: AllocFlat,
{
    /// Serves the epochs `epochs` of a provider of `dataset` by `schedule` from a background
    /// thread, `ahead` batches ahead. Batches are full-size buffers: the rows of a short last
    /// batch past its samples are zeroed and counted as padding.
    pub fn provider<R>(
        dataset: std::sync::Arc<Dataset<R>>,
        schedule: Schedule,
        epochs: Range<u64>,
        ahead: usize,
    ) -> Self
    where
        R: DataSpec + Send + Sync + 'static,
        Q: GatherFrom<R>,
    {
        let size = schedule.batch_size();
        Self::spawn_with(
            ahead,
            move || Q::nest(FlatOf::<Q>::alloc(size, 0)),
            move |feeder| {
                let mut provider = match Provider::<R, Q>::new(&dataset, schedule) {
                    Ok(p) => p,
                    Err(e) => {
                        feeder.send(Err(e));
                        return;
                    }
                };
                feed_epochs(
                    &feeder,
                    epochs,
                    &mut provider,
                    |p, e| p.start_epoch(e),
                    |p, q| p.fill_next(q),
                );
            },
        )
    }
}

/// Serves the epochs `epochs` of `source` through `feeder`: starts each epoch, fills buffers
/// until it ends, hands each batch (or the first error, which ends the stream) to the consumer.
/// The buffer taken when an epoch has no batch left waits for the next epoch (dropping it would
/// leave one buffer fewer in circulation, and the worker would wait for it forever).
pub(crate) fn feed_epochs<Q, S>(
    feeder: &Feeder<Q>,
    epochs: Range<u64>,
    source: &mut S,
    mut start: impl FnMut(&mut S, u64),
    mut fill: impl FnMut(&mut S, &mut Q) -> Option<Result<BatchInfo, DataError>>,
) {
    let mut spare = None;
    for epoch in epochs {
        start(source, epoch);
        loop {
            let Some(mut q) = spare.take().or_else(|| feeder.buffer()) else {
                return;
            };
            match fill(source, &mut q) {
                None => {
                    spare = Some(q);
                    break;
                }
                Some(Ok(info)) => {
                    if !feeder.send(Ok((q, info))) {
                        return;
                    }
                }
                Some(Err(e)) => {
                    feeder.send(Err(e));
                    return;
                }
            }
        }
    }
}

impl<Q: Send + 'static> Drop for Prefetch<Q> {
    fn drop(&mut self) {
        // Closing both channels makes the worker's next send fail and wakes a worker waiting for
        // a buffer; it is joined if it stops within a moment (it is not waited for while its
        // producer is blocked, in I/O say: it stops at its next send).
        self.batches = None;
        self.back = None;
        if let Some(w) = self.worker.take() {
            let started = std::time::Instant::now();
            while !w.is_finished() && started.elapsed() < DROP_WAIT {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            if w.is_finished() {
                let _ = w.join();
            }
        }
    }
}

/// An iteration-only source: a closure that fills a batch buffer, `None` when it is exhausted
/// (never, for an endless source). It serves batches like a [`Provider`].
pub struct Generator<Q, F> {
    buffer: Q,
    fill: F,
}

impl<Q: DataSpec, F: FnMut(&mut Q) -> Option<Result<BatchInfo, DataError>>> Generator<Q, F>
where
    FlatOf<Q>: AllocFlat,
{
    /// A source of batches of `batch_size` samples filled by `fill`.
    pub fn new(batch_size: usize, fill: F) -> Self {
        Generator {
            buffer: Q::nest(FlatOf::<Q>::alloc(batch_size, 0)),
            fill,
        }
    }

    /// Lends the next batch; `None` when the source is exhausted.
    ///
    /// # Errors
    /// The closure's error.
    pub fn next_batch(&mut self) -> Option<Result<Provided<'_, Q>, DataError>> {
        match (self.fill)(&mut self.buffer)? {
            Ok(info) => Some(Ok(Provided {
                batch: &self.buffer,
                info,
            })),
            Err(e) => Some(Err(e)),
        }
    }
}
