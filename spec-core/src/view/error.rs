//! The errors of views: reading before a put, and gradients that do not match what was read.

use crate::types::error::SpecError;
use crate::types::format_as::FormatError;

/// What a view refuses.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ViewError {
    /// A view was read before any batch was put.
    #[error("the view holds no batch yet: put one first")]
    ViewEmpty,

    /// A gradient was put for a form the consumer did not get since the last put.
    #[error("a gradient was put as {form}, a form not got since the last put")]
    GradientWithoutGet {
        /// The form, in words.
        form: String,
    },

    /// Class names for a space that has no labels, or not one name per label.
    #[error("{given} class names for a view of {space}: give one name per label of an index space")]
    Classes {
        /// The base's space, in words.
        space: String,
        /// The number of names given.
        given: usize,
    },

    /// A record put as a replacement holds another number of samples than the view's.
    #[error("the replacement holds {given} samples, the view {expected}")]
    ReplacementLength {
        /// The view's samples.
        expected: usize,
        /// The replacement's.
        given: usize,
    },

    /// A row past the end of the viewed batch.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A gradient or an output buffer with another shape than the view's.
    #[error(transparent)]
    Format(FormatError),
}

/// A row past the end found by a gather lands in [`ViewError::Spec`], as it does when the
/// view checks it itself.
impl From<FormatError> for ViewError {
    fn from(e: FormatError) -> Self {
        match e {
            FormatError::Spec(e) => ViewError::Spec(e),
            e => ViewError::Format(e),
        }
    }
}
