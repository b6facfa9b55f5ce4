//! Weighted mixtures of sources of batches of one request ([`Mix`]): Hugging Face's
//! `interleave_datasets(probabilities, stopping_strategy)`, tf.data's `sample_from_datasets`,
//! MosaicML's stream proportions, deterministic and resumable.

use crate::data::batch_source::{BatchInfo, BatchSource};
use crate::data::cursor::{Cursor, Next, SourceOf};
use crate::data::dataset::AllocFlat;
use crate::data::error::DataError;
use crate::data::gather::GatherSame;
use crate::data::state::SourceState;
use crate::iteration::LastBatch;
use crate::types::spec::{DataSpec, FlatOf};

/// When a mixture's epoch ends (Hugging Face's `stopping_strategy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopping {
    /// When the source drawn has no sample left (`first_exhausted`, Hugging Face's default):
    /// every sample served is a first pass's, and the sources' proportions hold to the end.
    FirstExhausted,
    /// A source that runs out starts a new pass (oversampling) until every source with a weight
    /// has run out at least once (`all_exhausted`): every sample of every source is served.
    AllExhausted,
    /// Sources start new passes whenever they run out, and the epoch never ends (bound it with
    /// [`BatchSource::take_batches`]).
    Endless,
}

impl Stopping {
    fn as_str(self) -> &'static str {
        match self {
            Stopping::FirstExhausted => "first exhausted",
            Stopping::AllExhausted => "all exhausted",
            Stopping::Endless => "endless",
        }
    }
}

/// What a mixture draws a source for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    /// Each sample: a batch holds samples of several sources.
    Samples { batch_size: usize },
    /// Each batch: a batch is one source's, whole.
    Batches,
}

/// One source of a mixture: its cursor, its weight, and what it served this epoch.
struct Part<'a, Q> {
    cursor: Cursor<'a, Q>,
    weight: f64,
    /// Passes started again this epoch (the source's epoch is a function of it).
    restarts: u64,
    /// Whether it ran out at least once this epoch.
    exhausted: bool,
    /// Samples served from it this epoch.
    served: u64,
}

/// A weighted mixture of sources of batches of the request `Q`: which source serves each sample
/// (or, with [`Mix::of_batches`], each batch) is drawn with the sources' weights as a pure
/// function of `(seed, epoch, position)`, the same on every machine, under any prefetch depth
/// and after a resume. The sources may be of any kind (providers, streams, Parquet streams,
/// other mixtures) as long as they serve the same request; each keeps its own order, shuffle and
/// shards.
///
/// A mixture is itself a [`BatchSource`]: its [`state`](BatchSource::state) holds each
/// source's, the weights and the position, and [`resume`](BatchSource::resume) continues with
/// exactly the batches an uninterrupted run would have served. The lent batch tells how many of
/// its samples came from each source ([`MixedBatch::counts`]); [`Mix::served`] counts the
/// epoch's. Weights may change between epochs ([`Mix::set_weights`]).
///
/// A source that runs out starts a new pass as [`Stopping`] says: its epoch `e` of the mixture
/// becomes the source's epoch `e × 2^32 + passes`, so each pass is shuffled anew.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::{Mix, Stopping, Stream};
///
/// #[derive(DataSpec)]
/// struct Text {
///     #[spec(source = "x")]
///     x: Batch<Vector<1>>,
/// }
/// // A source of `n` samples numbered from `from`, served in batches of 4.
/// let source = |from: i32, n: i32| {
///     Stream::<Text, Text>::new(
///         move |_epoch| (from..from + n).map(|i| Text { x: Batch::new(ndarray::array![[i as f32]]).unwrap() }),
///         4,
///     )
/// };
/// let mut mixed = Mix::of_samples(8)
///     .source(source(0, 70), 0.7)?
///     .source(source(1000, 30), 0.3)?
///     .stopping(Stopping::AllExhausted)
///     .seed(7);
/// let (mut web_seen, mut books_seen) = (0, 0);
/// while let Some(b) = mixed.next_batch() {
///     let (batch, info) = b?;
///     web_seen += batch.counts()[0];
///     books_seen += batch.counts()[1];
///     assert_eq!(info.count_samples, batch.counts().iter().sum::<usize>());
/// }
/// // Every sample of both sources at least once; the first to run out was oversampled.
/// assert!(web_seen >= 70 && books_seen >= 30);
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct Mix<'a, Q> {
    parts: Vec<Part<'a, Q>>,
    level: Level,
    stopping: Stopping,
    last_batch: LastBatch,
    seed: u64,
    epoch: u64,
    /// Draws made this epoch (samples, or batches for a mixture of batches).
    position: u64,
    batches: u64,
    samples: u64,
    ended: bool,
    /// The batch being filled (a mixture of samples), the samples in it and from which source.
    staging: Option<Q>,
    filled: usize,
    counts: Vec<usize>,
    /// The batch lent.
    out: Option<Q>,
}

