//! Generators: an iteration-only source of batches, a closure that fills a batch buffer,
//! served like a provider.

use crate::data::batch_source::{BatchInfo, BatchSource};
use crate::data::dataset::AllocFlat;
use crate::data::error::DataError;
use crate::data::provider::Provided;
use crate::data::state::SourceState;
use crate::types::spec::{DataSpec, FlatOf};

/// Where a generator's batch is: its epoch and its place in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The epoch.
    pub epoch: u64,
    /// The batch's place in the epoch, from 0.
    pub batch: u64,
}

/// What fills a generator's batches: a closure of the buffer ([`Generator::new`]), or of the
/// buffer and the batch's [`Position`] ([`Generator::by_position`]).
pub trait Fill<Q> {
    /// Fills `out` with the batch at `at`; `None` at the end of the epoch.
    fn fill(&mut self, out: &mut Q, at: Position) -> Option<Result<BatchInfo, DataError>>;
    /// Whether the batches are a function of their position (so that a resume can seek).
    const POSITIONAL: bool;
}

/// A closure of the buffer alone ([`Generator::new`]).
pub struct Plain<F>(F);

/// A closure of the buffer and the batch's position ([`Generator::by_position`]).
pub struct ByPosition<F>(F);

impl<Q, F: FnMut(&mut Q) -> Option<Result<BatchInfo, DataError>>> Fill<Q> for Plain<F> {
    fn fill(&mut self, out: &mut Q, _: Position) -> Option<Result<BatchInfo, DataError>> {
        (self.0)(out)
    }
    const POSITIONAL: bool = false;
}

impl<Q, F: FnMut(&mut Q, Position) -> Option<Result<BatchInfo, DataError>>> Fill<Q>
    for ByPosition<F>
{
    fn fill(&mut self, out: &mut Q, at: Position) -> Option<Result<BatchInfo, DataError>> {
        (self.0)(out, at)
    }
    const POSITIONAL: bool = true;
}

/// An iteration-only source: a closure that fills a batch buffer, `None` when it is exhausted
/// (never, for an endless source). It serves batches like a [`Provider`](crate::data::Provider).
///
/// A generator made by [`Generator::by_position`] fills each batch from its [`Position`] (the
/// epoch and the batch's place in it): it resumes anywhere by seeking. One made by
/// [`Generator::new`] has only its closure's own state: it resumes by filling and dropping the
/// batches up to the saved position, from where it stands (forward only).
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::{BatchInfo, BatchSource, Generator};
///
/// #[derive(DataSpec)]
/// struct Noise {
///     #[spec(source = "x")]
///     x: Batch<Vector<1>>,
/// }
/// // Three batches per epoch, each filled with its epoch and place.
/// let fill = |q: &mut Noise, at: batchspec::data::Position| {
///     (at.batch < 3).then(|| {
///         q.x.array_mut().fill((at.epoch * 10 + at.batch) as f32);
///         Ok(BatchInfo { count_samples: 2, pad: 0 })
///     })
/// };
/// let mut run = Generator::<Noise, _>::by_position(2, fill);
/// run.start_epoch(4);
/// run.next_owned();
/// let saved = run.state();
/// let mut again = Generator::<Noise, _>::by_position(2, fill);
/// again.resume(&saved)?;
/// let (batch, _) = again.next_owned().unwrap()?;
/// assert_eq!(batch.x.array()[[0, 0]], 41.0);
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct Generator<Q, F> {
    buffer: Q,
    batch_size: usize,
    fill: F,
    epoch: u64,
    batches: u64,
    samples: u64,
}

impl<Q: DataSpec, F: FnMut(&mut Q) -> Option<Result<BatchInfo, DataError>>> Generator<Q, Plain<F>>
where
    FlatOf<Q>: AllocFlat,
{
    /// A source of batches of `batch_size` samples filled by `fill`.
    pub fn new(batch_size: usize, fill: F) -> Self {
        Generator::with(batch_size, Plain(fill))
    }
}

