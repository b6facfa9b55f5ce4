//! The CSV loader: one sample per row, a label column for the label source and the other
//! columns, in order, for the feature source.

use super::convert::{ForScalar, Num, Scalar, batch_from_samples, run_for, sample_dims};
use super::error::LoadError;
use super::{LoadReason, Place, load_error};
use crate::data::dataset::LeafSource;
use crate::types::batch::Batch;
use crate::types::space::Space;
use crate::types::spec::Described;
use ::csv::{ByteRecord, ReaderBuilder};
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
/// feature source (`"features"` unless set).
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
/// use batchspec::dataset::Dataset;
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
    label_column: Option<Column>,
    label_source: String,
    feature_source: String,
    table: Option<Table>,
}

/// The rows of the file, read once.
#[derive(Debug, Clone)]
struct Table {
    /// The header and its line.
    header: Option<(u64, ByteRecord)>,
    /// The rows, each with its line.
    rows: Vec<(u64, ByteRecord)>,
    /// The number of fields of every row (`None` for a file with neither header nor rows).
    width: Option<usize>,
    /// The line of the header, or else of the first row.
    first_line: u64,
}

impl CsvFile {
    /// The CSV file at `path`, read without a header, with no label column, comma-separated.
    /// Nothing is read until the first leaf.
    pub fn new(path: impl AsRef<Path>) -> Self {
        CsvFile {
            path: path.as_ref().to_path_buf(),
            has_header: false,
            delimiter: b',',
            label_column: None,
            label_source: "targets".to_owned(),
            feature_source: "features".to_owned(),
            table: None,
        }
    }

    /// Whether the first line is a header (default `false`). Lines are counted with it.
    pub fn has_header(mut self, yes: bool) -> Self {
        self.has_header = yes;
        self.table = None;
        self
    }

    /// The field delimiter (default `b','`).
    pub fn delimiter(mut self, delimiter: u8) -> Self {
        self.delimiter = delimiter;
        self.table = None;
        self
    }

