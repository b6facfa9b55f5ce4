//! A leaf written by a gather: the rows of a source, formatted as the leaf's space, into a
//! batch (owned, whose time axis follows the samples gathered, or a borrowed view of a fixed
//! shape) or a ragged leaf ([`GatherInto`]), and the storage that lets it ([`LeafMut`],
//! [`Regrow`], [`OwnedData`]).

use crate::data::error::DataError;
use crate::data::gather::collate::{Collate, longest};
use crate::format::FormatAs;
use crate::format::exec::ragged_rows_into;
use crate::types::batch::{Batch, BatchView};
use crate::types::elem::Element;
use crate::types::ragged::{Ragged, SourceView};
use crate::types::space::{Space, dim_of};
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
    /// The data, mutably, of `batch` samples: an unfilled owned leaf
    /// ([`AllocFlat::unfilled`](crate::data::AllocFlat::unfilled)) becomes zeros of `batch`
    /// samples first; any other is [`LeafMut::leaf_mut`].
    #[doc(hidden)]
    fn leaf_rows_mut(&mut self, batch: usize) -> ndarray::ArrayViewMut<'_, S::Elem, S::Dim>;
}

impl<S: Space, D: Regrow<Elem = S::Elem>> LeafMut<S> for Batch<S, D> {
    fn leaf_mut(&mut self) -> ndarray::ArrayViewMut<'_, S::Elem, S::Dim> {
        self.array_mut_unchecked().view_mut()
    }
    fn leaf_len(&self) -> usize {
        self.len()
    }
    fn leaf_rows_mut(&mut self, batch: usize) -> ndarray::ArrayViewMut<'_, S::Elem, S::Dim> {
        fill_unfilled(self, batch);
        self.leaf_mut()
    }
}

impl<S: Space, D: Regrow<Elem = S::Elem>> LeafMut<S> for &mut Batch<S, D> {
    fn leaf_mut(&mut self) -> ndarray::ArrayViewMut<'_, S::Elem, S::Dim> {
        self.array_mut_unchecked().view_mut()
    }
    fn leaf_len(&self) -> usize {
        self.len()
    }
    fn leaf_rows_mut(&mut self, batch: usize) -> ndarray::ArrayViewMut<'_, S::Elem, S::Dim> {
        fill_unfilled(*self, batch);
        self.leaf_mut()
    }
}

