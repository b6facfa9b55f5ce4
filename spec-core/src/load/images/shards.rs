//! WebDataset shards as a stream: whole shards dealt to the ranks, read one after another
//! (the next one while this one is served), their samples through a shuffle buffer, as
//! `webdataset.WebDataset(urls).shuffle(n)` reads them; for shards too many to index up front,
//! and shards in a bucket.

use crate::augment::Draws;
use crate::augment::draw::below;
use crate::data::batch_source::{BatchInfo, BatchSource};
use crate::data::dataset::LoadRecord;
use crate::data::error::{DataError, SourceError};
use crate::data::state::{SourceState, fingerprint};
use crate::iteration::{Shard, permutation};
use crate::load::error::{LoadError, Place};
use crate::load::images::render::Worker;
use crate::load::images::steps::ImageSteps;
use crate::load::images::stream::Reader;
use crate::load::images::wds::{WebDataset, expand_pattern, member_kind};
use crate::load::images::{EncodedImages, SourceKind, bad, error_at};
use crate::types::spec::Described;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::thread::JoinHandle;

/// Where a shard is.
#[derive(Clone, Debug)]
enum Origin {
    Local(PathBuf),
    #[cfg(feature = "remote")]
    Remote(Arc<crate::load::remote::object::RemoteObject>),
}

impl Origin {
    fn name(&self) -> PathBuf {
        match self {
            Origin::Local(p) => p.clone(),
            #[cfg(feature = "remote")]
            Origin::Remote(o) => PathBuf::from(&o.url),
        }
    }

    /// Reads the shard's member headers (a local file), or fetches it whole, by one request
    /// (a remote object, at most `max_bytes`; `stop` ends the request early), and indexes it in
    /// memory.
    #[cfg_attr(not(feature = "remote"), allow(unused_variables))]
    fn load(&self, max_bytes: u64, stop: Option<&Stop>) -> Result<WebDataset, LoadError> {
        match self {
            Origin::Local(p) => WebDataset::from_paths([p]),
            #[cfg(feature = "remote")]
            Origin::Remote(object) => {
                let bytes = crate::load::images::whole_object(
                    object,
                    max_bytes,
                    "a shard may take in memory (`ShardStream::max_shard_bytes`)",
                    stop,
                )?;
                WebDataset::from_memory(&object.url, bytes)
            }
        }
    }
}

#[cfg(feature = "remote")]
use crate::load::remote::object::Stop;

/// Without remote stores, a read of a local shard's headers, which is not stopped.
#[cfg(not(feature = "remote"))]
#[derive(Debug, Default)]
struct Stop;

#[cfg(not(feature = "remote"))]
impl Stop {
    fn stop(&self) {}
}

/// The read of the shard after the one being served, on a thread of its own. Dropped unused (a
/// new epoch, a resume, the stream dropped), it stops the read (a remote shard's request is
/// dropped, its connection closed) and waits for the thread: no read of a stream goes on after
/// it.
struct Ahead {
    shard: usize,
    thread: Option<JoinHandle<Result<WebDataset, LoadError>>>,
    stop: Arc<Stop>,
}

impl Ahead {
    /// Starts reading `origin` on a thread; `None` if no thread could be started (the shard is
    /// then read when it is needed).
    fn start(shard: usize, origin: Origin, max_bytes: u64) -> Option<Ahead> {
        let stop = Arc::new(Stop::default());
        let stopped = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("batchspec-shard".into())
            .spawn(move || origin.load(max_bytes, Some(&stopped)))
            .ok()?;
        Some(Ahead {
            shard,
            thread: Some(thread),
            stop,
        })
    }

    /// The shard read, once the thread has read it.
    fn join(mut self, name: impl FnOnce() -> PathBuf) -> Result<WebDataset, LoadError> {
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(read)) => read,
            _ => Err(error_at(
                (name(), Place::File),
                "",
                bad("reading the shard panicked"),
            )),
        }
    }
}

impl Drop for Ahead {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.stop.stop();
            // What the thread read is not wanted; a panic in it was not the caller's.
            let _ = thread.join();
        }
    }
}

/// A sample of a loaded shard, and its global index (its shard's place in the list and its
/// place in the shard): what its random choices are drawn by.
#[derive(Clone)]
struct Item {
    shard: Arc<WebDataset>,
    index: usize,
    global: u64,
}

/// A batch's samples as a collection (the stream's `Reader` reads it as it reads any).
struct Picked<'a>(&'a [Item]);