/// A batch of a mixture, lent: derefs to the batch, and tells how many of its samples came from
/// each source (in the order they were added).
pub struct MixedBatch<'b, Q> {
    batch: &'b Q,
    counts: &'b [usize],
}

impl<Q> MixedBatch<'_, Q> {
    /// The samples of this batch from each source, in the order the sources were added.
    pub fn counts(&self) -> &[usize] {
        self.counts
    }
}

impl<Q> core::ops::Deref for MixedBatch<'_, Q> {
    type Target = Q;
    fn deref(&self) -> &Q {
        self.batch
    }
}

impl<'a, Q> Mix<'a, Q>
where
    Q: DataSpec + GatherSame,
    FlatOf<Q>: AllocFlat,
{
    /// A mixture drawing a source for each sample, serving batches of `batch_size` samples (at
    /// least 1) that mix the sources (Hugging Face's `interleave_datasets`, tf.data's
    /// `sample_from_datasets`). Add sources with [`Mix::source`].
    pub fn of_samples(batch_size: usize) -> Self {
        Self::with_level(Level::Samples {
            batch_size: batch_size.max(1),
        })
    }

    /// A mixture drawing a source for each batch: each batch is one source's whole batch (for
    /// sources whose batches must not mix: other sequence lengths, other tasks).
    pub fn of_batches() -> Self {
        Self::with_level(Level::Batches)
    }

    fn with_level(level: Level) -> Self {
        Mix {
            parts: Vec::new(),
            level,
            stopping: Stopping::FirstExhausted,
            last_batch: LastBatch::Short,
            seed: 0,
            epoch: 0,
            position: 0,
            batches: 0,
            samples: 0,
            ended: false,
            staging: None,
            filled: 0,
            counts: Vec::new(),
            out: None,
        }
    }

    /// With another source of weight `weight` (weights are relative: they need not sum to 1).
    ///
    /// # Errors
    /// [`DataError::Mixture`] for a weight that is negative or not finite. (Weights that all
    /// are 0 are refused by the first draw.)
    pub fn source<S>(mut self, source: S, weight: f64) -> Result<Self, DataError>
    where
        S: SourceOf<Q> + 'a,
    {
        check_each(self.parts.len(), weight)?;
        self.parts.push(Part {
            cursor: Cursor::new(Box::new(source)),
            weight,
            restarts: 0,
            exhausted: false,
            served: 0,
        });
        self.counts.push(0);
        Ok(self)
    }

    /// When the epoch ends (default [`Stopping::FirstExhausted`]).
    pub fn stopping(mut self, stopping: Stopping) -> Self {
        self.stopping = stopping;
        self
    }

    /// The seed of the draws (default 0).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// What happens to a mixture of samples' last, incomplete batch: [`LastBatch::Short`] (the
    /// default) or [`LastBatch::Drop`] (its samples are drawn, and not served).
    ///
    /// # Errors
    /// [`DataError::Mixture`] for [`LastBatch::Pad`] or [`LastBatch::RollOver`].
    pub fn last_batch(mut self, last_batch: LastBatch) -> Result<Self, DataError> {
        if !matches!(last_batch, LastBatch::Short | LastBatch::Drop) {
            return Err(DataError::Mixture(format!(
                "the last batch of a mixture is short or dropped, not `{}`",
                last_batch.as_str()
            )));
        }
        self.last_batch = last_batch;
        Ok(self)
    }

    /// Sets the sources' weights (in the order they were added) from the next draw on: between
    /// epochs, for a schedule of proportions. The state holds them, and a resumed mixture takes
    /// them from it.
    ///
    /// # Errors
    /// [`DataError::Mixture`] for another number of weights than of sources, a weight that is
    /// negative or not finite, or weights summing to 0.
    pub fn set_weights(&mut self, weights: &[f64]) -> Result<(), DataError> {
        if weights.len() != self.parts.len() {
            return Err(DataError::Mixture(format!(
                "{} weights given for {} sources",
                weights.len(),
                self.parts.len()
            )));
        }
        check_weights(weights)?;
        for (p, &w) in self.parts.iter_mut().zip(weights) {
            p.weight = w;
        }
        Ok(())
    }

    /// The sources' weights, in the order they were added.
    pub fn weights(&self) -> Vec<f64> {
        self.parts.iter().map(|p| p.weight).collect()
    }

    /// The samples each source served this epoch, in the order they were added.
    pub fn served(&self) -> Vec<u64> {
        self.parts.iter().map(|p| p.served).collect()
    }

    /// The source of draw `position` of the epoch: the weights' cumulative sum against a number
    /// in [0, 1) hashed from `(seed, epoch, position)`.
    fn choose(&self, position: u64) -> usize {
        let h = mix64(self.seed ^ mix64(self.epoch ^ mix64(position)));
        // 53 random bits: a float in [0, 1) with every value exact.
        let u = (h >> 11) as f64 / (1u64 << 53) as f64;
        let total: f64 = self.parts.iter().map(|p| p.weight).sum();
        let target = u * total;
        let mut sum = 0.0;
        let mut last = 0;
        for (i, p) in self.parts.iter().enumerate() {
            if p.weight > 0.0 {
                sum += p.weight;
                last = i;
                if target < sum {
                    return i;
                }
            }
        }
        last
    }

    /// The source's epoch for its pass `restarts` of the mixture's epoch.
    fn source_epoch(&self, restarts: u64) -> u64 {
        (self.epoch << 32) | (restarts & 0xffff_ffff)
    }

    /// Whether the epoch ends now that source `i` ran out; if not, starts its next pass.
    fn ran_out(&mut self, i: usize) -> bool {
        self.parts[i].exhausted = true;
        let done = match self.stopping {
            Stopping::FirstExhausted => true,
            Stopping::AllExhausted => self.parts.iter().all(|p| p.exhausted || p.weight == 0.0),
            Stopping::Endless => false,
        };
        if !done {
            let restarts = self.parts[i].restarts + 1;
            let epoch = self.source_epoch(restarts);
            let part = &mut self.parts[i];
            part.restarts = restarts;
            part.cursor.start_epoch(epoch);
        }
        done
    }

    fn empty_pass(i: usize) -> DataError {
        DataError::Mixture(format!(
            "source {i} served no sample in a new pass (a source that serves one epoch only cannot be oversampled: use `Stopping::FirstExhausted`)"
        ))
    }

    /// The next sample of source `i`: its row in the source's batch, or `None` when the epoch
    /// ends.
    fn sample_of(&mut self, i: usize) -> Option<Result<usize, DataError>> {
        let mut fresh = false;
        loop {
            match self.parts[i].cursor.next() {
                Ok(Next::Row(row)) => return Some(Ok(row)),
                Err(e) => return Some(Err(e)),
                Ok(Next::End) if fresh => return Some(Err(Self::empty_pass(i))),
                Ok(Next::End) => {
                    if self.ran_out(i) {
                        return None;
                    }
                    fresh = true;
                }
            }
        }
    }

    /// Fills the staging batch: how many samples, or `None` at the end of the epoch.
    fn stage(&mut self, batch_size: usize) -> Option<Result<usize, DataError>> {
        if self.parts.is_empty() || self.ended {
            return None;
        }
        if let Err(e) = check_sum(self.parts.iter().map(|p| p.weight).sum()) {
            return Some(Err(e));
        }
        if self.filled == 0 {
            self.counts.iter_mut().for_each(|c| *c = 0);
        }
        while self.filled < batch_size {
            let i = self.choose(self.position);
            let row = match self.sample_of(i) {
                Some(Ok(row)) => row,
                Some(Err(e)) => return Some(Err(e)),
                None => {
                    self.ended = true;
                    break;
                }
            };
            let from = self.parts[i].cursor.batch()?;
            let staging = self
                .staging
                .get_or_insert_with(|| Q::nest(FlatOf::<Q>::alloc(batch_size, 0)));
            Q::gather_same(staging, from, &[row], self.filled);
            self.filled += 1;
            // A saved state may have set it anywhere (a damaged one): the draws go on.
            self.position = self.position.wrapping_add(1);
            self.counts[i] += 1;
            self.parts[i].served = self.parts[i].served.saturating_add(1);
        }
        let filled = core::mem::take(&mut self.filled);
        if filled == 0 || (filled < batch_size && self.last_batch == LastBatch::Drop) {
            return None;
        }
        self.batches = self.batches.saturating_add(1);
        self.samples = self.samples.saturating_add(filled as u64);
        Some(Ok(filled))
    }

    /// The next whole batch of the source drawn.
    fn next_of_one(&mut self) -> Option<Result<(Q, BatchInfo), DataError>> {
        if self.parts.is_empty() || self.ended {
            return None;
        }
        if let Err(e) = check_sum(self.parts.iter().map(|p| p.weight).sum()) {
            return Some(Err(e));
        }
        let i = self.choose(self.position);
        let mut fresh = false;
        let (q, info) = loop {
            match self.parts[i].cursor.next_whole() {
                Some(Ok(b)) => break b,
                Some(Err(e)) => return Some(Err(e)),
                None if fresh => return Some(Err(Self::empty_pass(i))),
                None => {
                    if self.ran_out(i) {
                        self.ended = true;
                        return None;
                    }
                    fresh = true;
                }
            }
        };
        // A saved state may have set it anywhere (a damaged one): the draws go on.
        self.position = self.position.wrapping_add(1);
        self.batches = self.batches.saturating_add(1);
        self.samples = self.samples.saturating_add(info.count_samples as u64);
        self.parts[i].served = self.parts[i]
            .served
            .saturating_add(info.count_samples as u64);
        self.counts.iter_mut().for_each(|c| *c = 0);
        self.counts[i] = info.count_samples;
        Some(Ok((q, info)))
    }

    /// The next batch in memory of its own.
    fn next_owned_batch(&mut self) -> Option<Result<(Q, BatchInfo), DataError>> {
        let Level::Samples { batch_size } = self.level else {
            return self.next_of_one();
        };
        let filled = match self.stage(batch_size)? {
            Ok(n) => n,
            Err(e) => return Some(Err(e)),
        };
        let info = BatchInfo {
            count_samples: filled,
            pad: 0,
        };
        if filled == batch_size {
            return self.staging.take().map(|q| Ok((q, info)));
        }
        let staging = self.staging.as_ref()?;
        let mut short = Q::nest(FlatOf::<Q>::alloc(filled, 0));
        let rows: Vec<usize> = (0..filled).collect();
        Q::gather_same(&mut short, staging, &rows, 0);
        Some(Ok((short, info)))
    }

    fn plan(&self) -> String {
        let level = match self.level {
            Level::Samples { batch_size } => format!("samples in batches of {batch_size}"),
            Level::Batches => "batches".to_owned(),
        };
        format!(
            "mixture of {} sources by {level}, stopping when {}, the last batch {}",
            self.parts.len(),
            self.stopping.as_str(),
            self.last_batch.as_str()
        )
    }
}

