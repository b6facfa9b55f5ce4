//! The NumPy loaders: a `.npy` file per source, or an `.npz` archive with a member per source,
//! read with `ndarray-npy`.

use super::convert::{
    Scalar, addressable, batch_from_samples, convert_values, justified, sample_dims, sample_fits,
};
use super::error::LoadError;
use super::{LoadReason, NonFinite, Place, hex, load_error, path_for, set_path};
use crate::data::dataset::LeafSource;
use crate::types::batch::Batch;
use crate::types::error::{Shape, SpecError};
use crate::types::space::Space;
use crate::types::spec::Described;
use ndarray::{ArrayD, IxDyn};
use ndarray_npy::ReadNpyExt;
use ndarray_npy::npy::header::Header;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

/// `.npy` files as a [`LeafSource`]: one file per source.
///
/// The dtype must be numeric (`i1` to `i8`, `u1` to `u8`, `f4`, `f8`, either byte order) and
/// every value must convert exactly to the space's element type (`<u1` pixels into `f32` are
/// fine, `<f8` values of `0.1` into `f32` are an error naming their byte offset). The shape
/// must be the space's in its memory order (`(3, 28, 28, n)` for a `chwb` image), or samples
/// first with the rest fitting the space as for [IDX files](super::IdxFiles): `(n, 28, 28)`
/// fills an `image![28, 28, 1]` or a `Vector<784>`, `(n,)` fills `Labels<10>` and `Index<10>`.
/// Fortran-ordered arrays are read in their logical order.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::Dataset;
/// use batchspec::load::NpyFiles;
/// use ndarray_npy::WriteNpyExt;
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "features")]
///     x: Batch<Vector<2>>,
///     #[spec(source = "targets")]
///     y: Batch<Index<3>>,
/// }
///
/// let dir = std::env::temp_dir();
/// let xs = dir.join(format!("batchspec-doc-{}-x.npy", std::process::id()));
/// let ys = dir.join(format!("batchspec-doc-{}-y.npy", std::process::id()));
/// ndarray::array![[0.5f32, 1.0], [2.0, 4.0]].write_npy(std::fs::File::create(&xs)?)?;
/// ndarray::array![2i64, 0].write_npy(std::fs::File::create(&ys)?)?;
///
/// let mut files = NpyFiles::new().file("features", &xs).file("targets", &ys);
/// let ds = Dataset::<Record>::load(&mut files)?;
/// assert_eq!(ds.fields().y.array(), &ndarray::array![[2i64], [0]]);
///
/// // A label outside 0..3 names the byte it is stored at.
/// ndarray::array![2i64, 3].write_npy(std::fs::File::create(&ys)?)?;
/// let err = Dataset::<Record>::load(&mut files).err().unwrap();
/// assert!(err.to_string().ends_with("byte 136 (source `targets`): label 3 is not in 0..3"));
/// std::fs::remove_file(&xs)?;
/// std::fs::remove_file(&ys)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct NpyFiles {
    files: Vec<(String, PathBuf)>,
    non_finite: NonFinite,
}

impl NpyFiles {
    /// No files yet: add them with [`NpyFiles::file`].
    pub fn new() -> Self {
        NpyFiles::default()
    }

    /// The file of `source` (replacing an earlier one).
    pub fn file(mut self, source: impl Into<String>, path: impl Into<PathBuf>) -> Self {
        set_path(&mut self.files, source.into(), path.into());
        self
    }

    /// What to do with NaN and infinities in float arrays (default [`NonFinite::Keep`]);
    /// [`NonFinite::Refuse`] makes the first one an error at its byte offset.
    pub fn non_finite(mut self, policy: NonFinite) -> Self {
        self.non_finite = policy;
        self
    }
}

impl LeafSource for NpyFiles {
    type Error = LoadError;

    fn origin(&self, leaf: &Described) -> Option<String> {
        path_for(&self.files, leaf, "")
            .ok()
            .map(|p| format!("file {}", p.display()))
    }

    fn read_leaf<S: Space>(&mut self, leaf: &Described) -> Result<Batch<S>, LoadError> {
        let path = path_for(&self.files, leaf, "the .npy loader")?;
        let bytes =
            std::fs::read(path).map_err(|e| load_error(path, Place::File, leaf, e.into()))?;
        parse::<S>(&bytes, self.non_finite).map_err(|(offset, reason)| {
            let place = offset.map_or(Place::File, Place::Offset);
            load_error(path, place, leaf, reason)
        })
    }
}

