//! The position of a source of batches as a value ([`SourceState`]): what a training job saves
//! beside its model's checkpoint, and what a source resumes from.

use crate::data::error::DataError;
use crate::types::spec::DataSpec;
use serde::{Deserialize, Serialize};

/// The version of [`SourceState`]'s format; a state of another version is refused.
pub const STATE_VERSION: u32 = 1;

/// Where a source of batches stands, as a small value: enough to continue with exactly the
/// batches an uninterrupted run would have served next ([`BatchSource::resume`]), and enough to
/// refuse a state that belongs to another source.
///
/// It serializes with serde (JSON, CBOR, bincode..., whatever the job's checkpoint uses). It
/// holds:
///
/// - the position: the epoch, the batches and samples this rank served in it;
/// - what the batches depend on: the seed, the rank and the world the state was taken with, the
///   plan (batch size, order, last-batch or tail policy) in words, fingerprints of the data (its
///   number of samples; for files, their names and row counts) and of the request (its leaves'
///   fields, sources and spaces);
/// - the states of the sources inside a composite one (`inner`), and a format version.
///
/// A state is the job's position, not only one rank's: ranks step together, so the state of any
/// rank tells where every rank stands, and a job restarted on another number of ranks resumes
/// from it (elastic resume, where the source allows it).
///
/// [`BatchSource::resume`]: crate::data::BatchSource::resume
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::{BatchSource, Dataset, Provider, SourceState};
/// use batchspec::iteration::Schedule;
///
/// #[derive(DataSpec)]
/// struct Input {
///     #[spec(source = "x")]
///     x: Batch<Vector<1>>,
/// }
/// let ds = Dataset::new(Input { x: Batch::new(ndarray::Array2::from_shape_fn((10, 1), |(i, _)| i as f32))? })?;
/// let schedule = Schedule::builder(10).batch_size(3).shuffle(true).seed(7).build()?;
/// let first = |b: Input| b.x.array()[[0, 0]];
/// let mut run = Provider::<Input, Input>::new(&ds, schedule.clone())?;
/// run.next_owned();
/// let saved = serde_json::to_string(&run.state())?;
/// let rest: Vec<f32> = std::iter::from_fn(|| run.next_owned()).map(|(b, _)| first(b)).collect();
///
/// // Another process: a new provider, resumed from the saved state.
/// let mut resumed = Provider::<Input, Input>::new(&ds, schedule)?;
/// resumed.resume(&serde_json::from_str::<SourceState>(&saved)?)?;
/// let again: Vec<f32> = std::iter::from_fn(|| resumed.next_owned()).map(|(b, _)| first(b)).collect();
/// assert_eq!(rest, again);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SourceState {
    version: u32,
    kind: String,
    epoch: u64,
    batches: u64,
    samples: u64,
    seed: Option<u64>,
    rank: usize,
    world: usize,
    plan: String,
    data: u64,
    spec: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    inner: Vec<SourceState>,
}

impl SourceState {
    /// The state of a source of the kind `kind` (`"provider"`, `"stream"`, ...), at the start of
    /// `epoch`, rank 0 of 1, with no seed, plan, request or data fingerprint: set them with the
    /// `with_*` methods. For sources written outside batchspec.
    pub fn new(kind: &str, epoch: u64) -> Self {
        SourceState {
            version: STATE_VERSION,
            kind: kind.to_owned(),
            epoch,
            batches: 0,
            samples: 0,
            seed: None,
            rank: 0,
            world: 1,
            plan: String::new(),
            data: 0,
            spec: 0,
            inner: Vec::new(),
        }
    }

    /// With the fingerprint of the request `Q` the batches are of (its leaves' fields, sources
    /// and spaces): a state of another request is refused.
    pub fn with_request<Q: DataSpec>(mut self) -> Self {
        self.spec = spec_fingerprint::<Q>();
        self
    }

    /// With the request and data fingerprints of `other`.
    pub(crate) fn with_request_of(mut self, other: &SourceState) -> Self {
        self.spec = other.spec;
        self.data = other.data;
        self
    }

    /// The same state in epoch `epoch`.
    pub(crate) fn in_epoch(mut self, epoch: u64) -> Self {
        self.epoch = epoch;
        self
    }

    /// With the position: `batches` batches holding `samples` samples served in the epoch.
    pub fn at(mut self, batches: u64, samples: u64) -> Self {
        self.batches = batches;
        self.samples = samples;
        self
    }

