//! File loaders: CSV, MNIST IDX and `.npy` / `.npz` (and Parquet with the feature `parquet`),
//! each a [`LeafSource`] that [`Dataset::load`](crate::data::Dataset::load) reads a record spec
//! from, checking the file against the spec as it reads. The loading traits ([`LeafSource`],
//! [`LoadRecord`], [`LoadField`]) and `Dataset::load` sit here, beside the loaders: the `data`
//! part holds datasets and knows nothing of files.
//!
//! A loader is asked for one leaf at a time, by the leaf's source (`"features"`, `"targets"`)
//! and space. It finds the data of that source in its file(s), checks its shape against the
//! space, converts every value to the space's element type **exactly** (`16` into a `u8` is
//! fine; `3.5`, `300` or `-1` into a `u8` are errors, never truncated or wrapped), checks that
//! the labels of an index space are in `0..max_labels`, and lays the samples out in the space's
//! memory order. Leaves of the same source read the same data, each in its own space (an
//! `image![8, 8, 1]` and a `Vector<64>` can both come from the 64 feature columns of a CSV file).
//!
//! | loader | sources | shape rule |
//! | --- | --- | --- |
//! | [`CsvFile`] | one label column (or every column of a second file, or zeros) for the label source (default `"targets"`), every other column in order for the feature source (default `"features"`) | the number of columns is the values per sample of the space, reshaped in its memory order |
//! | [`IdxFiles`] | one IDX file per source ([`IdxFiles::mnist`]: images for `"features"`, labels for `"targets"`) | the first axis holds the samples; the rest must fit the space (see below) |
//! | [`NpyFiles`] | one `.npy` file per source | the array's shape in the space's memory order, or samples first and fitting the space |
//! | [`NpzFile`] | one member per source, named after the source unless mapped | as for `.npy` |
//!
//! Samples of a file *fit* a space when their sizes are the space's once axes of size 1 are
//! dropped (an IDX file of shape `[n, 28, 28]` fills an `image![28, 28, 1]`), or when either side
//! is flat and the totals agree (it also fills a `Vector<784>`, and a `[n, 784]` file fills the
//! image, read in the image's memory order). Axes are never reordered: a `[n, 28, 28, 3]` file
//! does not fill a `bchw` image of 3×28×28.
//!
//! Every problem is a [`LoadError::File`] naming the file, the [`Place`] in it
//! (line and column, byte offset, archive member) and the source, with a [`LoadReason`]:
//!
//! ```text
//! digits.csv line 12, column 65 (source `targets`): label 10 is not in 0..10
//! ```
//!
//! A source the loader has nothing for is an [`LoadError::NoSource`].
//! Loaders never panic on the content of a file.
#![doc = include_str!("../../doc/load.md")]
#![doc = include_str!("../../doc/parquet.md")]
#![doc = include_str!("../../doc/files-from-strangers.md")]
#![doc = include_str!("../../doc/remote.md")]

mod convert;
mod csv;
pub(crate) mod error;
mod idx;
#[cfg(feature = "images")]
pub mod images;
mod npy;
#[cfg(feature = "parquet")]
mod parquet;
#[cfg(any(feature = "parquet", feature = "images"))]
mod read_at;
#[cfg(feature = "remote")]
mod remote;

pub use self::csv::{Column, CsvFile};
pub use self::error::{LoadError, LoadReason, Place, TensorMismatch};
pub use self::idx::IdxFiles;
pub use self::npy::{NpyFiles, NpzFile};
/// Thrift's compact protocol as Parquet footers and page headers use it: the reader's checks,
/// and a writer for tests and the fuzzer to re-encode a footer with a chosen value.
#[cfg(feature = "parquet")]
#[doc(hidden)]
pub use self::parquet::thrift as parquet_thrift;
#[cfg(feature = "parquet")]
pub use self::parquet::{
    LocalRank, ParquetFiles, ParquetOpenOptions, ParquetStream, Rank, RowGroup, ShardPlan,
    SkipReason, Skipped, Tail, TextNulls, Texts,
};
#[cfg(feature = "remote")]
pub use self::remote::{RemoteOptions, RemoteStats};
pub use crate::data::dataset::{
    BorrowedBatch, LeafSource, LoadField, LoadRecord, LoadableBatch, SharedBatch,
};

