//! Parquet files, and directories of them as Spark writes them, read into a record spec (feature
//! `parquet`): one column per source, checked against the leaf's space before any value is
//! read, every value converted exactly.
//!
//! This reader loads whole columns, or the row groups selected, into memory
//! ([`Dataset::load`](crate::data::dataset::Dataset::load)); [`ParquetStream`](crate::load::ParquetStream)
//! streams a rank's share of [`ShardPlan`](crate::load::ShardPlan) with bounded memory.

use crate::data::dataset::SpareBuffers;
use crate::load::convert::{Scalar, batch_from_samples, convert_append, sample_dims, sample_fits};
use crate::load::error::{LoadError, LoadReason, Place, TensorMismatch};
use crate::load::source::LeafSource;
use crate::load::{NonFinite, load_error, set_path};
use crate::types::axis::Layout as AxisLayout;
use crate::types::batch::Batch;
use crate::types::elem::Element;
use crate::types::error::Shape;
use crate::types::ragged::{Ragged, SequenceSpace};
use crate::types::space::Space;
use crate::types::spec::Described;
use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowPrimitiveType, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, OffsetSizeTrait};
use arrow_schema::{DataType, Field};
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ParquetRecordBatchReaderBuilder};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Parquet data as a [`LeafSource`]: one file, or a directory of part files as Spark, Ray and
/// Dask write them (`part-*.parquet`, read in the order of their names; `_SUCCESS`, `.crc` and
/// every other file whose name starts with `_` or `.` left out). Each source is the column of
/// its name unless [`ParquetFiles::column`] names another.
///
/// | column type | fills |
/// | --- | --- |
/// | an integer or float column | a space of one value per sample: `Index<M>`, `Labels<M>`, `Vector<1>` |
/// | `FixedSizeList<T, N>` (Arrow's `arrow.fixed_shape_tensor` is one, with its shape) | any space of `N` values per sample, in its memory order |
/// | `List<T>` / `LargeList<T>` whose every row has the sample's length (Ray's `ray.data.arrow_tensor_v2`, whose shape must fit the space) | the same; a row of another length is an error naming it |
/// | lists of lists of one shape in every row (Hugging Face `Array2D`..`Array5D`) | a space whose sizes are that shape in its memory order |
/// | a struct of encoded PNG/JPEG `bytes` (Hugging Face `Image`; feature `parquet-image`) | a `bhwc` image space of the decoded height, width and channels (8-bit grey, grey+alpha, RGB, RGBA), any numeric element type |
///
/// `T` is any integer or float type; values convert to the space's element type exactly (a
/// `double` column fills an `f32` space only with values an `f32` holds; ask for an `f64`
/// space and format it otherwise), labels must be in `0..M` (`-1` is an error, never wrapped),
/// and a null is an error naming its row. A `fixed_shape_tensor`'s shape must fit the space (as
/// for `.npy` files: the same sizes once axes of size 1 are dropped, or the same total when one
/// side is flat), and its `dim_names`, when they name axes (`H`, `W`, `C`, ...), must be in the
/// space's memory order: a `C, H, W` tensor fills a `bchw` image, not a `bhwc` one.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::Dataset;
/// use batchspec::load::ParquetFiles;
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "features")]
///     image: Batch<image![2, 2, 1; BHWC]>,
///     #[spec(source = "targets")]
///     label: Batch<Labels<3>>,
/// }
///
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/parquet/spark_dir");
/// let ds = Dataset::<Record>::load(&mut ParquetFiles::open(dir)?)?;
/// assert_eq!(ds.len(), 10);
/// assert_eq!(ds.fields().image.array()[[9, 1, 1, 0]], 39.5);
/// # Ok::<(), batchspec::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ParquetFiles {
    path: PathBuf,
    files: Vec<PathBuf>,
    columns: Vec<(String, PathBuf)>,
    // The row groups to read, in this order (all of them when `None`).
    selection: Option<Vec<RowGroup>>,
    // Memory to read leaves into, given back by a stream as it finishes with a window.
    spare: Option<Arc<Mutex<SpareBuffers>>>,
    // Each file's footer, decoded once and shared by the copies (a stream reads every column of
    // every window through one).
    footers: Arc<[OnceLock<ArrowReaderMetadata>]>,
    non_finite: NonFinite,
}

/// One row group of one of the files of a [`ParquetFiles`]: the unit of reading and of sharding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowGroup {
    /// The file, as an index into [`ParquetFiles::files`].
    pub file: usize,
    /// The row group's index in its file.
    pub index: usize,
    /// The row of the file the row group starts at.
    pub first_row: usize,
    /// Its number of rows.
    pub rows: usize,
}

