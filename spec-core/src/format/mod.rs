//! `FormatAs`: which spaces a batch can be formatted as, decided at compile time.
//!
//! Pylearn2's `np_format_as` decides at run time, and fails on the first batch; here a conversion
//! exists as a trait impl only where it is legal:
//!
//! | from | to | what happens |
//! | --- | --- | --- |
//! | `Vector<D>` | `Vector<D>` | element cast |
//! | `Image<H, W, C, N, L1>` | `Image<H, W, C, N, L2>` | transpose (any two of the 24 layouts) and cast |
//! | `Image<H, W, C, N, L>` | `Vector<N>` | transpose to `bhwc`, then flatten (Pylearn2's `b01c` order) |
//! | `Vector<N>` | `Image<H, W, C, N, L>` | the inverse |
//! | `Index<M, DIM>` | `Index<M, DIM>` | integer cast |
//! | `Index<M, DIM>` | `Vector<M>` | one-hot, merged (Pylearn2's merge mode) |
//! | `Index<M, DIM>` | `OneHot<M, DIM>` | one-hot, concatenated |
//! | `Index<M, DIM>` | `Labels<M>` | the first label of each sample (dp's `bt -> b`) |
//! | `Labels<M>` | `Index<M, 1>` / `Labels<M>` / `Vector<M>` | `b -> bt`, cast, one-hot |
//! | `VectorSeq<D, L1>` | `VectorSeq<D, L2>` | transpose and cast |
//! | `Volume<D, H, W, C, N, L1>` | `Volume<D, H, W, C, N, L2>` / `Vector<N>` (and back) | transpose (rank 5), flatten in `bdhwc` order |
//! | `VolumeSeq<D, H, W, C, L1>` | `VolumeSeq<D, H, W, C, L2>` | transpose (rank 6) |
//! | `IndexSeq<M, L1>` | `IndexSeq<M, L2>` / `VectorSeq<M, L2>` | transpose, cast, one-hot |
//!
//! Element casts are those of [`CastInto`]. Every other pair fails `cargo check`, and the first
//! line of the error says why in numbers: `a vector of 10 cannot hold an image of 32×32×3 = 3072`.

mod batch;
pub mod error;
mod exec;
mod flip;
mod plan;
mod step;

pub use error::FormatError;
pub use flip::{FlipH, FlipW};
pub use plan::{Plan, Split};
pub use step::{Step, Through};

use crate::types::elem::{CastInto, Element, IndexElement};
use crate::types::space::{
    Image, ImageLayout, Index, IndexSeq, IndexSeqLayout, Labels, OneHot, Space, Vector, VectorSeq,
    VectorSeqLayout, Volume, VolumeLayout, VolumeSeq, VolumeSeqLayout,
};
use exec::{first_label, gather_permute, label_column, one_hot, permute_cast};
use ndarray::{ArrayView, ArrayViewMut};

/// `Self` can be formatted as `Target`: the conversion is legal, and [`FormatAs::PLAN`] says how.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be formatted as `{Target}`",
    label = "no conversion from `{Self}` to `{Target}`",
    note = "conversions exist between spaces of the same kind (another layout or element type), between an image and a vector of its total size, and from labels to one-hot vectors"
)]
pub trait FormatAs<Target: Space>: Space {
    /// How the data moves.
    const PLAN: Plan;

    /// Writes `src` formatted as `Target` into `dst`, whose shape is the target shape of the same
    /// batch (checked by the callers in [`Batch`](crate::Batch)).
    fn format_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        dst: ArrayViewMut<'_, Target::Elem, Target::Dim>,
    );

    /// Writes the samples `rows` of `src`, formatted as `Target`, into the samples `0..rows.len()`
    /// of `dst` (a gather fused with the conversion). Every row is in `0..src`'s batch size and
    /// `dst` holds `rows.len()` samples (checked by the callers).
    fn gather_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        rows: &[usize],
        mut dst: ArrayViewMut<'_, Target::Elem, Target::Dim>,
    ) {
        for (j, &i) in rows.iter().enumerate() {
            let one = src.slice_axis(ndarray::Axis(Self::BATCH_AXIS), (i..i + 1).into());
            let out = dst.slice_axis_mut(ndarray::Axis(Target::BATCH_AXIS), (j..j + 1).into());
            Self::format_view_into(one, out);
        }
    }
}

