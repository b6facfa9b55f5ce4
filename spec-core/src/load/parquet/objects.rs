//! A [`ParquetFiles`] over objects of a store (feature `remote`): a URL opened and listed with a
//! local directory's rules, a directory's footers read side by side, and each load's column
//! chunks fetched before it decodes (`LeafSource::prepare`), several requests in flight.

use crate::load::error::{LoadError, LoadReason, Place};
use crate::load::load_error;
use crate::load::parquet::files::ParquetFiles;
use crate::load::parquet::listing::{SkipReason, Skipped, hidden, partition, refused};
use crate::load::parquet::part::Origin;
use crate::load::remote::{Listing, Opened, RemoteOptions, RemoteStats};
use crate::types::spec::Described;
use std::path::{Path, PathBuf};

impl RemoteOptions {
    /// The object at `url`, or the part files under the prefix `url` names (a URL ending in
    /// `/`, or one naming no object), as [`ParquetFiles`] reads them: with the rules of a local
    /// directory (hidden names and other files skipped and reported, Hive partition folders
    /// refused), in name order. Only the objects' listing is read here; the footers are read
    /// when first needed, each by one request for the object's last 64 KiB.
    ///
    /// # Errors
    /// A [`LoadError::File`] naming the URL when the store cannot be opened (a scheme whose
    /// feature is off, a malformed URL, missing settings), the listing fails, or the prefix
    /// holds no `.parquet` object.
    pub fn open(&self, url: &str) -> Result<ParquetFiles, LoadError> {
        let at = Path::new(url);
        let (opened, path) = Opened::new(url, self).map_err(|r| refused(at, r))?;
        let (objects, skipped) = match opened
            .list(path, url.ends_with('/'))
            .map_err(|r| refused(at, r))?
        {
            Listing::Object(object) => (vec![object], Vec::new()),
            Listing::Prefix { objects, folders } => {
                let name = |u: &str| {
                    u.trim_end_matches('/')
                        .rsplit('/')
                        .next()
                        .unwrap_or("")
                        .to_owned()
                };
                let mut entries: Vec<(String, Option<_>)> =
                    folders.into_iter().map(|f| (f, None)).collect();
                entries.extend(objects.into_iter().map(|o| (o.url.clone(), Some(o))));
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                let (mut read, mut skipped) = (Vec::new(), Vec::new());
                for (entry, object) in entries {
                    let (name, path) = (name(&entry), PathBuf::from(&entry));
                    let why = match (&object, partition(&name)) {
                        _ if hidden(&name) => Some(SkipReason::Hidden),
                        (None, Some(column)) => {
                            return Err(refused(
                                &path,
                                LoadReason::Partitioned {
                                    column: column.to_owned(),
                                },
                            ));
                        }
                        (None, None) => Some(SkipReason::Folder),
                        (Some(_), _) if !name.ends_with(".parquet") => Some(SkipReason::NotParquet),
                        (Some(_), _) => None,
                    };
                    match (why, object) {
                        (Some(why), _) => skipped.push(Skipped::new(path, why)),
                        (None, Some(object)) => read.push(object),
                        (None, None) => {}
                    }
                }
                if read.is_empty() {
                    return Err(refused(
                        at,
                        LoadReason::Parquet {
                            message: "the prefix holds no `.parquet` object (part files as Spark writes them: `part-*.parquet`)".into(),
                        },
                    ));
                }
                (read, skipped)
            }
        };
        let files = objects.iter().map(|o| PathBuf::from(&o.url)).collect();
        let origins = objects.into_iter().map(Origin::Remote).collect();
        Ok(ParquetFiles::listed(
            at.to_path_buf(),
            files,
            origins,
            skipped,
        ))
    }
}

/// `work` on each of `items`, 8 at a time on threads of their own (each a request, or a batch
/// of them, that waits on the network), the answers in the order of the items; `None` for one
/// that panicked (joined here, so that a panic stays in its thread rather than reach the
/// caller).
fn side_by_side<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<Option<R>> {
    let mut out = Vec::with_capacity(items.len());
    for some in items.chunks(8) {
        std::thread::scope(|s| {
            let handles: Vec<_> = some.iter().map(|item| s.spawn(|| work(item))).collect();
            out.extend(handles.into_iter().map(|h| h.join().ok()));
        });
    }
    out
}

