//! WebDataset tar shards: samples are runs of members sharing a key.

use crate::data::state::fingerprint;
use crate::load::error::{LoadError, Place};
use crate::load::images::{EncodedImages, SourceKind, bad, error_at, too_large};
use crate::load::read_at::read_exact_at;
use std::collections::BTreeSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The members taken for the source `"image"`, in this order of preference.
const IMAGE_MEMBERS: [&str; 4] = ["jpg", "jpeg", "png", "webp"];
/// The members taken for the source `"label"`.
const LABEL_MEMBERS: [&str; 2] = ["cls", "label"];

#[derive(Clone)]
struct Shard {
    path: PathBuf,
    data: Data,
}

/// Where a shard's bytes are: a local file read by offset, or the whole shard in memory (a
/// shard fetched from a bucket).
#[derive(Clone)]
enum Data {
    File(Arc<File>),
    Memory(Arc<dyn AsRef<[u8]> + Send + Sync>),
}

impl std::fmt::Debug for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shard")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

#[derive(Clone, Debug)]
struct Member {
    ext: String,
    offset: u64,
    size: u64,
}

#[derive(Clone, Debug)]
struct Sample {
    shard: usize,
    key: String,
    members: Vec<Member>,
}

/// WebDataset tar shards (the format of LAION and most image-text sets): each sample is a run of
/// members named `<key>.<ext>` (`images/0001.jpg`, `images/0001.cls`, `images/0001.json`), the
/// key being the member's path up to the first dot of its file name, a new sample starting
/// where the key changes. The shards are indexed when opened (their headers are read, PAX
/// headers included, no member's data), so the samples are read by offset, shuffle and shard as
/// any dataset (every sample once per epoch over the ranks); [`ShardStream`] reads shards as
/// WebDataset does instead (shards dealt whole, a shuffle buffer), for shards too many to
/// index and shards in a bucket.
///
/// Sources: a member's extension (`"jpg"`, `"seg.png"`, `"cls"`) names the source of that
/// member; `"image"` is the sample's `jpg`, `jpeg`, `png` or `webp` member, `"label"` its `cls`
/// or `label` member. Members ending in `jpg`, `jpeg`, `png` or `webp` are images, others are
/// labels: ASCII numbers separated by white space or commas (`.cls` holds one class index). A
/// stream checks when it is made that every sample has each member it reads.
///
/// [`ShardStream`]: crate::load::images::ShardStream
///
/// ```
/// use batchspec::load::images::{EncodedImages, WebDataset};
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/images/wds");
/// let shards = WebDataset::open(format!("{dir}/shard-{{000000..000002}}.tar"))?;
/// assert_eq!(shards.shards().len(), 3);
/// # Ok::<(), batchspec::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct WebDataset {
    shards: Vec<Shard>,
    samples: Vec<Sample>,
    fingerprint: u64,
}

impl WebDataset {
    /// Opens the shards a path names, with WebDataset's brace patterns:
    /// `shard-{000000..000099}.tar` (a range, its numbers padded to the width written) and
    /// `{train,extra}-0.tar` (a list).
    ///
    /// # Errors
    /// As [`from_paths`](Self::from_paths), and for a pattern that is not one.
    pub fn open(pattern: impl AsRef<str>) -> Result<Self, LoadError> {
        Self::from_paths(expand_pattern(pattern.as_ref())?)
    }

    /// Opens the shards `paths`, in this order.
    ///
    /// # Errors
    /// [`LoadError::File`] for a shard that cannot be read, is not a tar file, or holds a member
    /// whose size runs past its end.
    pub fn from_paths<P: AsRef<Path>>(
        paths: impl IntoIterator<Item = P>,
    ) -> Result<Self, LoadError> {
        let mut this = WebDataset {
            shards: Vec::new(),
            samples: Vec::new(),
            fingerprint: 0,
        };
        let mut hash = Vec::new();
        for path in paths {
            let path = path.as_ref().to_path_buf();
            let io = |e: std::io::Error| error_at((path.clone(), Place::File), "", e.into());
            let file = File::open(&path).map_err(io)?;
            let size = file.metadata().map_err(io)?.len();
            this.index(&file, size, &path, &mut hash)?;
            this.shards.push(Shard {
                path,
                data: Data::File(Arc::new(file)),
            });
        }
        this.fingerprint = fingerprint(&[&hash]);
        Ok(this)
    }

    /// One shard held in memory (fetched from a bucket, or made by a program), named `name` in
    /// errors.
    ///
    /// # Errors
    /// As [`from_paths`](Self::from_paths).
    pub fn from_memory(
        name: impl Into<PathBuf>,
        bytes: impl AsRef<[u8]> + Send + Sync + 'static,
    ) -> Result<Self, LoadError> {
        let path = name.into();
        let mut this = WebDataset {
            shards: Vec::new(),
            samples: Vec::new(),
            fingerprint: 0,
        };
        let mut hash = Vec::new();
        let size = bytes.as_ref().len() as u64;
        this.index(std::io::Cursor::new(bytes.as_ref()), size, &path, &mut hash)?;
        this.shards.push(Shard {
            path,
            data: Data::Memory(Arc::new(bytes)),
        });
        this.fingerprint = fingerprint(&[&hash]);
        Ok(this)
    }