impl ParquetFiles {
    /// The file at `path`, or the part files of the directory at `path`.
    ///
    /// # Errors
    /// A [`LoadError::File`] when the path cannot be read, or the directory holds no Parquet
    /// file.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, LoadError> {
        let path = path.as_ref().to_path_buf();
        let fail = |reason| LoadError::File {
            file: path.clone(),
            place: Place::File,
            source_name: "",
            reason: Box::new(reason),
        };
        let meta = std::fs::metadata(&path).map_err(|e| fail(e.into()))?;
        let files = if meta.is_dir() {
            let mut files = Vec::new();
            for entry in std::fs::read_dir(&path).map_err(|e| fail(e.into()))? {
                let entry = entry.map_err(|e| fail(e.into()))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                let hidden = name.starts_with('_') || name.starts_with('.');
                if !hidden && name.ends_with(".parquet") && entry.path().is_file() {
                    files.push(entry.path());
                }
            }
            files.sort();
            if files.is_empty() {
                return Err(fail(LoadReason::Parquet {
                    message: "the directory holds no `.parquet` file (part files as Spark writes them: `part-*.parquet`)".into(),
                }));
            }
            files
        } else {
            vec![path.clone()]
        };
        Ok(ParquetFiles {
            path,
            columns: Vec::new(),
            selection: None,
            spare: None,
            footers: files.iter().map(|_| OnceLock::new()).collect(),
            files,
            non_finite: NonFinite::Keep,
        })
    }

    /// What to do with NaN and infinities in float columns (default [`NonFinite::Keep`]);
    /// [`NonFinite::Refuse`] makes the first one an error naming its column and row (a
    /// [`ParquetStream`](crate::load::ParquetStream) made from these files refuses them too).
    pub fn non_finite(mut self, policy: NonFinite) -> Self {
        self.non_finite = policy;
        self
    }

    /// Reads the source `source` from the column `column` (by default the column of the
    /// source's name).
    pub fn column(mut self, source: &str, column: &str) -> Self {
        set_path(&mut self.columns, source.to_owned(), PathBuf::from(column));
        self
    }

    /// The files read, in order.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Every row group of every file, in file order (only the files' footers are read).
    ///
    /// # Errors
    /// A [`LoadError::File`] for a file that cannot be opened or whose footer is not Parquet.
    pub fn row_groups(&self) -> Result<Vec<RowGroup>, LoadError> {
        let mut out = Vec::new();
        for (file, path) in self.files.iter().enumerate() {
            let fail = |reason| LoadError::File {
                file: path.clone(),
                place: Place::File,
                source_name: "",
                reason: Box::new(reason),
            };
            let builder = self.builder(file).map_err(fail)?;
            let mut first_row = 0usize;
            for (index, group) in builder.metadata().row_groups().iter().enumerate() {
                let rows = usize::try_from(group.num_rows()).map_err(|_| {
                    fail(LoadReason::Parquet {
                        message: format!("row group {index} claims {} rows", group.num_rows()),
                    })
                })?;
                out.push(RowGroup {
                    file,
                    index,
                    first_row,
                    rows,
                });
                first_row = first_row.saturating_add(rows);
            }
        }
        Ok(out)
    }

    /// The same files, reading only `groups`, in that order (as [`row_groups`](Self::row_groups)
    /// listed them; a group of another listing is read by its file and index).
    pub fn select_row_groups(&self, groups: &[RowGroup]) -> Self {
        let mut out = self.clone();
        out.selection = Some(groups.to_vec());
        out
    }

    /// The same files, reading leaves into the vectors of `spare` when it holds some of their
    /// element type.
    pub(crate) fn with_spare(mut self, spare: Arc<Mutex<SpareBuffers>>) -> Self {
        self.spare = Some(spare);
        self
    }

    /// A reader of file `f` (opened afresh) with its footer, decoded the first time only.
    fn builder(
        &self,
        f: usize,
    ) -> Result<ParquetRecordBatchReaderBuilder<std::fs::File>, LoadReason> {
        let path = &self.files[f];
        let handle = std::fs::File::open(path)?;
        let footer = match self.footers[f].get() {
            Some(footer) => footer.clone(),
            None => {
                let footer = guarded(|| {
                    ArrowReaderMetadata::load(&handle, Default::default())
                        .map_err(|e| (Place::File, decode_error(e)))
                })
                .map_err(|(_, reason)| reason)?;
                check_chunks(&footer, handle.metadata()?.len())?;
                self.footers[f].get_or_init(|| footer).clone()
            }
        };
        Ok(ParquetRecordBatchReaderBuilder::new_with_metadata(
            handle, footer,
        ))
    }

    fn column_of(&self, source: &str) -> String {
        self.columns.iter().find(|(s, _)| s == source).map_or_else(
            || source.to_owned(),
            |(_, c)| c.to_string_lossy().into_owned(),
        )
    }
}

impl LeafSource for ParquetFiles {
    type Error = LoadError;

    fn read_ragged<S: SequenceSpace>(&mut self, leaf: &Described) -> Result<Ragged<S>, LoadError> {
        self.read_ragged_leaf::<S>(leaf)
    }

    fn read_leaf<S: Space>(&mut self, leaf: &Described) -> Result<Batch<S>, LoadError> {
        let column = self.column_of(leaf.source);
        let dims = sample_dims::<S>().map_err(|r| load_error(&self.path, Place::File, leaf, r))?;
        let mut values: Vec<S::Elem> = self
            .spare
            .as_ref()
            .and_then(|spare| spare.lock().ok()?.take())
            .unwrap_or_default();
        let mut rows = 0usize;
        let non_finite = self.non_finite;
        self.each_read(leaf, |builder, group| {
            rows += read_column::<S>(builder, &column, &dims, group, &mut values, non_finite)?;
            Ok(())
        })?;
        batch_from_samples::<S>(rows, values)
            .map_err(|r| load_error(&self.path, Place::File, leaf, r))
    }
}