/// An `.npz` archive as a [`LeafSource`]: one member per source, named after the source
/// (`targets` or `targets.npy`, as NumPy's `savez(targets=...)` writes it) unless
/// [`NpzFile::member`] names another. Each member is read as a [`.npy` file](NpyFiles).
///
/// Members stored uncompressed (`numpy.savez`) are read; compressed ones (`savez_compressed`)
/// need the `compressed-npz` feature of this crate.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::Dataset;
/// use batchspec::load::NpzFile;
/// use ndarray_npy::NpzWriter;
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "features")]
///     image: Batch<image![2, 2, 1; BHWC, u8]>,
///     #[spec(source = "targets")]
///     label: Batch<Labels<10>>,
/// }
///
/// let path = std::env::temp_dir().join(format!("batchspec-doc-{}.npz", std::process::id()));
/// let mut npz = NpzWriter::new(std::fs::File::create(&path)?);
/// npz.add_array("x", &ndarray::Array3::<u8>::zeros((5, 2, 2)))?;
/// npz.add_array("targets", &ndarray::Array1::<i64>::from(vec![1, 2, 3, 4, 5]))?;
/// npz.finish()?;
///
/// let mut file = NpzFile::new(&path).member("features", "x");
/// let ds = Dataset::<Record>::load(&mut file)?;
/// assert_eq!(ds.len(), 5);
///
/// // Without the mapping there is no member `features`.
/// let err = Dataset::<Record>::load(&mut NpzFile::new(&path)).err().unwrap();
/// assert!(err.to_string().ends_with(
///     "member `features` (source `features`): the archive has no such member (it has: x, targets)"
/// ));
/// std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct NpzFile {
    path: PathBuf,
    members: Vec<(String, String)>,
    non_finite: NonFinite,
}

impl NpzFile {
    /// The archive at `path`, each source read from the member of its name. Nothing is read
    /// until the first leaf.
    pub fn new(path: impl AsRef<Path>) -> Self {
        NpzFile {
            path: path.as_ref().to_path_buf(),
            members: Vec::new(),
            non_finite: NonFinite::Keep,
        }
    }

    /// What to do with NaN and infinities in float members (default [`NonFinite::Keep`]);
    /// [`NonFinite::Refuse`] makes the first one an error at its offset in the member.
    pub fn non_finite(mut self, policy: NonFinite) -> Self {
        self.non_finite = policy;
        self
    }

    /// Reads `source` from the member `name` (with or without its `.npy` suffix).
    pub fn member(mut self, source: impl Into<String>, name: impl Into<String>) -> Self {
        let (source, name) = (source.into(), name.into());
        match self.members.iter_mut().find(|(s, _)| *s == source) {
            Some(slot) => slot.1 = name,
            None => self.members.push((source, name)),
        }
        self
    }

    /// The path of the archive.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn member_of(&self, source: &str) -> String {
        self.members
            .iter()
            .find(|(s, _)| s == source)
            .map_or_else(|| source.to_owned(), |(_, m)| m.clone())
    }
}

impl LeafSource for NpzFile {
    type Error = LoadError;

    fn origin(&self, leaf: &Described) -> Option<String> {
        Some(format!(
            "member `{}` of {}",
            self.member_of(leaf.source),
            self.path.display()
        ))
    }

    fn read_leaf<S: Space>(&mut self, leaf: &Described) -> Result<Batch<S>, LoadError> {
        let fail = |place, reason| load_error(&self.path, place, leaf, reason);
        let name = self.member_of(leaf.source);
        let file = std::fs::File::open(&self.path).map_err(|e| fail(Place::File, e.into()))?;
        let zip_error = |place, e: zip::result::ZipError| {
            fail(
                place,
                LoadReason::Zip {
                    message: e.to_string(),
                },
            )
        };
        let mut reader = std::io::BufReader::new(file);
        // The directory's member count, checked against the bytes it takes before the zip
        // reader reserves room for that many members.
        check_directory(&mut reader).map_err(|(offset, message)| {
            fail(Place::Offset(offset), LoadReason::Zip { message })
        })?;
        let mut archive = zip::ZipArchive::new(reader).map_err(|e| zip_error(Place::File, e))?;
        let stored = [name.clone(), format!("{name}.npy")]
            .into_iter()
            .find(|n| archive.index_for_name(n).is_some());
        let Some(stored) = stored else {
            let members = archive
                .file_names()
                .map(|n| n.strip_suffix(".npy").unwrap_or(n).to_owned())
                .collect();
            return Err(fail(
                Place::Member { name, offset: None },
                LoadReason::MissingMember { members },
            ));
        };
        let at = |offset| Place::Member {
            name: stored.clone(),
            offset,
        };
        let mut member = Vec::new();
        archive
            .by_name(&stored)
            .and_then(|mut f| f.read_to_end(&mut member).map_err(Into::into))
            .map_err(|e| zip_error(at(None), e))?;
        parse::<S>(&member, self.non_finite).map_err(|(offset, reason)| fail(at(offset), reason))
    }
}

