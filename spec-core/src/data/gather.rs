//! Gathers: rows of a record written, converted, into a request's buffers (what providers do
//! for every batch), and rows of a record into a record of the same type (what a dataset's
//! selections do).
//!
//! [`GatherFrom`] and [`GatherSame`] are implemented by the derive, field by field: a request's
//! batch field reads its source from the record with one lookup (no search through a list), so
//! a request of hundreds of leaves costs no deeper trait solving than one of two.

use crate::data::error::DataError;
use crate::format::FormatAs;
use crate::mapping::matching::{HasSource, ReadField, Reads};
use crate::types::batch::{Batch, BatchView};
use crate::types::elem::Element;
use crate::types::for_tuples;
use crate::types::ragged::{Ragged, SequenceSpace, SourceView};
use crate::types::source::Source;
use crate::types::space::{Null, Space};
use ndarray::{
    Array, ArrayBase, Axis, Data, DataMut, Dimension, OwnedArcRepr, OwnedRepr, ViewRepr,
};
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

/// The storage of a batch that a gather writes into: owned memory can take another shape (the
/// time axis of a sequence batch follows the samples it holds), a borrowed view cannot.
pub trait Regrow: DataMut
where
    Self::Elem: Element,
{
    /// Makes `a` zeros of shape `shape`, keeping its memory where it suffices; `false`, with
    /// `a` unchanged, for storage that cannot change its shape.
    fn regrow<D: Dimension>(a: &mut ArrayBase<Self, D>, shape: D) -> bool;
}

impl<E: Element> Regrow for OwnedRepr<E> {
    fn regrow<D: Dimension>(a: &mut ArrayBase<Self, D>, shape: D) -> bool {
        let empty = Array::from_shape_vec(D::zeros(shape.ndim()), Vec::new())
            .unwrap_or_else(|_| unreachable!("a shape of zeros holds no values"));
        let (mut values, _) = std::mem::replace(a, empty).into_raw_vec_and_offset();
        values.clear();
        values.resize(shape.size(), E::ZERO);
        *a = Array::from_shape_vec(shape, values)
            .unwrap_or_else(|_| unreachable!("the values were sized for the shape"));
        true
    }
}

impl<E: Element> Regrow for OwnedArcRepr<E> {
    fn regrow<D: Dimension>(a: &mut ArrayBase<Self, D>, shape: D) -> bool {
        *a = Array::from_elem(shape, E::ZERO).into_shared();
        true
    }
}

impl<E: Element> Regrow for ViewRepr<&mut E> {
    fn regrow<D: Dimension>(_: &mut ArrayBase<Self, D>, _: D) -> bool {
        false
    }
}

/// Storage that owns its memory (`Batch`, `ArcBatch`): a gather can always give it the shape
/// it needs.
pub trait OwnedData: Regrow + Data
where
    Self::Elem: Element,
{
}
impl<E: Element> OwnedData for OwnedRepr<E> {}
impl<E: Element> OwnedData for OwnedArcRepr<E> {}

/// The dimension of `S` for `batch` samples of `time` steps.
fn dim_of<S: Space>(batch: usize, time: usize) -> S::Dim {
    let shape = S::shape(batch, time);
    let mut dim = S::Dim::zeros(shape.len());
    dim.slice_mut().copy_from_slice(&shape);
    dim
}

/// A leaf of the space `S` that a gather fills: a batch (owned, whose time axis follows the
/// samples gathered, or a borrowed view of a fixed shape) or a [`Ragged`] leaf.
#[diagnostic::on_unimplemented(
    message = "a gather cannot write into a field of type `{Self}`",
    label = "a provider fills `Batch`, `ArcBatch`, `&mut Batch`, a borrowed `BatchView` of mutable memory, or `Ragged` fields"
)]
pub trait GatherInto<S: Space> {
    /// Writes the samples `rows` of `from`, formatted as `S`, into the samples `0..rows.len()`
    /// of `self`, after zeroing the samples `zero` of `self` (padding rows). A sequence batch
    /// takes as many time steps as the longest sample gathered (zeros after a shorter one).
    ///
    /// # Errors
    /// [`DataError::TimeSteps`] when a borrowed batch has fewer time steps than a sample
    /// gathered into it (`source` names the source in the error).
    fn gather_into<From: FormatAs<S>>(
        &mut self,
        from: SourceView<'_, From>,
        rows: &[usize],
        zero: Range<usize>,
        source: &'static str,
    ) -> Result<(), DataError>;
}

impl<S: Space, D: Regrow<Elem = S::Elem>> GatherInto<S> for Batch<S, D> {
    #[inline]
    fn gather_into<From: FormatAs<S>>(
        &mut self,
        from: SourceView<'_, From>,
        rows: &[usize],
        zero: Range<usize>,
        source: &'static str,
    ) -> Result<(), DataError> {
        gather_into_batch(self, from, rows, zero, source)
    }
}

