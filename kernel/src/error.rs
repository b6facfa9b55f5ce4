//! Why a kernel refused its work.

use core::fmt;

use crate::loops::MAX_RANK;

/// Why a permuted copy was refused. Nothing is written when an error is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KernelError {
    /// The source has more axes than [`MAX_RANK`].
    RankTooLarge {
        /// The rank of the source.
        rank: usize,
    },
    /// The axis order is not a permutation of `0..rank`.
    NotAPermutation {
        /// The axis order given.
        perm: Vec<usize>,
        /// The rank of the source.
        rank: usize,
    },
    /// The destination does not hold exactly as many elements as the source.
    LengthMismatch {
        /// Elements of the source.
        expected: usize,
        /// Elements of the destination.
        actual: usize,
    },
    /// A row to gather is not in the source ([`gather_rows`](crate::gather_rows)).
    RowOutOfRange {
        /// The row asked for.
        row: usize,
        /// The rows the source has.
        rows: usize,
    },
    /// A part of an [`Unfilled`](crate::Unfilled) vector was not written.
    Unwritten {
        /// The values its parts wrote.
        written: usize,
        /// The values of the vector.
        len: usize,
    },
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KernelError::RankTooLarge { rank } => {
                write!(
                    f,
                    "rank {rank} is above the largest supported rank {MAX_RANK}"
                )
            }
            KernelError::NotAPermutation { perm, rank } => {
                write!(f, "axis order {perm:?} is not a permutation of 0..{rank}")
            }
            KernelError::RowOutOfRange { row, rows } => {
                write!(f, "row {row} is not in a source of {rows} rows")
            }
            KernelError::Unwritten { written, len } => {
                write!(f, "{written} of the vector's {len} values were written")
            }
            KernelError::LengthMismatch { expected, actual } => write!(
                f,
                "destination holds {actual} elements but the source has {expected}"
            ),
        }
    }
}

impl std::error::Error for KernelError {}
