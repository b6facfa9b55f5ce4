//! The Parquet reader: [`ParquetFiles`], one file or a directory of part files as Spark writes
//! them, read into a record spec one column per source, whole or by the row groups selected.

use crate::data::dataset::SpareBuffers;
use crate::load::convert::{batch_from_samples, sample_dims};
use crate::load::error::{LoadError, LoadReason, Place};
use crate::load::parquet::columns::read_column;
use crate::load::parquet::decode::{
    Budget, Fail, check_chunks, decode_error, guarded, open_regular,
};
use crate::load::parquet::footer::check_footer;
use crate::load::parquet::listing::{ParquetOpenOptions, Skipped};
use crate::load::parquet::ragged::read_ragged_column;
use crate::load::parquet::row_group::RowGroup;
use crate::load::source::LeafSource;
use crate::load::{NonFinite, load_error, set_path};
use crate::types::batch::Batch;
use crate::types::ragged::{Ragged, SequenceSpace};
use crate::types::space::Space;
use crate::types::spec::Described;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ParquetRecordBatchReaderBuilder};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Parquet data as a [`LeafSource`]: one file, or a directory of part files as Spark, Ray and
/// Dask write them (`part-*.parquet`, read in the order of their names). Each source is the
/// column of its name unless [`ParquetFiles::column`] names another.
///
/// A directory comes from strangers, so its listing has rules, and nothing is left out without
/// a word ([`ParquetFiles::skipped`] lists what is not read, and why):
///
/// - read: the entries whose names end in `.parquet` that are regular files, or links to
///   regular files inside the directory;
/// - skipped: names starting with `_` or `.` (`_SUCCESS`, `_temporary/`, `.crc` checksums,
///   hidden files), other names (not opened), and folders;
/// - refused, naming the entry: a link that leads out of the directory, with where it leads
///   (unless [`ParquetOpenOptions::follow_links`](crate::load::ParquetOpenOptions::follow_links)),
///   a link that leads nowhere, a Hive partition folder (`year=2020/`: its rows would lose the
///   partition column, which is not read), and a FIFO, a socket or a device, found by its type
///   before anything opens it (opening a FIFO blocks). The path given is refused so too when it
///   is not a regular file or a directory.
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
    // The most bytes a read of one file may take (`None`: the default of `memory_budget`).
    budget: Option<u64>,
    // What the directory held that is not read.
    skipped: Arc<[Skipped]>,
}

impl ParquetOpenOptions {
    /// The file at `path`, or the part files of the directory at `path`, as
    /// [`ParquetFiles::open`] lists them, with these options.
    ///
    /// # Errors
    /// As [`ParquetFiles::open`].
    pub fn open(&self, path: impl AsRef<Path>) -> Result<ParquetFiles, LoadError> {
        let path = path.as_ref().to_path_buf();
        let (files, skipped) = self.list(&path)?;
        Ok(ParquetFiles::listed(path, files, skipped))
    }
}

impl ParquetFiles {
    /// Options for opening Parquet files: [`ParquetOpenOptions::follow_links`].
    pub fn options() -> ParquetOpenOptions {
        ParquetOpenOptions::new()
    }
}

impl ParquetFiles {
    /// The file at `path`, or the part files of the directory at `path` (the rules of a
    /// directory are the type's; [`ParquetFiles::options`] sets whether its links may lead out
    /// of it).
    ///
    /// # Errors
    /// A [`LoadError::File`] naming the path or the directory's entry when the path cannot be
    /// read, the directory holds no Parquet file, a part file is a link that leads out of the
    /// directory ([`LoadReason::LinkLeaves`]) or nowhere ([`LoadReason::BrokenLink`]), the
    /// directory holds a Hive partition folder ([`LoadReason::Partitioned`]), or the path or a
    /// part file is a FIFO, a socket or a device ([`LoadReason::NotAFile`], found by its type
    /// before anything opens it).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, LoadError> {
        ParquetOpenOptions::new().open(path)
    }

    /// The files listed at `path`, with what the directory held that is not read.
    pub(super) fn listed(path: PathBuf, files: Vec<PathBuf>, skipped: Vec<Skipped>) -> Self {
        ParquetFiles {
            path,
            columns: Vec::new(),
            selection: None,
            spare: None,
            footers: files.iter().map(|_| OnceLock::new()).collect(),
            files,
            non_finite: NonFinite::Keep,
            budget: None,
            skipped: skipped.into(),
        }
    }

    /// What the directory held that is not read, each with why (hidden names such as `_SUCCESS`
    /// and `.crc` checksums, names that do not end in `.parquet`, folders), in name order:
    /// nothing is left out without a word. Empty for a file.
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// The most memory a read of one file (or of one row group, for a selection) may take, in
    /// bytes: its rows × the bytes of a sample, and every page the decoder decompresses, are
    /// checked against it before anything is allocated, so a file that claims more rows or
    /// larger pages than it holds is refused in words instead of exhausting memory. The default
    /// is 64 MiB plus 64 times the file's length (a column that decodes to more than 64 times
    /// its share of the file is rare; raise the budget for one).
    pub fn memory_budget(mut self, bytes: u64) -> Self {
        self.budget = Some(bytes);
        self
    }

    /// The budget of a read of file `f` of `len` bytes (see [`memory_budget`](Self::memory_budget)).
    pub(super) fn budget_of(&self, len: u64) -> u64 {
        self.budget
            .unwrap_or_else(|| (64u64 << 20).saturating_add(len.saturating_mul(64)))
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
        let mut handle = open_regular(path)?;
        let footer = match self.footers[f].get() {
            Some(footer) => footer.clone(),
            None => {
                // The footer's claims checked before the `parquet` crate reserves for them.
                let len = handle.metadata()?.len();
                check_footer(&mut handle, len)?;
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
        self.each_read(leaf, |builder, group, budget| {
            rows += read_column::<S>(
                builder,
                &column,
                &dims,
                group,
                budget,
                &mut values,
                non_finite,
            )?;
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
            &Budget,
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
            let len = std::fs::metadata(file)
                .map_err(|e| load_error(file, Place::File, leaf, e.into()))?
                .len();
            let budget = Budget {
                path: file.clone(),
                bytes: self.budget_of(len),
            };
            guarded(|| read(builder, group, &budget))
                .map_err(|(place, reason)| load_error(file, place, leaf, reason))?;
        }
        Ok(())
    }
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
        self.each_read(leaf, |builder, group, budget| {
            read_ragged_column::<S>(
                builder,
                &column,
                group,
                budget,
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
