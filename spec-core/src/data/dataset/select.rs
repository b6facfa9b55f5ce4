//! Selections: a dataset's samples by index list or range gathered into a new record
//! ([`Dataset::select`], [`Dataset::slice`], [`Dataset::permuted`], methods of the dataset's
//! module), consecutive [`Minibatches`], and the rows of a [`SpecView`](crate::view::SpecView)
//! (dp's `index` and `sub`), which gather the same way.

use crate::data::dataset::Dataset;
use crate::data::dataset::alloc::AllocFlat;
use crate::data::error::DataError;
use crate::data::gather::GatherSame;
use crate::types::elem::Element;
use crate::types::error::SpecError;
use crate::types::spec::{DataSpec, FlatOf};

/// A dataset's minibatches (the proposal's `d._minibatches(batch_size=5)`): consecutive
/// samples, the last minibatch shorter; an iterator, and indexable (`mb.get(0)` is
/// `d.slice(0..5)`).
pub struct Minibatches<'d, R> {
    pub(super) dataset: &'d Dataset<R>,
    pub(super) size: usize,
    pub(super) next: usize,
    /// A size of 0 is reported once by the iterator.
    pub(super) refused: bool,
}

impl<R: DataSpec + GatherSame> Minibatches<'_, R>
where
    FlatOf<R>: AllocFlat,
{
    /// The number of minibatches (0 for a size of 0).
    pub fn len(&self) -> usize {
        if self.size == 0 {
            0
        } else {
            self.dataset.len.div_ceil(self.size)
        }
    }

    /// `true` when there is no minibatch.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Minibatch `i`, as a new record.
    ///
    /// # Errors
    /// [`DataError::MinibatchSize`] for a size of 0; [`SpecError::Row`] for `i` not below
    /// [`Minibatches::len`].
    pub fn get(&self, i: usize) -> Result<R, DataError> {
        if self.size == 0 {
            return Err(DataError::MinibatchSize);
        }
        let start = i.saturating_mul(self.size);
        if i >= self.len() {
            return Err(SpecError::Row {
                row: i,
                position: 0,
                len: self.len(),
            }
            .into());
        }
        self.dataset
            .slice(start..start.saturating_add(self.size).min(self.dataset.len))
    }
}

impl<R: DataSpec + GatherSame> Iterator for Minibatches<'_, R>
where
    FlatOf<R>: AllocFlat,
{
    type Item = Result<R, DataError>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.size == 0 {
            return (!std::mem::replace(&mut self.refused, true))
                .then_some(Err(DataError::MinibatchSize));
        }
        if self.next >= self.len() {
            return None;
        }
        self.next += 1;
        Some(self.get(self.next - 1))
    }
}

/// A [`SpecView`](crate::view::SpecView)'s rows (dp's `index` and `sub`): they gather with the
/// dataset's gathers, so they are written here.
impl<R: DataSpec + GatherSame, G: Element> crate::view::SpecView<R, G>
where
    FlatOf<R>: AllocFlat,
{
    /// A view of the samples `indices` of the record (any order, repeats allowed), put into
    /// `out` (dp's `index`).
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::view::SpecView;
    ///
    /// #[derive(DataSpec)]
    /// struct Pair {
    ///     #[spec(source = "x")]
    ///     x: Batch<Vector<2>>,
    ///     #[spec(source = "y")]
    ///     y: Batch<Labels<10>>,
    /// }
    /// let mut view = SpecView::<Pair>::new();
    /// view.put(Pair {
    ///     x: Batch::new(ndarray::array![[0f32, 1.], [2., 3.], [4., 5.]])?,
    ///     y: Batch::new(ndarray::array![7i64, 8, 9])?,
    /// });
    /// let mut picked = SpecView::<Pair>::new();
    /// view.index_into(&[2, 0], &mut picked)?;
    /// assert_eq!(picked.base()?.y.array(), &ndarray::array![9i64, 7]);
    /// view.sub_into(1, 3, &mut picked)?;
    /// assert_eq!(picked.base()?.x.array(), &ndarray::array![[2f32, 3.], [4., 5.]]);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`ViewError::ViewEmpty`](crate::view::ViewError::ViewEmpty) before the first put;
    /// [`SpecError::Row`] for an index past the end.
    pub fn index_into(
        &self,
        indices: &[usize],
        out: &mut crate::view::SpecView<R, G>,
    ) -> Result<(), crate::view::ViewError> {
        let base = self
            .base
            .as_ref()
            .ok_or(crate::view::ViewError::ViewEmpty)?;
        let len = base.validate()?;
        if let Some(p) = indices.iter().position(|&r| r >= len) {
            return Err(SpecError::Row {
                row: indices[p],
                position: p,
                len,
            }
            .into());
        }
        let mut record = R::nest(FlatOf::<R>::alloc(indices.len(), 0));
        R::gather_same(&mut record, base, indices, 0);
        out.put(record);
        Ok(())
    }

    /// A view of the samples `start..stop` of the record, put into `out` (dp's `sub`).
    ///
    /// # Errors
    /// As [`SpecView::index_into`](crate::view::SpecView::index_into); [`SpecError::Reversed`]
    /// when `start > stop`.
    pub fn sub_into(
        &self,
        start: usize,
        stop: usize,
        out: &mut crate::view::SpecView<R, G>,
    ) -> Result<(), crate::view::ViewError> {
        if start > stop {
            return Err(SpecError::Reversed { start, end: stop }.into());
        }
        let rows: Vec<usize> = (start..stop).collect();
        self.index_into(&rows, out)
    }
}
