//! Datasets: the struct-of-arrays storage of a record spec, after the Pylearn dataset proposal.
//!
//! A [`Dataset<R>`] is a record `R` whose leaves hold every sample (all leaves the same number:
//! a dataset here is a table; a sample's sequence may have its own length, in a
//! [`Ragged`] leaf).
//! Fields are the record's own fields, so access is typed and named by the struct:
//! `dataset.fields().image`. Selection by range or by an index list gathers the rows into a new
//! record. Writes need `&mut Dataset` (the Pylearn dataset proposal's writes): values through
//! [`Dataset::fields_mut`], rows in place through [`Dataset::rows_mut`] and
//! [`Dataset::sample_mut`], a selection through
//! [`Dataset::write_rows`], arithmetic with a sample or a record through [`Dataset::apply`].
//! A dataset shared (`&Dataset`, `Arc<Dataset>`: what providers and prefetching take) is
//! read-only by ownership: nobody holding it can write.
//!
//! One concept per file: the dataset and its reads here, selections (`select.rs`), writes
//! (`write.rs`), projections (`project.rs`), the allocation of leaves (`alloc.rs`) and their
//! pages (`memory.rs`). Loading a dataset from files is the `load` part's
//! ([`Dataset::load`]).

mod alloc;
mod memory;
mod project;
mod select;
mod write;

pub(crate) use alloc::gather_owned;
pub use alloc::{AllocFlat, SpareBuffers};
pub use memory::{HUGE_PAGE_LEAF, LeafMemory};
pub use project::Projection;
pub use select::Minibatches;
pub use write::{ApplyLeaves, ApplyRecord, FieldsMut};

use crate::data::error::DataError;
use crate::types::error::SpecError;
use crate::types::spec::{DataSpec, Described};
use std::ops::Range;

/// The samples of a record spec, stored leaf by leaf.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::Dataset;
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "features")]
///     x: Batch<Vector<2>>,
///     #[spec(source = "targets")]
///     y: Batch<Labels<3>>,
/// }
/// let mut ds = Dataset::new(Record {
///     x: Batch::new(ndarray::array![[0., 1.], [2., 3.], [4., 5.]])?,
///     y: Batch::new(ndarray::array![0i64, 1, 2])?,
/// })?;
/// assert_eq!(ds.len(), 3);
/// assert_eq!(ds.fields().y.array()[2], 2);
/// let picked = ds.select(&[2, 0])?;
/// assert_eq!(picked.x.array(), &ndarray::array![[4., 5.], [0., 1.]]);
/// ds.fields_mut().x.array_mut().mapv_inplace(|v| v * 2.0); // in-place arithmetic on a field
/// assert_eq!(ds.fields().x.array()[[2, 1]], 10.0);
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct Dataset<R> {
    record: R,
    len: usize,
    /// Why the fields do not form a dataset, when a write through [`Dataset::fields_mut`] left
    /// them holding different numbers of samples: every row operation refuses until they agree.
    invalid: Option<SpecError>,
    /// A [`FieldsMut`] guard was made and has not been dropped: it was leaked, since it borrows
    /// the dataset while it lives. Every row operation refuses until a guard is dropped.
    unchecked: bool,
}

impl<R: DataSpec> Dataset<R> {
    /// A dataset of the samples of `record`.
    ///
    /// # Errors
    /// [`SpecError::BatchSize`] when the leaves hold different numbers of samples.
    pub fn new(record: R) -> Result<Self, DataError> {
        let len = record.validate()?;
        Ok(Dataset {
            record,
            len,
            invalid: None,
            unchecked: false,
        })
    }

    /// The number of samples, or why the fields do not form a dataset (after a write through
    /// [`Dataset::fields_mut`] that left them holding different numbers of samples, or whose
    /// guard was leaked).
    ///
    /// # Errors
    /// [`DataError::Invalidated`], [`DataError::FieldsUnchecked`].
    pub fn check(&self) -> Result<usize, DataError> {
        if self.unchecked {
            return Err(DataError::FieldsUnchecked);
        }
        match &self.invalid {
            Some(e) => Err(DataError::Invalidated(e.clone())),
            None => Ok(self.len),
        }
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when the dataset has no samples.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The fields, typed and named by the record struct.
    pub fn fields(&self) -> &R {
        &self.record
    }

    /// The record, taken out of the dataset (its leaves hold every sample).
    pub fn into_fields(self) -> R {
        self.record
    }

    /// The record, giving up the dataset.
    pub fn into_record(self) -> R {
        self.record
    }

    /// The samples in `range` as views, without copying: the record's fields by name (its
    /// generated `<Record>Mapped` struct, and each nested spec's), a
    /// [`BatchView`](crate::types::batch::BatchView) (or a [`RaggedView`](crate::types::RaggedView)) at
    /// each leaf.
    ///
    /// # Errors
    /// [`SpecError::Row`] for a range past the end.
    pub fn view(
        &self,
        range: Range<usize>,
    ) -> Result<crate::types::spec::ViewsOf<'_, R>, DataError> {
        self.check_range(&range)?;
        Ok(self.record.node_views(range))
    }

    /// Sample `i` as views of one sample, without copying (see [`Dataset::view`]; [`Dataset::get`]
    /// gives it as a record of one sample instead).
    ///
    /// # Errors
    /// [`SpecError::Row`] for `i` not below [`Dataset::len`].
    pub fn sample(&self, i: usize) -> Result<crate::types::spec::ViewsOf<'_, R>, DataError> {
        // `usize::MAX..usize::MAX` is past the end like any other `i..i + 1` there.
        self.view(i..i.saturating_add(1))
    }

    /// Every leaf with its source and its shape for the whole dataset.
    pub fn describe(&self) -> Vec<Described> {
        R::describe(self.len)
    }

    fn check_range(&self, range: &Range<usize>) -> Result<(), DataError> {
        self.check()?;
        if range.start > range.end {
            return Err(SpecError::Reversed {
                start: range.start,
                end: range.end,
            }
            .into());
        }
        if range.end > self.len {
            // The first row asked for that is not there.
            return Err(SpecError::Row {
                row: range.start.max(self.len),
                position: range.start.max(self.len) - range.start,
                len: self.len,
            }
            .into());
        }
        Ok(())
    }

    fn check_rows(&self, rows: &[usize]) -> Result<(), DataError> {
        self.check()?;
        match rows.iter().position(|&r| r >= self.len) {
            Some(p) => Err(SpecError::Row {
                row: rows[p],
                position: p,
                len: self.len,
            }
            .into()),
            None => Ok(()),
        }
    }
}
