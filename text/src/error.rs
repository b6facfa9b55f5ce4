//! What the text package refuses, in words.

use batchspec::load::LoadError;

/// An error of a text source, a tokenizer or a packer.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TextError {
    /// A file of documents that cannot be read as the source asks (it names the file, the row
    /// or line, and the column or key).
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A `tokenizer.json` that cannot be read.
    #[error("the tokenizer {file} cannot be used: {message}")]
    Tokenizer {
        /// The file.
        file: String,
        /// Why.
        message: String,
    },
    /// A tokenizer whose ids do not fit the spec's labels.
    #[error(
        "the tokenizer {file} gives ids up to {} ({ids} ids with its added tokens), but the spec's `IndexSeq<{labels}>` holds labels 0..{labels}: ask for `IndexSeq<{ids}>` or more, or use a tokenizer of at most {labels} ids",
        .ids.saturating_sub(1)
    )]
    Vocabulary {
        /// The file.
        file: String,
        /// The largest id plus one.
        ids: usize,
        /// The spec's number of labels (`V`).
        labels: usize,
    },
    /// A special token the tokenizer does not have.
    #[error("the tokenizer {file} has no token {token:?} to use as {role}")]
    NoToken {
        /// The file.
        file: String,
        /// The token asked for.
        token: String,
        /// What it was to be (`bos`, `eos`, `pad`).
        role: &'static str,
    },
    /// The tokenizer failed on a text (a damaged `tokenizer.json` whose vocabulary lacks a
    /// character of it and has no unknown token, say).
    #[error("the tokenizer {file} failed{}: {message}", on_document(.place.as_deref()))]
    Encode {
        /// The tokenizer's file.
        file: String,
        /// The document's file and row or line, when it came from a source.
        place: Option<String>,
        /// The tokenizer's message.
        message: String,
    },
    /// A document longer than a row under `Long::Refuse`.
    #[error(
        "{place}: the document has {len} tokens, more than a row's {row} (`Long::Split` cuts it into pieces)"
    )]
    TooLong {
        /// The file and row of the document.
        place: String,
        /// Its tokens.
        len: usize,
        /// The row's tokens.
        row: usize,
    },
    /// A packer or source asked for something that cannot be (a row of 0 tokens, a window of 0
    /// documents, a rank past the world...).
    #[error("{0}")]
    Config(String),
}

/// " on the document at `place`", or nothing.
fn on_document(place: Option<&str>) -> String {
    place.map_or_else(String::new, |p| format!(" on the document at {p}"))
}

/// What a caught panic said (its `&str` or `String` payload).
pub(crate) fn panic_message(panic: &(dyn core::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|m| (*m).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}