impl ParquetFiles {
    /// Runs `read` on each file whole, or on the selected row groups one by one (in the order
    /// given), through the decoder's panic guard; an error names the file read and `leaf`.
    fn each_read(
        &self,
        leaf: &Described,
        mut read: impl FnMut(
            ParquetRecordBatchReaderBuilder<std::fs::File>,
            Option<RowGroup>,
        ) -> Result<(), Fail>,
    ) -> Result<(), LoadError> {
        let reads: Vec<(usize, Option<RowGroup>)> = match &self.selection {
            None => (0..self.files.len()).map(|f| (f, None)).collect(),
            Some(groups) => groups.iter().map(|g| (g.file, Some(*g))).collect(),
        };
        for (f, group) in reads {
            let Some(file) = self.files.get(f) else {
                return Err(load_error(
                    &self.path,
                    Place::File,
                    leaf,
                    LoadReason::Parquet {
                        message: format!(
                            "a row group of file {f}, which is not one of these files"
                        ),
                    },
                ));
            };
            let builder = self
                .builder(f)
                .map_err(|r| load_error(file, Place::File, leaf, r))?;
            guarded(|| read(builder, group))
                .map_err(|(place, reason)| load_error(file, place, leaf, reason))?;
        }
        Ok(())
    }
}

/// The column `column` of the file: its position and field.
fn find_column(schema: &arrow_schema::Schema, column: &str) -> Result<(usize, Field), Fail> {
    schema
        .fields()
        .iter()
        .enumerate()
        .find(|(_, f)| f.name() == column)
        .map(|(i, f)| (i, f.as_ref().clone()))
        .ok_or_else(|| {
            (
                Place::File,
                LoadReason::NoColumn {
                    columns: schema.fields().iter().map(|f| f.name().clone()).collect(),
                },
            )
        })
}

/// A reader of the column at `index` alone, of the row group `group` or of the whole file,
/// decoding `rows` rows at a time.
fn column_reader(
    builder: ParquetRecordBatchReaderBuilder<std::fs::File>,
    index: usize,
    group: Option<RowGroup>,
    rows: usize,
) -> Result<parquet::arrow::arrow_reader::ParquetRecordBatchReader, Fail> {
    let whole = |reason| (Place::File, reason);
    let mask = ProjectionMask::roots(builder.parquet_schema(), [index]);
    let groups = builder.metadata().num_row_groups();
    let builder = match group {
        Some(g) if g.index >= groups => {
            return Err(whole(LoadReason::Parquet {
                message: format!("no row group {} (the file has {groups})", g.index),
            }));
        }
        Some(g) => builder.with_row_groups(vec![g.index]),
        None => builder,
    };
    builder
        .with_projection(mask)
        .with_batch_size(rows)
        .build()
        .map_err(|e| whole(decode_error(e)))
}

/// Ragged leaves (`Ragged<S>` fields) from list columns: `List<number>` or `LargeList<number>`
/// for sequences of one value per step (`IndexSeq`, token ids as Hugging Face and Ray write
/// them), and a list of fixed-length lists (`List<FixedSizeList<number, D>>`, or
/// `List<List<number>>` whose inner lists all hold `D` values) for `VectorSeq<D>`.
impl ParquetFiles {
    fn read_ragged_leaf<S: SequenceSpace>(
        &mut self,
        leaf: &Described,
    ) -> Result<Ragged<S>, LoadError> {
        let column = self.column_of(leaf.source);
        let mut values: Vec<S::Elem> = Vec::new();
        let mut offsets = vec![0usize];
        let non_finite = self.non_finite;
        self.each_read(leaf, |builder, group| {
            read_ragged_column::<S>(
                builder,
                &column,
                group,
                &mut values,
                &mut offsets,
                non_finite,
            )
        })?;
        Ragged::from_parts(values, offsets).map_err(|e| {
            load_error(
                &self.path,
                Place::File,
                leaf,
                LoadReason::Invalid { error: Box::new(e) },
            )
        })
    }
}

