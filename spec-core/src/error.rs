//! The run-time errors of batchspec: data that does not fit the spec it is given to.
//!
//! Errors carry what was expected and what was found as data, and name the source, field, file
//! and line where the data came from when those are known.

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

/// Everything that can be wrong with data given to a spec.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
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
    /// An output buffer has another shape than the formatted batch.
    #[error("{space}: the output has shape {actual}, the formatted batch {expected}")]
    OutputShape {
        /// The target space, in words.
        space: String,
        /// The shape of the formatted batch.
        expected: Shape,
        /// The shape of the output.
        actual: Shape,
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
    /// A layout conversion kernel refused its arguments.
    #[error(transparent)]
    Kernel(#[from] crate::kernel::KernelError),
    /// A buffer layout or arena operation that cannot be done.
    #[error(transparent)]
    Buffer(#[from] crate::buffer::BufferError),
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
    /// A list given as a permutation is not one.
    #[error("the {given} indices given are not a permutation of 0..{len}")]
    NotAPermutation {
        /// The number of samples.
        len: usize,
        /// The number of indices given.
        given: usize,
    },
    /// A schedule made for another number of samples than the dataset's.
    #[error("the schedule is for {schedule} samples but the dataset has {dataset}")]
    ScheduleMismatch {
        /// The schedule's number of samples.
        schedule: usize,
        /// The dataset's.
        dataset: usize,
    },
    /// A view was read before any batch was put.
    #[error("the view holds no batch yet: put one first")]
    ViewEmpty,
    /// A gradient was put for a form the consumer did not get since the last put.
    #[error("a gradient was put as {form}, a form not got since the last put")]
    GradientWithoutGet {
        /// The form, in words.
        form: String,
    },
    /// A write to a read-only dataset.
    #[error("the dataset is read-only")]
    ReadOnly,
    /// A flat list given to a mapping has another length than the mapping's unique leaves.
    #[error(
        "a flat list of {actual} values cannot be nested: the mapping has {expected} unique leaves"
    )]
    FlatLength {
        /// The number of unique leaves.
        expected: usize,
        /// The number of values given.
        actual: usize,
    },
    /// Two places of one shared leaf hold different values when flattened.
    #[error(
        "leaf {leaf} (source `{source_name}`, {space}) is shared but holds a value different from its first place"
    )]
    SharedLeafDiffers {
        /// The source of the leaf.
        source_name: &'static str,
        /// The space, in words.
        space: String,
        /// The leaf that differs, in order.
        leaf: usize,
    },
    /// A batch schedule that cannot be served (sizes, modes, shards).
    #[error(transparent)]
    Iteration(#[from] crate::iteration::IterationError),
    /// A file that does not fit the spec it is loaded into (see [`crate::load`]): the file, the
    /// place in it, the source of the leaf being read, and what is wrong there.
    #[error("{} (source `{source_name}`): {reason}", crate::load::error::at(.file, .place))]
    Load {
        /// The file.
        file: std::path::PathBuf,
        /// Where in the file: a line and column, a byte offset or an archive member.
        place: crate::load::Place,
        /// The source of the leaf being read.
        source_name: &'static str,
        /// What is wrong (boxed: it keeps every `Result` of this crate small).
        reason: Box<crate::load::LoadReason>,
    },
    /// A loader was asked for a source it has no file, column or member for.
    #[error("{loader} has nothing for source `{source_name}` (field `{field}`): it serves {}", .serves.join(", "))]
    NoSource {
        /// The loader (`"the CSV file digits.csv"`, `"the IDX loader"`).
        loader: String,
        /// The source asked for.
        source_name: &'static str,
        /// The field of the leaf asked for.
        field: String,
        /// The sources the loader serves.
        serves: Vec<String>,
    },
    /// An error in the data of one field of a spec.
    #[error("field `{field}` (source `{source_name}`): {error}")]
    Field {
        /// The field path (`"inner.image"`).
        field: String,
        /// The source of the field.
        source_name: &'static str,
        /// What is wrong.
        error: Box<Error>,
    },
}

impl Error {
    /// Wraps the error with the field and source it concerns.
    pub fn in_field(self, field: impl Into<String>, source_name: &'static str) -> Self {
        Error::Field {
            field: field.into(),
            source_name,
            error: Box::new(self),
        }
    }
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