impl<Q: DataSpec, F: FnMut(&mut Q, Position) -> Option<Result<BatchInfo, DataError>>>
    Generator<Q, ByPosition<F>>
where
    FlatOf<Q>: AllocFlat,
{
    /// A source of batches of `batch_size` samples, each filled by `fill` from its position
    /// (`None` ends the epoch): resumable anywhere.
    pub fn by_position(batch_size: usize, fill: F) -> Self {
        Generator::with(batch_size, ByPosition(fill))
    }
}

impl<Q: DataSpec, F: Fill<Q>> Generator<Q, F>
where
    FlatOf<Q>: AllocFlat,
{
    fn with(batch_size: usize, fill: F) -> Self {
        Generator {
            buffer: Q::nest(FlatOf::<Q>::alloc(batch_size, 0)),
            batch_size,
            fill,
            epoch: 0,
            batches: 0,
            samples: 0,
        }
    }

    /// Fills the buffer with the next batch.
    fn step(&mut self) -> Option<Result<BatchInfo, DataError>> {
        let at = Position {
            epoch: self.epoch,
            batch: self.batches,
        };
        let info = self.fill.fill(&mut self.buffer, at)?;
        if let Ok(info) = &info {
            self.batches = self.batches.saturating_add(1);
            self.samples = self.samples.saturating_add(info.count_samples as u64);
        }
        Some(info)
    }

    /// Lends the next batch; `None` when the source is exhausted.
    ///
    /// # Errors
    /// The closure's error.
    pub fn next_batch(&mut self) -> Option<Result<Provided<'_, Q>, DataError>> {
        match self.step()? {
            Ok(info) => Some(Ok(Provided {
                batch: &self.buffer,
                info,
            })),
            Err(e) => Some(Err(e)),
        }
    }
}

#[diagnostic::do_not_recommend]
impl<Q, F> BatchSource<Q> for Generator<Q, F>
where
    Q: DataSpec,
    F: Fill<Q>,
    FlatOf<Q>: AllocFlat,
{
    type Lent<'a>
        = &'a Q
    where
        Self: 'a;

    fn next_batch(&mut self) -> Option<Result<(&Q, BatchInfo), DataError>> {
        Generator::next_batch(self).map(|r| r.map(|p| (p.batch, p.info)))
    }

    /// The batch is filled in the generator's buffer, which is given away and replaced.
    fn next_owned(&mut self) -> Option<Result<(Q, BatchInfo), DataError>> {
        Some(self.step()?.map(|info| {
            let fresh = Q::nest(FlatOf::<Q>::alloc(self.batch_size, 0));
            (std::mem::replace(&mut self.buffer, fresh), info)
        }))
    }

    fn start_epoch(&mut self, epoch: u64) {
        self.epoch = epoch;
        self.batches = 0;
        self.samples = 0;
    }

    fn state(&self) -> SourceState {
        let kind = if F::POSITIONAL {
            "generator by position"
        } else {
            "generator"
        };
        SourceState::new(kind, self.epoch)
            .with_request::<Q>()
            .with_plan(format!("batch {}", self.batch_size))
            .at(self.batches, self.samples)
    }

    /// A generator by position seeks; a plain one fills and drops the batches between where it
    /// stands and the state, and refuses a state behind it.
    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        state.check_against(&self.state(), false)?;
        if F::POSITIONAL {
            self.epoch = state.epoch();
            self.batches = state.batches();
            self.samples = state.samples();
            return Ok(());
        }
        if (state.epoch(), state.batches()) < (self.epoch, self.batches) {
            return Err(DataError::Resume(format!(
                "a generator of a closure cannot go back (it stands at batch {} of epoch {}, the state at batch {} of epoch {}): make it with `Generator::by_position` to resume anywhere",
                self.batches,
                self.epoch,
                state.batches(),
                state.epoch()
            )));
        }
        if state.epoch() != self.epoch {
            self.start_epoch(state.epoch());
        }
        while self.batches < state.batches() {
            match self.step() {
                None => break,
                Some(Err(e)) => return Err(e),
                Some(Ok(_)) => {}
            }
        }
        Ok(())
    }
}