impl EncodedImages for Picked<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn kind(&self, source: &str) -> Option<SourceKind> {
        Some(member_kind(source))
    }
    fn sources(&self) -> Vec<String> {
        vec!["image".into(), "label".into()]
    }
    fn read_image(
        &self,
        index: usize,
        source: &'static str,
        limit: u64,
        out: &mut Vec<u8>,
    ) -> Result<(), LoadError> {
        let item = &self.0[index];
        item.shard.read_image(item.index, source, limit, out)
    }
    fn read_labels(
        &self,
        index: usize,
        source: &'static str,
        out: &mut Vec<f64>,
    ) -> Result<(), LoadError> {
        let item = &self.0[index];
        item.shard.read_labels(item.index, source, out)
    }
    fn place(&self, index: usize) -> (PathBuf, Place) {
        let item = &self.0[index];
        item.shard.place(item.index)
    }
    fn fingerprint(&self) -> u64 {
        0
    }
}

/// Batches of the record `R` from WebDataset shards read as a stream (WebDataset's own way):
/// each epoch the shards are shuffled by `(seed, epoch)` and dealt to the ranks (shard `i` of
/// the epoch's order to rank `i mod world`), so every sample is served once per epoch across
/// the ranks; a rank reads its shards one after another (the next one on another thread while
/// this one is served) and draws its samples from a shuffle buffer of `buffer` samples; each
/// image is decoded and augmented by [`ImageSteps`] on the stream's workers, as an
/// [`ImageStream`](crate::load::images::ImageStream) does.
///
/// Unlike [`WebDataset`] with an `ImageStream` (every shard indexed when opened, samples
/// shuffled globally and dealt one by one), nothing is read before it is needed: for shards too
/// many to index, and for shards in a bucket, each fetched whole by one request (`from_urls`,
/// with a store's feature). Ranks serve their own shards' samples, so their numbers of samples
/// differ when the shards do; the last batch of a rank's epoch is short.
///
/// Its state is the epoch and the samples served; a resume reads the epoch's shards again up to
/// there (without decoding), so it serves exactly what an uninterrupted run would have.
///
/// The next shard is read on a thread while this one is served. A new epoch, a resume or
/// dropping the stream stops that read if it is still going (a shard in a bucket: its request
/// dropped, nothing more downloaded; a local shard: its headers read to the end) and waits for
/// its thread, so no read of the stream outlives it.
pub struct ShardStream<R> {
    shards: Vec<Origin>,
    steps: Arc<ImageSteps>,
    rank: Shard,
    seed: u64,
    shuffle: bool,
    batch: usize,
    buffer: usize,
    max_shard_bytes: u64,
    epoch: u64,
    own: Vec<usize>,
    next: usize,
    ahead: Option<Ahead>,
    incoming: VecDeque<Item>,
    pool_buffer: Vec<Item>,
    yielded: u64,
    batches: u64,
    pool: Vec<Worker>,
    leaves: Vec<Described>,
    lent: Option<R>,
    identity: SourceState,
}

impl<R> ShardStream<R> {
    /// A stream of the local shards that `pattern` names (WebDataset's brace patterns, as
    /// [`WebDataset::open`]), `batch` samples a batch, this rank's part `rank` of the shards,
    /// samples drawn from a shuffle buffer of `buffer` (1: the shards' order), shards shuffled
    /// each epoch by `seed`.
    ///
    /// # Errors
    /// A pattern that is not one; [`LoadError::NoSource`] or [`LoadError::File`] for a record
    /// the steps cannot fill, as for an `ImageStream`.
    pub fn open(
        pattern: &str,
        steps: ImageSteps,
        batch: usize,
        rank: Shard,
    ) -> Result<Self, LoadError>
    where
        R: LoadRecord,
    {
        let paths = expand_pattern(pattern)?;
        let sizes: Vec<u8> = paths
            .iter()
            .flat_map(|p| std::fs::metadata(p).map_or(0, |m| m.len()).to_le_bytes())
            .collect();
        let names = paths.join("\n");
        let data = fingerprint(&[names.as_bytes(), &sizes]);
        let shards = paths
            .into_iter()
            .map(|p| Origin::Local(PathBuf::from(p)))
            .collect();
        Self::with(shards, data, steps, batch, rank)
    }

    /// A stream of the shards at the URLs `pattern` names (`s3://bucket/train/shard-{000..099}.tar`),
    /// each fetched whole by one request (retries, timeouts, version checks and the cache of
    /// `options`), as [`open`](Self::open) reads local ones.
    ///
    /// # Errors
    /// As [`open`](Self::open), and a URL the store cannot open or find.
    #[cfg(feature = "remote")]
    pub fn from_urls(
        pattern: &str,
        options: &crate::load::RemoteOptions,
        steps: ImageSteps,
        batch: usize,
        rank: Shard,
    ) -> Result<Self, LoadError>
    where
        R: LoadRecord,
    {
        let urls = expand_pattern(pattern)?;
        let mut shards = Vec::with_capacity(urls.len());
        let mut hash = Vec::new();
        for url in &urls {
            let object = crate::load::images::remote_object(url, options)?;
            hash.extend_from_slice(url.as_bytes());
            hash.extend_from_slice(&object.size.to_le_bytes());
            shards.push(Origin::Remote(object));
        }
        Self::with(shards, fingerprint(&[&hash]), steps, batch, rank)
    }

