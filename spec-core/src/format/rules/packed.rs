//! The computed leaves of packed rows and of padded batches (`Segments`, `Positions`,
//! `Attention`, `CuSeqlens`, `Mask`): each into itself, in another layout or element type, by a
//! lossless cast; into nothing else.

use crate::format::Convert;
use crate::format::exec::{gather_permute, gather_permute_new, permute_cast};
use crate::format::rules::perm_of;
use crate::types::elem::{Element, IndexElement, LosslessCast};
use crate::types::plan::Plan;
use crate::types::space::{Attention, CuSeqlens, IndexSeqLayout, Mask, Positions, Segments, Space};
use ndarray::{ArrayView, ArrayViewMut};

/// A `Convert` impl between two spaces `$space<L, E>` of a sequence layout (`BT` or `TB`).
macro_rules! per_token {
    ($space:ident, $elem:ident) => {
        impl<L1, L2, E1, E2> Convert<$space<L2, E2>> for $space<L1, E1>
        where
            L1: IndexSeqLayout,
            L2: IndexSeqLayout,
            E1: $elem + LosslessCast<E2>,
            E2: $elem,
        {
            const PLAN: Plan = Plan::Permute {
                split: None,
                flatten: false,
                perm: perm_of(L1::LETTERS, L2::LETTERS),
                rank: 2,
            };

            permute_methods!($space<L2, E2>);
        }
    };
}

per_token!(Segments, IndexElement);
per_token!(Positions, IndexElement);
per_token!(Mask, Element);

/// A `Convert` impl between two spaces `$space<E>` of one layout: a cast.
macro_rules! cast_only {
    ($space:ident, $elem:ident, $rank:literal) => {
        impl<E1, E2> Convert<$space<E2>> for $space<E1>
        where
            E1: $elem + LosslessCast<E2>,
            E2: $elem,
        {
            const PLAN: Plan = Plan::Permute {
                split: None,
                flatten: false,
                perm: [0, 1, 2, 3, 4, 5],
                rank: $rank,
            };

            permute_methods!($space<E2>);
        }
    };
}

cast_only!(Attention, Element, 3);
cast_only!(CuSeqlens, IndexElement, 2);
