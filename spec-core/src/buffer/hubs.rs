//! The layout: which hub (contiguous buffer) holds each leaf, at which columns, as a tree of
//! named views.
//!
//! A *hub* is one buffer of a single [`BufferKind`] whose last axis is the concatenation of its
//! sources' features: shape `(T + context, B, width)`, `(B, width)` or `(width,)`. Every leaf is
//! a column range of one hub, so a view of several adjacent leaves is as cheap as a view of one.
//!
//! The tree mirrors Brainstorm's layout dictionary. The root holds `parameters` and `gradients`
//! (every parameter, and every gradient, as one flat array), then one node per layer with the
//! groups `inputs`, `outputs`, `parameters`, `internals`, `input_deltas`, `output_deltas` and
//! `gradients` (empty groups are left out). Leaves are *arrays* with a [`HubSlice`] and a
//! [`ShapeTemplate`]; a group or layer also has a slice when its children tile one range of one
//! hub, and can then be viewed as one array (Brainstorm's `_full_buffer`).

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

use super::error::BufferError;
use super::template::{BufferKind, ShapeTemplate};

/// Where a node lives: columns `start..stop` of the last axis of hub `hub`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HubSlice {
    pub(super) hub: usize,
    pub(super) start: usize,
    pub(super) stop: usize,
}

impl HubSlice {
    /// The hub's index in [`BufferLayout::hubs`].
    pub fn hub(&self) -> usize {
        self.hub
    }

    /// The first column.
    pub fn start(&self) -> usize {
        self.start
    }

    /// One past the last column.
    pub fn stop(&self) -> usize {
        self.stop
    }

    /// `start..stop`, Brainstorm's `@slice`.
    pub fn columns(&self) -> Range<usize> {
        self.start..self.stop
    }

    /// `stop - start`.
    pub fn width(&self) -> usize {
        self.stop - self.start
    }
}

/// A handle on one node of one [`BufferLayout`]: resolve a path once, then fetch views by id
/// without string lookups. Ids stay valid for the layout's life, across every resize; using one
/// with another layout is an error, not a wrong view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ViewId {
    pub(super) layout: u64,
    pub(super) node: u32,
}

/// Something that names a node of a layout: a [`ViewId`] or a dotted path such as
/// `"C.inputs.default"`, `"A.parameters.W"` or `"parameters"`.
pub trait ViewKey {
    /// Finds the node in `layout`.
    ///
    /// # Errors
    /// [`BufferError::UnknownView`] listing the names available where the path left the tree,
    /// or [`BufferError::ForeignLayout`] for an id of another layout.
    fn resolve(&self, layout: &BufferLayout) -> Result<ViewId, BufferError>;
}

impl ViewKey for ViewId {
    fn resolve(&self, layout: &BufferLayout) -> Result<ViewId, BufferError> {
        if self.layout == layout.id && (self.node as usize) < layout.nodes.len() {
            Ok(*self)
        } else {
            Err(BufferError::ForeignLayout { what: "view id" })
        }
    }
}

impl ViewKey for str {
    fn resolve(&self, layout: &BufferLayout) -> Result<ViewId, BufferError> {
        layout.find(self)
    }
}

impl ViewKey for String {
    fn resolve(&self, layout: &BufferLayout) -> Result<ViewId, BufferError> {
        layout.find(self)
    }
}

impl<K: ViewKey + ?Sized> ViewKey for &K {
    fn resolve(&self, layout: &BufferLayout) -> Result<ViewId, BufferError> {
        (**self).resolve(layout)
    }
}

/// A source of a hub: a leaf and its columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HubSource {
    pub(super) leaf: ViewId,
    pub(super) columns: Range<usize>,
}

impl HubSource {
    /// The leaf's node.
    pub fn leaf(&self) -> ViewId {
        self.leaf
    }

    /// Its columns in the hub.
    pub fn columns(&self) -> Range<usize> {
        self.columns.clone()
    }
}

