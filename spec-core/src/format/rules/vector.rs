//! Vector to vector: an element cast between vectors of the same width.

use crate::format::Convert;
use crate::format::exec::{gather_permute, gather_permute_new, permute_cast};
use crate::types::elem::{Element, LosslessCast};
use crate::types::plan::Plan;
use crate::types::space::{Space, Vector};
use ndarray::{ArrayView, ArrayViewMut};

/// Widths of two vectors; holds when they are equal.
#[diagnostic::on_unimplemented(
    message = "a vector of {TO} cannot hold a vector of {FROM}",
    label = "the data has {FROM} features, the request {TO}"
)]
pub trait VectorWidth<const FROM: usize, const TO: usize> {}
impl<T: ?Sized, const N: usize> VectorWidth<N, N> for T {}

impl<const D1: usize, const D2: usize, E1: LosslessCast<E2>, E2: Element> Convert<Vector<D2, E2>>
    for Vector<D1, E1>
where
    Vector<D2, E2>: VectorWidth<D1, D2>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: [0, 1, 2, 3, 4, 5],
        rank: 2,
    };

    permute_methods!(Vector<D2, E2>);
}
