//! Index spaces: integer labels in `0..max_labels` (Pylearn2's `IndexSpace`, dp's class view).

use super::Space;
use crate::types::axis::{B, BK};
use crate::types::elem::IndexElement;
use core::marker::PhantomData;

/// A batch of `DIM` labels per sample, each in `0..M`: shape `(batch, DIM)`, layout `bk`
/// (Pylearn2's `IndexSpace(max_labels=M, dim=DIM)`, dp's class view `bt`).
///
/// Building a batch checks every label: a negative label or one not below `M` is an error,
/// never wrapped.
pub struct Index<const M: usize, const DIM: usize = 1, E = i64>(PhantomData<fn() -> E>);

impl<const M: usize, const DIM: usize, E: IndexElement> Space for Index<M, DIM, E> {
    type Elem = E;
    type Dim = ndarray::Ix2;
    type Layout = BK;
    type Form = crate::types::space::form::IndexForm;
    const SHAPE: &'static [Option<usize>] = &[None, Some(DIM)];
    const BATCH_AXIS: usize = 0;
    const FEATURES: Option<usize> = Some(DIM);
    const MAX_LABELS: Option<usize> = Some(M);
    const KIND: &'static str = "index";
}

/// One label per sample in `0..M`: shape `(batch,)`, layout `b` (dp's class view `b`, MXNet's
/// `softmax_label`).
pub struct Labels<const M: usize, E = i64>(PhantomData<fn() -> E>);

impl<const M: usize, E: IndexElement> Space for Labels<M, E> {
    type Elem = E;
    type Dim = ndarray::Ix1;
    type Layout = (B,);
    type Form = crate::types::space::form::LabelsForm;
    const SHAPE: &'static [Option<usize>] = &[None];
    const BATCH_AXIS: usize = 0;
    const FEATURES: Option<usize> = Some(1);
    const MAX_LABELS: Option<usize> = Some(M);
    const KIND: &'static str = "labels";
}

/// The concatenated one-hot form of an `Index<M, DIM>`: `DIM` blocks of `M` columns per sample,
/// shape `(batch, M × DIM)` (Pylearn2's concatenate mode). For `DIM = 1` it is the same data as
/// the merged form `Vector<M>`.
pub struct OneHot<const M: usize, const DIM: usize = 1, E = f32>(PhantomData<fn() -> E>);

impl<const M: usize, const DIM: usize, E: crate::types::elem::Element> Space for OneHot<M, DIM, E> {
    type Elem = E;
    type Dim = ndarray::Ix2;
    type Layout = crate::types::axis::BF;
    type Form = crate::types::space::form::OneHotForm;
    const SHAPE: &'static [Option<usize>] = &[None, Some(M * DIM)];
    const BATCH_AXIS: usize = 0;
    const FEATURES: Option<usize> = Some(M * DIM);
    const KIND: &'static str = "one-hot";
}
