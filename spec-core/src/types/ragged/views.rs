//! Borrowed samples of a ragged leaf: [`RaggedView`], [`RaggedViewMut`], and [`SourceView`],
//! which says whether a record keeps a source dense or ragged.

use super::steps::{sample_view, sample_view_mut, step_len, step_shape};
use crate::types::batch::{Batch, BatchView};
use crate::types::error::SpecError;
use crate::types::space::{FreeValues, Space};
use core::marker::PhantomData;
use ndarray::{ArrayView, ArrayViewMut, IxDyn};

/// Some samples of a [`Ragged`] leaf, borrowed.
///
/// [`Ragged`]: super::Ragged
pub struct RaggedView<'a, S: Space> {
    pub(super) values: &'a [S::Elem],
    // Into `values` (in steps), one more than the samples; not rebased.
    pub(super) offsets: &'a [usize],
    pub(super) space: PhantomData<fn() -> S>,
}

/// Some samples of a [`Ragged`] leaf, borrowed mutably (from [`Dataset::rows_mut`]): the
/// values of each sample can be written in place, its length cannot change.
///
/// [`Dataset::rows_mut`]: crate::data::Dataset::rows_mut
/// [`Ragged`]: super::Ragged
pub struct RaggedViewMut<'a, S: Space> {
    pub(super) values: &'a mut [S::Elem],
    // Into `values` (in steps), one more than the samples; not rebased.
    pub(super) offsets: &'a [usize],
    pub(super) space: PhantomData<fn() -> S>,
}

impl<S: Space> Clone for RaggedView<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Space> Copy for RaggedView<'_, S> {}

impl<S: Space> RaggedViewMut<'_, S> {
    /// The samples, borrowed (for reading).
    pub fn view(&self) -> RaggedView<'_, S> {
        RaggedView {
            values: self.values,
            offsets: self.offsets,
            space: PhantomData,
        }
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.view().len()
    }

    /// `true` for no samples.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of steps of every sample.
    pub fn lengths(&self) -> impl Iterator<Item = usize> + '_ {
        self.view().lengths()
    }

    fn sample_range(&self, i: usize) -> Result<core::ops::Range<usize>, SpecError> {
        if i >= self.len() {
            return Err(SpecError::Row {
                row: i,
                position: 0,
                len: self.len(),
            });
        }
        let step = step_len::<S>();
        Ok(self.offsets[i] * step..self.offsets[i + 1] * step)
    }

    /// Sample `i` as a batch of one sample of `S`, mutably, for a space whose every value is
    /// valid ([`FreeValues`](crate::types::FreeValues)); a sequence of labels is written through
    /// [`RaggedViewMut::update`].
    ///
    /// # Errors
    /// [`SpecError::Row`] for `i` not below [`RaggedViewMut::len`].
    pub fn sample_mut(&mut self, i: usize) -> Result<ArrayViewMut<'_, S::Elem, S::Dim>, SpecError>
    where
        S: FreeValues,
    {
        let range = self.sample_range(i)?;
        let t = self.offsets[i + 1] - self.offsets[i];
        Ok(sample_view_mut::<S>(&mut self.values[range], t))
    }

    /// Changes sample `i` with `edit` (on a copy of it, as a batch of one sample of `S`) and
    /// keeps the change only if it is a sample of `S` of the same length (for a label space,
    /// every label below the number of labels).
    ///
    /// # Errors
    /// [`SpecError::Row`] for `i` not below [`RaggedViewMut::len`]; as [`Batch::update`]
    /// otherwise, and the sample is unchanged.
    pub fn update<F>(&mut self, i: usize, edit: F) -> Result<(), SpecError>
    where
        F: FnOnce(&mut ndarray::Array<S::Elem, S::Dim>),
    {
        let range = self.sample_range(i)?;
        let t = self.offsets[i + 1] - self.offsets[i];
        let mut sample =
            Batch::<S, _>::from_checked(sample_view_mut::<S>(&mut self.values[range], t));
        sample.update(edit)
    }
}

impl<'a, S: Space> RaggedView<'a, S> {
    /// The number of samples.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// `true` for no samples.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of steps of sample `i` (below [`RaggedView::len`]: the callers check).
    pub fn length(&self, i: usize) -> usize {
        self.offsets[i + 1] - self.offsets[i]
    }

    /// The number of steps of every sample.
    pub fn lengths(&self) -> impl Iterator<Item = usize> + use<'a, S> {
        self.offsets.windows(2).map(|w| w[1] - w[0])
    }

    /// The number of steps of the longest sample (0 for no samples).
    pub fn max_len(&self) -> usize {
        self.lengths().max().unwrap_or(0)
    }

    /// The values of sample `i` (below [`RaggedView::len`]: the callers check).
    pub(crate) fn sample_values(&self, i: usize) -> &'a [S::Elem] {
        let step = step_len::<S>();
        &self.values[self.offsets[i] * step..self.offsets[i + 1] * step]
    }

    /// Sample `i` as a batch of one sample of `S`, in `S`'s layout (below [`RaggedView::len`]:
    /// the callers check).
    pub fn sample_batch(&self, i: usize) -> ArrayView<'a, S::Elem, S::Dim> {
        sample_view::<S>(self.sample_values(i), self.length(i))
    }

    /// Sample `i` as an array of shape `(t, ..)`; `None` past the end.
    pub fn sample(&self, i: usize) -> Option<ArrayView<'a, S::Elem, IxDyn>> {
        if i >= self.len() {
            return None;
        }
        let mut shape = vec![self.length(i)];
        shape.extend(step_shape::<S>());
        ArrayView::from_shape(IxDyn(&shape), self.sample_values(i)).ok()
    }

    /// The samples padded with zeros to the longest, as a dense batch of `S`.
    pub fn to_padded(&self) -> Batch<S> {
        let t = self.max_len();
        let mut out = Batch::<S>::zeros(self.len(), t);
        if let Some(ta) = S::TIME_AXIS {
            for i in 0..self.len() {
                let mut dst = out
                    .array_mut_unchecked()
                    .slice_axis_mut(ndarray::Axis(S::BATCH_AXIS), (i..i + 1).into())
                    .slice_axis_move(ndarray::Axis(ta), (0..self.length(i)).into());
                dst.assign(&self.sample_batch(i));
            }
        }
        out
    }
}

/// Where a record keeps a source: a dense batch, or ragged samples.
pub enum SourceView<'a, S: Space> {
    /// A batch of samples of one shape.
    Dense(BatchView<'a, S>),
    /// Samples of different lengths.
    Ragged(RaggedView<'a, S>),
}

impl<'a, S: Space> SourceView<'a, S> {
    /// The number of samples.
    pub fn len(&self) -> usize {
        match self {
            SourceView::Dense(b) => b.len(),
            SourceView::Ragged(r) => r.len(),
        }
    }

    /// `true` for no samples.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
