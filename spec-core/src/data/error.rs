//! The errors of datasets and providers: rows, permutations, schedules and writes, and the
//! errors of the parts below that reach a dataset (data that does not fit the spec, a
//! conversion's output, a schedule that cannot be served).

use crate::data::iteration::IterationError;
use crate::format::error::FormatError;
use crate::types::error::SpecError;

/// What a dataset or a provider refuses.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DataError {
    /// A list given as a permutation is not one.
    #[error("the {given} indices given are not a permutation of 0..{len}")]
    NotAPermutation {
        /// The number of samples.
        len: usize,
        /// The number of indices given.
        given: usize,
    },

    /// A schedule made for another number of samples than the dataset's.
    #[error("the schedule is for {schedule} samples but the dataset has {dataset}")]
    ScheduleMismatch {
        /// The schedule's number of samples.
        schedule: usize,
        /// The dataset's.
        dataset: usize,
    },

    /// A write to a read-only dataset.
    #[error("the dataset is read-only")]
    ReadOnly,

    /// Data that does not fit the record spec, or a row past the end.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A conversion that cannot be run into the buffer given.
    #[error(transparent)]
    Format(FormatError),
    /// A batch schedule that cannot be served (sizes, modes, shards).
    #[error(transparent)]
    Iteration(#[from] IterationError),
}

/// A row past the end found by a gather lands in [`DataError::Spec`], as it does when the
/// dataset checks it itself.
impl From<FormatError> for DataError {
    fn from(e: FormatError) -> Self {
        match e {
            FormatError::Spec(e) => DataError::Spec(e),
            e => DataError::Format(e),
        }
    }
}
