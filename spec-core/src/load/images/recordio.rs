//! MXNet's RecordIO packs (`.rec` with its `.idx`), as `im2rec.py` writes them and
//! `ImageRecordIter` reads them.
//!
//! The format (dmlc-core's `recordio.h`): each record is a 4-byte magic `0xCED7230A`
//! (little-endian), a 4-byte `lrec` whose top 3 bits are a continuation flag and whose low 29
//! bits are the length, the data, and zeros to a multiple of 4 bytes. A record whose data holds
//! the magic at a 4-aligned offset is split there into parts flagged 1 (first), 2 (middle) and 3
//! (last), the magic dropped; the reader puts it back. An image record's data is a 24-byte
//! header (`u32 flag`, `f32 label`, `u64 id`, `u64 id2`), `flag` more `f32` labels when `flag`
//! is not 0 (multi-label; the header's label is then unused), and the encoded image.

use crate::data::state::fingerprint;
use crate::load::error::{LoadError, Place};
use crate::load::images::{EncodedImages, Names, SourceKind, bad, error_at, too_large};
use crate::load::read_at::read_exact_at;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const MAGIC: u32 = 0xced7_230a;

/// Where a pack's bytes are: a local file, read by offset, or an object in a bucket with the
/// ranges fetched for the batch being read.
#[derive(Clone)]
enum Store {
    File(Arc<File>),
    #[cfg(feature = "remote")]
    Remote(
        Arc<crate::load::remote::object::RemoteObject>,
        Arc<std::sync::Mutex<Vec<(u64, bytes::Bytes)>>>,
    ),
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Store::File(_) => f.write_str("File"),
            #[cfg(feature = "remote")]
            Store::Remote(object, _) => write!(f, "Remote({})", object.url),
        }
    }
}

impl Store {
    /// Fills `buf` from byte `at`: a local file by `pread`, a remote object from the ranges
    /// fetched for the batch, else by a request of its own.
    fn read(&self, buf: &mut [u8], at: u64) -> Result<(), crate::load::LoadReason> {
        match self {
            Store::File(file) => Ok(read_exact_at(file, buf, at)?),
            #[cfg(feature = "remote")]
            Store::Remote(object, held) => {
                let end = at + buf.len() as u64;
                if let Ok(held) = held.lock()
                    && let Some((start, bytes)) = held
                        .iter()
                        .find(|(s, b)| *s <= at && end <= s + b.len() as u64)
                {
                    let from = (at - start) as usize;
                    buf.copy_from_slice(&bytes[from..from + buf.len()]);
                    return Ok(());
                }
                let bytes = object.fetch_one(at..end)?;
                buf.copy_from_slice(&bytes);
                Ok(())
            }
        }
    }
}
const HEADER: usize = 24;

/// An MXNet RecordIO pack of images: a `.rec` file and its `.idx` (lines `key\toffset`), as
/// `im2rec.py` writes them; the samples are the records in the index's order, read by their
/// offsets (random access, so they shuffle and shard as any dataset). Without an index the
/// file is scanned once, when opened.
///
/// Sources: `"image"` (the encoded image after the record's header) and `"label"` (the header's
/// label, or its `flag` labels for a multi-label record; a vector field of that width takes
/// them); other names with [`source_names`](Self::source_names).
///
/// Every length a record claims is checked against the file before it is read, and a record's
/// data against the image budget of the stream reading it.
///
/// ```
/// use batchspec::load::images::{EncodedImages, RecordIo};
/// let rec = RecordIo::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/images/rec/folder.rec"))?;
/// assert!(rec.len() > 10);
/// # Ok::<(), batchspec::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct RecordIo {
    path: PathBuf,
    store: Store,
    size: u64,
    // Each record's key and offset, in the index's order, and where its bytes end (the next
    // record's offset).
    records: Vec<(u64, u64)>,
    ends: Vec<u64>,
    // Labels from an image list instead of the records' headers (`path_imglist`), by key.
    listed: Option<std::sync::Arc<std::collections::HashMap<u64, Vec<f64>>>>,
    names: Names,
    fingerprint: u64,
}

impl RecordIo {
    /// Opens `rec` and its index, the file of the same name ending in `.idx` (or, without one,
    /// scans `rec` for its records).
    ///
    /// # Errors
    /// [`LoadError::File`] for a file that cannot be read, an index line that is not
    /// `key\toffset` or whose offset is past the end, or (scanning) a record that is not one.
    pub fn open(rec: impl AsRef<Path>) -> Result<Self, LoadError> {
        let rec = rec.as_ref();
        let idx = rec.with_extension("idx");
        if idx.exists() {
            Self::with_index(rec, idx)
        } else {
            let mut this = Self::unindexed(rec)?;
            this.records = this.scan()?;
            this.finish();
            Ok(this)
        }
    }