/// The two methods of a `FormatAs` impl whose plan is `Permute`, for the target `$target`.
macro_rules! permute_methods {
    ($target:ty) => {
        fn format_view_into(
            src: ArrayView<'_, Self::Elem, Self::Dim>,
            dst: ArrayViewMut<'_, <$target as Space>::Elem, <$target as Space>::Dim>,
        ) {
            permute_cast(src, dst, <Self as FormatAs<$target>>::PLAN, CastInto::cast)
        }

        fn gather_view_into(
            src: ArrayView<'_, Self::Elem, Self::Dim>,
            rows: &[usize],
            dst: ArrayViewMut<'_, <$target as Space>::Elem, <$target as Space>::Dim>,
        ) {
            gather_permute::<Self, $target, _>(
                src,
                rows,
                dst,
                <Self as FormatAs<$target>>::PLAN,
                CastInto::cast,
                CastInto::cast_slice,
            )
        }
    };
}

const fn perm_of(from: &[char], to: &[char]) -> [usize; 6] {
    match crate::types::axis::permutation(from, to) {
        Some(p) => p,
        None => [0, 1, 2, 3, 4, 5],
    }
}

const BHWC_LETTERS: &[char] = &['b', 'h', 'w', 'c'];

/// Widths of two vectors; holds when they are equal.
#[diagnostic::on_unimplemented(
    message = "a vector of {TO} cannot hold a vector of {FROM}",
    label = "the data has {FROM} features, the request {TO}"
)]
pub trait VectorWidth<const FROM: usize, const TO: usize> {}
impl<const N: usize> VectorWidth<N, N> for () {}

/// Sizes of two images; holds when they are equal.
#[diagnostic::on_unimplemented(
    message = "an image of {H1}×{W1}×{C1} cannot be formatted as an image of {H2}×{W2}×{C2}",
    label = "rows, columns and channels must be equal; only the layout and element type can change"
)]
pub trait SameImage<
    const H1: usize,
    const W1: usize,
    const C1: usize,
    const H2: usize,
    const W2: usize,
    const C2: usize,
>
{
}
impl<const H: usize, const W: usize, const C: usize> SameImage<H, W, C, H, W, C> for () {}

/// A vector of `D` holding an image of `H × W × C = N`; holds when `D == N`.
#[diagnostic::on_unimplemented(
    message = "a vector of {D} cannot hold an image of {H}×{W}×{C} = {N}",
    label = "the vector must have exactly {N} features"
)]
pub trait VectorHoldsImage<
    const D: usize,
    const H: usize,
    const W: usize,
    const C: usize,
    const N: usize,
>
{
}
impl<const D: usize, const H: usize, const W: usize, const C: usize> VectorHoldsImage<D, H, W, C, D>
    for ()
{
}

/// An image of `H × W × C = N` filled from a vector of `D`; holds when `D == N`.
#[diagnostic::on_unimplemented(
    message = "an image of {H}×{W}×{C} = {N} cannot be filled from a vector of {D}",
    label = "the vector must have exactly {N} features"
)]
pub trait ImageFromVector<
    const D: usize,
    const H: usize,
    const W: usize,
    const C: usize,
    const N: usize,
>
{
}
impl<const D: usize, const H: usize, const W: usize, const C: usize> ImageFromVector<D, H, W, C, D>
    for ()
{
}

/// Label ranges of two index spaces; holds when equal.
#[diagnostic::on_unimplemented(
    message = "labels in 0..{M1} cannot be formatted as labels in 0..{M2}",
    label = "the number of labels must be equal"
)]
pub trait SameLabels<const M1: usize, const M2: usize> {}
impl<const M: usize> SameLabels<M, M> for () {}

/// Labels per sample of two index spaces; holds when equal.
#[diagnostic::on_unimplemented(
    message = "the number of labels per sample differs: {D1} in the data, {D2} requested",
    label = "the number of labels per sample must be equal"
)]
pub trait SameIndexDim<const D1: usize, const D2: usize> {}
impl<const D: usize> SameIndexDim<D, D> for () {}

/// The width of a merged one-hot vector; holds when it is the number of labels.
#[diagnostic::on_unimplemented(
    message = "a one-hot of {M} labels × {DIM} needs width {M} (merged), not {W}",
    label = "a merged one-hot vector has one column per label",
    note = "for one block of {M} columns per label (Pylearn2's concatenate mode), ask for `OneHot<{M}, {DIM}>`"
)]
pub trait OneHotWidth<const M: usize, const DIM: usize, const W: usize> {}
impl<const M: usize, const DIM: usize> OneHotWidth<M, DIM, M> for () {}

