//! The bytes of one Parquet file wherever they are, as the checks and the `parquet` crate's
//! decoder read them (its `ChunkReader`): a local file, whose pages are read into memory kept
//! from page to page ([`PagePool`]), or (feature `remote`) an object of a store read by byte
//! ranges, with the ranges a read needs fetched before it starts (`held`), so that the footer and
//! page checks and the decoder read memory, not the network.

use bytes::Bytes;
use parquet::errors::ParquetError;
use parquet::file::reader::{ChunkReader, Length};
use std::fs::File;
use std::io::Read;
use std::sync::{Arc, Mutex, Weak};

use crate::load::error::LoadReason;
use crate::load::read_at::read_exact_at;
#[cfg(feature = "remote")]
use crate::load::remote::object::RemoteObject;
use std::path::PathBuf;

/// Where a file of a [`ParquetFiles`](crate::load::ParquetFiles) is.
#[derive(Clone, Debug)]
pub(crate) enum Origin {
    Local(PathBuf),
    #[cfg(feature = "remote")]
    Remote(Arc<RemoteObject>),
}

impl Origin {
    /// The file's bytes, opened afresh (a local file, whose pages are read into memory of
    /// `pages`), or the object as listed.
    pub fn open(&self, pages: &Arc<PagePool>) -> Result<Part, LoadReason> {
        #[cfg(not(feature = "remote"))]
        let Origin::Local(path) = self;
        #[cfg(feature = "remote")]
        let path = match self {
            Origin::Local(path) => path,
            Origin::Remote(object) => {
                return Ok(Part::Remote {
                    object: Arc::clone(object),
                    held: Arc::new([]),
                });
            }
        };
        Ok(Part::Local {
            file: Arc::new(open_regular(path)?),
            pages: Arc::clone(pages),
        })
    }
}

/// Opens a file that is still a regular file: one swapped for a FIFO since the directory was
/// listed would block `open` forever.
fn open_regular(path: &std::path::Path) -> Result<std::fs::File, LoadReason> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(LoadReason::Parquet {
            message: "the path is no longer a regular file (it was when the directory was listed)"
                .into(),
        });
    }
    Ok(std::fs::File::open(path)?)
}

/// One file's bytes.
#[derive(Clone, Debug)]
pub(crate) enum Part {
    Local {
        file: Arc<File>,
        pages: Arc<PagePool>,
    },
    #[cfg(feature = "remote")]
    Remote {
        object: Arc<RemoteObject>,
        // Ranges fetched for the read at hand, each `(start, bytes)`, in the order of their
        // starts, not overlapping (shared by every reader of the load: never copied).
        held: Arc<[(u64, Bytes)]>,
    },
}

impl Part {
    /// The file's length in bytes.
    pub fn size(&self) -> std::io::Result<u64> {
        match self {
            Part::Local { file, .. } => Ok(file.metadata()?.len()),
            #[cfg(feature = "remote")]
            Part::Remote { object, .. } => Ok(object.size),
        }
    }

    /// The `len` bytes from `start`, read whole.
    pub fn read_at(&self, start: u64, len: usize) -> std::io::Result<Bytes> {
        match self {
            Part::Local { file, pages } => pages.read(file, start, len),
            #[cfg(feature = "remote")]
            Part::Remote { object, held } => {
                let end = start.saturating_add(len as u64);
                if let Some(bytes) = within(held, start, end) {
                    return Ok(bytes);
                }
                object
                    .fetch_one(start..end)
                    .map_err(|reason| std::io::Error::other(reason.to_string()))
            }
        }
    }

    /// The same part holding the ranges `more` (fetched for a read: sorted by start, not
    /// overlapping), as well as its own.
    #[cfg(feature = "remote")]
    pub fn holding(&self, more: Arc<[(u64, Bytes)]>) -> Part {
        match self {
            Part::Local { .. } => self.clone(),
            Part::Remote { object, held } => {
                let held = if held.is_empty() {
                    more
                } else {
                    let mut all: Vec<(u64, Bytes)> =
                        held.iter().chain(more.iter()).cloned().collect();
                    all.sort_by_key(|(start, _)| *start);
                    all.into()
                };
                Part::Remote {
                    object: Arc::clone(object),
                    held,
                }
            }
        }
    }
}

/// The held range that starts last at or before `at`, if any (the only one that can hold it:
/// the ranges are sorted and do not overlap).
#[cfg(feature = "remote")]
fn holder(held: &[(u64, Bytes)], at: u64) -> Option<&(u64, Bytes)> {
    let k = held.partition_point(|(start, _)| *start <= at);
    k.checked_sub(1).map(|k| &held[k])
}

