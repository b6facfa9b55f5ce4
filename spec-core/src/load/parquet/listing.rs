//! The listing of a directory of part files: what is read, what is skipped (and reported), and
//! what is refused before anything is opened (links that leave the directory, Hive partition
//! folders, FIFOs, sockets and devices).

use crate::load::error::{LoadError, LoadReason, Place};
use std::fmt;
use std::fs::{FileType, Metadata};
use std::path::{Path, PathBuf};

/// How [`ParquetFiles`](crate::load::ParquetFiles) opens a path ([`ParquetFiles::options`](crate::load::ParquetFiles::options)): today, whether links in a
/// directory may lead out of it.
///
/// ```no_run
/// use batchspec::load::ParquetFiles;
///
/// // `train/` holds links to part files kept elsewhere.
/// let files = ParquetFiles::options().follow_links(true).open("train/")?;
/// # Ok::<(), batchspec::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParquetOpenOptions {
    follow_links: bool,
}

impl ParquetOpenOptions {
    /// The defaults of [`ParquetFiles::open`](crate::load::ParquetFiles::open): a directory's links are followed only when they
    /// lead to a place inside it.
    pub fn new() -> Self {
        Self::default()
    }

    /// Follows the links of a directory wherever they lead (by default a link that leads out of
    /// the directory is refused, naming the link and where it points: a directory from
    /// strangers must not make the reader read `/etc` or another user's files).
    pub fn follow_links(mut self, follow: bool) -> Self {
        self.follow_links = follow;
        self
    }

    /// The files to read at `path`, and what a directory holds that is not read.
    pub(super) fn list(&self, path: &Path) -> Result<(Vec<PathBuf>, Vec<Skipped>), LoadError> {
        if let Some(scheme) = url_scheme(path) {
            // Reached only without the feature `remote`: `open` reads URLs with it.
            return Err(refused(
                path,
                LoadReason::Remote {
                    range: None,
                    message: format!(
                        "reading `{scheme}://` URLs needs batchspec's cargo feature `remote` and the store's (`s3`, `gcs`, `azure` or `http`), which are off"
                    ),
                },
            ));
        }
        // The path given is followed if it is a link: the caller named it.
        let meta = std::fs::metadata(path).map_err(|e| refused(path, e.into()))?;
        if !meta.is_dir() {
            regular(path, &meta)?;
            return Ok((vec![path.to_path_buf()], Vec::new()));
        }
        let inside = std::fs::canonicalize(path).map_err(|e| refused(path, e.into()))?;
        let (mut files, mut skipped) = (Vec::new(), Vec::new());
        // In name order, so that the first entry refused is the same on every file system.
        let mut entries = std::fs::read_dir(path)
            .and_then(|dir| dir.collect::<Result<Vec<_>, _>>())
            .map_err(|e| refused(path, e.into()))?;
        entries.sort_by_key(|entry| entry.file_name());
        for entry in entries {
            let entry_path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if hidden(&name) {
                skipped.push(Skipped::new(entry_path, SkipReason::Hidden));
                continue;
            }
            let parquet = name.ends_with(".parquet");
            let partition = partition(&name);
            // The entry's own type (a link is not followed yet).
            let own = entry
                .file_type()
                .map_err(|e| refused(&entry_path, e.into()))?;
            let meta = if own.is_symlink() {
                if !parquet && partition.is_none() {
                    // Not read whatever it leads to: not followed.
                    skipped.push(Skipped::new(entry_path, SkipReason::NotParquet));
                    continue;
                }
                self.through_link(&entry_path, &inside)?
            } else {
                entry
                    .metadata()
                    .map_err(|e| refused(&entry_path, e.into()))?
            };
            if meta.is_dir() {
                if let Some(column) = partition {
                    return Err(refused(
                        &entry_path,
                        LoadReason::Partitioned {
                            column: column.to_owned(),
                        },
                    ));
                }
                skipped.push(Skipped::new(entry_path, SkipReason::Folder));
            } else if !parquet {
                skipped.push(Skipped::new(entry_path, SkipReason::NotParquet));
            } else {
                regular(&entry_path, &meta)?;
                files.push(entry_path);
            }
        }
        if files.is_empty() {
            return Err(refused(
                path,
                LoadReason::Parquet {
                    message: "the directory holds no `.parquet` file (part files as Spark writes them: `part-*.parquet`)".into(),
                },
            ));
        }
        Ok((files, skipped))
    }

