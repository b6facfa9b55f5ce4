//! Sources of documents: a text column of Parquet files, and JSON-lines files. Both are read in
//! blocks (a row group; a run of lines), the unit of reading, of shuffling and of sharding:
//! each epoch the blocks are put in an order (shuffled by `(seed, epoch)` when asked) and dealt
//! to the ranks in turn, so that across ranks every document is read exactly once.

use crate::error::TextError;
use batchspec::data::fingerprint;
use batchspec::iteration::permutation;
use batchspec::load::{LoadError, LoadReason, ParquetFiles, Place, RowGroup, ShardPlan};
pub use batchspec::load::{TextNulls, Texts};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// One unit of reading and sharding of a source of documents: a row group of a Parquet file, or
/// a run of lines of a JSON-lines file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    /// The file, as an index into the source's files.
    pub file: usize,
    /// The block's index in its file.
    pub index: usize,
    /// The first row (line, from 0) of the file it holds.
    pub first_row: u64,
    /// Its rows (lines).
    pub rows: usize,
}

/// A source of documents read block by block (a Parquet text column, JSON lines, or your own).
pub trait Documents: Send + Sync {
    /// The source's name, as errors and states give it.
    fn source(&self) -> &'static str;
    /// The blocks this rank reads in `epoch`, in order.
    fn blocks(&self, epoch: u64) -> Vec<Block>;
    /// The documents of `block`, each with its row (line) in the block's file.
    ///
    /// # Errors
    /// The reader's error, naming the file, row or line, and column or key.
    fn read(&self, block: &Block) -> Result<Texts, TextError>;
    /// The file of a block, for messages.
    fn file(&self, block: &Block) -> String;
    /// The reading plan in words (files, column, order, rank), part of a saved state.
    fn plan(&self) -> String;
    /// The seed of the order of the blocks, if they are shuffled.
    fn seed(&self) -> Option<u64>;
    /// This rank and the number of ranks.
    fn rank(&self) -> (usize, usize);
    /// A fingerprint of the data (the files and their blocks), part of a saved state.
    fn fingerprint(&self) -> u64;
}

/// A text column of Parquet files (`Utf8`, `LargeUtf8`), as pyarrow, Spark, Ray and Hugging Face
/// `datasets` write them, read by row group with the files' checks and memory budget
/// ([`ParquetFiles::read_texts`]) and dealt to the ranks by a [`ShardPlan`]: each document is
/// read by one rank once per epoch. The plan's [`Tail`](batchspec::load::Tail) policy does not
/// apply (documents pack into different numbers of rows on each rank; a job whose ranks step
/// together takes the same number of batches on each, `take_batches`).
///
/// ```no_run
/// use batchspec::load::{ParquetFiles, Rank, ShardPlan};
/// use batchspec_text::TextColumn;
/// let files = ParquetFiles::open("corpus/train/")?;                 // a file or a directory
/// let plan = ShardPlan::new(&files, Rank::from_env()?)?.shuffle(7);  // row groups, per rank
/// let docs = TextColumn::new(&files, &plan, "text");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct TextColumn {
    files: ParquetFiles,
    plan: ShardPlan,
    column: String,
    source: &'static str,
    nulls: TextNulls,
}

impl TextColumn {
    /// The column `column` of `files`, read by this rank as `plan` deals the row groups.
    pub fn new(files: &ParquetFiles, plan: &ShardPlan, column: &str) -> Self {
        TextColumn {
            files: files.clone(),
            plan: plan.clone(),
            column: column.to_owned(),
            source: "text",
            nulls: TextNulls::Refuse,
        }
    }

    /// Names the source in errors and states (`"text"` by default).
    pub fn source(mut self, source: &'static str) -> Self {
        self.source = source;
        self
    }

    /// What a null does: an error (the default) or nothing ([`TextNulls::Skip`]).
    pub fn nulls(mut self, nulls: TextNulls) -> Self {
        self.nulls = nulls;
        self
    }
}