/// Weights are finite, not negative, and not all 0.
fn check_weights(weights: &[f64]) -> Result<(), DataError> {
    for (i, &w) in weights.iter().enumerate() {
        check_each(i, w)?;
    }
    check_sum(weights.iter().sum())
}

fn check_each(i: usize, w: f64) -> Result<(), DataError> {
    if !w.is_finite() || w < 0.0 {
        return Err(DataError::Mixture(format!(
            "the weight of source {i} is {w}: weights are finite and not negative"
        )));
    }
    Ok(())
}

fn check_sum(sum: f64) -> Result<(), DataError> {
    if sum > 0.0 {
        return Ok(());
    }
    Err(DataError::Mixture(
        "the weights sum to 0: at least one source needs a weight".into(),
    ))
}

/// SplitMix64's finalizer: a bijection of `u64` whose outputs look independent.
fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The words of a part's state: its weight, and whether it ran out this epoch.
fn part_plan(weight: f64, exhausted: bool) -> String {
    if exhausted {
        format!("weight {weight}, ran out")
    } else {
        format!("weight {weight}")
    }
}

fn parse_part_plan(plan: &str) -> Option<(f64, bool)> {
    let rest = plan.strip_prefix("weight ")?;
    let (w, exhausted) = match rest.strip_suffix(", ran out") {
        Some(w) => (w, true),
        None => (rest, false),
    };
    Some((w.parse().ok()?, exhausted))
}

