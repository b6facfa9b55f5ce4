//! Gathers: rows of a record written, converted, into a request's buffers (what providers do
//! for every batch), and rows of a record into a record of the same type (what a dataset's
//! selections do).
//!
//! [`GatherFrom`] and [`GatherSame`] are implemented by the derive, field by field: a request's
//! batch field reads its source from the record with one lookup (no search through a list), so
//! a request of hundreds of leaves costs no deeper trait solving than one of two.

use crate::augment::Draws;
use crate::data::error::DataError;
use crate::format::exec::ragged_rows_into;
use crate::format::{Convert, FormatAs};
use crate::mapping::matching::{HasSource, ReadField, Reads};
use crate::mapping::serve::ServeCache;
use crate::types::batch::{ArcBatch, Batch, BatchView};
use crate::types::elem::Element;
use crate::types::elem::IndexElement;
use crate::types::for_tuples;
use crate::types::ragged::{Ragged, SequenceSpace, SourceView};
use crate::types::source::Source;
use crate::types::space::{IndexSeqLayout, Lengths, Mask, Null, Space, dim_of};
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
        self.array_mut_unchecked().view_mut()
    }
    fn leaf_len(&self) -> usize {
        self.len()
    }
}

impl<S: Space, D: DataMut<Elem = S::Elem>> LeafMut<S> for &mut Batch<S, D> {
    fn leaf_mut(&mut self) -> ndarray::ArrayViewMut<'_, S::Elem, S::Dim> {
        self.array_mut_unchecked().view_mut()
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
    <From as Convert<To>>::gather_view_into(from.array_view(), rows, target);
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

/// How the samples of a sequence field become a batch, declared on the request's field
/// (`#[spec(pad = -1, pad_to = 128, truncate)]`; the derive builds it). The default pads with
/// zeros to the longest sample of each batch and refuses nothing an owned buffer can hold.
///
/// `pad` alone goes on any batch field: the value of its padding rows, those after the real
/// samples of a batch padded to the full batch size
/// ([`LastBatch::Pad`](crate::iteration::LastBatch::Pad)), as MXNet's `data_padding` and
/// `label_padding`. In an index space it must be a label.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collate<E> {
    /// The value of every step that is not a sample's (padding), and of padding rows.
    pub pad: E,
    /// The time steps of every batch (`pad_to`); `None`: as many as the longest sample of the
    /// batch (for a borrowed buffer, its own steps).
    pub steps: Option<usize>,
    /// Cut the samples longer than the batch's steps (`truncate`) instead of refusing them
    /// ([`DataError::TimeSteps`]).
    pub truncate: bool,
}

impl<E: Element> Collate<E> {
    /// Zeros, to the longest sample, nothing cut.
    pub const DEFAULT: Self = Collate {
        pad: E::ZERO,
        steps: None,
        truncate: false,
    };

    /// The time steps of a batch whose longest sample has `need` steps: `pad_to`, else `need`.
    fn steps(&self, need: usize, source: &'static str) -> Result<usize, DataError> {
        batch_steps(need, self.steps, self.truncate, source)
    }

    /// Checks that the pad value is a label of `S` when `S` is an index space.
    fn check_pad<S: Space<Elem = E>>(&self, source: &'static str) -> Result<(), DataError> {
        match S::MAX_LABELS {
            Some(max) if !matches!(self.pad.to_label(), Some(l) if l < max) => {
                Err(DataError::PadLabel {
                    source_name: source,
                    value: self.pad.to_string(),
                    max_labels: max,
                })
            }
            _ => Ok(()),
        }
    }
}

