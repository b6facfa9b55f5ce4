//! A rank's share of Parquet data as a stream of batches, a window of row groups at a time
//! (feature `parquet`): memory holds two windows (the one served, and the next one being read
//! or the memory it will be read into) plus less than a batch, whatever the size of the share.

use crate::data::batch_source::{BatchInfo, BatchSource};
use crate::data::dataset::LoadRecord;
use crate::data::dataset::{AllocFlat, Dataset, SpareBuffers};
use crate::data::error::{DataError, SourceError};
use crate::data::gather::{GatherFrom, GatherSame};
use crate::data::prefetch::Prefetch;
use crate::data::state::{SourceState, fingerprint};
use crate::iteration::{LastBatch, permutation};
use crate::load::error::LoadError;
use crate::load::parquet::elastic::{Batching, Chunk, part_of_rest};
use crate::load::parquet::files::ParquetFiles;
use crate::load::parquet::readers::{Pending, Readers};
use crate::load::parquet::row_group::RowGroup;
use crate::load::parquet::shard::ShardPlan;
use crate::types::spec::{DataSpec, FlatOf};
use std::sync::{Arc, Mutex};

/// Batches of the record `R` from this rank's row groups of one epoch, read `window` row groups
/// at a time. With a [`ShardPlan::shuffle`] seed the rows of each window are shuffled (by
/// `(seed, epoch)` and the window's place), after the row groups themselves; a batch may take
/// rows of two windows. The epoch serves exactly [`ShardPlan::samples`] rows: under
/// [`Tail::Pad`](crate::load::Tail::Pad) every row of the share is served once, then the share
/// is read again from its first row group for the missing ones (a window never holds row groups
/// of two passes over the share, so no row of the first pass is left for a repeated one); under
/// [`Tail::Drop`](crate::load::Tail::Drop) it stops early (so which rows repeat or are left out
/// follows the stream's order, not the file order of [`ShardPlan::load`]). The last batch is
/// short when the rows do not fill it.
///
/// Memory: the window served, plus the memory of the window before, which the next window is
/// read into (so that reading touches memory already mapped), plus less than a batch of rows
/// left from the window before, plus the pages the reader keeps to read the next ones into (at
/// most 8 buffers of at most 8 MiB); with [`read_ahead`](Self::read_ahead) the next window is
/// read into that memory on another thread while this one is served. [`fill_next`](Self::fill_next)
/// allocates nothing per batch (reading a window allocates in the decoder: a compressed page's
/// decompressed bytes, the levels);
/// [`next_batch`](Self::next_batch) allocates the batch it returns. A stream dropped passes the
/// memory of its windows to the files it was made from, and the next stream made from them
/// reads into it ([`ParquetFiles::release_kept_memory`]): a loop that makes a stream for each
/// epoch from files opened once asks the system for its windows' memory once, as a stream kept
/// from epoch to epoch ([`start_epoch`](Self::start_epoch)) does, and so does one that opens
/// its files afresh for each epoch: files dropped leave that memory lingering a second for the
/// next files' streams ([`ParquetFiles::release_lingering_memory`]).
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::load::{ParquetFiles, ParquetStream, Rank, ShardPlan};
///
/// #[derive(DataSpec)]
/// struct Ids {
///     #[spec(source = "id")]
///     id: Batch<Index<100>>,
/// }
///
/// let files = ParquetFiles::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/parquet/uneven.parquet"))?;
/// let plan = ShardPlan::new(&files, Rank::new(0, 2)?)?.shuffle(1);
/// let mut stream = ParquetStream::<Ids>::new(&files, &plan, 0, 4, 2);
/// let mut rows = 0;
/// while let Some(batch) = stream.next_batch() {
///     rows += batch?.id.len();
///     assert!(stream.buffered() <= 4 + 7 * 2, "a window of 2 row groups (at most 7 rows each) and a batch");
/// }
/// assert_eq!(rows, plan.samples(0));
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct ParquetStream<R> {
    files: ParquetFiles,
    plan: ShardPlan,
    // The state's kind, request and the files it holds (their names and row groups' rows).
    identity: SourceState,
    // Batches and rows served in the epoch.
    batches: u64,
    served: u64,
    // The rank's row groups of the epoch, read `rounds` times over: more than once only to pad
    // the share, and a window never spans two rounds, so the first round serves every row of the
    // share before any row is served again.
    own: Vec<RowGroup>,
    rounds: usize,
    // Where the next window starts.
    next: Cursor,
    window: usize,
    windows_read: u64,
    seed: Option<u64>,
    epoch: u64,
    batch_size: usize,
    remaining: usize,
    buffer: Option<R>,
    // The buffer's rows in the order they are served (the window's rows shuffled, after the
    // rows left from the window before).
    order: Vec<usize>,
    buffered: usize,
    cursor: usize,
    // With `read_ahead`: the threads that read the windows ahead (started at the first read,
    // by `start`), and how many are asked for.
    readers: Option<Readers<R>>,
    start: Option<StartReaders<R>>,
    reading_threads: Option<usize>,
    // The windows being read ahead, in the order they are served, and how many are read at
    // once (0 without `read_ahead`). The first windows of the next epoch follow the last ones of
    // this epoch when `follows`.
    ahead: std::collections::VecDeque<Ahead<R>>,
    ahead_windows: usize,
    // This epoch was started right after the one before it (`start_epoch(e + 1)` after `e`):
    // epochs are taken in turn, so the next one's first windows are read ahead at this one's end.
    follows: bool,
    // The next epoch's row groups and rounds, once its first windows are read ahead.
    following: Option<(u64, Vec<RowGroup>, usize)>,
    // The memory of served windows, which the next windows are read into.
    spare: Arc<Mutex<SpareBuffers>>,
    // Gives a window's memory to the spare ones: what `recycle` does with each window served,
    // and what the stream's drop, which knows nothing of `R`, does with the one served last.
    give_back: fn(R, &mut SpareBuffers),
    // The short last batch is not served.
    drop_last: bool,
    // A batch that spans two windows: the rows left from the window before are moved here
    // (`carried` of them), and the batch is completed from the next window. Allocated once, of
    // `batch_size` rows, with the identity row list to serve it by.
    span: Option<(R, Vec<usize>)>,
    carried: usize,
    // The global index of each row of the window (its file and row there, `file << 40 | row`)
    // and of each row of the span: what augmentations draw by, the same on any rank.
    globals: Vec<u64>,
    span_globals: Vec<u64>,
    // The batch lent as a [`BatchSource`], until the next one.
    lent: Option<R>,
    // The part of another job's epoch an elastic resume dealt to this rank, read a chunk at a
    // time instead of the epoch's own windows, and the state it continues.
    rest: Option<(SourceState, Vec<Chunk>, usize)>,
}

