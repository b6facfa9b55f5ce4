//! Sequences of vectors and of indices: another layout, casts, one-hot.

use crate::format::Convert;
use crate::format::exec::{gather_permute, gather_permute_new, one_hot, permute_cast};
use crate::format::rules::index::{OneHotWidth, SameLabels};
use crate::format::rules::perm_of;
use crate::format::rules::vector::VectorWidth;
use crate::types::elem::{Element, IndexElement, LosslessCast};
use crate::types::plan::Plan;
use crate::types::space::{IndexSeq, IndexSeqLayout, Space, VectorSeq, VectorSeqLayout};
use ndarray::{ArrayView, ArrayViewMut};

impl<const D1: usize, const D2: usize, L1, L2, E1, E2> Convert<VectorSeq<D2, L2, E2>>
    for VectorSeq<D1, L1, E1>
where
    L1: VectorSeqLayout,
    L2: VectorSeqLayout,
    E1: LosslessCast<E2>,
    E2: Element,
    VectorSeq<D2, L2, E2>: VectorWidth<D1, D2>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: perm_of(L1::LETTERS, L2::LETTERS),
        rank: 3,
    };

    permute_methods!(VectorSeq<D2, L2, E2>);
}

impl<const M1: usize, const M2: usize, L1, L2, E1, E2> Convert<IndexSeq<M2, L2, E2>>
    for IndexSeq<M1, L1, E1>
where
    L1: IndexSeqLayout,
    L2: IndexSeqLayout,
    E1: IndexElement + LosslessCast<E2>,
    E2: IndexElement,
    IndexSeq<M2, L2, E2>: SameLabels<M1, M2>,
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
    Convert<VectorSeq<W, L2, F>> for IndexSeq<M, L1, E>
where
    L1: IndexSeqLayout,
    L2: VectorSeqLayout,
    VectorSeq<W, L2, F>: OneHotWidth<M, 1, W>,
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
        one_hot::<Self, VectorSeq<W, L2, F>>(src, dst, <Self as Convert<VectorSeq<W, L2, F>>>::PLAN)
    }
}
