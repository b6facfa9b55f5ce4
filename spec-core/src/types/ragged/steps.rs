//! The memory of a ragged sample: its steps one after the other, each step's axes in the
//! space's memory order, and views of such a sample as a batch of one sample of the space.

use crate::types::space::Space;
use ndarray::{ArrayView, ArrayViewMut, Dimension, ShapeBuilder};

/// The axes of one step of `S` (every axis but the batch and time axes) in memory order: their
/// letters' positions and sizes.
fn step_axes<S: Space>() -> impl Iterator<Item = (usize, usize)> {
    S::SHAPE
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|n| (i, n)))
}

/// The number of values of one step of `S`.
pub(crate) fn step_len<S: Space>() -> usize {
    step_axes::<S>().map(|(_, n)| n).product()
}

/// The shape and strides of one sample of `t` steps stored as a ragged leaf stores it (steps one
/// after the other, each step's axes in `S`'s memory order), seen as a batch of one sample of `S`.
/// Built without allocating: a gather computes it for every sample.
fn sample_layout<S: Space>(t: usize) -> (S::Dim, S::Dim) {
    let shape = crate::types::space::dim_of::<S>(1, t);
    let mut strides = S::Dim::zeros(S::SHAPE.len());
    let mut stride = 1;
    for (i, s) in S::SHAPE.iter().enumerate().rev() {
        if let Some(n) = s {
            strides[i] = stride;
            stride *= n;
        }
    }
    if let Some(ta) = S::TIME_AXIS {
        strides[ta] = stride;
    }
    (shape, strides)
}

/// Views `values` (one sample of `t` steps) as a batch of one sample of `S`.
pub(crate) fn sample_view<S: Space>(
    values: &[S::Elem],
    t: usize,
) -> ArrayView<'_, S::Elem, S::Dim> {
    let (shape, strides) = sample_layout::<S>(t);
    // ndarray refuses custom strides over an empty slice; an empty sample needs none.
    let shaped = if t == 0 {
        ArrayView::from_shape(shape, values)
    } else {
        ArrayView::from_shape(shape.strides(strides), values)
    };
    shaped.unwrap_or_else(|_| unreachable!("a sample holds t steps of the step's size"))
}

/// Views `values` (room for one sample of `t` steps) mutably as a batch of one sample of `S`.
pub(crate) fn sample_view_mut<S: Space>(
    values: &mut [S::Elem],
    t: usize,
) -> ArrayViewMut<'_, S::Elem, S::Dim> {
    let (shape, strides) = sample_layout::<S>(t);
    let shaped = if t == 0 {
        ArrayViewMut::from_shape(shape, values)
    } else {
        ArrayViewMut::from_shape(shape.strides(strides), values)
    };
    shaped.unwrap_or_else(|_| unreachable!("a sample holds t steps of the step's size"))
}

/// The shape of one step of `S`, in memory order.
pub(super) fn step_shape<S: Space>() -> Vec<usize> {
    step_axes::<S>().map(|(_, n)| n).collect()
}
