//! The vector space: `dim` features per sample, stored `bf`.

use super::Space;
use crate::types::axis::{B, BF};
use crate::types::elem::Element;
use core::marker::PhantomData;

/// A batch of vectors of `D` features: shape `(batch, D)`, layout `bf` (Pylearn2's
/// `VectorSpace(dim=D)`, dp's `bf`).
pub struct Vector<const D: usize, E = f32>(PhantomData<fn() -> E>);

impl<const D: usize, E: Element> Space for Vector<D, E> {
    type Elem = E;
    type Dim = ndarray::Ix2;
    type Layout = BF;
    type Form = crate::types::space::form::VectorForm;
    const SHAPE: &'static [Option<usize>] = &[None, Some(D)];
    const BATCH_AXIS: usize = 0;
    const FEATURES: Option<usize> = Some(D);
    const KIND: &'static str = "vector";
}

/// One value per sample: shape `(batch,)`, layout `b` (dp's view `b` of real values, such as a
/// regression target). A `Vector<1>` formats as it and back; a vector of more features does
/// not (dp: "if the original view was bf, the size of axis f must be 1").
pub struct Scalar<E = f32>(PhantomData<fn() -> E>);

impl<E: Element> Space for Scalar<E> {
    type Elem = E;
    type Dim = ndarray::Ix1;
    type Layout = (B,);
    type Form = crate::types::space::form::ScalarForm;
    const SHAPE: &'static [Option<usize>] = &[None];
    const BATCH_AXIS: usize = 0;
    const FEATURES: Option<usize> = Some(1);
    const KIND: &'static str = "scalar";
}