    fn with(
        shards: Vec<Origin>,
        data: u64,
        steps: ImageSteps,
        batch: usize,
        rank: Shard,
    ) -> Result<Self, LoadError>
    where
        R: LoadRecord,
    {
        if shards.is_empty() || batch == 0 {
            return Err(error_at(
                (PathBuf::from("shards"), Place::File),
                "",
                bad(format!(
                    "{} shards in batches of {batch}: a stream needs shards and batches of at least one sample",
                    shards.len()
                )),
            ));
        }
        let leaves = R::describe(0);
        // The record checked once, here, as an `ImageStream` checks it.
        let mut check = Reader::new(&Picked(&[]), &steps, &[], 0, Draws::default(), &mut []);
        R::load_record(&mut check, &mut leaves.iter())?;
        let identity = SourceState::new("webdataset shards", 0)
            .with_request::<R>()
            .with_data(fingerprint(&[
                &data.to_le_bytes(),
                format!("{steps:?}").as_bytes(),
            ]))
            .with_rank(rank.part_index(), rank.num_parts());
        let mut this = ShardStream {
            shards,
            steps: Arc::new(steps),
            rank,
            seed: 0,
            shuffle: true,
            batch,
            buffer: 1,
            max_shard_bytes: 4 << 30,
            epoch: 0,
            own: Vec::new(),
            next: 0,
            ahead: None,
            incoming: VecDeque::new(),
            pool_buffer: Vec::new(),
            yielded: 0,
            batches: 0,
            pool: vec![Worker::default()],
            leaves,
            lent: None,
            identity,
        };
        this.start(0);
        Ok(this)
    }

    /// Shuffles the shards by `seed` and each epoch (the default, with seed 0), or keeps their
    /// order (`None`).
    #[must_use]
    pub fn shuffle(mut self, seed: Option<u64>) -> Self {
        self.shuffle = seed.is_some();
        self.seed = seed.unwrap_or(0);
        self.start(self.epoch);
        self
    }

    /// Draws the samples from a buffer of `samples` (WebDataset's `shuffle(n)`; 1, the default:
    /// the shards' order). Memory holds the buffer's samples' shards.
    #[must_use]
    pub fn buffer(mut self, samples: usize) -> Self {
        self.buffer = samples.max(1);
        self.start(self.epoch);
        self
    }

