//! The vector space: `dim` features per sample, stored `bf`.

use super::Space;
use crate::types::axis::BF;
use crate::types::elem::Element;
use core::marker::PhantomData;

/// A batch of vectors of `D` features: shape `(batch, D)`, layout `bf` (Pylearn2's
/// `VectorSpace(dim=D)`, dp's `bf`).
pub struct Vector<const D: usize, E = f32>(PhantomData<fn() -> E>);

impl<const D: usize, E: Element> Space for Vector<D, E> {
    type Elem = E;
    type Dim = ndarray::Ix2;
    type Layout = BF;
    const SHAPE: &'static [Option<usize>] = &[None, Some(D)];
    const BATCH_AXIS: usize = 0;
    const FEATURES: Option<usize> = Some(D);
    const KIND: &'static str = "vector";
}
