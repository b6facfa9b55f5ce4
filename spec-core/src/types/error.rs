//! The errors of the vocabulary: data that does not fit its space or its spec. They name the
//! space in words, the field and the source where those are known.

use std::fmt;

/// Where a value sits in a batch: its index along each axis, in memory order.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position(pub Vec<usize>);

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        f.write_str("]")
    }
}

/// A shape, printed as `(128, 32, 32, 3)`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Shape(pub Vec<usize>);

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        if self.0.len() == 1 {
            f.write_str(",")?;
        }
        f.write_str(")")
    }
}

/// Data that does not fit a space or a spec: checked once, where a batch is built.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The array has another number of axes than the space.
    #[error("{space}: expected an array of rank {expected}, got rank {actual} with shape {shape}")]
    Rank {
        /// The space, in words (`"image 32×32×3 bhwc u8"`).
        space: String,
        /// The rank of the space.
        expected: usize,
        /// The rank of the array.
        actual: usize,
        /// The shape of the array.
        shape: Shape,
    },

    /// The space type itself is malformed (an image whose declared total is not the product of
    /// its sizes, written by hand outside a derived struct).
    #[error("{space}: {reason}")]
    Space {
        /// The space, in words.
        space: String,
        /// What is wrong.
        reason: String,
    },

    /// An axis of static size has another size.
    #[error(
        "{space}: axis {axis} ({axis_name}) must have size {expected}, got {actual} (shape {shape})"
    )]
    Size {
        /// The space, in words.
        space: String,
        /// The axis position in memory order.
        axis: usize,
        /// The axis in words (`"channel"`).
        axis_name: &'static str,
        /// The size the space requires.
        expected: usize,
        /// The size found.
        actual: usize,
        /// The shape of the array.
        shape: Shape,
    },

    /// A label of an index space is negative, fractional or not below `max_labels`.
    #[error("{space}: label {value} at {position} is not in 0..{max_labels}")]
    Label {
        /// The space, in words.
        space: String,
        /// Where the label sits.
        position: Position,
        /// The label as found.
        value: String,
        /// The number of labels of the space.
        max_labels: usize,
    },

    /// Two leaves of one spec hold different numbers of samples.
    #[error("batch sizes differ: `{first_field}` has {first} samples but `{field}` has {actual}")]
    BatchSize {
        /// The first field with samples.
        first_field: String,
        /// Its number of samples.
        first: usize,
        /// The field that differs.
        field: String,
        /// Its number of samples.
        actual: usize,
    },

    /// A row index past the end of a dataset or batch.
    #[error(
        "row {row} (at position {position} of the selection) is past the end: there are {len} samples"
    )]
    Row {
        /// The row asked for.
        row: usize,
        /// Where it stood in the list of rows.
        position: usize,
        /// The number of samples.
        len: usize,
    },

    /// A range of rows whose start is after its end.
    #[error("the rows {start}..{end} are not a range: {start} is after {end}")]
    Reversed {
        /// The first row asked for.
        start: usize,
        /// The end asked for.
        end: usize,
    },

    /// A position outside a batch (a write to one element).
    #[error("{space}: position {position} is outside the batch of shape {shape}")]
    OutOfBounds {
        /// The space, in words.
        space: String,
        /// The position asked for.
        position: Position,
        /// The batch's shape.
        shape: Shape,
    },

    /// The offsets of a ragged leaf do not split its values into samples.
    #[error("ragged {space}: the offsets {reason}")]
    Offsets {
        /// The space, in words.
        space: String,
        /// What is wrong with them.
        reason: String,
    },

    /// A sample of a ragged leaf whose steps do not have the space's step shape.
    #[error("{space}: sample {sample} has shape {shape}, but every step must have shape {step}")]
    Step {
        /// The space, in words.
        space: String,
        /// The sample, counted from 0.
        sample: usize,
        /// Its shape as given.
        shape: Shape,
        /// The shape of one step (the space without its batch and time axes).
        step: Shape,
    },

    /// Arithmetic between batches whose shapes neither agree nor broadcast across samples.
    #[error(
        "{space}: `{op}` with a batch of shape {other} on one of shape {shape}: give the same shape, or one sample to apply to every sample"
    )]
    Broadcast {
        /// The space, in words.
        space: String,
        /// The operator.
        op: &'static str,
        /// The shape written into.
        shape: Shape,
        /// The other operand's shape (boxed: the error stays small).
        other: Box<Shape>,
    },

    /// Arithmetic that would not give a value of the space (labels, an integer overflow, an
    /// integer division by zero); nothing is written.
    #[error("{space}: `{op}` {reason}")]
    Arithmetic {
        /// The space, in words.
        space: String,
        /// The operator.
        op: &'static str,
        /// Why, in words.
        reason: String,
    },

    /// An error in the data of one field of a spec.
    #[error("field `{field}` (source `{source_name}`): {error}")]
    Field {
        /// The field path (`"inner.image"`).
        field: String,
        /// The source of the field.
        source_name: &'static str,
        /// What is wrong.
        error: Box<SpecError>,
    },
}

impl SpecError {
    /// Wraps the error with the field and source it concerns.
    pub fn in_field(self, field: impl Into<String>, source_name: &'static str) -> Self {
        SpecError::Field {
            field: field.into(),
            source_name,
            error: Box::new(self),
        }
    }
}
