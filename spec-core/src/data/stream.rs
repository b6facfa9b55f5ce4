//! Streams without a length: the iteration-only datasets of the Pylearn dataset proposal. Samples
//! come from any iterator (a generator, a reader of files too large to hold), pass through a
//! seeded shuffle buffer (tf.data's `shuffle(buffer_size)`), and are served in batches of a
//! request with the same gathers, conversions and collate policies as a
//! [`Provider`]; shards, the last batch's policy and
//! [`Prefetch`] apply as well.

use crate::augment::Draws;
use crate::data::batch_source::{BatchInfo, BatchSource};
use crate::data::dataset::{AllocFlat, gather_owned};
use crate::data::error::DataError;
use crate::data::gather::{GatherFrom, GatherSame};
use crate::data::prefetch::{Prefetch, feed_epochs};
use crate::data::state::SourceState;
use crate::iteration::{LastBatch, below, epoch_rng};
use crate::types::spec::{DataSpec, FlatOf, Node};
use rand::rngs::Xoshiro256PlusPlus;

type Source<R> = Box<dyn Iterator<Item = Result<R, DataError>> + Send>;
type Factory<R> = Box<dyn FnMut(u64) -> Source<R> + Send>;

/// Batches of the request `Q` from samples of the record `R` that come from an iterator, with no
/// length known in advance.
///
/// Each item of the iterator is a record of one or more samples (a chunk); a chunk with no
/// samples, or whose leaves disagree, is an error naming its position in the stream. Samples
/// pass through a shuffle buffer of `buffer` samples: each one served is drawn at random from the
/// buffer and its place taken by the next sample from the source (tf.data's `shuffle`; a buffer
/// of 1 keeps the source's order). Every draw is a function of `(seed, epoch)`, so a stream
/// served twice from the same source serves the same batches. A ragged leaf is padded to the
/// longest sample of each batch, as a provider pads it; a fixed-length sequence leaf whose
/// samples come with different lengths is padded to the longest seen so far (use `Ragged`).
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::Stream;
///
/// #[derive(DataSpec)]
/// struct Sentence {
///     #[spec(source = "tokens")]
///     tokens: Ragged<IndexSeq<100>>,
/// }
/// #[derive(DataSpec)]
/// struct Padded {
///     #[spec(source = "tokens")]
///     tokens: Batch<IndexSeq<100>>,
///     #[spec(lengths_of = "tokens")]
///     len: Batch<Lengths>,
/// }
/// // A generator: sentence `i` has `i % 5 + 1` tokens. Each epoch starts it again.
/// let mut stream = Stream::<Sentence, Padded>::new(
///     |_epoch| (0..10i64).map(|i| Sentence {
///         tokens: Ragged::from_flat_samples([vec![i; (i % 5 + 1) as usize]]).unwrap(),
///     }),
///     4,
/// )
/// .shuffle(8, 7);
/// let mut served = 0;
/// while let Some(b) = stream.next_batch() {
///     let (batch, info) = b?;
///     served += info.count_samples;
///     assert_eq!(batch.tokens.shape()[1] as i64, *batch.len.array().iter().max().unwrap());
/// }
/// assert_eq!(served, 10);
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct Stream<R, Q> {
    make: Factory<R>,
    source: Option<Source<R>>,
    batch_size: usize,
    last_batch: LastBatch,
    buffer_size: usize,
    seed: u64,
    epoch: u64,
    rng: Xoshiro256PlusPlus,
    // Sharding: this rank keeps the samples whose position in the source is `rank` mod `ranks`.
    rank: usize,
    ranks: usize,
    // The samples waiting to be drawn, one per record.
    buffer: Vec<R>,
    // The chunk being split into samples, and the next of its rows.
    chunk: Option<(R, usize, usize)>,
    // Samples seen from the source this epoch (before sharding), chunks read.
    position: u64,
    chunks: u64,
    // Samples served in batches this epoch: the global index of a sample for the draws of
    // augmentations is its place in the epoch's stream. Batches served this epoch.
    served: u64,
    batches: u64,
    // The samples of the batch being made, then its rows.
    staging: Option<R>,
    rows: Vec<usize>,
    out: Option<Q>,
    short: Option<(usize, Q)>,
    done: bool,
}