/// Reads one file's (or row group's) rows of a ragged column: appends the values and the end
/// of each row, in steps, to `offsets`.
fn read_ragged_column<S: Space>(
    builder: ParquetRecordBatchReaderBuilder<std::fs::File>,
    column: &str,
    group: Option<RowGroup>,
    values: &mut Vec<S::Elem>,
    offsets: &mut Vec<usize>,
    non_finite: NonFinite,
) -> Result<(), Fail> {
    let at = |row: Option<u64>| Place::Column {
        name: column.to_owned(),
        row,
    };
    let (index, field) = find_column(builder.schema(), column)?;
    let step = crate::types::ragged::step_len::<S>();
    let step_shape: Vec<usize> = S::SHAPE.iter().flatten().copied().collect();
    let wrong = |expected| {
        (
            at(None),
            LoadReason::ColumnType {
                found: field.data_type().to_string(),
                space: S::describe(),
                expected,
            },
        )
    };
    const ACCEPTED: &str = "a List or LargeList of numbers (one per step), or of fixed-length lists of numbers (one list per step)";
    let element = match field.data_type() {
        DataType::List(c) | DataType::LargeList(c) => match list_leaf(c.data_type()) {
            Some(_) if numeric(c.data_type()) && step != 1 => {
                return Err((
                    at(None),
                    LoadReason::StepLength {
                        found: 1,
                        expected: step,
                        space: S::describe(),
                    },
                ));
            }
            Some(leaf) => leaf.clone(),
            None => return Err(wrong(ACCEPTED)),
        },
        _ => return Err(wrong(ACCEPTED)),
    };
    let reader = column_reader(builder, index, group, 8192)?;
    let first = group.map_or(0, |g| g.first_row);
    let mut rows = 0usize;
    for batch in reader {
        let batch = batch.map_err(|e| (at(Some((first + rows) as u64)), decode_error(e)))?;
        let array = batch.column(0);
        let row_at = |r: usize| at(Some((first + rows + r) as u64));
        if let Some(r) = (0..array.len()).find(|&i| array.is_null(i)) {
            return Err((row_at(r), LoadReason::Null));
        }
        // The rows' steps (the outer list), then the steps' values.
        let (steps, row_offsets) = list_offsets(array);
        let (leaf, step_offsets, shape) =
            flatten_nested(&steps, S::describe).map_err(|(j, reason)| {
                // `j` is a step: name the row that holds it.
                let r = row_offsets.partition_point(|&o| o <= j).saturating_sub(1);
                let reason = match reason {
                    LoadReason::RowLength { found, .. } => LoadReason::StepLength {
                        found,
                        expected: step,
                        space: S::describe(),
                    },
                    other => other,
                };
                (row_at(r), reason)
            })?;
        let (row_first, row_last) = (
            row_offsets.first().copied().unwrap_or(0),
            row_offsets.last().copied().unwrap_or(0),
        );
        if row_last > row_first && !sample_fits(&shape, &step_shape) {
            let found = shape.iter().product();
            return Err((
                row_at(0),
                LoadReason::StepLength {
                    found,
                    expected: step,
                    space: S::describe(),
                },
            ));
        }
        let start = step_offsets.get(row_first).copied().unwrap_or(0);
        let end = step_offsets.get(row_last).copied().unwrap_or(start);
        let part = leaf.slice(start, end - start);
        let before = values.len();
        if part.null_count() > 0
            && let Some(i) = (0..part.len()).find(|&i| part.is_null(i))
        {
            let r = row_offsets.partition_point(|&o| o <= row_first + i / step.max(1));
            return Err((row_at(r.saturating_sub(1)), LoadReason::Null));
        }
        macro_rules! convert {
            ($($dt:ident => $ty:ident),*) => {
                match &element {
                    $(DataType::$dt => convert_part::<S, $ty>(&part, step, values),)*
                    _ => unreachable!("the column's type was checked above"),
                }
            };
        }
        convert!(
            Int8 => Int8Type, Int16 => Int16Type, Int32 => Int32Type, Int64 => Int64Type,
            UInt8 => UInt8Type, UInt16 => UInt16Type, UInt32 => UInt32Type, UInt64 => UInt64Type,
            Float32 => Float32Type, Float64 => Float64Type
        )
        .and_then(|()| {
            first_refused(&values[before..], non_finite)
                .map_or(Ok(()), |(i, reason)| Err((i / step.max(1), reason)))
        })
        .map_err(|(s, reason)| {
            // `s` is a step of this batch: name its row.
            let r = row_offsets.partition_point(|&o| o <= row_first + s);
            (row_at(r.saturating_sub(1)), reason)
        })?;
        let base = offsets.last().copied().unwrap_or(0);
        offsets.extend(row_offsets.windows(2).map(|w| base + (w[1] - row_first)));
        rows += array.len();
    }
    Ok(())
}

/// Checks that the footer places every column chunk inside the file: the decoder trusts these
/// offsets (a negative one is a panic in it, found by the footer proptest).
fn check_chunks(footer: &ArrowReaderMetadata, file_len: u64) -> Result<(), LoadReason> {
    for (g, group) in footer.metadata().row_groups().iter().enumerate() {
        for (c, chunk) in group.columns().iter().enumerate() {
            let start = chunk
                .dictionary_page_offset()
                .unwrap_or(chunk.data_page_offset());
            let len = chunk.compressed_size();
            let inside = u64::try_from(start)
                .ok()
                .zip(u64::try_from(len).ok())
                .and_then(|(s, l)| s.checked_add(l))
                .is_some_and(|end| end <= file_len);
            if !inside {
                return Err(LoadReason::Parquet {
                    message: format!(
                        "the footer places column chunk {c} of row group {g} at {len} bytes from byte {start}, outside the file of {file_len} bytes"
                    ),
                });
            }
        }
    }
    Ok(())
}

/// A problem and where it is in the file.
type Fail = (Place, LoadReason);

