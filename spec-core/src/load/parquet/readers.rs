//! The threads a [`ParquetStream`](super::ParquetStream) reads its windows ahead on, started
//! at the stream's first read and kept for its life, each taking the next window
//! given to it as it comes free. A window waits in the queue until a thread starts it; the
//! thread serving the batches may take a waiting window and read it itself
//! ([`Pending::help`]) rather than wait for a window a thread is reading (the stream gives it
//! one more window to take when every window ahead is started), so that a stream keeps as many
//! cores busy as it has threads in all (its reading threads and the one serving), and no
//! more.
//!
//! Which thread reads a window does not change it: the windows are served in the order they
//! were asked for, whatever order they finish in. A panic of a read reaches the consumer when it
//! takes that window, as a thread's join gave it. Dropping the stream takes back the windows
//! no thread has started and waits for the reads in the threads' hands (their memory kept, as
//! the stream's own; a read that has not ended within a second, from a store retrying say, is
//! left to end by itself), then closes the queue: each thread ends at its next wait.

use crate::data::dataset::{AllocFlat, Dataset, LoadRecord};
use crate::load::error::LoadError;
use crate::load::parquet::files::ParquetFiles;
use crate::types::spec::FlatOf;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::mpsc::{Receiver, Sender, SyncSender, TryRecvError, channel, sync_channel};
use std::sync::{Arc, Mutex};

/// What a read gives: the window, the reader's error, or the panic of the read.
type Outcome<R> = std::thread::Result<Result<Dataset<R>, LoadError>>;

/// A window's row groups until a thread (or the consumer) starts reading them.
type Waiting = Arc<Mutex<Option<ParquetFiles>>>;

/// A window to read, and where its outcome goes.
type Job<R> = (Waiting, SyncSender<Outcome<R>>);

/// The reading threads of one stream (none when none could be started).
pub(super) struct Readers<R> {
    jobs: Sender<Job<R>>,
}

/// A window given to the readers, until it is taken.
pub(super) struct Pending<R> {
    waiting: Waiting,
    outcome: Receiver<Outcome<R>>,
    // The outcome, once it came (from a thread, or read here by `help`).
    done: Option<Outcome<R>>,
}

impl<R> Readers<R>
where
    R: LoadRecord + Send + 'static,
    FlatOf<R>: AllocFlat,
{
    /// `threads` reading threads (at least one), or `None` when the system gives none (the
    /// stream then reads each window when it needs it).
    pub fn start(threads: usize) -> Option<Self> {
        let (jobs, queue) = channel::<Job<R>>();
        let queue = Arc::new(Mutex::new(queue));
        let mut started = 0;
        for _ in 0..threads.max(1) {
            let queue = Arc::clone(&queue);
            let thread = std::thread::Builder::new()
                .name("batchspec-parquet-read".into())
                .spawn(move || read(&queue));
            started += usize::from(thread.is_ok());
        }
        (started > 0).then_some(Readers { jobs })
    }
}

impl<R> Readers<R> {
    /// Gives `files` (a window's row groups) to the next free thread.
    pub fn read(&self, files: ParquetFiles) -> Pending<R> {
        let (done, outcome) = sync_channel(1);
        let waiting = Arc::new(Mutex::new(Some(files)));
        // The threads hold the queue for as long as the stream holds `jobs`: a send fails only
        // when every thread has ended, and then the window waits for `help` or `wait`.
        let _ = self.jobs.send((Arc::clone(&waiting), done));
        Pending {
            waiting,
            outcome,
            done: None,
        }
    }
}

