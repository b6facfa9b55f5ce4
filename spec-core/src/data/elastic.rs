//! Elastic resume of a provider: the samples a job of `W` ranks had still to serve in an epoch,
//! when it saved its state, dealt to the `W'` ranks of the job that resumes it.
//!
//! The saved state tells where every rank stood (ranks step together: each had served the same
//! number of batches, or all of its own if it had fewer). The rest of the epoch is every old
//! rank's unserved batches' samples, rank by rank, in the order they would have been served;
//! rank `r` of `W'` serves the contiguous part `r·m/W' .. (r+1)·m/W'` of those `m` samples, in
//! batches of the batch size under the last-batch policy. A state taken while a rest was being
//! served holds the state the rest came from (`inner`), so resuming twice, with three world
//! sizes, deals the rest of the rest.

use crate::data::error::DataError;
use crate::data::state::SourceState;
use crate::iteration::{Epoch, LastBatch, Schedule, Shard};

/// Where the next batch's rows are: the rows with data, the real samples among them, the
/// padding rows after them and the rows of the batch.
pub(crate) struct Step {
    pub(crate) filled: usize,
    pub(crate) count: usize,
    pub(crate) pad: usize,
    pub(crate) size: usize,
}

/// A position in the epochs of a schedule, the batches and samples served in the epoch, and the
/// rest of an epoch an elastic resume dealt (served instead of the epoch's own batches until the
/// epoch ends): the iteration side of a [`Provider`](crate::data::Provider) and of a
/// [`Trainer`](crate::data::Trainer).
pub(crate) struct EpochCursor {
    schedule: Schedule,
    // The state at the start of an epoch, made once: the source's kind, request and data, and
    // the schedule's seed, shard and plan in words.
    base: SourceState,
    epoch: Epoch,
    batches: u64,
    samples: u64,
    rest: Option<Rest>,
}

impl EpochCursor {
    /// At the start of epoch 0; `identity` is the source's kind, request and data.
    pub(crate) fn new(schedule: Schedule, identity: &SourceState) -> Self {
        let shard = schedule.shard();
        let base = SourceState::new(identity.kind(), 0)
            .with_request_of(identity)
            .with_seed(Some(schedule.seed()))
            .with_rank(shard.part_index(), shard.num_parts())
            .with_plan(format!(
                "{} samples, batch {}, {:?} order, last batch {:?}, {:?} split",
                schedule.num_samples(),
                schedule.batch_size(),
                schedule.order(),
                schedule.last_batch(),
                shard.split()
            ));
        EpochCursor {
            epoch: schedule.epoch(0),
            schedule,
            base,
            batches: 0,
            samples: 0,
            rest: None,
        }
    }

    pub(crate) fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The epoch.
    pub(crate) fn index(&self) -> u64 {
        self.epoch.index()
    }

    pub(crate) fn start_epoch(&mut self, epoch: u64) {
        self.epoch.restart(epoch);
        self.batches = 0;
        self.samples = 0;
        self.rest = None;
    }

    /// Moves to the next batch, its rows written into `rows`; `None` at the end of the epoch.
    pub(crate) fn advance(&mut self, rows: &mut Vec<usize>) -> Option<Step> {
        let step = match &mut self.rest {
            Some(rest) => {
                let (batch, pad) = rest.next_batch()?;
                rows.clear();
                rows.extend_from_slice(batch);
                let n = batch.len();
                Step {
                    filled: n,
                    count: n,
                    pad,
                    size: n + pad,
                }
            }
            None => {
                let batch = self.epoch.next_into(rows)?;
                Step {
                    filled: batch.indices().len(),
                    count: batch.count_samples(),
                    pad: batch.pad(),
                    size: batch.size(),
                }
            }
        };
        self.batches = self.batches.saturating_add(1);
        self.samples = self.samples.saturating_add(step.count as u64);
        Some(step)
    }

    /// The state: the source and its plan, the position.
    pub(crate) fn state(&self) -> SourceState {
        let state = self
            .base
            .clone()
            .in_epoch(self.index())
            .at(self.batches, self.samples);
        match &self.rest {
            Some(rest) => state.with_inner(vec![rest.origin.clone()]),
            None => state,
        }
    }

