//! Prefetching: a batch producer on a background thread, a bounded number of batches ahead of
//! the consumer ([`Prefetch`]), its errors and panics served in the consumer's loop.

use crate::data::batch_source::{BatchInfo, BatchSource};
use crate::data::dataset::{AllocFlat, Dataset};
use crate::data::error::DataError;
use crate::data::gather::GatherFrom;
use crate::data::provider::{ProvidedBy, Provider};
use crate::data::state::SourceState;
use crate::iteration::Schedule;
use crate::types::spec::{DataSpec, FlatOf};
use std::ops::Range;
use std::sync::mpsc::{Receiver, RecvError, Sender, TryRecvError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a thread of a [`Prefetch`] polls for the batch (or the buffer) it waits for before
/// it blocks. Waking a thread blocked on the other core costs more than a small batch takes to
/// make (on the project's 2-core VM, about 19 µs against 1–2 µs for a batch of 128 digits), so
/// a wait shorter than this never blocks; polling yields the core between polls, so a producer
/// on the same core runs meanwhile.
const POLL_BEFORE_BLOCKING: Duration = Duration::from_micros(50);

/// Receives from `rx`: polls it for [`POLL_BEFORE_BLOCKING`], yielding the core between polls,
/// then blocks.
fn receive_soon<T>(rx: &Receiver<T>) -> Result<T, RecvError> {
    let mut started: Option<Instant> = None;
    loop {
        match rx.try_recv() {
            Ok(value) => return Ok(value),
            Err(TryRecvError::Disconnected) => return Err(RecvError),
            Err(TryRecvError::Empty) => {}
        }
        let since = *started.get_or_insert_with(Instant::now);
        if since.elapsed() >= POLL_BEFORE_BLOCKING {
            return rx.recv();
        }
        std::thread::yield_now();
    }
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

/// A batch served by [`Prefetch::next_batch`]; dropping it hands its buffer back to the worker.
pub struct Prefetched<'a, Q: Send + 'static> {
    batch: Option<Q>,
    /// Its real samples and padding.
    pub info: BatchInfo,
    back: &'a Sender<Back<Q>>,
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
            let _ = self.back.send(Some(q));
        }
    }
}

/// A batch and, for a [`Prefetch::source`], the source's state after it.
type Sent<Q> = Result<(Q, BatchInfo, Option<Box<SourceState>>), DataError>;

/// What the consumer gives back to the worker for each batch it took: the buffer, to be filled
/// again (a lent batch dropped), or `None`, word that the batch left circulation (a batch given
/// away), so that the worker may make another in its place.
type Back<Q> = Option<Q>;

/// How long dropping a [`Prefetch`] waits for its worker to stop before leaving it to stop by
/// itself (a producer blocked in I/O stops at its next send, which fails).
const DROP_WAIT: std::time::Duration = std::time::Duration::from_millis(100);

/// Runs a [`Producer`] on a background thread, `ahead` batches ahead of the consumer: at most
/// `ahead + 1` batches are in flight (made and not yet given back or given away; an `ahead` of 0
/// counts as 1), their buffers made when the worker first needs them (a large `ahead` allocates
/// nothing up front). A producer error comes out of [`Prefetch::next_batch`] in the consumer's
/// loop, and so does a panic of the producer ([`DataError::WorkerPanicked`]), never as a quiet
/// end of the stream. Dropping the `Prefetch` mid-stream stops the thread: it is joined if it
/// stops within a moment, else it ends by itself at its next send (the drop does not wait for a
/// producer blocked in I/O).
///
/// A side that waits (the consumer for a batch, the worker for a buffer given back) polls for up
/// to 50 µs, yielding its core between polls, before it blocks: a handoff quicker than that wakes
/// no thread, which on a virtual machine costs more than a small batch takes to make.
///
/// Batches are taken in one of two ways:
/// - lent ([`Prefetch::next_batch`]): the batch's buffer goes back to the worker when the
///   [`Prefetched`] is dropped, and is filled again (memory: `ahead + 1` buffers, recycled);
/// - given away ([`Prefetch::next_owned`]): for consumers that keep the memory, such as a
///   framework's tensor made from the batch's buffer without a copy. The batch leaves
///   circulation as it is taken, and the worker makes a new one in its place; the batches made
///   and not yet taken stay at most `ahead + 1`. [`Prefetch::owned_provider`] and
///   [`Prefetch::spawn_owned`] make their batches for this, each of its own size (a provider's
///   short last batch stays short).
pub struct Prefetch<Q: Send + 'static> {
    batches: Option<Receiver<Sent<Q>>>,
    back: Option<Sender<Back<Q>>>,
    worker: Option<JoinHandle<()>>,
    // A prefetched source ([`Prefetch::source`]): what restarts it, the state of the batches
    // the consumer took, and the samples of its epochs.
    control: Option<Box<dyn Restart<Q>>>,
    state: Option<SourceState>,
    samples: Option<usize>,
}

