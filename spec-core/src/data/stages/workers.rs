//! A per-sample stage on a pool of worker threads
//! ([`SampleStage::workers`](crate::data::SampleStage::workers)): the samples are read in the
//! source's order, handed to `n` threads, and their results put back in that order before they
//! are batched, so the batches do not depend on the number of workers or on which finishes
//! first. At most `2 × n` samples are in the workers' hands or waiting for an earlier one; an
//! error or a panic of the function reaches the consumer at its sample's batch; dropping the
//! stage stops and joins the threads.

use crate::data::batch_source::{BatchInfo, BatchSource};
use crate::data::cursor::{Cursor, Next};
use crate::data::dataset::AllocFlat;
use crate::data::error::DataError;
use crate::data::gather::GatherSame;
use crate::data::stages::{Batcher, SampleFn, SampleOut};
use crate::data::state::SourceState;
use crate::types::spec::{DataSpec, FlatOf};
use std::collections::{BTreeMap, VecDeque};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

type Outcome<P> = Result<Option<P>, DataError>;

/// A source batch read ahead: the place in the epoch's order of its sample `skipped` (its first
/// read: after a resume, the batch's first samples were taken before), its samples, and the
/// source's state before it.
struct Mark {
    first: u64,
    skipped: usize,
    samples: usize,
    before: SourceState,
}

/// A per-sample stage whose function runs on worker threads (made by
/// [`SampleStage::workers`](crate::data::SampleStage::workers)). It serves exactly the batches
/// the same stage serves on one thread, and its state is the same stage's: a state of either
/// resumes the other, with any number of workers.
pub struct ParallelStage<'a, Q, P> {
    cursor: Cursor<'a, Q>,
    jobs: Option<SyncSender<(u64, Q)>>,
    results: Receiver<(u64, Outcome<P>)>,
    threads: Vec<JoinHandle<()>>,
    /// Places in the order given out this epoch (samples read, and the source's errors).
    sent: u64,
    /// Places whose outcome was taken into a batch (or dropped, or served as an error).
    taken: u64,
    pending: BTreeMap<u64, Outcome<P>>,
    in_flight: usize,
    limit: usize,
    marks: VecDeque<Mark>,
    ended: bool,
    out: Batcher<P>,
}

/// What a stage's function needs to run on worker threads: each worker has its own copy
/// (`Clone`), moved to its thread (`Send`, owning what it uses: `'static`); its samples and
/// results cross threads too.
#[diagnostic::on_unimplemented(
    message = "this per-sample function cannot run on worker threads",
    label = "each worker needs its own copy of the function: it must be `Clone + Send + 'static`, and the samples `Send`",
    note = "a closure is `Clone` and `Send` when what it captures is: capture owned values (`move`, an `Arc` for shared data), not references or `Rc`"
)]
pub trait WorkerFn<Q, P>: SampleFn<Q, P> + Clone + Send + 'static {}

#[diagnostic::do_not_recommend]
impl<Q: Send + 'static, P: Send + 'static, F: SampleFn<Q, P> + Clone + Send + 'static>
    WorkerFn<Q, P> for F
{
}

impl<'a, Q, P> ParallelStage<'a, Q, P>
where
    Q: DataSpec + GatherSame + Send + 'static,
    P: SampleOut + Send + 'static,
    FlatOf<Q>: AllocFlat,
{
    /// The workers of [`SampleStage::workers`](crate::data::SampleStage::workers), started on
    /// the stage's source, function and output.
    pub(crate) fn start<F: WorkerFn<Q, P>>(
        cursor: Cursor<'a, Q>,
        f: F,
        out: Batcher<P>,
        workers: usize,
    ) -> Self {
        let workers = match workers {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        let limit = 2 * workers;
        let (jobs, queue) = sync_channel::<(u64, Q)>(limit);
        let queue = Arc::new(Mutex::new(queue));
        let (done, results) = channel();
        let threads = (0..workers)
            .map(|_| {
                let (queue, done, f) = (queue.clone(), done.clone(), f.clone());
                std::thread::spawn(move || work(&queue, &done, f))
            })
            .collect();
        // A stage already part-way through a batch of its source: that batch's first samples
        // were taken before.
        let mut marks = VecDeque::new();
        let (before, used) = cursor.state();
        if let (true, Some(samples)) = (used > 0, cursor.batch_samples()) {
            marks.push_back(Mark {
                first: 0,
                skipped: used,
                samples,
                before,
            });
        }
        ParallelStage {
            cursor,
            jobs: Some(jobs),
            results,
            threads,
            sent: 0,
            taken: 0,
            pending: BTreeMap::new(),
            in_flight: 0,
            limit,
            marks,
            ended: false,
            out,
        }
    }
}

/// A worker: takes the next sample, runs the function, sends its outcome; ends when the stage
/// closes the queue (or is gone).
fn work<Q, P, F: SampleFn<Q, P>>(
    queue: &Mutex<Receiver<(u64, Q)>>,
    done: &Sender<(u64, Outcome<P>)>,
    mut f: F,
) {
    loop {
        let job = match queue.lock() {
            Ok(q) => q.recv(),
            Err(_) => return,
        };
        let Ok((at, sample)) = job else { return };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f.call(sample)))
            .unwrap_or_else(|payload| {
                let message = crate::data::error::panic_text(&*payload).unwrap_or_default();
                Err(DataError::SamplePanicked(message))
            });
        if done.send((at, outcome)).is_err() {
            return;
        }
    }
}