/// Runs a read through the `parquet` crate's decoder, whose assertions can panic on corrupt
/// data (a dictionary page missing, found by the footer proptest): such a panic is returned as
/// an error of the file (its message still reaches the panic hook; with `panic = "abort"` it
/// aborts).
fn guarded<T>(read: impl FnOnce() -> Result<T, Fail>) -> Result<T, Fail> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|m| (*m).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err((
            Place::File,
            LoadReason::Parquet {
                message: format!("the decoder failed on corrupt data ({message})"),
            },
        ))
    })
}

fn decode_error(e: impl std::fmt::Display) -> LoadReason {
    let message = e.to_string();
    let hint = if message.contains("Disabled feature") && message.contains("zstd") {
        " (turn on the `parquet-zstd` feature of batchspec)"
    } else if message.contains("Disabled feature") {
        " (this codec is not compiled into batchspec's reader: it reads uncompressed, snappy and, with `parquet-zstd`, zstd data)"
    } else {
        ""
    };
    LoadReason::Parquet {
        message: format!("{message}{hint}"),
    }
}

/// Appends the values of `column` of the file of `builder` (or of its row group `group`),
/// converted to the element type of `S`, to `values`; the number of rows read.
fn read_column<S: Space>(
    builder: ParquetRecordBatchReaderBuilder<std::fs::File>,
    column: &str,
    dims: &[usize],
    group: Option<RowGroup>,
    values: &mut Vec<S::Elem>,
    non_finite: NonFinite,
) -> Result<usize, Fail> {
    let at = |row: Option<u64>| Place::Column {
        name: column.to_owned(),
        row,
    };
    let (index, field) = find_column(builder.schema(), column)?;
    let per: usize = dims.iter().product();
    let layout = check_field::<S>(&field, dims, per).map_err(|r| (at(None), r))?;
    let metadata_rows = builder.metadata().file_metadata().num_rows();
    // Decoded a megabyte or so at a time: the decoder's buffers then come from memory the
    // allocator keeps, where record batches of a whole row group were mapped (and page-faulted)
    // afresh each time (a third slower, measured).
    let decode_rows = ((1 << 20) / (per.max(1) * 4)).clamp(1, 8192);
    let reader = column_reader(builder, index, group, decode_rows)?;
    // One allocation for the rows to come (the footer says how many): growing the vector batch
    // by batch copied and page-faulted the data again at every doubling.
    let expected = group.map_or_else(|| usize::try_from(metadata_rows).unwrap_or(0), |g| g.rows);
    values.reserve(expected.saturating_mul(per));
    // Rows are counted from the start of the file, as errors name them.
    let first = group.map_or(0, |g| g.first_row);
    let mut rows = 0usize;
    for batch in reader {
        let batch = batch.map_err(|e| (at(Some((first + rows) as u64)), decode_error(e)))?;
        let array = batch.column(0);
        let n = array.len();
        let before = values.len();
        batch_values::<S>(array, &layout, per, dims, values)
            .and_then(|()| {
                first_refused(&values[before..], non_finite)
                    .map_or(Ok(()), |(i, reason)| Err((i / per.max(1), reason)))
            })
            .map_err(|(row, reason)| (at(Some((first + rows + row) as u64)), reason))?;
        rows += n;
    }
    Ok(rows)
}

/// How a column's rows hold their values.
enum Layout {
    /// One value per row.
    Scalar(DataType),
    /// A list (fixed-size, 32- or 64-bit offsets) of numbers whose rows must all have the
    /// sample's length.
    List(DataType),
    /// Lists of lists (Hugging Face's `Array2D`..`Array5D`), of the same shape in every row;
    /// the leaf type is `leaf`.
    Nested { leaf: DataType },
    /// Encoded PNG or JPEG files in the `bytes` field (child `field`) of a struct (Hugging
    /// Face's `Image`), decoded with the feature `parquet-image`.
    #[cfg_attr(not(feature = "parquet-image"), allow(dead_code))]
    Encoded { field: usize },
}

/// The child holding encoded bytes of a struct column as Hugging Face writes its `Image`
/// feature (`{bytes: binary, path: string}`).
fn encoded_bytes(t: &DataType) -> Option<usize> {
    let DataType::Struct(fields) = t else {
        return None;
    };
    fields.iter().position(|f| {
        f.name() == "bytes" && matches!(f.data_type(), DataType::Binary | DataType::LargeBinary)
    })
}

/// Why a column of encoded images cannot fill `S` (sizes and channels are checked per image).
fn encoded_refusal<S: Space>(dims: &[usize]) -> Option<&'static str> {
    if !cfg!(feature = "parquet-image") {
        return Some(
            "a column of encoded images (PNG/JPEG, as Hugging Face's `Image` stores them) is decoded with the `parquet-image` feature of batchspec; turn it on",
        );
    }
    let letters: Vec<char> = <S::Layout as AxisLayout>::LETTERS
        .iter()
        .copied()
        .filter(|&c| c != 'b')
        .collect();
    (letters != ['h', 'w', 'c'] || dims.len() != 3).then_some(
        "encoded images decode to height × width × channels: ask for an image in layout bhwc (`image![H, W, C; BHWC, u8]`) and format it to another layout",
    )
}