#[diagnostic::do_not_recommend]
impl<'a, Q> BatchSource<Q> for Mix<'a, Q>
where
    Q: DataSpec + GatherSame,
    FlatOf<Q>: AllocFlat,
{
    type Lent<'b>
        = MixedBatch<'b, Q>
    where
        Self: 'b;

    fn next_batch(&mut self) -> Option<Result<(MixedBatch<'_, Q>, BatchInfo), DataError>> {
        let full = match self.level {
            Level::Samples { batch_size } => match self.stage(batch_size)? {
                // A full batch is lent from where it was gathered, made once.
                Ok(n) if n == batch_size => None,
                Ok(n) => {
                    let mut short = Q::nest(FlatOf::<Q>::alloc(n, 0));
                    let rows: Vec<usize> = (0..n).collect();
                    Q::gather_same(&mut short, self.staging.as_ref()?, &rows, 0);
                    Some((short, n))
                }
                Err(e) => return Some(Err(e)),
            },
            Level::Batches => match self.next_of_one()? {
                Ok((q, info)) => Some((q, info.count_samples)),
                Err(e) => return Some(Err(e)),
            },
        };
        let (batch, n) = match full {
            Some((q, n)) => (&*self.out.insert(q), n),
            None => {
                let staging = self.staging.as_ref()?;
                (staging, self.counts.iter().sum())
            }
        };
        let info = BatchInfo {
            count_samples: n,
            pad: 0,
        };
        Some(Ok((
            MixedBatch {
                batch,
                counts: &self.counts,
            },
            info,
        )))
    }

    fn next_owned(&mut self) -> Option<Result<(Q, BatchInfo), DataError>> {
        self.next_owned_batch()
    }

    fn start_epoch(&mut self, epoch: u64) {
        self.epoch = epoch;
        self.position = 0;
        self.batches = 0;
        self.samples = 0;
        self.ended = false;
        self.filled = 0;
        let first = self.source_epoch(0);
        for p in &mut self.parts {
            p.restarts = 0;
            p.exhausted = false;
            p.served = 0;
            p.cursor.start_epoch(first);
        }
    }

    fn state(&self) -> SourceState {
        let parts = self
            .parts
            .iter()
            .map(|p| {
                let (inner, used) = p.cursor.state();
                SourceState::new("mixture part", p.restarts)
                    .at(used as u64, p.served)
                    .with_plan(part_plan(p.weight, p.exhausted))
                    .with_inner(vec![inner])
            })
            .collect();
        SourceState::new("mixture", self.epoch)
            .with_request::<Q>()
            .at(self.batches, self.samples)
            .with_seed(Some(self.seed))
            .with_plan(self.plan())
            .with_inner(parts)
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        // The mixture's own parts are compared here; each source checks its own state.
        let here = self.state().with_inner(Vec::new());
        state
            .clone()
            .with_inner(Vec::new())
            .check_against(&here, false)?;
        if state.inner().len() != self.parts.len() {
            return Err(DataError::StateMismatch {
                part: "number of sources",
                saved: state.inner().len().to_string(),
                here: self.parts.len().to_string(),
            });
        }
        let mut parsed = Vec::with_capacity(self.parts.len());
        for (i, part) in state.inner().iter().enumerate() {
            let (weight, exhausted) = parse_part_plan(part.plan())
                .filter(|_| part.kind() == "mixture part" && part.inner().len() == 1)
                .ok_or_else(|| {
                    DataError::Resume(format!("the state of source {i} is not a mixture's part"))
                })?;
            parsed.push((weight, exhausted));
        }
        let weights: Vec<f64> = parsed.iter().map(|p| p.0).collect();
        check_weights(&weights)?;
        self.epoch = state.epoch();
        for ((p, saved), (weight, exhausted)) in
            self.parts.iter_mut().zip(state.inner()).zip(parsed)
        {
            p.cursor
                .resume(&saved.inner()[0], saved.batches() as usize)?;
            p.weight = weight;
            p.exhausted = exhausted;
            p.restarts = saved.epoch();
            p.served = saved.samples();
        }
        // Between batches, the draws made are the samples served (or the batches, one draw
        // each).
        self.position = match self.level {
            Level::Samples { .. } => state.samples(),
            Level::Batches => state.batches(),
        };
        self.batches = state.batches();
        self.samples = state.samples();
        self.ended = false;
        self.filled = 0;
        Ok(())
    }
}
