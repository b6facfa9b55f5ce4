//! The errors of datasets and providers: rows, permutations, schedules and writes, and the
//! errors of the parts below that reach a dataset (data that does not fit the spec, a
//! conversion's output, a schedule that cannot be served).

use crate::iteration::IterationError;
use crate::types::error::SpecError;
use crate::types::format_as::FormatError;

/// What a dataset or a provider refuses.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DataError {
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

    /// Minibatches of 0 samples were asked for.
    #[error("a minibatch holds at least 1 sample, 0 were asked for")]
    MinibatchSize,

    /// A dataset whose fields were left holding different numbers of samples by a write
    /// through `fields_mut`: refused until they agree again.
    #[error("the dataset's fields no longer agree (fix them through `fields_mut`): {0}")]
    Invalidated(SpecError),

    /// A dataset whose [`FieldsMut`](crate::data::dataset::FieldsMut) guard was leaked
    /// (`std::mem::forget`) before its drop could check the fields: refused until a guard is
    /// dropped again.
    #[error(
        "the dataset's fields were written through a `fields_mut` guard that was leaked (`mem::forget`) before it could check them: every row operation is refused until a `fields_mut` guard is dropped again"
    )]
    FieldsUnchecked,

    /// Values for a write into rows hold another number of samples than the rows.
    #[error("{rows} rows are written but the values hold {samples} samples")]
    WriteRows {
        /// The rows named.
        rows: usize,
        /// The samples given.
        samples: usize,
    },

    /// Data that does not fit the record spec, or a row past the end.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A conversion that cannot be run into the buffer given.
    #[error(transparent)]
    Format(FormatError),
    /// A batch schedule that cannot be served (sizes, modes, shards).
    #[error(transparent)]
    Iteration(#[from] IterationError),
    /// The error of what a producer reads from (a file, in a
    /// `ParquetStream` (feature `parquet`) behind a [`Prefetch`](crate::data::Prefetch)).
    // Not `Source`/`Image`: rustc prints a name that two items of the crate graph share with its
    // whole path in compile errors (`batchspec::types::Source`), and the snapshots would show it.
    #[error(transparent)]
    Read(SourceError),
    /// Two leaves read by [`Dataset::load`](crate::data::Dataset::load) hold different
    /// numbers of samples; each is named with its source and, where the loader knows it, its
    /// file.
    #[error(
        "the leaves read disagree on the number of samples: {first} holds {first_samples}, but {other} holds {other_samples}"
    )]
    SourcesDisagree {
        /// The first leaf, in words.
        first: String,
        /// Its samples.
        first_samples: usize,
        /// The leaf that differs, in words.
        other: String,
        /// Its samples.
        other_samples: usize,
    },
    /// A sample has more time steps than the borrowed sequence batch it is gathered into
    /// (an owned batch takes the steps it needs; a borrowed one keeps its shape).
    #[error(
        "source `{source_name}`: {needed} time steps do not fit the {room} time steps of the batch (give the field `truncate` to cut longer samples)"
    )]
    TimeSteps {
        /// The source.
        source_name: &'static str,
        /// The steps of the longest sample.
        needed: usize,
        /// The steps of the batch.
        room: usize,
    },
    /// The pad value of an index sequence field is not one of its labels.
    #[error("source `{source_name}`: the pad value {value} is not a label in 0..{max_labels}")]
    PadLabel {
        /// The source.
        source_name: &'static str,
        /// The pad value.
        value: String,
        /// The labels of the field's space.
        max_labels: usize,
    },
    /// A sample's length does not fit the element type of a `Lengths` field.
    #[error("source `{source_name}`: a length of {length} steps does not fit in `{element}`")]
    LengthRange {
        /// The source.
        source_name: &'static str,
        /// The length.
        length: usize,
        /// The element type of the lengths.
        element: &'static str,
    },
    /// A `Ragged` field asked of a loader whose format holds samples of one shape only.
    #[error(
        "source `{source_name}`: this format holds no samples of different lengths; a `Ragged` field is read from Parquet list columns"
    )]
    NotRagged {
        /// The source.
        source_name: &'static str,
    },
    /// Per-device targets that do not match the split of a batch across the devices.
    #[error("per-device targets: {reason}")]
    DeviceTargets {
        /// What does not match, in words.
        reason: String,
    },
    /// A chunk of a stream (one item of its source) holds no samples.
    #[error("item {chunk} of the stream holds no samples")]
    EmptyChunk {
        /// The item's position in the stream, from 0.
        chunk: u64,
    },
    /// A chunk of a stream (one item of its source) is not a valid record.
    #[error("item {chunk} of the stream: {error}")]
    InChunk {
        /// The item's position in the stream, from 0.
        chunk: u64,
        /// What is wrong.
        error: Box<DataError>,
    },
    /// The thread of a [`Prefetch`](crate::data::Prefetch) panicked while producing a batch:
    /// the stream ends here, before its end (the batches served before it are good).
    #[error("the thread producing batches panicked: {0}")]
    WorkerPanicked(String),

    /// A saved [`SourceState`](crate::data::SourceState) that belongs to another source: the
    /// part that differs, as the state holds it and as this source has it.
    #[error(
        "the saved state belongs to another source: its {part} is {saved}, but this source's is {here}"
    )]
    StateMismatch {
        /// What differs (the seed, the plan, the data, the request, the number of ranks...).
        part: &'static str,
        /// The saved state's value.
        saved: String,
        /// This source's value.
        here: String,
    },

    /// A saved state this source cannot resume from, and why.
    #[error("cannot resume from the saved state: {0}")]
    Resume(String),

    /// The function of a per-sample stage panicked on a sample (on one of the stage's worker
    /// threads): the sample is lost, the stage goes on with the next.
    #[error("a per-sample stage's function panicked on a sample: {0}")]
    SamplePanicked(String),

    /// A mixture of sources that cannot serve as asked (its weights, a source that serves no
    /// sample when started again), in words.
    #[error("mixture of sources: {0}")]
    Mixture(String),
}

/// An error of a producer's source, kept whole: [`SourceError::get`] gives it back as its own
/// type (`err.get().downcast_ref::<LoadError>()`).
#[derive(Debug, Clone)]
pub struct SourceError(std::sync::Arc<dyn std::error::Error + Send + Sync>);

impl SourceError {
    /// Wraps `error`.
    pub fn new(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        SourceError(std::sync::Arc::new(error))
    }

    /// The error.
    pub fn get(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.0
    }
}

/// Two source errors are equal when they say the same.
impl PartialEq for SourceError {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_string() == other.0.to_string()
    }
}

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SourceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// A row past the end found by a gather lands in [`DataError::Spec`], as it does when the
/// dataset checks it itself.
impl From<FormatError> for DataError {
    fn from(e: FormatError) -> Self {
        match e {
            FormatError::Spec(e) => DataError::Spec(e),
            e => DataError::Format(e),
        }
    }
}

/// What a caught panic said: its `&str` or `String` payload, `None` for any other payload. The
/// one reading of a panic's payload for the places that turn a panic of a decoder, a worker or a
/// sample's function into an error.
pub(crate) fn panic_text(payload: &(dyn core::any::Any + Send)) -> Option<String> {
    payload
        .downcast_ref::<&str>()
        .map(|m| (*m).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
}
