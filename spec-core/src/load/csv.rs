//! The CSV loader: one sample per row, a label column for the label source and the other
//! columns, in order, for the feature source.

use super::convert::{ForScalar, Num, Scalar, batch_from_samples, run_for, sample_dims};
use super::error::LoadError;
use super::{LoadReason, NonFinite, Place, load_error};
use crate::data::dataset::LeafSource;
use crate::types::batch::Batch;
use crate::types::space::Space;
use crate::types::spec::Described;
use ::csv::{ByteRecord, ReaderBuilder};
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// Which column of a CSV file holds the labels.
///
/// `From` conversions let [`CsvFile::label_column`] take `64` (an index), `"label"` (a name in
/// the header) or [`Column::Last`].
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Column {
    /// The column at this index, counting from 0 (error messages count columns from 1, as an
    /// editor does: index 64 is "column 65").
    Index(usize),
    /// The column of this name in the header.
    Name(String),
    /// The last column.
    Last,
}

impl From<usize> for Column {
    fn from(i: usize) -> Self {
        Column::Index(i)
    }
}

impl From<&str> for Column {
    fn from(name: &str) -> Self {
        Column::Name(name.to_owned())
    }
}

impl From<String> for Column {
    fn from(name: String) -> Self {
        Column::Name(name)
    }
}

/// A CSV file as a [`LeafSource`]: one sample per row; the label column feeds the leaves of the
/// label source (`"targets"` unless set), every other column, in order, the leaves of the
/// feature source (`"features"` unless set). The labels can instead come from a second file
/// ([`CsvFile::label_file`], MXNet's `CSVIter` with `label_csv`) or be zeros
/// ([`CsvFile::zero_labels`], `CSVIter` without it).
///
/// Fields are trimmed of ASCII white space and parsed as numbers, then converted exactly to the
/// element type of the leaf's space; the feature columns of a row are one sample in the space's
/// memory order (64 columns fill an `image![8, 8, 1; BHWC, u8]` or a `Vector<64, u8>`). The file is
/// read once, at the first leaf, and its rows are kept for the other leaves until the `CsvFile` is
/// dropped. Blank lines are skipped; every row must have as many fields as the first (or the
/// header).
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::Dataset;
/// use batchspec::load::{Column, CsvFile};
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "features")]
///     x: Batch<Vector<3, u8>>,
///     #[spec(source = "targets")]
///     y: Batch<Labels<10>>,
/// }
///
/// let path = std::env::temp_dir().join(format!("batchspec-doc-{}.csv", std::process::id()));
/// std::fs::write(&path, "a,b,c,label\n1,2,3,7\n4,5,6,9\n")?;
/// let mut csv = CsvFile::new(&path).has_header(true).label_column("label");
/// let ds = Dataset::<Record>::load(&mut csv)?;
/// assert_eq!(ds.fields().x.array(), &ndarray::array![[1u8, 2, 3], [4, 5, 6]]);
/// assert_eq!(ds.fields().y.array(), &ndarray::array![7i64, 9]);
///
/// // A label outside 0..10 names the line (the header is line 1), column and source.
/// std::fs::write(&path, "1,2,3,7\n4,5,6,10\n")?;
/// let err = Dataset::<Record>::load(&mut CsvFile::new(&path).label_column(Column::Last))
///     .err()
///     .unwrap();
/// assert!(err.to_string().ends_with("line 2, column 4 (source `targets`): label 10 is not in 0..10"));
/// std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct CsvFile {
    path: PathBuf,
    has_header: bool,
    delimiter: u8,
    labels: Labels,
    label_source: String,
    feature_source: String,
    non_finite: NonFinite,
}

/// Where the label source's values come from.
#[derive(Debug, Clone)]
enum Labels {
    /// Nowhere: a leaf of the label source is an error.
    None,
    /// A column of the file.
    Column(Column),
    /// Every column of a second CSV file, row by row.
    File(PathBuf),
    /// Zeros, one row per row of the file.
    Zeros,
}

/// The start of the file: its header, its number of fields and the line they were read from.
#[derive(Debug, Clone)]
struct Head {
    /// The header and its line.
    header: Option<(u64, ByteRecord)>,
    /// The number of fields of every row (that of the header, or else of the first row).
    width: usize,
    /// The line of the header, or else of the first row.
    first_line: u64,
}

/// A CSV reader over the file, which counts its lines as it streams.
type Csv = ::csv::Reader<LineCounter<BufReader<File>>>;