    /// Opens `rec` with the index `idx`.
    ///
    /// # Errors
    /// As [`open`](Self::open).
    pub fn with_index(rec: impl AsRef<Path>, idx: impl AsRef<Path>) -> Result<Self, LoadError> {
        let mut this = Self::unindexed(rec.as_ref())?;
        let idx = idx.as_ref();
        let text = std::fs::read_to_string(idx)
            .map_err(|e| error_at((idx.to_path_buf(), Place::File), "", e.into()))?;
        this.index(&text, idx)?;
        Ok(this)
    }

    /// A pack in a bucket: the `.rec` object at `rec` (`s3://bucket/train.rec`) and its index
    /// beside it (the same URL ending in `.idx`, fetched whole when opened), read through the
    /// remote reader (retries, timeouts, version checks, the cache of `options`). A stream
    /// fetches each batch's records before decoding them: their byte ranges by the index,
    /// several requests in flight, ranges close together by one.
    ///
    /// # Errors
    /// As [`open`](Self::open), and a URL the store cannot open or find.
    #[cfg(feature = "remote")]
    pub fn open_url(rec: &str, options: &crate::load::RemoteOptions) -> Result<Self, LoadError> {
        let object = |url: &str| crate::load::images::remote_object(url, options);
        let idx_url = format!("{}.idx", rec.strip_suffix(".rec").unwrap_or(rec));
        let (data, idx) = (object(rec)?, object(&idx_url)?);
        // An index line per record takes a dozen bytes or more: 1 GiB indexes 80 million.
        let text = crate::load::images::whole_object(
            &idx,
            1 << 30,
            "an index may take, read whole",
            None,
        )?;
        let mut this = RecordIo {
            path: PathBuf::from(rec),
            size: data.size,
            store: Store::Remote(data, Arc::new(std::sync::Mutex::new(Vec::new()))),
            records: Vec::new(),
            ends: Vec::new(),
            listed: None,
            names: Names::default(),
            fingerprint: 0,
        };
        this.index(&String::from_utf8_lossy(&text), Path::new(&idx_url))?;
        Ok(this)
    }

