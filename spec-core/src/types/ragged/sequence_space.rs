//! The sequence spaces: the spaces with a time axis, whose samples a [`Ragged`](super::Ragged)
//! leaf can hold with different lengths.

use crate::types::space::{IndexSeq, Space, VectorSeq, VolumeSeq};

/// A space with a time axis, whose samples can have different lengths: [`VectorSeq`],
/// [`IndexSeq`] and [`VolumeSeq`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no time axis: a `Ragged` leaf holds sequences of different lengths",
    label = "not a sequence space",
    note = "a ragged leaf is a `VectorSeq<D>`, an `IndexSeq<M>` or a `VolumeSeq<..>`; samples of one fixed shape are a `Batch`"
)]
pub trait SequenceSpace: Space {}

#[diagnostic::do_not_recommend]
impl<const D: usize, L: crate::types::space::VectorSeqLayout, E: crate::types::elem::Element>
    SequenceSpace for VectorSeq<D, L, E>
{
}
#[diagnostic::do_not_recommend]
impl<const M: usize, L: crate::types::space::IndexSeqLayout, E: crate::types::elem::IndexElement>
    SequenceSpace for IndexSeq<M, L, E>
{
}
#[diagnostic::do_not_recommend]
impl<
    const D: usize,
    const H: usize,
    const W: usize,
    const C: usize,
    L: crate::types::space::VolumeSeqLayout,
    E: crate::types::elem::Element,
> SequenceSpace for VolumeSeq<D, H, W, C, L, E>
{
}