/// What a prefetched source's thread is restarted for.
enum Command<'a> {
    Epoch(u64),
    Resume(&'a SourceState),
}

/// Restarts the thread of a [`Prefetch::source`]: the source, given back by the stopped thread,
/// is moved to a new position and served by a new thread.
trait Restart<Q: Send + 'static>: Send {
    /// Applies `command` to the source (or, if that fails, puts it back at `last`, the state of
    /// the batches the consumer took) and starts a new thread: the new `Prefetch` and the
    /// source's state; the command's error after the thread is started again.
    fn restart(
        &mut self,
        command: Command<'_>,
        last: &SourceState,
    ) -> (Prefetch<Q>, SourceState, Result<(), DataError>);
}

/// A source shared between the consumer's side (between runs) and the thread serving it.
struct Shared<S> {
    source: std::sync::Arc<std::sync::Mutex<S>>,
    ahead: usize,
}

impl<Q, S> Restart<Q> for Shared<S>
where
    Q: DataSpec + Send + 'static,
    S: BatchSource<Q> + Send + 'static,
{
    fn restart(
        &mut self,
        command: Command<'_>,
        last: &SourceState,
    ) -> (Prefetch<Q>, SourceState, Result<(), DataError>) {
        let state = {
            // A thread that panicked left the source where the panic did: it is repositioned.
            let mut source = self
                .source
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let done = match command {
                Command::Epoch(epoch) => {
                    source.start_epoch(epoch);
                    Ok(())
                }
                Command::Resume(state) => source.resume(state),
            };
            let done = match done {
                Ok(()) => Ok(()),
                // The thread had made batches past `last`: back to where the consumer is.
                Err(e) => source.resume(last).map_or_else(Err, |()| Err(e)),
            };
            (source.state(), done)
        };
        let prefetch = serve_shared(std::sync::Arc::clone(&self.source), self.ahead);
        (prefetch, state.0, state.1)
    }
}

/// A thread serving the current epoch of a shared source, each batch given away with the state
/// after it.
fn serve_shared<Q, S>(source: std::sync::Arc<std::sync::Mutex<S>>, ahead: usize) -> Prefetch<Q>
where
    Q: DataSpec + Send + 'static,
    S: BatchSource<Q> + Send + 'static,
{
    Prefetch::start(ahead, None, move |feeder: Feeder<Q>| {
        let mut source = source
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        loop {
            if !feeder.permit() {
                return;
            }
            match source.next_owned() {
                None => return,
                Some(Ok((q, info))) => {
                    let state = Box::new(source.state());
                    if feeder.tx.send(Ok((q, info, Some(state)))).is_err() {
                        return;
                    }
                }
                Some(Err(e)) => {
                    feeder.send(Err(e));
                    return;
                }
            }
        }
    })
}

/// The worker's side of a [`Prefetch`]: free buffers (or permits) in, filled batches out.
pub struct Feeder<Q> {
    free: Receiver<Back<Q>>,
    tx: Sender<Sent<Q>>,
    // What makes a buffer; `None` for a worker that makes its batches itself (`spawn_owned`).
    make: Option<Box<dyn Fn() -> Q + Send>>,
    // Batches in flight (buffers made, or permits taken, and not given away), and the most
    // there may be (`ahead + 1`).
    made: core::cell::Cell<usize>,
    limit: usize,
}

