//! The bytes of one Parquet file wherever they are, as the checks and the `parquet` crate's
//! decoder read them (its `ChunkReader`): a local file, or (feature `remote`) an object of a
//! store read by byte ranges, with the ranges a read needs fetched before it starts (`held`), so
//! that the footer and page checks and the decoder read memory, not the network.

use bytes::Bytes;
use parquet::errors::ParquetError;
use parquet::file::reader::{ChunkReader, Length};
use std::fs::File;
use std::io::Read;
use std::sync::Arc;

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
    /// The file's bytes, opened afresh (a local file), or the object as listed.
    pub fn open(&self) -> Result<Part, LoadReason> {
        match self {
            Origin::Local(path) => Ok(Part::Local(Arc::new(open_regular(path)?))),
            #[cfg(feature = "remote")]
            Origin::Remote(object) => Ok(Part::Remote {
                object: Arc::clone(object),
                held: Arc::new([]),
            }),
        }
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
    Local(Arc<File>),
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
            Part::Local(file) => Ok(file.metadata()?.len()),
            #[cfg(feature = "remote")]
            Part::Remote { object, .. } => Ok(object.size),
        }
    }

    /// The `len` bytes from `start`, read whole.
    pub fn read_at(&self, start: u64, len: usize) -> std::io::Result<Bytes> {
        match self {
            Part::Local(file) => {
                let mut buffer = vec![0u8; len];
                read_exact_at(file, &mut buffer, start)?;
                Ok(buffer.into())
            }
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
            Part::Local(_) => self.clone(),
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
            Part::Local(file) => Ok(PartRead::Local(ChunkReader::get_read(&**file, start)?)),
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
            Part::Local(file) => ChunkReader::get_bytes(&**file, start, length),
            #[cfg(feature = "remote")]
            Part::Remote { .. } => self
                .read_at(start, length)
                .map_err(|e| ParquetError::External(Box::new(e))),
        }
    }
}
