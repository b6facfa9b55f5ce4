//! Buffer layouts: every leaf of a network in one allocation, named views into it, and inputs
//! that read several outputs concatenated without copying (Brainstorm's `BufferManager`).
//!
//! Describe what needs memory with a [`LayoutSpec`]: layers with named outputs, parameters and
//! internals, each with a [`ShapeTemplate`] (`(T, B, F...)`, `(B, F...)` or `(F...)`), and
//! inputs that read one or more outputs concatenated along the feature axis. A feature size left
//! open as Brainstorm's placeholder `'F'` ([`Dim::FromInput`]) is inferred from what the layer's input
//! reads (a sigmoid's output, a weight matrix's fan-in).
//! [`LayoutSpec::build`] groups the leaves into *hubs*, contiguous buffers of one
//! [`BufferKind`], and orders each hub so that every input is one contiguous slice, which makes
//! the concatenation a plain view. The result is a [`BufferLayout`]: the hubs and a tree of
//! named views (`"C.inputs.default"`, `"A.parameters.W"`), printable with `Display`.
//! A [`BufferManager`] allocates every hub, forward and backward (gradients beside parameters,
//! deltas beside outputs), in one `Vec` for the current time steps T and batch size B, and hands
//! out ndarray views by path or by [`ViewId`]. [`SequenceData`] cuts named `(T, B, ...)` arrays
//! into minibatches of whole sequences that [`BufferManager::provide`] writes into the arena.
//!
//! Brainstorm's test network, with the numbers its own tests check:
//!
//! ```
//! use batchspec_core::buffer::{BufferManager, LayoutSpec, ShapeTemplate};
//!
//! let mut spec = LayoutSpec::new();
//! spec.layer("Input").output("default", ShapeTemplate::time_sized([2]));
//! for (name, size, inputs) in [
//!     ("A", 3, &["Input"][..]),
//!     ("B", 5, &["Input"][..]),
//!     ("C", 7, &["A", "B"][..]),
//!     ("D", 11, &["B", "C"][..]),
//! ] {
//!     let fan_in = if name == "C" { 8 } else if name == "D" { 12 } else { 2 };
//!     spec.layer(name)
//!         .input("default", inputs.iter().copied())
//!         .parameter("W", ShapeTemplate::constant([size, fan_in]))
//!         .parameter("bias", ShapeTemplate::constant([size]))
//!         .output("default", ShapeTemplate::time_sized([size]));
//! }
//! let layout = spec.build()?;
//! let slice = |path: &str| layout.node(path).unwrap().slice().unwrap().columns();
//! assert_eq!(slice("D.parameters.W"), 87..219);
//! assert_eq!(slice("C.inputs.default"), 0..8); // A | B
//! assert_eq!(slice("D.inputs.default"), 3..15); // B | C
//!
//! let mut buffers = BufferManager::<f32>::new(layout)?;
//! buffers.resize(3, 4)?;
//! assert_eq!(buffers.len(), 1132);
//! buffers.view_mut("B.outputs.default")?.fill(1.0);
//! buffers.view_mut("C.outputs.default")?.fill(2.0);
//! let d_input = buffers.view("D.inputs.default")?; // no copy: a view of B's and C's columns
//! assert_eq!(d_input.shape(), &[3, 4, 12]);
//! assert_eq!(
//!     d_input.slice(ndarray::s![0, 0, ..]).iter().copied().collect::<Vec<_>>(),
//!     [1., 1., 1., 1., 1., 2., 2., 2., 2., 2., 2., 2.]
//! );
//! # Ok::<(), batchspec_core::buffer::BufferError>(())
//! ```
//!
//! Where this differs from Brainstorm, on purpose: sources keep declaration order where that
//! works (Brainstorm sorts names alphabetically), the source order is found in polynomial time
//! instead of by trying every permutation, nothing written into the arena is broadcast, sources
//! with several feature axes are concatenated along the first of them (the only axis along which
//! their memory is adjacent; Brainstorm claims the last, which its memory does not support), every
//! view of a time-sized hub shows the hub's context rows, constant hubs (gradients included) keep
//! their contents across resizes, and internals have no automatic backward mirror.
#![doc = include_str!("../../doc/buffer.md")]

mod arena;
mod build;
mod consecutive;
mod context;
mod error;
mod hubs;
mod layers;
mod manager;
mod placeholders;
mod sequences;
mod template;
mod typed;
mod view_tree;

pub use consecutive::contiguous_order;
pub use context::SavedContext;
pub use error::{BufferError, ConcatRule};
pub use hubs::{BufferLayout, Hub, HubSlice, HubSource, LayoutNode, ViewId, ViewKey};
pub use layers::{LayerSpec, LayoutSpec};
pub use manager::BufferManager;
pub use sequences::{Minibatch, SequenceData, SequenceLengths, SequenceMinibatches};
pub use template::{BufferKind, Dim, ShapeTemplate};
pub use typed::Template;
