//! What a loader says about a file that does not fit the spec: where in the file
//! ([`Place`]) and what is wrong there ([`LoadReason`]), carried by [`LoadError::File`].

use crate::data::error::DataError;
use crate::types::error::{Shape, SpecError};
use std::fmt;
use std::path::Path;

/// Where in a file a problem sits.
///
/// Lines and columns count from 1, as a text editor shows them (the header of a CSV file is
/// line 1); byte offsets count from 0.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Place {
    /// The file as a whole (it cannot be opened, its archive is unreadable, ...).
    File,
    /// A line of a text file, and the column (field) when one is concerned.
    Line {
        /// The line, from 1.
        line: u64,
        /// The column, from 1.
        column: Option<usize>,
    },
    /// A byte offset in a binary file, from 0.
    Offset(u64),
    /// A member of an archive (`.npz`), and a byte offset in it when one is concerned.
    Member {
        /// The member's name (as asked for when it is missing, as stored otherwise).
        name: String,
        /// A byte offset in the member, from 0.
        offset: Option<u64>,
    },
    /// A column of a table (Parquet), and a row of the file when one is concerned (from 0).
    Column {
        /// The column's name.
        name: String,
        /// The row, from 0, counted over the whole file.
        row: Option<u64>,
    },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::File => f.write_str("the whole file"),
            Place::Line { line, column: None } => write!(f, "line {line}"),
            Place::Line {
                line,
                column: Some(c),
            } => write!(f, "line {line}, column {c}"),
            Place::Offset(o) => write!(f, "byte {o}"),
            Place::Member { name, offset: None } => write!(f, "member `{name}`"),
            Place::Member {
                name,
                offset: Some(o),
            } => write!(f, "member `{name}`, byte {o}"),
            Place::Column { name, row: None } => write!(f, "column `{name}`"),
            Place::Column { name, row: Some(r) } => write!(f, "column `{name}`, row {r}"),
        }
    }
}

/// `"digits.csv line 12, column 65"`, `"train-labels-idx1-ubyte byte 8"`, `"data.npz"`: the
/// file and the place, as the headline of [`LoadError::File`].
pub(crate) fn at(file: &Path, place: &Place) -> String {
    match place {
        Place::File => file.display().to_string(),
        place => format!("{} {place}", file.display()),
    }
}

/// `" (source `targets`)"`, or nothing for a problem found before any source was asked for
/// (a directory of Parquet files that cannot be listed).
pub(crate) fn of_source(source: &str) -> String {
    if source.is_empty() {
        String::new()
    } else {
        format!(" (source `{source}`)")
    }
}