impl Documents for TextColumn {
    fn source(&self) -> &'static str {
        self.source
    }

    fn blocks(&self, epoch: u64) -> Vec<Block> {
        self.plan
            .row_groups(epoch)
            .into_iter()
            .map(|g| Block {
                file: g.file,
                index: g.index,
                first_row: g.first_row as u64,
                rows: g.rows,
            })
            .collect()
    }

    fn read(&self, block: &Block) -> Result<Texts, TextError> {
        let group = RowGroup {
            file: block.file,
            index: block.index,
            first_row: usize::try_from(block.first_row).unwrap_or(usize::MAX),
            rows: block.rows,
        };
        Ok(self
            .files
            .read_texts(group, &self.column, self.source, self.nulls)?)
    }

    fn file(&self, block: &Block) -> String {
        self.files
            .files()
            .get(block.file)
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    }

    fn plan(&self) -> String {
        format!(
            "column {:?} of {} file(s), {} row group(s), nulls {:?}",
            self.column,
            self.files.files().len(),
            self.plan.all_row_groups().len(),
            self.nulls
        )
    }

    fn seed(&self) -> Option<u64> {
        self.plan.seed()
    }

    fn rank(&self) -> (usize, usize) {
        (self.plan.rank().rank(), self.plan.rank().world())
    }

    fn fingerprint(&self) -> u64 {
        let mut parts: Vec<Vec<u8>> = Vec::new();
        for g in self.plan.all_row_groups() {
            parts.push(format!("{}:{}:{}:{}", g.file, g.index, g.first_row, g.rows).into_bytes());
        }
        for f in self.files.files() {
            parts.push(f.display().to_string().into_bytes());
        }
        let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        fingerprint(&refs)
    }
}

/// The longest line read from a JSON-lines file unless [`JsonLines::max_line_bytes`] says more.
const MAX_LINE_BYTES: usize = 64 << 20;

/// JSON-lines files (one JSON object per line, as `datasets`' `to_json` and most crawls write
/// them): the text of each document is the string under a key. The files are split into blocks
/// of lines (1024 by default) when opened, by one pass over their bytes; blocks are dealt to the
/// ranks as row groups are. Each line is parsed by `serde_json`; a line that is not an object
/// holding a string under the key is an error naming the file and line (a missing key or a
/// `null` follows [`JsonLines::nulls`]). Blank lines are not documents.
#[derive(Clone, Debug)]
pub struct JsonLines {
    files: Vec<PathBuf>,
    // Per block: its byte range in its file.
    blocks: Vec<(Block, u64, u64)>,
    key: String,
    source: &'static str,
    nulls: TextNulls,
    seed: Option<u64>,
    rank: usize,
    world: usize,
    max_line: usize,
}

impl JsonLines {
    /// The files `paths`, the text of each line under `key`, in blocks of 1024 lines.
    ///
    /// # Errors
    /// [`TextError::Load`] for a file that cannot be read.
    pub fn open<P: AsRef<Path>>(paths: &[P], key: &str) -> Result<Self, TextError> {
        Self::with_block_lines(paths, key, 1024)
    }

