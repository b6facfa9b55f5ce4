//! Sequence spaces: a dynamic time axis besides the batch axis (Pylearn2's
//! `VectorSequenceSpace` and `IndexSequenceSpace`, extended to batches of sequences).

use super::{Space, letters_shape};
use crate::types::axis::{Axis, B, BT, BTF, F, Layout, T};
use crate::types::elem::{Element, IndexElement};
use core::marker::PhantomData;

/// A batch of sequences of vectors of `D` features: the time axis is dynamic. Layout `L` is an
/// order of `b`, `t`, `f` (`BTF` by default, `TBF` for time-major).
pub struct VectorSeq<const D: usize, L = BTF, E = f32>(PhantomData<fn() -> (L, E)>);

/// A batch of sequences of labels in `0..M`. Layout `L` is `BT` or `TB`.
pub struct IndexSeq<const M: usize, L = BT, E = i64>(PhantomData<fn() -> (L, E)>);

/// A layout of a vector sequence: one of the 6 orders of `b`, `t`, `f`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a layout of a vector sequence",
    label = "a vector-sequence layout orders the three axes B, T and F",
    note = "use `BTF`, `TBF` or another order of `(B, T, F)`"
)]
pub trait VectorSeqLayout: Layout {}

impl<const E: usize> VectorSeqLayout for crate::types::axis::NotALayout<E> {}
#[diagnostic::do_not_recommend]
impl VectorSeqLayout for (B, T, F) {}
#[diagnostic::do_not_recommend]
impl VectorSeqLayout for (B, F, T) {}
#[diagnostic::do_not_recommend]
impl VectorSeqLayout for (T, B, F) {}
#[diagnostic::do_not_recommend]
impl VectorSeqLayout for (T, F, B) {}
#[diagnostic::do_not_recommend]
impl VectorSeqLayout for (F, B, T) {}
#[diagnostic::do_not_recommend]
impl VectorSeqLayout for (F, T, B) {}

/// A layout of an index sequence: `BT` or `TB`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a layout of an index sequence",
    label = "an index-sequence layout orders the two axes B and T",
    note = "use `BT` or `TB`"
)]
pub trait IndexSeqLayout: Layout {}

impl<const E: usize> IndexSeqLayout for crate::types::axis::NotALayout<E> {}
#[diagnostic::do_not_recommend]
impl IndexSeqLayout for (B, T) {}
#[diagnostic::do_not_recommend]
impl IndexSeqLayout for (T, B) {}

const fn pos(letters: &[char], c: char) -> usize {
    match crate::types::axis::position(letters, c) {
        Some(p) => p,
        None => 0,
    }
}

impl<const D: usize, L: VectorSeqLayout, E: Element> Space for VectorSeq<D, L, E> {
    type Elem = E;
    type Dim = ndarray::Ix3;
    type Layout = L;
    type Form = crate::types::space::form::VectorSeqForm;
    const SHAPE: &'static [Option<usize>] = &letters_shape::<3>(L::LETTERS, &[(F::LETTER, D)]);
    const BATCH_AXIS: usize = pos(L::LETTERS, B::LETTER);
    const TIME_AXIS: Option<usize> = Some(pos(L::LETTERS, T::LETTER));
    const FEATURES: Option<usize> = None;
    const KIND: &'static str = "vector sequence";
}

impl<const M: usize, L: IndexSeqLayout, E: IndexElement> Space for IndexSeq<M, L, E> {
    type Elem = E;
    type Dim = ndarray::Ix2;
    type Layout = L;
    type Form = crate::types::space::form::IndexSeqForm;
    const SHAPE: &'static [Option<usize>] = &[None, None];
    const BATCH_AXIS: usize = pos(L::LETTERS, B::LETTER);
    const TIME_AXIS: Option<usize> = Some(pos(L::LETTERS, T::LETTER));
    const FEATURES: Option<usize> = None;
    const MAX_LABELS: Option<usize> = Some(M);
    const KIND: &'static str = "index sequence";
}

/// The number of time steps of each sample of a sequence source in a batch: shape `(batch,)`.
/// A request asks for it beside the padded sequence with `#[spec(lengths_of = "tokens")]`;
/// it is computed, not stored.
pub struct Lengths<E = i64>(PhantomData<fn() -> E>);

impl<E: IndexElement> Space for Lengths<E> {
    type Elem = E;
    type Dim = ndarray::Ix1;
    type Layout = (B,);
    type Form = crate::types::space::form::LengthsForm;
    const SHAPE: &'static [Option<usize>] = &[None];
    const BATCH_AXIS: usize = 0;
    const FEATURES: Option<usize> = Some(1);
    const KIND: &'static str = "lengths";
}

/// Which steps of a padded batch of sequences are data (1) and which are padding (0): shape
/// `(batch, time)` in layout `BT` (or `TB`, time-major). A request asks for it beside the padded
/// sequence with `#[spec(mask_of = "tokens")]`; it is computed, not stored.
pub struct Mask<L = BT, E = f32>(PhantomData<fn() -> (L, E)>);

impl<L: IndexSeqLayout, E: Element> Space for Mask<L, E> {
    type Elem = E;
    type Dim = ndarray::Ix2;
    type Layout = L;
    type Form = crate::types::space::form::MaskForm;
    const SHAPE: &'static [Option<usize>] = &[None, None];
    const BATCH_AXIS: usize = pos(L::LETTERS, B::LETTER);
    const TIME_AXIS: Option<usize> = Some(pos(L::LETTERS, T::LETTER));
    const FEATURES: Option<usize> = None;
    const KIND: &'static str = "mask";
}