/// What is wrong with a file, at the [`Place`] a [`LoadError::File`] names.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LoadReason {
    /// The file cannot be opened or read.
    #[error("cannot read the file: {message}")]
    Io {
        /// The kind of I/O error.
        kind: std::io::ErrorKind,
        /// The operating system's message.
        message: String,
    },
    /// The CSV reader refused the text.
    #[error("malformed CSV: {message}")]
    Csv {
        /// The CSV reader's message.
        message: String,
    },
    /// A CSV field that is not a number.
    #[error("`{text}` is not a number")]
    NotANumber {
        /// The field as written.
        text: String,
    },
    /// A value that the element type of the space cannot hold exactly (`3.5` or `300` for a
    /// `u8`): loaders never truncate, round or wrap.
    #[error("the value {value} does not convert exactly to {elem}")]
    Inexact {
        /// The value as written or stored.
        value: String,
        /// The element type of the space (`"u8"`).
        elem: &'static str,
    },
    /// A number written in a text file that is beyond the range of the float type (it would
    /// become infinite) or, not being zero, too small for it (it would become zero).
    #[error("the value {value} is out of the range of {elem}: it would become {becomes}")]
    FloatRange {
        /// The value as written.
        value: String,
        /// The element type (`"f32"`).
        elem: &'static str,
        /// What it would become: `"infinite"` or `"zero"`.
        becomes: &'static str,
    },
    /// NaN or an infinity in float data, read by a loader told to refuse them
    /// ([`NonFinite::Refuse`](crate::load::NonFinite::Refuse)).
    #[error(
        "the value {value} is not finite, and the loader refuses values that are not (`NonFinite::Refuse`)"
    )]
    NonFinite {
        /// The value as written or stored (`NaN`, `inf`, `-inf`).
        value: String,
    },
    /// A label of an index space that is negative, fractional or not below `max_labels`.
    #[error("label {value} is not in 0..{max_labels}")]
    Label {
        /// The label as written or stored.
        value: String,
        /// The number of labels of the space.
        max_labels: usize,
    },
    /// A CSV row with another number of fields than the first row.
    #[error("the row has {actual} fields, but the first row has {expected}")]
    FieldCount {
        /// The number of fields of the first row (or the header).
        expected: usize,
        /// The number of fields of this row.
        actual: usize,
    },
    /// The label column is named but the header has no such column.
    #[error("the header has no column named `{name}`")]
    NoColumnNamed {
        /// The name asked for.
        name: String,
    },
    /// The label column is named but the file is read without a header.
    #[error("the label column is named `{name}`, but the file is read without a header")]
    NoHeader {
        /// The name asked for.
        name: String,
    },
    /// The label column is past the last column.
    #[error("the label column is column {column}, but the rows have {columns} columns")]
    ColumnPastEnd {
        /// The label column, from 1.
        column: usize,
        /// The number of columns.
        columns: usize,
    },
    /// A leaf of the label source, but no label column is chosen.
    #[error(
        "no label column or label file is chosen (see `CsvFile::label_column`, `CsvFile::label_file` and `CsvFile::zero_labels`)"
    )]
    NoLabelColumn,
    /// The CSV file has another number of columns for a leaf than its space holds per sample.
    #[error("{space} holds {expected} values per sample, but the file has {actual} {what}")]
    Columns {
        /// The space, in words.
        space: String,
        /// The values per sample of the space.
        expected: usize,
        /// The number of columns found.
        actual: usize,
        /// Which columns (`"feature columns"`, `"label columns"`).
        what: &'static str,
    },
    /// A binary file that does not start with the magic bytes of its format.
    #[error("wrong magic {found}: {expected}")]
    Magic {
        /// The bytes found, in hexadecimal.
        found: String,
        /// What the format requires.
        expected: &'static str,
    },
    /// An IDX type byte that is not one of the format's.
    #[error(
        "unknown IDX type byte {code:#04x} (known: 0x08 u8, 0x09 i8, 0x0b i16, 0x0c i32, 0x0d f32, 0x0e f64)"
    )]
    IdxType {
        /// The type byte found.
        code: u8,
    },
    /// A file of rank 0, which holds no samples.
    #[error("the file has rank 0: a file of samples has a first axis of samples")]
    RankZero,
    /// The file ends before the data its header announces.
    #[error("the file ends at byte {actual}, but its header announces {expected} bytes")]
    Truncated {
        /// The length the header announces, in bytes.
        expected: u64,
        /// The length of the file, in bytes.
        actual: u64,
    },
    /// The file goes on after the data its header announces.
    #[error("the file has {actual} bytes, but its header announces {expected}")]
    TrailingBytes {
        /// The length the header announces, in bytes.
        expected: u64,
        /// The length of the file, in bytes.
        actual: u64,
    },
    /// The header announces samples of no values, more of them than the file has bytes: a
    /// count no file can justify, refused before anything is allocated for it.
    #[error(
        "the header announces {samples} samples of no values, more than a file of {bytes} bytes can justify"
    )]
    Unjustified {
        /// The samples announced.
        samples: usize,
        /// The file's length.
        bytes: u64,
    },
    /// The header announces more data than can be addressed.
    #[error("the header announces a shape {shape} too large to be addressed")]
    Overflow {
        /// The shape announced.
        shape: Shape,
    },
    /// The shape of the data does not fit the space.
    #[error("shape {actual} does not fit {space}")]
    Shape {
        /// The space, in words.
        space: String,
        /// The shape of the data, samples first.
        actual: Shape,
    },
    /// An `.npy` dtype the loaders do not read (only numeric ones are read).
    #[error(
        "dtype {dtype} is not supported: the loaders read i1, i2, i4, i8, u1, u2, u4, u8, f4, f8"
    )]
    Dtype {
        /// The dtype as written in the header.
        dtype: String,
    },
    /// A malformed `.npy` header or payload.
    #[error("malformed .npy data: {message}")]
    Npy {
        /// The reader's message.
        message: String,
    },
    /// A malformed `.npz` archive.
    #[error("malformed .npz archive: {message}")]
    Zip {
        /// The reader's message.
        message: String,
    },
    /// The archive has no member of the name asked for.
    #[error("the archive has no such member (it has: {})", .members.join(", "))]
    MissingMember {
        /// The members the archive has, without their `.npy` suffix.
        members: Vec<String>,
    },
    /// A Parquet file the decoder refuses (a corrupt footer, a codec not compiled in, ...).
    #[error("cannot decode the Parquet data: {message}")]
    Parquet {
        /// The decoder's message, with the feature to turn on for a missing codec.
        message: String,
    },
    /// The table has no column of the name asked for.
    #[error("the file has no such column (it has: {})", .columns.join(", "))]
    NoColumn {
        /// The columns the file has.
        columns: Vec<String>,
    },
    /// A column whose type holds no numbers of a space.
    #[error("a column of type {found} cannot fill {space}: {expected}")]
    ColumnType {
        /// The column's type, as Arrow names it.
        found: String,
        /// The space, in words.
        space: String,
        /// What the reader accepts.
        expected: &'static str,
    },
    /// A missing value (null).
    #[error("a missing value (null): the space has no place for one")]
    Null,
    /// A text that is not UTF-8.
    #[error("the text is not UTF-8: {message}")]
    Utf8 {
        /// Where it goes wrong, as the checker says.
        message: String,
    },
    /// A time step of a row of a list-of-lists column whose length is not the number of values
    /// of one step of a sequence space.
    #[error("a time step of the row holds {found} values; a step of {space} holds {expected}")]
    StepLength {
        /// The values of the step.
        found: usize,
        /// The values of one step of the space.
        expected: usize,
        /// The space, in words.
        space: String,
    },
    /// A row of a list column whose length is not the number of values of a sample.
    #[error("the row holds {found} values; a sample of {space} holds {expected}")]
    RowLength {
        /// The values of the row.
        found: usize,
        /// The values of a sample.
        expected: usize,
        /// The space, in words.
        space: String,
    },
    /// An encoded image (PNG or JPEG) that does not decode, or decodes to another size or
    /// number of channels than the space's.
    // Not `Source`/`Image`: rustc prints a name that two items of the crate graph share with its
    // whole path in compile errors (`batchspec::types::Source`), and the snapshots would show it.
    #[error("{message}")]
    Decode {
        /// What is wrong, with the image's size and the space's.
        message: String,
    },
    /// A tensor column whose shape or axis names do not fit the space.
    #[error("{0}")]
    Tensor(Box<TensorMismatch>),
    /// A space this format cannot fill (a sequence space from a CSV file, ...).
    #[error("{space} cannot be read from this file: {why}")]
    UnsupportedSpace {
        /// The space, in words.
        space: String,
        /// Why.
        why: &'static str,
    },
    /// An element type the loaders do not know (only the numeric types of
    /// [`Element`](crate::types::Element) are read).
    #[error("the element type {elem} is not one the loaders can fill")]
    UnsupportedElement {
        /// The element type.
        elem: &'static str,
    },
    /// The data read does not make a valid batch of the space.
    #[error("{error}")]
    Invalid {
        /// The error of [`Batch::new`](crate::types::Batch::new).
        error: Box<SpecError>,
    },
    /// A link in a directory of part files that points outside the directory (followed only
    /// when asked: `ParquetOpenOptions::follow_links`).
    #[error(
        "a link to {}, outside the directory: links are followed only inside it unless asked (`ParquetFiles::options().follow_links(true)`)",
        .target.display()
    )]
    LinkLeaves {
        /// Where the link leads, every link on the way resolved.
        target: std::path::PathBuf,
    },
    /// A link whose target cannot be reached.
    #[error("a link to {}, which cannot be read: {message}", .target.display())]
    BrokenLink {
        /// Where the link points, as written in it.
        target: std::path::PathBuf,
        /// The operating system's message.
        message: String,
    },
    /// A Hive-style partition folder (`year=2020/`) in a directory of part files: its rows
    /// would be read without the value its name gives them.
    #[error(
        "a Hive partition folder (`{column}=...`): partition columns are not read, so its rows would lose their `{column}`; write the column into the files, or open each folder on its own"
    )]
    Partitioned {
        /// The partition column the folder's name gives.
        column: String,
    },
    /// A read from object storage failed (feature `remote`): the store's message names the URL
    /// and, for a request retried, the attempts; `range` is the byte range the read needed.
    #[error("{}{message}", .range.as_ref().map(|r| format!("reading bytes {}..{} failed: ", r.start, r.end)).unwrap_or_default())]
    Remote {
        /// The bytes the read needed (`None`: the object's listing or opening).
        range: Option<std::ops::Range<u64>>,
        /// What failed, in the store's words.
        message: String,
    },
    /// An object of a store that changed since it was listed: reading on would mix the bytes of
    /// two versions.
    #[error(
        "the object changed while it was read ({listed} when listed, {found} now): its rows would mix two versions; open it again to read the new one"
    )]
    Changed {
        /// The version listed (its ETag, or its modification time).
        listed: String,
        /// The version a read found.
        found: String,
    },
    /// A path that is not a regular file or a directory (a FIFO, a socket, a device), refused
    /// by its type before it is opened (opening a FIFO blocks until a writer comes).
    #[error("a {kind}, not a regular file: refused without opening it")]
    NotAFile {
        /// What it is (`"FIFO"`, `"socket"`, `"character device"`, `"block device"`).
        kind: &'static str,
    },
}