    /// Reads the index `text` (of the file `idx`, for errors): a record per line.
    fn index(&mut self, text: &str, idx: &Path) -> Result<(), LoadError> {
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = Place::Line {
                line: n as u64 + 1,
                column: None,
            };
            let fail =
                |message: String| error_at((idx.to_path_buf(), at.clone()), "", bad(message));
            let mut fields = line.split('\t');
            let parse = |field: Option<&str>| field.and_then(|f| f.trim().parse::<u64>().ok());
            let (Some(key), Some(offset)) = (parse(fields.next()), parse(fields.next())) else {
                return Err(fail(format!(
                    "`{line}` is not `key<TAB>offset` (two unsigned integers)"
                )));
            };
            if offset.saturating_add(8) > self.size {
                return Err(fail(format!(
                    "the offset {offset} is past the end of {} ({} bytes)",
                    self.path.display(),
                    self.size
                )));
            }
            self.records.push((key, offset));
        }
        self.finish();
        Ok(())
    }

    /// Where each record's bytes end (the next record's offset, or the end of the file), and
    /// the fingerprint.
    fn finish(&mut self) {
        let mut starts: Vec<u64> = self.records.iter().map(|r| r.1).collect();
        starts.sort_unstable();
        self.ends = self
            .records
            .iter()
            .map(|&(_, o)| {
                let next = starts.partition_point(|&s| s <= o);
                starts.get(next).copied().unwrap_or(self.size)
            })
            .collect();
        self.fingerprint = self.fingerprint_of();
    }

    fn unindexed(rec: &Path) -> Result<Self, LoadError> {
        let fail = |e: std::io::Error| error_at((rec.to_path_buf(), Place::File), "", e.into());
        let file = File::open(rec).map_err(fail)?;
        let size = file.metadata().map_err(fail)?.len();
        Ok(RecordIo {
            path: rec.to_path_buf(),
            store: Store::File(Arc::new(file)),
            size,
            records: Vec::new(),
            ends: Vec::new(),
            listed: None,
            names: Names::default(),
            fingerprint: 0,
        })
    }

    fn fingerprint_of(&self) -> u64 {
        let offsets: Vec<u8> = self
            .records
            .iter()
            .flat_map(|(k, o)| k.to_le_bytes().into_iter().chain(o.to_le_bytes()))
            .collect();
        fingerprint(&[
            self.path.to_string_lossy().as_bytes(),
            &self.size.to_le_bytes(),
            &offsets,
        ])
    }

    /// The records of an unindexed file, keys counting from 0.
    fn scan(&self) -> Result<Vec<(u64, u64)>, LoadError> {
        let mut records = Vec::new();
        let mut at = 0;
        while at < self.size {
            let start = at;
            loop {
                let (flag, len) = self.part_header(at, "")?;
                at += 8 + len.next_multiple_of(4);
                if flag == 0 || flag == 3 {
                    break;
                }
            }
            records.push((records.len() as u64, start));
        }
        Ok(records)
    }

    /// Takes the labels from the image list `lst` (`index\tlabel[\tlabel...]\tpath`, as
    /// `im2rec.py --list` writes it) instead of the records' headers, matched by the records'
    /// keys: `ImageRecordIter`'s `path_imglist`, how it reads several labels per image.
    ///
    /// # Errors
    /// [`LoadError::File`] for a list that cannot be read, a line that is not one, or a record
    /// whose key the list does not have (naming the first).
    pub fn with_list(mut self, lst: impl AsRef<Path>) -> Result<Self, LoadError> {
        let lst = lst.as_ref();
        let labels: std::collections::HashMap<u64, Vec<f64>> =
            crate::load::images::list::read_list(lst)?
                .into_iter()
                .map(|e| (e.index, e.labels))
                .collect();
        if let Some(&(key, offset)) = self.records.iter().find(|(k, _)| !labels.contains_key(k)) {
            return Err(error_at(
                (lst.to_path_buf(), Place::File),
                "",
                bad(format!(
                    "the list has no line for record {key} (at byte {offset} of {})",
                    self.path.display()
                )),
            ));
        }
        let mut bytes = Vec::new();
        for (k, _) in &self.records {
            bytes.extend(labels[k].iter().flat_map(|l| l.to_le_bytes()));
        }
        self.fingerprint = fingerprint(&[&self.fingerprint.to_le_bytes(), &bytes]);
        self.listed = Some(std::sync::Arc::new(labels));
        Ok(self)
    }

    /// Names the sources: `image` for the encoded image, `label` for the label(s) (by default
    /// `"image"` and `"label"`).
    pub fn source_names(mut self, image: &'static str, label: &'static str) -> Self {
        self.names = Names { image, label };
        self
    }

    /// The records' keys, in the samples' order.
    pub fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.records.iter().map(|r| r.0)
    }

    /// The flag and length of the part at `at`, checked against the file.
    fn part_header(&self, at: u64, source: &'static str) -> Result<(u32, u64), LoadError> {
        let fail = |reason| error_at((self.path.clone(), Place::Offset(at)), source, reason);
        let mut head = [0u8; 8];
        if at + 8 > self.size {
            return Err(fail(bad(format!(
                "a record's header would end at byte {}, past the end of the file ({} bytes)",
                at + 8,
                self.size
            ))));
        }
        self.store.read(&mut head, at).map_err(fail)?;
        let magic = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        if magic != MAGIC {
            return Err(fail(bad(format!(
                "no record starts here: the magic is {magic:#010x}, not {MAGIC:#010x}"
            ))));
        }
        let lrec = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
        let (flag, len) = (lrec >> 29, u64::from(lrec & ((1 << 29) - 1)));
        if flag > 3 {
            return Err(fail(bad(format!(
                "the record's continuation flag is {flag} (0 to 3)"
            ))));
        }
        if at + 8 + len > self.size {
            return Err(fail(bad(format!(
                "the record claims {len} bytes from byte {}, past the end of the file ({} bytes)",
                at + 8,
                self.size
            ))));
        }
        Ok((flag, len))
    }

    /// The data of sample `index`'s record (its parts joined, the magic put back between
    /// them), at most `limit` bytes.
    fn record(
        &self,
        index: usize,
        source: &'static str,
        limit: u64,
        out: &mut Vec<u8>,
    ) -> Result<(), LoadError> {
        out.clear();
        let start = self.records[index].1;
        let mut at = start;
        let mut part = 0;
        loop {
            let (flag, len) = self.part_header(at, source)?;
            let fail = |reason| error_at((self.path.clone(), Place::Offset(at)), source, reason);
            let expected = match part {
                0 => flag == 0 || flag == 1,
                _ => flag == 2 || flag == 3,
            };
            if !expected {
                return Err(fail(bad(format!(
                    "part {part} of the record at byte {start} has the continuation flag {flag}"
                ))));
            }
            if part > 0 {
                out.extend_from_slice(&MAGIC.to_le_bytes());
            }
            let total = out.len() as u64 + len;
            if total > limit {
                return Err(fail(too_large(total, limit)));
            }
            let from = out.len();
            out.resize(from + len as usize, 0);
            self.store.read(&mut out[from..], at + 8).map_err(fail)?;
            at += 8 + len.next_multiple_of(4);
            part += 1;
            if flag == 0 || flag == 3 {
                return Ok(());
            }
        }
    }

    /// The image record's header: its labels and where the image starts.
    fn header(
        &self,
        index: usize,
        source: &'static str,
        data: &[u8],
        labels: &mut Vec<f64>,
    ) -> Result<usize, LoadError> {
        let fail = |message: String| {
            error_at(
                (self.path.clone(), Place::Offset(self.records[index].1)),
                source,
                bad(message),
            )
        };
        if data.len() < HEADER {
            return Err(fail(format!(
                "the record holds {} bytes, less than an image record's 24-byte header",
                data.len()
            )));
        }
        let word = |i: usize| u32::from_le_bytes([data[i], data[i + 1], data[i + 2], data[i + 3]]);
        let flag = word(0) as usize;
        labels.clear();
        if flag == 0 {
            labels.push(f64::from(f32::from_bits(word(4))));
            return Ok(HEADER);
        }
        let end = flag
            .checked_mul(4)
            .and_then(|n| n.checked_add(HEADER))
            .filter(|&end| end <= data.len())
            .ok_or_else(|| {
                fail(format!(
                    "the header claims {flag} labels, more than the record's {} bytes hold",
                    data.len()
                ))
            })?;
        labels.extend((0..flag).map(|i| f64::from(f32::from_bits(word(HEADER + 4 * i)))));
        Ok(end)
    }
}

