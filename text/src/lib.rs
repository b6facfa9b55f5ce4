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
