//! The arena of a [`BufferManager`](super::BufferManager): where each hub sits in its one
//! allocation for the current (T, B), the shape and strides of a node's view there, and the
//! view requests resolved to a hub's columns.

use std::ops::Range;

use ndarray::{ArrayViewD, ArrayViewMutD, Axis, Dimension, IxDyn, ShapeBuilder, Slice};

use super::error::BufferError;
use super::hubs::{BufferLayout, HubSlice, ViewId};
use super::template::{BufferKind, ShapeTemplate};

/// Where each hub is for the current (T, B).
#[derive(Debug, Clone)]
pub(super) struct Arena {
    pub(super) time_steps: usize,
    pub(super) batch_size: usize,
    pub(super) backward: bool,
    pub(super) offsets: Vec<usize>,
    pub(super) lens: Vec<usize>,
    pub(super) forward_len: usize,
    pub(super) len: usize,
}

impl Arena {
    pub(super) fn compute(
        layout: &BufferLayout,
        time_steps: usize,
        batch_size: usize,
        backward: bool,
        offsets: &mut [usize],
        lens: &mut [usize],
    ) -> Result<(usize, usize), BufferError> {
        let too_large = BufferError::TooLarge {
            time_steps,
            batch_size,
        };
        let mut at = 0usize;
        let mut forward_len = 0;
        for (h, hub) in layout.hubs().iter().enumerate() {
            offsets[h] = at;
            if hub.is_backward() && !backward {
                lens[h] = 0;
                continue;
            }
            lens[h] = hub
                .len(time_steps, batch_size)
                .ok_or_else(|| too_large.clone())?;
            at = at.checked_add(lens[h]).ok_or_else(|| too_large.clone())?;
            if !hub.is_backward() {
                forward_len = at;
            }
        }
        Ok((forward_len, at))
    }

    /// A hub's shape: `[width]`, `[B, width]` or `[T + context, B, width]`.
    pub(super) fn hub_dim(&self, kind: BufferKind, width: usize, context: usize) -> IxDyn {
        match kind {
            BufferKind::Constant => IxDyn(&[width]),
            BufferKind::BatchSized => IxDyn(&[self.batch_size, width]),
            BufferKind::TimeSized => IxDyn(&[self.time_steps + context, self.batch_size, width]),
        }
    }

    /// The shape and strides of a node's view.
    pub(super) fn geometry(
        &self,
        kind: BufferKind,
        width: usize,
        context: usize,
        template: &ShapeTemplate,
    ) -> (IxDyn, IxDyn) {
        let features = template.features();
        let lead = kind.scaling_rank();
        let mut dim = IxDyn::zeros(lead + features.len());
        let mut strides = IxDyn::zeros(lead + features.len());
        let mut stride = 1usize;
        for (i, &d) in features.iter().enumerate().rev() {
            dim[lead + i] = d;
            strides[lead + i] = stride;
            stride = stride.saturating_mul(d);
        }
        match kind {
            BufferKind::Constant => {}
            BufferKind::BatchSized => {
                dim[0] = self.batch_size;
                strides[0] = width;
            }
            BufferKind::TimeSized => {
                dim[0] = self.time_steps + context;
                strides[0] = self.batch_size.saturating_mul(width);
                dim[1] = self.batch_size;
                strides[1] = width;
            }
        }
        if dim.slice().contains(&0) {
            // An empty view has no element to reach; zero strides keep it inside any slice.
            strides = IxDyn::zeros(strides.ndim());
        }
        (dim, strides)
    }
}

/// What a view request resolved to.
#[derive(Debug, Clone, Copy)]
pub(super) struct Target<'l> {
    pub(super) slice: HubSlice,
    pub(super) template: &'l ShapeTemplate,
    pub(super) path: &'l str,
}

pub(super) fn target<'l>(
    layout: &'l BufferLayout,
    arena: &Arena,
    id: ViewId,
) -> Result<Target<'l>, BufferError> {
    let (slice, template, path) = layout.node_slice(id);
    let (Some(slice), Some(template)) = (slice, template) else {
        return Err(BufferError::NotAnArray {
            path: path.to_owned(),
            children: layout.children_names(id),
        });
    };
    if layout.hubs()[slice.hub()].is_backward() && !arena.backward {
        return Err(BufferError::NoBackwardBuffers {
            path: path.to_owned(),
        });
    }
    Ok(Target {
        slice,
        template,
        path,
    })
}

/// The range of `data` a view starts in, clamped for empty hubs.
pub(super) fn view_range(arena: &Arena, slice: HubSlice) -> Range<usize> {
    let off = arena.offsets[slice.hub()];
    let end = off + arena.lens[slice.hub()];
    (off + slice.start()).min(end)..end
}

pub(super) fn view_mut_in<'d, E>(
    layout: &BufferLayout,
    arena: &Arena,
    data: &'d mut [E],
    id: ViewId,
) -> Result<ArrayViewMutD<'d, E>, BufferError> {
    let t = target(layout, arena, id)?;
    let hub = &layout.hubs()[t.slice.hub()];
    let (dim, strides) = arena.geometry(hub.kind(), hub.width(), hub.context_size(), t.template);
    let range = view_range(arena, t.slice);
    Ok(
        ArrayViewMutD::from_shape(dim.strides(strides), &mut data[range])
            .expect("a node's geometry lies inside its hub"),
    )
}

/// Writes `src` into the first T steps of `id` (all of it unless time-sized).
pub(super) fn write_in<E: Clone>(
    layout: &BufferLayout,
    arena: &Arena,
    data: &mut [E],
    id: ViewId,
    src: ArrayViewD<'_, E>,
) -> Result<(), BufferError> {
    let mut view = view_mut_in(layout, arena, data, id)?;
    let t = target(layout, arena, id)?;
    if t.template.kind() == BufferKind::TimeSized {
        view.slice_axis_inplace(Axis(0), Slice::from(0..arena.time_steps));
    }
    if view.shape() != src.shape() {
        return Err(BufferError::ShapeMismatch {
            path: t.path.to_owned(),
            expected: view.shape().to_vec(),
            actual: src.shape().to_vec(),
        });
    }
    view.assign(&src);
    Ok(())
}