impl EncodedImages for RecordIo {
    fn len(&self) -> usize {
        self.records.len()
    }

    fn prefetch(&self, indices: &[usize]) -> Result<(), LoadError> {
        #[cfg(feature = "remote")]
        if let Store::Remote(object, held) = &self.store {
            let ranges: Vec<std::ops::Range<u64>> = indices
                .iter()
                .map(|&i| self.records[i].1..self.ends[i])
                .collect();
            let fetched = object
                .fetch(&ranges)
                .map_err(|r| error_at((self.path.clone(), Place::File), "", r))?;
            if let Ok(mut held) = held.lock() {
                *held = ranges.iter().map(|r| r.start).zip(fetched).collect();
            }
        }
        let _ = indices;
        Ok(())
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
        // The header and labels come before the image: at most 2^29 labels' bytes more.
        self.record(index, source, limit.saturating_add(1 << 20), out)?;
        let start = self.header(index, source, out, &mut Vec::new())?;
        out.drain(..start);
        Ok(())
    }

    fn read_labels(
        &self,
        index: usize,
        source: &'static str,
        out: &mut Vec<f64>,
    ) -> Result<(), LoadError> {
        if let Some(listed) = &self.listed {
            out.clear();
            out.extend_from_slice(&listed[&self.records[index].0]);
            return Ok(());
        }
        // The header's words are at the start of the record's first part; a multi-label
        // record's labels may run into a second part, so the record is read whole when they do.
        let start = self.records[index].1;
        let (_, len) = self.part_header(start, source)?;
        let mut head = vec![0u8; (len as usize).min(HEADER)];
        self.store
            .read(&mut head, start + 8)
            .map_err(|r| error_at((self.path.clone(), Place::Offset(start)), source, r))?;
        if head.len() == HEADER && head[..4] == [0, 0, 0, 0] {
            return self.header(index, source, &head, out).map(|_| ());
        }
        let mut data = Vec::new();
        self.record(index, source, self.size, &mut data)?;
        self.header(index, source, &data, out).map(|_| ())
    }

    fn place(&self, index: usize) -> (PathBuf, Place) {
        let (key, offset) = self.records[index];
        let _ = key;
        (self.path.clone(), Place::Offset(offset))
    }

    fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
}
