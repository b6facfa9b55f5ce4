//! The Parquet reader: [`ParquetFiles`], one file or a directory of part files as Spark writes
//! them, read into a record spec one column per source, whole or by the row groups selected.

use crate::data::dataset::LeafSource;
use crate::data::dataset::SpareBuffers;
use crate::load::convert::{batch_from_samples, sample_dims};
use crate::load::error::{LoadError, LoadReason, Place};
use crate::load::parquet::columns::{ColumnOptions, Steps, read_column};
use crate::load::parquet::decode::{Budget, Fail, check_chunks, decode_error, guarded};
use crate::load::parquet::footer::check_footer;
use crate::load::parquet::listing::{ParquetOpenOptions, Skipped};
use crate::load::parquet::part::{Origin, PagePool, Part};
use crate::load::parquet::ragged::read_ragged_column;
use crate::load::parquet::row_group::RowGroup;
use crate::load::{NonFinite, load_error, set_path};
use crate::types::batch::Batch;
use crate::types::ragged::{Ragged, SequenceSpace};
use crate::types::space::Space;
use crate::types::spec::Described;
use bytes::Bytes;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ParquetRecordBatchReaderBuilder};
use std::collections::HashMap;
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
/// Copies of the files (and the streams made from them) share what is kept between reads: each
/// file's decoded footer, the memory pages are read into, and the memory of the windows of the
/// streams dropped, which the next streams read into ([`ParquetFiles::release_kept_memory`]).
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
    pub(super) path: PathBuf,
    pub(super) files: Vec<PathBuf>,
    // Where each file is: on local disk, or an object of a store (feature `remote`).
    pub(super) origins: Arc<[Origin]>,
    // The byte ranges of remote files fetched for the load at hand (`LeafSource::prepare`), by
    // file, and how many of its leaves are still to be read (the ranges are let go after the
    // last).
    pub(super) held: HashMap<usize, Arc<[(u64, Bytes)]>>,
    pub(super) pending: usize,
    columns: Vec<(String, PathBuf)>,
    // The row groups to read, in this order (all of them when `None`).
    selection: Option<Vec<RowGroup>>,
    // Memory to read leaves into, given back by a stream as it finishes with a window.
    spare: Option<Arc<Mutex<SpareBuffers>>>,
    // The memory of the windows of streams dropped, which the next streams made from these
    // files (or their copies) read into (shared by the copies; lingering for other files' streams
    // once the last copy is dropped).
    kept: Arc<Kept>,
    // Memory that local files' pages are read into (shared by the copies).
    pages: Arc<PagePool>,
    // Each file's footer, decoded once and shared by the copies (a stream reads every column of
    // every window through one).
    pub(super) footers: Arc<[OnceLock<ArrowReaderMetadata>]>,
    non_finite: NonFinite,
    // Steps that bring encoded images of any size to their fields' (features `parquet-image`
    // and `images`).
    steps: Option<Arc<Steps>>,
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
        #[cfg(feature = "remote")]
        if let (Some(_), Some(url)) = (
            crate::load::parquet::listing::url_scheme(&path),
            path.to_str(),
        ) {
            return crate::load::remote::RemoteOptions::new().open(url);
        }
        let (files, skipped) = self.list(&path)?;
        let origins = files.iter().cloned().map(Origin::Local).collect();
        Ok(ParquetFiles::listed(path, files, origins, skipped))
    }
}

/// The memory the streams of files (and their copies) passed on, left lingering for the streams
/// of the process when the last copy is dropped ([`SpareBuffers::linger`]).
#[derive(Debug)]
struct Kept(Mutex<SpareBuffers>);

