//! [`TextStream`]: documents read block by block, tokenized on worker threads, packed window by
//! window into rows of `T` tokens, served as batches of [`Packed`] (or of any request of it).

use crate::docs::{Block, Documents, Texts};
use crate::error::TextError;
use crate::pack::{Long, Packing, pack};
use crate::record::{Packed, PackedRow, fill};
use crate::tokenize::Tokenizer;
use batchspec::data::{AllocFlat, GatherFrom};
use batchspec::data::{
    BatchInfo, BatchSource, DataError, IntoRequest, SourceError, SourceState, fingerprint,
};
use batchspec::types::{DataSpec, FlatOf};
use std::collections::VecDeque;
use std::sync::Arc;

/// Where a window of the epoch starts: the row, counted over this rank's blocks of the epoch
/// in order, of its first document.
type Row = u64;

/// A stream of packed batches from a source of documents: each epoch this rank's blocks are read
/// in order; the documents are tokenized on `workers` threads (each document by one thread, the
/// results in order: the same ids at any number of workers) and packed, a window at a time (the
/// documents that fill [`window`](TextStream::window) rows), by the [`Packing`] policy into rows
/// of exactly `T` tokens, served `batch` rows at a time (the epoch's
/// last batch may be short). Nothing of one document is ever in a segment of another: segments,
/// positions, targets, the loss mask, the attention and the cumulative lengths all restart at
/// each document (see [`Packed`]).
///
/// Deterministic (a function of the data, the tokenizer, the options, the seed of the blocks'
/// order and the epoch) and resumable: [`BatchSource::state`] holds the start of the window
/// being served and how many of its rows were served, so [`BatchSource::resume`] reads and
/// tokenizes from that window only, not the epoch again. A state resumes with the same number
/// of ranks only (no elastic resume: a rank's windows depend on the blocks it was dealt).
///
/// ```no_run
/// use batchspec::load::{ParquetFiles, Rank, ShardPlan};
/// use batchspec::prelude::*;
/// use batchspec_text::{Packing, TextColumn, TextStream, Tokenizer};
///
/// #[derive(DataSpec)]
/// struct LmBatch {
///     #[spec(source = "tokens")]
///     x: Batch<IndexSeq<1024>>,
///     #[spec(source = "targets")]
///     y: Batch<IndexSeq<1024>>,
///     #[spec(source = "loss_mask")]
///     keep: Batch<Mask>,
///     #[spec(source = "positions")]
///     pos: Batch<Positions>,
/// }
///
/// let files = ParquetFiles::open("corpus/train.parquet")?;
/// let plan = ShardPlan::new(&files, Rank::from_env()?)?.shuffle(7);
/// let tokenizer = Tokenizer::<1024>::from_file("tokenizer.json")?.eos("<eos>")?.pad("<pad>")?;
/// let mut batches = TextStream::new(TextColumn::new(&files, &plan, "text"), tokenizer, 128, 8)?
///     .packing(Packing::BestFit)
///     .workers(2)
///     .request::<LmBatch>();
/// while let Some(batch) = batches.next_batch() {
///     let (b, info) = batch?;
///     // b.x: (8, 128) token ids; b.y the next tokens; b.keep where they count.
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TextStream<D, const V: usize> {
    docs: Arc<D>,
    // What a state says of the documents and the tokenizer, computed once (a prefetched source
    // takes its state after every batch).
    docs_plan: String,
    data: u64,
    tokenizer: Arc<Tokenizer<V>>,
    // One tokenizer per worker.
    clones: Vec<Tokenizer<V>>,
    t: usize,
    batch: usize,
    policy: Packing,
    long: Long,
    // A window holds documents until their tokens fill `window` rows.
    window: usize,
    workers: usize,
    attention: bool,
    // The epoch and this rank's blocks in it, with the rows before each.
    epoch: u64,
    blocks: Vec<Block>,
    before: Vec<Row>,
    // The block being read (its index, documents, next document) and the next block.
    current: Option<(usize, Arc<Texts>, usize)>,
    next_block: usize,
    // Documents tokenized and not yet packed: ids, row in the epoch, block, row in the file.
    queue: VecDeque<(Vec<u32>, Row, usize, u64)>,
    queued: usize,
    // Packed rows not yet served, each with the start of its window and its index in it.
    pending: VecDeque<(PackedRow, Row, u64)>,
    // The start of the next window (the row of the next document to be read).
    cursor: Row,
    batches: u64,
    rows: u64,
    lent: Option<Packed<V>>,
    failed: bool,
}

