//! The seam for conversions that are not a permutation of axes: crops, flips, pads,
//! normalizations. A [`Step`] says what space it makes of an input space and moves the data
//! itself; a request asks for its output as [`Through<X, S>`]: the space `S`, reached from the
//! record's space through the step `X`.
//!
//! `Through` is a space of its own, so a step never overlaps the blanket conversions between
//! spaces of one kind (an image of 32×32 into an image of 28×28 is refused by them; through a
//! crop it is a step). Adding a transform is one new file with its `Step` impls, plus its `mod`
//! line in `format/mod.rs`.

use super::Convert;
use crate::types::plan::Plan;
use crate::types::space::Space;
use core::marker::PhantomData;
use ndarray::{ArrayView, ArrayViewMut};

/// A conversion from the space `In` to the space [`Step::Out`] that is not a permutation of
/// axes. Implement it for each input space the step accepts; an input it does not accept does
/// not compile.
#[diagnostic::on_unimplemented(
    message = "the step `{Self}` cannot be applied to `{In}`",
    label = "no such step for this space"
)]
pub trait Step<In: Space>: 'static + Send + Sync {
    /// The space the step makes.
    type Out: Space;

    /// Writes the step of the batch `src` into `dst`, which has the shape of `Out` for the same
    /// number of samples.
    fn run(
        src: ArrayView<'_, In::Elem, In::Dim>,
        dst: ArrayViewMut<'_, <Self::Out as Space>::Elem, <Self::Out as Space>::Dim>,
    );
}

/// The space `S`, reached through the step `X`: what a request names to have its leaf go
/// through a step. Everything about it as a space (shape, layout, element type) is `S`'s.
pub struct Through<X, S>(PhantomData<fn() -> (X, S)>);

impl<X: 'static, S: Space> Space for Through<X, S> {
    type Elem = S::Elem;
    type Dim = S::Dim;
    type Layout = S::Layout;
    type Form = S::Form;
    const SHAPE: &'static [Option<usize>] = S::SHAPE;
    const BATCH_AXIS: usize = S::BATCH_AXIS;
    const TIME_AXIS: Option<usize> = S::TIME_AXIS;
    const FEATURES: Option<usize> = S::FEATURES;
    const MAX_LABELS: Option<usize> = S::MAX_LABELS;
    const KIND: &'static str = S::KIND;

    fn check_space() -> Result<(), String> {
        S::check_space()
    }
}

impl<In: Space, X: Step<In, Out = S>, S: Space> Convert<Through<X, S>> for In {
    const PLAN: Plan = Plan::Step;

    fn format_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        dst: ArrayViewMut<'_, S::Elem, S::Dim>,
    ) {
        X::run(src, dst)
    }
}