impl CsvFile {
    /// The CSV file at `path`, read without a header, with no label column, comma-separated.
    /// Nothing is read until the first leaf.
    pub fn new(path: impl AsRef<Path>) -> Self {
        CsvFile {
            path: path.as_ref().to_path_buf(),
            has_header: false,
            delimiter: b',',
            labels: Labels::None,
            label_source: "targets".to_owned(),
            feature_source: "features".to_owned(),
            non_finite: NonFinite::Keep,
        }
    }

    /// What to do with `nan`, `inf` and `-inf` in the file (default [`NonFinite::Keep`]);
    /// [`NonFinite::Refuse`] makes the first one an error at its line and column.
    pub fn non_finite(mut self, policy: NonFinite) -> Self {
        self.non_finite = policy;
        self
    }

    /// Whether the first line is a header (default `false`). Lines are counted with it.
    pub fn has_header(mut self, yes: bool) -> Self {
        self.has_header = yes;
        self
    }

    /// The field delimiter (default `b','`).
    pub fn delimiter(mut self, delimiter: u8) -> Self {
        self.delimiter = delimiter;
        self
    }

    /// The column of the labels: an index from 0, a name in the header, or [`Column::Last`].
    /// Without one (nor [`label_file`](Self::label_file) or [`zero_labels`](Self::zero_labels)),
    /// every column is a feature and a leaf of the label source is an error. The last of these
    /// three calls decides.
    pub fn label_column(mut self, column: impl Into<Column>) -> Self {
        self.labels = Labels::Column(column.into());
        self
    }