    /// Reads the member headers of a shard of `size` bytes (the next shard), adding its
    /// samples.
    fn index<R: std::io::Read + std::io::Seek>(
        &mut self,
        reader: R,
        size: u64,
        path: &Path,
        hash: &mut Vec<u8>,
    ) -> Result<(), LoadError> {
        let fail =
            |place: Place, message: String| error_at((path.to_path_buf(), place), "", bad(message));
        let io = |e: std::io::Error| error_at((path.to_path_buf(), Place::File), "", e.into());
        let shard = self.shards.len();
        let mut archive = tar::Archive::new(reader);
        let entries = archive.entries_with_seek().map_err(io)?;
        let mut last_key: Option<String> = None;
        for entry in entries {
            let entry =
                entry.map_err(|e| fail(Place::File, format!("not a readable tar file: {e}")))?;
            let offset = entry.raw_file_position();
            if !entry.header().entry_type().is_file() {
                continue;
            }
            let name = entry
                .path()
                .map_err(|e| {
                    fail(
                        Place::Offset(offset),
                        format!("a member's name is unreadable: {e}"),
                    )
                })?
                .to_string_lossy()
                .into_owned();
            let member_size = entry.size();
            if offset.checked_add(member_size).is_none_or(|end| end > size) {
                return Err(fail(
                    Place::Member {
                        name,
                        offset: Some(offset),
                    },
                    format!(
                        "the member claims {member_size} bytes from byte {offset}, past the end of the shard ({size} bytes)"
                    ),
                ));
            }
            // WebDataset's split: the key is the path up to the first dot of the file name.
            let (dir, base) = match name.rfind('/') {
                Some(i) => (&name[..=i], &name[i + 1..]),
                None => ("", name.as_str()),
            };
            if base.starts_with('.') || base.starts_with("__") {
                continue;
            }
            let Some(dot) = base.find('.') else {
                continue;
            };
            let key = format!("{dir}{}", &base[..dot]);
            // WebDataset reads extensions in lower case (`x.JPG` is a `jpg` member).
            let ext = base[dot + 1..].to_lowercase();
            hash.extend_from_slice(name.as_bytes());
            hash.extend_from_slice(&member_size.to_le_bytes());
            let member = Member {
                ext,
                offset,
                size: member_size,
            };
            match (last_key.as_deref(), self.samples.last_mut()) {
                (Some(k), Some(sample)) if k == key => sample.members.push(member),
                _ => {
                    self.samples.push(Sample {
                        shard,
                        key: key.clone(),
                        members: vec![member],
                    });
                    last_key = Some(key);
                }
            }
        }
        Ok(())
    }

    /// The shards, in order.
    pub fn shards(&self) -> Vec<&Path> {
        self.shards.iter().map(|s| s.path.as_path()).collect()
    }