/// The numbers at the bottom of a (possibly nested) list type, if it is one.
fn list_leaf(t: &DataType) -> Option<&DataType> {
    match t {
        t if numeric(t) => Some(t),
        DataType::List(c) | DataType::LargeList(c) | DataType::FixedSizeList(c, _) => {
            list_leaf(c.data_type())
        }
        _ => None,
    }
}

fn numeric(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Int8
            | DataType::Int16
            | DataType::Int32
            | DataType::Int64
            | DataType::UInt8
            | DataType::UInt16
            | DataType::UInt32
            | DataType::UInt64
            | DataType::Float32
            | DataType::Float64
    )
}

/// Checks the column's type (and tensor metadata) against the space, before any value is read.
fn check_field<S: Space>(field: &Field, dims: &[usize], per: usize) -> Result<Layout, LoadReason> {
    let wrong = |expected| LoadReason::ColumnType {
        found: field.data_type().to_string(),
        space: S::describe(),
        expected,
    };
    const ACCEPTED: &str = "an integer or float column, a FixedSizeList, List or LargeList (nested or not) of integers or floats, or a struct of encoded image `bytes`";
    let layout = match field.data_type() {
        t if numeric(t) => Layout::Scalar(t.clone()),
        DataType::FixedSizeList(child, _) | DataType::List(child) | DataType::LargeList(child)
            if numeric(child.data_type()) =>
        {
            Layout::List(child.data_type().clone())
        }
        t @ (DataType::List(_) | DataType::LargeList(_) | DataType::FixedSizeList(..)) => {
            match list_leaf(t) {
                Some(leaf) => Layout::Nested { leaf: leaf.clone() },
                None => return Err(wrong(ACCEPTED)),
            }
        }
        t => match encoded_bytes(t) {
            Some(field) => match encoded_refusal::<S>(dims) {
                None => Layout::Encoded { field },
                Some(why) => return Err(wrong(why)),
            },
            None => return Err(wrong(ACCEPTED)),
        },
    };
    let length = |found| LoadReason::RowLength {
        found,
        expected: per,
        space: S::describe(),
    };
    match (&layout, field.data_type()) {
        (Layout::Scalar(_), _) if !sample_fits(&[], dims) => return Err(length(1)),
        (Layout::List(_), DataType::FixedSizeList(_, n)) => {
            let n = usize::try_from(*n).unwrap_or(0);
            if n != per {
                return Err(length(n));
            }
        }
        _ => {}
    }
    if let Some(tensor) = tensor_metadata(field) {
        check_tensor::<S>(&tensor, dims)?;
    }
    Ok(layout)
}

/// The shape and axis names of an `arrow.fixed_shape_tensor` column.
struct Tensor {
    shape: Vec<usize>,
    names: Option<Vec<String>>,
    permutation: Option<Vec<usize>>,
}

fn tensor_metadata(field: &Field) -> Option<Tensor> {
    let meta = field.metadata();
    let name = meta.get("ARROW:extension:name").map(String::as_str)?;
    let json = meta.get("ARROW:extension:metadata")?;
    // Ray Data's tensor columns (`ray.data.arrow_tensor`, `_v2`): the metadata is the shape.
    if name.starts_with("ray.data.arrow_tensor") {
        let inner = json.trim().strip_prefix('[')?.strip_suffix(']')?;
        return Some(Tensor {
            shape: inner
                .split(',')
                .map(|s| s.trim().parse().ok())
                .collect::<Option<_>>()?,
            names: None,
            permutation: None,
        });
    }
    if name != "arrow.fixed_shape_tensor" {
        return None;
    }
    Some(Tensor {
        shape: json_list(json, "shape")?
            .iter()
            .map(|s| s.parse().ok())
            .collect::<Option<_>>()?,
        names: json_list(json, "dim_names"),
        permutation: json_list(json, "permutation")
            .and_then(|p| p.iter().map(|s| s.parse().ok()).collect()),
    })
}

/// The items of the JSON list under `key` in a flat JSON object, unquoted (enough for the
/// tensor metadata Arrow writes: lists of integers or of strings).
fn json_list(json: &str, key: &str) -> Option<Vec<String>> {
    let start = json.find(&format!("\"{key}\""))?;
    let rest = &json[start..];
    let open = rest.find('[')?;
    let close = rest[open..].find(']')? + open;
    let items = rest[open + 1..close]
        .split(',')
        .map(|s| s.trim().trim_matches('"').to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    Some(items)
}

fn check_tensor<S: Space>(tensor: &Tensor, dims: &[usize]) -> Result<(), LoadReason> {
    let refuse = |hint: String| {
        LoadReason::Tensor(Box::new(TensorMismatch {
            shape: Shape(tensor.shape.clone()),
            names: tensor.names.clone(),
            space: S::describe(),
            hint,
        }))
    };
    if tensor
        .permutation
        .as_ref()
        .is_some_and(|p| p.iter().enumerate().any(|(i, &j)| i != j))
    {
        return Err(refuse(
            ": its data is stored in a permuted order, which this reader does not undo yet".into(),
        ));
    }
    if !sample_fits(&tensor.shape, dims) {
        return Err(refuse(String::new()));
    }
    // Axis names that are axis letters must follow the space's memory order (size-1 axes aside).
    let letters: Vec<char> = <S::Layout as AxisLayout>::LETTERS
        .iter()
        .copied()
        .filter(|&c| c != 'b')
        .zip(dims)
        .filter(|&(_, &d)| d != 1)
        .map(|(c, _)| c)
        .collect();
    if let Some(names) = &tensor.names {
        let named: Option<Vec<char>> = names
            .iter()
            .zip(&tensor.shape)
            .filter(|&(_, &d)| d != 1)
            .map(|(n, _)| {
                let mut chars = n.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Some(c.to_ascii_lowercase()),
                    _ => None,
                }
            })
            .collect();
        if let Some(named) = named
            && named.iter().all(|c| letters.contains(c))
            && named != letters
        {
            let order: String = names.iter().map(|n| n.to_ascii_lowercase()).collect();
            return Err(refuse(format!(
                ": the file stores the axes in the order `{order}`; ask for a space in that layout (`layout!(b{order})`) and format it"
            )));
        }
    }
    Ok(())
}

