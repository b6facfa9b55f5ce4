//! Sharding for multi-worker training: part `part_index` of `num_parts` contiguous parts.

use std::ops::Range;

use super::IterationError;
use super::shard_split::ShardSplit;

/// Part `part_index` of `num_parts`: the contiguous samples one worker of a multi-worker job
/// iterates over (MXNet `part_index` / `num_parts`).
///
/// ```
/// use batchspec_core::iteration::{Shard, ShardSplit};
///
/// let floor: Vec<_> = (0..3).map(|i| Shard::new(i, 3).map(|s| s.range(10))).collect::<Result<_, _>>()?;
/// assert_eq!(floor, [0..3, 3..6, 6..10]);
///
/// let ceil: Vec<_> = (0..3)
///     .map(|i| Shard::with_split(i, 3, ShardSplit::CeilStep).map(|s| s.range(10)))
///     .collect::<Result<_, _>>()?;
/// assert_eq!(ceil, [0..4, 4..8, 8..10]);
///
/// assert!(Shard::new(3, 3).is_err());
/// # Ok::<(), batchspec_core::iteration::IterationError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    part_index: usize,
    num_parts: usize,
    split: ShardSplit,
}

impl Shard {
    /// Part `part_index` of `num_parts`, with the [`ShardSplit::Floor`] split.
    ///
    /// # Errors
    ///
    /// [`IterationError::ZeroParts`] if `num_parts` is 0, [`IterationError::PartOutOfRange`] if
    /// `part_index >= num_parts`.
    pub fn new(part_index: usize, num_parts: usize) -> Result<Self, IterationError> {
        Self::with_split(part_index, num_parts, ShardSplit::Floor)
    }

    /// Part `part_index` of `num_parts`, with the given split.
    ///
    /// # Errors
    ///
    /// As [`Shard::new`].
    pub fn with_split(
        part_index: usize,
        num_parts: usize,
        split: ShardSplit,
    ) -> Result<Self, IterationError> {
        if num_parts == 0 {
            return Err(IterationError::ZeroParts);
        }
        if part_index >= num_parts {
            return Err(IterationError::PartOutOfRange {
                part_index,
                num_parts,
            });
        }
        Ok(Shard {
            part_index,
            num_parts,
            split,
        })
    }

    /// The whole dataset: part 0 of 1.
    pub const fn whole() -> Self {
        Shard {
            part_index: 0,
            num_parts: 1,
            split: ShardSplit::Floor,
        }
    }

    /// The index of this part, in `0..num_parts`.
    pub const fn part_index(&self) -> usize {
        self.part_index
    }

    /// The number of parts.
    pub const fn num_parts(&self) -> usize {
        self.num_parts
    }

    /// How the samples are split.
    pub const fn split(&self) -> ShardSplit {
        self.split
    }

    /// The samples of this part, out of `num_samples`.
    pub fn range(&self, num_samples: usize) -> Range<usize> {
        let (i, k) = (self.part_index as u128, self.num_parts as u128);
        let n = num_samples as u128;
        // Every bound below is at most `n`, so converting back to `usize` cannot truncate.
        match self.split {
            ShardSplit::Floor => (n * i / k) as usize..(n * (i + 1) / k) as usize,
            ShardSplit::CeilStep => {
                let step = n.div_ceil(k);
                (step * i).min(n) as usize..(step * (i + 1)).min(n) as usize
            }
        }
    }
}

impl Default for Shard {
    /// The whole dataset: part 0 of 1.
    fn default() -> Self {
        Shard::whole()
    }
}