    /// What the link at `link` leads to, when it may be followed: it leads inside `inside` (the
    /// directory, every link of its path resolved), or links are followed anywhere.
    fn through_link(&self, link: &Path, inside: &Path) -> Result<Metadata, LoadError> {
        let written = std::fs::read_link(link).map_err(|e| refused(link, e.into()))?;
        let broken = |e: std::io::Error| {
            refused(
                link,
                LoadReason::BrokenLink {
                    target: written.clone(),
                    message: e.to_string(),
                },
            )
        };
        // Resolving a path reads no file: a FIFO at the end is not opened.
        let target = std::fs::canonicalize(link).map_err(broken)?;
        if !self.follow_links && !target.starts_with(inside) {
            return Err(refused(link, LoadReason::LinkLeaves { target }));
        }
        std::fs::metadata(&target).map_err(broken)
    }
}

/// What a directory held that [`ParquetFiles`](crate::load::ParquetFiles) does not read ([`ParquetFiles::skipped`](crate::load::ParquetFiles::skipped)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The entry's path.
    pub path: PathBuf,
    /// Why it is not read.
    pub why: SkipReason,
}

impl Skipped {
    pub(super) fn new(path: PathBuf, why: SkipReason) -> Self {
        Skipped { path, why }
    }
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.why)
    }
}

/// Why an entry of a directory is not read.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SkipReason {
    /// Its name starts with `_` or `.`: Spark's `_SUCCESS` and `_temporary/`, checksums
    /// (`.part-0.parquet.crc`), `_metadata` summaries, hidden files. Not looked at further.
    Hidden,
    /// A file whose name does not end in `.parquet`, or a link so named (not followed). Not
    /// opened.
    NotParquet,
    /// A folder (not a Hive partition folder `key=value`, which is refused): folders are not
    /// read into the directory's rows.
    Folder,
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SkipReason::Hidden => {
                "its name starts with `_` or `.` (Spark's markers, checksums, hidden files)"
            }
            SkipReason::NotParquet => "its name does not end in `.parquet`",
            SkipReason::Folder => "a folder: only the directory's own part files are read",
        })
    }
}

/// A name a directory's listing skips without looking further: Spark's markers, checksums,
/// hidden files.
pub(super) fn hidden(name: &str) -> bool {
    name.starts_with('_') || name.starts_with('.')
}

/// The partition column a folder's name gives (`year=2020`: `year`), if it is a Hive
/// partition folder's.
pub(super) fn partition(name: &str) -> Option<&str> {
    name.split_once('=')
        .map(|(column, _)| column)
        .filter(|column| !column.is_empty())
}

/// The error refusing `path` for `reason`.
pub(super) fn refused(path: &Path, reason: LoadReason) -> LoadError {
    LoadError::File {
        file: path.to_path_buf(),
        place: Place::File,
        source_name: "",
        reason: Box::new(reason),
    }
}

/// Refuses what is not a regular file, by its type, before anything opens it.
fn regular(path: &Path, meta: &Metadata) -> Result<(), LoadError> {
    if meta.is_file() {
        return Ok(());
    }
    Err(refused(
        path,
        LoadReason::NotAFile {
            kind: kind(&meta.file_type()),
        },
    ))
}

#[cfg(unix)]
fn kind(t: &FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_fifo() {
        "FIFO (named pipe)"
    } else if t.is_socket() {
        "socket"
    } else if t.is_char_device() {
        "character device"
    } else if t.is_block_device() {
        "block device"
    } else {
        "special file"
    }
}

#[cfg(not(unix))]
fn kind(_: &FileType) -> &'static str {
    "special file"
}

/// The scheme of a path written as a URL (`s3://bucket/train/`: `s3`), if it is one.
pub(super) fn url_scheme(path: &Path) -> Option<&str> {
    let (scheme, _) = path.to_str()?.split_once("://")?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(scheme)
}
