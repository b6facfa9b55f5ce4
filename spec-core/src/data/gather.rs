//! Gathers: rows of a record written, converted, into a request's buffers (what providers do
//! for every batch), and rows of a record into a record of the same type (what a dataset's
//! selections do).
//!
//! [`GatherFrom`] and [`GatherSame`] are implemented by the derive, field by field: a request's
//! batch field reads its source from the record with one lookup (no search through a list), so
//! a request of hundreds of leaves costs no deeper trait solving than one of two.

use crate::format::FormatAs;
use crate::mapping::matching::{HasSource, ReadField, Reads};
use crate::types::batch::{Batch, BatchView};
use crate::types::elem::Element;
use crate::types::for_tuples;
use crate::types::source::Source;
use crate::types::space::{Null, Space};
use ndarray::{Data, DataMut};
use std::ops::Range;

/// A leaf of the space `S` that a gather can write into: a batch that owns or mutably borrows
/// its data.
pub trait LeafMut<S: Space> {
    /// The data, mutably.
    fn leaf_mut(&mut self) -> ndarray::ArrayViewMut<'_, S::Elem, S::Dim>;
    /// The number of samples.
    fn leaf_len(&self) -> usize;
}

impl<S: Space, D: DataMut<Elem = S::Elem>> LeafMut<S> for Batch<S, D> {
    fn leaf_mut(&mut self) -> ndarray::ArrayViewMut<'_, S::Elem, S::Dim> {
        self.array_mut().view_mut()
    }
    fn leaf_len(&self) -> usize {
        self.len()
    }
}

impl<S: Space, D: DataMut<Elem = S::Elem>> LeafMut<S> for &mut Batch<S, D> {
    fn leaf_mut(&mut self) -> ndarray::ArrayViewMut<'_, S::Elem, S::Dim> {
        self.array_mut().view_mut()
    }
    fn leaf_len(&self) -> usize {
        self.len()
    }
}

/// The data of a leaf of the space `S`, mutably borrowed: what a gather writes into.
pub type LeafTarget<'a, S> = ndarray::ArrayViewMut<'a, <S as Space>::Elem, <S as Space>::Dim>;

/// Writes the samples `rows` of `from`, formatted as `To`, into the samples `0..rows.len()` of
/// `target`, after zeroing the samples `zero` of `target` (padding rows).
#[inline]
pub fn gather_leaf<From: FormatAs<To>, To: Space>(
    from: BatchView<'_, From>,
    rows: &[usize],
    zero: Range<usize>,
    mut target: ndarray::ArrayViewMut<'_, To::Elem, To::Dim>,
) {
    if zero.start < zero.end {
        target
            .slice_axis_mut(ndarray::Axis(To::BATCH_AXIS), zero.into())
            .fill(<To::Elem as Element>::ZERO);
    }
    <From as FormatAs<To>>::gather_view_into(from.array_view(), rows, target);
}

/// A request `Self` whose every leaf can be gathered, converted, from the record `R`: the one
/// bound that providers name. The derive implements it for every struct whose batch fields own
/// or mutably borrow their data; its bounds are those of [`Reads`], so a mismatch is reported in
/// the words of the field.
#[diagnostic::on_unimplemented(
    message = "the request `{Self}` cannot be gathered from the record `{R}`",
    label = "every source of the request must be a field of the record, in a space that formats as the requested one; every batch field writable"
)]
pub trait GatherFrom<R>: Reads<R> {
    /// Writes the samples `rows` of `record` into the samples `0..rows.len()` of `out`, after
    /// zeroing the samples `zero` of `out` (padding rows).
    fn gather_from(out: &mut Self, record: &R, rows: &[usize], zero: Range<usize>);
}

/// A field of a request gathered from the source `K` of the record `R` (see
/// [`ReadField`]).
#[diagnostic::on_unimplemented(
    message = "the record `{R}` cannot fill a field of type `{Self}`",
    label = "the record has no such source, or holds it in a space that does not format as this one"
)]
pub trait GatherField<R, K>: ReadField<R, K> {
    /// Writes the rows into the field.
    fn gather_field(&mut self, record: &R, rows: &[usize], zero: Range<usize>);
}

impl<R, K, S, D> GatherField<R, K> for Batch<S, D>
where
    R: HasSource<K>,
    K: Source,
    S: Space,
    D: DataMut<Elem = S::Elem>,
    R::Space: FormatAs<S>,
{
    fn gather_field(&mut self, record: &R, rows: &[usize], zero: Range<usize>) {
        gather_leaf::<R::Space, S>(record.source_view(), rows, zero, self.leaf_mut());
    }
}

impl<R, K> GatherField<R, K> for Null {
    fn gather_field(&mut self, _: &R, _: &[usize], _: Range<usize>) {}
}

/// A spec whose samples can be gathered into a spec of the same type, leaf by leaf in order (a
/// dataset's `select`, `slice`, `permuted`): no lookup, so nested records and records that hold
/// a source twice are gathered too. The derive implements it.
#[diagnostic::on_unimplemented(
    message = "the samples of `{Self}` cannot be copied into a new `{Self}`",
    label = "every batch field must own its data (`Batch` or `ArcBatch`)"
)]
pub trait GatherSame {
    /// Writes the samples `rows` of `from` into the samples `at..at + rows.len()` of `out`
    /// (every row below `from`'s length and the range within `out`'s: the callers check).
    fn gather_same(out: &mut Self, from: &Self, rows: &[usize], at: usize);
}

impl<S: Space + FormatAs<S>, D: DataMut<Elem = S::Elem> + Data> GatherSame for Batch<S, D> {
    fn gather_same(out: &mut Self, from: &Self, rows: &[usize], at: usize) {
        let target = out
            .leaf_mut()
            .slice_axis_move(ndarray::Axis(S::BATCH_AXIS), (at..at + rows.len()).into());
        gather_leaf::<S, S>(from.view(), rows, 0..0, target);
    }
}

impl GatherSame for Null {
    fn gather_same(_: &mut Self, _: &Self, _: &[usize], _: usize) {}
}

macro_rules! gather_tuples {
    ($($t:ident $i:tt),+) => {
        impl<R, $($t: GatherFrom<R>),+> GatherFrom<R> for ($($t,)+) {
            fn gather_from(out: &mut Self, record: &R, rows: &[usize], zero: Range<usize>) {
                $( $t::gather_from(&mut out.$i, record, rows, zero.clone()); )+
            }
        }
        impl<R, K, $($t: GatherField<R, K>),+> GatherField<R, K> for ($($t,)+) {
            fn gather_field(&mut self, record: &R, rows: &[usize], zero: Range<usize>) {
                $( self.$i.gather_field(record, rows, zero.clone()); )+
            }
        }
        impl<$($t: GatherSame),+> GatherSame for ($($t,)+) {
            fn gather_same(out: &mut Self, from: &Self, rows: &[usize], at: usize) {
                $( $t::gather_same(&mut out.$i, &from.$i, rows, at); )+
            }
        }
    };
}
for_tuples!(gather_tuples);