impl<S: Space, D: Regrow<Elem = S::Elem>> GatherInto<S> for &mut Batch<S, D> {
    #[inline]
    fn gather_into<From: FormatAs<S>>(
        &mut self,
        from: SourceView<'_, From>,
        rows: &[usize],
        zero: Range<usize>,
        source: &'static str,
    ) -> Result<(), DataError> {
        gather_into_batch(*self, from, rows, zero, source)
    }
}

/// [`GatherInto`] for a batch.
fn gather_into_batch<From: FormatAs<To>, To: Space, D: Regrow<Elem = To::Elem>>(
    out: &mut Batch<To, D>,
    from: SourceView<'_, From>,
    rows: &[usize],
    zero: Range<usize>,
    source: &'static str,
) -> Result<(), DataError> {
    let Some(ta) = To::TIME_AXIS else {
        match from {
            SourceView::Dense(view) => gather_leaf::<From, To>(view, rows, zero, out.leaf_mut()),
            SourceView::Ragged(_) => {
                unreachable!("a ragged leaf is of a sequence space, which formats only as one")
            }
        }
        return Ok(());
    };
    let have = out.shape()[ta];
    let need = match &from {
        SourceView::Dense(view) => view.time_len().unwrap_or(have),
        SourceView::Ragged(r) => rows.iter().map(|&i| r.length(i)).max().unwrap_or(0),
    };
    let mut zeroed = false;
    if have != need {
        let batch = out.len();
        if D::regrow(out.array_mut(), dim_of::<To>(batch, need)) {
            zeroed = true;
        } else if have < need {
            return Err(DataError::TimeSteps {
                source_name: source,
                needed: need,
                room: have,
            });
        }
    }
    let room = out.shape()[ta];
    let mut target = out.leaf_mut();
    match from {
        SourceView::Dense(view) if room == need => {
            gather_leaf::<From, To>(view, rows, zero, target);
        }
        SourceView::Dense(view) => {
            // A borrowed batch with more steps than the source: zeros after them.
            target.fill(To::Elem::ZERO);
            let steps = target.slice_axis_move(Axis(ta), (0..need).into());
            gather_leaf::<From, To>(view, rows, 0..0, steps);
        }
        SourceView::Ragged(r) => {
            if !zeroed {
                target.fill(To::Elem::ZERO);
            }
            for (j, &i) in rows.iter().enumerate() {
                let t = r.length(i);
                if t == 0 {
                    continue;
                }
                let dst = target
                    .view_mut()
                    .slice_axis_move(Axis(To::BATCH_AXIS), (j..j + 1).into())
                    .slice_axis_move(Axis(ta), (0..t).into());
                <From as FormatAs<To>>::gather_view_into(r.sample_batch(i), &[0], dst);
            }
        }
    }
    Ok(())
}

impl<S: SequenceSpace> GatherInto<S> for Ragged<S> {
    fn gather_into<From: FormatAs<S>>(
        &mut self,
        from: SourceView<'_, From>,
        rows: &[usize],
        _zero: Range<usize>,
        _source: &'static str,
    ) -> Result<(), DataError> {
        // Padding rows are samples of no steps.
        let samples = self.len().max(rows.len());
        match from {
            SourceView::Dense(view) => {
                let t = view.time_len().unwrap_or(0);
                self.refill(
                    samples,
                    |i| if i < rows.len() { t } else { 0 },
                    |i, dst| {
                        if i < rows.len() && t > 0 {
                            <From as FormatAs<S>>::gather_view_into(
                                view.array_view(),
                                &rows[i..i + 1],
                                dst,
                            );
                        }
                    },
                );
            }
            SourceView::Ragged(r) => self.refill(
                samples,
                |i| if i < rows.len() { r.length(rows[i]) } else { 0 },
                |i, dst| {
                    if i < rows.len() && r.length(rows[i]) > 0 {
                        <From as FormatAs<S>>::gather_view_into(r.sample_batch(rows[i]), &[0], dst);
                    }
                },
            ),
        }
        Ok(())
    }
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
    ///
    /// # Errors
    /// [`DataError::TimeSteps`] when a borrowed sequence batch of `out` is too short for a
    /// sample; never for owned leaves (they take the length they need).
    fn gather_from(
        out: &mut Self,
        record: &R,
        rows: &[usize],
        zero: Range<usize>,
    ) -> Result<(), DataError>;
}

/// A field of a request gathered from the source `K` of the record `R` (see
/// [`ReadField`]).
#[diagnostic::on_unimplemented(
    message = "the record `{R}` cannot fill a field of type `{Self}`",
    label = "the record has no such source, or holds it in a space that does not format as this one"
)]
pub trait GatherField<R, K>: ReadField<R, K> {
    /// Writes the rows into the field.
    ///
    /// # Errors
    /// As [`GatherFrom::gather_from`].
    fn gather_field(
        &mut self,
        record: &R,
        rows: &[usize],
        zero: Range<usize>,
    ) -> Result<(), DataError>;
}