/// One contiguous buffer of a layout, holding sources of one kind side by side on its last axis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hub {
    pub(super) kind: BufferKind,
    pub(super) width: usize,
    pub(super) context_size: usize,
    pub(super) backward: bool,
    pub(super) sources: Vec<HubSource>,
}

impl Hub {
    /// How the hub scales with T and B.
    pub fn kind(&self) -> BufferKind {
        self.kind
    }

    /// The length of the last axis: the sum of the sources' feature sizes.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Extra time steps after T (the largest context any source asked for; 0 unless time-sized).
    pub fn context_size(&self) -> usize {
        self.context_size
    }

    /// Whether this is a backward hub (gradients or deltas), mirroring a forward one.
    pub fn is_backward(&self) -> bool {
        self.backward
    }

    /// The sources in column order.
    pub fn sources(&self) -> &[HubSource] {
        &self.sources
    }

    /// The hub's shape for T and B: `[T + context, B, width]`, `[B, width]` or `[width]`.
    pub fn shape(&self, time_steps: usize, batch_size: usize) -> Vec<usize> {
        match self.kind {
            BufferKind::Constant => vec![self.width],
            BufferKind::BatchSized => vec![batch_size, self.width],
            BufferKind::TimeSized => vec![
                time_steps.saturating_add(self.context_size),
                batch_size,
                self.width,
            ],
        }
    }

    /// The number of rows of `width` elements for T and B (`None` on overflow).
    pub(crate) fn rows(&self, time_steps: usize, batch_size: usize) -> Option<usize> {
        match self.kind {
            BufferKind::Constant => Some(1),
            BufferKind::BatchSized => Some(batch_size),
            BufferKind::TimeSized => time_steps
                .checked_add(self.context_size)?
                .checked_mul(batch_size),
        }
    }

    /// The number of elements for T and B (`None` on overflow).
    pub fn len(&self, time_steps: usize, batch_size: usize) -> Option<usize> {
        self.rows(time_steps, batch_size)?.checked_mul(self.width)
    }

    /// Whether the hub holds no element for T and B.
    pub fn is_empty(&self, time_steps: usize, batch_size: usize) -> bool {
        self.len(time_steps, batch_size) == Some(0)
    }
}

#[derive(Debug, Clone)]
pub(super) struct Node {
    pub(super) name: String,
    pub(super) path: String,
    pub(super) parent: Option<u32>,
    pub(super) children: Vec<u32>,
    pub(super) slice: Option<HubSlice>,
    pub(super) template: Option<ShapeTemplate>,
    pub(super) is_array: bool,
    pub(super) sources: Vec<u32>,
}

/// The memory layout of a [`LayoutSpec`](super::LayoutSpec): its hubs and the tree of named views into them.
///
/// Built by [`LayoutSpec::build`](super::LayoutSpec::build); allocated and viewed through a
/// [`BufferManager`](super::BufferManager). `Display` prints the hubs and the tree.
///
/// Hubs come in arena order: forward hubs (parameters first, then constant, batch-sized and
/// time-sized hubs, each in declaration order), then their backward mirrors in the same order
/// (gradients beside parameters, deltas beside outputs). Outputs read together by some input
/// share a hub (Brainstorm's forward closure), ordered so that every input is one contiguous
/// slice; an output nobody reads and every internal get a hub of their own.
#[derive(Debug, Clone)]
pub struct BufferLayout {
    pub(super) id: u64,
    pub(super) hubs: Vec<Hub>,
    pub(super) nodes: Vec<Node>,
    pub(super) paths: HashMap<String, u32>,
}

/// One node of a [`BufferLayout`]'s tree.
#[derive(Debug, Clone, Copy)]
pub struct LayoutNode<'a> {
    layout: &'a BufferLayout,
    index: u32,
}