/// An owned leaf left unfilled ([`AllocFlat::unfilled`](crate::data::AllocFlat::unfilled): no
/// samples yet) made zeros of `batch` samples (and no time steps), for a writer that fills
/// zeros; any other leaf is left as it is.
pub(crate) fn fill_unfilled<S: Space, D: Regrow<Elem = S::Elem>>(
    out: &mut Batch<S, D>,
    batch: usize,
) {
    if out.is_empty() && batch > 0 {
        D::regrow(out.array_mut_unchecked(), dim_of::<S>(batch, 0));
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

    /// Makes `a` the values of `with`; `false`, with `a` unchanged, for storage that cannot.
    fn replace<D: Dimension>(a: &mut ArrayBase<Self, D>, with: Array<Self::Elem, D>) -> bool;
}

impl<E: Element> Regrow for OwnedRepr<E> {
    fn regrow<D: Dimension>(a: &mut ArrayBase<Self, D>, shape: D) -> bool {
        let empty = Array::from_shape_vec(D::zeros(shape.ndim()), Vec::new())
            .unwrap_or_else(|_| unreachable!("a shape of zeros holds no values"));
        let (mut values, _) = std::mem::replace(a, empty).into_raw_vec_and_offset();
        values.clear();
        if values.capacity() < shape.size() {
            // New memory: zeros from the allocator (`calloc`: memory it maps afresh is zero
            // without a write), asked for 2 MB pages before anything is written when it is
            // large (a batch above glibc's 32 MB is mapped afresh each time: on 4 KB pages its
            // faults cost more than the gather).
            values = vec![E::ZERO; shape.size()];
            if core::mem::size_of_val(values.as_slice()) >= batchspec_kernel::HUGE_PAGE_MIN_BYTES {
                batchspec_kernel::advise_huge_pages(&values, false);
            }
        } else {
            values.resize(shape.size(), E::ZERO);
        }
        *a = Array::from_shape_vec(shape, values)
            .unwrap_or_else(|_| unreachable!("the values were sized for the shape"));
        true
    }

    fn replace<D: Dimension>(a: &mut ArrayBase<Self, D>, with: Array<E, D>) -> bool {
        *a = with;
        true
    }
}

impl<E: Element> Regrow for OwnedArcRepr<E> {
    fn regrow<D: Dimension>(a: &mut ArrayBase<Self, D>, shape: D) -> bool {
        *a = Array::from_elem(shape, E::ZERO).into_shared();
        true
    }

    fn replace<D: Dimension>(a: &mut ArrayBase<Self, D>, with: Array<E, D>) -> bool {
        *a = with.into_shared();
        true
    }
}

impl<E: Element> Regrow for ViewRepr<&mut E> {
    fn regrow<D: Dimension>(_: &mut ArrayBase<Self, D>, _: D) -> bool {
        false
    }

    fn replace<D: Dimension>(_: &mut ArrayBase<Self, D>, _: Array<E, D>) -> bool {
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
        collate: &Collate<S::Elem>,
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
        collate: &Collate<S::Elem>,
        source: &'static str,
    ) -> Result<(), DataError> {
        gather_into_batch(self, from, rows, zero, collate, source)
    }
}

impl<S: Space, D: Regrow<Elem = S::Elem>> GatherInto<S> for &mut Batch<S, D> {
    #[inline]
    fn gather_into<From: FormatAs<S>>(
        &mut self,
        from: SourceView<'_, From>,
        rows: &[usize],
        zero: Range<usize>,
        collate: &Collate<S::Elem>,
        source: &'static str,
    ) -> Result<(), DataError> {
        gather_into_batch(*self, from, rows, zero, collate, source)
    }
}

/// [`GatherInto`] for a batch.
fn gather_into_batch<From: FormatAs<To>, To: Space, D: Regrow<Elem = To::Elem>>(
    out: &mut Batch<To, D>,
    from: SourceView<'_, From>,
    rows: &[usize],
    zero: Range<usize>,
    collate: &Collate<To::Elem>,
    source: &'static str,
) -> Result<(), DataError> {
    let batch = rows.len().max(zero.end);
    if out.is_empty() && batch > 0 {
        // An unfilled owned leaf (`AllocFlat::unfilled`): made here, of the batch's samples.
        if To::TIME_AXIS.is_none()
            && (zero.is_empty() || zero.start == rows.len())
            && let SourceView::Dense(view) = &from
        {
            if collate.pad != To::Elem::ZERO {
                collate.check_pad::<To>(source)?;
            }
            // Written once, never zero-filled, where the conversion can (a cast of the same
            // layout, a row copy).
            if let Some(made) =
                From::gather_new(view.array_view(), rows, batch - rows.len(), collate.pad)
                && D::replace(out.array_mut_unchecked(), made)
            {
                return Ok(());
            }
        }
        fill_unfilled(out, batch);
    }
    let (Some(ta), Some(need)) = (To::TIME_AXIS, longest(&from, rows)) else {
        match from {
            SourceView::Dense(view) if collate.pad != To::Elem::ZERO => {
                // Padding rows hold the field's pad value (MXNet's `data_padding`).
                collate.check_pad::<To>(source)?;
                let mut target = out.leaf_mut();
                if zero.start < zero.end {
                    target
                        .slice_axis_mut(Axis(To::BATCH_AXIS), zero.into())
                        .fill(collate.pad);
                }
                gather_leaf::<From, To>(view, rows, 0..0, target);
            }
            SourceView::Dense(view) => gather_leaf::<From, To>(view, rows, zero, out.leaf_mut()),
            SourceView::Ragged(_) => {
                unreachable!("a ragged leaf is of a sequence space, which formats only as one")
            }
        }
        return Ok(());
    };
    if collate.pad != To::Elem::ZERO {
        collate.check_pad::<To>(source)?;
    }
    let have = out.shape()[ta];
    let batch = out.len();
    // The steps of the batch: `pad_to`, else the longest sample (an owned buffer takes them).
    let target = collate.steps(need, source)?;
    let regrown =
        target != have && D::regrow(out.array_mut_unchecked(), dim_of::<To>(batch, target));
    let mut target_view = out.leaf_mut();
    let room = target_view.shape()[ta];
    if room < target && !(collate.truncate && collate.steps.is_none()) {
        // A borrowed buffer keeps its steps: the batch must fit them, or be cut (`truncate`).
        return Err(DataError::TimeSteps {
            source_name: source,
            needed: if collate.steps.is_some() {
                target
            } else {
                need
            },
            room,
        });
    }
    // The steps written: the batch's, within the room (a sample longer is cut: `truncate`).
    let written = need.min(room).min(target);
    let covered = matches!(from, SourceView::Dense(_)) && written == room && rows.len() == batch;
    let zeros_already = regrown && collate.pad == To::Elem::ZERO;
    if !(covered || zeros_already) {
        target_view.fill(collate.pad);
    }
    let _ = zero; // Padding rows are filled with the pad value with the rest.
    match from {
        SourceView::Dense(view) => {
            let steps = view
                .array_view()
                .slice_axis_move(Axis(From::TIME_AXIS.unwrap_or(0)), (0..written).into());
            let dst = target_view.slice_axis_move(Axis(ta), (0..written).into());
            gather_leaf::<From, To>(BatchView::<From>::from_checked(steps), rows, 0..0, dst);
        }
        SourceView::Ragged(r) => ragged_rows_into::<From, To>(&r, rows, target_view, written),
    }
    Ok(())
}

impl<S: Space> GatherInto<S> for Ragged<S> {
    fn gather_into<From: FormatAs<S>>(
        &mut self,
        from: SourceView<'_, From>,
        rows: &[usize],
        _zero: Range<usize>,
        collate: &Collate<S::Elem>,
        source: &'static str,
    ) -> Result<(), DataError> {
        // A ragged batch is not padded; `pad_to` is the most steps a sample keeps.
        let cap = collate.steps.unwrap_or(usize::MAX);
        let length = |i: usize| match &from {
            SourceView::Dense(view) => view.time_len().unwrap_or(0),
            SourceView::Ragged(r) => r.length(i),
        };
        if !collate.truncate
            && let Some(need) = rows.iter().map(|&i| length(i)).find(|&l| l > cap)
        {
            return Err(DataError::TimeSteps {
                source_name: source,
                needed: need,
                room: cap,
            });
        }
        let ta = From::TIME_AXIS.unwrap_or(0);
        // Padding rows are samples of no steps.
        let samples = self.len().max(rows.len());
        self.refill(
            samples,
            |j| rows.get(j).map_or(0, |&i| length(i).min(cap)),
            |j, dst| {
                let Some(&i) = rows.get(j) else { return };
                let t = length(i).min(cap);
                if t == 0 {
                    return;
                }
                let one = match &from {
                    SourceView::Dense(view) => view
                        .array_view()
                        .slice_axis_move(Axis(From::BATCH_AXIS), (i..i + 1).into()),
                    SourceView::Ragged(r) => r.sample_batch(i),
                };
                let one = one.slice_axis_move(Axis(ta), (0..t).into());
                <From as FormatAs<S>>::gather_view_into(one, &[0], dst);
            },
        );
        Ok(())
    }
}