/// A record `Self` whose samples a [`Stream`] takes one by one: batch fields that own their data
/// (so that samples gather into a batch of the record), `Send + 'static`. With
/// [`ProvidedBy`](crate::data::ProvidedBy) on the request, the bounds generic code names to build
/// a stream, serve its batches, owned batches and epochs, and use it as a [`BatchSource`]
/// (prefetching adds `Send + 'static` on the request, as for a provider); code generic over the
/// request alone, with samples of a concrete record, needs `Q: ProvidedBy<R>` only.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::{Stream, StreamRecord};
///
/// /// The samples of an epoch of any request, in batches of 3.
/// fn served<R: StreamRecord, Q: ProvidedBy<R>>(samples: Vec<R>) -> Result<usize, batchspec::Error> {
///     let mut stream = Stream::<R, Q>::once(samples, 3).shuffle(4, 7);
///     let mut seen = 0;
///     while let Some(b) = stream.next_batch() {
///         seen += b?.1.count_samples;
///     }
///     Ok(seen)
/// }
///
/// #[derive(DataSpec)]
/// struct Sample {
///     #[spec(source = "features")]
///     x: Batch<Vector<2>>,
/// }
/// #[derive(DataSpec)]
/// struct Input {
///     #[spec(source = "features")]
///     x: Batch<Vector<2, f64>>,
/// }
/// let samples = (0..7).map(|_| Sample { x: Batch::zeros(1, 0) }).collect();
/// assert_eq!(served::<Sample, Input>(samples)?, 7);
/// # Ok::<(), batchspec::Error>(())
/// ```
///
/// Its bounds are supertraits (the owned leaves an associated type bound among them), which every
/// use of the bound implies. A bound on the request cannot carry them: Rust implies the bounds a
/// trait puts on `Self`, not on another parameter. Implemented for every record that meets them.
pub trait StreamRecord: DataSpec + GatherSame + Send + 'static + Node<(), Flat: AllocFlat> {}

impl<R> StreamRecord for R
where
    R: DataSpec + GatherSame + Send + 'static,
    FlatOf<R>: AllocFlat,
{
}

// The constructors carry the pair's bound themselves, so that a request the samples cannot
// serve is reported at the call in the words of its reason (an E0277 at `Stream::once`), not as
// "the function exists but its trait bounds were not satisfied".
impl<R, Q> Stream<R, Q>
where
    R: DataSpec + GatherSame + Send + 'static,
    Q: DataSpec,
    FlatOf<R>: AllocFlat,
    FlatOf<Q>: AllocFlat,
{
    /// A stream of batches of `batch_size` samples (at least 1) from the samples `make(epoch)`
    /// gives, in order (see [`Stream::shuffle`]), the last batch short.
    pub fn new<I, F>(mut make: F, batch_size: usize) -> Self
    where
        F: FnMut(u64) -> I + Send + 'static,
        I: IntoIterator<Item = R>,
        I::IntoIter: Send + 'static,
        Q: GatherFrom<R>,
    {
        Self::from_factory(
            Box::new(move |e| Box::new(make(e).into_iter().map(Ok)) as Source<R>),
            batch_size,
        )
    }

    /// A stream from a source that can fail (a reader of files): an error is served in its
    /// place in the stream, and the stream goes on after it.
    pub fn fallible<I, F, E>(mut make: F, batch_size: usize) -> Self
    where
        F: FnMut(u64) -> I + Send + 'static,
        I: IntoIterator<Item = Result<R, E>>,
        I::IntoIter: Send + 'static,
        E: std::error::Error + Send + Sync + 'static,
        Q: GatherFrom<R>,
    {
        Self::from_factory(
            Box::new(move |e| {
                Box::new(make(e).into_iter().map(|r| {
                    r.map_err(|e| DataError::Read(crate::data::error::SourceError::new(e)))
                })) as Source<R>
            }),
            batch_size,
        )
    }

    /// A stream of one epoch from `samples` (a second epoch is empty).
    pub fn once<I>(samples: I, batch_size: usize) -> Self
    where
        I: IntoIterator<Item = R>,
        I::IntoIter: Send + 'static,
        Q: GatherFrom<R>,
    {
        let mut once = Some(samples.into_iter());
        Self::from_factory(
            Box::new(move |_| match once.take() {
                Some(it) => Box::new(it.map(Ok)) as Source<R>,
                None => Box::new(core::iter::empty()),
            }),
            batch_size,
        )
    }

    fn from_factory(make: Factory<R>, batch_size: usize) -> Self {
        let batch_size = batch_size.max(1);
        Stream {
            make,
            source: None,
            batch_size,
            last_batch: LastBatch::Short,
            buffer_size: 1,
            seed: 0,
            epoch: 0,
            rng: epoch_rng(0, 0, 0),
            rank: 0,
            ranks: 1,
            buffer: Vec::new(),
            chunk: None,
            position: 0,
            chunks: 0,
            served: 0,
            batches: 0,
            staging: None,
            rows: (0..batch_size).collect(),
            out: None,
            short: None,
            done: false,
        }
    }
}