impl<Q> Feeder<Q> {
    /// A free buffer to fill (a new one while fewer than `ahead + 1` batches are in flight, else
    /// one the consumer gave back, waiting for it); `None` when the consumer is gone. A batch the
    /// consumer kept ([`Prefetch::next_owned`]) makes room for a new buffer. A worker started by
    /// [`Prefetch::spawn_owned`] has nothing to make buffers with: it takes a
    /// [`permit`](Self::permit) instead.
    pub fn buffer(&self) -> Option<Q> {
        loop {
            let back = match self.free.try_recv() {
                Ok(back) => back,
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) => match &self.make {
                    Some(make) if self.made.get() < self.limit => {
                        self.made.set(self.made.get() + 1);
                        return Some(make());
                    }
                    _ => receive_soon(&self.free).ok()?,
                },
            };
            match back {
                Some(q) => return Some(q),
                // A batch left circulation: one more buffer may be made.
                None => self.made.set(self.made.get().saturating_sub(1)),
            }
        }
    }

    /// Waits until one more batch may be in flight, for a worker that makes its batches itself
    /// (owned batches, [`Prefetch::spawn_owned`]): `true` at once while fewer than `ahead + 1`
    /// are, else when the consumer takes one (a buffer given back is dropped); `false` when the
    /// consumer is gone. Take it before making the batch, and send the batch after: a permit
    /// not used (the source had no batch left) is kept for the next batch, not taken again.
    pub fn permit(&self) -> bool {
        match self.free.try_recv() {
            // A batch came back or left circulation: this one takes its place.
            Ok(_) => return true,
            Err(TryRecvError::Disconnected) => return false,
            Err(TryRecvError::Empty) => {}
        }
        if self.made.get() < self.limit {
            self.made.set(self.made.get() + 1);
            return true;
        }
        receive_soon(&self.free).is_ok()
    }

    /// Hands a filled batch (or an error) to the consumer; `false` when the consumer is gone.
    pub fn send(&self, batch: Result<(Q, BatchInfo), DataError>) -> bool {
        self.tx.send(batch.map(|(q, info)| (q, info, None))).is_ok()
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
        Self::start(ahead, Some(Box::new(make)), body)
    }

    /// Starts `body` on a thread that makes its batches itself, to be given away
    /// ([`Prefetch::next_owned`]): before making each batch it takes a
    /// [`permit`](Feeder::permit), so that at most `ahead + 1` batches are made and not yet
    /// taken, then sends it, until it is done or the consumer is gone.
    ///
    /// ```
    /// use batchspec::data::{BatchInfo, Prefetch};
    ///
    /// // Batches of different sizes, each a vector of its own, three at most made ahead.
    /// let mut batches = Prefetch::spawn_owned(2, |feeder| {
    ///     for n in 1..=5 {
    ///         let info = BatchInfo { count_samples: n, pad: 0 };
    ///         if !feeder.permit() || !feeder.send(Ok((vec![0u8; n], info))) {
    ///             return;
    ///         }
    ///     }
    /// });
    /// let mut sizes = vec![];
    /// while let Some(batch) = batches.next_owned() {
    ///     let (batch, _info) = batch?;
    ///     sizes.push(batch.len()); // the batch is ours to keep
    /// }
    /// assert_eq!(sizes, [1, 2, 3, 4, 5]);
    /// # Ok::<(), batchspec::data::DataError>(())
    /// ```
    pub fn spawn_owned(ahead: usize, body: impl FnOnce(Feeder<Q>) + Send + 'static) -> Self {
        Self::start(ahead, None, body)
    }

    fn start(
        ahead: usize,
        make: Option<Box<dyn Fn() -> Q + Send>>,
        body: impl FnOnce(Feeder<Q>) + Send + 'static,
    ) -> Self {
        // Batches in flight are bounded by the buffers (or permits), so the channels need no
        // bound of their own (a bounded channel would allocate `ahead` slots up front).
        let (tx, rx) = channel::<Sent<Q>>();
        let (back, free) = channel::<Back<Q>>();
        let feeder = Feeder {
            free,
            tx,
            make,
            made: core::cell::Cell::new(0),
            limit: ahead.max(1).saturating_add(1),
        };
        let worker = std::thread::spawn(move || body(feeder));
        Prefetch {
            batches: Some(rx),
            back: Some(back),
            worker: Some(worker),
            control: None,
            state: None,
            samples: None,
        }
    }

    /// Serves the batches of `source`, from where it stands, on a thread of its own, up to
    /// `ahead + 1` batches made before they are asked for and given away
    /// ([`Prefetch::next_owned`]; [`Prefetch::next_batch`] lends them). The `Prefetch` is a
    /// source itself: [`BatchSource::state`] is the source's state after the last batch the
    /// consumer took (not after those made ahead), and [`BatchSource::start_epoch`] and
    /// [`BatchSource::resume`] stop the thread, move the source and start a new thread. An error
    /// of the source ends the epoch's stream after it.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::data::{BatchSource, Dataset, Prefetch, Provider};
    /// use batchspec::iteration::Schedule;
    /// use std::sync::Arc;
    ///
    /// #[derive(DataSpec)]
    /// struct Input {
    ///     #[spec(source = "x")]
    ///     x: Batch<Vector<1>>,
    /// }
    /// let ds = Arc::new(Dataset::new(Input { x: Batch::new(ndarray::Array2::zeros((10, 1)))? })?);
    /// let schedule = Schedule::builder(10).batch_size(4).build()?;
    /// let mut batches = Provider::<Input, Input>::shared(ds, schedule)?.prefetched(2);
    /// batches.next_owned();
    /// assert_eq!(batches.state().batches(), 1, "the batches taken, not those made ahead");
    /// assert_eq!(std::iter::from_fn(|| batches.next_owned()).count(), 2);
    /// batches.start_epoch(1);
    /// assert_eq!(std::iter::from_fn(|| batches.next_owned()).count(), 3);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    pub fn source<S>(source: S, ahead: usize) -> Self
    where
        Q: DataSpec,
        S: BatchSource<Q> + Send + 'static,
    {
        let state = source.state();
        let samples = source.samples_per_epoch();
        let source = std::sync::Arc::new(std::sync::Mutex::new(source));
        let mut prefetch = serve_shared(std::sync::Arc::clone(&source), ahead);
        prefetch.control = Some(Box::new(Shared { source, ahead }));
        prefetch.state = Some(state);
        prefetch.samples = samples;
        prefetch
    }

    /// Stops the thread (its batches made ahead are dropped), waits for it to give the source
    /// back, applies `command` to it and starts a new thread; without a source, `None`.
    fn restart(&mut self, command: Command<'_>) -> Option<Result<(), DataError>> {
        let mut control = self.control.take()?;
        let last = self.state.take()?;
        self.batches = None;
        self.back = None;
        if let Some(worker) = self.worker.take() {
            // It stops at its next send or permit, both of which now fail.
            let _ = worker.join();
        }
        let (mut fresh, state, done) = control.restart(command, &last);
        fresh.control = Some(control);
        fresh.state = Some(state);
        fresh.samples = self.samples;
        *self = fresh;
        Some(done)
    }

    /// The next batch, lent, waiting for the worker if it is behind; `None` at the end of the
    /// stream. Dropping it hands its buffer back to the worker.
    ///
    /// # Errors
    /// The producer's error, once, or [`DataError::WorkerPanicked`] if the producer panicked;
    /// the stream ends after it.
    pub fn next_batch(&mut self) -> Option<Result<Prefetched<'_, Q>, DataError>> {
        let (q, info, _) = match self.receive()? {
            Ok(batch) => batch,
            Err(e) => return Some(Err(e)),
        };
        Some(Ok(Prefetched {
            batch: Some(q),
            info,
            back: self.back.as_ref()?,
        }))
    }

    /// The next batch, given away, waiting for the worker if it is behind; `None` at the end of
    /// the stream. The batch leaves circulation: the worker may make another in its place
    /// (a buffer, for a `Prefetch` that lends; a batch of its own, for
    /// [`Prefetch::owned_provider`] and [`Prefetch::spawn_owned`]).
    ///
    /// # Errors
    /// As [`Prefetch::next_batch`].
    pub fn next_owned(&mut self) -> Option<Result<(Q, BatchInfo), DataError>> {
        let received = self.receive()?;
        if received.is_ok()
            && let Some(back) = &self.back
        {
            // The worker may have stopped; nothing waits for the word then.
            let _ = back.send(None);
        }
        Some(received.map(|(q, info, _)| (q, info)))
    }

    /// The next batch from the worker, or its error, or the panic that ended it; `None` at the
    /// end of the stream, and after an error.
    fn receive(&mut self) -> Option<Sent<Q>> {
        let received = receive_soon(self.batches.as_ref()?);
        match received {
            Ok(Ok((q, info, state))) => {
                if let Some(state) = state {
                    self.state = Some(*state);
                }
                Some(Ok((q, info, None)))
            }
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
    crate::data::error::panic_text(payload).unwrap_or_else(|| "a panic without a message".into())
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
        Q: ProvidedBy<R>,
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

    /// Serves the epochs `epochs` of a provider of `dataset` by `schedule` from a background
    /// thread, as batches to be given away ([`Prefetch::next_owned`]): each batch is made by
    /// [`Provider::next_owned`], so it holds exactly the batch's rows (a short last batch is
    /// short), and at most `ahead + 1` batches are made and not yet taken. The provider's own
    /// error (a schedule for another number of samples) is the first item served.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::data::{Dataset, Prefetch};
    /// use batchspec::iteration::Schedule;
    /// use std::sync::Arc;
    ///
    /// #[derive(DataSpec)]
    /// struct Record {
    ///     #[spec(source = "features")]
    ///     x: Batch<Vector<2>>,
    /// }
    /// let ds = Arc::new(Dataset::new(Record { x: Batch::new(ndarray::Array2::zeros((10, 2)))? })?);
    /// let schedule = Schedule::builder(10).batch_size(4).build()?;
    /// let mut batches = Prefetch::<Record>::owned_provider(ds, schedule, 0..2, 2);
    /// let mut sizes = vec![];
    /// while let Some(batch) = batches.next_owned() {
    ///     let (batch, info) = batch?;
    ///     assert_eq!(batch.x.len(), info.count_samples);
    ///     sizes.push(batch.x.len());
    /// }
    /// assert_eq!(sizes, [4, 4, 2, 4, 4, 2]);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    pub fn owned_provider<R>(
        dataset: std::sync::Arc<Dataset<R>>,
        schedule: Schedule,
        epochs: Range<u64>,
        ahead: usize,
    ) -> Self
    where
        R: DataSpec + Send + Sync + 'static,
        Q: GatherFrom<R>,
    {
        Self::spawn_owned(ahead, move |feeder| {
            let mut provider = match Provider::<R, Q>::unbuffered(&dataset, schedule) {
                Ok(p) => p,
                Err(e) => {
                    feeder.send(Err(e));
                    return;
                }
            };
            // A permit taken when an epoch has no batch left is kept for the next epoch (taking
            // another would leave one batch fewer in flight for good, and the worker would wait
            // for it forever).
            let mut permit = false;
            for epoch in epochs {
                provider.start_epoch(epoch);
                loop {
                    if !permit && !feeder.permit() {
                        return;
                    }
                    permit = true;
                    let Some(batch) = provider.next_owned() else {
                        break;
                    };
                    permit = false;
                    if !feeder.send(Ok(batch)) {
                        return;
                    }
                }
            }
        })
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

/// `.prefetched(ahead)` on any source of batches: the source on a thread of its own, up to
/// `ahead + 1` batches made before they are asked for ([`Prefetch::source`]); its state is that
/// of the batches taken. Implemented for every [`BatchSource`]; in the prelude.
pub trait IntoPrefetch<Q>: BatchSource<Q> + Sized {
    /// The source on a thread of its own ([`Prefetch::source`]).
    fn prefetched(self, ahead: usize) -> Prefetch<Q>
    where
        Self: Send + 'static,
        Q: DataSpec + Send + 'static,
    {
        Prefetch::source(self, ahead)
    }
}

impl<Q, S: BatchSource<Q>> IntoPrefetch<Q> for S {}

/// A `Prefetch` as a source. Made by [`Prefetch::source`] (or
/// [`IntoPrefetch::prefetched`](crate::data::IntoPrefetch::prefetched)) it has the source's state and resumes; made from a producer
/// ([`Prefetch::spawn`], [`Prefetch::provider`], ...) it has no position to give: its
/// [`start_epoch`](BatchSource::start_epoch) does nothing (its epochs were given where it was
/// made) and [`resume`](BatchSource::resume) is refused in words.
#[diagnostic::do_not_recommend]
impl<Q: Send + 'static> BatchSource<Q> for Prefetch<Q> {
    type Lent<'a> = Prefetched<'a, Q>;

    fn next_batch(&mut self) -> Option<Result<(Prefetched<'_, Q>, BatchInfo), DataError>> {
        Prefetch::next_batch(self).map(|r| {
            r.map(|b| {
                let info = b.info;
                (b, info)
            })
        })
    }

    fn next_owned(&mut self) -> Option<Result<(Q, BatchInfo), DataError>> {
        Prefetch::next_owned(self)
    }

    fn start_epoch(&mut self, epoch: u64) {
        // A source's `start_epoch` cannot fail.
        let _ = self.restart(Command::Epoch(epoch));
    }

    fn state(&self) -> SourceState {
        self.state
            .clone()
            .unwrap_or_else(|| SourceState::new("prefetched producer", 0))
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        self.restart(Command::Resume(state)).unwrap_or_else(|| {
            Err(DataError::Resume(
                "a Prefetch of a producer (a closure) has no position to resume: prefetch a source instead (`.prefetched(ahead)`, `Prefetch::source`)".into(),
            ))
        })
    }

    fn samples_per_epoch(&self) -> Option<usize> {
        self.samples
    }
}

#[cfg(test)]
mod tests {
    use super::{POLL_BEFORE_BLOCKING, receive_soon};
    use std::sync::mpsc::{RecvError, channel};
    use std::time::Duration;

    #[test]
    fn a_value_waiting_or_sent_while_polling_or_after_comes_in_order() {
        let (tx, rx) = channel();
        tx.send(1).unwrap();
        tx.send(2).unwrap();
        assert_eq!(receive_soon(&rx), Ok(1));
        assert_eq!(receive_soon(&rx), Ok(2));
        // Sent while the receiver polls, then long after it has blocked.
        for delay in [Duration::from_micros(5), POLL_BEFORE_BLOCKING * 20] {
            let tx = tx.clone();
            let sender = std::thread::spawn(move || {
                std::thread::sleep(delay);
                tx.send(3).unwrap();
                tx.send(4).unwrap();
            });
            assert_eq!(receive_soon(&rx), Ok(3), "{delay:?}");
            assert_eq!(receive_soon(&rx), Ok(4), "{delay:?}");
            sender.join().unwrap();
        }
    }

    #[test]
    fn a_sender_gone_is_an_error_whether_polling_or_blocked() {
        let (tx, rx) = channel::<u8>();
        drop(tx);
        assert_eq!(receive_soon(&rx), Err(RecvError));
        let (tx, rx) = channel::<u8>();
        let sender = std::thread::spawn(move || {
            std::thread::sleep(POLL_BEFORE_BLOCKING * 20);
            drop(tx);
        });
        assert_eq!(receive_soon(&rx), Err(RecvError));
        sender.join().unwrap();
    }
}