impl Drop for Kept {
    fn drop(&mut self) {
        if let Ok(kept) = self.0.get_mut() {
            kept.linger();
        }
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
    pub(super) fn listed(
        path: PathBuf,
        files: Vec<PathBuf>,
        origins: Arc<[Origin]>,
        skipped: Vec<Skipped>,
    ) -> Self {
        ParquetFiles {
            path,
            origins,
            held: HashMap::new(),
            pending: 0,
            columns: Vec::new(),
            selection: None,
            spare: None,
            kept: Arc::new(Kept(Mutex::new(SpareBuffers::new(0)))),
            pages: PagePool::new(),
            footers: files.iter().map(|_| OnceLock::new()).collect(),
            files,
            non_finite: NonFinite::Keep,
            steps: None,
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
    /// its share of the file is rare; raise the budget for one). A selection's leaf is reserved
    /// once for all its row groups when their rows fit the budget of the first one's read, else
    /// a row group at a time.
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

    /// Brings the encoded images of image columns (Hugging Face's `Image`) of any size to their
    /// fields' by `steps` (resized, cropped, normalized, into any image layout and element
    /// type), instead of refusing an image of another size than the field's. The columns are
    /// read once, so the steps must draw nothing: [`ImageSteps::eval`] makes such steps of any.
    ///
    /// # Errors
    /// [`LoadError::File`] for steps that draw at random (a random crop, flip or jitter).
    ///
    /// [`ImageSteps::eval`]: crate::load::images::ImageSteps::eval
    #[cfg(all(feature = "parquet-image", feature = "images"))]
    pub fn image_steps(
        mut self,
        steps: crate::load::images::ImageSteps,
    ) -> Result<Self, LoadError> {
        if steps.draws() {
            return Err(LoadError::File {
                file: self.path.clone(),
                place: Place::File,
                source_name: "",
                reason: Box::new(LoadReason::Decode {
                    message: "the image steps draw at random, and a Parquet column is read once: use `steps.eval(..)` (the same steps without random choices), or stream the images with an `ImageStream`".into(),
                }),
            });
        }
        self.steps = Some(Arc::new(steps));
        Ok(self)
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

    /// Whether a file is read from a store (its reads wait on the network more than they use a
    /// core).
    pub(super) fn any_remote(&self) -> bool {
        self.origins.iter().any(|o| !matches!(o, Origin::Local(_)))
    }

    /// Every row group of every file, in file order (only the files' footers are read).
    ///
    /// # Errors
    /// A [`LoadError::File`] for a file that cannot be opened or whose footer is not Parquet.
    pub fn row_groups(&self) -> Result<Vec<RowGroup>, LoadError> {
        #[cfg(feature = "remote")]
        self.warm_footers();
        let mut out = Vec::new();
        for (file, path) in self.files.iter().enumerate() {
            let fail = |reason| LoadError::File {
                file: path.clone(),
                place: Place::File,
                source_name: "",
                reason: Box::new(reason),
            };
            let (builder, _) = self.builder(file).map_err(fail)?;
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

    /// Keeps the vectors of `spare` (a stream's, as it is dropped) for the streams made from
    /// these files after it.
    pub(crate) fn keep_windows(&self, spare: &mut SpareBuffers) {
        if let Ok(mut kept) = self.kept.0.lock() {
            spare.pass_to(&mut kept);
        }
    }

    /// Frees the memory these files (and their copies) keep from the streams made from them
    /// that were dropped, and gives its size in bytes.
    ///
    /// A [`ParquetStream`](crate::load::ParquetStream) dropped passes the memory of its windows
    /// (at most the windows it read ahead, plus one) to the files it was made from, and the next
    /// stream made from them reads its first windows into it, instead of asking the system for
    /// new memory: a training loop that makes a stream for each epoch then reads as one that
    /// keeps its stream does. That memory is freed here, or with the last copy of the files
    /// after lingering a second for the streams of other files
    /// ([`release_lingering_memory`](Self::release_lingering_memory)).
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::load::{ParquetFiles, ParquetStream, Rank, ShardPlan};
    ///
    /// #[derive(DataSpec)]
    /// struct Ids {
    ///     #[spec(source = "id")]
    ///     id: Batch<Index<100>>,
    /// }
    ///
    /// let files = ParquetFiles::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/parquet/uneven.parquet"))?;
    /// let plan = ShardPlan::new(&files, Rank::new(0, 1)?)?;
    /// for epoch in 0..2 {
    ///     let mut stream = ParquetStream::<Ids>::new(&files, &plan, epoch, 4, 1).read_ahead();
    ///     while let Some(batch) = stream.next_batch() {
    ///         batch?;
    ///     }
    /// }
    /// assert!(files.release_kept_memory() > 0);
    /// assert_eq!(files.release_kept_memory(), 0);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    pub fn release_kept_memory(&self) -> usize {
        self.kept.0.lock().map_or(0, |mut kept| kept.release())
    }

    /// Frees the memory that files dropped left lingering for the streams of the process, and
    /// gives its size in bytes.
    ///
    /// The last copy of files dropped does not free the memory its streams passed on at once: it
    /// lingers for a second (`BATCHSPEC_LINGER_MS` sets another time; 0 frees it at once), and a
    /// stream of any files made in that time reads its first windows into it, so that a loop
    /// that opens its files afresh for each epoch reads as one that opens them once does. A
    /// thread frees it when the time is up, or this does now.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::load::{ParquetFiles, ParquetStream, Rank, ShardPlan};
    ///
    /// #[derive(DataSpec)]
    /// struct Ids {
    ///     #[spec(source = "id")]
    ///     id: Batch<Index<100>>,
    /// }
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/parquet/uneven.parquet");
    /// for epoch in 0..2 {
    ///     let files = ParquetFiles::open(path)?;
    ///     let plan = ShardPlan::new(&files, Rank::new(0, 1)?)?;
    ///     let mut stream = ParquetStream::<Ids>::new(&files, &plan, epoch, 4, 1);
    ///     while let Some(batch) = stream.next_batch() {
    ///         batch?;
    ///     }
    /// }
    /// // The second epoch's files read into the first's memory, and left it lingering in turn.
    /// assert!(ParquetFiles::release_lingering_memory() > 0);
    /// assert_eq!(ParquetFiles::release_lingering_memory(), 0);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    pub fn release_lingering_memory() -> usize {
        SpareBuffers::release_lingering()
    }

    /// The bytes of memory that files dropped left lingering for the streams of the process
    /// ([`release_lingering_memory`](Self::release_lingering_memory)).
    pub fn lingering_memory() -> usize {
        SpareBuffers::lingering()
    }

    /// A reader of file `f` (opened afresh, holding the ranges fetched for the load at hand)
    /// with its footer, decoded the first time only.
    pub(super) fn builder(
        &self,
        f: usize,
    ) -> Result<(ParquetRecordBatchReaderBuilder<Part>, Part), LoadReason> {
        #[allow(unused_mut)]
        let mut handle = self.origins[f].open(&self.pages)?;
        #[cfg(feature = "remote")]
        if let Some(held) = self.held.get(&f) {
            handle = handle.holding(Arc::clone(held));
        }
        let footer = match self.footers[f].get() {
            Some(footer) => footer.clone(),
            None => {
                let len = handle.size()?;
                // A remote footer is read by one request for the file's last 64 KiB (its
                // length is known from the listing), not by two small ones.
                #[cfg(feature = "remote")]
                if let Part::Remote { object, .. } = &handle {
                    let start = len.saturating_sub(64 << 10);
                    let tail = object.fetch_one(start..len)?;
                    handle = handle.holding(Arc::new([(start, tail)]));
                }
                // The footer's claims checked before the `parquet` crate reserves for them.
                check_footer(&handle, len)?;
                let footer = guarded(|| {
                    ArrowReaderMetadata::load(&handle, Default::default())
                        .map_err(|e| (Place::File, decode_error(e)))
                })
                .map_err(|(_, reason)| reason)?;
                check_chunks(&footer, len)?;
                self.footers[f].get_or_init(|| footer).clone()
            }
        };
        Ok((
            ParquetRecordBatchReaderBuilder::new_with_metadata(handle.clone(), footer),
            handle,
        ))
    }

    pub(super) fn column_of(&self, source: &str) -> String {
        self.columns.iter().find(|(s, _)| s == source).map_or_else(
            || source.to_owned(),
            |(_, c)| c.to_string_lossy().into_owned(),
        )
    }
}

impl LeafSource for ParquetFiles {
    type Error = LoadError;

    /// Fetches the column chunks every leaf will read from the remote files, each file's by one
    /// batch of requests in flight together (see `RemoteOptions::in_flight`); nothing for local
    /// files.
    fn prepare(&mut self, leaves: &[Described]) -> Result<(), LoadError> {
        self.held.clear();
        self.pending = 0;
        #[cfg(feature = "remote")]
        self.fetch_load(leaves)?;
        #[cfg(not(feature = "remote"))]
        let _ = leaves;
        Ok(())
    }

    fn read_ragged<S: SequenceSpace>(&mut self, leaf: &Described) -> Result<Ragged<S>, LoadError> {
        self.read_ragged_leaf::<S>(leaf)
    }

    fn read_leaf<S: Space>(&mut self, leaf: &Described) -> Result<Batch<S>, LoadError> {
        let column = self.column_of(leaf.source);
        let dims = sample_dims::<S>().map_err(|r| load_error(&self.path, Place::File, leaf, r))?;
        // A stream's read: its spare memory, else the memory a stream dropped before passed
        // on, else what files dropped left lingering.
        let mut values: Vec<S::Elem> = self
            .spare
            .as_ref()
            .and_then(|spare| {
                let own = spare.lock().ok().and_then(|mut spare| spare.take());
                own.or_else(|| self.kept.0.lock().ok()?.take())
                    .or_else(SpareBuffers::take_lingering)
            })
            .unwrap_or_default();
        let mut rows = 0usize;
        let non_finite = self.non_finite;
        let steps = self.steps.clone();
        // The rows each read is followed by (selected row groups: their footers' counts).
        let mut after: Vec<usize> = self
            .reads()
            .iter()
            .rev()
            .scan(0usize, |sum, (_, g)| {
                let rest = *sum;
                *sum = sum.saturating_add(g.map_or(0, |g| g.rows));
                Some(rest)
            })
            .collect();
        self.each_read(leaf, |builder, group, budget| {
            let rows_after = after.pop().unwrap_or(0);
            rows += read_column::<S>(
                builder,
                &column,
                &dims,
                group,
                budget,
                &mut values,
                ColumnOptions {
                    non_finite,
                    steps: steps.as_deref(),
                    rows_after,
                },
            )?;
            Ok(())
        })?;
        batch_from_samples::<S>(rows, values)
            .map_err(|r| load_error(&self.path, Place::File, leaf, r))
    }
}

impl ParquetFiles {
    /// The reads of a load: each file whole, or the selected row groups in the order given.
    pub(super) fn reads(&self) -> Vec<(usize, Option<RowGroup>)> {
        match &self.selection {
            None => (0..self.files.len()).map(|f| (f, None)).collect(),
            Some(groups) => groups.iter().map(|g| (g.file, Some(*g))).collect(),
        }
    }

    /// Runs `read` on each file whole, or on the selected row groups one by one (in the order
    /// given), through the decoder's panic guard; an error names the file read and `leaf`.
    fn each_read(
        &mut self,
        leaf: &Described,
        mut read: impl FnMut(
            ParquetRecordBatchReaderBuilder<Part>,
            Option<RowGroup>,
            &Budget,
        ) -> Result<(), Fail>,
    ) -> Result<(), LoadError> {
        for (f, group) in self.reads() {
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
            let (builder, part) = self
                .builder(f)
                .map_err(|r| load_error(file, Place::File, leaf, r))?;
            let len = part
                .size()
                .map_err(|e| load_error(file, Place::File, leaf, e.into()))?;
            let budget = Budget {
                part,
                bytes: self.budget_of(len),
            };
            guarded(|| read(builder, group, &budget))
                .map_err(|(place, reason)| load_error(file, place, leaf, reason))?;
        }
        // The ranges fetched for the load are let go with its last leaf.
        self.pending = self.pending.saturating_sub(1);
        if self.pending == 0 {
            self.held.clear();
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