/// The bytes `start..end` when one held range covers them.
#[cfg(feature = "remote")]
fn within(held: &[(u64, Bytes)], start: u64, end: u64) -> Option<Bytes> {
    let (at, bytes) = holder(held, start)?;
    let stop = at + bytes.len() as u64;
    (end <= stop).then(|| bytes.slice((start - at) as usize..(end - at) as usize))
}

impl Length for Part {
    fn len(&self) -> u64 {
        self.size().unwrap_or(0)
    }
}

/// A sequential reader of a part from an offset: a local file's, or a remote object's, served
/// from the held ranges and fetched 64 KiB at a time past them.
pub(crate) enum PartRead {
    Local(std::io::BufReader<File>),
    #[cfg(feature = "remote")]
    Remote {
        part: Part,
        at: u64,
        buffer: Bytes,
    },
}

impl Read for PartRead {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        match self {
            PartRead::Local(reader) => reader.read(out),
            #[cfg(feature = "remote")]
            PartRead::Remote { part, at, buffer } => {
                if buffer.is_empty() {
                    let Part::Remote { object, held } = &*part else {
                        return Ok(0);
                    };
                    if *at >= object.size {
                        return Ok(0);
                    }
                    *buffer = match holder(held, *at).filter(|(s, b)| *at < s + b.len() as u64) {
                        Some((s, b)) => b.slice((*at - s) as usize..),
                        None => {
                            let len = (object.size - *at).min(64 << 10) as usize;
                            part.read_at(*at, len)?
                        }
                    };
                }
                let n = out.len().min(buffer.len());
                out[..n].copy_from_slice(&buffer[..n]);
                *buffer = buffer.slice(n..);
                *at += n as u64;
                Ok(n)
            }
        }
    }
}

impl ChunkReader for Part {
    type T = PartRead;

    fn get_read(&self, start: u64) -> Result<PartRead, ParquetError> {
        match self {
            Part::Local { file, .. } => Ok(PartRead::Local(ChunkReader::get_read(&**file, start)?)),
            #[cfg(feature = "remote")]
            Part::Remote { .. } => Ok(PartRead::Remote {
                part: self.clone(),
                at: start,
                buffer: Bytes::new(),
            }),
        }
    }

    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes, ParquetError> {
        match self {
            Part::Local { file, pages } => {
                pages.read(file, start, length).map_err(|e| match e.kind() {
                    std::io::ErrorKind::UnexpectedEof => {
                        ParquetError::EOF(format!("expected {length} bytes at byte {start}: {e}"))
                    }
                    _ => ParquetError::External(Box::new(e)),
                })
            }
            #[cfg(feature = "remote")]
            Part::Remote { .. } => self
                .read_at(start, length)
                .map_err(|e| ParquetError::External(Box::new(e))),
        }
    }
}

/// Memory that a local file's pages are read into, kept from one page to the next (shared by
/// the copies of a [`ParquetFiles`](crate::load::ParquetFiles), and by the windows a stream
/// reads at once): a buffer comes back when the decoder drops the page read into it, and the
/// next page is read into memory already mapped (and most likely in cache), where a buffer of
/// its own for each page was mapped and page-faulted afresh by the allocator (most of a
/// one-thread stream's page faults, measured). At most [`PAGES_KEPT`] buffers of at most
/// [`PAGE_KEPT_BYTES`] each are kept.
#[derive(Debug)]
pub(crate) struct PagePool {
    kept: Mutex<Vec<Vec<u8>>>,
    // Itself, for the buffers it lends to come back to while it lives.
    this: Weak<PagePool>,
}

/// The most buffers a [`PagePool`] keeps: a page and a dictionary page for each of a few
/// windows read at once.
pub(crate) const PAGES_KEPT: usize = 8;
/// The largest buffer a [`PagePool`] keeps (pages are a megabyte or so as writers make them).
pub(crate) const PAGE_KEPT_BYTES: usize = 8 << 20;

impl PagePool {
    pub fn new() -> Arc<Self> {
        Arc::new_cyclic(|this| PagePool {
            kept: Mutex::new(Vec::new()),
            this: this.clone(),
        })
    }

    /// The `len` bytes from `start` of `file`, read whole into a kept buffer.
    fn read(&self, file: &File, start: u64, len: usize) -> std::io::Result<Bytes> {
        let mut buffer = self.take(len);
        read_exact_at(file, &mut buffer.bytes[..len], start)?;
        buffer.len = len;
        Ok(Bytes::from_owner(buffer))
    }

