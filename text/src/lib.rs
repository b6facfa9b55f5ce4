//! Text at scale for [batchspec](https://docs.rs/batchspec): documents from Parquet text columns
//! and JSON-lines files, tokenized by Hugging Face's `tokenizers` (a `tokenizer.json`, checked
//! against the spec's vocabulary when it is loaded), and packed into rows of exactly `T` tokens
//! whose segments, positions, targets and attention never cross a document.
//!
//! - [`TextColumn`], [`JsonLines`]: sources of documents, read in blocks (row groups, runs of
//!   lines) that are shuffled and dealt to the ranks; every value checked as UTF-8 and named by
//!   file and row or line when it is not; nulls refused or skipped ([`TextNulls`]).
//! - [`Tokenizer`]: a `tokenizer.json` for ids in `0..V`, with `bos`, `eos` and `pad` tokens.
//! - [`pack`](mod@pack): greedy (`group_texts`), first-fit and best-fit decreasing packing.
//! - [`TextStream`]: the pipeline, a [`BatchSource`](batchspec::data::BatchSource) of
//!   [`Packed`] batches (or of any request of them, [`TextStream::request`]): deterministic,
//!   sharded, resumable, tokenizing on worker threads.
#![doc = include_str!("../README.md")]

mod docs;
mod error;
mod fast;
pub mod pack;
mod record;
mod stream;
mod tokenize;

pub use docs::{Block, Documents, JsonLines, TextColumn, TextNulls, Texts};
pub use error::TextError;
pub use pack::{Long, Packing};
pub use record::{Packed, flat_cu_seqlens};
pub use stream::TextStream;
pub use tokenize::Tokenizer;