/// How long a dropped [`ParquetStream`] waits, in all, for the windows its threads are reading:
/// a window read from local files, or from a store that answers, ends well within it; a read
/// still going on then (a store retrying) is left to end by itself, its memory freed by its
/// thread.
const DROP_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

impl<R> Drop for ParquetStream<R> {
    /// The memory of the stream's windows (those served and given back, the one served last
    /// and those read ahead) passes to the files it was made from, for the next stream made
    /// from them ([`ParquetFiles::release_kept_memory`]). A window read ahead that no thread
    /// has started is not read; one a thread is reading is waited for (at most one window a
    /// reading thread, for a second in all), so that no read of a dropped stream goes on
    /// on the cores, or asks for memory, after it.
    fn drop(&mut self) {
        // Taken back before the lock: a thread reading a window takes its memory from the
        // spare buffers.
        let deadline = std::time::Instant::now() + DROP_WAIT;
        let ahead: Vec<_> = self
            .ahead
            .drain(..)
            .filter_map(|a| a.pending.cancel_by(Some(deadline)))
            .collect();
        let Ok(mut spare) = self.spare.lock() else {
            return;
        };
        for read in ahead {
            (self.give_back)(read.into_record(), &mut spare);
        }
        if let Some(served) = self.buffer.take() {
            (self.give_back)(served, &mut spare);
        }
        self.files.keep_windows(&mut spare);
    }
}

/// A place in the stream's row groups: a round (a pass over the share) and a row group of it.
#[derive(Clone, Copy, Debug)]
struct Cursor {
    round: usize,
    group: usize,
}

/// A window: row groups of the share, all of one round, and where the window after starts.
#[derive(Clone, Debug)]
struct Window {
    groups: std::ops::Range<usize>,
    after: Cursor,
}

/// Starts the given number of reading threads (`None` when the system gives none).
type StartReaders<R> = fn(usize) -> Option<Readers<R>>;

/// A window being read ahead: of which epoch, and its rows (as the footers count them).
struct Ahead<R> {
    pending: Pending<R>,
    window: Window,
    epoch: u64,
    rows: usize,
}

/// The window of `own` (read `rounds` times over, `window` row groups at a time) that starts
/// at `at`, `None` past the last round.
fn window_in(own: &[RowGroup], rounds: usize, window: usize, at: Cursor) -> Option<Window> {
    if at.round >= rounds || at.group >= own.len() {
        return None;
    }
    let end = at.group.saturating_add(window).min(own.len());
    let after = if end == own.len() {
        Cursor {
            round: at.round + 1,
            group: 0,
        }
    } else {
        Cursor {
            round: at.round,
            group: end,
        }
    };
    Some(Window {
        groups: at.group..end,
        after,
    })
}