/// Appends the values of one record batch's column, converted, to `out`; an error carries the
/// row in the batch.
fn batch_values<S: Space>(
    array: &ArrayRef,
    layout: &Layout,
    per: usize,
    dims: &[usize],
    out: &mut Vec<S::Elem>,
) -> Result<(), (usize, LoadReason)> {
    if let Some(row) = (0..array.len()).find(|&i| array.is_null(i)) {
        return Err((row, LoadReason::Null));
    }
    if let Layout::Encoded { field } = layout {
        return encoded_values::<S>(array, *field, dims, out);
    }
    let (values, start, count, element) = match layout {
        Layout::Scalar(t) => (array.clone(), 0, array.len(), t),
        Layout::List(t) => {
            let (child, offsets) = list_offsets(array);
            if let Some(row) = offsets.windows(2).position(|w| w[1] - w[0] != per) {
                return Err((
                    row,
                    LoadReason::RowLength {
                        found: offsets[row + 1] - offsets[row],
                        expected: per,
                        space: S::describe(),
                    },
                ));
            }
            let start = offsets.first().copied().unwrap_or(0);
            let end = offsets.last().copied().unwrap_or(0);
            (child, start, end - start, t)
        }
        Layout::Encoded { .. } => unreachable!("encoded images are decoded above"),
        Layout::Nested { leaf } => {
            let (values, offsets, shape) = flatten_nested(array, S::describe)?;
            if !array.is_empty() && !sample_fits(&shape, dims) {
                return Err((
                    0,
                    LoadReason::Tensor(Box::new(TensorMismatch {
                        shape: Shape(shape),
                        names: None,
                        space: S::describe(),
                        hint: " (nested lists are read in row-major order; the space's sizes must be theirs, in its memory order)".into(),
                    })),
                ));
            }
            let start = offsets.first().copied().unwrap_or(0);
            let end = offsets.last().copied().unwrap_or(0);
            (values, start, end - start, leaf)
        }
    };
    let part = values.slice(start, count);
    if part.null_count() > 0
        && let Some(i) = (0..part.len()).find(|&i| part.is_null(i))
    {
        return Err((i / per.max(1), LoadReason::Null));
    }
    macro_rules! convert {
        ($($dt:ident => $ty:ident),*) => {
            match element {
                $(DataType::$dt => convert_part::<S, $ty>(&part, per, out),)*
                _ => unreachable!("the column's type was checked when the file opened"),
            }
        };
    }
    convert!(
        Int8 => Int8Type, Int16 => Int16Type, Int32 => Int32Type, Int64 => Int64Type,
        UInt8 => UInt8Type, UInt16 => UInt16Type, UInt32 => UInt32Type, UInt64 => UInt64Type,
        Float32 => Float32Type, Float64 => Float64Type
    )
}

/// Decodes the images of a struct column's `bytes` child (Hugging Face's `Image`) and appends
/// their pixels to `out`; an error carries the row.
#[cfg(feature = "parquet-image")]
fn encoded_values<S: Space>(
    array: &ArrayRef,
    field: usize,
    dims: &[usize],
    out: &mut Vec<S::Elem>,
) -> Result<(), (usize, LoadReason)> {
    fn each<O: OffsetSizeTrait>(
        bytes: &ArrayRef,
        mut visit: impl FnMut(usize, &[u8]) -> Result<(), (usize, LoadReason)>,
    ) -> Result<(), (usize, LoadReason)> {
        let binary = bytes.as_binary::<O>();
        (0..binary.len()).try_for_each(|row| visit(row, binary.value(row)))
    }
    let bytes = array.as_struct().column(field);
    if let Some(row) = (0..bytes.len()).find(|&i| bytes.is_null(i)) {
        return Err((
            row,
            LoadReason::Decode {
                message: "the image has no bytes (a path alone, to a file this reader does not open): save the dataset with its images embedded".into(),
            },
        ));
    }
    out.reserve(array.len().saturating_mul(dims.iter().product()));
    let decode = |row: usize, data: &[u8]| {
        crate::load::parquet_image::decode_into::<S>(data, dims, out).map_err(|r| (row, r))
    };
    match bytes.data_type() {
        DataType::LargeBinary => each::<i64>(bytes, decode),
        _ => each::<i32>(bytes, decode),
    }
}

