//! The errors of conversions at run time: an output buffer of the wrong shape, or kernel
//! arguments refused.

use crate::types::error::{Shape, SpecError};
use batchspec_kernel::KernelError;

/// A conversion that cannot be run with the buffers given.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FormatError {
    /// An output buffer has another shape than the formatted batch.
    #[error("{space}: the output has shape {actual}, the formatted batch {expected}")]
    OutputShape {
        /// The target space, in words.
        space: String,
        /// The shape of the formatted batch.
        expected: Shape,
        /// The shape of the output.
        actual: Shape,
    },

    /// A row past the end of the batch gathered from.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A layout conversion kernel refused its arguments.
    #[error(transparent)]
    Kernel(#[from] KernelError),
}