    /// A buffer of at least `n` bytes: the smallest kept one that holds them, or a new one.
    fn take(&self, n: usize) -> Pooled {
        let kept = self.kept.lock().ok().and_then(|mut kept| {
            let (at, _) = kept
                .iter()
                .enumerate()
                .filter(|(_, b)| b.len() >= n)
                .min_by_key(|(_, b)| b.len())?;
            Some(kept.swap_remove(at))
        });
        Pooled {
            // Every byte of a buffer is initialized (zeroed when it is made); a read overwrites
            // the first `n`, and the page lent out is those `n` alone.
            bytes: kept.unwrap_or_else(|| vec![0u8; n]),
            len: 0,
            pool: self.this.clone(),
        }
    }

    /// Keeps `bytes` for a page to come, unless it is larger than [`PAGE_KEPT_BYTES`]; past
    /// [`PAGES_KEPT`], the smallest buffer kept is freed.
    fn put(&self, bytes: Vec<u8>) {
        if bytes.len() > PAGE_KEPT_BYTES {
            return;
        }
        let Ok(mut kept) = self.kept.lock() else {
            return;
        };
        kept.push(bytes);
        if kept.len() > PAGES_KEPT
            && let Some((smallest, _)) = kept.iter().enumerate().min_by_key(|(_, b)| b.len())
        {
            kept.swap_remove(smallest);
        }
    }
}

/// A buffer lent by a [`PagePool`], holding a page in its first `len` bytes; it goes back to
/// the pool when the last slice of the page is dropped.
struct Pooled {
    bytes: Vec<u8>,
    len: usize,
    pool: Weak<PagePool>,
}

impl AsRef<[u8]> for Pooled {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl Drop for Pooled {
    fn drop(&mut self) {
        if let Some(pool) = self.pool.upgrade() {
            pool.put(std::mem::take(&mut self.bytes));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A local part of a file holding `bytes`.
    fn local(bytes: &[u8], pages: &Arc<PagePool>) -> (tempfile::TempDir, Part) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("part.bin");
        std::fs::write(&path, bytes).unwrap();
        let part = Origin::Local(path).open(pages).unwrap();
        (dir, part)
    }

    #[test]
    fn pages_are_the_files_bytes_in_memory_used_again() {
        let data: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 251) as u8).collect();
        let pages = PagePool::new();
        let (_dir, part) = local(&data, &pages);
        let first = part.get_bytes(100, 3000).unwrap();
        assert_eq!(&first[..], &data[100..3100]);
        let at = first.as_ptr();
        drop(first);
        // A smaller page later in the file: read into the buffer the first came back in, and
        // exactly its own bytes, none of the first's past them.
        let second = part.get_bytes(2000, 1000).unwrap();
        assert_eq!(second.as_ptr(), at, "the buffer given back is used again");
        assert_eq!(second.len(), 1000);
        assert_eq!(&second[..], &data[2000..3000]);
        // Held by the decoder: the next page is read into another buffer.
        let third = part.get_bytes(0, 1000).unwrap();
        assert_ne!(third.as_ptr(), at);
        assert_eq!(&third[..], &data[..1000]);
        assert_eq!(
            &second[..],
            &data[2000..3000],
            "a page held is not written over"
        );
        // A slice outliving its page keeps the buffer from the pool.
        let tail = second.slice(500..);
        drop(second);
        let fourth = part.get_bytes(3000, 1000).unwrap();
        assert_ne!(fourth.as_ptr(), at);
        assert_eq!(&tail[..], &data[2500..3000]);
        assert_eq!(&fourth[..], &data[3000..4000]);
    }

    #[test]
    fn a_page_past_the_end_of_the_file_is_an_error() {
        let pages = PagePool::new();
        let (_dir, part) = local(&[1, 2, 3, 4], &pages);
        let err = part.get_bytes(2, 10).unwrap_err();
        assert!(
            matches!(err, ParquetError::EOF(ref m) if m.contains("expected 10 bytes at byte 2")),
            "{err}"
        );
        assert_eq!(&part.get_bytes(1, 3).unwrap()[..], &[2, 3, 4]);
    }

    #[test]
    fn the_pool_keeps_few_buffers_and_none_too_large() {
        let pool = PagePool::new();
        for n in 1..=PAGES_KEPT + 3 {
            pool.put(vec![0; n]);
        }
        let kept: Vec<usize> = pool.kept.lock().unwrap().iter().map(Vec::len).collect();
        assert_eq!(kept.len(), PAGES_KEPT);
        assert!(
            kept.iter().all(|&n| n > 3),
            "the smallest are let go: {kept:?}"
        );
        pool.put(vec![0; PAGE_KEPT_BYTES + 1]);
        assert_eq!(pool.kept.lock().unwrap().len(), PAGES_KEPT);
        // The smallest buffer that holds a page is lent (4 to 11 bytes are kept); a page larger
        // than any gets one of its own.
        assert_eq!(pool.take(5).bytes.len(), 5);
        assert_eq!(pool.take(12).bytes.len(), 12);
    }
}
