//! MXNet's image lists (`.lst`): a line per image, `index\tlabel[\tlabel...]\tpath`, as
//! `im2rec.py --list` writes them and `ImageIter`/`ImageRecordIter` read them (`path_imglist`).

use crate::data::state::fingerprint;
use crate::load::error::{LoadError, Place};
use crate::load::images::{EncodedImages, Names, SourceKind, bad, error_at, read_file};
use std::path::{Path, PathBuf};

/// One line of a list: its index, labels and image path.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Entry {
    pub(crate) index: u64,
    pub(crate) labels: Vec<f64>,
    pub(crate) path: PathBuf,
}

/// Reads the list `lst`: every non-empty line `index\tlabel[\tlabel...]\tpath`, the labels
/// numbers (`im2rec.py` prints them as `%f`).
pub(crate) fn read_list(lst: &Path) -> Result<Vec<Entry>, LoadError> {
    let text = std::fs::read_to_string(lst)
        .map_err(|e| error_at((lst.to_path_buf(), Place::File), "", e.into()))?;
    let mut entries = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fail = |message: String| {
            error_at(
                (
                    lst.to_path_buf(),
                    Place::Line {
                        line: n as u64 + 1,
                        column: None,
                    },
                ),
                "",
                bad(message),
            )
        };
        let fields: Vec<&str> = line.split('\t').collect();
        let [index, labels @ .., path] = fields.as_slice() else {
            return Err(fail(format!("`{line}` is not `index<TAB>label<TAB>path`")));
        };
        if labels.is_empty() {
            return Err(fail(format!(
                "`{line}` has no label between its index and its path"
            )));
        }
        let index = index
            .trim()
            .parse::<u64>()
            .map_err(|_| fail(format!("the index `{index}` is not an unsigned integer")))?;
        let labels = labels
            .iter()
            .map(|l| {
                l.trim()
                    .parse::<f64>()
                    .map_err(|_| fail(format!("the label `{l}` is not a number")))
            })
            .collect::<Result<Vec<f64>, _>>()?;
        entries.push(Entry {
            index,
            labels,
            path: PathBuf::from(path),
        });
    }
    Ok(entries)
}

/// Images listed in an MXNet image list (`.lst`) and read from files under a root folder, as
/// MXNet's `ImageIter` reads them (`path_imglist` and `path_root`): the samples in the list's
/// order, each with its label or labels (a vector field takes several).
///
/// Sources: `"image"` and `"label"`, other names with [`source_names`](Self::source_names).
///
/// ```
/// use batchspec::load::images::{EncodedImages, ImageList};
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/images");
/// let list = ImageList::open(format!("{dir}/rec/folder.lst"), format!("{dir}/folder"))?;
/// assert_eq!(list.len(), 15);
/// # Ok::<(), batchspec::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ImageList {
    root: PathBuf,
    entries: Vec<Entry>,
    names: Names,
    fingerprint: u64,
}

impl ImageList {
    /// Reads the list `lst`; its paths are under `root`.
    ///
    /// # Errors
    /// [`LoadError::File`] for a list that cannot be read or a line that is not
    /// `index<TAB>label...<TAB>path`, naming the line.
    pub fn open(lst: impl AsRef<Path>, root: impl AsRef<Path>) -> Result<Self, LoadError> {
        let entries = read_list(lst.as_ref())?;
        let text: Vec<u8> = entries
            .iter()
            .flat_map(|e| {
                let mut b = e.path.to_string_lossy().into_owned().into_bytes();
                b.extend(e.index.to_le_bytes());
                b.extend(e.labels.iter().flat_map(|l| l.to_le_bytes()));
                b
            })
            .collect();
        Ok(ImageList {
            root: root.as_ref().to_path_buf(),
            entries,
            names: Names::default(),
            fingerprint: fingerprint(&[&text]),
        })
    }

    /// Names the sources: `image` for the encoded image, `label` for the label(s) (by default
    /// `"image"` and `"label"`).
    pub fn source_names(mut self, image: &'static str, label: &'static str) -> Self {
        self.names = Names { image, label };
        self
    }

    /// The listed images' indices, in the samples' order.
    pub fn indices(&self) -> impl Iterator<Item = u64> + '_ {
        self.entries.iter().map(|e| e.index)
    }
}

impl EncodedImages for ImageList {
    fn len(&self) -> usize {
        self.entries.len()
    }

    fn kind(&self, source: &str) -> Option<SourceKind> {
        self.names.kind(source)
    }

    fn sources(&self) -> Vec<String> {
        self.names.list()
    }

    fn read_image(
        &self,
        index: usize,
        source: &'static str,
        limit: u64,
        out: &mut Vec<u8>,
    ) -> Result<(), LoadError> {
        read_file(
            self.root.join(&self.entries[index].path),
            source,
            limit,
            out,
        )
    }

    fn read_labels(
        &self,
        index: usize,
        _: &'static str,
        out: &mut Vec<f64>,
    ) -> Result<(), LoadError> {
        out.clear();
        out.extend_from_slice(&self.entries[index].labels);
        Ok(())
    }

    fn place(&self, index: usize) -> (PathBuf, Place) {
        (self.root.join(&self.entries[index].path), Place::File)
    }

    fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
}