/// A tensor column (Arrow's `arrow.fixed_shape_tensor`) whose shape or axis names do not fit
/// the space asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct TensorMismatch {
    /// The shape of one tensor, as the column's metadata gives it.
    pub shape: Shape,
    /// The axis names of the metadata, if any.
    pub names: Option<Vec<String>>,
    /// The space, in words.
    pub space: String,
    /// What to ask for instead, when that can be said (empty otherwise).
    pub hint: String,
}

impl fmt::Display for TensorMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a tensor column of shape {}", self.shape)?;
        if let Some(names) = &self.names {
            write!(f, " with dim_names [{}]", names.join(", "))?;
        }
        write!(f, " does not fit {}{}", self.space, self.hint)
    }
}

impl From<std::io::Error> for LoadReason {
    fn from(e: std::io::Error) -> Self {
        LoadReason::Io {
            kind: e.kind(),
            message: e.to_string(),
        }
    }
}

/// What a loader refuses: a file that does not fit the spec, a source it has nothing for, or
/// leaves that do not make a dataset together.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LoadError {
    /// A file that does not fit the spec it is loaded into (see [`crate::load`]): the file, the
    /// place in it, the source of the leaf being read, and what is wrong there.
    #[error("{}{}: {reason}", at(.file, .place), of_source(.source_name))]
    File {
        /// The file.
        file: std::path::PathBuf,
        /// Where in the file: a line and column, a byte offset or an archive member.
        place: Place,
        /// The source of the leaf being read.
        source_name: &'static str,
        /// What is wrong (boxed: it keeps every `Result` of this crate small).
        reason: Box<LoadReason>,
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
    /// A rank that cannot be read from the environment: the variable, and what it holds.
    #[error("{}", env_message(.variable, .value.as_deref()))]
    Env {
        /// The variable (`RANK`, `WORLD_SIZE`, `SLURM_PROCID`, `SLURM_NTASKS`).
        variable: &'static str,
        /// Its value, when it is set but not a number that fits.
        value: Option<String>,
    },
    /// A job that cannot be sharded as asked (more ranks than row groups, a rank past the world).
    #[error("cannot shard the data: {reason}")]
    Shard {
        /// Why.
        reason: String,
    },
    /// Leaves that were read but do not make a dataset (they hold different numbers of samples).
    #[error(transparent)]
    Data(#[from] DataError),
}

fn env_message(variable: &str, value: Option<&str>) -> String {
    match value {
        None => format!(
            "the environment variable `{variable}` is not set (a rank is read from RANK and WORLD_SIZE, as torchrun sets them, or from SLURM_PROCID and SLURM_NTASKS)"
        ),
        Some(v) => format!(
            "the environment variable `{variable}` is `{v}`, not a rank below the world size"
        ),
    }
}