    /// Continues from `state` (elastic when it was taken with another number of ranks), the
    /// batches skipped written into `rows` and dropped.
    pub(crate) fn resume(
        &mut self,
        state: &SourceState,
        rows: &mut Vec<usize>,
    ) -> Result<(), DataError> {
        state.check_against(&self.base, true)?;
        let (rank, world) = (self.base.rank(), self.base.world());
        self.start_epoch(state.epoch());
        let skip = if state.world() == world && state.inner().is_empty() {
            state.batches()
        } else {
            let (origin, skip) = match state.inner().first() {
                Some(origin) if state.world() == world => (origin, state.batches()),
                _ => (state, 0),
            };
            self.rest = Some(rest_for(&self.schedule, origin, rank, world)?);
            skip
        };
        for _ in 0..skip {
            if self.advance(rows).is_none() {
                break;
            }
        }
        Ok(())
    }
}

/// This rank's part of the rest of an epoch, served in batches.
#[derive(Clone, Debug)]
struct Rest {
    origin: SourceState,
    rows: Vec<usize>,
    next: usize,
    batch_size: usize,
    last_batch: LastBatch,
}

impl Rest {
    /// The next batch's rows and its padding rows; `None` at the end.
    fn next_batch(&mut self) -> Option<(&[usize], usize)> {
        let left = self.rows.len() - self.next;
        let n = left.min(self.batch_size);
        if n == 0 || (n < self.batch_size && self.last_batch == LastBatch::Drop) {
            self.next = self.rows.len();
            return None;
        }
        let at = self.next;
        self.next += n;
        let pad = match self.last_batch {
            LastBatch::Pad => self.batch_size - n,
            _ => 0,
        };
        Some((&self.rows[at..at + n], pad))
    }
}

/// The part of the rest of `origin`'s epoch that rank `rank` of `world` serves, by `schedule`
/// (this rank's schedule: the same samples and plan as the saved job's).
///
/// # Errors
/// [`DataError::Resume`] when the schedule's order draws with replacement, rolls over, or is not
/// what its batch size alone rebuilds for another shard.
fn rest_for(
    schedule: &Schedule,
    origin: &SourceState,
    rank: usize,
    world: usize,
) -> Result<Rest, DataError> {
    if schedule.order().is_with_replacement() || schedule.last_batch() == LastBatch::RollOver {
        return Err(DataError::Resume(format!(
            "the state was taken with {} ranks and this job has {world}: elastic resume deals the samples left in the epoch, which needs an order without replacement and a last batch that does not roll over (this schedule: {:?} order, last batch {:?})",
            origin.world(),
            schedule.order(),
            schedule.last_batch()
        )));
    }
    let left = remaining(schedule, origin)?;
    let part = contiguous(left.len(), rank, world);
    Ok(Rest {
        origin: origin.clone(),
        rows: left[part].to_vec(),
        next: 0,
        batch_size: schedule.batch_size(),
        last_batch: schedule.last_batch(),
    })
}

/// Part `rank` of `world` contiguous parts of `m` items.
fn contiguous(m: usize, rank: usize, world: usize) -> std::ops::Range<usize> {
    let at = |r: usize| (r as u128 * m as u128 / world.max(1) as u128) as usize;
    at(rank)..at(rank + 1)
}

/// The samples every rank of `state`'s job had still to serve in its epoch, rank by rank.
fn remaining(schedule: &Schedule, state: &SourceState) -> Result<Vec<usize>, DataError> {
    let (world, served) = (state.world(), state.batches());
    let served = usize::try_from(served).unwrap_or(usize::MAX);
    let mut left = Vec::new();
    match state.inner().first() {
        // The saved job was serving the rest of another job's epoch.
        Some(origin) => {
            let before = remaining(schedule, origin)?;
            let bs = schedule.batch_size();
            for rank in 0..world {
                let part = &before[contiguous(before.len(), rank, world)];
                let mut end = part.len();
                if schedule.last_batch() == LastBatch::Drop {
                    end -= end % bs;
                }
                let start = served.saturating_mul(bs).min(end);
                left.extend_from_slice(&part[start..end]);
            }
        }
        None => {
            let mut rows = Vec::new();
            for rank in 0..world {
                let shard = Shard::with_split(rank, world, schedule.shard().split())?;
                let Some(theirs) = schedule.for_shard(shard) else {
                    return Err(DataError::Resume(format!(
                        "the state was taken with {world} ranks and this job has {}: elastic resume rebuilds every rank's schedule from the batch size, and this schedule serves fewer batches than its batch size allows (give the batch size, not the number of batches)",
                        schedule.shard().num_parts()
                    )));
                };
                let mut epoch = theirs.epoch(state.epoch());
                let mut k = 0;
                while let Some(batch) = epoch.next_into(&mut rows) {
                    if k >= served {
                        left.extend(batch.indices().iter().take(batch.count_samples()));
                    }
                    k += 1;
                }
            }
        }
    }
    Ok(left)
}
