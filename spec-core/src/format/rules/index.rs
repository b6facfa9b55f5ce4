//! Index spaces and labels: casts, one-hot vectors (merged or concatenated), the first label.

use crate::format::Convert;
use crate::format::exec::{
    first_label, gather_one_hot, gather_permute, gather_permute_new, label_column, one_hot,
    permute_cast,
};
use crate::types::elem::{Element, IndexElement, LosslessCast};
use crate::types::plan::Plan;
use crate::types::space::{Index, Labels, OneHot, Space, Vector};
use ndarray::{ArrayView, ArrayViewMut};

/// Label ranges of two index spaces; holds when equal.
#[diagnostic::on_unimplemented(
    message = "labels in 0..{M1} cannot be formatted as labels in 0..{M2}",
    label = "the number of labels must be equal"
)]
pub trait SameLabels<const M1: usize, const M2: usize> {}
impl<T: ?Sized, const M: usize> SameLabels<M, M> for T {}

/// Labels per sample of two index spaces; holds when equal.
#[diagnostic::on_unimplemented(
    message = "the number of labels per sample differs: {D1} in the data, {D2} requested",
    label = "the number of labels per sample must be equal"
)]
pub trait SameIndexDim<const D1: usize, const D2: usize> {}
impl<T: ?Sized, const D: usize> SameIndexDim<D, D> for T {}

/// The width of a merged one-hot vector; holds when it is the number of labels.
#[diagnostic::on_unimplemented(
    message = "a one-hot of {M} labels × {DIM} needs width {M} (merged), not {W}",
    label = "a merged one-hot vector has one column per label",
    note = "for one block of {M} columns per label (Pylearn2's concatenate mode), ask for `OneHot<{M}, {DIM}>`"
)]
pub trait OneHotWidth<const M: usize, const DIM: usize, const W: usize> {}
impl<T: ?Sized, const M: usize, const DIM: usize> OneHotWidth<M, DIM, M> for T {}

/// Labels (one per sample) asked for as an index of `DIM` labels per sample; holds when
/// `DIM == 1`.
#[diagnostic::on_unimplemented(
    message = "one label per sample cannot be formatted as {DIM} labels per sample",
    label = "`Labels<M>` holds one label per sample, the request asks for {DIM}",
    note = "ask for `Index<M>` (or `Labels<M>`); a record of {DIM} labels per sample holds them as `Index<M, {DIM}>`"
)]
pub trait OneLabel<const DIM: usize> {}
impl<T: ?Sized> OneLabel<1> for T {}

impl<const M1: usize, const D1: usize, const M2: usize, const D2: usize, E1, E2>
    Convert<Index<M2, D2, E2>> for Index<M1, D1, E1>
where
    E1: IndexElement + LosslessCast<E2>,
    E2: IndexElement,
    Index<M2, D2, E2>: SameLabels<M1, M2> + SameIndexDim<D1, D2>,
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
    Convert<Vector<W, F>> for Index<M, DIM, E>
where
    Vector<W, F>: OneHotWidth<M, DIM, W>,
{
    const PLAN: Plan = Plan::OneHot { concat: false };

    one_hot_methods!(Vector<W, F>);
}

impl<
    const M1: usize,
    const D1: usize,
    const M2: usize,
    const D2: usize,
    E: IndexElement,
    F: Element,
> Convert<OneHot<M2, D2, F>> for Index<M1, D1, E>
where
    OneHot<M2, D2, F>: SameLabels<M1, M2> + SameIndexDim<D1, D2>,
{
    const PLAN: Plan = Plan::OneHot { concat: true };

    one_hot_methods!(OneHot<M2, D2, F>);
}

impl<const M1: usize, const DIM: usize, const M2: usize, E1, E2> Convert<Labels<M2, E2>>
    for Index<M1, DIM, E1>
where
    E1: IndexElement + LosslessCast<E2>,
    E2: IndexElement,
    Labels<M2, E2>: SameLabels<M1, M2>,
{
    const PLAN: Plan = Plan::FirstLabel;

    fn format_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        dst: ArrayViewMut<'_, <Labels<M2, E2> as Space>::Elem, <Labels<M2, E2> as Space>::Dim>,
    ) {
        first_label(src, dst, LosslessCast::cast)
    }
}

impl<const M1: usize, const M2: usize, E1, E2> Convert<Labels<M2, E2>> for Labels<M1, E1>
where
    E1: IndexElement + LosslessCast<E2>,
    E2: IndexElement,
    Labels<M2, E2>: SameLabels<M1, M2>,
{
    const PLAN: Plan = Plan::Permute {
        split: None,
        flatten: false,
        perm: [0, 1, 2, 3, 4, 5],
        rank: 1,
    };

    permute_methods!(Labels<M2, E2>);
}

impl<const M1: usize, const M2: usize, const D2: usize, E1, E2> Convert<Index<M2, D2, E2>>
    for Labels<M1, E1>
where
    E1: IndexElement + LosslessCast<E2>,
    E2: IndexElement,
    Index<M2, D2, E2>: SameLabels<M1, M2> + OneLabel<D2>,
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
        label_column(src, dst, LosslessCast::cast)
    }
}

impl<const M: usize, const W: usize, E: IndexElement, F: Element> Convert<Vector<W, F>>
    for Labels<M, E>
where
    Vector<W, F>: OneHotWidth<M, 1, W>,
{
    const PLAN: Plan = Plan::OneHot { concat: false };

    one_hot_methods!(Vector<W, F>);
}

/// Labels as their one-hot rows, the concatenated form of one label per sample
/// (`OneHot<M>`, the same data as `Vector<M>`).
impl<const M1: usize, const M2: usize, const D2: usize, E: IndexElement, F: Element>
    Convert<OneHot<M2, D2, F>> for Labels<M1, E>
where
    OneHot<M2, D2, F>: SameLabels<M1, M2> + SameIndexDim<1, D2>,
{
    const PLAN: Plan = Plan::OneHot { concat: false };

    one_hot_methods!(OneHot<M2, D2, F>);
}
