//! The typed side of buffer layouts: a space says which kind of buffer its leaf lives in, and a
//! leaf of the arena is handed out as a batch of that space.
//!
//! Brainstorm's templates are `(B, F...)` for batch-sized and `(T, B, F...)` for time-sized
//! buffers. A [`Vector`] and a `BHWC` [`Image`] are batch-sized, a [`VectorSeq`] in `TBF` is
//! time-sized; any other layout does not compile as a buffer leaf. A provider can gather a
//! request straight into the arena through batches that borrow it mutably
//! ([`BufferManager::batch_view_mut`]).

use super::error::BufferError;
use super::{BufferManager, LayerSpec, ShapeTemplate, ViewKey};
use crate::types::axis::{BHWC, TBF};
use crate::types::batch::{Batch, BatchView};
use crate::types::elem::Element;
use crate::types::space::{Image, Space, Vector, VectorSeq};
use ndarray::ViewRepr;

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

impl LayerSpec {
    /// An output whose template is that of the space `S`.
    pub fn output_of<S: Template>(&mut self, name: impl Into<String>) -> &mut Self {
        self.output(name, S::template())
    }
}

impl<E: Element> BufferManager<E> {
    /// The leaf at `key` as a batch of `S`.
    ///
    /// # Errors
    /// A [`BufferError`] for an unknown key, or the shape error of a leaf
    /// whose template is not that of `S`.
    pub fn batch_view<S: Template<Elem = E>>(
        &self,
        key: impl ViewKey,
    ) -> Result<BatchView<'_, S>, BufferError> {
        Ok(BatchView::<S>::from_dyn(self.view(key)?)?)
    }

    /// The leaf at `key` as a batch of `S` that borrows the arena mutably: gather a provider's
    /// batch into it and the arena is filled without an allocation.
    ///
    /// # Errors
    /// As [`BufferManager::batch_view`].
    pub fn batch_view_mut<S: Template<Elem = E>>(
        &mut self,
        key: impl ViewKey,
    ) -> Result<Batch<S, ViewRepr<&mut E>>, BufferError> {
        Ok(Batch::<S, ViewRepr<&mut E>>::from_dyn(self.view_mut(key)?)?)
    }
}
