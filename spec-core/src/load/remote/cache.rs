//! The bounded cache of remote byte ranges on local disk ([`RemoteOptions::cache`](crate::load::RemoteOptions::cache)).
//!
//! One file per range, named by a hash of its key (the object's URL, its version and the range)
//! and holding the key, so that a collision or a stray file is a miss, never wrong bytes. Several
//! processes may share the directory: an entry is written once, to a temporary name then renamed
//! (readers never see half of one), and every writer takes the directory's lock file before it
//! makes room and writes, so that the files of the directory, temporary ones included, never
//! exceed the limit. Eviction removes the least recently read entries first (a read touches the
//! entry's modification time). An entry larger than the whole limit is not kept: a cache smaller
//! than one shard still works, it only misses. A failing disk makes the cache miss, never the read
//! fail.

use bytes::Bytes;
use std::fs::File;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

const MAGIC: &[u8; 4] = b"BSC1";
const LOCK: &str = ".lock";
const SUFFIX: &str = ".range";

/// A directory of cached ranges, at most `limit` bytes.
#[derive(Debug)]
pub(crate) struct DiskCache {
    dir: PathBuf,
    limit: u64,
}

/// FNV-1a: the same name for the same key in every process and build.
fn hash(key: &str) -> u64 {
    key.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl DiskCache {
    pub fn new(dir: PathBuf, limit: u64) -> std::io::Result<Self> {
        std::fs::create_dir_all(&dir)?;
        Ok(DiskCache { dir, limit })
    }

    fn entry(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{:016x}{SUFFIX}", hash(key)))
    }

    fn header(key: &str) -> Vec<u8> {
        let mut head = MAGIC.to_vec();
        head.extend_from_slice(&(key.len() as u64).to_le_bytes());
        head.extend_from_slice(key.as_bytes());
        head
    }

    /// The bytes kept for `key`, if an entry of that key holds exactly `len` bytes.
    pub fn get(&self, key: &str, len: u64) -> Option<Bytes> {
        let path = self.entry(key);
        // An entry evicted by another process after this open stays readable through it.
        let mut file = File::open(&path).ok()?;
        let head = Self::header(key);
        let size = file.metadata().ok()?.len();
        if size != head.len() as u64 + len {
            return None;
        }
        let mut all = Vec::with_capacity(usize::try_from(size).ok()?);
        file.read_to_end(&mut all).ok()?;
        if all.len() as u64 != size || all[..head.len()] != head[..] {
            return None;
        }
        // Recently read: evicted last.
        let _ = file.set_modified(SystemTime::now());
        Some(Bytes::from(all).slice(head.len()..))
    }

    /// Keeps `bytes` for `key`, unless it is kept already or larger than the whole cache.
    pub fn put(&self, key: &str, bytes: &Bytes) {
        let _ = self.try_put(key, bytes);
    }

    fn try_put(&self, key: &str, bytes: &Bytes) -> std::io::Result<()> {
        let head = Self::header(key);
        let size = head.len() as u64 + bytes.len() as u64;
        if size > self.limit {
            return Ok(());
        }
        let path = self.entry(key);
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(self.dir.join(LOCK))?;
        lock.lock()?;
        if path.exists() {
            return Ok(());
        }
        self.make_room(size)?;
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let temp = self.dir.join(format!(
            ".tmp-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let written = (|| {
            let mut file = File::create(&temp)?;
            file.write_all(&head)?;
            file.write_all(bytes)?;
            std::fs::rename(&temp, &path)
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        // The lock is released when `lock` is dropped.
        written
    }

    /// Removes the least recently read entries until `size` more bytes fit in the limit. Every
    /// file of the directory counts (temporary files left by a process that died too).
    fn make_room(&self, size: u64) -> std::io::Result<()> {
        let mut entries = Vec::new();
        let mut total = 0u64;
        for entry in std::fs::read_dir(&self.dir)? {
            let entry = entry?;
            let Ok(meta) = entry.metadata() else { continue };
            if !meta.is_file() {
                continue;
            }
            total += meta.len();
            let name = entry.file_name();
            if name == LOCK {
                continue;
            }
            let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            entries.push((used, meta.len(), entry.path()));
        }
        entries.sort();
        let mut oldest = entries.into_iter();
        while total + size > self.limit {
            let Some((_, len, path)) = oldest.next() else {
                break;
            };
            if std::fs::remove_file(&path).is_ok() {
                total -= len;
            }
        }
        if total + size > self.limit {
            return Err(std::io::Error::other("no room in the cache"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir_bytes(dir: &std::path::Path) -> u64 {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().metadata().unwrap().len())
            .sum()
    }

    #[test]
    fn the_least_recently_read_go_first_and_the_limit_holds() {
        let dir = std::env::temp_dir().join(format!("batchspec-cache-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let head = DiskCache::header("k0").len() as u64;
        // Room for two entries of 40 bytes with their headers, not three.
        let cache = DiskCache::new(dir.clone(), 2 * (head + 40) + 10).unwrap();
        let bytes = |b: u8| Bytes::from(vec![b; 40]);
        cache.put("k0", &bytes(0));
        std::thread::sleep(std::time::Duration::from_millis(20));
        cache.put("k1", &bytes(1));
        std::thread::sleep(std::time::Duration::from_millis(20));
        // Reading k0 makes k1 the least recently read.
        assert_eq!(cache.get("k0", 40).unwrap(), bytes(0));
        std::thread::sleep(std::time::Duration::from_millis(20));
        cache.put("k2", &bytes(2));
        assert!(dir_bytes(&dir) <= 2 * (head + 40) + 10);
        assert!(cache.get("k1", 40).is_none(), "k1 evicted");
        assert_eq!(cache.get("k0", 40).unwrap(), bytes(0));
        assert_eq!(cache.get("k2", 40).unwrap(), bytes(2));
        // Another length asked for the same key is a miss, not other bytes.
        assert!(cache.get("k2", 39).is_none());
        // Larger than the whole cache: not kept, nothing evicted for it.
        cache.put("big", &Bytes::from(vec![7u8; 1000]));
        assert!(cache.get("big", 1000).is_none());
        assert!(cache.get("k0", 40).is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
