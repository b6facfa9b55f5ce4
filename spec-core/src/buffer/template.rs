//! Shape templates: the shape of a buffer leaf before the time and batch sizes are known.
//!
//! A leaf's shape is fixed in its feature dimensions and scales with the run: `(T, B, F...)` for
//! time-sized buffers (T time steps of B sequences), `(B, F...)` for batch-sized ones, `(F...)`
//! for constant ones such as parameters. The kind decides which hub a leaf can share and how the
//! hub grows on [`BufferManager::resize`](super::BufferManager::resize).

use std::fmt;

/// How a buffer scales with the time steps T and the batch size B.
///
/// The order (`Constant < BatchSized < TimeSized`) is the order of hubs in the arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BufferKind {
    /// `(F...)`: does not scale; parameters and other fixed-size state.
    Constant,
    /// `(B, F...)`: one entry per sequence, for example sequence-wise targets.
    BatchSized,
    /// `(T, B, F...)`: one entry per time step and sequence; inputs, activations, deltas.
    TimeSized,
}

impl BufferKind {
    /// The number of leading scaling axes: 0, 1 (`B`) or 2 (`T, B`).
    pub fn scaling_rank(self) -> usize {
        match self {
            BufferKind::Constant => 0,
            BufferKind::BatchSized => 1,
            BufferKind::TimeSized => 2,
        }
    }
}

impl fmt::Display for BufferKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BufferKind::Constant => "constant",
            BufferKind::BatchSized => "batch-sized",
            BufferKind::TimeSized => "time-sized",
        })
    }
}

/// The shape of a leaf with placeholders for T and B: a [`BufferKind`], the static feature
/// dimensions, and (time-sized only) a context size.
///
/// This is the run-time description a typed spec produces for each leaf: the kind follows from
/// the leaf's axes (`(T, B, ..)`, `(B, ..)` or neither), the features from its static sizes.
///
/// **Context.** A time-sized template with `context_size` k asks for k extra time steps after
/// the T real ones. In a leaf's view, row `T + k - j` holds step `-j` of the sequence, so the last
/// row (`s![-1, ..]`) is step -1: the previous chunk's last step, which a recurrent layer reads
/// at t = 0. A hub's context is the largest its leaves ask for, and every view of a time-sized
/// hub has `T + context` rows (see [`BufferManager`](super::BufferManager) for carrying,
/// applying and clearing the context).
///
/// ```
/// use batchspec_core::buffer::{BufferKind, ShapeTemplate};
///
/// let hidden = ShapeTemplate::time_sized([5]).with_context(1);
/// assert_eq!(hidden.kind(), BufferKind::TimeSized);
/// assert_eq!(hidden.shape(3, 4), vec![3, 4, 5]);
/// assert_eq!(hidden.buffer_shape(3, 4), vec![4, 4, 5]);
/// assert_eq!(hidden.to_string(), "(T+1, B, 5)");
/// assert_eq!(ShapeTemplate::constant([3, 2]).to_string(), "(3, 2)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShapeTemplate {
    kind: BufferKind,
    /// The feature dimensions given as sizes (around the placeholder, if any).
    features: Vec<usize>,
    /// Where Brainstorm's placeholder `F` stands among the features, and how many were written
    /// (a layout refuses more than one).
    placeholder: Option<(usize, usize)>,
    context_size: usize,
}

/// A feature dimension of a [`ShapeTemplate`]: a size, or Brainstorm's placeholder `'F'`
/// ([`Dim::FromInput`], printed `F`).
///
/// `F` stands for the feature dimensions of the layer's input (its input `default`, or its only
/// input), which the layout reads off the outputs connected to it; a template has at most one.
/// In Brainstorm's words, "if the feature size is also unknown (e.g. when specifying the input
/// and output shapes of a layer) then `'F'` can be used as a placeholder": a sigmoid layer's
/// output `('T', 'B', 'F')` has the shape of whatever feeds it, and a fully connected layer's
/// weights `(3, 'F')` take their fan-in from it.
///
/// ```
/// use batchspec_core::buffer::{BufferKind, Dim, LayoutSpec, ShapeTemplate};
///
/// let mut spec = LayoutSpec::new();
/// spec.layer("Input").output("default", ShapeTemplate::time_sized([28, 28]));
/// spec.layer("Sigmoid")
///     .input("default", ["Input"])
///     .output("default", ShapeTemplate::with_dims(BufferKind::TimeSized, [Dim::FromInput]));
/// let layout = spec.build()?;
/// let out = layout.node("Sigmoid.outputs.default")?;
/// assert_eq!(out.template().unwrap().to_string(), "(T, B, 28, 28)");
/// let sigmoid = ShapeTemplate::with_dims(BufferKind::TimeSized, [Dim::FromInput]);
/// assert_eq!(sigmoid.to_string(), "(T, B, F)");
/// # Ok::<(), batchspec_core::buffer::BufferError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dim {
    /// A static size.
    Size(usize),
    /// The feature dimensions of the layer's input, inferred from its connections (Brainstorm's
    /// `'F'`).
    FromInput,
}

impl From<usize> for Dim {
    fn from(size: usize) -> Self {
        Dim::Size(size)
    }
}

impl ShapeTemplate {
    /// A template of the given kind and feature dimensions, without context.
    ///
    /// Templates are checked when a layout is built (at least one feature axis, context only on
    /// time-sized buffers), where the error can name the leaf.
    pub fn new(kind: BufferKind, features: impl Into<Vec<usize>>) -> Self {
        ShapeTemplate {
            kind,
            features: features.into(),
            placeholder: None,
            context_size: 0,
        }
    }