/// The smallest central-directory entry of a zip archive: 46 bytes and a name.
const MIN_DIRECTORY_ENTRY: u64 = 46;

/// Checks the member count of a zip archive's end-of-directory record (and of its zip64 record)
/// against the size of the directory it announces and the file's length: each member takes at
/// least [`MIN_DIRECTORY_ENTRY`] bytes there, so a count that the directory cannot hold is
/// refused before anything is allocated for it. A record that cannot be found or read is left
/// to the zip reader, which reports it. Errors carry the record's offset.
fn check_directory<F: Read + std::io::Seek>(file: &mut F) -> Result<(), (u64, String)> {
    use std::io::SeekFrom;
    let io = |e: std::io::Error| (0, e.to_string());
    let len = file.seek(SeekFrom::End(0)).map_err(io)?;
    // The record is 22 bytes and a comment of at most 65535 bytes at the end of the file.
    let tail_len = len.min(22 + 65535);
    let tail_start = len - tail_len;
    file.seek(SeekFrom::Start(tail_start)).map_err(io)?;
    let mut tail = vec![0u8; tail_len as usize];
    file.read_exact(&mut tail).map_err(io)?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    let u16_at = |b: &[u8], i: usize| u16::from_le_bytes([b[i], b[i + 1]]) as u64;
    let u32_at =
        |b: &[u8], i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]) as u64;
    let u64_at =
        |b: &[u8], i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0xFF; 8]));
    // The record whose comment ends exactly at the end of the file (a signature inside a
    // comment does not count).
    let Some(at) = (0..tail.len().saturating_sub(21)).rev().find(|&i| {
        tail[i..i + 4] == [0x50, 0x4B, 0x05, 0x06]
            && i + 22 + u16_at(&tail, i + 20) as usize == tail.len()
    }) else {
        return Ok(());
    };
    let record = tail_start + at as u64;
    let (mut members, mut size) = (u16_at(&tail, at + 10), u32_at(&tail, at + 12));
    let mut place = record;
    // Counts that do not fit the record's fields are in the zip64 record, which a locator
    // 20 bytes before this one points to.
    if (members == 0xFFFF || size == 0xFFFF_FFFF)
        && at >= 20
        && tail[at - 20..at - 16] == [0x50, 0x4B, 0x06, 0x07]
    {
        let zip64 = u64_at(&tail, at - 12);
        let mut head = [0u8; 56];
        if zip64.checked_add(56).is_some_and(|end| end <= len)
            && file.seek(SeekFrom::Start(zip64)).is_ok()
            && file.read_exact(&mut head).is_ok()
            && head[..4] == [0x50, 0x4B, 0x06, 0x06]
        {
            members = u64_at(&head, 32);
            size = u64_at(&head, 40);
            place = zip64;
        }
        file.seek(SeekFrom::Start(0)).map_err(io)?;
    }
    if size > len {
        return Err((
            place,
            format!("the central directory claims {size} bytes in a file of {len}"),
        ));
    }
    if members.saturating_mul(MIN_DIRECTORY_ENTRY) > size {
        return Err((
            place,
            format!(
                "the central directory claims {members} members in {size} bytes (each takes at least {MIN_DIRECTORY_ENTRY})"
            ),
        ));
    }
    Ok(())
}

/// An error of [`parse`]: the byte offset when there is one, and the reason.
type Fail = (Option<u64>, LoadReason);

fn npy_error(message: impl ToString) -> LoadReason {
    LoadReason::Npy {
        message: message.to_string(),
    }
}

/// The deepest nesting of brackets a header may have: a numeric dtype's header has 2.
const MAX_HEADER_DEPTH: usize = 16;