impl<'a> LayoutNode<'a> {
    fn node(&self) -> &'a Node {
        &self.layout.nodes[self.index as usize]
    }

    /// The node's id, for fetching views without a path lookup.
    pub fn id(&self) -> ViewId {
        ViewId {
            layout: self.layout.id,
            node: self.index,
        }
    }

    /// The last segment of the path (empty for the root).
    pub fn name(&self) -> &'a str {
        &self.node().name
    }

    /// The dotted path from the root, such as `"C.inputs.default"` (empty for the root).
    pub fn path(&self) -> &'a str {
        &self.node().path
    }

    /// The parent node (`None` for the root).
    pub fn parent(&self) -> Option<LayoutNode<'a>> {
        self.node().parent.map(|index| LayoutNode {
            layout: self.layout,
            index,
        })
    }

    /// The children, in order (Brainstorm's `@index`).
    pub fn children(&self) -> impl ExactSizeIterator<Item = LayoutNode<'a>> + 'a {
        let layout = self.layout;
        self.node()
            .children
            .iter()
            .map(move |&index| LayoutNode { layout, index })
    }

    /// The child called `name`.
    pub fn child(&self, name: &str) -> Option<LayoutNode<'a>> {
        self.children().find(|c| c.name() == name)
    }

    /// Whether this is an array (a leaf) rather than a view of several children.
    pub fn is_array(&self) -> bool {
        self.node().is_array
    }

    /// Where the node lives, if it is one range of one hub (always for arrays).
    pub fn slice(&self) -> Option<HubSlice> {
        self.node().slice
    }

    /// The shape template of the node's view, if it has a slice. For time-sized nodes the
    /// context is the hub's, which is what the view shows (at least what the leaf asked for);
    /// for a view of several children the features are flattened into one axis.
    pub fn template(&self) -> Option<&'a ShapeTemplate> {
        self.node().template.as_ref()
    }

    /// The view's shape for T and B, context steps included (`None` without a slice).
    pub fn shape(&self, time_steps: usize, batch_size: usize) -> Option<Vec<usize>> {
        self.template()
            .map(|t| t.buffer_shape(time_steps, batch_size))
    }

    /// For an input (or input delta): the leaves it concatenates, in column order.
    pub fn sources(&self) -> impl ExactSizeIterator<Item = LayoutNode<'a>> + 'a {
        let layout = self.layout;
        self.node()
            .sources
            .iter()
            .map(move |&index| LayoutNode { layout, index })
    }
}

impl BufferLayout {
    /// The hubs, in arena order (forward, then backward).
    pub fn hubs(&self) -> &[Hub] {
        &self.hubs
    }