use crate::types::spec::Described;
use std::path::{Path, PathBuf};

/// What a loader does with NaN and infinities in float data: keeps them (the default: they
/// are values of the float types, and some datasets mark missing values with NaN) or refuses
/// the file at the first one, naming its place (line and column, byte offset, or row).
///
/// Every loader takes it (`CsvFile::non_finite`, `IdxFiles::non_finite`,
/// `NpyFiles::non_finite`, `NpzFile::non_finite`, and `ParquetFiles::non_finite` with the
/// `parquet` feature). Finite numbers that a float type cannot hold (`1e309` into `f64`) are
/// refused whatever the policy: they would become infinite without being written so.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NonFinite {
    /// NaN and infinities are loaded as they are.
    #[default]
    Keep,
    /// The first NaN or infinity is an error ([`LoadReason::NonFinite`]) at its place.
    Refuse,
}

impl NonFinite {
    /// The error for `value` when it is not finite and the policy refuses it.
    pub(crate) fn check(self, value: f64) -> Result<(), LoadReason> {
        if self == NonFinite::Refuse && !value.is_finite() {
            let value = if value.is_nan() {
                "NaN".to_owned()
            } else if value > 0.0 {
                "inf".to_owned()
            } else {
                "-inf".to_owned()
            };
            return Err(LoadReason::NonFinite { value });
        }
        Ok(())
    }

    /// The first value of `values` that the policy refuses (NaN or an infinity under
    /// [`NonFinite::Refuse`]), with its index. Values converted from a column are non-finite
    /// exactly when the column's are: a finite value that the element type cannot hold is refused
    /// by the conversion itself.
    #[cfg(feature = "parquet")]
    pub(crate) fn first_refused<E: crate::types::elem::Element>(
        self,
        values: &[E],
    ) -> Option<(usize, LoadReason)> {
        if self == NonFinite::Keep || !E::FLOAT {
            return None;
        }
        let i = values.iter().position(|v| !v.to_f64().is_finite())?;
        self.check(values[i].to_f64())
            .err()
            .map(|reason| (i, reason))
    }
}

/// An [`LoadError::File`] about `file` at `place`, for the leaf `leaf`.
pub(crate) fn load_error(
    file: &Path,
    place: Place,
    leaf: &Described,
    reason: LoadReason,
) -> LoadError {
    LoadError::File {
        file: file.to_path_buf(),
        place,
        source_name: leaf.source,
        reason: Box::new(reason),
    }
}

/// The path a list of `(source, path)` gives for the source of `leaf`, or an
/// [`LoadError::NoSource`] naming the loader and the sources it has.
pub(crate) fn path_for<'a>(
    files: &'a [(String, PathBuf)],
    leaf: &Described,
    loader: &str,
) -> Result<&'a Path, LoadError> {
    files
        .iter()
        .find(|(s, _)| s == leaf.source)
        .map(|(_, p)| p.as_path())
        .ok_or_else(|| LoadError::NoSource {
            loader: loader.to_owned(),
            source_name: leaf.source,
            field: leaf.field.clone(),
            serves: files.iter().map(|(s, _)| s.clone()).collect(),
        })
}

/// Sets the path of `source` in a list of `(source, path)`, replacing an earlier one.
pub(crate) fn set_path(files: &mut Vec<(String, PathBuf)>, source: String, path: PathBuf) {
    match files.iter_mut().find(|(s, _)| *s == source) {
        Some(slot) => slot.1 = path,
        None => files.push((source, path)),
    }
}

/// The first bytes of a file in hexadecimal, for a wrong magic.
pub(crate) fn hex(bytes: &[u8]) -> String {
    let shown: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
    if shown.is_empty() {
        "(none)".to_owned()
    } else {
        shown.join(" ")
    }
}