/// Checks the magic and that the header is in the file and not deeply nested, before
/// `ndarray-npy` parses it; returns where the header starts (after magic, version and length)
/// and where it ends.
fn check_preamble(bytes: &[u8]) -> Result<(usize, usize), Fail> {
    const MAGIC: &[u8] = b"\x93NUMPY";
    let len = bytes.len() as u64;
    let head = &bytes[..bytes.len().min(MAGIC.len())];
    if head != &MAGIC[..head.len()] {
        return Err((
            Some(0),
            LoadReason::Magic {
                found: hex(head),
                expected: "an .npy file starts with 0x93 NUMPY",
            },
        ));
    }
    let truncated = |expected: u64| {
        (
            Some(len),
            LoadReason::Truncated {
                expected,
                actual: len,
            },
        )
    };
    let (prefix, header_len) = match bytes.get(6) {
        None => return Err(truncated(10)),
        Some(1) => match bytes.get(8..10) {
            Some(b) => (10, usize::from(u16::from_le_bytes([b[0], b[1]]))),
            None => return Err(truncated(10)),
        },
        Some(2 | 3) => match bytes.get(8..12) {
            Some(b) => (12, u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize),
            None => return Err(truncated(12)),
        },
        Some(v) => {
            return Err((Some(6), npy_error(format!("unknown format version {v}"))));
        }
    };
    let end = prefix + header_len;
    let Some(header) = bytes.get(prefix..end) else {
        return Err(truncated(end as u64));
    };
    let mut depth = 0usize;
    for &b in header {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > MAX_HEADER_DEPTH {
            return Err((
                Some(prefix as u64),
                npy_error("the header nests too deeply"),
            ));
        }
    }
    Ok((prefix, end))
}

/// The byte offset in the payload of the value at logical (C-order) position `i`.
fn storage_index(i: usize, shape: &[usize], fortran: bool) -> usize {
    if !fortran {
        return i;
    }
    // The multi-index of i in C order, then its position in Fortran order.
    let mut rest = i;
    let mut index = vec![0; shape.len()];
    for (k, &n) in shape.iter().enumerate().rev() {
        if n > 0 {
            index[k] = rest % n;
            rest /= n;
        }
    }
    let mut stride = 1usize;
    let mut at = 0usize;
    for (k, &n) in shape.iter().enumerate() {
        at = at.saturating_add(index[k].saturating_mul(stride));
        stride = stride.saturating_mul(n);
    }
    at
}

/// Reads the payload as `T` with `ndarray-npy` and converts it into `S`'s elements.
fn read_as<S: Space, T: Scalar + ndarray_npy::ReadableElement>(
    bytes: &[u8],
    header_end: usize,
    shape: &[usize],
    fortran: bool,
) -> Result<Vec<S::Elem>, Fail> {
    let array = ArrayD::<T>::read_npy(Cursor::new(bytes)).map_err(|e| (None, npy_error(e)))?;
    let values: Vec<T> = if array.is_standard_layout() {
        array.into_raw_vec_and_offset().0
    } else {
        array.iter().copied().collect()
    };
    convert_values::<S, T>(values)
        .map_err(|r| (None, r))?
        .map_err(|(i, reason)| {
            let at = storage_index(i, shape, fortran).saturating_mul(T::SIZE);
            (Some((header_end as u64).saturating_add(at as u64)), reason)
        })
}