impl<R> ParquetStream<R>
where
    R: LoadRecord + Send + 'static,
    FlatOf<R>: AllocFlat,
{
    /// Reads each next window on another thread while the batches of the one before are served,
    /// so that decoding overlaps the training step (and the stream's own copying): memory then
    /// holds two windows plus less than a batch. Epochs taken in turn, as a training loop takes
    /// them (`start_epoch(e + 1)` after epoch `e`), read on across their boundary: the next
    /// epoch's first windows are read while this one's last are served (see
    /// [`start_epoch`](Self::start_epoch)).
    pub fn read_ahead(self) -> Self {
        let n = self.ahead_windows.max(1);
        self.read_ahead_windows(n)
    }

    /// Reads the next `windows` windows ahead while the batches of the one before are served,
    /// each on a thread of its own (of local files, up to one thread fewer than the machine's
    /// cores; of files in a store, whose reads wait on the network, one each), or on the
    /// threads [`reading_threads`](Self::reading_threads) sets: decoding spread over the cores
    /// (a window is decoded by one thread; the windows are served in their order, so the
    /// batches are the same whatever `windows` is and whichever thread read each). When the
    /// window the next batch needs is not read yet, the thread serving the batches reads a
    /// window no thread has started, or, when every window ahead is started, the window after
    /// them, into the memory of the window it has just served, rather than wait. Memory holds
    /// `windows + 1` windows plus less than a batch; each window's memory, once served, is kept
    /// for a window read after it, so a stream kept from epoch to epoch takes its windows'
    /// memory from the allocator once (the system allocator's own choice to give freed memory
    /// back to the system, and to fault it in again, stays out of the stream's time). `1` is
    /// [`read_ahead`](Self::read_ahead); `0` reads each window when it is needed. The reading
    /// threads are started when the stream first reads, and kept for its life.
    pub fn read_ahead_windows(mut self, windows: usize) -> Self {
        self.ahead_windows = windows;
        // Each window in flight (those ahead and the one served) gives its memory back when
        // served, for a window read after it.
        if let Ok(mut spare) = self.spare.lock() {
            spare.set_limit(<R as crate::types::spec::Node<()>>::LEAVES * (windows + 1));
        }
        self.restart_readers();
        self
    }

    /// Reads the windows ahead ([`read_ahead_windows`](Self::read_ahead_windows)) on `threads`
    /// threads (at least one, at most one per window ahead; by default one per window, up to one
    /// fewer than the machine's cores for local files), each taking the next window as it comes
    /// free. When the window the next batch needs is still being read, the thread serving the
    /// batches reads a window no thread has started yet (or the one after those ahead), instead
    /// of waiting: the stream keeps busy as many cores as it has threads in all, the serving one
    /// included, and with fewer reading threads than cores no more threads than cores take turns
    /// on them (on a 2-core host, a stream kept from epoch to epoch with one reading thread and
    /// three windows ahead served 1.55 to 1.95 times the batches of one thread in ten runs, with
    /// two threads reading two windows 1.26 to 1.59 times: `benches/README.md`). The batches are
    /// the same whatever `threads` is.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::load::{ParquetFiles, ParquetStream, Rank, ShardPlan};
    ///
    /// #[derive(DataSpec)]
    /// struct Ids {
    ///     #[spec(source = "id")]
    ///     id: Batch<Index<100>>,
    /// }
    ///
    /// let files = ParquetFiles::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/parquet/uneven.parquet"))?;
    /// let plan = ShardPlan::new(&files, Rank::new(0, 1)?)?.shuffle(3);
    /// let ids = |mut stream: ParquetStream<Ids>| -> Result<Vec<i64>, batchspec::Error> {
    ///     let mut ids = Vec::new();
    ///     while let Some(batch) = stream.next_batch() {
    ///         ids.extend(batch?.id.array().iter().copied());
    ///     }
    ///     Ok(ids)
    /// };
    /// let alone = ids(ParquetStream::new(&files, &plan, 0, 4, 1))?;
    /// let helped = ids(ParquetStream::new(&files, &plan, 0, 4, 1).read_ahead_windows(3).reading_threads(1))?;
    /// assert_eq!(alone, helped);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    pub fn reading_threads(mut self, threads: usize) -> Self {
        self.reading_threads = Some(threads.max(1));
        self.restart_readers();
        self
    }

    /// The reading threads the stream's settings ask for, started at its next read (threads
    /// started before end once they have read the windows given to them).
    fn restart_readers(&mut self) {
        self.readers = None;
        self.start = Some(Readers::<R>::start);
    }
}

impl<R> ParquetStream<R>
where
    R: LoadRecord + GatherSame + Send + 'static,
    FlatOf<R>: AllocFlat,
{
    /// The stream on a thread of its own, filling `ahead + 1` requests made by `make` (each
    /// holding at least a batch) while the consumer trains on the one before: the providers'
    /// [`Prefetch`], with the batch's real rows and padding in its `info`. A reader's error
    /// arrives as [`DataError::Read`], holding the [`LoadError`].
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::load::{ParquetFiles, ParquetStream, Rank, ShardPlan};
    ///
    /// #[derive(DataSpec)]
    /// struct Ids {
    ///     #[spec(source = "id")]
    ///     id: Batch<Index<100>>,
    /// }
    /// #[derive(DataSpec)]
    /// struct OneHot {
    ///     #[spec(source = "id")]
    ///     id: Batch<Vector<100>>,
    /// }
    ///
    /// let files = ParquetFiles::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/parquet/uneven.parquet"))?;
    /// let plan = ShardPlan::new(&files, Rank::new(0, 1)?)?;
    /// let stream = ParquetStream::<Ids>::new(&files, &plan, 0, 10, 2).read_ahead();
    /// let mut batches = stream.prefetch(2, || OneHot { id: Batch::zeros(10, 0) });
    /// let mut rows = 0;
    /// while let Some(batch) = batches.next_batch() {
    ///     let batch = batch?;
    ///     rows += batch.info.count_samples;
    /// }
    /// assert_eq!(rows, 33);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    pub fn prefetch<Q>(mut self, ahead: usize, make: impl Fn() -> Q + Send + 'static) -> Prefetch<Q>
    where
        Q: GatherFrom<R> + DataSpec + Send + 'static,
    {
        Prefetch::spawn(ahead, make, move |out: &mut Q| {
            let filled = self.fill_next(out)?;
            Some(
                filled
                    .map(|n| BatchInfo {
                        count_samples: n,
                        pad: out.validate().map_or(0, |rows| rows.saturating_sub(n)),
                    })
                    .map_err(|e| DataError::Read(SourceError::new(e))),
            )
        })
    }
}

