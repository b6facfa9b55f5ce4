//! The buffer manager: one allocation holding every hub of a layout for the current (T, B),
//! views of its nodes, and resizing (the hubs' places in it are `arena`'s, the context steps of
//! recurrent buffers `context`'s).

use std::ops::Range;

use ndarray::{ArrayBase, ArrayViewD, ArrayViewMutD, Axis, Data, Dimension, ShapeBuilder};

use super::arena::{Arena, Target, target, view_mut_in, view_range, write_in};
use super::error::BufferError;
use super::hubs::{BufferLayout, ViewKey};
use super::sequences::Minibatch;
use super::template::BufferKind;
use super::typed::Template;
use crate::types::batch::{Batch, BatchView};
use crate::types::elem::Element;
use ndarray::ViewRepr;

/// Owns the memory of a [`BufferLayout`]: every hub, forward and backward, in one `Vec<E>`
/// sized for the current time steps T and batch size B.
///
/// **Arena.** Hubs follow each other in [`BufferLayout::hubs`] order: forward hubs
/// (parameters first, then constant, batch-sized, time-sized), then the backward hubs in the
/// same order. A hub's shape is `(width,)`, `(B, width)` or `(T + context, B, width)`, row-major.
///
/// **Resizing.** [`resize`](Self::resize) only reallocates when the new total exceeds what has
/// ever been allocated (it never shrinks). Constant hubs (parameters, gradients) keep their
/// contents across every resize: forward constants sit at the start of the arena, where no
/// (T, B) moves them, and backward constants are moved with the backward region. The contents of
/// batch- and time-sized hubs are unspecified after a resize that changes (T, B): fill them
/// (and [`clear_context`](Self::clear_context) or [`apply_context`](Self::apply_context)).
///
/// **Views and handles.** Views are ndarray views borrowed from the manager, fetched by path
/// (`"C.inputs.default"`) or by [`ViewId`]. Ids are plain indices into the layout: they stay valid
/// for the manager's whole life, across every resize and reallocation. Views are borrows, so the
/// borrow checker rules out a view that outlives a resize: re-fetch views after resizing (a
/// `ViewId` fetch is an index and a few multiplications, no allocation for up to four axes).
/// [`views_mut`](Self::views_mut) borrows several disjoint views mutably at once.
///
/// **Context.** A time-sized hub with context k has k rows after the T real ones; in a view,
/// row `T + k - j` is step `-j`, so `view.slice(s![-1, ..])` is step -1, the previous chunk's
/// last step. See [`carry_context`](Self::carry_context),
/// [`save_context`](Self::save_context) / [`apply_context`](Self::apply_context) and
/// [`clear_context`](Self::clear_context).
///
/// ```
/// use batchspec_core::buffer::{BufferManager, LayoutSpec, ShapeTemplate};
///
/// let mut spec = LayoutSpec::new();
/// spec.layer("Input").output("default", ShapeTemplate::time_sized([2]));
/// spec.layer("A")
///     .input("default", ["Input"])
///     .parameter("W", ShapeTemplate::constant([3, 2]))
///     .output("default", ShapeTemplate::time_sized([3]));
/// let mut buffers = BufferManager::<f32>::new(spec.build()?)?;
/// buffers.view_mut("A.parameters.W")?.fill(0.5);
/// buffers.resize(3, 4)?; // T = 3, B = 4
/// assert_eq!(buffers.view("A.outputs.default")?.shape(), &[3, 4, 3]);
/// assert_eq!(buffers.view("A.parameters.W")?.sum(), 3.0); // kept across the reallocation
/// # Ok::<(), batchspec_core::buffer::BufferError>(())
/// ```
///
/// [`ViewId`]: super::ViewId
#[derive(Debug, Clone)]
pub struct BufferManager<E = f32> {
    pub(super) layout: BufferLayout,
    pub(super) data: Vec<E>,
    pub(super) arena: Arena,
}

impl<E: Copy + Default> BufferManager<E> {
    /// Allocates forward and backward buffers for `layout` at T = B = 0 (constant hubs only).
    ///
    /// # Errors
    /// [`BufferError::Allocation`] if the constant hubs cannot be allocated.
    pub fn new(layout: BufferLayout) -> Result<Self, BufferError> {
        Self::with_backward(layout, true)
    }

