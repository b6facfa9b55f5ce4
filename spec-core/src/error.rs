//! The crate-wide error users match on: one variant per part, each wrapping that part's own
//! error. Every fallible function returns the error of its part; `?` turns any of them into
//! [`Error`], and an error of a lower part that reached a higher one (a label out of range found
//! while loading) lands in the variant of the part that owns it.
//!
//! The shared pieces of the messages ([`Shape`](crate::types::Shape), [`Position`](crate::types::Position))
//! live with the vocabulary.

use crate::buffer::BufferError;
use crate::data::error::DataError;
use crate::iteration::IterationError;
use crate::load::error::LoadError;
use crate::mapping::error::MappingError;
use crate::types::error::SpecError;
use crate::types::format_as::FormatError;
use crate::view::error::ViewError;
use batchspec_kernel::KernelError;

/// Everything that can go wrong in batchspec, by the part that found it.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::{Error, types::SpecError};
///
/// fn build() -> Result<Batch<Index<10>>, Error> {
///     Ok(Batch::new(ndarray::array![[3i64], [10]])?)
/// }
/// assert!(matches!(build(), Err(Error::Spec(SpecError::Label { .. }))));
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// Data that does not fit its space or spec (see [`SpecError`]).
    #[error(transparent)]
    Spec(SpecError),
    /// A layout conversion kernel refused its arguments.
    #[error(transparent)]
    Kernel(KernelError),
    /// A conversion that cannot be run into the buffer given.
    #[error(transparent)]
    Format(FormatError),
    /// A buffer layout or arena operation that cannot be done.
    #[error(transparent)]
    Buffer(BufferError),
    /// A flat list that a mapping cannot nest.
    #[error(transparent)]
    Mapping(MappingError),
    /// What a dataset or a provider refuses.
    #[error(transparent)]
    Data(DataError),
    /// A batch schedule that cannot be served (sizes, modes, shards).
    #[error(transparent)]
    Iteration(IterationError),
    /// A file that does not fit the spec, or a source a loader has nothing for.
    #[error(transparent)]
    Load(LoadError),
    /// What a view refuses.
    #[error(transparent)]
    View(ViewError),
}

impl From<SpecError> for Error {
    fn from(e: SpecError) -> Self {
        Error::Spec(e)
    }
}

impl From<KernelError> for Error {
    fn from(e: KernelError) -> Self {
        Error::Kernel(e)
    }
}

impl From<FormatError> for Error {
    fn from(e: FormatError) -> Self {
        match e {
            FormatError::Kernel(e) => Error::Kernel(e),
            FormatError::Spec(e) => Error::Spec(e),
            e => Error::Format(e),
        }
    }
}

impl From<BufferError> for Error {
    fn from(e: BufferError) -> Self {
        match e {
            BufferError::Spec(e) => Error::Spec(e),
            e => Error::Buffer(e),
        }
    }
}

impl From<MappingError> for Error {
    fn from(e: MappingError) -> Self {
        Error::Mapping(e)
    }
}

impl From<IterationError> for Error {
    fn from(e: IterationError) -> Self {
        Error::Iteration(e)
    }
}

impl From<DataError> for Error {
    fn from(e: DataError) -> Self {
        match e {
            DataError::Spec(e) => e.into(),
            DataError::Format(e) => e.into(),
            DataError::Iteration(e) => e.into(),
            e => Error::Data(e),
        }
    }
}

impl From<LoadError> for Error {
    fn from(e: LoadError) -> Self {
        match e {
            LoadError::Data(e) => e.into(),
            e => Error::Load(e),
        }
    }
}

impl From<ViewError> for Error {
    fn from(e: ViewError) -> Self {
        match e {
            ViewError::Spec(e) => e.into(),
            ViewError::Format(e) => e.into(),
            e => Error::View(e),
        }
    }
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
