//! One planned batch: the sample indices it gathers, its real-sample count and its padding.

use std::borrow::Cow;
use std::iter::FusedIterator;
use std::ops::Range;
use std::slice;

/// The sample indices of one batch, in the order the batch's rows take them.
///
/// A contiguous range lets a provider copy a block of rows; a list asks for a gather. Lists are
/// borrowed from an [`Epoch`](super::Epoch)'s buffers when lent by
/// [`Epoch::next_batch`](super::Epoch::next_batch), or owned when produced by the iterator.
///
/// Two `Indices` are equal when they name the same indices in the same order, whatever their
/// representation.
#[derive(Debug, Clone)]
pub enum Indices<'a> {
    /// The indices `start..end`, in increasing order.
    Range(Range<usize>),
    /// The indices as a list (possibly with repeats, for with-replacement orders).
    List(Cow<'a, [usize]>),
}

impl<'a> Indices<'a> {
    /// The number of indices.
    pub fn len(&self) -> usize {
        match self {
            Indices::Range(range) => range.len(),
            Indices::List(list) => list.len(),
        }
    }

    /// Whether there are no indices.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `position`-th index, if there is one.
    pub fn get(&self, position: usize) -> Option<usize> {
        match self {
            Indices::Range(range) => range.clone().nth(position),
            Indices::List(list) => list.get(position).copied(),
        }
    }

    /// The range, if the indices are a [`Indices::Range`].
    pub fn as_range(&self) -> Option<Range<usize>> {
        match self {
            Indices::Range(range) => Some(range.clone()),
            Indices::List(_) => None,
        }
    }

    /// The list, if the indices are a [`Indices::List`].
    pub fn as_slice(&self) -> Option<&[usize]> {
        match self {
            Indices::Range(_) => None,
            Indices::List(list) => Some(list),
        }
    }

    /// The indices, one by one.
    pub fn iter(&self) -> IndicesIter<'_> {
        match self {
            Indices::Range(range) => IndicesIter::Range(range.clone()),
            Indices::List(list) => IndicesIter::List(list.iter()),
        }
    }

    /// Appends the indices to `out` (which the caller may reuse across batches).
    pub fn extend_into(&self, out: &mut Vec<usize>) {
        match self {
            Indices::Range(range) => out.extend(range.clone()),
            Indices::List(list) => out.extend_from_slice(list),
        }
    }

    /// The indices as a new vector.
    pub fn to_vec(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.len());
        self.extend_into(&mut out);
        out
    }

    /// The same indices, owning their list.
    pub fn into_owned(self) -> Indices<'static> {
        match self {
            Indices::Range(range) => Indices::Range(range),
            Indices::List(list) => Indices::List(Cow::Owned(list.into_owned())),
        }
    }
}

impl PartialEq for Indices<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Indices::Range(a), Indices::Range(b)) => a == b || (a.is_empty() && b.is_empty()),
            _ => self.len() == other.len() && self.iter().eq(other.iter()),
        }
    }
}

impl Eq for Indices<'_> {}

impl<'s> IntoIterator for &'s Indices<'_> {
    type Item = usize;
    type IntoIter = IndicesIter<'s>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// An iterator over the [`Indices`] of a batch.
#[derive(Debug, Clone)]
pub enum IndicesIter<'s> {
    /// Over a range.
    Range(Range<usize>),
    /// Over a list.
    List(slice::Iter<'s, usize>),
}

impl Iterator for IndicesIter<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        match self {
            IndicesIter::Range(range) => range.next(),
            IndicesIter::List(list) => list.next().copied(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            IndicesIter::Range(range) => range.size_hint(),
            IndicesIter::List(list) => list.size_hint(),
        }
    }
}

impl ExactSizeIterator for IndicesIter<'_> {}

impl FusedIterator for IndicesIter<'_> {}

/// One batch of an epoch: which samples it gathers, how many are real, how much is padding.
///
/// The batch has [`size`](IndexBatch::size) rows: `count_samples + pad`. Its
/// [`indices`](IndexBatch::indices) fill the first rows; any rows after them
/// ([`fill_rows`](IndexBatch::fill_rows)) are filled with a padding value by the consumer.
///
/// | policy | indices | `count_samples` | `pad` |
/// | --- | --- | --- | --- |
/// | short, drop, random | the batch's samples | `indices.len()` | 0 |
/// | [`Pad`](super::LastBatch::Pad) | the real samples only | `indices.len()` | `batch_size - count_samples` |
/// | [`RollOver`](super::LastBatch::RollOver) | real samples, then wrapped ones | real ones | wrapped ones |
///
/// A model that must not learn from or report on padding trims its output to the first
/// [`count_samples`](IndexBatch::count_samples) rows (MXNet's `predict` does, its `fit` does
/// not).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexBatch<'a> {
    pub(crate) indices: Indices<'a>,
    pub(crate) count: usize,
    pub(crate) pad: usize,
}

impl<'a> IndexBatch<'a> {
    /// The sample indices whose rows fill the start of the batch.
    pub fn indices(&self) -> &Indices<'a> {
        &self.indices
    }

    /// The sample indices, taken out of the batch.
    pub fn into_indices(self) -> Indices<'a> {
        self.indices
    }

    /// The number of real samples at the start of the batch (MXNet `count_samples`).
    pub fn count_samples(&self) -> usize {
        self.count
    }

    /// The number of rows after the real samples (MXNet `pad`): rolled-over samples, or rows to
    /// fill with a padding value.
    pub fn pad(&self) -> usize {
        self.pad
    }

    /// The number of rows of the batch: `count_samples() + pad()`.
    pub fn size(&self) -> usize {
        self.count + self.pad
    }

    /// Whether the batch has padding rows.
    pub fn is_padded(&self) -> bool {
        self.pad > 0
    }

    /// The rows no index fills, which the consumer fills with a padding value
    /// (non-empty only for [`LastBatch::Pad`](super::LastBatch::Pad)).
    pub fn fill_rows(&self) -> Range<usize> {
        self.indices.len()..self.size()
    }

    /// The same batch, owning its indices.
    pub fn into_owned(self) -> IndexBatch<'static> {
        IndexBatch {
            indices: self.indices.into_owned(),
            count: self.count,
            pad: self.pad,
        }
    }
}