impl<E: Element> Default for Collate<E> {
    fn default() -> Self {
        Self::DEFAULT
    }
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

/// The number of steps of the longest of the samples `rows` of `from` (a dense source: its time
/// steps, `None` without a time axis).
fn longest<From: Space>(from: &SourceView<'_, From>, rows: &[usize]) -> Option<usize> {
    match from {
        SourceView::Dense(view) => view.time_len(),
        SourceView::Ragged(r) => Some(rows.iter().map(|&i| r.length(i)).max().unwrap_or(0)),
    }
}

/// Checks, once for a whole source, that every sample of `from` can be gathered into a sequence
/// field of `To` under `collate` (no sample longer than `pad_to` without `truncate`, a pad
/// value that is a label): a provider checks this where it is made, so that its batches cannot
/// fail.
///
/// # Errors
/// [`DataError::TimeSteps`] naming the longest sample's steps, [`DataError::PadLabel`].
pub fn check_fits<From: Space, To: Space>(
    from: &SourceView<'_, From>,
    collate: &Collate<To::Elem>,
    source: &'static str,
) -> Result<(), DataError> {
    if collate.pad != To::Elem::ZERO {
        collate.check_pad::<To>(source)?;
    }
    if To::TIME_AXIS.is_some() {
        collate.steps(longest_of_all(from), source)?;
    }
    Ok(())
}

/// The conversion of a request's leaf of the source `K` from the record's space `From` to the
/// requested `To`: what a derived request's gather, fit check and serve call. The derive's
/// per-field trait that words a space mismatch names it (`type Via = LeafVia<K>`) rather than
/// writing these methods out once per field.
#[doc(hidden)]
pub trait LeafConvert<From, To> {
    /// [`GatherInto::gather_into`] with the source's name.
    fn gather<T: GatherInto<To>>(
        from: SourceView<'_, From>,
        rows: &[usize],
        zero: Range<usize>,
        target: &mut T,
        collate: &Collate<<To as Space>::Elem>,
    ) -> Result<(), DataError>
    where
        From: Space,
        To: Space;
    /// [`check_fits`] with the source's name.
    fn fits(
        from: SourceView<'_, From>,
        collate: &Collate<<To as Space>::Elem>,
    ) -> Result<(), DataError>
    where
        From: Space,
        To: Space;
    /// [`ServeCache::get_or_convert`] for the source.
    fn serve<'c>(from: SourceView<'_, From>, cache: &'c mut ServeCache) -> &'c ArcBatch<To>
    where
        From: Space,
        To: Space;
}

/// The source `K`, as the way of a leaf's conversion ([`LeafConvert`]).
#[doc(hidden)]
pub struct LeafVia<K>(core::marker::PhantomData<fn() -> K>);

impl<K: Source, From: FormatAs<To>, To: Space> LeafConvert<From, To> for LeafVia<K> {
    #[inline]
    fn gather<T: GatherInto<To>>(
        from: SourceView<'_, From>,
        rows: &[usize],
        zero: Range<usize>,
        target: &mut T,
        collate: &Collate<To::Elem>,
    ) -> Result<(), DataError> {
        target.gather_into::<From>(from, rows, zero, collate, K::NAME)
    }
    #[inline]
    fn fits(from: SourceView<'_, From>, collate: &Collate<To::Elem>) -> Result<(), DataError> {
        check_fits::<From, To>(&from, collate, K::NAME)
    }
    #[inline]
    fn serve<'c>(from: SourceView<'_, From>, cache: &'c mut ServeCache) -> &'c ArcBatch<To> {
        cache.get_or_convert::<K, From, To>(from)
    }
}

/// The record `R`'s field of the source `K`, as a request's leaf reads it: what the derive's
/// per-field trait that words a missing source names (`type Via = LeafVia<K>`), rather than
/// writing the two methods out once per field.
#[doc(hidden)]
pub trait SourceOf<R> {
    /// The record's space of the source.
    type Space: Space;
    /// The record's field that holds it.
    type Field;
    /// [`HasSource::source_view`].
    fn view(record: &R) -> SourceView<'_, Self::Space>;
    /// [`HasSource::source_field`].
    fn field(record: &R) -> &Self::Field;
}

impl<K: Source, R: HasSource<K>> SourceOf<R> for LeafVia<K> {
    type Space = R::Space;
    type Field = R::Field;
    #[inline]
    fn view(record: &R) -> SourceView<'_, Self::Space> {
        record.source_view()
    }
    #[inline]
    fn field(record: &R) -> &Self::Field {
        record.source_field()
    }
}