/// An index space of one label per sample; holds when `DIM == 1`.
#[diagnostic::on_unimplemented(
    message = "an index of {DIM} labels per sample cannot be formatted as one label per sample",
    label = "`Labels<M>` holds one label per sample",
    note = "to keep the first label of each sample (dp's primary class), format an `Index<M, 1>`, or use the first column of the batch"
)]
pub trait OneLabel<const DIM: usize> {}
impl OneLabel<1> for () {}

impl<const D1: usize, const D2: usize, E1: CastInto<E2>, E2: Element> FormatAs<Vector<D2, E2>>
    for Vector<D1, E1>
where
    (): VectorWidth<D1, D2>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: [0, 1, 2, 3, 4, 5],
        rank: 2,
    };

    permute_methods!(Vector<D2, E2>);
}

impl<
    const H1: usize,
    const W1: usize,
    const C1: usize,
    const N1: usize,
    const H2: usize,
    const W2: usize,
    const C2: usize,
    const N2: usize,
    L1: ImageLayout,
    L2: ImageLayout,
    E1: CastInto<E2>,
    E2: Element,
> FormatAs<Image<H2, W2, C2, N2, L2, E2>> for Image<H1, W1, C1, N1, L1, E1>
where
    (): SameImage<H1, W1, C1, H2, W2, C2>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: perm_of(L1::LETTERS, L2::LETTERS),
        rank: 4,
    };

    permute_methods!(Image<H2, W2, C2, N2, L2, E2>);
}

impl<
    const H: usize,
    const W: usize,
    const C: usize,
    const N: usize,
    const D: usize,
    L: ImageLayout,
    E1: CastInto<E2>,
    E2: Element,
> FormatAs<Vector<D, E2>> for Image<H, W, C, N, L, E1>
where
    (): VectorHoldsImage<D, H, W, C, N>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: true,
        perm: perm_of(L::LETTERS, BHWC_LETTERS),
        rank: 4,
    };

    permute_methods!(Vector<D, E2>);
}

impl<
    const H: usize,
    const W: usize,
    const C: usize,
    const N: usize,
    const D: usize,
    L: ImageLayout,
    E1: CastInto<E2>,
    E2: Element,
> FormatAs<Image<H, W, C, N, L, E2>> for Vector<D, E1>
where
    (): ImageFromVector<D, H, W, C, N>,
{
    const PLAN: Plan = Plan::Permute {
        split: Some(Split::new(&[H, W, C])),
        flatten: false,
        perm: perm_of(BHWC_LETTERS, L::LETTERS),
        rank: 4,
    };

    permute_methods!(Image<H, W, C, N, L, E2>);
}

impl<const M1: usize, const D1: usize, const M2: usize, const D2: usize, E1, E2>
    FormatAs<Index<M2, D2, E2>> for Index<M1, D1, E1>
where
    E1: IndexElement + CastInto<E2>,
    E2: IndexElement,
    (): SameLabels<M1, M2> + SameIndexDim<D1, D2>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: [0, 1, 2, 3, 4, 5],
        rank: 2,
    };

    permute_methods!(Index<M2, D2, E2>);
}

impl<const M: usize, const DIM: usize, const W: usize, E: IndexElement, F: Element>
    FormatAs<Vector<W, F>> for Index<M, DIM, E>
where
    (): OneHotWidth<M, DIM, W>,
{
    const PLAN: Plan = Plan::OneHot { concat: false };

    fn format_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        dst: ArrayViewMut<'_, <Vector<W, F> as Space>::Elem, <Vector<W, F> as Space>::Dim>,
    ) {
        one_hot::<Self, Vector<W, F>>(src, dst, <Self as FormatAs<Vector<W, F>>>::PLAN)
    }
}

impl<
    const M1: usize,
    const D1: usize,
    const M2: usize,
    const D2: usize,
    E: IndexElement,
    F: Element,