    /// The root of the tree.
    pub fn root(&self) -> LayoutNode<'_> {
        LayoutNode {
            layout: self,
            index: 0,
        }
    }

    /// The node named by `key`.
    ///
    /// # Errors
    /// As [`ViewKey::resolve`].
    pub fn node(&self, key: impl ViewKey) -> Result<LayoutNode<'_>, BufferError> {
        let id = key.resolve(self)?;
        Ok(LayoutNode {
            layout: self,
            index: id.node,
        })
    }

    /// The id of the node at `path` (dotted, such as `"A.parameters.W"`).
    ///
    /// # Errors
    /// [`BufferError::UnknownView`], naming what exists where the path left the tree.
    pub fn find(&self, path: &str) -> Result<ViewId, BufferError> {
        if let Some(&node) = self.paths.get(path) {
            return Ok(ViewId {
                layout: self.id,
                node,
            });
        }
        let mut at = self.root();
        for segment in path.split('.') {
            match at.child(segment) {
                Some(child) => at = child,
                None => break,
            }
        }
        Err(BufferError::UnknownView {
            path: path.to_owned(),
            parent: at.path().to_owned(),
            available: at.children().map(|c| c.name().to_owned()).collect(),
        })
    }

    /// Elements of all hubs, forward and backward, for T and B.
    ///
    /// # Errors
    /// [`BufferError::TooLarge`] when the total overflows `usize`.
    pub fn len(&self, time_steps: usize, batch_size: usize) -> Result<usize, BufferError> {
        self.total(time_steps, batch_size, true)
    }

    /// Elements of the forward hubs alone for T and B.
    ///
    /// # Errors
    /// [`BufferError::TooLarge`] when the total overflows `usize`.
    pub fn forward_len(&self, time_steps: usize, batch_size: usize) -> Result<usize, BufferError> {
        self.total(time_steps, batch_size, false)
    }

    fn total(&self, t: usize, b: usize, backward: bool) -> Result<usize, BufferError> {
        self.hubs
            .iter()
            .filter(|h| backward || !h.backward)
            .try_fold(0usize, |acc, h| acc.checked_add(h.len(t, b)?))
            .ok_or(BufferError::TooLarge {
                time_steps: t,
                batch_size: b,
            })
    }

    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    pub(crate) fn node_slice(
        &self,
        id: ViewId,
    ) -> (Option<HubSlice>, Option<&ShapeTemplate>, &str) {
        let node = &self.nodes[id.node as usize];
        (node.slice, node.template.as_ref(), &node.path)
    }

    /// The node's children names (for errors).
    pub(crate) fn children_names(&self, id: ViewId) -> Vec<String> {
        self.nodes[id.node as usize]
            .children
            .iter()
            .map(|&c| self.nodes[c as usize].name.clone())
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Printing

impl fmt::Display for BufferLayout {
    /// Prints the hubs, then the tree: one line per node with its hub, columns and shape, and
    /// for inputs the sources they concatenate.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "hubs:")?;
        for (h, hub) in self.hubs.iter().enumerate() {
            let direction = if hub.backward { "backward" } else { "forward" };
            write!(
                f,
                "  #{h:<2} {direction:<8} {:<11} width {:<5}",
                hub.kind.to_string(),
                hub.width
            )?;
            if hub.context_size > 0 {
                write!(f, " context {}", hub.context_size)?;
            }
            let names: Vec<String> = hub
                .sources
                .iter()
                .map(|s| {
                    format!(
                        "{} [{}, {})",
                        self.nodes[s.leaf.node as usize].path, s.columns.start, s.columns.end
                    )
                })
                .collect();
            writeln!(f, " {}", names.join(", "))?;
        }
        writeln!(f, "tree:")?;
        let mut rows: Vec<(usize, u32)> = Vec::new();
        let mut stack: Vec<(usize, u32)> = self.nodes[0]
            .children
            .iter()
            .rev()
            .map(|&c| (1, c))
            .collect();
        while let Some((depth, node)) = stack.pop() {
            rows.push((depth, node));
            stack.extend(
                self.nodes[node as usize]
                    .children
                    .iter()
                    .rev()
                    .map(|&c| (depth + 1, c)),
            );
        }
        let cells: Vec<[String; 4]> = rows
            .iter()
            .map(|&(depth, node)| {
                let n = &self.nodes[node as usize];
                let label = format!("{:indent$}{}", "", n.name, indent = 2 * depth);
                let slice = n
                    .slice
                    .map(|s| format!("#{} [{}, {})", s.hub, s.start, s.stop))
                    .unwrap_or_default();
                let shape = match (&n.template, n.is_array) {
                    (Some(t), true) => t.to_string(),
                    _ => String::new(),
                };
                let sources = if n.sources.is_empty() {
                    String::new()
                } else {
                    let names: Vec<&str> = n
                        .sources
                        .iter()
                        .map(|&s| self.nodes[s as usize].path.as_str())
                        .collect();
                    format!("= {}", names.join(" | "))
                };
                [label, slice, shape, sources]
            })
            .collect();
        let width = |i: usize| cells.iter().map(|c| c[i].len()).max().unwrap_or(0);
        let (w0, w1, w2) = (width(0), width(1), width(2));
        for [label, slice, shape, sources] in &cells {
            let line = format!("{label:<w0$}  {slice:<w1$}  {shape:<w2$}  {sources}");
            writeln!(f, "{}", line.trim_end())?;
        }
        Ok(())
    }
}
