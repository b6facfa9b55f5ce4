//! The IDX loader (the format of the MNIST files): one file per source.
//!
//! An IDX file is a magic number `0x00 0x00 type rank`, `rank` big-endian `u32` sizes, then the
//! values, big-endian, in row-major order. The first axis holds the samples.

use super::convert::{
    Scalar, addressable, batch_from_samples, convert_values, justified, sample_dims, sample_fits,
};
use super::error::LoadError;
use super::{LoadReason, NonFinite, Place, hex, load_error, path_for, set_path};
use crate::data::dataset::LeafSource;
use crate::types::batch::Batch;
use crate::types::error::Shape;
use crate::types::space::Space;
use crate::types::spec::Described;
use std::path::PathBuf;

/// IDX files as a [`LeafSource`]: one file per source.
///
/// The magic (`0x00 0x00`, a type byte, the rank), the type byte (`0x08` u8, `0x09` i8, `0x0B`
/// i16, `0x0C` i32, `0x0D` f32, `0x0E` f64), the rank and every size are checked against the
/// leaf's space, then the length of the payload (a truncated file names the byte where it ends).
/// The first axis holds the samples; the others must fit the space: an image source of 28×28×1
/// takes a file of shape `[n, 28, 28]`, a `Vector<784>` takes `[n, 28, 28]` or `[n, 784]`,
/// labels take `[n]`. Values convert exactly to the space's element type (u8 pixels into `f32`
/// are fine, an `i16` of 300 into `u8` is an error), and labels must be in `0..max_labels`.
///
/// Files are read whole, uncompressed (gunzip the MNIST downloads first).
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::Dataset;
/// use batchspec::load::IdxFiles;
///
/// #[derive(DataSpec)]
/// struct Mnist {
///     #[spec(source = "features")]
///     image: Batch<image![2, 2, 1; BHWC, u8]>,
///     #[spec(source = "targets")]
///     label: Batch<Labels<10>>,
/// }
///
/// let dir = std::env::temp_dir();
/// let images = dir.join(format!("batchspec-doc-{}-images.idx", std::process::id()));
/// let labels = dir.join(format!("batchspec-doc-{}-labels.idx", std::process::id()));
/// // 3 images of 2×2: magic 0x00000803, sizes 3, 2, 2, then the pixels.
/// let mut bytes = vec![0, 0, 8, 3, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 2];
/// bytes.extend(0u8..12);
/// std::fs::write(&images, &bytes)?;
/// std::fs::write(&labels, [0, 0, 8, 1, 0, 0, 0, 3, 7, 2, 1])?;
///
/// let ds = Dataset::<Mnist>::load(&mut IdxFiles::mnist(&images, &labels))?;
/// assert_eq!(ds.len(), 3);
/// assert_eq!(ds.fields().image.array()[[2, 1, 0, 0]], 10);
/// assert_eq!(ds.fields().label.array(), &ndarray::array![7i64, 2, 1]);
///
/// // A truncated payload names the byte where the file ends.
/// std::fs::write(&images, &bytes[..20])?;
/// let err = Dataset::<Mnist>::load(&mut IdxFiles::mnist(&images, &labels)).err().unwrap();
/// assert!(err.to_string().ends_with(
///     "byte 20 (source `features`): the file ends at byte 20, but its header announces 28 bytes"
/// ));
/// std::fs::remove_file(&images)?;
/// std::fs::remove_file(&labels)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct IdxFiles {
    files: Vec<(String, PathBuf)>,
    non_finite: NonFinite,
}

impl IdxFiles {
    /// No files yet: add them with [`IdxFiles::file`].
    pub fn new() -> Self {
        IdxFiles::default()
    }

    /// The MNIST pair: `images` for the source `"features"`, `labels` for `"targets"`.
    pub fn mnist(images: impl Into<PathBuf>, labels: impl Into<PathBuf>) -> Self {
        IdxFiles::new()
            .file("features", images)
            .file("targets", labels)
    }

    /// The file of `source` (replacing an earlier one).
    pub fn file(mut self, source: impl Into<String>, path: impl Into<PathBuf>) -> Self {
        set_path(&mut self.files, source.into(), path.into());
        self
    }

    /// What to do with NaN and infinities in float files (types `0x0D` and `0x0E`; default
    /// [`NonFinite::Keep`]); [`NonFinite::Refuse`] makes the first one an error at its byte
    /// offset.
    pub fn non_finite(mut self, policy: NonFinite) -> Self {
        self.non_finite = policy;
        self
    }
}

impl LeafSource for IdxFiles {
    type Error = LoadError;