    /// As [`JsonLines::open`], in blocks of `lines` lines.
    ///
    /// # Errors
    /// As [`JsonLines::open`]; [`TextError::Config`] for blocks of 0 lines.
    pub fn with_block_lines<P: AsRef<Path>>(
        paths: &[P],
        key: &str,
        lines: usize,
    ) -> Result<Self, TextError> {
        if lines == 0 {
            return Err(TextError::Config(
                "a block of a JSON-lines file holds at least one line".to_owned(),
            ));
        }
        let files: Vec<PathBuf> = paths.iter().map(|p| p.as_ref().to_path_buf()).collect();
        let mut blocks = Vec::new();
        for (f, path) in files.iter().enumerate() {
            let io = |e: std::io::Error| {
                TextError::Load(LoadError::File {
                    file: path.clone(),
                    place: Place::File,
                    source_name: "text",
                    reason: Box::new(e.into()),
                })
            };
            let mut reader =
                BufReader::with_capacity(1 << 20, std::fs::File::open(path).map_err(io)?);
            // Line starts by one pass over the bytes.
            let (mut offset, mut line, mut block_start, mut block_line) = (0u64, 0u64, 0u64, 0u64);
            let mut index = 0;
            loop {
                let buf = reader.fill_buf().map_err(io)?;
                if buf.is_empty() {
                    break;
                }
                let n = buf.len();
                let mut at = 0;
                while let Some(p) = buf[at..].iter().position(|&b| b == b'\n') {
                    at += p + 1;
                    line += 1;
                    if line - block_line == lines as u64 {
                        let end = offset + at as u64;
                        blocks.push((
                            Block {
                                file: f,
                                index,
                                first_row: block_line,
                                rows: lines,
                            },
                            block_start,
                            end,
                        ));
                        index += 1;
                        block_start = end;
                        block_line = line;
                    }
                }
                offset += n as u64;
                reader.consume(n);
            }
            if offset > block_start {
                // The last lines, the last one perhaps without its newline.
                let rows = usize::try_from(line - block_line).unwrap_or(usize::MAX)
                    + usize::from(offset > block_start && line_ends_open(path, offset)?);
                blocks.push((
                    Block {
                        file: f,
                        index,
                        first_row: block_line,
                        rows,
                    },
                    block_start,
                    offset,
                ));
            }
        }
        Ok(JsonLines {
            files,
            blocks,
            key: key.to_owned(),
            source: "text",
            nulls: TextNulls::Refuse,
            seed: None,
            rank: 0,
            world: 1,
            max_line: MAX_LINE_BYTES,
        })
    }

    /// Names the source in errors and states (`"text"` by default).
    pub fn source(mut self, source: &'static str) -> Self {
        self.source = source;
        self
    }

    /// What a `null` or a missing key does: an error (the default) or nothing.
    pub fn nulls(mut self, nulls: TextNulls) -> Self {
        self.nulls = nulls;
        self
    }

    /// Shuffles the order of the blocks each epoch by `(seed, epoch)`.
    pub fn shuffle(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// Reads the blocks of rank `rank` of `world` (block `i` of the epoch's order to rank
    /// `i % world`).
    ///
    /// # Errors
    /// [`TextError::Config`] for a rank past the world.
    pub fn shard(mut self, rank: usize, world: usize) -> Result<Self, TextError> {
        if world == 0 || rank >= world {
            return Err(TextError::Config(format!(
                "rank {rank} of {world}: a rank is below the number of ranks"
            )));
        }
        self.rank = rank;
        self.world = world;
        Ok(self)
    }

    /// The longest line read (64 MiB by default): a longer one is an error naming it, before it
    /// is held in memory.
    pub fn max_line_bytes(mut self, bytes: usize) -> Self {
        self.max_line = bytes;
        self
    }

    /// Every block of the files, in order.
    pub fn all_blocks(&self) -> Vec<Block> {
        self.blocks.iter().map(|b| b.0).collect()
    }
}

/// Whether the file of `len` bytes ends without a newline (its last line is open).
fn line_ends_open(path: &Path, len: u64) -> Result<bool, TextError> {
    let io = |e: std::io::Error| {
        TextError::Load(LoadError::File {
            file: path.to_path_buf(),
            place: Place::File,
            source_name: "text",
            reason: Box::new(e.into()),
        })
    };
    let mut f = std::fs::File::open(path).map_err(io)?;
    f.seek(SeekFrom::Start(len - 1)).map_err(io)?;
    let mut last = [0u8];
    f.read_exact(&mut last).map_err(io)?;
    Ok(last[0] != b'\n')
}

impl Documents for JsonLines {
    fn source(&self) -> &'static str {
        self.source
    }

    fn blocks(&self, epoch: u64) -> Vec<Block> {
        let order: Vec<usize> = match self.seed {
            Some(seed) => permutation(self.blocks.len(), seed, epoch),
            None => (0..self.blocks.len()).collect(),
        };
        order
            .into_iter()
            .skip(self.rank)
            .step_by(self.world)
            .map(|i| self.blocks[i].0)
            .collect()
    }