    /// The samples' keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.samples.iter().map(|s| s.key.as_str())
    }

    /// The member of sample `index` read for `source`.
    fn member(&self, index: usize, source: &str) -> Option<&Member> {
        let members = &self.samples[index].members;
        let by = |ext: &str| members.iter().find(|m| m.ext == ext);
        match source {
            "image" if by("image").is_none() => IMAGE_MEMBERS.iter().find_map(|e| by(e)),
            "label" if by("label").is_none() => LABEL_MEMBERS.iter().find_map(|e| by(e)),
            other => by(other),
        }
    }

    fn read_member(
        &self,
        index: usize,
        source: &'static str,
        limit: u64,
        out: &mut Vec<u8>,
    ) -> Result<(), LoadError> {
        let (path, place) = self.place(index);
        let member = self.member(index, source).ok_or_else(|| {
            error_at(
                (path.clone(), place.clone()),
                source,
                bad(format!(
                    "the sample has no member for source `{source}` (it has {})",
                    self.samples[index]
                        .members
                        .iter()
                        .map(|m| format!("`.{}`", m.ext))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            )
        })?;
        let at = Place::Member {
            name: format!("{}.{}", self.samples[index].key, member.ext),
            offset: Some(member.offset),
        };
        if member.size > limit {
            return Err(error_at((path, at), source, too_large(member.size, limit)));
        }
        out.clear();
        let shard = &self.shards[self.samples[index].shard];
        match &shard.data {
            Data::File(file) => {
                out.resize(member.size as usize, 0);
                read_exact_at(file, out, member.offset)
                    .map_err(|e| error_at((path, at), source, e.into()))
            }
            Data::Memory(bytes) => {
                // Checked against the shard's length when it was indexed.
                let (from, to) = (
                    member.offset as usize,
                    (member.offset + member.size) as usize,
                );
                out.extend_from_slice(&bytes.as_ref().as_ref()[from..to]);
                Ok(())
            }
        }
    }
}

impl EncodedImages for WebDataset {
    fn len(&self) -> usize {
        self.samples.len()
    }

    fn kind(&self, source: &str) -> Option<SourceKind> {
        let present = |ext: &str| {
            self.samples
                .iter()
                .any(|s| s.members.iter().any(|m| m.ext == ext))
        };
        (matches!(source, "image" | "label") || present(source)).then(|| member_kind(source))
    }

    fn sources(&self) -> Vec<String> {
        let mut exts: BTreeSet<&str> = BTreeSet::new();
        for s in &self.samples {
            exts.extend(s.members.iter().map(|m| m.ext.as_str()));
        }
        ["image", "label"]
            .into_iter()
            .chain(exts)
            .map(str::to_owned)
            .collect()
    }

    fn read_image(
        &self,
        index: usize,
        source: &'static str,
        limit: u64,
        out: &mut Vec<u8>,
    ) -> Result<(), LoadError> {
        self.read_member(index, source, limit, out)
    }

    fn read_labels(
        &self,
        index: usize,
        source: &'static str,
        out: &mut Vec<f64>,
    ) -> Result<(), LoadError> {
        let mut text = Vec::new();
        // A label member is a few numbers: 1 MiB is plenty.
        self.read_member(index, source, 1 << 20, &mut text)?;
        out.clear();
        let text = String::from_utf8_lossy(&text);
        for word in text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
        {
            let value = word.parse::<f64>().map_err(|_| {
                let (path, place) = self.place(index);
                error_at(
                    (path, place),
                    source,
                    bad(format!("the label member holds `{word}`, not a number")),
                )
            })?;
            out.push(value);
        }
        Ok(())
    }

    fn place(&self, index: usize) -> (PathBuf, Place) {
        let sample = &self.samples[index];
        (
            self.shards[sample.shard].path.clone(),
            Place::Member {
                name: sample.key.clone(),
                offset: sample.members.first().map(|m| m.offset),
            },
        )
    }

    fn check_source(&self, source: &'static str) -> Result<(), LoadError> {
        match (0..self.samples.len()).find(|&i| self.member(i, source).is_none()) {
            None => Ok(()),
            Some(i) => {
                let mut nothing = Vec::new();
                self.read_member(i, source, 0, &mut nothing)
            }
        }
    }

    fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
}

/// What a member read for `source` holds, by its name alone: `"image"` and members ending in
/// `jpg`, `jpeg`, `png` or `webp` are images, others labels.
pub(crate) fn member_kind(source: &str) -> SourceKind {
    let image = IMAGE_MEMBERS
        .iter()
        .any(|i| source == *i || source.ends_with(&format!(".{i}")));
    if source == "image" || (source != "label" && image) {
        SourceKind::Image
    } else {
        SourceKind::Labels
    }
}

/// The paths or URLs a brace pattern names, or the error naming the pattern.
pub(crate) fn expand_pattern(pattern: &str) -> Result<Vec<String>, LoadError> {
    expand(pattern).map_err(|m| error_at((PathBuf::from(pattern), Place::File), "", bad(m)))
}

/// Expands WebDataset's brace patterns: `{000..099}` (numbers padded to the width of the first)
/// and `{a,b}`, several of them in one path.
pub(crate) fn expand(pattern: &str) -> Result<Vec<String>, String> {
    let Some(open) = pattern.find('{') else {
        return Ok(vec![pattern.to_owned()]);
    };
    let close = pattern[open..]
        .find('}')
        .map(|i| open + i)
        .ok_or_else(|| format!("the pattern `{pattern}` opens a brace it does not close"))?;
    let (head, body, tail) = (
        &pattern[..open],
        &pattern[open + 1..close],
        &pattern[close + 1..],
    );
    let choices: Vec<String> = if let Some((a, b)) = body.split_once("..") {
        let (lo, hi) = match (a.parse::<u64>(), b.parse::<u64>()) {
            (Ok(lo), Ok(hi)) if lo <= hi && hi - lo < 10_000_000 => (lo, hi),
            _ => {
                return Err(format!(
                    "the range `{{{body}}}` of `{pattern}` is not `{{first..last}}` with first ≤ last"
                ));
            }
        };
        let width = a.len();
        (lo..=hi).map(|n| format!("{n:0width$}")).collect()
    } else {
        body.split(',').map(str::to_owned).collect()
    };
    let rest = expand(tail)?;
    Ok(choices
        .iter()
        .flat_map(|c| rest.iter().map(move |r| format!("{head}{c}{r}")))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::expand;

    #[test]
    fn brace_patterns_expand_as_webdataset_does() {
        assert_eq!(
            expand("a-{008..011}.tar").unwrap(),
            ["a-008.tar", "a-009.tar", "a-010.tar", "a-011.tar"]
        );
        assert_eq!(
            expand("{x,y}/s-{0..1}.tar").unwrap(),
            ["x/s-0.tar", "x/s-1.tar", "y/s-0.tar", "y/s-1.tar"]
        );
        assert_eq!(expand("plain.tar").unwrap(), ["plain.tar"]);
        assert!(expand("a-{3..1}.tar").is_err());
        assert!(expand("a-{1..2.tar").is_err());
    }
}