    fn read_leaf<S: Space>(&mut self, leaf: &Described) -> Result<Batch<S>, LoadError> {
        let path = path_for(&self.files, leaf, "the IDX loader")?;
        let bytes =
            std::fs::read(path).map_err(|e| load_error(path, Place::File, leaf, e.into()))?;
        parse::<S>(&bytes, self.non_finite)
            .map_err(|(place, reason)| load_error(path, place, leaf, reason))
    }

    fn origin(&self, leaf: &Described) -> Option<String> {
        path_for(&self.files, leaf, "")
            .ok()
            .map(|p| format!("file {}", p.display()))
    }
}

/// Decodes `payload` of big-endian `T` values and converts them into `S`'s elements.
fn decode<S: Space, T: Scalar>(
    payload: &[u8],
    header_len: usize,
    non_finite: NonFinite,
) -> Result<Vec<S::Elem>, (Place, LoadReason)> {
    let values: Vec<T> = match super::convert::same_vec::<u8, T>(Vec::new()) {
        // Bytes are bytes: no decoding.
        Some(_) => super::convert::same_vec::<u8, T>(payload.to_vec()).unwrap_or_default(),
        None => payload.chunks_exact(T::SIZE).map(T::from_be).collect(),
    };
    let at = |i: usize| {
        Place::Offset((header_len as u64).saturating_add((i as u64).saturating_mul(T::SIZE as u64)))
    };
    if non_finite == NonFinite::Refuse && T::SIGNIFICAND.is_some() {
        for (i, v) in values.iter().enumerate() {
            non_finite.check(v.as_f64()).map_err(|r| (at(i), r))?;
        }
    }
    convert_values::<S, T>(values)
        .map_err(|r| (Place::File, r))?
        .map_err(|(i, reason)| (at(i), reason))
}

/// Parses an IDX file against the space `S`.
fn parse<S: Space>(bytes: &[u8], non_finite: NonFinite) -> Result<Batch<S>, (Place, LoadReason)> {
    let len = bytes.len() as u64;
    let truncated = |expected: u64| {
        (
            Place::Offset(len),
            LoadReason::Truncated {
                expected,
                actual: len,
            },
        )
    };
    if bytes.iter().take(2).any(|&b| b != 0) {
        return Err((
            Place::Offset(0),
            LoadReason::Magic {
                found: hex(&bytes[..bytes.len().min(4)]),
                expected: "an IDX file starts with 0x00 0x00, a type byte and the rank",
            },
        ));
    }
    if bytes.len() < 4 {
        return Err(truncated(4));
    }
    let (code, rank) = (bytes[2], usize::from(bytes[3]));
    let size = match code {
        0x08 | 0x09 => 1,
        0x0B => 2,
        0x0C | 0x0D => 4,
        0x0E => 8,
        _ => return Err((Place::Offset(2), LoadReason::IdxType { code })),
    };
    if rank == 0 {
        return Err((Place::Offset(3), LoadReason::RankZero));
    }
    let header_len = 4 + 4 * rank;
    if bytes.len() < header_len {
        return Err(truncated(header_len as u64));
    }
    let shape: Vec<usize> = bytes[4..header_len]
        .chunks_exact(4)
        .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]) as usize)
        .collect();
    let dims = sample_dims::<S>().map_err(|r| (Place::File, r))?;
    if !sample_fits(&shape[1..], &dims) {
        return Err((
            Place::Offset(4),
            LoadReason::Shape {
                space: S::describe(),
                actual: Shape(shape),
            },
        ));
    }
    let payload_len = shape
        .iter()
        .try_fold(size, |a: usize, &n| a.checked_mul(n))
        .filter(|_| addressable(&shape, size))
        .and_then(|p| p.checked_add(header_len));
    let Some(total) = payload_len else {
        return Err((
            Place::Offset(4),
            LoadReason::Overflow {
                shape: Shape(shape),
            },
        ));
    };
    justified(shape[0], total - header_len, bytes.len()).map_err(|r| (Place::Offset(4), r))?;
    if bytes.len() < total {
        return Err(truncated(total as u64));
    }
    if bytes.len() > total {
        return Err((
            Place::Offset(total as u64),
            LoadReason::TrailingBytes {
                expected: total as u64,
                actual: len,
            },
        ));
    }
    let payload = &bytes[header_len..];
    let values = match code {
        0x08 => decode::<S, u8>(payload, header_len, non_finite),
        0x09 => decode::<S, i8>(payload, header_len, non_finite),
        0x0B => decode::<S, i16>(payload, header_len, non_finite),
        0x0C => decode::<S, i32>(payload, header_len, non_finite),
        0x0D => decode::<S, f32>(payload, header_len, non_finite),
        _ => decode::<S, f64>(payload, header_len, non_finite),
    }?;
    batch_from_samples::<S>(shape[0], values).map_err(|r| (Place::File, r))
}