    /// A template of the given kind whose feature dimensions may hold the placeholder
    /// [`Dim::FromInput`], resolved when a layout is built (see [`Dim`]).
    pub fn with_dims(kind: BufferKind, dims: impl IntoIterator<Item = Dim>) -> Self {
        let mut features = Vec::new();
        let mut placeholder: Option<(usize, usize)> = None;
        for d in dims {
            match d {
                Dim::Size(n) => features.push(n),
                Dim::FromInput => {
                    let at = placeholder.map_or(features.len(), |p| p.0);
                    placeholder = Some((at, placeholder.map_or(1, |p| p.1 + 1)));
                }
            }
        }
        ShapeTemplate {
            kind,
            features,
            placeholder,
            context_size: 0,
        }
    }

    /// Whether the template holds the placeholder `F` (a layout's templates never do: it
    /// resolves them).
    pub fn has_placeholder(&self) -> bool {
        self.placeholder.is_some()
    }

    /// The number of placeholders written (a layout refuses more than one).
    pub(crate) fn placeholders(&self) -> usize {
        self.placeholder.map_or(0, |p| p.1)
    }

    /// The template with its placeholder replaced by `features`.
    pub(crate) fn resolved(&self, features: &[usize]) -> ShapeTemplate {
        let Some((at, _)) = self.placeholder else {
            return self.clone();
        };
        let mut all = self.features[..at].to_vec();
        all.extend_from_slice(features);
        all.extend_from_slice(&self.features[at..]);
        ShapeTemplate {
            kind: self.kind,
            features: all,
            placeholder: None,
            context_size: self.context_size,
        }
    }

    /// `(F...)`: a constant buffer such as a weight matrix.
    pub fn constant(features: impl Into<Vec<usize>>) -> Self {
        Self::new(BufferKind::Constant, features)
    }

    /// `(B, F...)`: one entry per sequence.
    pub fn batch_sized(features: impl Into<Vec<usize>>) -> Self {
        Self::new(BufferKind::BatchSized, features)
    }

    /// `(T, B, F...)`: one entry per time step and sequence.
    pub fn time_sized(features: impl Into<Vec<usize>>) -> Self {
        Self::new(BufferKind::TimeSized, features)
    }

    /// The same template asking for `context_size` extra time steps (time-sized only; a layout
    /// refuses context on other kinds, naming the leaf).
    pub fn with_context(mut self, context_size: usize) -> Self {
        self.context_size = context_size;
        self
    }

    /// The buffer kind.
    pub fn kind(&self) -> BufferKind {
        self.kind
    }

    /// The static feature dimensions, after any T and B axes (for a template holding the
    /// placeholder `F`, the sizes written around it: a layout resolves it).
    pub fn features(&self) -> &[usize] {
        &self.features
    }

    /// The number of elements per (time step, sequence): the product of the feature dimensions
    /// (saturating; a layout refuses templates whose product overflows).
    pub fn feature_size(&self) -> usize {
        self.features
            .iter()
            .fold(1usize, |a, &d| a.saturating_mul(d))
    }

    pub(crate) fn checked_feature_size(&self) -> Option<usize> {
        self.features
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
    }

    /// The requested number of context steps (0 unless time-sized).
    pub fn context_size(&self) -> usize {
        self.context_size
    }

    /// The shape of the data for T time steps and B sequences, without context steps:
    /// `[T, B, F...]`, `[B, F...]` or `[F...]`.
    pub fn shape(&self, time_steps: usize, batch_size: usize) -> Vec<usize> {
        self.shape_with(time_steps, batch_size, 0)
    }

    /// The shape of the buffer holding this template for T and B, with its context steps:
    /// `[T + context_size, B, F...]` for time-sized templates, as [`shape`](Self::shape) otherwise.
    pub fn buffer_shape(&self, time_steps: usize, batch_size: usize) -> Vec<usize> {
        self.shape_with(time_steps, batch_size, self.context_size)
    }

    fn shape_with(&self, time_steps: usize, batch_size: usize, context: usize) -> Vec<usize> {
        let mut shape = Vec::with_capacity(self.kind.scaling_rank() + self.features.len());
        match self.kind {
            BufferKind::Constant => {}
            BufferKind::BatchSized => shape.push(batch_size),
            BufferKind::TimeSized => {
                shape.push(time_steps.saturating_add(context));
                shape.push(batch_size);
            }
        }
        shape.extend_from_slice(&self.features);
        shape
    }
}

impl fmt::Display for ShapeTemplate {
    /// Brainstorm's notation: `(T, B, 5)`, `(T+1, B, 5)` with context, `(B, 3)`, `(3, 2)`, `(3,)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        let mut first = true;
        let mut item = |f: &mut fmt::Formatter<'_>, text: &dyn fmt::Display| {
            if !std::mem::replace(&mut first, false) {
                f.write_str(", ")?;
            }
            write!(f, "{text}")
        };
        match self.kind {
            BufferKind::Constant => {}
            BufferKind::BatchSized => item(f, &"B")?,
            BufferKind::TimeSized if self.context_size > 0 => {
                item(f, &format_args!("T+{}", self.context_size))?;
                item(f, &"B")?;
            }
            BufferKind::TimeSized => {
                item(f, &"T")?;
                item(f, &"B")?;
            }
        }
        for (i, d) in self.features.iter().enumerate() {
            if self.placeholder.is_some_and(|p| p.0 == i) {
                item(f, &"F")?;
            }
            item(f, d)?;
        }
        if self.placeholder.is_some_and(|p| p.0 == self.features.len()) {
            item(f, &"F")?;
        }
        let written = self.features.len() + self.placeholders().min(1);
        if self.kind == BufferKind::Constant && written == 1 {
            f.write_str(",")?;
        }
        f.write_str(")")
    }
}