    /// The column of the labels: an index from 0, a name in the header, or [`Column::Last`].
    /// Without one, every column is a feature and a leaf of the label source is an error.
    pub fn label_column(mut self, column: impl Into<Column>) -> Self {
        self.label_column = Some(column.into());
        self
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

    /// Reads the file into rows, checking that every row has the same number of fields.
    fn read_table(&self, leaf: &Described) -> Result<Table, LoadError> {
        let bytes =
            std::fs::read(&self.path).map_err(|e| self.fail(leaf, Place::File, e.into()))?;
        let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        let lines = Lines::new(text);
        let mut reader = ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(self.delimiter)
            .from_reader(text);
        let csv_error = |e: ::csv::Error| {
            let line = e.position().map(|p| lines.record_line(p.byte()));
            let place = match line {
                Some(line) => Place::Line { line, column: None },
                None => Place::File,
            };
            self.fail(
                leaf,
                place,
                LoadReason::Csv {
                    message: e.to_string(),
                },
            )
        };
        let mut header = None;
        let mut rows = Vec::new();
        let mut record = ByteRecord::new();
        while reader.read_byte_record(&mut record).map_err(csv_error)? {
            // The csv crate's own line count is off after `\r\n` and blank lines: the line is
            // worked out from the record's byte offset instead.
            let line = record.position().map_or(0, |p| lines.record_line(p.byte()));
            if self.has_header && header.is_none() {
                header = Some((line, record.clone()));
            } else {
                rows.push((line, record.clone()));
            }
        }
        let first = header.as_ref().or(rows.first());
        let width = first.map(|(_, r)| r.len());
        let first_line = first.map_or(1, |(l, _)| *l);
        if let Some(width) = width
            && let Some((line, r)) = rows.iter().find(|(_, r)| r.len() != width)
        {
            return Err(self.fail(
                leaf,
                Place::Line {
                    line: *line,
                    column: None,
                },
                LoadReason::FieldCount {
                    expected: width,
                    actual: r.len(),
                },
            ));
        }
        Ok(Table {
            header,
            rows,
            width,
            first_line,
        })
    }

    /// The index of the label column in rows of `width` fields.
    fn label_index(
        &self,
        table: &Table,
        width: usize,
        leaf: &Described,
    ) -> Result<Option<usize>, LoadError> {
        let at_first = Place::Line {
            line: table.first_line,
            column: None,
        };
        let index = match &self.label_column {
            None => return Ok(None),
            Some(Column::Index(i)) => *i,
            Some(Column::Last) => width.saturating_sub(1),
            Some(Column::Name(name)) => {
                let Some((line, header)) = &table.header else {
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

/// Parses the columns `columns` of every row as `T`; labels below `max_labels` when given.
struct ParseColumns<'a> {
    rows: &'a [(u64, ByteRecord)],
    columns: &'a [usize],
    max_labels: Option<usize>,
}

impl ForScalar for ParseColumns<'_> {
    type Err = (u64, usize, LoadReason);

    fn run<T: Scalar>(self) -> Result<Vec<T>, Self::Err> {
        let mut out = Vec::with_capacity(self.rows.len().saturating_mul(self.columns.len()));
        for (line, row) in self.rows {
            for &c in self.columns {
                let field = row.get(c).unwrap_or_default().trim_ascii();
                let fail = |reason| (*line, c + 1, reason);
                let Ok(text) = std::str::from_utf8(field) else {
                    return Err(fail(LoadReason::NotANumber {
                        text: String::from_utf8_lossy(field).into_owned(),
                    }));
                };
                if let Some(max) = self.max_labels {
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
                out.push(T::parse_exact(text).map_err(fail)?);
            }
        }
        Ok(out)
    }
}

impl LeafSource for CsvFile {
    type Error = LoadError;

    fn read_leaf<S: Space>(&mut self, leaf: &Described) -> Result<Batch<S>, LoadError> {
        let is_label = leaf.source == self.label_source;
        if !is_label && leaf.source != self.feature_source {
            let mut serves = vec![self.feature_source.clone()];
            if self.label_column.is_some() {
                serves.push(self.label_source.clone());
            }
            return Err(LoadError::NoSource {
                loader: format!("the CSV file {}", self.path.display()),
                source_name: leaf.source,
                field: leaf.field.clone(),
                serves,
            });
        }
        if is_label && self.label_column.is_none() {
            return Err(self.fail(leaf, Place::File, LoadReason::NoLabelColumn));
        }
        let dims = sample_dims::<S>().map_err(|r| self.fail(leaf, Place::File, r))?;
        let per_sample: usize = dims.iter().product();
        if self.table.is_none() {
            self.table = Some(self.read_table(leaf)?);
        }
        let table = self
            .table
            .as_ref()
            .unwrap_or_else(|| unreachable!("the table was just read"));
        // A file with neither header nor rows: no samples, whatever the spec.
        let Some(width) = table.width else {
            return batch_from_samples::<S>(0, Vec::new())
                .map_err(|r| self.fail(leaf, Place::File, r));
        };
        let label = self.label_index(table, width, leaf)?;
        let columns: Vec<usize> = if is_label {
            label.into_iter().collect()
        } else {
            (0..width).filter(|&c| Some(c) != label).collect()
        };
        if columns.len() != per_sample {
            return Err(self.fail(
                leaf,
                Place::Line {
                    line: table.first_line,
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
        let task = ParseColumns {
            rows: &table.rows,
            columns: &columns,
            max_labels: S::MAX_LABELS,
        };
        let values = run_for::<S::Elem, _>(task)
            .map_err(|r| self.fail(leaf, Place::File, r))?
            .map_err(|(line, column, reason)| {
                self.fail(
                    leaf,
                    Place::Line {
                        line,
                        column: Some(column),
                    },
                    reason,
                )
            })?;
        batch_from_samples::<S>(table.rows.len(), values)
            .map_err(|r| self.fail(leaf, Place::File, r))
    }
}

/// The physical lines of a text, as an editor numbers them: `\n`, `\r\n` and a lone `\r` each
/// end one line (the line ends the csv crate accepts), also inside quoted fields.
struct Lines<'a> {
    text: &'a [u8],
    /// The byte offset where each line after the first starts.
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a [u8]) -> Self {
        let mut starts = Vec::new();
        let mut i = 0;
        while i < text.len() {
            match text[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if text.get(i + 1) == Some(&b'\n') => {
                    starts.push(i + 2);
                    i += 1;
                }
                b'\r' => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        Lines { text, starts }
    }

    /// The line (from 1) of the byte at `offset`.
    fn line_of(&self, offset: usize) -> u64 {
        (self.starts.partition_point(|&s| s <= offset) + 1) as u64
    }

    /// The line of a record whose reading starts at `offset`: the csv crate starts a record
    /// where the one before ended, before the rest of its line end and any blank lines, so
    /// those are skipped first.
    fn record_line(&self, offset: u64) -> u64 {
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.text.len());
        let skip = self.text[start..]
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        self.line_of(start + skip)
    }
}
