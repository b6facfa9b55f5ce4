//! A folder of images per class, as torchvision's `ImageFolder` reads it.

use crate::data::state::fingerprint;
use crate::load::error::{LoadError, LoadReason, Place};
use crate::load::images::{EncodedImages, Names, SourceKind, bad, error_at, read_file};
use std::path::{Path, PathBuf};

/// The extensions (any case) torchvision's `ImageFolder` takes; the reader decodes JPEG, PNG and
/// WebP, and refuses a folder holding the others, naming the file, rather than leave it out.
const IMAGE_EXTENSIONS: [&str; 9] = [
    "jpg", "jpeg", "png", "ppm", "bmp", "pgm", "tif", "tiff", "webp",
];
const DECODED: [&str; 4] = ["jpg", "jpeg", "png", "webp"];

/// A folder of images per class (torchvision's `ImageFolder`): `root/<class>/**/<image>`.
///
/// The classes are the sub-folders of `root`, in sorted order, and a class's index is its place
/// in that order ([`classes`](Self::classes)); the images of a class are every `.jpg`,
/// `.jpeg`, `.png` and `.webp` file (any case) under its folder, at any depth (links followed), in the
/// order torchvision lists them: the folders by their paths, sorted, and in each its files
/// sorted. Other files are left out, as torchvision does, except images of the formats
/// torchvision takes and this reader does not decode (`.bmp`, `.tif`, ...), which are an
/// error naming the file; a class folder without images is an error too.
///
/// Sources: `"image"` (the encoded image) and `"label"` (the class index); other names with
/// [`source_names`](Self::source_names).
///
/// ```
/// use batchspec::load::images::{EncodedImages, ImageFolder};
/// let folder = ImageFolder::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/images/folder"))?;
/// assert_eq!(folder.classes(), ["bird", "cat", "dog"]);
/// assert!(folder.len() > 10);
/// # Ok::<(), batchspec::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ImageFolder {
    root: PathBuf,
    classes: Vec<String>,
    files: Vec<(PathBuf, usize)>,
    names: Names,
    fingerprint: u64,
}

impl ImageFolder {
    /// Lists the folder `root`.
    ///
    /// # Errors
    /// [`LoadError::File`] for a folder that cannot be listed, a class without images, or an
    /// image of a format this reader does not decode.
    pub fn open(root: impl AsRef<Path>) -> Result<Self, LoadError> {
        let root = root.as_ref().to_path_buf();
        let fail = |path: &Path, reason: LoadReason| {
            error_at((path.to_path_buf(), Place::File), "", reason)
        };
        let mut classes: Vec<String> = Vec::new();
        for entry in std::fs::read_dir(&root).map_err(|e| fail(&root, e.into()))? {
            let entry = entry.map_err(|e| fail(&root, e.into()))?;
            // `metadata` follows links, as torchvision's `os.scandir(...).is_dir()` does.
            if std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir()) {
                classes.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
        classes.sort();
        if classes.is_empty() {
            return Err(fail(&root, bad("the folder has no class sub-folders")));
        }
        let mut files = Vec::new();
        let mut hash = Vec::new();
        for (index, class) in classes.iter().enumerate() {
            let top = root.join(class);
            // Every folder under the class's (links followed), sorted by path as Python sorts
            // strings, then each folder's files sorted.
            let mut dirs = vec![PathBuf::from(class)];
            let mut i = 0;
            while i < dirs.len() {
                let dir = root.join(&dirs[i]);
                for entry in std::fs::read_dir(&dir).map_err(|e| fail(&dir, e.into()))? {
                    let entry = entry.map_err(|e| fail(&dir, e.into()))?;
                    if std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir()) {
                        dirs.push(dirs[i].join(entry.file_name()));
                    }
                }
                i += 1;
                if dirs.len() > 1_000_000 {
                    return Err(fail(
                        &top,
                        bad("more than a million folders (a link loop?)"),
                    ));
                }
            }
            dirs.sort_by_key(|d| d.to_string_lossy().into_owned());
            let before = files.len();
            for dir in &dirs {
                let full = root.join(dir);
                let mut names = Vec::new();
                for entry in std::fs::read_dir(&full).map_err(|e| fail(&full, e.into()))? {
                    let entry = entry.map_err(|e| fail(&full, e.into()))?;
                    if std::fs::metadata(entry.path()).is_ok_and(|m| m.is_file()) {
                        names.push(entry.file_name().to_string_lossy().into_owned());
                    }
                }
                names.sort();
                for name in names {
                    let ext = Path::new(&name)
                        .extension()
                        .map(|e| e.to_string_lossy().to_ascii_lowercase())
                        .unwrap_or_default();
                    if !IMAGE_EXTENSIONS.contains(&ext.as_str()) {
                        continue;
                    }
                    let path = dir.join(&name);
                    if !DECODED.contains(&ext.as_str()) {
                        return Err(fail(
                            &root.join(&path),
                            bad(format!(
                                "a .{ext} image: the reader decodes JPEG, PNG and WebP (convert it, or move it out of the folder)"
                            )),
                        ));
                    }
                    let size = std::fs::metadata(root.join(&path)).map_or(0, |m| m.len());
                    hash.extend_from_slice(path.to_string_lossy().as_bytes());
                    hash.extend_from_slice(&size.to_le_bytes());
                    files.push((path, index));
                }
            }
            if files.len() == before {
                return Err(fail(
                    &top,
                    bad(format!(
                        "the class folder `{class}` holds no image (.jpg, .jpeg, .png or .webp)"
                    )),
                ));
            }
        }
        let fingerprint = fingerprint(&[&hash]);
        Ok(ImageFolder {
            root,
            classes,
            files,
            names: Names::default(),
            fingerprint,
        })
    }

    /// Names the sources: `image` for the encoded image, `label` for the class index (by
    /// default `"image"` and `"label"`).
    pub fn source_names(mut self, image: &'static str, label: &'static str) -> Self {
        self.names = Names { image, label };
        self
    }

    /// The classes, in the order of their indices.
    pub fn classes(&self) -> &[String] {
        &self.classes
    }

    /// The images, relative to the folder, with their class indices, in the samples' order.
    pub fn files(&self) -> impl Iterator<Item = (&Path, usize)> {
        self.files.iter().map(|(p, c)| (p.as_path(), *c))
    }

    /// The folder.
    pub fn root(&self) -> &Path {
        &self.root
    }
}

impl EncodedImages for ImageFolder {
    fn len(&self) -> usize {
        self.files.len()
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
        read_file(self.root.join(&self.files[index].0), source, limit, out)
    }

    fn read_labels(
        &self,
        index: usize,
        _: &'static str,
        out: &mut Vec<f64>,
    ) -> Result<(), LoadError> {
        out.clear();
        out.push(self.files[index].1 as f64);
        Ok(())
    }

    fn place(&self, index: usize) -> (PathBuf, Place) {
        (self.root.join(&self.files[index].0), Place::File)
    }

    fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
}