#[cfg(not(feature = "parquet-image"))]
fn encoded_values<S: Space>(
    _: &ArrayRef,
    _: usize,
    _: &[usize],
    _: &mut Vec<S::Elem>,
) -> Result<(), (usize, LoadReason)> {
    unreachable!("encoded image columns are refused when the file opens without `parquet-image`")
}

/// The leaf values of a column of nested lists, each row's range of them, and a row's shape.
type Flattened = (ArrayRef, Vec<usize>, Vec<usize>);

/// For a column of (nested) lists of numbers: the leaf values, the range of each row's leaf
/// values (`len + 1` offsets), and the shape of a row (its length at each level), after checking
/// that every row has that shape and no level holds a null. An error carries the row.
fn flatten_nested(
    array: &ArrayRef,
    space: fn() -> String,
) -> Result<Flattened, (usize, LoadReason)> {
    if numeric(array.data_type()) {
        return Ok((array.clone(), (0..=array.len()).collect(), Vec::new()));
    }
    if let Some(row) = (0..array.len()).find(|&i| array.is_null(i)) {
        return Err((row, LoadReason::Null));
    }
    let (child, offsets) = list_offsets(array);
    // Every row of this level has the length of the first.
    let first_len = offsets.windows(2).next().map_or(0, |w| w[1] - w[0]);
    if let Some(row) = offsets.windows(2).position(|w| w[1] - w[0] != first_len) {
        return Err((
            row,
            LoadReason::RowLength {
                found: offsets[row + 1] - offsets[row],
                expected: first_len,
                space: space(),
            },
        ));
    }
    let (leaf, inner, inner_shape) = flatten_nested(&child, space).map_err(|(j, reason)| {
        // The row of this level that holds element `j` of the level below.
        let row = offsets.partition_point(|&o| o <= j).saturating_sub(1);
        (row, reason)
    })?;
    let leaf_offsets = offsets
        .iter()
        .map(|&o| inner.get(o).copied().unwrap_or(0))
        .collect();
    let mut shape = vec![first_len];
    shape.extend(inner_shape);
    Ok((leaf, leaf_offsets, shape))
}

/// The values of a list column (fixed-size, 32- or 64-bit offsets) and the range of each row's
/// values in them (`len + 1` offsets).
fn list_offsets(array: &ArrayRef) -> (ArrayRef, Vec<usize>) {
    fn offsets<O: OffsetSizeTrait>(array: &ArrayRef) -> (ArrayRef, Vec<usize>) {
        let list = array.as_list::<O>();
        let o = list.value_offsets().iter().map(|o| o.as_usize()).collect();
        (list.values().clone(), o)
    }
    match array.data_type() {
        DataType::FixedSizeList(_, n) => {
            let list = array.as_fixed_size_list();
            let n = usize::try_from(*n).unwrap_or(0);
            let first = if list.is_empty() {
                0
            } else {
                list.value_offset_at(0)
            };
            (
                list.values().clone(),
                (0..=list.len()).map(|r| first + r * n).collect(),
            )
        }
        DataType::List(_) => offsets::<i32>(array),
        DataType::LargeList(_) => offsets::<i64>(array),
        _ => unreachable!("the column's type was checked when the file opened"),
    }
}

/// The first value of `values` that `policy` refuses (NaN or an infinity under
/// [`NonFinite::Refuse`]), with its index. Values converted from a column are non-finite exactly
/// when the column's are: a finite value that the element type cannot hold is refused by the
/// conversion itself.
fn first_refused<E: Element>(values: &[E], policy: NonFinite) -> Option<(usize, LoadReason)> {
    if policy == NonFinite::Keep || !E::FLOAT {
        return None;
    }
    let i = values.iter().position(|v| !v.to_f64().is_finite())?;
    policy
        .check(values[i].to_f64())
        .err()
        .map(|reason| (i, reason))
}

/// Appends the values of `part` (a slice of a primitive array), converted, to `out`: straight
/// from Arrow's buffer, with no vector in between.
fn convert_part<S: Space, A: ArrowPrimitiveType>(
    part: &ArrayRef,
    per: usize,
    out: &mut Vec<S::Elem>,
) -> Result<(), (usize, LoadReason)>
where
    A::Native: Scalar,
{
    match convert_append::<S, A::Native>(part.as_primitive::<A>().values(), out) {
        Ok(Ok(())) => Ok(()),
        Ok(Err((i, reason))) => Err((i / per.max(1), reason)),
        Err(reason) => Err((0, reason)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_the_decoder_is_an_error_of_the_file() {
        let caught = guarded::<()>(|| panic!("Decoder for dict should have been set"));
        let (place, reason) = caught.unwrap_err();
        assert_eq!(place, Place::File);
        assert!(
            reason
                .to_string()
                .contains("corrupt data (Decoder for dict should have been set)"),
            "{reason}"
        );
        assert_eq!(guarded(|| Ok(3)), Ok(3));
    }
}