impl ParquetFiles {
    /// Reads the footers of the remote files not read yet, up to 8 at once: each is a request,
    /// and a directory of many part files would otherwise wait for them one after another.
    /// Errors are left to the reads that follow, which report the first in file order.
    pub(super) fn warm_footers(&self) {
        let cold: Vec<usize> = (0..self.files.len())
            .filter(|&f| {
                matches!(self.origins.get(f), Some(Origin::Remote(_)))
                    && self.footers[f].get().is_none()
            })
            .collect();
        if cold.len() > 1 {
            side_by_side(&cold, |&f| {
                let _ = self.builder(f);
            });
        }
    }

    /// Fetches the column chunks every leaf of a load will read from the remote files (the
    /// `LeafSource::prepare` of a `ParquetFiles`): each file's by one batch of requests in
    /// flight together, the files side by side; they are let go after the load's last leaf.
    pub(super) fn fetch_load(&mut self, leaves: &[Described]) -> Result<(), LoadError> {
        self.warm_footers();
        let columns: Vec<String> = leaves.iter().map(|l| self.column_of(l.source)).collect();
        let mut wanted: std::collections::BTreeMap<usize, Vec<std::ops::Range<u64>>> =
            std::collections::BTreeMap::new();
        for (f, group) in self.reads() {
            let Some(Origin::Remote(object)) = self.origins.get(f) else {
                continue;
            };
            let fail = |reason| load_error(&self.files[f], Place::File, &leaves[0], reason);
            let (builder, _) = self.builder(f).map_err(fail)?;
            let meta = builder.metadata();
            let schema = builder.parquet_schema();
            let roots: Vec<usize> = columns
                .iter()
                .filter_map(|c| {
                    crate::load::parquet::decode::find_column(builder.schema(), c)
                        .ok()
                        .map(|(i, _)| i)
                })
                .collect();
            let groups: Vec<usize> = match group {
                Some(g) => vec![g.index],
                None => (0..meta.num_row_groups()).collect(),
            };
            let ranges = wanted.entry(f).or_default();
            for g in groups {
                let Some(rg) = meta.row_groups().get(g) else {
                    continue;
                };
                for (c, chunk) in rg.columns().iter().enumerate() {
                    if !roots.contains(&schema.get_column_root_idx(c)) {
                        continue;
                    }
                    let start = chunk
                        .dictionary_page_offset()
                        .unwrap_or(chunk.data_page_offset());
                    // `check_chunks` placed every chunk inside the object with the footer.
                    if let (Ok(start), Ok(len)) =
                        (u64::try_from(start), u64::try_from(chunk.compressed_size()))
                        && start + len <= object.size
                    {
                        ranges.push(start..start + len);
                    }
                }
            }
        }
        // Each chunk once (two leaves of one column, a row group selected twice), in the order
        // the held ranges are searched in.
        let wanted: Vec<(usize, Vec<std::ops::Range<u64>>)> = wanted
            .into_iter()
            .map(|(f, mut ranges)| {
                ranges.sort_by_key(|r| (r.start, r.end));
                ranges.dedup();
                (f, ranges)
            })
            .collect();
        // The files' fetches side by side (each file's own requests in flight together too);
        // the first error in file order is reported.
        let fetched = side_by_side(&wanted, |(f, ranges)| match self.origins.get(*f) {
            Some(Origin::Remote(object)) => Some(object.fetch(ranges)),
            _ => None,
        });
        for ((f, ranges), got) in wanted.iter().zip(fetched) {
            let fail = |r| load_error(&self.files[*f], Place::File, &leaves[0], r);
            let bytes = match got {
                Some(Some(got)) => got.map_err(fail)?,
                Some(None) => continue,
                None => {
                    return Err(fail(LoadReason::Remote {
                        range: None,
                        message: "the fetch of the file's ranges panicked".into(),
                    }));
                }
            };
            self.held
                .insert(*f, ranges.iter().map(|r| r.start).zip(bytes).collect());
        }
        self.pending = leaves.len();
        Ok(())
    }

    /// What the reads of remote files opened together have cost so far (requests, bytes, cache
    /// hits), counted over every copy and stream made from them; zeros for local files.
    pub fn remote_stats(&self) -> RemoteStats {
        self.origins
            .iter()
            .find_map(|o| match o {
                Origin::Remote(object) => Some(RemoteStats::from(&*object.counters)),
                Origin::Local(_) => None,
            })
            .unwrap_or_default()
    }
}
