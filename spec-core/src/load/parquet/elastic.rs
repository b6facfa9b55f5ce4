//! Elastic resume of a Parquet stream: the rows a job of `W` ranks had still to serve in an
//! epoch, computed from the footers' row counts and the stream's shuffle (a pure function of the
//! seed, the epoch and each window's place), dealt to the `W'` ranks of the job that resumes it.
//!
//! Each old rank had served the first `k` batches of its stream (ranks step together; a rank
//! with fewer batches had served all of its own). What it had left of its share's first pass is
//! the rest: its windows' rows not yet served, window by window, in their shuffled order; rows
//! a pass of padding would have served again are not part of it. The rests of all old ranks,
//! rank by rank, are dealt to the new ranks in contiguous parts; each new rank serves its part
//! under the plan's [`Tail`] (`Uneven` as it is, `Pad` repeated from its first rows up to the
//! largest part, `Drop` cut to the smallest), a window of the old stream at a time.

use crate::data::error::DataError;
use crate::data::state::SourceState;
use crate::iteration::permutation;
use crate::load::parquet::row_group::RowGroup;
use crate::load::parquet::shard::{Rank, ShardPlan, Tail};

/// One read of a rest: row groups read together, and the rows to serve from them in order
/// (indices into their rows, concatenated in the order of `groups`).
#[derive(Clone, Debug)]
pub(crate) struct Chunk {
    pub(crate) groups: Vec<RowGroup>,
    pub(crate) rows: Vec<usize>,
}

/// How a stream is cut into batches: what its state's batch count means in rows.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Batching {
    pub(crate) batch: usize,
    pub(crate) window: usize,
    pub(crate) drop_last: bool,
}

impl Batching {
    /// The rows an epoch of `total` rows serves (all, or its full batches).
    fn served_in(&self, total: usize) -> usize {
        if self.drop_last {
            total - total % self.batch
        } else {
            total
        }
    }

    /// The rows `batches` batches served out of `total`.
    fn served(&self, batches: u64, total: usize) -> usize {
        usize::try_from(batches)
            .unwrap_or(usize::MAX)
            .saturating_mul(self.batch)
            .min(self.served_in(total))
    }
}

/// The rows at positions `skip..end` of `chunk` (whose first row is at position `at`), if any.
fn between(chunk: &Chunk, at: usize, skip: usize, end: usize) -> Option<Chunk> {
    let n = chunk.rows.len();
    let (lo, hi) = (skip.max(at), end.min(at + n));
    (lo < hi).then(|| Chunk {
        groups: chunk.groups.clone(),
        rows: chunk.rows[lo - at..hi - at].to_vec(),
    })
}

/// Rank `rank`'s part of the rest of `origin`'s epoch, among `world` ranks, by `plan`'s tail.
///
/// # Errors
/// [`DataError::Resume`] when a rank of the state's job cannot be rebuilt from the plan.
pub(crate) fn part_of_rest(
    plan: &ShardPlan,
    how: Batching,
    origin: &SourceState,
    rank: usize,
    world: usize,
) -> Result<Vec<Chunk>, DataError> {
    let rest = remaining(plan, how, origin)?;
    Ok(part(&rest, rank, world, plan.tail_policy()))
}

/// The rows every rank of `state`'s job had still to serve, rank by rank.
fn remaining(
    plan: &ShardPlan,
    how: Batching,
    state: &SourceState,
) -> Result<Vec<Chunk>, DataError> {
    let (world, epoch) = (state.world(), state.epoch());
    let mut left = Vec::new();
    match state.inner().first() {
        // The job was serving the rest of another job's epoch: its parts, less what it served.
        Some(origin) => {
            let before = remaining(plan, how, origin)?;
            for rank in 0..world {
                let own = part(&before, rank, world, plan.tail_policy());
                let total: usize = own.iter().map(|c| c.rows.len()).sum();
                let unique = contiguous_len(&before, rank, world).min(total);
                let (skip, end) = (
                    how.served(state.batches(), total),
                    how.served_in(total).min(unique),
                );
                let mut at = 0;
                for chunk in &own {
                    left.extend(between(chunk, at, skip, end));
                    at += chunk.rows.len();
                }
            }
        }
        None => {
            for rank in 0..world {
                let theirs = plan.for_rank(Rank::new(rank, world).map_err(|e| {
                    DataError::Resume(format!("the state's rank {rank} of {world}: {e}"))
                })?);
                let own = theirs.row_groups(epoch);
                let samples = theirs.samples(epoch);
                let (skip, end) = (how.served(state.batches(), samples), how.served_in(samples));
                // The first pass over the share, a window at a time, as the stream reads it:
                // the rows at positions `skip..end` of it (past `end`, the uninterrupted epoch
                // would not have served them: a dropped tail or a dropped last batch).
                let mut at = 0;
                for (w, window) in own.chunks(how.window.max(1)).enumerate() {
                    let n: usize = window.iter().map(|g| g.rows).sum();
                    if at + n > skip && at < end {
                        let order = match plan.seed() {
                            Some(seed) => permutation(
                                n,
                                seed ^ (w as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                                epoch,
                            ),
                            None => (0..n).collect(),
                        };
                        let chunk = Chunk {
                            groups: window.to_vec(),
                            rows: order,
                        };
                        left.extend(between(&chunk, at, skip, end));
                    }
                    at += n;
                }
            }
        }
    }
    Ok(left)
}

/// The rows of part `rank` of `world` of `rest` before any padding.
fn contiguous_len(rest: &[Chunk], rank: usize, world: usize) -> usize {
    let m: usize = rest.iter().map(|c| c.rows.len()).sum();
    let at = |r: usize| (r as u128 * m as u128 / world.max(1) as u128) as usize;
    at(rank + 1) - at(rank)
}

/// Part `rank` of `world` contiguous parts of the rows of `rest`, under `tail`.
fn part(rest: &[Chunk], rank: usize, world: usize, tail: Tail) -> Vec<Chunk> {
    let m: usize = rest.iter().map(|c| c.rows.len()).sum();
    let at = |r: usize| (r as u128 * m as u128 / world.max(1) as u128) as usize;
    let (start, end) = (at(rank), at(rank + 1));
    let mut own = slice(rest, start, end);
    let target = match tail {
        Tail::Uneven => end - start,
        // Parts differ by at most one row.
        Tail::Pad => m.div_ceil(world.max(1)),
        Tail::Drop => m / world.max(1),
    };
    let len = end - start;
    if target < len {
        own = slice(&own, 0, target);
    } else if target > len && len > 0 {
        let mut more = target - len;
        let first = own.clone();
        while more > 0 {
            let again = slice(&first, 0, more.min(len));
            more -= more.min(len);
            own.extend(again);
        }
    }
    own
}

/// The rows `start..end` of the chunks' rows, concatenated, as chunks.
fn slice(chunks: &[Chunk], start: usize, end: usize) -> Vec<Chunk> {
    let mut out = Vec::new();
    let mut at = 0;
    for c in chunks {
        out.extend(between(c, at, start, end));
        at += c.rows.len();
    }
    out
}