impl<R> ParquetStream<R>
where
    R: LoadRecord + GatherSame,
    FlatOf<R>: AllocFlat,
{
    /// The stream of `epoch` of `plan`'s share of `files`, in batches of `batch_size` rows, read
    /// `window` row groups at a time (both at least 1).
    pub fn new(
        files: &ParquetFiles,
        plan: &ShardPlan,
        epoch: u64,
        batch_size: usize,
        window: usize,
    ) -> Self {
        // One window's leaves: what the next window is read into.
        let spare = Arc::new(Mutex::new(SpareBuffers::new(
            <R as crate::types::spec::Node<()>>::LEAVES,
        )));
        let mut words: Vec<Vec<u8>> = files
            .files()
            .iter()
            .map(|f| {
                f.file_name()
                    .unwrap_or_default()
                    .as_encoded_bytes()
                    .to_vec()
            })
            .collect();
        words.extend(plan.all_row_groups().iter().map(|g| {
            [g.file, g.index, g.first_row, g.rows]
                .iter()
                .flat_map(|x| (*x as u64).to_le_bytes())
                .collect()
        }));
        let parts: Vec<&[u8]> = words.iter().map(Vec::as_slice).collect();
        let mut stream = ParquetStream {
            files: files.clone().with_spare(spare.clone()),
            plan: plan.clone(),
            identity: SourceState::new("parquet stream", 0)
                .with_request::<R>()
                .with_data(fingerprint(&parts)),
            batches: 0,
            served: 0,
            spare,
            give_back: |served: R, spare: &mut SpareBuffers| served.flatten().recycle(spare),
            own: Vec::new(),
            rounds: 1,
            next: Cursor { round: 0, group: 0 },
            window: window.max(1),
            windows_read: 0,
            seed: plan.seed(),
            epoch,
            batch_size: batch_size.max(1),
            remaining: 0,
            buffer: None,
            order: Vec::new(),
            buffered: 0,
            cursor: 0,
            readers: None,
            start: None,
            reading_threads: None,
            ahead: std::collections::VecDeque::new(),
            ahead_windows: 0,
            follows: false,
            following: None,
            drop_last: false,
            span: None,
            carried: 0,
            globals: Vec::new(),
            span_globals: Vec::new(),
            lent: None,
            rest: None,
        };
        stream.start_epoch(epoch);
        stream
    }

    /// Starts epoch `epoch` of the plan: its row groups (shuffled by the plan's seed and the
    /// epoch), from the first. The memory of the windows read so far is kept for the next ones.
    ///
    /// With [`read_ahead`](Self::read_ahead), an epoch started right after the one before it
    /// (`epoch` after `epoch - 1`) reads the first windows of the epoch after it while its own
    /// last windows are served, and the next `start_epoch` finds them read (any other epoch
    /// started drops them, their memory kept).
    pub fn start_epoch(&mut self, epoch: u64) {
        self.follows = self.epoch.checked_add(1) == Some(epoch);
        // Windows of this epoch read ahead are its first ones only when they were read as the
        // next epoch's (of a stream started again at its own epoch, they are the rest of it).
        let first_read = self.follows;
        self.epoch = epoch;
        (self.own, self.rounds) = self.groups_of(epoch);
        self.following = None;
        self.remaining = self.plan.samples(epoch);
        self.next = Cursor { round: 0, group: 0 };
        self.windows_read = 0;
        self.batches = 0;
        self.served = 0;
        // Windows read ahead as this epoch's first ones (the row groups of an epoch are a
        // function of the plan and the epoch) are kept; of the others, the memory.
        self.drop_ahead(|a| !(first_read && a.epoch == epoch));
        if let Some(old) = self.buffer.take() {
            self.recycle(old);
        }
        self.order.clear();
        self.buffered = 0;
        self.cursor = 0;
        self.carried = 0;
        self.rest = None;
    }

    /// An epoch's row groups, and how many times they are read over: more than once only to pad
    /// the share (the plan checked that the rows of all row groups add up).
    fn groups_of(&self, epoch: u64) -> (Vec<RowGroup>, usize) {
        let own = self.plan.row_groups(epoch);
        let own_rows: usize = own.iter().map(|g| g.rows).sum();
        let rounds = if own_rows == 0 {
            1
        } else {
            self.plan.samples(epoch).div_ceil(own_rows).max(1)
        };
        (own, rounds)
    }

    /// Waits for the windows being read ahead that `drop` picks and keeps their memory; the
    /// others stay, in their order.
    fn drop_ahead(&mut self, drop: impl Fn(&Ahead<R>) -> bool) {
        let all: Vec<_> = self.ahead.drain(..).collect();
        for a in all {
            if !drop(&a) {
                self.ahead.push_back(a);
            } else if let Some(read) = a.pending.cancel() {
                self.recycle(read.into_fields());
            }
        }
    }

    /// Where the stream stands: the epoch, the batches and rows served in it, the plan's seed,
    /// rank and tail, the batch size and window, and a fingerprint of the files (their names and
    /// row groups).
    pub fn state(&self) -> SourceState {
        let rank = self.plan.rank();
        let state = self
            .identity
            .clone()
            .in_epoch(self.epoch)
            .with_seed(self.seed)
            .with_rank(rank.rank(), rank.world())
            .with_plan(format!(
                "batch {}, window {} row groups, tail {:?}, last batch {}",
                self.batch_size,
                self.window,
                self.plan.tail_policy(),
                if self.drop_last { "dropped" } else { "short" }
            ))
            .at(self.batches, self.served);
        match &self.rest {
            Some((origin, _, _)) => state.with_inner(vec![origin.clone()]),
            None => state,
        }
    }

    /// Continues from `state` (see [`ParquetStream::seek`]).
    ///
    /// A state taken with another number of ranks (the plan's [`Rank`](crate::load::Rank) of
    /// another world, same files, seed, tail, batch size and window) is an elastic resume: the
    /// rows every rank of the saved job had still to serve in its share's first pass (computed
    /// from the footers and the shuffle, nothing read) are dealt to this job's ranks in
    /// contiguous parts and served under the plan's tail (`Uneven`: each once across the ranks;
    /// `Pad`: parts padded from their first rows to the largest; `Drop`: cut to the smallest),
    /// a window of the old stream at a time; the next epochs are a fresh run's.
    ///
    /// # Errors
    /// [`DataError::StateMismatch`] for a state of other files, request, seed or plan; the
    /// reader's errors for the window the next batch starts in.
    pub fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        let rank = self.plan.rank();
        state.check_against(&self.state().with_inner(Vec::new()), true)?;
        self.start_epoch(state.epoch());
        let batches = usize::try_from(state.batches()).unwrap_or(usize::MAX);
        let read = |e| DataError::Read(SourceError::new(e));
        if state.world() == rank.world() && state.inner().is_empty() {
            return self.seek(batches).map_err(read);
        }
        let (origin, skip) = match state.inner().first() {
            Some(origin) if state.world() == rank.world() => (origin, batches),
            _ => (state, 0),
        };
        let how = Batching {
            batch: self.batch_size,
            window: self.window,
            drop_last: self.drop_last,
        };
        let chunks = part_of_rest(&self.plan, how, origin, rank.rank(), rank.world())?;
        self.remaining = chunks.iter().map(|c| c.rows.len()).sum();
        self.rest = Some((origin.clone(), chunks, 0));
        self.seek(skip).map_err(read)
    }

    /// What becomes of the epoch's last batch when the rows do not fill it:
    /// [`LastBatch::Short`] (the default) serves it short ([`fill_next`](Self::fill_next) zeroes
    /// the rows past it and returns the count, which is the provider's `Pad`: both are
    /// accepted), [`LastBatch::Drop`] leaves it out (every batch then has `batch_size` rows;
    /// with [`Tail::Drop`](crate::load::Tail::Drop) or `Pad`, every rank serves the same number
    /// of batches).
    ///
    /// # Errors
    /// [`LoadError::Shard`] for [`LastBatch::RollOver`]: it would join the shuffles of two
    /// epochs, which a stream (one epoch, a pure function of the seed and the epoch) does not do.
    pub fn last_batch(mut self, policy: LastBatch) -> Result<Self, LoadError> {
        self.drop_last = match policy {
            LastBatch::Short | LastBatch::Pad => false,
            LastBatch::Drop => true,
            other => {
                return Err(LoadError::Shard {
                    reason: format!(
                        "a Parquet stream serves one epoch at a time and cannot {other} its last batch into the next; use short, pad or drop"
                    ),
                });
            }
        };
        Ok(self)
    }

    /// Moves a stream at the start of its epoch past the epoch's first `batches` batches,
    /// without reading what they held: whole windows are skipped by the row counts of the files'
    /// footers, and only the window the next batch starts in is read (its rows shuffled exactly
    /// as a stream from the start would shuffle them).
    ///
    /// # Errors
    /// The reader's errors for that window.
    pub fn seek(&mut self, batches: usize) -> Result<(), LoadError> {
        let mut skip = batches.saturating_mul(self.batch_size).min(self.remaining);
        if self.drop_last {
            // Batches are all full: the rows of a dropped last batch are not skipped into.
            skip = skip.min(self.remaining - self.remaining % self.batch_size);
        }
        self.batches = batches.min(skip.div_ceil(self.batch_size)) as u64;
        self.served = skip as u64;
        self.remaining -= skip;
        if skip > 0 {
            // Windows read ahead from the epoch's start are not where it resumes.
            self.drop_ahead(|_| true);
        }
        if let Some((_, chunks, next)) = &mut self.rest {
            // A rest is its chunks' rows in order.
            while let Some(chunk) = chunks.get(*next) {
                if chunk.rows.len() > skip {
                    break;
                }
                skip -= chunk.rows.len();
                *next += 1;
                self.windows_read += 1;
            }
            if skip > 0 {
                self.refill()?;
                self.cursor = skip.min(self.buffered);
            }
            return Ok(());
        }
        // The stream is the windows' rows in order, each window shuffled on its own.
        while let Some(window) = self.window_at(self.next) {
            let rows = self.rows_of(&window);
            if rows > skip {
                break;
            }
            skip -= rows;
            self.next = window.after;
            self.windows_read += 1;
        }
        if skip > 0 {
            self.refill()?;
            self.cursor = skip.min(self.buffered);
        }
        Ok(())
    }

    /// The rows held in memory now: read and not yet served (those of the window and any carried
    /// from the one before), plus, with [`read_ahead`](Self::read_ahead), the rows of the window
    /// being read.
    pub fn buffered(&self) -> usize {
        let ahead: usize = self.ahead.iter().map(|a| a.rows).sum();
        self.carried + self.buffered - self.cursor + ahead
    }

    /// The window of this epoch that starts at `at`, `None` past the last round.
    fn window_at(&self, at: Cursor) -> Option<Window> {
        window_in(&self.own, self.rounds, self.window, at)
    }

    /// Whether a window (or a chunk of a rest) is still to be read.
    fn more_to_read(&self) -> bool {
        match &self.rest {
            Some((_, chunks, next)) => *next < chunks.len(),
            None => self.window_at(self.next).is_some(),
        }
    }

    /// The rows of a window, as the footers count them.
    fn rows_of(&self, window: &Window) -> usize {
        self.own[window.groups.clone()].iter().map(|g| g.rows).sum()
    }

    /// The rows still to serve in this epoch.
    pub fn remaining(&self) -> usize {
        self.remaining
    }

    /// Reads the next window, whose rows are served (shuffled when asked) after the rows carried
    /// from the one before; the window before must be served or carried.
    fn refill(&mut self) -> Result<(), LoadError> {
        debug_assert_eq!(
            self.cursor, self.buffered,
            "rows left in the window are carried first"
        );
        if let Some((_, chunks, next)) = &mut self.rest {
            let Some(chunk) = chunks.get(*next) else {
                return Ok(());
            };
            *next += 1;
            let read = Dataset::<R>::load(&mut self.files.select_row_groups(&chunk.groups))?;
            self.globals.clear();
            for g in &chunk.groups {
                let file = (g.file as u64) << 40;
                self.globals
                    .extend((g.first_row..g.first_row + g.rows).map(|r| file | r as u64));
            }
            self.order.clone_from(&chunk.rows);
            self.windows_read += 1;
            self.buffered = self.order.len();
            self.cursor = 0;
            if let Some(old) = self.buffer.replace(read.into_fields()) {
                self.recycle(old);
            }
            return Ok(());
        }
        // Windows read ahead for the next epoch come after all of this one's.
        let epoch = self.epoch;
        let (read, groups) = if self.ahead.front().is_some_and(|a| a.epoch == epoch) {
            self.give_back_served();
            // With read-ahead, the windows to come are being read: more start here.
            self.top_up(self.ahead_windows);
            // While a thread reads the window needed next, windows no thread has started are
            // read here, in their order, instead of waiting; when every window ahead is started,
            // the one after them is, in the memory just given back (`windows + 1` in flight, as
            // while a window is served).
            loop {
                let mut ahead = self.ahead.iter_mut();
                let Some(first) = ahead.next() else { break };
                if first.pending.is_done() || first.pending.help() {
                    break;
                }
                if ahead.any(|a| a.pending.help()) {
                    continue;
                }
                let before = self.ahead.len();
                if before > self.ahead_windows {
                    break;
                }
                self.top_up(self.ahead_windows + 1);
                if self.ahead.len() == before {
                    break;
                }
            }
            let Some(Ahead {
                pending, window, ..
            }) = self.ahead.pop_front()
            else {
                return Ok(());
            };
            self.next = window.after;
            (pending.wait()?, window.groups)
        } else {
            // None of this epoch's windows is being read (the stream's first read, a seek, no
            // read-ahead): this thread reads the next one, into the memory of the window served
            // (when there was one), and the reading threads start on the ones after it, rather
            // than this thread waiting for a thread just started.
            let Some(window) = self.window_at(self.next) else {
                return Ok(());
            };
            self.next = window.after;
            self.give_back_served();
            self.top_up(self.ahead_windows);
            let groups = &self.own[window.groups.clone()];
            let read = Dataset::<R>::load(&mut self.files.select_row_groups(groups))?;
            (read, window.groups)
        };
        let n = read.len();
        self.globals.clear();
        for g in &self.own[groups] {
            let file = (g.file as u64) << 40;
            self.globals
                .extend((g.first_row..g.first_row + g.rows).map(|r| file | r as u64));
        }
        self.order = match self.seed {
            Some(seed) => permutation(
                n,
                seed ^ self.windows_read.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                self.epoch,
            ),
            None => (0..n).collect(),
        };
        self.windows_read += 1;
        self.buffered = n;
        self.cursor = 0;
        // The window served gave its memory back before this one was read.
        self.buffer = Some(read.into_fields());
        // The windows after this one start reading now.
        self.top_up(self.ahead_windows);
        Ok(())
    }

    /// The reading threads to start: those asked for, by default a window a thread (for local
    /// files, whose reads use a core each, no more than the cores but the serving thread's),
    /// never more than the windows read ahead.
    fn threads_to_read(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let spare_cores = if self.files.any_remote() {
            usize::MAX
        } else {
            cores.saturating_sub(1).max(1)
        };
        self.reading_threads
            .unwrap_or(spare_cores)
            .min(self.ahead_windows)
    }

    /// With read-ahead, starts reading windows after those being read until `windows` are:
    /// this epoch's, then, when epochs follow each other, the next one's first ones.
    fn top_up(&mut self, windows: usize) {
        if self.readers.is_none()
            && let Some(start) = self.start.take()
        {
            let threads = self.threads_to_read();
            self.readers = (threads > 0).then(|| start(threads)).flatten();
        }
        let Some(readers) = &self.readers else {
            return;
        };
        while self.ahead.len() < windows {
            let (mut epoch, mut at) = self
                .ahead
                .back()
                .map_or((self.epoch, self.next), |a| (a.epoch, a.window.after));
            let mut window = None;
            if epoch == self.epoch {
                window = self.window_at(at);
                if window.is_none() {
                    // This epoch's windows are all read or being read: the next one's first,
                    // when epochs follow each other.
                    if !self.follows || self.rest.is_some() {
                        return;
                    }
                    let Some(next) = self.epoch.checked_add(1) else {
                        return;
                    };
                    (epoch, at) = (next, Cursor { round: 0, group: 0 });
                }
            }
            let own = if epoch == self.epoch {
                &self.own
            } else {
                if self.following.as_ref().is_none_or(|f| f.0 != epoch) {
                    let (own, rounds) = self.groups_of(epoch);
                    self.following = Some((epoch, own, rounds));
                }
                let Some((_, own, rounds)) = &self.following else {
                    return;
                };
                window = window_in(own, *rounds, self.window, at);
                own
            };
            let Some(window) = window else {
                return;
            };
            let groups = &own[window.groups.clone()];
            let rows = groups.iter().map(|g| g.rows).sum();
            let files = self.files.select_row_groups(groups);
            self.ahead.push_back(Ahead {
                pending: readers.read(files),
                window,
                epoch,
                rows,
            });
        }
    }

    /// Moves the rows of the window not served yet into the span, after the rows already
    /// carried (they are fewer than a batch).
    fn carry(&mut self) {
        let (left, batch) = (self.buffered - self.cursor, self.batch_size);
        let Some(buffer) = &self.buffer else {
            return;
        };
        if left == 0 {
            return;
        }
        let (span, _) = self
            .span
            .get_or_insert_with(|| (R::nest(FlatOf::<R>::alloc(batch, 0)), (0..batch).collect()));
        R::gather_same(
            span,
            buffer,
            &self.order[self.cursor..self.buffered],
            self.carried,
        );
        self.span_globals.resize(batch, 0);
        for (k, &r) in self.order[self.cursor..self.buffered].iter().enumerate() {
            self.span_globals[self.carried + k] = self.globals.get(r).copied().unwrap_or(0);
        }
        self.carried += left;
        self.cursor = self.buffered;
    }

    /// The record and the rows of the next batch of `n` rows (counted as served), with the
    /// global index of each row of that record: the window's own rows, or the span completed
    /// from the window when rows were carried.
    fn take(&mut self, n: usize) -> Option<(&R, &[usize], &[u64])> {
        self.remaining -= n;
        self.batches = self.batches.saturating_add(1);
        self.served = self.served.saturating_add(n as u64);
        if self.carried == 0 {
            let rows = &self.order[self.cursor..self.cursor + n];
            self.cursor += n;
            return Some((self.buffer.as_ref()?, rows, &self.globals));
        }
        let from_window = n.saturating_sub(self.carried);
        let (span, identity) = self.span.as_mut()?;
        if from_window > 0 {
            let buffer = self.buffer.as_ref()?;
            let rows = &self.order[self.cursor..self.cursor + from_window];
            R::gather_same(span, buffer, rows, self.carried);
            self.span_globals.resize(self.batch_size, 0);
            for (k, &r) in rows.iter().enumerate() {
                self.span_globals[self.carried + k] = self.globals.get(r).copied().unwrap_or(0);
            }
        }
        self.cursor += from_window;
        self.carried = 0;
        Some((span, &identity[..n], &self.span_globals))
    }

    /// The window served (its rows served or carried into the span) gives its memory back,
    /// before the next window is read, for that read or one beside it.
    fn give_back_served(&mut self) {
        if let Some(old) = self.buffer.take() {
            self.recycle(old);
        }
    }

    /// Gives the memory of a served window back, for the next ones to be read into.
    fn recycle(&self, served: R) {
        if let Ok(mut spare) = self.spare.lock() {
            (self.give_back)(served, &mut spare);
        }
    }

    /// Makes sure the buffer holds the next batch's rows (or all that are left); the batch's
    /// size, `None` at the end of the epoch.
    fn ready(&mut self) -> Option<Result<usize, LoadError>> {
        if self.remaining == 0 {
            return None;
        }
        let want = self.batch_size.min(self.remaining);
        if want < self.batch_size && self.drop_last {
            self.remaining = 0;
            return None;
        }
        while self.carried + self.buffered - self.cursor < want && self.more_to_read() {
            self.carry();
            if let Err(e) = self.refill() {
                self.remaining = 0;
                return Some(Err(e));
            }
        }
        let n = want.min(self.carried + self.buffered - self.cursor);
        if n == 0 || self.buffer.is_none() {
            self.remaining = 0;
            return None;
        }
        Some(Ok(n))
    }

    /// The next batch of the epoch, `None` at its end.
    pub fn next_batch(&mut self) -> Option<Result<R, LoadError>> {
        self.next_counted().map(|r| r.map(|(batch, _)| batch))
    }

    /// The next batch of the epoch and its number of rows, `None` at its end.
    fn next_counted(&mut self) -> Option<Result<(R, usize), LoadError>> {
        let n = match self.ready()? {
            Ok(n) => n,
            Err(e) => return Some(Err(e)),
        };
        let mut out = R::nest(FlatOf::<R>::alloc(n, 0));
        let (from, rows, _) = self.take(n)?;
        R::gather_same(&mut out, from, rows, 0);
        Some(Ok((out, n)))
    }

    /// Writes the next batch, converted, into `out` (which holds at least `batch_size` rows; the
    /// rows past the batch are zeroed); the number of rows of the batch, `None` at the end.
    ///
    /// # Errors
    /// The reader's errors, or [`LoadError::Shard`] when `out` holds fewer rows than the batch.
    pub fn fill_next<Q: GatherFrom<R> + DataSpec>(
        &mut self,
        out: &mut Q,
    ) -> Option<Result<usize, LoadError>> {
        // The rows of `out`: a batch fills the first ones, the rest are zeroed.
        let capacity = match out.validate() {
            Ok(c) => c,
            Err(e) => return Some(Err(LoadError::Data(e.into()))),
        };
        let n = match self.ready()? {
            Ok(n) => n,
            Err(e) => return Some(Err(e)),
        };
        if capacity < n {
            return Some(Err(LoadError::Shard {
                reason: format!(
                    "the output batch holds {capacity} rows; a batch of this stream has {n}"
                ),
            }));
        }
        // Straight from the window into the request: one copy, converted, per row (two for the
        // rows of a batch that spans windows).
        // Augmentations draw by each row's file and place in it: the same on any rank.
        let (seed, epoch) = (self.seed.unwrap_or(0), self.epoch);
        let (from, rows, globals) = self.take(n)?;
        let draws = crate::augment::Draws {
            seed,
            epoch,
            first: 0,
            globals: Some(globals),
        };
        if let Err(e) = Q::gather_from(out, from, rows, n..capacity, draws) {
            return Some(Err(LoadError::Data(e)));
        }
        Some(Ok(n))
    }
}