/// The number of steps of the longest sample of `from` (0 without a time axis).
fn longest_of_all<From: Space>(from: &SourceView<'_, From>) -> usize {
    match from {
        SourceView::Dense(view) => view.time_len().unwrap_or(0),
        SourceView::Ragged(r) => r.max_len(),
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
                <From as Convert<S>>::gather_view_into(one, &[0], dst);
            },
        );
        Ok(())
    }
}

/// A request's field that a gather fills with what a collate policy did to the samples of a
/// sequence source: their lengths ([`Lengths`],
/// `#[spec(lengths_of = "..")]`) or which steps are data
/// ([`Mask`], `#[spec(mask_of = "..")]`).
#[diagnostic::on_unimplemented(
    message = "`lengths_of` and `mask_of` fill a `Batch<Lengths>` or a `Batch<Mask>` field, not a `{Self}`",
    label = "not a batch of lengths or of a mask"
)]
pub trait GatherSteps {
    /// Writes the steps of the samples `rows` of `from` under the policy `steps`/`truncate` of
    /// the sequence field they describe (`pad_to`, `truncate`); padding rows have no steps.
    ///
    /// # Errors
    /// [`DataError::TimeSteps`] as the sequence field would have it; [`DataError::LengthRange`]
    /// for a length the element type cannot hold.
    fn gather_steps<From: Space>(
        &mut self,
        from: SourceView<'_, From>,
        rows: &[usize],
        steps: Option<usize>,
        truncate: bool,
        source: &'static str,
    ) -> Result<(), DataError>;

    /// Checks, once for a whole source, that every batch of it can be described (see
    /// [`check_fits`]).
    ///
    /// # Errors
    /// As [`GatherSteps::gather_steps`].
    fn steps_fit<From: Space>(
        from: &SourceView<'_, From>,
        steps: Option<usize>,
        truncate: bool,
        source: &'static str,
    ) -> Result<(), DataError>;
}

/// The steps sample `i` of `from` keeps under the policy.
fn kept_steps<From: Space>(from: &SourceView<'_, From>, i: usize, cap: usize) -> usize {
    match from {
        SourceView::Dense(view) => view.time_len().unwrap_or(0),
        SourceView::Ragged(r) => r.length(i),
    }
    .min(cap)
}

/// The time steps of a batch whose longest sample has `need` steps under the policy `steps`
/// (`pad_to`) / `truncate`: `pad_to`, else `need`; a longer sample without `truncate` is an
/// error.
fn batch_steps(
    need: usize,
    steps: Option<usize>,
    truncate: bool,
    source: &'static str,
) -> Result<usize, DataError> {
    let target = steps.unwrap_or(need);
    if need > target && !truncate {
        return Err(DataError::TimeSteps {
            source_name: source,
            needed: need,
            room: target,
        });
    }
    Ok(target)
}

/// The policy's steps for the samples `rows` of `from`: checks it as the sequence field does.
fn policy_steps<From: Space>(
    from: &SourceView<'_, From>,
    rows: &[usize],
    steps: Option<usize>,
    truncate: bool,
    source: &'static str,
) -> Result<usize, DataError> {
    batch_steps(longest(from, rows).unwrap_or(0), steps, truncate, source)
}

