//! Encoded images as sources of a spec (feature `images`): a folder of JPEG, PNG and WebP files
//! per class ([`ImageFolder`], torchvision's `ImageFolder`), WebDataset tar shards
//! ([`WebDataset`], or as a stream: [`ShardStream`]), MXNet RecordIO packs ([`RecordIo`], what
//! `ImageRecordIter` reads) and image lists ([`ImageList`]), served as batches of a record by
//! an [`ImageStream`]: each image decoded, brought to the field's size and augmented by
//! [`ImageSteps`] on worker threads, written once into the field's layout and element type
//! (`bchw f32` straight from JPEG bytes).
#![doc = include_str!("../../../doc/images.md")]

mod decode;
mod folder;
mod list;
mod recordio;
mod render;
mod shards;
mod steps;
mod stream;
mod wds;

pub use decode::{Pixels, decode_image};
pub use folder::ImageFolder;
pub use list::ImageList;
pub use recordio::RecordIo;
#[cfg(feature = "parquet-image")]
pub(crate) use render::StepsImage;
/// OpenCV's 8-bit HLS shift of one RGB pixel, for tests against OpenCV's own.
#[doc(hidden)]
pub use render::hls_shift;
/// MXNet's affine warp of a whole image, for tests against OpenCV's `warpAffine`.
#[doc(hidden)]
pub use render::mxnet_warp;
pub use shards::ShardStream;
pub use steps::{Geometry, ImageSteps, Interpolation};
pub use stream::ImageStream;
pub use wds::WebDataset;

use crate::load::error::{LoadError, LoadReason, Place};
use std::path::PathBuf;

/// What a source of a collection holds for each sample: an encoded image, or labels (numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// An encoded JPEG, PNG or WebP image, decoded into an image field.
    Image,
    /// Numbers (a class index, MXNet's label or labels), read into a label or vector field.
    Labels,
}

/// A collection of samples whose sources are encoded images and labels, read by index: what an
/// [`ImageStream`] serves batches from. Implemented by [`ImageFolder`], [`WebDataset`] and
/// [`RecordIo`]; a collection of another storage implements it too.
pub trait EncodedImages: Send + Sync {
    /// The number of samples.
    fn len(&self) -> usize;

    /// `true` without samples.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What the source `source` holds, or `None` for a source the collection does not have.
    fn kind(&self, source: &str) -> Option<SourceKind>;

    /// The sources the collection serves, for the error that names a missing one.
    fn sources(&self) -> Vec<String>;

    /// Reads sample `index`'s encoded image of `source` into `out` (cleared first); an image
    /// of more than `limit` bytes is an error, and is not read.
    ///
    /// # Errors
    /// An error naming the file and the place in it.
    fn read_image(
        &self,
        index: usize,
        source: &'static str,
        limit: u64,
        out: &mut Vec<u8>,
    ) -> Result<(), LoadError>;

    /// Sample `index`'s labels of `source`, into `out` (cleared first).
    ///
    /// # Errors
    /// An error naming the file and the place in it.
    fn read_labels(
        &self,
        index: usize,
        source: &'static str,
        out: &mut Vec<f64>,
    ) -> Result<(), LoadError>;

    /// Called with a batch's samples before they are read: a collection in a bucket fetches
    /// their bytes here, several requests in flight, instead of one sample at a time. By
    /// default nothing.
    ///
    /// # Errors
    /// A fetch that failed, naming the file.
    fn prefetch(&self, indices: &[usize]) -> Result<(), LoadError> {
        let _ = indices;
        Ok(())
    }

    /// Where sample `index` is: its file and the place in it, for errors.
    fn place(&self, index: usize) -> (PathBuf, Place);

    /// Checks once, when a stream is made, that every sample has `source` (a WebDataset sample
    /// without the member, for instance).
    ///
    /// # Errors
    /// An error naming the first sample without it.
    fn check_source(&self, source: &'static str) -> Result<(), LoadError> {
        let _ = source;
        Ok(())
    }

    /// A fingerprint of the collection (its files, their sizes and order), for the states of
    /// its streams.
    fn fingerprint(&self) -> u64;
}