/// The stream as a [`BatchSource`] of its records, beside providers and in-memory streams: each
/// batch is the one [`next_batch`](ParquetStream::next_batch) gives (allocated for it, its rows
/// all real samples: `pad` is 0), lent until the next call. A reader's error arrives as
/// [`DataError::Read`], holding the [`LoadError`], and ends the epoch.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::BatchSource;
/// use batchspec::load::{ParquetFiles, ParquetStream, Rank, ShardPlan};
///
/// #[derive(DataSpec)]
/// struct Ids {
///     #[spec(source = "id")]
///     id: Batch<Index<100>>,
/// }
///
/// /// The samples of any source of batches.
/// fn samples<B: BatchSource<Ids>>(batches: &mut B) -> Result<usize, batchspec::Error> {
///     let mut n = 0;
///     while let Some(b) = batches.next_batch() {
///         let (batch, info) = b?;
///         assert_eq!(batch.id.len(), info.count_samples);
///         n += info.count_samples;
///     }
///     Ok(n)
/// }
/// let files = ParquetFiles::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/parquet/uneven.parquet"))?;
/// let plan = ShardPlan::new(&files, Rank::new(0, 1)?)?;
/// assert_eq!(samples(&mut ParquetStream::<Ids>::new(&files, &plan, 0, 10, 2))?, 33);
/// # Ok::<(), batchspec::Error>(())
/// ```
#[diagnostic::do_not_recommend]
impl<R> BatchSource<R> for ParquetStream<R>
where
    R: LoadRecord + GatherSame,
    FlatOf<R>: AllocFlat,
{
    type Lent<'a>
        = &'a R
    where
        Self: 'a;

    fn next_batch(&mut self) -> Option<Result<(&R, BatchInfo), DataError>> {
        match self.next_counted()? {
            Ok((batch, n)) => Some(Ok((
                self.lent.insert(batch),
                BatchInfo {
                    count_samples: n,
                    pad: 0,
                },
            ))),
            Err(e) => Some(Err(DataError::Read(SourceError::new(e)))),
        }
    }

    fn next_owned(&mut self) -> Option<Result<(R, BatchInfo), DataError>> {
        Some(match self.next_counted()? {
            Ok((batch, n)) => Ok((
                batch,
                BatchInfo {
                    count_samples: n,
                    pad: 0,
                },
            )),
            Err(e) => Err(DataError::Read(SourceError::new(e))),
        })
    }

    fn start_epoch(&mut self, epoch: u64) {
        ParquetStream::start_epoch(self, epoch);
    }

    fn state(&self) -> SourceState {
        ParquetStream::state(self)
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        ParquetStream::resume(self, state)
    }

    fn samples_per_epoch(&self) -> Option<usize> {
        Some(self.plan.samples(self.epoch))
    }
}