impl<E: IndexElement, D: Regrow<Elem = E>> GatherSteps for Batch<Lengths<E>, D> {
    fn steps_fit<From: Space>(
        from: &SourceView<'_, From>,
        steps: Option<usize>,
        truncate: bool,
        source: &'static str,
    ) -> Result<(), DataError> {
        let need = longest_of_all(from);
        let target = batch_steps(need, steps, truncate, source)?;
        let longest = need.min(target);
        match E::from_label(longest) {
            Some(_) => Ok(()),
            None => Err(DataError::LengthRange {
                source_name: source,
                length: longest,
                element: E::NAME,
            }),
        }
    }

    fn gather_steps<From: Space>(
        &mut self,
        from: SourceView<'_, From>,
        rows: &[usize],
        steps: Option<usize>,
        truncate: bool,
        source: &'static str,
    ) -> Result<(), DataError> {
        let target = policy_steps(&from, rows, steps, truncate, source)?;
        let mut out = self.leaf_mut();
        out.fill(E::ZERO);
        for (j, &i) in rows.iter().enumerate().take(out.len()) {
            let t = kept_steps(&from, i, target);
            out[j] = E::from_label(t).ok_or_else(|| DataError::LengthRange {
                source_name: source,
                length: t,
                element: E::NAME,
            })?;
        }
        Ok(())
    }
}

impl<L: IndexSeqLayout, E: Element, D: Regrow<Elem = E>> GatherSteps for Batch<Mask<L, E>, D> {
    fn steps_fit<From: Space>(
        from: &SourceView<'_, From>,
        steps: Option<usize>,
        truncate: bool,
        source: &'static str,
    ) -> Result<(), DataError> {
        batch_steps(longest_of_all(from), steps, truncate, source).map(drop)
    }

    fn gather_steps<From: Space>(
        &mut self,
        from: SourceView<'_, From>,
        rows: &[usize],
        steps: Option<usize>,
        truncate: bool,
        source: &'static str,
    ) -> Result<(), DataError> {
        let target = policy_steps(&from, rows, steps, truncate, source)?;
        let ta = <Mask<L, E> as Space>::TIME_AXIS.unwrap_or(1);
        let batch = self.len();
        if self.shape()[ta] != target
            && !D::regrow(self.array_mut(), dim_of::<Mask<L, E>>(batch, target))
            && self.shape()[ta] < target
        {
            return Err(DataError::TimeSteps {
                source_name: source,
                needed: target,
                room: self.shape()[ta],
            });
        }
        let mut out = self.leaf_mut();
        out.fill(E::ZERO);
        let ba = <Mask<L, E> as Space>::BATCH_AXIS;
        for (j, &i) in rows.iter().enumerate().take(batch) {
            let t = kept_steps(&from, i, target);
            out.index_axis_mut(Axis(ba), j)
                .slice_axis_mut(Axis(0), (0..t).into())
                .fill(E::ONE);
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
    /// The random choices of augmented fields ([`augment`](crate::augment)) are drawn from
    /// `draws` and each sample's row in `record` (its global index).
    ///
    /// # Errors
    /// [`DataError::TimeSteps`] when a borrowed sequence batch of `out` is too short for a
    /// sample; never for owned leaves (they take the length they need).
    fn gather_from(
        out: &mut Self,
        record: &R,
        rows: &[usize],
        zero: Range<usize>,
        draws: Draws<'_>,
    ) -> Result<(), DataError>;

    /// Checks once that every sample of `record` can be gathered under the request's collate
    /// policies ([`check_fits`]): after it, gathers into owned leaves cannot fail.
    ///
    /// # Errors
    /// The first policy a sample breaks.
    fn check_fits(record: &R) -> Result<(), DataError>;
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
        draws: Draws<'_>,
    ) -> Result<(), DataError>;

    /// As [`GatherFrom::check_fits`] (a leaf of a tuple field has the default policy, which
    /// every owned leaf fits).
    ///
    /// # Errors
    /// As [`GatherFrom::check_fits`].
    fn check_field(record: &R) -> Result<(), DataError> {
        let _ = record;
        Ok(())
    }
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
        _: Draws<'_>,
    ) -> Result<(), DataError> {
        self.gather_into::<R::Space>(record.source_view(), rows, zero, &Collate::DEFAULT, K::NAME)
    }
}