> FormatAs<OneHot<M2, D2, F>> for Index<M1, D1, E>
where
    (): SameLabels<M1, M2> + SameIndexDim<D1, D2>,
{
    const PLAN: Plan = Plan::OneHot { concat: true };

    fn format_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        dst: ArrayViewMut<
            '_,
            <OneHot<M2, D2, F> as Space>::Elem,
            <OneHot<M2, D2, F> as Space>::Dim,
        >,
    ) {
        one_hot::<Self, OneHot<M2, D2, F>>(src, dst, <Self as FormatAs<OneHot<M2, D2, F>>>::PLAN)
    }
}

impl<const M1: usize, const DIM: usize, const M2: usize, E1, E2> FormatAs<Labels<M2, E2>>
    for Index<M1, DIM, E1>
where
    E1: IndexElement + CastInto<E2>,
    E2: IndexElement,
    (): SameLabels<M1, M2>,
{
    const PLAN: Plan = Plan::FirstLabel;

    fn format_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        dst: ArrayViewMut<'_, <Labels<M2, E2> as Space>::Elem, <Labels<M2, E2> as Space>::Dim>,
    ) {
        first_label(src, dst, CastInto::cast)
    }
}

impl<const M1: usize, const M2: usize, E1, E2> FormatAs<Labels<M2, E2>> for Labels<M1, E1>
where
    E1: IndexElement + CastInto<E2>,
    E2: IndexElement,
    (): SameLabels<M1, M2>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: [0, 1, 2, 3, 4, 5],
        rank: 1,
    };

    permute_methods!(Labels<M2, E2>);
}

impl<const M1: usize, const M2: usize, const D2: usize, E1, E2> FormatAs<Index<M2, D2, E2>>
    for Labels<M1, E1>
where
    E1: IndexElement + CastInto<E2>,
    E2: IndexElement,
    (): SameLabels<M1, M2> + OneLabel<D2>,
{
    const PLAN: Plan = Plan::LabelColumn;

    fn format_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        dst: ArrayViewMut<
            '_,
            <Index<M2, D2, E2> as Space>::Elem,
            <Index<M2, D2, E2> as Space>::Dim,
        >,
    ) {
        label_column(src, dst, CastInto::cast)
    }
}

impl<const M: usize, const W: usize, E: IndexElement, F: Element> FormatAs<Vector<W, F>>
    for Labels<M, E>
where
    (): OneHotWidth<M, 1, W>,
{
    const PLAN: Plan = Plan::OneHot { concat: false };

    fn format_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        dst: ArrayViewMut<'_, <Vector<W, F> as Space>::Elem, <Vector<W, F> as Space>::Dim>,
    ) {
        one_hot::<Self, Vector<W, F>>(src, dst, <Self as FormatAs<Vector<W, F>>>::PLAN)
    }
}

impl<const D1: usize, const D2: usize, L1, L2, E1, E2> FormatAs<VectorSeq<D2, L2, E2>>
    for VectorSeq<D1, L1, E1>
where
    L1: VectorSeqLayout,
    L2: VectorSeqLayout,
    E1: CastInto<E2>,
    E2: Element,
    (): VectorWidth<D1, D2>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: perm_of(L1::LETTERS, L2::LETTERS),
        rank: 3,
    };

    permute_methods!(VectorSeq<D2, L2, E2>);
}

impl<const M1: usize, const M2: usize, L1, L2, E1, E2> FormatAs<IndexSeq<M2, L2, E2>>
    for IndexSeq<M1, L1, E1>
where
    L1: IndexSeqLayout,
    L2: IndexSeqLayout,
    E1: IndexElement + CastInto<E2>,
    E2: IndexElement,
    (): SameLabels<M1, M2>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: perm_of(L1::LETTERS, L2::LETTERS),
        rank: 2,
    };

    permute_methods!(IndexSeq<M2, L2, E2>);
}

impl<const M: usize, const W: usize, L1, L2, E: IndexElement, F: Element>
    FormatAs<VectorSeq<W, L2, F>> for IndexSeq<M, L1, E>
where
    L1: IndexSeqLayout,
    L2: VectorSeqLayout,
    (): OneHotWidth<M, 1, W>,
{
    const PLAN: Plan = Plan::OneHot { concat: false };

    fn format_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        dst: ArrayViewMut<
            '_,
            <VectorSeq<W, L2, F> as Space>::Elem,
            <VectorSeq<W, L2, F> as Space>::Dim,
        >,
    ) {
        one_hot::<Self, VectorSeq<W, L2, F>>(
            src,
            dst,
            <Self as FormatAs<VectorSeq<W, L2, F>>>::PLAN,
        )
    }
}