/// The names of a collection's two sources, the encoded image and its labels (by default
/// `"image"` and `"label"`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Names {
    pub(crate) image: &'static str,
    pub(crate) label: &'static str,
}

impl Default for Names {
    fn default() -> Self {
        Names {
            image: "image",
            label: "label",
        }
    }
}

impl Names {
    pub(crate) fn kind(&self, source: &str) -> Option<SourceKind> {
        if source == self.image {
            Some(SourceKind::Image)
        } else if source == self.label {
            Some(SourceKind::Labels)
        } else {
            None
        }
    }

    pub(crate) fn list(&self) -> Vec<String> {
        vec![self.image.to_owned(), self.label.to_owned()]
    }
}

/// The error of `file` at `place`, reading `source`.
pub(crate) fn error_at(
    (file, place): (PathBuf, Place),
    source: &'static str,
    reason: LoadReason,
) -> LoadError {
    LoadError::File {
        file,
        place,
        source_name: source,
        reason: Box::new(reason),
    }
}

/// The error of an image of `bytes` bytes, more than `limit`.
pub(crate) fn too_large(bytes: u64, limit: u64) -> LoadReason {
    bad(format!(
        "the image takes {bytes} bytes, more than the {limit} that an image within the pixel budget can take (`ImageSteps::max_pixels` sets the budget); it was not read"
    ))
}

/// Reads the file `path` into `out` (cleared first): an image of more than `limit` bytes is an
/// error, and is not read (nor more than that, should the file grow meanwhile).
pub(crate) fn read_file(
    path: PathBuf,
    source: &'static str,
    limit: u64,
    out: &mut Vec<u8>,
) -> Result<(), LoadError> {
    use std::io::Read;
    out.clear();
    let fail = |path: PathBuf, reason| error_at((path, Place::File), source, reason);
    let mut file = std::fs::File::open(&path).map_err(|e| fail(path.clone(), e.into()))?;
    let bytes = file
        .metadata()
        .map_err(|e| fail(path.clone(), e.into()))?
        .len();
    if bytes > limit {
        return Err(fail(path, too_large(bytes, limit)));
    }
    (&mut file)
        .take(limit.saturating_add(1))
        .read_to_end(out)
        .map_err(|e| fail(path.clone(), e.into()))?;
    if out.len() as u64 > limit {
        return Err(fail(path, too_large(out.len() as u64, limit)));
    }
    Ok(())
}

/// The object a URL names (not a prefix), opened with `options`.
#[cfg(feature = "remote")]
pub(crate) fn remote_object(
    url: &str,
    options: &crate::load::RemoteOptions,
) -> Result<std::sync::Arc<crate::load::remote::object::RemoteObject>, LoadError> {
    use crate::load::remote::{Listing, Opened};
    let at = || (PathBuf::from(url), Place::File);
    let (opened, path) = Opened::new(url, options).map_err(|r| error_at(at(), "", r))?;
    match opened
        .list(path, false)
        .map_err(|r| error_at(at(), "", r))?
    {
        Listing::Object(object) => Ok(object),
        Listing::Prefix { .. } => Err(error_at(
            at(),
            "",
            bad("no object at this URL (a prefix: name each object)"),
        )),
    }
}

/// The whole of `object`, by one request, when it takes at most `limit` bytes (`what` says
/// whose limit, for the error that names the URL); `stop` ends the request early.
#[cfg(feature = "remote")]
pub(crate) fn whole_object(
    object: &std::sync::Arc<crate::load::remote::object::RemoteObject>,
    limit: u64,
    what: &str,
    stop: Option<&crate::load::remote::object::Stop>,
) -> Result<bytes::Bytes, LoadError> {
    let at = || (PathBuf::from(&object.url), Place::File);
    if object.size > limit {
        return Err(error_at(
            at(),
            "",
            bad(format!(
                "the object takes {} bytes, more than the {limit} {what}",
                object.size
            )),
        ));
    }
    object
        .fetch_one_until(0..object.size, stop)
        .map_err(|reason| error_at(at(), "", reason))
}

/// A format error (`LoadReason::Decode`) with its message.
pub(crate) fn bad(message: impl Into<String>) -> LoadReason {
    LoadReason::Decode {
        message: message.into(),
    }
}