    /// Decodes on `workers` threads (0: the available parallelism), as
    /// [`ImageStream::workers`](crate::load::images::ImageStream::workers).
    #[must_use]
    pub fn workers(mut self, workers: usize) -> Self {
        let workers = match workers {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        self.pool.resize_with(workers, Worker::default);
        self.pool.truncate(workers);
        self
    }

    /// The largest shard fetched whole from a bucket (default 4 GiB); a larger one is an error
    /// naming its URL, and is not fetched.
    #[must_use]
    pub fn max_shard_bytes(mut self, bytes: u64) -> Self {
        self.max_shard_bytes = bytes;
        self
    }

    /// This rank's shards of `epoch`, in the order read.
    fn own(&self, epoch: u64) -> Vec<usize> {
        let n = self.shards.len();
        let order: Vec<usize> = if self.shuffle {
            permutation(n, self.seed, epoch)
        } else {
            (0..n).collect()
        };
        order
            .into_iter()
            .skip(self.rank.part_index())
            .step_by(self.rank.num_parts())
            .collect()
    }

    fn start(&mut self, epoch: u64) {
        self.epoch = epoch;
        self.own = self.own(epoch);
        self.next = 0;
        self.ahead = None;
        self.incoming.clear();
        self.pool_buffer.clear();
        self.yielded = 0;
        self.batches = 0;
    }

    /// Reads shard `own[next]` (taking the read started ahead, if it is that one) and starts
    /// reading the one after it on another thread.
    fn load_next(&mut self) -> Result<bool, LoadError> {
        let Some(&shard) = self.own.get(self.next) else {
            return Ok(false);
        };
        let loaded = match self.ahead.take() {
            Some(ahead) if ahead.shard == shard => ahead.join(|| self.shards[shard].name())?,
            _ => self.shards[shard].load(self.max_shard_bytes, None)?,
        };
        self.next += 1;
        if let Some(&after) = self.own.get(self.next) {
            let origin = self.shards[after].clone();
            self.ahead = Ahead::start(after, origin, self.max_shard_bytes);
        }
        let loaded = Arc::new(loaded);
        for index in 0..loaded.len() {
            self.incoming.push_back(Item {
                shard: Arc::clone(&loaded),
                index,
                global: (shard as u64) << 32 | index as u64,
            });
        }
        Ok(true)
    }

    /// The next sample of the rank's shards, in their order.
    fn pull(&mut self) -> Result<Option<Item>, LoadError> {
        while self.incoming.is_empty() {
            if !self.load_next()? {
                return Ok(None);
            }
        }
        Ok(self.incoming.pop_front())
    }

    /// The next sample out of the shuffle buffer.
    fn take(&mut self) -> Result<Option<Item>, LoadError> {
        while self.pool_buffer.len() < self.buffer {
            match self.pull()? {
                Some(item) => self.pool_buffer.push(item),
                None => break,
            }
        }
        if self.pool_buffer.is_empty() {
            return Ok(None);
        }
        let key = Draws::new(self.seed, self.epoch).key(self.rank.part_index() as u64, 7);
        let k = below(key, self.yielded, self.pool_buffer.len());
        self.yielded += 1;
        Ok(Some(match self.pull()? {
            Some(next) => std::mem::replace(&mut self.pool_buffer[k], next),
            None => self.pool_buffer.swap_remove(k),
        }))
    }

    /// The next batch's samples (none at the end of the epoch).
    fn next_items(&mut self) -> Result<Vec<Item>, LoadError> {
        let mut items = Vec::with_capacity(self.batch);
        while items.len() < self.batch {
            match self.take()? {
                Some(item) => items.push(item),
                None => break,
            }
        }
        Ok(items)
    }

    fn read(&mut self, items: &[Item]) -> Result<R, LoadError>
    where
        R: LoadRecord,
    {
        let globals: Vec<u64> = items.iter().map(|i| i.global).collect();
        let rows: Vec<usize> = (0..items.len()).collect();
        let draws = Draws {
            seed: self.seed,
            epoch: self.epoch,
            first: 0,
            globals: Some(&globals),
        };
        let picked = Picked(items);
        let mut reader = Reader::new(
            &picked,
            &self.steps,
            &rows,
            items.len(),
            draws,
            &mut self.pool,
        );
        R::load_record(&mut reader, &mut self.leaves.iter())
    }

    fn step(&mut self) -> Option<Result<(R, BatchInfo), DataError>>
    where
        R: LoadRecord,
    {
        let read = |e| DataError::Read(SourceError::new(e));
        let items = match self.next_items() {
            Ok(items) if items.is_empty() => return None,
            Ok(items) => items,
            Err(e) => return Some(Err(read(e))),
        };
        self.batches = self.batches.saturating_add(1);
        let info = BatchInfo {
            count_samples: items.len(),
            pad: 0,
        };
        Some(self.read(&items).map(|b| (b, info)).map_err(read))
    }
}

#[diagnostic::do_not_recommend]
impl<R: LoadRecord> BatchSource<R> for ShardStream<R> {
    type Lent<'a>
        = &'a R
    where
        Self: 'a;

    fn next_batch(&mut self) -> Option<Result<(&R, BatchInfo), DataError>> {
        match self.step()? {
            Ok((batch, info)) => Some(Ok((&*self.lent.insert(batch), info))),
            Err(e) => Some(Err(e)),
        }
    }

    fn next_owned(&mut self) -> Option<Result<(R, BatchInfo), DataError>> {
        self.step()
    }

    fn start_epoch(&mut self, epoch: u64) {
        self.start(epoch);
    }

    fn state(&self) -> SourceState {
        self.identity
            .clone()
            .with_seed(Some(self.seed))
            .with_plan(self.plan())
            .in_epoch(self.epoch)
            .at(self.batches, self.yielded)
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        let here = self
            .identity
            .clone()
            .with_seed(Some(self.seed))
            .with_plan(self.plan());
        state.check_against(&here, false)?;
        self.start(state.epoch());
        // The epoch's samples up to the state, drawn again without being read or decoded.
        let mut drawn = 0u64;
        while drawn < state.samples() {
            match self.take() {
                Ok(Some(_)) => drawn += 1,
                Ok(None) => {
                    return Err(DataError::Resume(format!(
                        "the saved state had served {} samples of its epoch, which holds {drawn} here",
                        state.samples()
                    )));
                }
                Err(e) => return Err(DataError::Read(SourceError::new(e))),
            }
        }
        if state.batches() > state.samples() {
            return Err(DataError::Resume(format!(
                "the saved state counts {} batches served but {} samples, and a batch holds a sample or more",
                state.batches(),
                state.samples()
            )));
        }
        self.batches = state.batches();
        Ok(())
    }
}

impl<R> ShardStream<R> {
    fn plan(&self) -> String {
        format!(
            "batches of {}, a shuffle buffer of {}, shards {}",
            self.batch,
            self.buffer,
            if self.shuffle { "shuffled" } else { "in order" }
        )
    }
}