    /// The labels come from a second CSV file, row by row, every column of it a value of the
    /// label source (MXNet's `CSVIter` with `data_csv` and `label_csv`); every column of this
    /// file is then a feature. The label file is read with this file's header setting and
    /// delimiter, its errors name it, and two files of different numbers of rows are an error
    /// naming both.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::data::Dataset;
    /// use batchspec::load::CsvFile;
    ///
    /// #[derive(DataSpec)]
    /// struct Record {
    ///     #[spec(source = "features")]
    ///     x: Batch<Vector<3>>,
    ///     #[spec(source = "targets")]
    ///     y: Batch<Labels<10>>,
    /// }
    ///
    /// let dir = std::env::temp_dir().join(format!("batchspec-doc-labels-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// std::fs::write(dir.join("data.csv"), "1,2,3\n4,5,6\n")?;
    /// std::fs::write(dir.join("label.csv"), "7\n9\n")?;
    /// let ds = Dataset::<Record>::load(&mut CsvFile::new(dir.join("data.csv")).label_file(dir.join("label.csv")))?;
    /// assert_eq!(ds.fields().y.array(), &ndarray::array![7i64, 9]);
    ///
    /// // Without a label file, MXNet's `CSVIter` gives labels of 0: asked for by name here.
    /// let ds = Dataset::<Record>::load(&mut CsvFile::new(dir.join("data.csv")).zero_labels())?;
    /// assert_eq!(ds.fields().y.array(), &ndarray::array![0i64, 0]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn label_file(mut self, path: impl AsRef<Path>) -> Self {
        self.labels = Labels::File(path.as_ref().to_path_buf());
        self
    }

    /// Every leaf of the label source is zeros, one sample per row of the file, and every column
    /// is a feature: MXNet's `CSVIter` without `label_csv` ("all labels will be returned as 0"),
    /// for data without labels read by a spec that has them. Never implied: without it, a label
    /// leaf with no label column or file is an error.
    pub fn zero_labels(mut self) -> Self {
        self.labels = Labels::Zeros;
        self
    }

    /// The label file as a CSV file of its own: every column feeds the label source.
    fn label_csv(&self, path: &Path) -> CsvFile {
        CsvFile {
            path: path.to_path_buf(),
            has_header: self.has_header,
            delimiter: self.delimiter,
            labels: Labels::None,
            label_source: String::new(),
            feature_source: self.label_source.clone(),
            non_finite: self.non_finite,
        }
    }

    /// The number of rows of the file (its header not counted), read for zero labels.
    fn count_rows(&self, leaf: &Described) -> Result<usize, LoadError> {
        let (mut reader, lines, _) = self.open(leaf)?;
        let mut record = ByteRecord::new();
        let Some((_, first_row)) = self.read_head(&mut reader, &lines, &mut record, leaf)? else {
            return Ok(0);
        };
        let mut rows = usize::from(first_row);
        while self
            .next_record(&mut reader, &lines, &mut record, leaf)?
            .is_some()
        {
            rows += 1;
        }
        Ok(rows)
    }

    /// The source the label column feeds (default `"targets"`).
    pub fn label_source(mut self, source: impl Into<String>) -> Self {
        self.label_source = source.into();
        self
    }

    /// The source the other columns feed (default `"features"`).
    pub fn feature_source(mut self, source: impl Into<String>) -> Self {
        self.feature_source = source.into();
        self
    }

    /// The path of the file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn fail(&self, leaf: &Described, place: Place, reason: LoadReason) -> LoadError {
        load_error(&self.path, place, leaf, reason)
    }

    /// Opens the file for one pass: a CSV reader (a byte-order mark skipped) and its line
    /// count, and the file's length.
    fn open(&self, leaf: &Described) -> Result<(Csv, Lines, u64), LoadError> {
        let io = |e: std::io::Error| self.fail(leaf, Place::File, e.into());
        let file = File::open(&self.path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut buffered = BufReader::with_capacity(1 << 16, file);
        if buffered
            .fill_buf()
            .map_err(io)?
            .starts_with(b"\xEF\xBB\xBF")
        {
            buffered.consume(3);
        }
        let lines = Lines::default();
        let reader = ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(self.delimiter)
            .from_reader(LineCounter {
                inner: buffered,
                lines: lines.clone(),
            });
        Ok((reader, lines, len))
    }

    /// Reads the next record into `record`, with its line; `None` at the end of the file.
    fn next_record(
        &self,
        reader: &mut Csv,
        lines: &Lines,
        record: &mut ByteRecord,
        leaf: &Described,
    ) -> Result<Option<u64>, LoadError> {
        match reader.read_byte_record(record) {
            // The csv crate's own line count is off after `\r\n` and blank lines: the line is
            // worked out from the record's byte offset instead.
            Ok(true) => Ok(Some(
                record.position().map_or(0, |p| lines.record_line(p.byte())),
            )),
            Ok(false) => Ok(None),
            Err(e) => {
                let place = match e.position() {
                    Some(p) => Place::Line {
                        line: lines.record_line(p.byte()),
                        column: None,
                    },
                    None => Place::File,
                };
                let message = e.to_string();
                Err(self.fail(leaf, place, LoadReason::Csv { message }))
            }
        }
    }

    /// Reads the header (if the file has one) and the first row into `record`; `None` for a
    /// file with neither. `Some((head, true))` when `record` holds the first row, not yet used.
    fn read_head(
        &self,
        reader: &mut Csv,
        lines: &Lines,
        record: &mut ByteRecord,
        leaf: &Described,
    ) -> Result<Option<(Head, bool)>, LoadError> {
        let Some(line) = self.next_record(reader, lines, record, leaf)? else {
            return Ok(None);
        };
        let head = Head {
            header: self.has_header.then(|| (line, record.clone())),
            width: record.len(),
            first_line: line,
        };
        Ok(Some((head, !self.has_header)))
    }

    /// The index of the label column in rows of `width` fields.
    fn label_index(&self, head: &Head, leaf: &Described) -> Result<Option<usize>, LoadError> {
        let width = head.width;
        let at_first = Place::Line {
            line: head.first_line,
            column: None,
        };
        let Labels::Column(column) = &self.labels else {
            return Ok(None);
        };
        let index = match column {
            Column::Index(i) => *i,
            Column::Last => width.saturating_sub(1),
            Column::Name(name) => {
                let Some((line, header)) = &head.header else {
                    return Err(self.fail(
                        leaf,
                        Place::File,
                        LoadReason::NoHeader { name: name.clone() },
                    ));
                };
                return match header
                    .iter()
                    .position(|f| f.trim_ascii() == name.trim().as_bytes())
                {
                    Some(i) => Ok(Some(i)),
                    None => Err(self.fail(
                        leaf,
                        Place::Line {
                            line: *line,
                            column: None,
                        },
                        LoadReason::NoColumnNamed { name: name.clone() },
                    )),
                };
            }
        };
        if index >= width {
            return Err(self.fail(
                leaf,
                at_first,
                LoadReason::ColumnPastEnd {
                    column: index.saturating_add(1),
                    columns: width,
                },
            ));
        }
        Ok(Some(index))
    }
}

