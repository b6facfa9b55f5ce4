//! The typed side of buffer layouts: a space says which kind of buffer its leaf lives in, and a
//! leaf of the arena is handed out as a batch of that space.
//!
//! Brainstorm's templates are `(B, F...)` for batch-sized and `(T, B, F...)` for time-sized
//! buffers. A [`Vector`] and a `BHWC` [`Image`] are batch-sized, a [`VectorSeq`] in `TBF` is
//! time-sized; any other layout does not compile as a buffer leaf. A provider can gather a
//! request straight into the arena through batches that borrow it mutably
//! ([`BufferManager::batch_view_mut`](super::BufferManager::batch_view_mut)).

use super::ShapeTemplate;
use crate::types::axis::{BHWC, TBF};
use crate::types::elem::Element;
use crate::types::space::{Image, Space, Vector, VectorSeq};

/// A space whose batches can live in a buffer of a layout: its shape template.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a leaf of a buffer layout",
    label = "buffers are (B, F...) or (T, B, F...)",
    note = "batch-sized leaves are a `Vector` or a `BHWC` image, time-sized ones a `VectorSeq` in `TBF`"
)]
pub trait Template: Space {
    /// The template of the space's leaf.
    fn template() -> ShapeTemplate;
}

impl<const D: usize, E: Element> Template for Vector<D, E> {
    fn template() -> ShapeTemplate {
        ShapeTemplate::batch_sized([D])
    }
}

impl<const H: usize, const W: usize, const C: usize, const N: usize, E: Element> Template
    for Image<H, W, C, N, BHWC, E>
{
    fn template() -> ShapeTemplate {
        ShapeTemplate::batch_sized([H, W, C])
    }
}

impl<const D: usize, E: Element> Template for VectorSeq<D, TBF, E> {
    fn template() -> ShapeTemplate {
        ShapeTemplate::time_sized([D])
    }
}