impl<Q, P> ParallelStage<'_, Q, P>
where
    Q: DataSpec + GatherSame,
    P: SampleOut,
    FlatOf<Q>: AllocFlat,
{
    /// Reads the next sample of the source and hands it to the workers (or puts the source's
    /// error in its place in the order).
    fn read_one(&mut self) {
        let at = self.sent;
        self.sent += 1;
        let row = match self.cursor.next() {
            Ok(Next::Row(row)) => row,
            Ok(Next::End) => {
                self.sent -= 1;
                self.ended = true;
                return;
            }
            Err(e) => {
                self.pending.insert(at, Err(e));
                return;
            }
        };
        if let Some((before, samples)) = self.cursor.fresh_batch() {
            self.marks.push_back(Mark {
                first: at,
                skipped: 0,
                samples,
                before: before.clone(),
            });
        }
        self.out.size_from(self.cursor.batch_rows());
        let Some(from) = self.cursor.batch() else {
            return;
        };
        let mut one = Q::nest(FlatOf::<Q>::alloc(1, 0));
        Q::gather_same(&mut one, from, &[row], 0);
        match &self.jobs {
            Some(jobs) if jobs.send((at, one)).is_ok() => self.in_flight += 1,
            _ => {
                self.pending.insert(
                    at,
                    Err(DataError::SamplePanicked(
                        "the stage's worker threads are gone".into(),
                    )),
                );
            }
        }
    }

    /// Fills the staging batch in order: how many samples, or `None` at the end of the epoch.
    fn stage(&mut self) -> Option<Result<usize, DataError>> {
        while !self.out.full() {
            if let Some(outcome) = self.pending.remove(&self.taken) {
                self.taken += 1;
                // The marks of batches wholly taken, but the last, are no longer needed.
                while self.marks.len() > 1 && self.marks[1].first <= self.taken {
                    self.marks.pop_front();
                }
                match outcome {
                    Ok(Some(p)) => self.out.push(&p),
                    Ok(None) => {}
                    Err(e) => return Some(Err(e)),
                }
                continue;
            }
            if !self.ended && self.in_flight + self.pending.len() < self.limit {
                self.read_one();
                continue;
            }
            if self.in_flight > 0 {
                match self.results.recv() {
                    Ok((at, outcome)) => {
                        self.in_flight -= 1;
                        self.pending.insert(at, outcome);
                    }
                    Err(_) => {
                        self.in_flight = 0;
                        return Some(Err(DataError::SamplePanicked(
                            "the stage's worker threads are gone".into(),
                        )));
                    }
                }
                continue;
            }
            break;
        }
        self.out.finish().map(Ok)
    }

    /// Waits for the samples in the workers' hands and forgets everything read ahead.
    fn drain(&mut self) {
        while self.in_flight > 0 && self.results.recv().is_ok() {
            self.in_flight -= 1;
        }
        self.in_flight = 0;
        self.pending.clear();
        self.marks.clear();
        self.sent = 0;
        self.taken = 0;
        self.ended = false;
    }

    /// The source's position at the first sample not yet taken: the state before its batch and
    /// the samples of that batch taken.
    fn position(&self) -> (SourceState, usize) {
        match self.marks.iter().rev().find(|m| m.first <= self.taken) {
            Some(m) => {
                let used = usize::try_from(self.taken - m.first)
                    .unwrap_or(usize::MAX)
                    .saturating_add(m.skipped);
                (m.before.clone(), used.min(m.samples))
            }
            // Nothing read ahead of the cursor.
            None => self.cursor.state(),
        }
    }
}

impl<Q, P> Drop for ParallelStage<'_, Q, P> {
    fn drop(&mut self) {
        // Closing the queue ends every worker after its sample.
        self.jobs = None;
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[diagnostic::do_not_recommend]
impl<Q, P> BatchSource<P> for ParallelStage<'_, Q, P>
where
    Q: DataSpec + GatherSame,
    P: SampleOut,
    FlatOf<Q>: AllocFlat,
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
        self.drain();
        self.out.start(epoch);
        self.cursor.start_epoch(epoch);
    }

    fn state(&self) -> SourceState {
        // The same state as the stage on one thread: either resumes the other.
        self.out.state(self.position())
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        let (inner, used) = self.out.resume(state, self.state())?;
        self.drain();
        self.cursor.resume(inner, used)?;
        if used > 0
            && let Some(samples) = self.cursor.batch_samples()
        {
            // The batch resumed in: its first samples were taken before the state.
            self.marks.push_back(Mark {
                first: 0,
                skipped: used,
                samples,
                before: inner.clone(),
            });
        }
        Ok(())
    }
}