/// Parses the columns `columns` of every row as `T` as the rows stream by (labels below
/// `max_labels` when given), checking that every row has `width` fields.
struct ParseColumns<'a> {
    file: &'a CsvFile,
    leaf: &'a Described,
    reader: &'a mut Csv,
    lines: &'a Lines,
    record: &'a mut ByteRecord,
    /// Whether `record` holds the first row, read with the header.
    pending: Option<u64>,
    width: usize,
    columns: &'a [usize],
    max_labels: Option<usize>,
    /// The file's length, to size the values from the first row.
    file_len: u64,
    /// The rows read.
    rows: &'a core::cell::Cell<usize>,
}

impl ForScalar for ParseColumns<'_> {
    type Err = LoadError;

    fn run<T: Scalar>(self) -> Result<Vec<T>, LoadError> {
        let ParseColumns {
            file,
            leaf,
            reader,
            lines,
            record,
            mut pending,
            width,
            columns,
            max_labels,
            file_len,
            rows,
        } = self;
        let mut out: Vec<T> = Vec::new();
        loop {
            let line = match pending.take() {
                Some(line) => line,
                None => match file.next_record(reader, lines, record, leaf)? {
                    Some(line) => line,
                    None => break,
                },
            };
            if out.capacity() == 0 {
                // Sized once from the first row's share of the file, so that the values are not
                // copied as they grow (the estimate's excess is given back at the end).
                let row_bytes = (record.as_slice().len() + record.len()).max(1) as u64;
                let estimate = usize::try_from(file_len / row_bytes + 1).unwrap_or(usize::MAX);
                out.reserve(estimate.saturating_mul(columns.len()).min(1 << 28));
            }
            if record.len() != width {
                return Err(file.fail(
                    leaf,
                    Place::Line { line, column: None },
                    LoadReason::FieldCount {
                        expected: width,
                        actual: record.len(),
                    },
                ));
            }
            for &c in columns {
                let field = record.get(c).unwrap_or_default().trim_ascii();
                let fail = |reason| {
                    file.fail(
                        leaf,
                        Place::Line {
                            line,
                            column: Some(c + 1),
                        },
                        reason,
                    )
                };
                let Ok(text) = std::str::from_utf8(field) else {
                    return Err(fail(LoadReason::NotANumber {
                        text: String::from_utf8_lossy(field).into_owned(),
                    }));
                };
                if let Some(max) = max_labels {
                    let num = Num::parse(text).ok_or_else(|| {
                        fail(LoadReason::NotANumber {
                            text: text.to_owned(),
                        })
                    })?;
                    if !num.label_below(max) {
                        return Err(fail(LoadReason::Label {
                            value: text.to_owned(),
                            max_labels: max,
                        }));
                    }
                }
                let value = T::parse_exact(text).map_err(fail)?;
                file.non_finite.check(value.as_f64()).map_err(fail)?;
                out.push(value);
            }
            rows.set(rows.get() + 1);
        }
        if out.capacity() > out.len() + out.len() / 4 {
            out.shrink_to_fit();
        }
        Ok(out)
    }
}

impl LeafSource for CsvFile {
    type Error = LoadError;

    /// With a label file, which of the two files a leaf is read from.
    fn origin(&self, leaf: &Described) -> Option<String> {
        let Labels::File(labels) = &self.labels else {
            return None;
        };
        let file = if leaf.source == self.label_source {
            labels
        } else {
            &self.path
        };
        Some(format!("file {}", file.display()))
    }