/// A compile-time check that `A` formats as `B`:
/// `const _: () = batchspec::assert_formats::<Image<32, 32, 3, 3072>, Vector<3072>>();`
pub const fn assert_formats<A: FormatAs<B>, B: Space>() {}

const BDHWC_LETTERS: &[char] = &['b', 'd', 'h', 'w', 'c'];

/// Sizes of two volumes; holds when they are equal.
#[diagnostic::on_unimplemented(
    message = "a volume of {D1}×{H1}×{W1}×{C1} cannot be formatted as a volume of {D2}×{H2}×{W2}×{C2}",
    label = "depth, rows, columns and channels must be equal; only the layout and element type can change"
)]
pub trait SameVolume<
    const D1: usize,
    const H1: usize,
    const W1: usize,
    const C1: usize,
    const D2: usize,
    const H2: usize,
    const W2: usize,
    const C2: usize,
>
{
}
impl<const D: usize, const H: usize, const W: usize, const C: usize>
    SameVolume<D, H, W, C, D, H, W, C> for ()
{
}

/// A vector of `V` features holding a volume of total `N`; holds when `V == N`.
#[diagnostic::on_unimplemented(
    message = "a vector of {V} cannot hold a volume of {N} values",
    label = "the vector must have exactly {N} features"
)]
pub trait VectorHoldsVolume<const V: usize, const N: usize> {}
impl<const N: usize> VectorHoldsVolume<N, N> for () {}

impl<
    const D1: usize,
    const H1: usize,
    const W1: usize,
    const C1: usize,
    const N1: usize,
    const D2: usize,
    const H2: usize,
    const W2: usize,
    const C2: usize,
    const N2: usize,
    L1: VolumeLayout,
    L2: VolumeLayout,
    E1: CastInto<E2>,
    E2: Element,
> FormatAs<Volume<D2, H2, W2, C2, N2, L2, E2>> for Volume<D1, H1, W1, C1, N1, L1, E1>
where
    (): SameVolume<D1, H1, W1, C1, D2, H2, W2, C2>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: perm_of(L1::LETTERS, L2::LETTERS),
        rank: 5,
    };
    permute_methods!(Volume<D2, H2, W2, C2, N2, L2, E2>);
}

impl<
    const D: usize,
    const H: usize,
    const W: usize,
    const C: usize,
    const N: usize,
    const V: usize,
    L,
    E1,
    E2,
> FormatAs<Vector<V, E2>> for Volume<D, H, W, C, N, L, E1>
where
    L: VolumeLayout,
    E1: CastInto<E2>,
    E2: Element,
    (): VectorHoldsVolume<V, N>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: true,
        perm: perm_of(L::LETTERS, BDHWC_LETTERS),
        rank: 5,
    };
    permute_methods!(Vector<V, E2>);
}

impl<
    const D: usize,
    const H: usize,
    const W: usize,
    const C: usize,
    const N: usize,
    const V: usize,
    L,
    E1,
    E2,
> FormatAs<Volume<D, H, W, C, N, L, E2>> for Vector<V, E1>
where
    L: VolumeLayout,
    E1: CastInto<E2>,
    E2: Element,
    (): VectorHoldsVolume<V, N>,
{
    const PLAN: Plan = Plan::Permute {
        split: Some(Split::new(&[D, H, W, C])),
        flatten: false,
        perm: perm_of(BDHWC_LETTERS, L::LETTERS),
        rank: 5,
    };
    permute_methods!(Volume<D, H, W, C, N, L, E2>);
}

impl<
    const D1: usize,
    const H1: usize,
    const W1: usize,
    const C1: usize,
    const D2: usize,
    const H2: usize,
    const W2: usize,
    const C2: usize,
    L1: VolumeSeqLayout,
    L2: VolumeSeqLayout,
    E1: CastInto<E2>,
    E2: Element,
> FormatAs<VolumeSeq<D2, H2, W2, C2, L2, E2>> for VolumeSeq<D1, H1, W1, C1, L1, E1>
where
    (): SameVolume<D1, H1, W1, C1, D2, H2, W2, C2>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: perm_of(L1::LETTERS, L2::LETTERS),
        rank: 6,
    };
    permute_methods!(VolumeSeq<D2, H2, W2, C2, L2, E2>);
}
