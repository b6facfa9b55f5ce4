//! Images: another layout (a transpose), and an image to or from a vector of its total size.

use crate::format::Convert;
use crate::format::exec::{gather_permute, gather_permute_new, permute_cast};
use crate::format::rules::{BHWC_LETTERS, perm_of};
use crate::types::elem::{Element, LosslessCast};
use crate::types::plan::{Plan, Split};
use crate::types::space::{Image, ImageLayout, Space, Vector};
use ndarray::{ArrayView, ArrayViewMut};

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
impl<T: ?Sized, const H: usize, const W: usize, const C: usize> SameImage<H, W, C, H, W, C> for T {}

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
// For the vectors alone: implemented for every type, it left rustc nothing to say of
// `format_through`'s chains but the list of their impls.
impl<const D: usize, const H: usize, const W: usize, const C: usize, E: Element>
    VectorHoldsImage<D, H, W, C, D> for Vector<D, E>
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
impl<T: ?Sized, const D: usize, const H: usize, const W: usize, const C: usize>
    ImageFromVector<D, H, W, C, D> for T
{
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
    E1: LosslessCast<E2>,
    E2: Element,
> Convert<Image<H2, W2, C2, N2, L2, E2>> for Image<H1, W1, C1, N1, L1, E1>
where
    Image<H2, W2, C2, N2, L2, E2>: SameImage<H1, W1, C1, H2, W2, C2>,
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
    E1: LosslessCast<E2>,
    E2: Element,
> Convert<Vector<D, E2>> for Image<H, W, C, N, L, E1>
where
    Vector<D, E2>: VectorHoldsImage<D, H, W, C, N>,
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
    E1: LosslessCast<E2>,
    E2: Element,
> Convert<Image<H, W, C, N, L, E2>> for Vector<D, E1>
where
    Image<H, W, C, N, L, E2>: ImageFromVector<D, H, W, C, N>,
{
    const PLAN: Plan = Plan::Permute {
        split: Some(Split::new(&[H, W, C])),
        flatten: false,
        perm: perm_of(BHWC_LETTERS, L::LETTERS),
        rank: 4,
    };

    permute_methods!(Image<H, W, C, N, L, E2>);
}
