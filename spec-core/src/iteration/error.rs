//! The error of index planning: every bad combination of sizes, modes, parts and devices.

use super::mode::IterationMode;
use super::shard_split::ShardSplit;
use super::{LastBatch, Order};
use std::str::FromStr;

/// What is wrong with the numbers given to a [`Schedule`](super::Schedule), a
/// [`Shard`](super::Shard) or a [`DeviceSplit`](super::DeviceSplit).
///
/// Every variant carries the numbers it complains about, and its message says what is wrong
/// with them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IterationError {
    /// A mode name that is not one of the Pylearn2 iteration modes.
    #[error("unknown iteration mode {name:?}; expected one of {}", IterationMode::NAMES.join(", "))]
    UnknownMode {
        /// The name as given.
        name: String,
    },

    /// The dataset has no samples.
    #[error("there are no samples to iterate over")]
    NoSamples,

    /// The shard of this worker has no samples.
    #[error(
        "part {part_index} of {num_parts} is empty: the {split} split of {num_samples} samples \
         gives it no samples"
    )]
    EmptyShard {
        /// Samples in the whole dataset.
        num_samples: usize,
        /// The part asked for.
        part_index: usize,
        /// The number of parts.
        num_parts: usize,
        /// How the samples were split.
        split: ShardSplit,
    },

    /// Neither a batch size nor a number of batches was given.
    #[error("{order} iteration needs a batch size or a number of batches, got neither")]
    MissingSize {
        /// The order of the schedule.
        order: Order,
    },

    /// A sampling order that needs a batch size got none.
    #[error("{order} iteration needs a batch size, got none")]
    MissingBatchSize {
        /// The order of the schedule.
        order: Order,
    },

    /// A sampling order that needs a number of batches got none.
    #[error("{order} iteration needs a number of batches, got none")]
    MissingNumBatches {
        /// The order of the schedule.
        order: Order,
    },

    /// A roll-over last batch needs a batch size to roll over.
    #[error("a roll-over last batch needs a batch size, got none")]
    RollOverWithoutBatchSize,

    /// A number of batches was given together with a roll-over last batch.
    #[error(
        "a number of batches ({num_batches}) cannot be combined with a roll-over last batch, \
         whose epochs differ in length"
    )]
    NumBatchesWithRollOver {
        /// The number of batches given.
        num_batches: usize,
    },

    /// An order and a last-batch policy that do not combine.
    #[error("{order} order cannot be combined with a {last_batch} last batch")]
    Incompatible {
        /// The order of the schedule.
        order: Order,
        /// The last-batch policy of the schedule.
        last_batch: LastBatch,
    },

    /// A number of batches of 0 was given.
    #[error("the number of batches must be at least 1, got 0")]
    ZeroBatches,

    /// More batches were asked for than the samples can fill (the last one possibly short).
    #[error(
        "{num_samples} samples can only provide {max} batches of size {batch_size}, \
         but {requested} were requested"
    )]
    TooManyBatches {
        /// Samples to iterate over.
        num_samples: usize,
        /// The batch size, given or derived.
        batch_size: usize,
        /// The most batches these samples can fill.
        max: usize,
        /// The number of batches asked for.
        requested: usize,
    },

    /// More batches of equal size were asked for than the samples can fill.
    #[error(
        "{num_samples} samples can only provide {max} batches of equal size {batch_size}, \
         but {requested} were requested"
    )]
    TooManyEvenBatches {
        /// Samples to iterate over.
        num_samples: usize,
        /// The batch size, given or derived (at least 1).
        batch_size: usize,
        /// The most full batches these samples can fill.
        max: usize,
        /// The number of batches asked for.
        requested: usize,
    },

    /// A batch size above the number of samples, with a last-batch policy that needs at least
    /// one full batch.
    #[error(
        "batch size {batch_size} is larger than the {num_samples} samples; a {last_batch} last \
         batch needs at least one full batch (only a short last batch allows this)"
    )]
    BatchLargerThanData {
        /// The batch size given.
        batch_size: usize,
        /// Samples to iterate over.
        num_samples: usize,
        /// The last-batch policy of the schedule.
        last_batch: LastBatch,
    },

    /// A random slice longer than the data.
    #[error("random_slice needs batch size {batch_size} to fit in the {num_samples} samples")]
    SliceLargerThanData {
        /// The batch size given.
        batch_size: usize,
        /// Samples to iterate over.
        num_samples: usize,
    },

    /// The number of samples served per epoch does not fit in a `usize`.
    #[error("batch size {batch_size} times {num_batches} batches overflows usize")]
    Overflow {
        /// The batch size given.
        batch_size: usize,
        /// The number of batches given.
        num_batches: usize,
    },

    /// Sharding into 0 parts.
    #[error("the number of parts must be at least 1, got 0")]
    ZeroParts,

    /// A part index outside `0..num_parts`.
    #[error(
        "part index {part_index} is out of range for {num_parts} parts (expected 0..{num_parts})"
    )]
    PartOutOfRange {
        /// The part asked for.
        part_index: usize,
        /// The number of parts.
        num_parts: usize,
    },

    /// Splitting a batch across 0 devices.
    #[error("cannot split a batch of {batch_size} samples across 0 devices")]
    ZeroDevices {
        /// The size of the batch to split.
        batch_size: usize,
    },

    /// Fewer samples in a batch than devices to split it across.
    #[error(
        "cannot split a batch of {batch_size} samples across {devices} devices: \
         every device needs at least one sample"
    )]
    BatchSmallerThanDevices {
        /// The size of the batch to split.
        batch_size: usize,
        /// The number of devices.
        devices: usize,
    },

    /// Buckets by length whose boundaries or batch sizes do not fit together.
    #[error("buckets by length: {reason}")]
    BucketSizes {
        /// What is wrong, in words.
        reason: String,
    },
}

impl FromStr for IterationMode {
    type Err = IterationError;

    /// Parses a Pylearn2 mode name exactly (case-sensitive, as Pylearn2 does).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        IterationMode::ALL
            .into_iter()
            .find(|mode| mode.as_str() == name)
            .ok_or_else(|| IterationError::UnknownMode {
                name: name.to_owned(),
            })
    }
}