impl<D: Documents + 'static, const V: usize> TextStream<D, V> {
    /// A stream of the documents of `docs`, tokenized by `tokenizer`, packed into rows of `t`
    /// tokens, `batch` rows a batch; greedy packing over windows of 128 rows, one worker, epoch
    /// 0.
    ///
    /// # Errors
    /// [`TextError::Config`] for rows of 0 tokens or batches of 0 rows.
    pub fn new(
        docs: D,
        tokenizer: Tokenizer<V>,
        t: usize,
        batch: usize,
    ) -> Result<Self, TextError> {
        if t == 0 || batch == 0 {
            return Err(TextError::Config(format!(
                "rows of {t} tokens in batches of {batch} rows: both are at least 1"
            )));
        }
        let data = fingerprint(&[
            &docs.fingerprint().to_le_bytes(),
            &tokenizer.fingerprint().to_le_bytes(),
        ]);
        let mut stream = TextStream {
            docs_plan: docs.plan(),
            data,
            docs: Arc::new(docs),
            tokenizer: Arc::new(tokenizer),
            clones: Vec::new(),
            t,
            batch,
            policy: Packing::Greedy,
            long: Long::Split,
            window: 128,
            workers: 1,
            attention: false,
            epoch: 0,
            blocks: Vec::new(),
            before: Vec::new(),
            current: None,
            next_block: 0,
            queue: VecDeque::new(),
            queued: 0,
            pending: VecDeque::new(),
            cursor: 0,
            batches: 0,
            rows: 0,
            lent: None,
            failed: false,
        };
        stream.start(0);
        Ok(stream)
    }

    /// The packing policy ([`Packing::Greedy`] by default).
    pub fn packing(mut self, policy: Packing) -> Self {
        self.policy = policy;
        self
    }

    /// What a document longer than a row does ([`Long::Split`] by default).
    pub fn long(mut self, long: Long) -> Self {
        self.long = long;
        self
    }

    /// Packs documents a window at a time, a window holding the documents (in order) until
    /// their tokens fill `rows` rows (128 by default; at least 1): the policy places the
    /// documents of a window together, and the window's last row is padded when not full, so
    /// that at most about one row in `rows` is padding.
    pub fn window(mut self, rows: usize) -> Self {
        self.window = rows.max(1);
        self
    }

    /// Tokenizes on `n` threads (at least 1).
    pub fn workers(mut self, n: usize) -> Self {
        self.workers = n.max(1);
        self
    }

    /// Computes the `"attention"` leaf (`batch × T × T`); [`TextStream::request`] turns it on
    /// for a request that asks for it.
    pub fn attention(mut self, on: bool) -> Self {
        self.attention = on;
        self
    }

    /// Batches of the request `Q`, any `DataSpec` struct whose fields read sources of
    /// [`Packed`]; checked at compile time. The attention is computed when `Q` asks for it.
    pub fn request<Q>(mut self) -> IntoRequest<Self, Packed<V>, Q>
    where
        Q: DataSpec + GatherFrom<Packed<V>>,
        FlatOf<Q>: AllocFlat,
    {
        if Q::describe(1).iter().any(|d| d.source == "attention") {
            self.attention = true;
        }
        self.into_request::<Q>()
    }

    /// The row length `T`.
    pub fn row_tokens(&self) -> usize {
        self.t
    }

    fn start(&mut self, epoch: u64) {
        self.epoch = epoch;
        self.blocks = self.docs.blocks(epoch);
        self.before = Vec::with_capacity(self.blocks.len() + 1);
        let mut at = 0u64;
        for b in &self.blocks {
            self.before.push(at);
            at += b.rows as u64;
        }
        self.before.push(at);
        self.current = None;
        self.next_block = 0;
        self.queue.clear();
        self.queued = 0;
        self.pending.clear();
        self.cursor = 0;
        self.batches = 0;
        self.rows = 0;
        self.failed = false;
    }

    /// Moves the reader to the first document at or after `row` of the epoch.
    fn seek(&mut self, row: Row) -> Result<(), TextError> {
        let k = self.before.partition_point(|&b| b <= row).saturating_sub(1);
        self.current = None;
        self.next_block = k;
        self.cursor = row;
        self.queue.clear();
        self.queued = 0;
        if k >= self.blocks.len() {
            return Ok(());
        }
        let texts = Arc::new(self.docs.read(&self.blocks[k])?);
        let first = self.blocks[k].first_row;
        let within = row - self.before[k];
        let d = (0..texts.len())
            .find(|&i| texts.row(i).is_some_and(|r| r - first >= within))
            .unwrap_or(texts.len());
        self.current = Some((k, texts, d));
        self.next_block = k + 1;
        Ok(())
    }

    /// The next `n` documents (fewer at the epoch's end), each with its row in the epoch, its
    /// block and its row in the block's file, advancing the reader.
    #[allow(clippy::type_complexity)]
    fn next_documents(
        &mut self,
        n: usize,
    ) -> Result<Vec<(Arc<Texts>, usize, usize, Row)>, TextError> {
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            if let Some((k, texts, d)) = &mut self.current
                && *d < texts.len()
            {
                let first = self.blocks[*k].first_row;
                let row = self.before[*k] + (texts.row(*d).unwrap_or(first) - first);
                out.push((Arc::clone(texts), *d, *k, row));
                *d += 1;
                self.cursor = match texts.row(*d) {
                    Some(r) => self.before[*k] + (r - first),
                    None => self.before[*k + 1],
                };
                continue;
            }
            if self.next_block >= self.blocks.len() {
                self.current = None;
                self.cursor = *self.before.last().unwrap_or(&0);
                break;
            }
            let k = self.next_block;
            let texts = Arc::new(self.docs.read(&self.blocks[k])?);
            self.next_block += 1;
            self.cursor = self.before[k];
            self.current = Some((k, texts, 0));
        }
        Ok(out)
    }

    /// Reads, tokenizes and packs the next window into `pending`; `false` at the epoch's end.
    fn fill_window(&mut self) -> Result<bool, TextError> {
        let target = self.window.saturating_mul(self.t);
        // Documents are read and tokenized a chunk at a time; those past the window wait in
        // the queue for the next one.
        let chunk = 256 * self.workers;
        while self.queued < target {
            let docs = self.next_documents(chunk)?;
            if docs.is_empty() {
                break;
            }
            let ids = self.tokenize(&docs)?;
            for ((texts, d, k, row), ids) in docs.into_iter().zip(ids) {
                self.queued += ids.len();
                self.queue
                    .push_back((ids, row, k, texts.row(d).unwrap_or(0)));
            }
        }
        let Some(start) = self.queue.front().map(|q| q.1) else {
            return Ok(false);
        };
        // The window: the documents in order until their tokens fill the window's rows.
        let mut window = Vec::new();
        let mut tokens = 0usize;
        while tokens < target
            && let Some(doc) = self.queue.pop_front()
        {
            tokens += doc.0.len();
            window.push(doc);
        }
        self.queued -= tokens;
        let lengths: Vec<usize> = window.iter().map(|d| d.0.len()).collect();
        let rows = pack(&lengths, self.t, self.policy, self.long).map_err(|e| {
            let (_, _, k, row) = &window[e.doc];
            TextError::TooLong {
                place: format!("{} row {row}", self.docs.file(&self.blocks[*k])),
                len: e.len,
                row: self.t,
            }
        })?;
        for (i, row) in rows.into_iter().enumerate() {
            let mut tokens = Vec::with_capacity(self.t);
            let mut pieces = Vec::with_capacity(row.len());
            for p in row {
                tokens.extend_from_slice(&window[p.doc].0[p.start..p.start + p.len]);
                pieces.push(p.len as u32);
            }
            self.pending
                .push_back((PackedRow { tokens, pieces }, start, i as u64));
        }
        Ok(true)
    }

    /// The ids of the documents, in order: document `i` tokenized by worker `i % workers` (the
    /// first on this thread), each worker with a tokenizer of its own (the model's word cache
    /// is not shared between threads).
    #[allow(clippy::type_complexity)]
    fn tokenize(
        &mut self,
        docs: &[(Arc<Texts>, usize, usize, Row)],
    ) -> Result<Vec<Vec<u32>>, TextError> {
        let workers = self.workers.min(docs.len()).max(1);
        while self.clones.len() < workers {
            self.clones.push((*self.tokenizer).clone());
        }
        // A document's failure carries its index in `docs`, for its place below.
        let encode = |tokenizer: &Tokenizer<V>,
                      w: usize|
         -> Result<Vec<Vec<u32>>, (Option<usize>, TextError)> {
            docs.iter()
                .enumerate()
                .skip(w)
                .step_by(workers)
                .map(|(i, (texts, d, _, _))| {
                    tokenizer
                        .encode(texts.get(*d).unwrap_or_default())
                        .map_err(|e| (Some(i), e))
                })
                .collect()
        };
        let clones = &self.clones;
        let parts: Vec<Result<Vec<Vec<u32>>, (Option<usize>, TextError)>> =
            std::thread::scope(|s| {
                let handles: Vec<_> = (1..workers)
                    .map(|w| s.spawn(move || encode(&clones[w], w)))
                    .collect();
                let mut parts = vec![encode(&clones[0], 0)];
                for h in handles {
                    parts.push(h.join().unwrap_or_else(|panic| {
                        let message = crate::error::panic_message(&*panic);
                        Err((
                            None,
                            TextError::Encode {
                                file: self.tokenizer.file().to_owned(),
                                place: None,
                                message: format!("a tokenizing thread panicked: {message}"),
                            },
                        ))
                    }));
                }
                parts
            });
        let mut parts: Vec<std::vec::IntoIter<Vec<u32>>> = parts
            .into_iter()
            .map(|p| p.map(Vec::into_iter))
            .collect::<Result<_, _>>()
            .map_err(|(i, e)| match (i, e) {
                (Some(i), TextError::Encode { file, message, .. }) => {
                    let (_, _, k, row) = &docs[i];
                    TextError::Encode {
                        file,
                        place: Some(format!("{} row {row}", self.docs.file(&self.blocks[*k]))),
                        message,
                    }
                }
                (_, e) => e,
            })?;
        Ok((0..docs.len())
            .map(|i| parts[i % workers].next().unwrap_or_default())
            .collect())
    }

    /// The next batch of the epoch, or `None` at its end.
    fn step(&mut self) -> Option<Result<(Packed<V>, BatchInfo), DataError>> {
        if self.failed {
            return None;
        }
        while self.pending.len() < self.batch {
            match self.fill_window() {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    self.failed = true;
                    return Some(Err(DataError::Read(SourceError::new(e))));
                }
            }
        }
        if self.pending.is_empty() {
            return None;
        }
        let n = self.batch.min(self.pending.len());
        let rows: Vec<PackedRow> = self.pending.drain(..n).map(|(r, _, _)| r).collect();
        let batch = match fill::<V>(&rows, self.t, self.tokenizer.pad_id(), self.attention) {
            Ok(b) => b,
            Err(e) => {
                self.failed = true;
                return Some(Err(e));
            }
        };
        // Counts a saved state may have set anywhere (a damaged one): they saturate.
        self.batches = self.batches.saturating_add(1);
        self.rows = self.rows.saturating_add(n as u64);
        Some(Ok((
            batch,
            BatchInfo {
                count_samples: n,
                pad: 0,
            },
        )))
    }

    /// The state without its position: what a saved state must agree with.
    fn identity(&self) -> SourceState {
        let (rank, world) = self.docs.rank();
        let plan = format!(
            "{}; rows of {} tokens, {} a batch; {} packing over windows of {} rows, long documents {:?}; tokenizer {} ({} ids, bos {:?}, eos {:?}, pad {})",
            self.docs_plan,
            self.t,
            self.batch,
            self.policy.words(),
            self.window,
            self.long,
            self.tokenizer.file(),
            self.tokenizer.ids(),
            self.tokenizer.bos_id(),
            self.tokenizer.eos_id(),
            self.tokenizer.pad_id()
        );
        SourceState::new("text stream", self.epoch)
            .with_request::<Packed<V>>()
            .with_seed(self.docs.seed())
            .with_rank(rank, world)
            .with_plan(plan)
            .with_data(self.data)
    }
}