    fn read_leaf<S: Space>(&mut self, leaf: &Described) -> Result<Batch<S>, LoadError> {
        let is_label = leaf.source == self.label_source;
        if !is_label && leaf.source != self.feature_source {
            let mut serves = vec![self.feature_source.clone()];
            if !matches!(self.labels, Labels::None) {
                serves.push(self.label_source.clone());
            }
            return Err(LoadError::NoSource {
                loader: format!("the CSV file {}", self.path.display()),
                source_name: leaf.source,
                field: leaf.field.clone(),
                serves,
            });
        }
        let dims = sample_dims::<S>().map_err(|r| self.fail(leaf, Place::File, r))?;
        let per_sample: usize = dims.iter().product();
        if is_label {
            match &self.labels {
                Labels::None => {
                    return Err(self.fail(leaf, Place::File, LoadReason::NoLabelColumn));
                }
                Labels::Column(_) => {}
                Labels::File(path) => return self.label_csv(path).read_leaf::<S>(leaf),
                Labels::Zeros => {
                    // As many values as the rows of a file can justify: the file's length bounds
                    // `rows`, a space's static size bounds `per_sample`.
                    let rows = self.count_rows(leaf)?;
                    let values = rows
                        .checked_mul(per_sample)
                        .map(|n| vec![<S::Elem as crate::types::elem::Element>::ZERO; n])
                        .ok_or_else(|| {
                            let mut shape = vec![rows];
                            shape.extend_from_slice(&dims);
                            let shape = crate::types::error::Shape(shape);
                            self.fail(leaf, Place::File, LoadReason::Overflow { shape })
                        })?;
                    return batch_from_samples::<S>(rows, values)
                        .map_err(|r| self.fail(leaf, Place::File, r));
                }
            }
        }
        // Each leaf streams the file once: rows go straight into the leaf's values, so memory
        // holds the values and a buffer, never the file or its records.
        let (mut reader, lines, file_len) = self.open(leaf)?;
        let mut record = ByteRecord::new();
        // A file with neither header nor rows: no samples, whatever the spec.
        let Some((head, first_row)) = self.read_head(&mut reader, &lines, &mut record, leaf)?
        else {
            return batch_from_samples::<S>(0, Vec::new())
                .map_err(|r| self.fail(leaf, Place::File, r));
        };
        let label = self.label_index(&head, leaf)?;
        let columns: Vec<usize> = if is_label {
            label.into_iter().collect()
        } else {
            (0..head.width).filter(|&c| Some(c) != label).collect()
        };
        if columns.len() != per_sample {
            return Err(self.fail(
                leaf,
                Place::Line {
                    line: head.first_line,
                    column: None,
                },
                LoadReason::Columns {
                    space: S::describe(),
                    expected: per_sample,
                    actual: columns.len(),
                    what: if is_label {
                        "label column"
                    } else {
                        "feature columns"
                    },
                },
            ));
        }
        let rows = core::cell::Cell::new(0);
        let task = ParseColumns {
            file: self,
            leaf,
            reader: &mut reader,
            lines: &lines,
            record: &mut record,
            pending: first_row.then_some(head.first_line),
            width: head.width,
            columns: &columns,
            max_labels: S::MAX_LABELS,
            file_len,
            rows: &rows,
        };
        let values = run_for::<S::Elem, _>(task).map_err(|r| self.fail(leaf, Place::File, r))??;
        batch_from_samples::<S>(rows.get(), values).map_err(|r| self.fail(leaf, Place::File, r))
    }
}

/// The lines of the file as an editor numbers them, counted as the file streams through the
/// CSV reader: `\n`, `\r\n` and a lone `\r` each end one line (the line ends the csv crate
/// accepts), also inside quoted fields. Shared by the reader's [`LineCounter`] and the code
/// that asks for a record's line.
#[derive(Clone, Default)]
struct Lines(std::rc::Rc<core::cell::RefCell<LineState>>);

#[derive(Default)]
struct LineState {
    /// Bytes seen so far.
    offset: u64,
    /// Line ends seen so far (a `\r\n` counts once).
    ends: u64,
    /// The byte before `offset`.
    prev: Option<u8>,
    /// The first byte of each line holding something, with its line, from the oldest record
    /// that may still be asked about.
    starts: std::collections::VecDeque<(u64, u64)>,
}

impl Lines {
    /// Counts the line ends of `bytes`, the next bytes of the file.
    fn scan(&self, bytes: &[u8]) {
        let mut st = self.0.borrow_mut();
        for &b in bytes {
            let end = b == b'\n' || b == b'\r';
            if end {
                if !(b == b'\n' && st.prev == Some(b'\r')) {
                    st.ends += 1;
                }
            } else if st.prev.is_none_or(|p| p == b'\n' || p == b'\r') {
                let at = (st.offset, st.ends + 1);
                st.starts.push_back(at);
            }
            st.prev = Some(b);
            st.offset += 1;
        }
    }

    /// The line (from 1) of a record whose reading starts at `offset`: the csv crate starts a
    /// record where the one before ended, before the rest of its line end and any blank lines,
    /// so the record's line is that of the first byte holding something from there on.
    /// Records are asked about in file order, so what lies before `offset` is forgotten.
    fn record_line(&self, offset: u64) -> u64 {
        let mut st = self.0.borrow_mut();
        while st.starts.front().is_some_and(|&(at, _)| at < offset) {
            st.starts.pop_front();
        }
        match st.starts.front() {
            Some(&(_, line)) => line,
            None => st.ends + 1,
        }
    }
}

/// A reader that shows every byte it reads to [`Lines`].
struct LineCounter<R> {
    inner: R,
    lines: Lines,
}

impl<R: Read> Read for LineCounter<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.lines.scan(&buf[..n]);
        Ok(n)
    }
}