    fn read(&self, block: &Block) -> Result<Texts, TextError> {
        let Some(&(_, start, end)) = self.blocks.iter().find(|b| b.0 == *block) else {
            return Err(TextError::Config(format!(
                "block {} of file {} is not one of these files' blocks",
                block.index, block.file
            )));
        };
        let path = &self.files[block.file];
        let fail = |line: Option<u64>, reason: LoadReason| {
            TextError::Load(LoadError::File {
                file: path.clone(),
                place: match line {
                    Some(line) => Place::Line {
                        line: line + 1,
                        column: None,
                    },
                    None => Place::File,
                },
                source_name: self.source,
                reason: Box::new(reason),
            })
        };
        let mut f = std::fs::File::open(path).map_err(|e| fail(None, e.into()))?;
        f.seek(SeekFrom::Start(start))
            .map_err(|e| fail(None, e.into()))?;
        let mut reader = BufReader::new(f.take(end - start));
        let mut texts = Texts::new();
        let mut line = Vec::new();
        for i in 0..block.rows as u64 {
            let row = block.first_row + i;
            line.clear();
            // At most one byte past the limit, to tell a long line from one at the limit.
            let n = (&mut reader)
                .take(self.max_line as u64 + 1)
                .read_until(b'\n', &mut line)
                .map_err(|e| fail(Some(row), e.into()))?;
            if n == 0 {
                break;
            }
            if line.last() == Some(&b'\n') {
                line.pop();
            } else if line.len() > self.max_line {
                return Err(fail(
                    Some(row),
                    LoadReason::Decode {
                        message: format!(
                            "the line is longer than the {} bytes a line is read with (`JsonLines::max_line_bytes`)",
                            self.max_line
                        ),
                    },
                ));
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let value: serde_json::Value = serde_json::from_slice(&line).map_err(|e| {
                let reason = if e.is_syntax() || e.is_eof() {
                    LoadReason::Decode {
                        message: format!("not JSON: {e}"),
                    }
                } else {
                    LoadReason::Decode {
                        message: e.to_string(),
                    }
                };
                fail(Some(row), reason)
            })?;
            let Some(object) = value.as_object() else {
                return Err(fail(
                    Some(row),
                    LoadReason::Decode {
                        message: "the line is not a JSON object".to_owned(),
                    },
                ));
            };
            match object.get(&self.key) {
                Some(serde_json::Value::String(text)) => texts.push(text, row),
                None | Some(serde_json::Value::Null) if self.nulls == TextNulls::Skip => {}
                None => {
                    return Err(fail(
                        Some(row),
                        LoadReason::Decode {
                            message: format!("the object has no key {:?}", self.key),
                        },
                    ));
                }
                Some(serde_json::Value::Null) => return Err(fail(Some(row), LoadReason::Null)),
                Some(other) => {
                    return Err(fail(
                        Some(row),
                        LoadReason::Decode {
                            message: format!(
                                "the value under {:?} is {}, not a string",
                                self.key,
                                kind(other)
                            ),
                        },
                    ));
                }
            }
        }
        Ok(texts)
    }

    fn file(&self, block: &Block) -> String {
        self.files
            .get(block.file)
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    }

    fn plan(&self) -> String {
        format!(
            "key {:?} of {} JSON-lines file(s), {} block(s), nulls {:?}",
            self.key,
            self.files.len(),
            self.blocks.len(),
            self.nulls
        )
    }

    fn seed(&self) -> Option<u64> {
        self.seed
    }

    fn rank(&self) -> (usize, usize) {
        (self.rank, self.world)
    }

    fn fingerprint(&self) -> u64 {
        let parts: Vec<Vec<u8>> = self
            .blocks
            .iter()
            .map(|(b, s, e)| {
                format!("{}:{}:{}:{}:{s}:{e}", b.file, b.index, b.first_row, b.rows).into_bytes()
            })
            .chain(
                self.files
                    .iter()
                    .map(|f| f.display().to_string().into_bytes()),
            )
            .collect();
        let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        fingerprint(&refs)
    }
}

/// A JSON value's kind in words.
fn kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}