    /// Like [`new`](Self::new) without backward hubs (gradients, deltas), for inference: views
    /// of backward nodes are then [`BufferError::NoBackwardBuffers`].
    ///
    /// # Errors
    /// [`BufferError::Allocation`] if the constant hubs cannot be allocated.
    pub fn forward_only(layout: BufferLayout) -> Result<Self, BufferError> {
        Self::with_backward(layout, false)
    }

    fn with_backward(layout: BufferLayout, backward: bool) -> Result<Self, BufferError> {
        let n = layout.hubs().len();
        let mut offsets = vec![0; n];
        let mut lens = vec![0; n];
        let (forward_len, len) = Arena::compute(&layout, 0, 0, backward, &mut offsets, &mut lens)?;
        let mut data = Vec::new();
        grow(&mut data, len, 0, 0)?;
        Ok(BufferManager {
            layout,
            data,
            arena: Arena {
                time_steps: 0,
                batch_size: 0,
                backward,
                offsets,
                lens,
                forward_len,
                len,
            },
        })
    }

    /// The layout being managed.
    pub fn layout(&self) -> &BufferLayout {
        &self.layout
    }

    /// The current time steps T (without context steps).
    pub fn time_steps(&self) -> usize {
        self.arena.time_steps
    }

    /// The current batch size B.
    pub fn batch_size(&self) -> usize {
        self.arena.batch_size
    }

    /// Whether backward hubs are allocated.
    pub fn has_backward(&self) -> bool {
        self.arena.backward
    }

    /// Elements in use for the current (T, B).
    pub fn len(&self) -> usize {
        self.arena.len
    }

    /// Whether no element is in use.
    pub fn is_empty(&self) -> bool {
        self.arena.len == 0
    }

    /// Elements allocated: the largest total so far.
    pub fn allocated(&self) -> usize {
        self.data.len()
    }

    /// Hub `hub`'s range in [`as_slice`](Self::as_slice) (`None` for an unknown hub or a backward
    /// hub of a forward-only manager).
    pub fn hub_range(&self, hub: usize) -> Option<Range<usize>> {
        let h = self.layout.hubs().get(hub)?;
        if h.is_backward() && !self.arena.backward {
            return None;
        }
        let off = self.arena.offsets[hub];
        Some(off..off + self.arena.lens[hub])
    }

    /// The elements in use, every hub in arena order.
    pub fn as_slice(&self) -> &[E] {
        &self.data[..self.arena.len]
    }

    /// Sizes every hub for T time steps and B sequences.
    ///
    /// A no-op when (T, B) is unchanged. Reallocates only when the total exceeds the allocation;
    /// constant hubs (parameters, gradients) keep their contents, other hubs' contents are
    /// unspecified afterwards. Views must be re-fetched (the borrow checker insists).
    ///
    /// # Errors
    /// [`BufferError::TooLarge`] when the total overflows, [`BufferError::Allocation`] when the
    /// allocator refuses; the manager is unchanged then.
    pub fn resize(&mut self, time_steps: usize, batch_size: usize) -> Result<(), BufferError> {
        let arena = &mut self.arena;
        if (time_steps, batch_size) == (arena.time_steps, arena.batch_size) {
            return Ok(());
        }
        // Fallible steps first, so an error leaves the manager as it was.
        let total = if arena.backward {
            self.layout.len(time_steps, batch_size)?
        } else {
            self.layout.forward_len(time_steps, batch_size)?
        };
        grow(&mut self.data, total, time_steps, batch_size)?;

        // Backward constants (gradients) start the backward region, which moves with (T, B).
        let old_backward_start = arena.forward_len;
        let backward_constants: usize = self
            .layout
            .hubs()
            .iter()
            .zip(&arena.lens)
            .filter(|(h, _)| h.is_backward() && h.kind() == BufferKind::Constant)
            .map(|(_, &len)| len)
            .sum();
        let (forward_len, len) = Arena::compute(
            &self.layout,
            time_steps,
            batch_size,
            arena.backward,
            &mut arena.offsets,
            &mut arena.lens,
        )?;
        if backward_constants > 0 && forward_len != old_backward_start {
            self.data.copy_within(
                old_backward_start..old_backward_start + backward_constants,
                forward_len,
            );
        }
        arena.time_steps = time_steps;
        arena.batch_size = batch_size;
        arena.forward_len = forward_len;
        arena.len = len;
        Ok(())
    }

