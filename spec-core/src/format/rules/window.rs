//! Windows: another layout (a transpose), a window to or from a vector of its total size (dp's
//! `bwc` to `bf`); and one value per sample to or from a vector of one feature (dp's `b` of a
//! `bf` whose `f` is 1).

use crate::format::Convert;
use crate::format::exec::{
    first_label, gather_permute, gather_permute_new, label_column, permute_cast,
};
use crate::format::rules::{BWC_LETTERS, perm_of};
use crate::types::elem::{Element, LosslessCast};
use crate::types::plan::{Plan, Split};
use crate::types::space::{Scalar, Space, Vector, Window, WindowLayout};
use ndarray::{ArrayView, ArrayViewMut};

/// Sizes of two windows; holds when they are equal.
#[diagnostic::on_unimplemented(
    message = "a window of {W1}×{C1} cannot be formatted as a window of {W2}×{C2}",
    label = "steps and channels must be equal; only the layout and element type can change"
)]
pub trait SameWindow<const W1: usize, const C1: usize, const W2: usize, const C2: usize> {}
impl<T: ?Sized, const W: usize, const C: usize> SameWindow<W, C, W, C> for T {}

/// A vector of `D` holding a window of `W × C = N`; holds when `D == N`.
#[diagnostic::on_unimplemented(
    message = "a vector of {D} cannot hold a window of {W}×{C} = {N}",
    label = "the vector must have exactly {N} features"
)]
pub trait VectorHoldsWindow<const D: usize, const W: usize, const C: usize, const N: usize> {}
impl<T: ?Sized, const D: usize, const W: usize, const C: usize> VectorHoldsWindow<D, W, C, D>
    for T
{
}

/// A window of `W × C = N` filled from a vector of `D`; holds when `D == N`.
#[diagnostic::on_unimplemented(
    message = "a window of {W}×{C} = {N} cannot be filled from a vector of {D}",
    label = "the vector must have exactly {N} features"
)]
pub trait WindowFromVector<const D: usize, const W: usize, const C: usize, const N: usize> {}
impl<T: ?Sized, const D: usize, const W: usize, const C: usize> WindowFromVector<D, W, C, D> for T {}

/// A vector of `D` features as one value per sample; holds when `D == 1`.
#[diagnostic::on_unimplemented(
    message = "a vector of {D} features is not one value per sample",
    label = "only a vector of 1 feature formats as a `Scalar` and back"
)]
pub trait OneFeature<const D: usize> {}
impl<T: ?Sized> OneFeature<1> for T {}

impl<
    const W1: usize,
    const C1: usize,
    const N1: usize,
    const W2: usize,
    const C2: usize,
    const N2: usize,
    L1: WindowLayout,
    L2: WindowLayout,
    E1: LosslessCast<E2>,
    E2: Element,
> Convert<Window<W2, C2, N2, L2, E2>> for Window<W1, C1, N1, L1, E1>
where
    Window<W2, C2, N2, L2, E2>: SameWindow<W1, C1, W2, C2>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: perm_of(L1::LETTERS, L2::LETTERS),
        rank: 3,
    };

    permute_methods!(Window<W2, C2, N2, L2, E2>);
}

impl<
    const W: usize,
    const C: usize,
    const N: usize,
    const D: usize,
    L: WindowLayout,
    E1: LosslessCast<E2>,
    E2: Element,
> Convert<Vector<D, E2>> for Window<W, C, N, L, E1>
where
    Vector<D, E2>: VectorHoldsWindow<D, W, C, N>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: true,
        perm: perm_of(L::LETTERS, BWC_LETTERS),
        rank: 3,
    };

    permute_methods!(Vector<D, E2>);
}

impl<
    const W: usize,
    const C: usize,
    const N: usize,
    const D: usize,
    L: WindowLayout,
    E1: LosslessCast<E2>,
    E2: Element,
> Convert<Window<W, C, N, L, E2>> for Vector<D, E1>
where
    Window<W, C, N, L, E2>: WindowFromVector<D, W, C, N>,
{
    const PLAN: Plan = Plan::Permute {
        split: Some(Split::new(&[W, C])),
        flatten: false,
        perm: perm_of(BWC_LETTERS, L::LETTERS),
        rank: 3,
    };

    permute_methods!(Window<W, C, N, L, E2>);
}

impl<E1: LosslessCast<E2>, E2: Element> Convert<Scalar<E2>> for Scalar<E1> {
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: [0, 1, 2, 3, 4, 5],
        rank: 1,
    };

    permute_methods!(Scalar<E2>);
}

impl<const D: usize, E1: LosslessCast<E2>, E2: Element> Convert<Scalar<E2>> for Vector<D, E1>
where
    Scalar<E2>: OneFeature<D>,
{
    const PLAN: Plan = Plan::FirstLabel;

    fn format_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        dst: ArrayViewMut<'_, E2, ndarray::Ix1>,
    ) {
        first_label(src, dst, LosslessCast::cast)
    }
}

impl<const D: usize, E1: LosslessCast<E2>, E2: Element> Convert<Vector<D, E2>> for Scalar<E1>
where
    Vector<D, E2>: OneFeature<D>,
{
    const PLAN: Plan = Plan::LabelColumn;

    fn format_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        dst: ArrayViewMut<'_, E2, ndarray::Ix2>,
    ) {
        label_column(src, dst, LosslessCast::cast)
    }
}
