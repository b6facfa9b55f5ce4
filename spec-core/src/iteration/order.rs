//! The order in which an epoch visits samples: in sequence, shuffled, or drawn at random.

use core::fmt;

/// The order in which an epoch visits the samples of a [`Schedule`](super::Schedule).
///
/// The first three orders visit every sample at most once per epoch and leave the incomplete
/// last batch to the [`LastBatch`](super::LastBatch) policy. The two random orders draw with
/// replacement, always serve full batches, need both a batch size and a number of batches, and
/// ignore the last-batch policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Order {
    /// Samples in index order; batches are contiguous ranges.
    Sequential,
    /// A fresh permutation of the samples every epoch; batches are index lists.
    Shuffled,
    /// Contiguous batches, served in a fresh random order every epoch.
    BatchwiseShuffled,
    /// Each batch is a contiguous range whose start is drawn uniformly from `0..=n - batch_size`
    /// (with replacement).
    RandomSlice,
    /// Each batch is `batch_size` indices drawn uniformly from `0..n` (with replacement).
    RandomUniform,
}

impl Order {
    /// Whether the order uses the seed (Pylearn2's `stochastic`).
    pub const fn is_stochastic(self) -> bool {
        !matches!(self, Order::Sequential)
    }

    /// Whether the order draws with replacement (and so ignores the last-batch policy).
    pub const fn is_with_replacement(self) -> bool {
        matches!(self, Order::RandomSlice | Order::RandomUniform)
    }

    /// The lowercase name used in messages: `sequential`, `shuffled`, `batchwise_shuffled`,
    /// `random_slice` or `random_uniform`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Order::Sequential => "sequential",
            Order::Shuffled => "shuffled",
            Order::BatchwiseShuffled => "batchwise_shuffled",
            Order::RandomSlice => "random_slice",
            Order::RandomUniform => "random_uniform",
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
