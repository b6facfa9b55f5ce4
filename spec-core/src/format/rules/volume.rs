//! Volumes (rank 5) and volume sequences (rank 6): another layout, and a volume to or from a
//! vector of its total size.

use crate::format::Convert;
use crate::format::exec::{gather_permute, gather_permute_new, permute_cast};
use crate::format::rules::{BDHWC_LETTERS, perm_of};
use crate::types::elem::{Element, LosslessCast};
use crate::types::plan::{Plan, Split};
use crate::types::space::{Space, Vector, Volume, VolumeLayout, VolumeSeq, VolumeSeqLayout};
use ndarray::{ArrayView, ArrayViewMut};

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
impl<T: ?Sized, const D: usize, const H: usize, const W: usize, const C: usize>
    SameVolume<D, H, W, C, D, H, W, C> for T
{
}

/// A vector of `V` features holding a volume of total `N`; holds when `V == N`.
#[diagnostic::on_unimplemented(
    message = "a vector of {V} cannot hold a volume of {N} values",
    label = "the vector must have exactly {N} features"
)]
pub trait VectorHoldsVolume<const V: usize, const N: usize> {}
impl<T: ?Sized, const N: usize> VectorHoldsVolume<N, N> for T {}

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
    E1: LosslessCast<E2>,
    E2: Element,
> Convert<Volume<D2, H2, W2, C2, N2, L2, E2>> for Volume<D1, H1, W1, C1, N1, L1, E1>
where
    Volume<D2, H2, W2, C2, N2, L2, E2>: SameVolume<D1, H1, W1, C1, D2, H2, W2, C2>,
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
> Convert<Vector<V, E2>> for Volume<D, H, W, C, N, L, E1>
where
    L: VolumeLayout,
    E1: LosslessCast<E2>,
    E2: Element,
    Vector<V, E2>: VectorHoldsVolume<V, N>,
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
> Convert<Volume<D, H, W, C, N, L, E2>> for Vector<V, E1>
where
    L: VolumeLayout,
    E1: LosslessCast<E2>,
    E2: Element,
    Volume<D, H, W, C, N, L, E2>: VectorHoldsVolume<V, N>,
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
    E1: LosslessCast<E2>,
    E2: Element,
> Convert<VolumeSeq<D2, H2, W2, C2, L2, E2>> for VolumeSeq<D1, H1, W1, C1, L1, E1>
where
    VolumeSeq<D2, H2, W2, C2, L2, E2>: SameVolume<D1, H1, W1, C1, D2, H2, W2, C2>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: perm_of(L1::LETTERS, L2::LETTERS),
        rank: 6,
    };
    permute_methods!(VolumeSeq<D2, H2, W2, C2, L2, E2>);
}
