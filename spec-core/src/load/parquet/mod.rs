//! Parquet files, and directories of them as Spark writes them, read into a record spec (feature
//! `parquet`): one column per source, checked against the leaf's space before any value is
//! read, every value converted exactly.
//!
//! [`ParquetFiles`] loads whole columns, or the row groups selected, into memory
//! ([`Dataset::load`](crate::data::Dataset::load)); [`ShardPlan`] shares the row groups among
//! the ranks of a job, and [`ParquetStream`] streams a rank's share with bounded memory.
//!
//! One concept per file: the reader (`files.rs`), its unit of work (`row_group.rs`), the
//! decoder's use (`decode.rs`), a column read into a leaf (`columns.rs`; straight into its
//! memory where its values are the leaf's, `direct.rs`, the levels of its pages checked as they
//! are encoded, `unleveled.rs`, its values decoded, `values.rs`) with its tensor metadata (`tensor.rs`), ragged leaves from list columns (`ragged.rs`), text columns (`text.rs`), encoded images
//! (`image.rs`, feature `parquet-image`), sharding (`shard.rs`), streaming (`stream.rs`) and a stream's elastic resume (`elastic.rs`);
//! the bytes of a file wherever they are (`part.rs`), and the files of a store (`objects.rs`,
//! feature `remote`).
//! Before the `parquet` crate sees a file, its footer and the page headers of the chunks to be
//! decoded are checked (`footer.rs`, over Thrift's compact protocol in `thrift.rs`): every count
//! they claim against the bytes that hold it and against the read's memory budget; the payloads
//! whose decoders trust them (one-bit definition levels, `BYTE_STREAM_SPLIT` values) are checked
//! too (`levels.rs`), and so are the values of columns declared as 8- or 16-bit integers, which
//! the Arrow reader would cast bit by bit (`narrow.rs`).

mod columns;
mod decode;
mod direct;
mod elastic;
mod files;
mod footer;
#[cfg(feature = "parquet-image")]
mod image;
mod levels;
mod listing;
mod narrow;
#[cfg(feature = "remote")]
mod objects;
mod part;
mod ragged;
mod readers;
mod row_group;
mod shard;
mod stream;
mod tensor;
mod text;
#[doc(hidden)]
pub mod thrift;
mod unleveled;
mod values;

pub use files::ParquetFiles;
pub use listing::{ParquetOpenOptions, SkipReason, Skipped};
pub use row_group::RowGroup;
pub use shard::{LocalRank, Rank, ShardPlan, Tail};
pub use stream::ParquetStream;
pub use text::{TextNulls, Texts};