    /// A view of the node `key`: an array or a view with a slice, in its template's shape
    /// (time-sized: `(T + context, B, F...)`).
    ///
    /// # Errors
    /// [`BufferError::UnknownView`], [`BufferError::NotAnArray`] for a view spanning several
    /// hubs, [`BufferError::NoBackwardBuffers`], [`BufferError::ForeignLayout`].
    pub fn view(&self, key: impl ViewKey) -> Result<ArrayViewD<'_, E>, BufferError> {
        let id = key.resolve(&self.layout)?;
        let t = target(&self.layout, &self.arena, id)?;
        let hub = &self.layout.hubs()[t.slice.hub()];
        let (dim, strides) =
            self.arena
                .geometry(hub.kind(), hub.width(), hub.context_size(), t.template);
        let range = view_range(&self.arena, t.slice);
        Ok(
            ArrayViewD::from_shape(dim.strides(strides), &self.data[range])
                .expect("a node's geometry lies inside its hub"),
        )
    }

    /// A mutable view of the node `key`, as [`view`](Self::view).
    ///
    /// # Errors
    /// As [`view`](Self::view).
    pub fn view_mut(&mut self, key: impl ViewKey) -> Result<ArrayViewMutD<'_, E>, BufferError> {
        let id = key.resolve(&self.layout)?;
        view_mut_in(&self.layout, &self.arena, &mut self.data, id)
    }

    /// Several mutable views at once, for example a layer's input, output and parameters.
    ///
    /// The nodes must be pairwise disjoint. Views come in their template shapes; the one
    /// exception is a leaf with several feature axes sharing a batch- or time-sized hub with
    /// other leaves, whose strided columns ndarray cannot reshape without `unsafe`
    /// ([`BufferError::NotSplittable`]; view it alone with [`view_mut`](Self::view_mut)).
    ///
    /// # Errors
    /// As [`view`](Self::view), plus [`BufferError::OverlappingViews`] naming two overlapping
    /// nodes and [`BufferError::NotSplittable`].
    pub fn views_mut<K: ViewKey, const N: usize>(
        &mut self,
        keys: [K; N],
    ) -> Result<[ArrayViewMutD<'_, E>; N], BufferError> {
        let layout = &self.layout;
        let arena = &self.arena;
        let mut targets: [Option<Target<'_>>; N] = [None; N];
        for (slot, key) in targets.iter_mut().zip(&keys) {
            *slot = Some(target(layout, arena, key.resolve(layout)?)?);
        }
        let targets = targets.map(|t| t.expect("every key resolved"));
        for i in 0..N {
            for j in i + 1..N {
                let (a, b) = (targets[i].slice, targets[j].slice);
                if a.hub() == b.hub()
                    && a.width() > 0
                    && b.width() > 0
                    && a.start() < b.stop()
                    && b.start() < a.stop()
                {
                    return Err(BufferError::OverlappingViews {
                        first: targets[i].path.to_owned(),
                        second: targets[j].path.to_owned(),
                    });
                }
            }
        }
        let mut order: [usize; N] = std::array::from_fn(|i| i);
        order.sort_unstable_by_key(|&i| {
            let s = targets[i].slice;
            (s.hub(), s.start(), s.stop())
        });

        let mut out: [Option<ArrayViewMutD<'_, E>>; N] = std::array::from_fn(|_| None);
        let mut rest: &mut [E] = &mut self.data[..arena.len];
        let mut consumed = 0;
        let mut k = 0;
        while k < N {
            let h = targets[order[k]].slice.hub();
            let hub = &layout.hubs()[h];
            let (off, len) = (arena.offsets[h], arena.lens[h]);
            let (_, tail) = std::mem::take(&mut rest).split_at_mut(off - consumed);
            let (hub_data, tail) = tail.split_at_mut(len);
            rest = tail;
            consumed = off + len;
            let dim = arena.hub_dim(hub.kind(), hub.width(), hub.context_size());
            let mut remaining =
                ArrayViewMutD::from_shape(dim, hub_data).expect("a hub's shape matches its length");
            let axis = Axis(remaining.ndim() - 1);
            let mut column = 0;
            while k < N && targets[order[k]].slice.hub() == h {
                let t = targets[order[k]];
                let skip = t.slice.start().max(column) - column;
                let (_, r) = remaining.split_at(axis, skip);
                let (piece, r) = r.split_at(axis, t.slice.width());
                remaining = r;
                column = column.max(t.slice.start()) + t.slice.width();
                let (target_dim, _) =
                    arena.geometry(hub.kind(), hub.width(), hub.context_size(), t.template);
                let view = if piece.raw_dim() == target_dim {
                    piece
                } else {
                    piece.into_shape_with_order(target_dim).map_err(|_| {
                        BufferError::NotSplittable {
                            path: t.path.to_owned(),
                            rank: t.template.features().len(),
                        }
                    })?
                };
                out[order[k]] = Some(view);
                k += 1;
            }
        }
        Ok(out.map(|v| v.expect("every view was split off")))
    }

    /// Writes `src` into the node `key`: its first T steps if time-sized (the context steps are
    /// left alone), all of it otherwise. Shapes must match exactly; nothing is broadcast.
    ///
    /// # Errors
    /// As [`view`](Self::view), plus [`BufferError::ShapeMismatch`] with both shapes.
    pub fn write<S, D>(
        &mut self,
        key: impl ViewKey,
        src: &ArrayBase<S, D>,
    ) -> Result<(), BufferError>
    where
        S: Data<Elem = E>,
        D: Dimension,
    {
        let id = key.resolve(&self.layout)?;
        write_in(
            &self.layout,
            &self.arena,
            &mut self.data,
            id,
            src.view().into_dyn(),
        )
    }

    /// Resizes to the batch's (T, B) and writes each output of `layer` from the batch item of
    /// the same name (Brainstorm's `provide_external_data`). Batch items no output asks for are
    /// ignored. Allocates nothing once the arena is large enough.
    ///
    /// # Errors
    /// [`BufferError::UnknownView`] for a layer without outputs, [`BufferError::MissingItem`]
    /// naming the output and the item, [`BufferError::ShapeMismatch`], and the errors of
    /// [`resize`](Self::resize).
    pub fn provide(&mut self, layer: &str, batch: &Minibatch<'_, E>) -> Result<(), BufferError> {
        let outputs = self
            .layout
            .node(layer)?
            .child("outputs")
            .ok_or_else(|| BufferError::UnknownView {
                path: format!("{layer}.outputs"),
                parent: layer.to_owned(),
                available: self
                    .layout
                    .node(layer)
                    .map(|n| n.children().map(|c| c.name().to_owned()).collect())
                    .unwrap_or_default(),
            })?
            .id();
        self.resize(batch.time_steps(), batch.batch_size())?;
        let Self {
            layout,
            data,
            arena,
        } = self;
        for leaf in layout.node(outputs)?.children() {
            let src = batch
                .item(leaf.name())
                .ok_or_else(|| BufferError::MissingItem {
                    path: leaf.path().to_owned(),
                    item: leaf.name().to_owned(),
                })?;
            write_in(layout, arena, data, leaf.id(), src)?;
        }
        Ok(())
    }

    /// Zeroes every backward hub (gradients and deltas).
    pub fn clear_backward(&mut self) {
        self.data[self.arena.forward_len..self.arena.len].fill(E::default());
    }
}

/// Grows `data` to `len` elements (never shrinks), reporting allocation failure.
fn grow<E: Copy + Default>(
    data: &mut Vec<E>,
    len: usize,
    time_steps: usize,
    batch_size: usize,
) -> Result<(), BufferError> {
    if len > data.len() {
        data.try_reserve_exact(len - data.len())
            .map_err(|_| BufferError::Allocation {
                elements: len,
                time_steps,
                batch_size,
            })?;
        data.resize(len, E::default());
    }
    Ok(())
}

// Leaves as typed batches (`Template`, in `typed.rs`).
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
