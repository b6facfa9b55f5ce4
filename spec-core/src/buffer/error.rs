//! The errors of the buffer module: every message names the layer, leaf, view or item at fault.

use thiserror::Error;

use super::template::{BufferKind, ShapeTemplate};
use crate::types::error::SpecError;

/// Everything that can go wrong while describing, laying out, allocating or viewing buffers,
/// or while cutting sequence data into minibatches.
///
/// Messages are lowercase, quote the names the user wrote, and carry expected and actual values
/// as data, so callers can match on them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum BufferError {
    /// A leaf whose shape is not that of the space it is viewed as.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A layer or leaf name is empty, contains a `.`, or is reserved.
    #[error("invalid {what} name `{name}`: {reason}")]
    InvalidName {
        /// What was being named: `"layer"`, `"output"`, `"parameter"`, ...
        what: &'static str,
        /// The name as written.
        name: String,
        /// Why it is refused.
        reason: &'static str,
    },
    /// Two layers, or two leaves of one layer's group, share a name.
    #[error("duplicate {what} `{path}`")]
    Duplicate {
        /// What is duplicated: `"layer"`, `"output"`, `"source"`, ...
        what: &'static str,
        /// The full path of the second occurrence.
        path: String,
    },
    /// A shape template without any feature dimension.
    #[error(
        "leaf `{path}` has no feature axis; a shape template needs at least one feature dimension"
    )]
    NoFeatureAxis {
        /// The leaf's path.
        path: String,
    },
    /// A context size on a constant or batch-sized template.
    #[error(
        "leaf `{path}` asks for context_size {context_size} on a {kind} buffer; only time-sized buffers carry context"
    )]
    ContextOnNonTime {
        /// The leaf's path.
        path: String,
        /// The template's kind.
        kind: BufferKind,
        /// The requested context size.
        context_size: usize,
    },
    /// A parameter whose template is batch- or time-sized.
    #[error("parameter `{path}` is {kind}; parameters must be constant buffers")]
    ParameterNotConstant {
        /// The parameter's path.
        path: String,
        /// Its template's kind.
        kind: BufferKind,
    },
    /// A template whose element count does not fit in `usize`.
    #[error("leaf `{path}` has more elements per step than fit in memory")]
    LeafTooLarge {
        /// The leaf's path.
        path: String,
    },
    /// An input (or a consumer given to [`contiguous_order`](super::contiguous_order)) reads a
    /// source that does not exist.
    #[error("input `{input}` reads `{source_path}`, which is not {expected}")]
    UnknownSource {
        /// The reading input's path or consumer name.
        input: String,
        /// The source as written.
        source_path: String,
        /// What a source must be.
        expected: &'static str,
    },
    /// A template's feature placeholder `F` has nothing to stand for.
    #[error("`{path}` has the feature placeholder F, but {reason}")]
    Placeholder {
        /// The leaf's path.
        path: String,
        /// Why it cannot be resolved, in words.
        reason: String,
    },
    /// An input declared without sources.
    #[error("input `{input}` reads no source")]
    EmptyInput {
        /// The input's path.
        input: String,
    },
    /// An input that names the same source twice (a zero-copy view cannot repeat columns).
    #[error("input `{input}` reads `{source_path}` twice")]
    RepeatedSource {
        /// The input's path.
        input: String,
        /// The repeated source.
        source_path: String,
    },
    /// Two sources of one input cannot be concatenated along the feature axis.
    #[error(
        "input `{input}` concatenates `{first}` {first_shape} and `{other}` {other_shape}: {rule}"
    )]
    IncompatibleSources {
        /// The input's path.
        input: String,
        /// The first source's path.
        first: String,
        /// The first source's template.
        first_shape: Box<ShapeTemplate>,
        /// The offending source's path.
        other: String,
        /// The offending source's template.
        other_shape: Box<ShapeTemplate>,
        /// Which rule is broken.
        rule: ConcatRule,
    },
    /// No order of a buffer's sources lets every consumer read one contiguous slice.
    #[error(
        "failed to lay out buffers: no order of the sources {} lets every consumer read a contiguous slice; these consumers conflict: {}",
        join_quoted(.sources),
        join_consumers(.consumers)
    )]
    Unlayoutable {
        /// The sources involved in the conflict.
        sources: Vec<String>,
        /// The conflicting consumers, each with the sources it reads.
        consumers: Vec<(String, Vec<String>)>,
    },
    /// A path that names no node of the layout tree.
    #[error("no view `{path}`: `{parent}` has {}", join_quoted(.available))]
    UnknownView {
        /// The path as given.
        path: String,
        /// The deepest existing node on the way (empty for the root).
        parent: String,
        /// The children that node does have.
        available: Vec<String>,
    },
    /// A view node whose children do not form one contiguous array.
    #[error(
        "view `{path}` is not one array: its children {} are not adjacent in one buffer; view them one by one",
        join_quoted(.children)
    )]
    NotAnArray {
        /// The view's path.
        path: String,
        /// Its children.
        children: Vec<String>,
    },
    /// A [`ViewId`](super::ViewId) or saved context made from another layout.
    #[error("the {what} belongs to another layout")]
    ForeignLayout {
        /// `"view id"` or `"saved context"`.
        what: &'static str,
    },
    /// A backward buffer requested from a forward-only manager.
    #[error("`{path}` is a backward buffer, and this manager was created forward-only")]
    NoBackwardBuffers {
        /// The requested path.
        path: String,
    },
    /// Two views requested mutably at once share memory.
    #[error(
        "views `{first}` and `{second}` overlap; views borrowed mutably together must be disjoint"
    )]
    OverlappingViews {
        /// One view's path.
        first: String,
        /// The other's.
        second: String,
    },
    /// A multi-axis leaf in a shared buffer cannot be split off in its template shape.
    #[error(
        "leaf `{path}` has {rank} feature axes and shares its buffer with other leaves, so its columns are strided and cannot be reshaped beside other views; borrow it alone with `view_mut`"
    )]
    NotSplittable {
        /// The leaf's path.
        path: String,
        /// Its number of feature axes.
        rank: usize,
    },
    /// Data written into a leaf has the wrong shape (nothing is broadcast).
    #[error("`{path}` has shape {expected:?}, the data has shape {actual:?}")]
    ShapeMismatch {
        /// The leaf's path (and the item name, when the data came from a minibatch).
        path: String,
        /// The leaf's shape for the current (T, B), without context steps.
        expected: Vec<usize>,
        /// The data's shape.
        actual: Vec<usize>,
    },
    /// The buffers for a (T, B) would not fit in the address space.
    #[error("buffers for T = {time_steps}, B = {batch_size} need more elements than fit in memory")]
    TooLarge {
        /// Requested time steps.
        time_steps: usize,
        /// Requested batch size.
        batch_size: usize,
    },
    /// The allocator refused the arena.
    #[error("could not allocate {elements} elements for T = {time_steps}, B = {batch_size}")]
    Allocation {
        /// Elements requested in total.
        elements: usize,
        /// Requested time steps.
        time_steps: usize,
        /// Requested batch size.
        batch_size: usize,
    },
    /// A saved context applied to buffers of another batch size.
    #[error("the saved context is for batch size {saved}, the buffers have batch size {current}")]
    ContextBatchMismatch {
        /// Batch size when the context was saved.
        saved: usize,
        /// Current batch size.
        current: usize,
    },
    /// A minibatch lacks an item that a leaf needs.
    #[error("the batch has no item `{item}` for leaf `{path}`")]
    MissingItem {
        /// The leaf waiting for data.
        path: String,
        /// The item name looked for.
        item: String,
    },
    /// A minibatch size of zero.
    #[error("batch size must be at least 1")]
    ZeroBatchSize,
    /// Sequence data without any item.
    #[error("no sequence items: give at least one named (T, B, ...) array")]
    NoItems,
    /// A sequence item without a time and a batch axis.
    #[error(
        "sequence item `{name}` has shape {shape:?}; items need a time and a batch axis (T, B, ...)"
    )]
    ItemRank {
        /// The item's name.
        name: String,
        /// Its shape.
        shape: Vec<usize>,
    },
    /// Two sequence items disagree on T or B.
    #[error("sequence item `{name}` has {axis} {actual}, but `{first}` has {expected}")]
    ItemMismatch {
        /// The disagreeing item.
        name: String,
        /// The first item, which sets T and B.
        first: String,
        /// `"time steps"` or `"sequences"`.
        axis: &'static str,
        /// The first item's size.
        expected: usize,
        /// This item's size.
        actual: usize,
    },
    /// A mask or item name that the sequence data does not hold.
    #[error("no sequence item `{name}`; the items are {}", join_quoted(.available))]
    UnknownItem {
        /// The name looked for.
        name: String,
        /// The names there are.
        available: Vec<String>,
    },
    /// A lengths list whose size differs from the number of sequences.
    #[error("the lengths list has {actual} entries for {expected} sequences")]
    LengthsCount {
        /// Number of sequences.
        expected: usize,
        /// Entries in the list.
        actual: usize,
    },
    /// A sequence length beyond the time axis.
    #[error("sequence {index} has length {length}, longer than the time axis ({time_steps} steps)")]
    LengthTooLong {
        /// The sequence's index on the batch axis.
        index: usize,
        /// Its length.
        length: usize,
        /// The items' time steps.
        time_steps: usize,
    },
}

/// The rules for concatenating sources into one input, named in
/// [`BufferError::IncompatibleSources`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
#[non_exhaustive]
pub enum ConcatRule {
    /// All sources share one buffer kind.
    #[error("concatenated sources must share their buffer kind")]
    SameKind,
    /// All sources have the same number of feature axes.
    #[error("concatenated sources must have the same number of feature axes")]
    SameRank,
    /// Sources with several feature axes are concatenated along the first one, so the others
    /// must agree.
    #[error(
        "sources with several feature axes are concatenated along the first one, so their other feature dimensions must agree"
    )]
    SameTrailingDims,
}

fn join_quoted(names: &[String]) -> String {
    if names.is_empty() {
        return "nothing".to_owned();
    }
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn join_consumers(consumers: &[(String, Vec<String>)]) -> String {
    consumers
        .iter()
        .map(|(name, sources)| format!("`{name}` reads {{{}}}", sources.join(", ")))
        .collect::<Vec<_>>()
        .join(", ")
}