/// Parses an `.npy` file against the space `S`.
fn parse<S: Space>(bytes: &[u8], non_finite: NonFinite) -> Result<Batch<S>, Fail> {
    let (header_start, header_end) = check_preamble(bytes)?;
    // Errors of the header are placed at its start.
    let at_header = Some(header_start as u64);
    let header =
        Header::from_reader(&mut Cursor::new(bytes)).map_err(|e| (at_header, npy_error(e)))?;
    let dtype = header.type_descriptor.to_string();
    let descr = header
        .type_descriptor
        .as_string()
        .map_or("", String::as_str);
    let (kind, size) = match descr {
        "|u1" | "u1" | "B" => ("u8", 1),
        "|i1" | "i1" | "b" => ("i8", 1),
        "<u2" | ">u2" => ("u16", 2),
        "<i2" | ">i2" => ("i16", 2),
        "<u4" | ">u4" => ("u32", 4),
        "<i4" | ">i4" => ("i32", 4),
        "<u8" | ">u8" => ("u64", 8),
        "<i8" | ">i8" => ("i64", 8),
        "<f4" | ">f4" => ("f32", 4),
        "<f8" | ">f8" => ("f64", 8),
        _ => return Err((at_header, LoadReason::Dtype { dtype })),
    };
    let shape = header.shape;
    let fortran = header.layout.is_fortran();
    // The shape in the space's memory order (with any length of the batch and time axes), or
    // samples first and fitting the space (spaces of static sample shape only).
    let exact = shape.len() == S::SHAPE.len()
        && S::SHAPE
            .iter()
            .zip(&shape)
            .all(|(want, &got)| want.is_none_or(|w| w == got));
    let samples_first = !exact
        && !shape.is_empty()
        && sample_dims::<S>().is_ok_and(|dims| sample_fits(&shape[1..], &dims));
    if !exact && !samples_first {
        return Err((
            at_header,
            LoadReason::Shape {
                space: S::describe(),
                actual: Shape(shape),
            },
        ));
    }
    // ndarray-npy would panic on a shape ndarray cannot hold, even an empty one.
    let Some(payload) = shape
        .iter()
        .try_fold(size, |a: usize, &n| a.checked_mul(n))
        .filter(|_| addressable(&shape, size))
    else {
        return Err((
            at_header,
            LoadReason::Overflow {
                shape: Shape(shape),
            },
        ));
    };
    let samples = if exact {
        shape[S::BATCH_AXIS]
    } else {
        shape[0]
    };
    justified(samples, payload, bytes.len()).map_err(|r| (at_header, r))?;
    let total = header_end.saturating_add(payload);
    let len = bytes.len() as u64;
    if bytes.len() < total {
        return Err((
            Some(len),
            LoadReason::Truncated {
                expected: total as u64,
                actual: len,
            },
        ));
    }
    if bytes.len() > total {
        return Err((
            Some(total as u64),
            LoadReason::TrailingBytes {
                expected: total as u64,
                actual: len,
            },
        ));
    }
    if non_finite == NonFinite::Refuse && matches!(kind, "f32" | "f64") {
        // In the file's own byte order, each value at its offset.
        let big = descr.starts_with('>');
        for (k, v) in bytes[header_end..].chunks_exact(size).enumerate() {
            let value = match (size, big) {
                (4, false) => f64::from(f32::from_le_bytes([v[0], v[1], v[2], v[3]])),
                (4, true) => f64::from(f32::from_be_bytes([v[0], v[1], v[2], v[3]])),
                (_, false) => f64::from_le_bytes(v.try_into().unwrap_or([0; 8])),
                (_, true) => f64::from_be_bytes(v.try_into().unwrap_or([0; 8])),
            };
            non_finite
                .check(value)
                .map_err(|r| (Some((header_end + k * size) as u64), r))?;
        }
    }
    let values = match kind {
        "u8" => read_as::<S, u8>(bytes, header_end, &shape, fortran),
        "i8" => read_as::<S, i8>(bytes, header_end, &shape, fortran),
        "u16" => read_as::<S, u16>(bytes, header_end, &shape, fortran),
        "i16" => read_as::<S, i16>(bytes, header_end, &shape, fortran),
        "u32" => read_as::<S, u32>(bytes, header_end, &shape, fortran),
        "i32" => read_as::<S, i32>(bytes, header_end, &shape, fortran),
        "u64" => read_as::<S, u64>(bytes, header_end, &shape, fortran),
        "i64" => read_as::<S, i64>(bytes, header_end, &shape, fortran),
        "f32" => read_as::<S, f32>(bytes, header_end, &shape, fortran),
        _ => read_as::<S, f64>(bytes, header_end, &shape, fortran),
    }?;
    let invalid = |error| {
        (
            None,
            LoadReason::Invalid {
                error: Box::new(error),
            },
        )
    };
    if exact {
        let array = ArrayD::from_shape_vec(IxDyn(&shape), values).map_err(|_| {
            invalid(SpecError::Rank {
                space: S::describe(),
                expected: S::SHAPE.len(),
                actual: shape.len(),
                shape: Shape(shape.clone()),
            })
        })?;
        Batch::<S>::from_dyn(array).map_err(invalid)
    } else {
        batch_from_samples::<S>(shape[0], values).map_err(|r| (None, r))
    }
}