impl<R, K, S> GatherField<R, K> for Ragged<S>
where
    R: HasSource<K>,
    K: Source,
    S: Space,
    R::Space: FormatAs<S>,
{
    fn gather_field(
        &mut self,
        record: &R,
        rows: &[usize],
        zero: Range<usize>,
        _: Draws<'_>,
    ) -> Result<(), DataError> {
        self.gather_into::<R::Space>(record.source_view(), rows, zero, &Collate::DEFAULT, K::NAME)
    }
}

impl<R, K> GatherField<R, K> for Null {
    fn gather_field(
        &mut self,
        _: &R,
        _: &[usize],
        _: Range<usize>,
        _: Draws<'_>,
    ) -> Result<(), DataError> {
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
            D::regrow(out.array_mut_unchecked(), dim_of::<S>(batch, need));
            out.array_mut_unchecked()
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

impl<S: Space> GatherSame for Ragged<S> {
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
                draws: Draws<'_>,
            ) -> Result<(), DataError> {
                $( $t::gather_from(&mut out.$i, record, rows, zero.clone(), draws)?; )+
                Ok(())
            }
            fn check_fits(record: &R) -> Result<(), DataError> {
                $( $t::check_fits(record)?; )+
                Ok(())
            }
        }
        impl<R, K, $($t: GatherField<R, K>),+> GatherField<R, K> for ($($t,)+) {
            fn gather_field(
                &mut self,
                record: &R,
                rows: &[usize],
                zero: Range<usize>,
                draws: Draws<'_>,
            ) -> Result<(), DataError> {
                $( self.$i.gather_field(record, rows, zero.clone(), draws)?; )+
                Ok(())
            }
            fn check_field(record: &R) -> Result<(), DataError> {
                $( $t::check_field(record)?; )+
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

/// A space that `pad_to` and `truncate` apply to: one with a time axis.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no time axis: `pad_to` and `truncate` apply to sequence fields",
    label = "not a sequence space",
    note = "`pad_to` and `truncate` say how samples of different lengths become a batch: they go on `VectorSeq`, `IndexSeq` and `VolumeSeq` fields (`pad` alone, the value of padding, goes on any field)"
)]
pub trait Padded: Space {}

#[diagnostic::do_not_recommend]
impl<S: SequenceSpace> Padded for S {}

#[cfg(test)]
mod tests {
    use super::{Collate, check_fits};
    use crate::types::ragged::{Ragged, SourceView};
    use crate::types::space::{IndexSeq, Vector};

    #[test]
    fn a_pad_value_outside_the_labels_is_refused_at_run_time_too() {
        // The derive refuses a literal pad outside `0..M` when it sees `M`; a request written
        // with a type it cannot read (an alias, a generic) is checked when the provider is made.
        let r = Ragged::<IndexSeq<5>>::from_flat_samples([vec![1i64, 2]]).unwrap();
        let bad = Collate {
            pad: 5i64,
            steps: None,
            truncate: false,
        };
        let err = check_fits::<_, IndexSeq<5>>(&SourceView::Ragged(r.view()), &bad, "tokens")
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "source `tokens`: the pad value 5 is not a label in 0..5"
        );
        let good = Collate { pad: 4i64, ..bad };
        assert!(
            check_fits::<_, IndexSeq<5>>(&SourceView::Ragged(r.view()), &good, "tokens").is_ok()
        );
        // A space without a time axis has no policy to break.
        let v = crate::types::batch::Batch::<Vector<2>>::zeros(3, 0);
        let any = Collate {
            pad: 1.0f32,
            steps: Some(1),
            truncate: false,
        };
        assert!(check_fits::<_, Vector<2>>(&SourceView::Dense(v.view()), &any, "x").is_ok());
    }
}
