//! Prefetching: a batch producer on a background thread, a bounded number of batches ahead of
//! the consumer ([`Prefetch`]), its errors and panics served in the consumer's loop.

use crate::data::batch_source::{BatchInfo, BatchSource};
use crate::data::dataset::{AllocFlat, Dataset};
use crate::data::error::DataError;
use crate::data::gather::GatherFrom;
use crate::data::provider::Provider;
use crate::iteration::Schedule;
use crate::types::spec::{DataSpec, FlatOf};
use std::ops::Range;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::thread::JoinHandle;

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
}