    /// With the seed the batches depend on.
    pub fn with_seed(mut self, seed: Option<u64>) -> Self {
        self.seed = seed;
        self
    }

    /// With the rank and the number of ranks.
    pub fn with_rank(mut self, rank: usize, world: usize) -> Self {
        self.rank = rank;
        self.world = world;
        self
    }

    /// With the plan in words (batch size, order, policies): states of other plans are refused.
    pub fn with_plan(mut self, plan: impl Into<String>) -> Self {
        self.plan = plan.into();
        self
    }

    /// With a fingerprint of the data ([`fingerprint`] of what identifies it).
    pub fn with_data(mut self, data: u64) -> Self {
        self.data = data;
        self
    }

    /// With the states of the sources inside this one.
    pub fn with_inner(mut self, inner: Vec<SourceState>) -> Self {
        self.inner = inner;
        self
    }

    /// The kind of source.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The epoch being served (or about to be, at its start).
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The batches this rank served in the epoch.
    pub fn batches(&self) -> u64 {
        self.batches
    }

    /// The samples this rank served in the epoch (padding not counted).
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// The seed the batches depend on.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// The rank the state was taken on.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The number of ranks the state was taken with.
    pub fn world(&self) -> usize {
        self.world
    }

    /// The plan in words.
    pub fn plan(&self) -> &str {
        &self.plan
    }

    /// The states of the sources inside this one.
    pub fn inner(&self) -> &[SourceState] {
        &self.inner
    }

    /// Checks that `self`, a saved state, belongs to the source whose state now is `here`: the
    /// same format version, kind of source, request, data, seed and plan, and (unless
    /// `elastic`) the same number of ranks. Composite states (those whose `here` has inner
    /// states) are checked part by part.
    ///
    /// # Errors
    /// [`DataError::StateMismatch`] naming the first part that differs, with both values.
    pub fn check_against(&self, here: &SourceState, elastic: bool) -> Result<(), DataError> {
        let differ = |part: &'static str, saved: String, here: String| {
            Err(DataError::StateMismatch { part, saved, here })
        };
        if self.version != here.version {
            return differ(
                "format version",
                self.version.to_string(),
                here.version.to_string(),
            );
        }
        if self.kind != here.kind {
            return differ("kind of source", self.kind.clone(), here.kind.clone());
        }
        if self.spec != here.spec {
            return differ(
                "request (its leaves' fields, sources and spaces)",
                format!("{:016x}", self.spec),
                format!("{:016x}", here.spec),
            );
        }
        if self.data != here.data {
            return differ(
                "data (its samples, files or row counts)",
                format!("{:016x}", self.data),
                format!("{:016x}", here.data),
            );
        }
        if self.seed != here.seed {
            return differ("seed", words(self.seed), words(here.seed));
        }
        if self.plan != here.plan {
            return differ("plan", self.plan.clone(), here.plan.clone());
        }
        if !elastic && self.world != here.world {
            return differ(
                "number of ranks",
                self.world.to_string(),
                here.world.to_string(),
            );
        }
        // A provider's state holds, while it serves the rest of an elastic resume, the state the
        // rest came from: checked by the resume itself, not here.
        if here.inner.is_empty() {
            return Ok(());
        }
        if self.inner.len() != here.inner.len() {
            return differ(
                "number of inner sources",
                self.inner.len().to_string(),
                here.inner.len().to_string(),
            );
        }
        for (saved, now) in self.inner.iter().zip(&here.inner) {
            saved.check_against(now, elastic)?;
        }
        Ok(())
    }
}

fn words(seed: Option<u64>) -> String {
    seed.map_or_else(|| "none".to_owned(), |s| s.to_string())
}

/// A fingerprint of byte strings that is the same on every machine and in every build (64-bit
/// FNV-1a over each part and its length): what [`SourceState`] compares data and requests by.
pub fn fingerprint(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in part.iter().chain(&(part.len() as u64).to_le_bytes()) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// The fingerprint of a request: each leaf's field, source and space in words.
pub(crate) fn spec_fingerprint<Q: DataSpec>() -> u64 {
    let words: Vec<String> = Q::describe(1)
        .iter()
        .map(|d| format!("{}\u{1f}{}\u{1f}{}", d.field, d.source, d.space))
        .collect();
    let parts: Vec<&[u8]> = words.iter().map(|w| w.as_bytes()).collect();
    fingerprint(&parts)
}
