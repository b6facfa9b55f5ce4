//! Positioned reads of local files, shared by the Parquet and image readers.

use std::fs::File;

/// Reads `buffer.len()` bytes of `file` from `start`, without moving a shared cursor (`pread` on
/// Unix: no handle cloned, no seek).
#[cfg(unix)]
pub(crate) fn read_exact_at(file: &File, buffer: &mut [u8], start: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buffer, start)
}

#[cfg(not(unix))]
pub(crate) fn read_exact_at(file: &File, buffer: &mut [u8], start: u64) -> std::io::Result<()> {
    use std::io::{Seek, SeekFrom};
    let mut reader = file.try_clone()?;
    reader.seek(SeekFrom::Start(start))?;
    std::io::Read::read_exact(&mut reader, buffer)
}