impl<R, Q> Stream<R, Q>
where
    R: DataSpec + GatherSame + Send + 'static,
    Q: DataSpec + GatherFrom<R>,
    FlatOf<R>: AllocFlat,
    FlatOf<Q>: AllocFlat,
{
    /// Shuffles through a buffer of `buffer` samples, with the draws of `seed` (a buffer of 0
    /// or 1 keeps the order).
    pub fn shuffle(mut self, buffer: usize, seed: u64) -> Self {
        self.buffer_size = buffer.max(1);
        self.seed = seed;
        self.start_epoch(self.epoch);
        self
    }

    /// Keeps the samples of this rank: those at positions `rank`, `rank + ranks`, .. of the
    /// source (before the shuffle). A source that gives each rank its own samples needs no
    /// sharding: `make` can build the rank's own iterator instead.
    ///
    /// # Errors
    /// [`DataError::Iteration`] for no rank or a rank not below `ranks`.
    pub fn shard(mut self, rank: usize, ranks: usize) -> Result<Self, DataError> {
        if ranks == 0 {
            return Err(crate::iteration::IterationError::ZeroParts.into());
        }
        if rank >= ranks {
            return Err(crate::iteration::IterationError::PartOutOfRange {
                part_index: rank,
                num_parts: ranks,
            }
            .into());
        }
        self.rank = rank;
        self.ranks = ranks;
        Ok(self)
    }

    /// What happens to the last, incomplete batch: [`LastBatch::Short`] (the default),
    /// [`LastBatch::Drop`], or [`LastBatch::Pad`] (full size, the rows after the samples zeroed
    /// and counted as padding).
    ///
    /// # Errors
    /// [`DataError::Iteration`] for [`LastBatch::RollOver`], which needs the number of samples
    /// a stream does not know.
    pub fn last_batch(mut self, last_batch: LastBatch) -> Result<Self, DataError> {
        if last_batch == LastBatch::RollOver {
            return Err(crate::iteration::IterationError::Incompatible {
                order: crate::iteration::Order::Sequential,
                last_batch,
            }
            .into());
        }
        self.last_batch = last_batch;
        Ok(self)
    }

    /// The batch size.
    pub fn batch_size(&self) -> usize {
        self.batch_size
    }

    /// Starts epoch `epoch`: the source is made again by `make(epoch)`, and the shuffle draws
    /// are those of `(seed, epoch)`.
    pub fn start_epoch(&mut self, epoch: u64) {
        self.epoch = epoch;
        self.rng = epoch_rng(self.seed, epoch, 0);
        self.source = None;
        self.buffer.clear();
        self.chunk = None;
        self.position = 0;
        self.chunks = 0;
        self.served = 0;
        self.batches = 0;
        self.done = false;
    }

    /// Where the stream stands: the epoch, the batches and samples served in it, the seed, the
    /// rank and the plan (batch size, shuffle buffer, last batch).
    pub fn state(&self) -> SourceState {
        SourceState::new("stream", self.epoch)
            .with_request::<Q>()
            .with_seed(Some(self.seed))
            .with_rank(self.rank, self.ranks)
            .with_plan(format!(
                "batch {}, shuffle buffer {}, last batch {:?}",
                self.batch_size, self.buffer_size, self.last_batch
            ))
            .at(self.batches, self.served)
    }

    /// Continues from `state`: the epoch's source is made again and the samples of the batches
    /// served before the state are read and drawn again, not gathered (a stream has no random
    /// access: resuming costs a read of what was served). The source must give the same samples
    /// for the same epoch, as a file or a seeded generator does. Errors of the source met again
    /// were served before the state, in their place: they are passed over as the run did.
    ///
    /// # Errors
    /// [`DataError::StateMismatch`] for a state of another request, seed, plan or number of
    /// ranks.
    pub fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        state.check_against(&self.state(), false)?;
        self.start_epoch(state.epoch());
        while self.batches < state.batches() {
            match self.stage() {
                None => break,
                Some(Err(_)) => {}
                Some(Ok(n)) => {
                    self.served = self.served.saturating_add(n as u64);
                    self.batches = self.batches.saturating_add(1);
                }
            }
        }
        Ok(())
    }

    /// The next sample of this rank from the source, as a record of one sample.
    fn pull(&mut self) -> Option<Result<R, DataError>> {
        loop {
            if let Some((chunk, row, len)) = &mut self.chunk {
                if *row < *len {
                    let at = *row;
                    *row += 1;
                    let position = self.position;
                    self.position += 1;
                    if position % self.ranks as u64 != self.rank as u64 {
                        continue;
                    }
                    if *len == 1 {
                        return self.chunk.take().map(|(c, _, _)| Ok(c));
                    }
                    let mut one = R::nest(FlatOf::<R>::alloc(1, 0));
                    R::gather_same(&mut one, chunk, &[at], 0);
                    return Some(Ok(one));
                }
                self.chunk = None;
            }
            let source = match &mut self.source {
                Some(s) => s,
                None => self.source.insert((self.make)(self.epoch)),
            };
            let item = source.next()?;
            let index = self.chunks;
            self.chunks += 1;
            match item.and_then(|r| {
                let n = r.validate()?;
                Ok((r, n))
            }) {
                Ok((_, 0)) => return Some(Err(DataError::EmptyChunk { chunk: index })),
                Ok((r, n)) => self.chunk = Some((r, 0, n)),
                Err(e) => {
                    return Some(Err(DataError::InChunk {
                        chunk: index,
                        error: Box::new(e),
                    }));
                }
            }
        }
    }

    /// The next sample drawn from the shuffle buffer; `None` when the source and the buffer are
    /// empty.
    fn draw(&mut self) -> Option<Result<R, DataError>> {
        while !self.done && self.buffer.len() < self.buffer_size {
            match self.pull() {
                Some(Ok(r)) => self.buffer.push(r),
                Some(Err(e)) => return Some(Err(e)),
                None => self.done = true,
            }
        }
        if self.buffer.is_empty() {
            return None;
        }
        let at = below(&mut self.rng, self.buffer.len() as u64) as usize;
        Some(Ok(self.buffer.swap_remove(at)))
    }

    /// Draws the next batch's samples into the staging record: how many, or `None` at the end
    /// of the epoch (or when the last batch is dropped).
    fn stage(&mut self) -> Option<Result<usize, DataError>> {
        let size = self.batch_size;
        let mut filled = 0;
        while filled < size {
            match self.draw() {
                Some(Ok(sample)) => {
                    let staging = self
                        .staging
                        .get_or_insert_with(|| R::nest(FlatOf::<R>::alloc(size, 0)));
                    R::gather_same(staging, &sample, &[0], filled);
                    filled += 1;
                }
                Some(Err(e)) => return Some(Err(e)),
                None => break,
            }
        }
        if filled == 0 || (filled < size && self.last_batch == LastBatch::Drop) {
            return None;
        }
        Some(Ok(filled))
    }

    /// The rows of a batch of `filled` samples: the samples alone for a short last batch, else
    /// the batch size (the rows after the samples are padding).
    fn rows_in_batch(&self, filled: usize) -> usize {
        if filled < self.batch_size && self.last_batch == LastBatch::Short {
            filled
        } else {
            self.batch_size
        }
    }

    /// Counts the next batch of `filled` samples as served: its augmentations' draws.
    fn count(&mut self, filled: usize) -> Draws<'static> {
        let draws = Draws {
            seed: self.seed,
            epoch: self.epoch,
            first: self.served,
            globals: None,
        };
        self.served = self.served.saturating_add(filled as u64);
        self.batches = self.batches.saturating_add(1);
        draws
    }

    /// Lends the next batch; `None` at the end of the epoch.
    ///
    /// # Errors
    /// An error of the source, a chunk with no samples or whose leaves disagree, or a sample that
    /// breaks a collate policy of the request ([`DataError::TimeSteps`]); the stream goes on
    /// after an error with the next sample.
    pub fn next_batch(&mut self) -> Option<Result<(&Q, BatchInfo), DataError>> {
        let size = self.batch_size;
        let filled = match self.stage()? {
            Ok(n) => n,
            Err(e) => return Some(Err(e)),
        };
        let rows = self.rows_in_batch(filled);
        let draws = self.count(filled);
        let out = if rows < size {
            let short = match self.short.take() {
                Some((n, q)) if n == rows => q,
                _ => Q::nest(FlatOf::<Q>::alloc(rows, 0)),
            };
            &mut self.short.insert((rows, short)).1
        } else {
            self.out
                .get_or_insert_with(|| Q::nest(FlatOf::<Q>::alloc(size, 0)))
        };
        let staging = self.staging.as_ref()?;
        Some(
            Q::gather_from(out, staging, &self.rows[..filled], filled..rows, draws)
                .map(|()| (&*out, info(filled, rows))),
        )
    }

    /// Writes the next batch into `out` (of the batch size: the rows after the batch's samples
    /// are zeroed and counted as padding); `None` at the end of the epoch.
    ///
    /// # Errors
    /// As [`Stream::next_batch`].
    pub fn fill_next(&mut self, out: &mut Q) -> Option<Result<BatchInfo, DataError>> {
        let size = self.batch_size;
        let filled = match self.stage()? {
            Ok(n) => n,
            Err(e) => return Some(Err(e)),
        };
        let draws = self.count(filled);
        let staging = self.staging.as_ref()?;
        Some(
            Q::gather_from(out, staging, &self.rows[..filled], filled..size, draws)
                .map(|()| info(filled, size)),
        )
    }

    /// The next batch in memory of its own, holding exactly its rows (a short last batch is
    /// short; under [`LastBatch::Pad`] the rows after the samples are zeroed and counted as
    /// padding); `None` at the end of the epoch.
    ///
    /// # Errors
    /// As [`Stream::next_batch`].
    pub fn next_owned(&mut self) -> Option<Result<(Q, BatchInfo), DataError>> {
        let filled = match self.stage()? {
            Ok(n) => n,
            Err(e) => return Some(Err(e)),
        };
        let rows = self.rows_in_batch(filled);
        let draws = self.count(filled);
        // Leaves the gather makes, each value written once where it can (no zero fill first).
        let staging = self.staging.as_ref()?;
        let picked = &self.rows[..filled];
        Some(
            gather_owned(rows, |out: &mut Q| {
                Q::gather_from(out, staging, picked, filled..rows, draws)
            })
            .map(|out| (out, info(filled, rows))),
        )
    }
}