impl<D: Documents + 'static, const V: usize> BatchSource<Packed<V>> for TextStream<D, V> {
    type Lent<'a>
        = &'a Packed<V>
    where
        Self: 'a;

    fn next_batch(&mut self) -> Option<Result<(&Packed<V>, BatchInfo), DataError>> {
        match self.step()? {
            Ok((batch, info)) => Some(Ok((&*self.lent.insert(batch), info))),
            Err(e) => Some(Err(e)),
        }
    }

    fn next_owned(&mut self) -> Option<Result<(Packed<V>, BatchInfo), DataError>> {
        self.step()
    }

    fn start_epoch(&mut self, epoch: u64) {
        self.start(epoch);
    }

    /// The epoch, the batches and rows served in it, and (as the state's inner position) the
    /// row where the window of the next row starts and how many of that window's rows were
    /// served.
    fn state(&self) -> SourceState {
        let (window, served) = match (self.pending.front(), self.queue.front()) {
            (Some((_, start, i)), _) => (*start, *i),
            (None, Some(doc)) => (doc.1, 0),
            (None, None) => (self.cursor, 0),
        };
        self.identity().at(self.batches, self.rows).with_inner(vec![
            SourceState::new("text position", self.epoch).at(window, served),
        ])
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        state.check_against(&self.identity(), false)?;
        if state.batches() > state.samples() {
            return Err(DataError::Resume(format!(
                "the saved state counts {} batches served but {} rows, and a batch holds a row or more",
                state.batches(),
                state.samples()
            )));
        }
        let Some(position) = state.inner().first() else {
            return Err(DataError::Resume(
                "the state of a text stream holds its position as an inner state, and this one has none".to_owned(),
            ));
        };
        self.start(state.epoch());
        let read = |e: TextError| DataError::Read(SourceError::new(e));
        self.seek(position.batches()).map_err(read)?;
        if self.fill_window().map_err(read)? {
            let skip = usize::try_from(position.samples()).unwrap_or(usize::MAX);
            if skip > self.pending.len() {
                return Err(DataError::Resume(format!(
                    "the saved state had served {skip} rows of its window, which packs into {} here",
                    self.pending.len()
                )));
            }
            self.pending.drain(..skip);
        }
        self.batches = state.batches();
        self.rows = state.samples();
        Ok(())
    }
}