impl<R, K, S, D> GatherField<R, K> for Batch<S, D>
where
    R: HasSource<K>,
    K: Source,
    S: Space,
    D: Regrow<Elem = S::Elem> + Data,
    R::Space: FormatAs<S>,
{
    fn gather_field(
        &mut self,
        record: &R,
        rows: &[usize],
        zero: Range<usize>,
    ) -> Result<(), DataError> {
        self.gather_into::<R::Space>(record.source_view(), rows, zero, K::NAME)
    }
}

impl<R, K, S> GatherField<R, K> for Ragged<S>
where
    R: HasSource<K>,
    K: Source,
    S: SequenceSpace,
    R::Space: FormatAs<S>,
{
    fn gather_field(
        &mut self,
        record: &R,
        rows: &[usize],
        zero: Range<usize>,
    ) -> Result<(), DataError> {
        self.gather_into::<R::Space>(record.source_view(), rows, zero, K::NAME)
    }
}

impl<R, K> GatherField<R, K> for Null {
    fn gather_field(&mut self, _: &R, _: &[usize], _: Range<usize>) -> Result<(), DataError> {
        Ok(())
    }
}

/// A spec whose samples can be gathered into a spec of the same type, leaf by leaf in order (a
/// dataset's `select`, `slice`, `permuted`): no lookup, so nested records and records that hold
/// a source twice are gathered too. The derive implements it.
#[diagnostic::on_unimplemented(
    message = "the samples of `{Self}` cannot be copied into a new `{Self}`",
    label = "every batch field must own its data (`Batch`, `ArcBatch` or `Ragged`)"
)]
pub trait GatherSame {
    /// Writes the samples `rows` of `from` into the samples `at..at + rows.len()` of `out`
    /// (every row below `from`'s length and the range within `out`'s: the callers check). A
    /// sequence batch of `out` grows to the time steps of `from` if it has fewer, keeping its
    /// samples; a shorter `from` is written with zeros after its steps.
    fn gather_same(out: &mut Self, from: &Self, rows: &[usize], at: usize);
}

impl<S: Space + FormatAs<S>, D: OwnedData<Elem = S::Elem>> GatherSame for Batch<S, D> {
    fn gather_same(out: &mut Self, from: &Self, rows: &[usize], at: usize) {
        let Some(ta) = S::TIME_AXIS else {
            let target = out
                .leaf_mut()
                .slice_axis_move(Axis(S::BATCH_AXIS), (at..at + rows.len()).into());
            gather_leaf::<S, S>(from.view(), rows, 0..0, target);
            return;
        };
        let (have, need) = (out.shape()[ta], from.shape()[ta]);
        if need > have {
            // Grow, keeping the samples already there.
            let kept = out.array().to_owned();
            let batch = out.len();
            D::regrow(out.array_mut(), dim_of::<S>(batch, need));
            out.array_mut()
                .slice_axis_mut(Axis(ta), (0..have).into())
                .assign(&kept);
        }
        let mut target = out
            .leaf_mut()
            .slice_axis_move(Axis(S::BATCH_AXIS), (at..at + rows.len()).into());
        if need < target.shape()[ta] {
            target.fill(S::Elem::ZERO);
        }
        let steps = target.slice_axis_move(Axis(ta), (0..need).into());
        gather_leaf::<S, S>(from.view(), rows, 0..0, steps);
    }
}

impl<S: SequenceSpace> GatherSame for Ragged<S> {
    fn gather_same(out: &mut Self, from: &Self, rows: &[usize], at: usize) {
        out.splice_rows(from.view(), rows, at);
    }
}

impl GatherSame for Null {
    fn gather_same(_: &mut Self, _: &Self, _: &[usize], _: usize) {}
}

macro_rules! gather_tuples {
    ($($t:ident $i:tt),+) => {
        impl<R, $($t: GatherFrom<R>),+> GatherFrom<R> for ($($t,)+) {
            fn gather_from(
                out: &mut Self,
                record: &R,
                rows: &[usize],
                zero: Range<usize>,
            ) -> Result<(), DataError> {
                $( $t::gather_from(&mut out.$i, record, rows, zero.clone())?; )+
                Ok(())
            }
        }
        impl<R, K, $($t: GatherField<R, K>),+> GatherField<R, K> for ($($t,)+) {
            fn gather_field(
                &mut self,
                record: &R,
                rows: &[usize],
                zero: Range<usize>,
            ) -> Result<(), DataError> {
                $( self.$i.gather_field(record, rows, zero.clone())?; )+
                Ok(())
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