/// A batch of `filled` samples in `rows` rows.
fn info(filled: usize, rows: usize) -> BatchInfo {
    BatchInfo {
        count_samples: filled,
        pad: rows - filled,
    }
}

#[diagnostic::do_not_recommend]
impl<R, Q> BatchSource<Q> for Stream<R, Q>
where
    R: DataSpec + GatherSame + Send + 'static,
    Q: DataSpec + GatherFrom<R>,
    FlatOf<R>: AllocFlat,
    FlatOf<Q>: AllocFlat,
{
    type Lent<'a>
        = &'a Q
    where
        Self: 'a;

    fn next_batch(&mut self) -> Option<Result<(&Q, BatchInfo), DataError>> {
        Stream::next_batch(self)
    }

    fn next_owned(&mut self) -> Option<Result<(Q, BatchInfo), DataError>> {
        Stream::next_owned(self)
    }

    fn start_epoch(&mut self, epoch: u64) {
        Stream::start_epoch(self, epoch);
    }

    fn state(&self) -> SourceState {
        Stream::state(self)
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        Stream::resume(self, state)
    }
}

impl<R, Q> Stream<R, Q>
where
    R: DataSpec + GatherSame + Send + 'static,
    Q: DataSpec + GatherFrom<R> + Send + 'static,
    FlatOf<R>: AllocFlat,
    FlatOf<Q>: AllocFlat,
{
    /// Runs the stream on a background thread, `ahead` batches ahead, for the epochs `epochs`
    /// (each from `make(epoch)`). Batches are full-size buffers: a short last batch has its
    /// rows past its samples zeroed and counted as padding. An error of the source reaches the
    /// consumer and ends the stream.
    pub fn prefetch(mut self, ahead: usize, epochs: core::ops::Range<u64>) -> Prefetch<Q> {
        let size = self.batch_size;
        Prefetch::spawn_with(
            ahead,
            move || Q::nest(FlatOf::<Q>::alloc(size, 0)),
            move |feeder| {
                feed_epochs(
                    &feeder,
                    epochs,
                    &mut self,
                    |s, e| s.start_epoch(e),
                    |s, q| s.fill_next(q),
                );
            },
        )
    }
}
