//! Pylearn2's iteration modes by name, each an [`Order`] with a [`LastBatch`] policy.

use core::fmt;

use super::{LastBatch, Order};

/// A Pylearn2 iteration mode (`pylearn2/utils/iteration.py`).
///
/// Parse one from its Pylearn2 name with [`str::parse`]; an unknown name is an
/// [`IterationError::UnknownMode`](super::IterationError::UnknownMode). Each mode is an [`Order`] and a [`LastBatch`] policy, and
/// the mode's size rules follow from those:
///
/// | mode | order | last batch | batch size from `num_batches` |
/// | --- | --- | --- | --- |
/// | `sequential` | sequential | short | `ceil(n / num_batches)` |
/// | `shuffled_sequential` | shuffled | short | `ceil(n / num_batches)` |
/// | `batchwise_shuffled_sequential` | batchwise shuffled | short | `ceil(n / num_batches)` |
/// | `random_slice` | random slice | (always full) | required |
/// | `random_uniform` | random uniform | (always full) | required |
/// | `even_sequential` | sequential | drop | `floor(n / num_batches)` |
/// | `even_shuffled_sequential` | shuffled | drop | `floor(n / num_batches)` |
/// | `even_batchwise_shuffled_sequential` | batchwise shuffled | drop | `floor(n / num_batches)` |
///
/// ```
/// use batchspec_core::iteration::{IterationMode, LastBatch, Order};
///
/// let mode: IterationMode = "even_shuffled_sequential".parse()?;
/// assert_eq!(mode, IterationMode::EvenShuffledSequential);
/// assert_eq!((mode.order(), mode.last_batch()), (Order::Shuffled, LastBatch::Drop));
/// assert!("shuffled".parse::<IterationMode>().is_err());
/// # Ok::<(), batchspec_core::iteration::IterationError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IterationMode {
    /// `sequential`: contiguous batches in order, the last one possibly short.
    Sequential,
    /// `shuffled_sequential`: one permutation per epoch, cut into batches in order.
    ShuffledSequential,
    /// `batchwise_shuffled_sequential`: contiguous batches served in a random order.
    BatchwiseShuffledSequential,
    /// `random_slice`: contiguous batches with a random start, with replacement.
    RandomSlice,
    /// `random_uniform`: batches of indices drawn uniformly, with replacement.
    RandomUniform,
    /// `even_sequential`: `sequential` without the incomplete last batch.
    EvenSequential,
    /// `even_shuffled_sequential`: `shuffled_sequential` without the incomplete last batch.
    EvenShuffledSequential,
    /// `even_batchwise_shuffled_sequential`: `batchwise_shuffled_sequential` without the
    /// incomplete last batch.
    EvenBatchwiseShuffledSequential,
}

impl IterationMode {
    /// Every mode, in the order of [`IterationMode::NAMES`].
    pub const ALL: [IterationMode; 8] = [
        IterationMode::Sequential,
        IterationMode::ShuffledSequential,
        IterationMode::BatchwiseShuffledSequential,
        IterationMode::RandomSlice,
        IterationMode::RandomUniform,
        IterationMode::EvenSequential,
        IterationMode::EvenShuffledSequential,
        IterationMode::EvenBatchwiseShuffledSequential,
    ];

    /// The Pylearn2 name of every mode, in the order of [`IterationMode::ALL`].
    pub const NAMES: [&'static str; 8] = [
        "sequential",
        "shuffled_sequential",
        "batchwise_shuffled_sequential",
        "random_slice",
        "random_uniform",
        "even_sequential",
        "even_shuffled_sequential",
        "even_batchwise_shuffled_sequential",
    ];

    /// The Pylearn2 name of the mode, as [`FromStr`](core::str::FromStr) accepts it.
    pub const fn as_str(self) -> &'static str {
        match self {
            IterationMode::Sequential => "sequential",
            IterationMode::ShuffledSequential => "shuffled_sequential",
            IterationMode::BatchwiseShuffledSequential => "batchwise_shuffled_sequential",
            IterationMode::RandomSlice => "random_slice",
            IterationMode::RandomUniform => "random_uniform",
            IterationMode::EvenSequential => "even_sequential",
            IterationMode::EvenShuffledSequential => "even_shuffled_sequential",
            IterationMode::EvenBatchwiseShuffledSequential => "even_batchwise_shuffled_sequential",
        }
    }

    /// The order in which the mode visits samples.
    pub const fn order(self) -> Order {
        match self {
            IterationMode::Sequential | IterationMode::EvenSequential => Order::Sequential,
            IterationMode::ShuffledSequential | IterationMode::EvenShuffledSequential => {
                Order::Shuffled
            }
            IterationMode::BatchwiseShuffledSequential
            | IterationMode::EvenBatchwiseShuffledSequential => Order::BatchwiseShuffled,
            IterationMode::RandomSlice => Order::RandomSlice,
            IterationMode::RandomUniform => Order::RandomUniform,
        }
    }

    /// What the mode does with the incomplete last batch: [`LastBatch::Drop`] for the `even_*`
    /// modes, [`LastBatch::Short`] otherwise (the random modes never have one).
    pub const fn last_batch(self) -> LastBatch {
        match self {
            IterationMode::EvenSequential
            | IterationMode::EvenShuffledSequential
            | IterationMode::EvenBatchwiseShuffledSequential => LastBatch::Drop,
            _ => LastBatch::Short,
        }
    }

    /// Pylearn2's `stochastic`: whether the mode uses the seed.
    pub const fn is_stochastic(self) -> bool {
        self.order().is_stochastic()
    }

    /// Pylearn2's `fancy`: whether the mode's batches are index lists rather than ranges.
    pub const fn is_fancy(self) -> bool {
        matches!(self.order(), Order::Shuffled | Order::RandomUniform)
    }

    /// Pylearn2's `uniform_batch_size`: whether every batch has the batch size.
    pub const fn has_uniform_batch_size(self) -> bool {
        self.order().is_with_replacement() || matches!(self.last_batch(), LastBatch::Drop)
    }
}

impl fmt::Display for IterationMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