impl<R> Pending<R>
where
    R: LoadRecord,
    FlatOf<R>: AllocFlat,
{
    /// Whether the window is read (or its read failed).
    pub fn is_done(&mut self) -> bool {
        if self.done.is_none() {
            match self.outcome.try_recv() {
                Ok(outcome) => self.done = Some(outcome),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => {}
            }
        }
        self.done.is_some()
    }

    /// Reads the window on this thread when no thread has started it: whether it did.
    pub fn help(&mut self) -> bool {
        let files = match self.waiting.lock() {
            Ok(mut waiting) => waiting.take(),
            Err(_) => None,
        };
        let Some(mut files) = files else {
            return false;
        };
        self.done = Some(Ok(Dataset::<R>::load(&mut files)));
        true
    }

    /// Waits for the window (reading it here when no thread started it); the read's panic is
    /// resumed here.
    pub fn wait(mut self) -> Result<Dataset<R>, LoadError> {
        if !self.help() && self.done.is_none() {
            // A thread started it: its outcome comes, or the thread ended in a way `read` does
            // not catch (its sender dropped unsent), and then the window was not read.
            self.done = self.outcome.recv().ok();
        }
        match self.done.take() {
            Some(Ok(read)) => read,
            Some(Err(panic)) => resume_unwind(panic),
            None => Err(LoadError::Shard {
                reason: "a reading thread ended before the window it read".to_owned(),
            }),
        }
    }
}

impl<R> Pending<R> {
    /// Takes the window back: not read when no thread has started it, else waited for (its
    /// memory is what it gives, when it was read).
    pub fn cancel(self) -> Option<Dataset<R>> {
        self.cancel_by(None)
    }

    /// [`cancel`](Self::cancel), waiting for a thread's read until `deadline` at most: a read
    /// still going on then is left to end by itself (its memory freed by its thread).
    pub fn cancel_by(mut self, deadline: Option<std::time::Instant>) -> Option<Dataset<R>> {
        if let Ok(mut waiting) = self.waiting.lock()
            && waiting.take().is_some()
        {
            return None;
        }
        if self.done.is_none() {
            self.done = match deadline {
                None => self.outcome.recv().ok(),
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(std::time::Instant::now());
                    self.outcome.recv_timeout(left).ok()
                }
            };
        }
        match self.done.take() {
            Some(Ok(Ok(read))) => Some(read),
            _ => None,
        }
    }
}

impl<R> Drop for Pending<R> {
    /// A window dropped before any thread started it is not read (the stream dropped, a new
    /// epoch, a seek).
    fn drop(&mut self) {
        if let Ok(mut waiting) = self.waiting.lock() {
            waiting.take();
        }
    }
}

/// A reading thread: windows from the queue until the stream closes it.
fn read<R>(queue: &Mutex<Receiver<Job<R>>>)
where
    R: LoadRecord,
    FlatOf<R>: AllocFlat,
{
    loop {
        // The lock is held while waiting, by one thread at a time; the others wait for it.
        let job = match queue.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        let Ok((waiting, done)) = job else {
            return;
        };
        // The consumer may have read it already, or dropped it (a new epoch, a seek).
        let files = match waiting.lock() {
            Ok(mut waiting) => waiting.take(),
            Err(_) => None,
        };
        let Some(mut files) = files else {
            continue;
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| Dataset::<R>::load(&mut files)));
        let _ = done.send(outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::{Outcome, Pending};
    use std::sync::mpsc::sync_channel;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    /// A window a thread has started (its files taken), whose outcome comes through `done`.
    fn started() -> (Pending<()>, std::sync::mpsc::SyncSender<Outcome<()>>) {
        let (done, outcome) = sync_channel(1);
        let pending = Pending {
            waiting: Arc::new(Mutex::new(None)),
            outcome,
            done: None,
        };
        (pending, done)
    }

    #[test]
    fn a_read_that_does_not_end_is_waited_for_until_the_deadline_only() {
        // The thread holds the window and never answers (a store retrying): the stream's drop
        // gives up at its deadline rather than hang.
        let (pending, _thread) = started();
        let wait = Duration::from_millis(50);
        let begun = Instant::now();
        assert!(pending.cancel_by(Some(begun + wait)).is_none());
        let took = begun.elapsed();
        assert!(took >= wait, "gave up after {took:?}, before the deadline");
        assert!(took < Duration::from_secs(10), "waited {took:?}");
    }

    #[test]
    fn a_read_that_failed_gives_no_memory_back_and_a_dropped_thread_ends_the_wait() {
        // The read's error (here a panic's payload) comes: nothing to keep.
        let (pending, thread) = started();
        thread.send(Err(Box::new("a read panicked"))).unwrap();
        assert!(pending.cancel_by(None).is_none());
        // The thread ends without an outcome (its sender dropped): no wait, even unbounded.
        let (pending, thread) = started();
        drop(thread);
        assert!(pending.cancel_by(None).is_none());
    }
}
