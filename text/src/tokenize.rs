//! Tokenization as a conversion from text to `IndexSeq<V>`: Hugging Face's `tokenizers` reading a
//! `tokenizer.json`, its vocabulary checked against the spec's `V` when it is loaded.

use crate::error::TextError;
use crate::fast::Fast;
use std::path::Path;
use tokenizers::PostProcessorWrapper;

/// The largest `tokenizer.json` read (a vocabulary of a few hundred thousand tokens with its
/// merges takes tens of MiB).
const MAX_TOKENIZER_BYTES: u64 = 512 << 20;

/// The most regular expressions a tokenizer is read with (the pre-tokenizers of the Hub's models
/// have one or two).
const MAX_PATTERNS: usize = 16;

/// The longest piece of a Unigram model read, in bytes (SentencePiece and the `tokenizers`
/// trainer make pieces of at most 16 characters by default).
const MAX_PIECE_BYTES: usize = 256;

/// The most memory one of its regular expressions may compile to (the split patterns of GPT-2,
/// GPT-4 and Llama 3 take under 256 KiB; `\p{L}{100}` over 4 MiB).
const MAX_PATTERN_BYTES: usize = 1 << 20;

/// A tokenizer for token ids in `0..V`: the model of a `tokenizer.json` (as every model on the
/// Hugging Face Hub ships, read by Hugging Face's own `tokenizers` crate, so the ids are the
/// Python package's for the same file and text), the special tokens to put around each
/// document, and the padding token.
///
/// ```no_run
/// use batchspec_text::Tokenizer;
/// // A tokenizer of 1024 tokens serves a spec of `IndexSeq<1024>` (or wider); `<eos>` ends each
/// // document, `<pad>` pads the rows.
/// let tokenizer = Tokenizer::<1024>::from_file("tokenizer.json")?.eos("<eos>")?.pad("<pad>")?;
/// assert_eq!(tokenizer.encode("To be, or not to be")?.last(), Some(&tokenizer.eos_id().unwrap()));
/// # Ok::<(), batchspec_text::TextError>(())
/// ```
#[derive(Clone)]
pub struct Tokenizer<const V: usize> {
    inner: tokenizers::Tokenizer,
    name: String,
    size: usize,
    bos: Option<u32>,
    eos: Option<u32>,
    pad: u32,
    special: bool,
    print: u64,
    fast: Option<Fast>,
}

impl<const V: usize> core::fmt::Debug for Tokenizer<V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Tokenizer")
            .field("file", &self.name)
            .field("ids", &self.size)
            .field("bos", &self.bos)
            .field("eos", &self.eos)
            .field("pad", &self.pad)
            .finish()
    }
}

impl<const V: usize> Tokenizer<V> {
    /// Reads a `tokenizer.json`.
    ///
    /// The file's `truncation` and `padding` are not applied: documents are tokenized whole (a
    /// [`TextStream`](crate::TextStream) splits the long ones by its [`Long`](crate::Long)
    /// policy) and rows are padded by the stream.
    ///
    /// # Errors
    /// [`TextError::Tokenizer`] for a file that cannot be read or is not a tokenizer, and for
    /// one `tokenizers` cannot run or would run with memory out of proportion to the file: a
    /// `Replace` normalizer that inserts text where its pattern can match the empty string (the
    /// crate panics on it), a `Precompiled` normalizer whose map does not decode, a BPE merge
    /// longer than the vocabulary's longest token, a Unigram piece over 256 bytes, a template
    /// for one sequence that names the second (`$B`) or puts a special token its map does not
    /// hold by that key, a regular expression that compiles to
    /// more than 1 MiB, more than 16 of them;
    /// [`TextError::Vocabulary`] when its ids (with the added tokens and the post-processor's
    /// special tokens) do not fit in `0..V`.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self, TextError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let fail = |message: String| TextError::Tokenizer {
            file: name.clone(),
            message,
        };
        let len = std::fs::metadata(path)
            .map_err(|e| fail(format!("cannot read it: {e}")))?
            .len();
        if len > MAX_TOKENIZER_BYTES {
            return Err(fail(format!(
                "it is {len} bytes, more than the {MAX_TOKENIZER_BYTES} a tokenizer is read with"
            )));
        }
        let bytes = std::fs::read(path).map_err(|e| fail(format!("cannot read it: {e}")))?;
        Self::from_bytes_named(&bytes, name)
    }

    /// A tokenizer from the bytes of a `tokenizer.json`.
    ///
    /// # Errors
    /// As [`Tokenizer::from_file`].
    pub fn from_bytes(json: &[u8]) -> Result<Self, TextError> {
        Self::from_bytes_named(json, "given as bytes".to_owned())
    }

    fn from_bytes_named(json: &[u8], name: String) -> Result<Self, TextError> {
        let fail = |message: String| TextError::Tokenizer {
            file: name.clone(),
            message,
        };
        // Parsed as JSON first, then read as a tokenizer from the parsed value: `tokenizers`
        // 0.23 panics (an `expect`) on a decoder section that is not JSON (a lone surrogate
        // escape `"\ud800"`, say) instead of returning its error. What it reads is JSON then, and
        // a panic of its reading of a well-formed file is caught and reported the same way.
        let value: serde_json::Value =
            serde_json::from_slice(json).map_err(|e| fail(format!("it is not JSON: {e}")))?;
        checked_normalizers(&value).map_err(&fail)?;
        checked_patterns(&value).map_err(&fail)?;
        checked_merges(&value).map_err(&fail)?;
        checked_pieces(&value).map_err(&fail)?;
        // The post-processor as `tokenizers` reads it (its pieces and tokens may be written as
        // maps or as lists), written out again in one form for the checks.
        let post_processor = value
            .get("post_processor")
            .and_then(|p| serde_json::from_value::<PostProcessorWrapper>(p.clone()).ok())
            .and_then(|p| serde_json::to_value(p).ok());
        let post_processor = post_processor.as_ref().unwrap_or(&serde_json::Value::Null);
        checked_templates(post_processor).map_err(&fail)?;
        let special = post_processor_ids(post_processor);
        let read = std::panic::catch_unwind(move || {
            serde_json::from_value::<tokenizers::Tokenizer>(value)
        });
        let mut inner = match read {
            Ok(Ok(inner)) => inner,
            Ok(Err(e)) => return Err(fail(e.to_string())),
            Err(panic) => {
                let why = crate::error::panic_message(&*panic);
                return Err(fail(format!(
                    "the `tokenizers` crate failed reading it ({why})"
                )));
            }
        };
        // Documents are kept whole and rows padded by the stream: a truncation or padding the
        // file asks for would cut documents silently, or pad each to its length (of any size).
        inner
            .with_truncation(None)
            .map_err(|e| fail(e.to_string()))?;
        inner.with_padding(None);
        // The ids it can give: every id of the vocabulary, of the added tokens and of the
        // post-processor's special tokens.
        let size = inner
            .get_vocab(true)
            .values()
            .copied()
            .chain(special)
            .map(|id| id as usize + 1)
            .max()
            .unwrap_or(0);
        if size > V {
            return Err(TextError::Vocabulary {
                file: name,
                ids: size,
                labels: V,
            });
        }
        Ok(Tokenizer {
            name,
            size,
            bos: None,
            eos: None,
            pad: 0,
            special: false,
            print: batchspec::data::fingerprint(&[json]),
            fast: Fast::new(&inner, false),
            inner,
        })
    }

    fn id(&self, token: &str, role: &'static str) -> Result<u32, TextError> {
        self.inner
            .token_to_id(token)
            .ok_or_else(|| TextError::NoToken {
                file: self.name.clone(),
                token: token.to_owned(),
                role,
            })
    }

    /// Puts the token `token` (such as `"<bos>"` or `"<|endoftext|>"`) before each document.
    ///
    /// # Errors
    /// [`TextError::NoToken`] when the tokenizer has no such token.
    pub fn bos(mut self, token: &str) -> Result<Self, TextError> {
        self.bos = Some(self.id(token, "bos")?);
        Ok(self)
    }

    /// Puts the token `token` (such as `"<eos>"` or `"</s>"`) after each document: a model
    /// trained on packed rows learns where documents end.
    ///
    /// # Errors
    /// [`TextError::NoToken`] when the tokenizer has no such token.
    pub fn eos(mut self, token: &str) -> Result<Self, TextError> {
        self.eos = Some(self.id(token, "eos")?);
        Ok(self)
    }

    /// Pads rows (and the targets of tokens with none) with the token `token`; id 0 otherwise.
    ///
    /// # Errors
    /// [`TextError::NoToken`] when the tokenizer has no such token.
    pub fn pad(mut self, token: &str) -> Result<Self, TextError> {
        self.pad = self.id(token, "pad")?;
        Ok(self)
    }

    /// Whether the tokenizer's own post-processor adds its special tokens (the Python package's
    /// `add_special_tokens`); off by default, as `bos` and `eos` say which tokens go around a
    /// document.
    pub fn add_special_tokens(mut self, add: bool) -> Self {
        self.special = add;
        self.fast = Fast::new(&self.inner, add);
        self
    }

    /// Whether `encode` takes the fast path to the same ids (a byte-level BPE: see
    /// [`Tokenizer::exact_path`]).
    pub fn is_fast(&self) -> bool {
        self.fast.is_some()
    }

    /// Tokenizes through `tokenizers`' own `encode` even where the fast path applies. The fast
    /// path (for byte-level BPE tokenizers such as GPT-2's: no normalizer, the `ByteLevel`
    /// pre-tokenizer, a BPE without dropout) gives the same ids, property-tested against
    /// `tokenizers` on random texts, about 4.5 times faster here.
    pub fn exact_path(mut self) -> Self {
        self.fast = None;
        self
    }

    /// The largest id the tokenizer gives, plus one (at most `V`).
    pub fn ids(&self) -> usize {
        self.size
    }

    /// The id of the token before each document, if any.
    pub fn bos_id(&self) -> Option<u32> {
        self.bos
    }

    /// The id of the token after each document, if any.
    pub fn eos_id(&self) -> Option<u32> {
        self.eos
    }

    /// The id padding takes.
    pub fn pad_id(&self) -> u32 {
        self.pad
    }

    /// The file it was read from, as given.
    pub fn file(&self) -> &str {
        &self.name
    }

    /// The ids of a document: `bos`, the tokenizer's ids of `text`, `eos`.
    ///
    /// # Errors
    /// [`TextError::Encode`] when the tokenizer fails on the text.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, TextError> {
        let mut out = Vec::new();
        self.encode_into(text, &mut out)?;
        Ok(out)
    }

    /// [`Tokenizer::encode`] appending to `out`.
    ///
    /// # Errors
    /// As [`Tokenizer::encode`].
    pub fn encode_into(&self, text: &str, out: &mut Vec<u32>) -> Result<(), TextError> {
        if let Some(fast) = &self.fast {
            out.extend(self.bos);
            fast.encode(self.inner.get_model(), text, out)
                .map_err(|message| TextError::Encode {
                    file: self.name.clone(),
                    place: None,
                    message,
                })?;
            out.extend(self.eos);
            return Ok(());
        }
        let encoding =
            self.inner
                .encode_fast(text, self.special)
                .map_err(|e| TextError::Encode {
                    file: self.name.clone(),
                    place: None,
                    message: e.to_string(),
                })?;
        out.reserve(encoding.len() + 2);
        out.extend(self.bos);
        out.extend_from_slice(encoding.get_ids());
        out.extend(self.eos);
        Ok(())
    }

    /// A fingerprint of the `tokenizer.json` (part of a saved state: a state of another
    /// tokenizer is refused).
    pub fn fingerprint(&self) -> u64 {
        self.print
    }

    /// The Hugging Face tokenizer itself.
    pub fn inner(&self) -> &tokenizers::Tokenizer {
        &self.inner
    }
}

/// Refuses the normalizers `tokenizers` 0.23 cannot run: a `Precompiled` normalizer whose
/// character map does not decode (the crate `expect`s it), and a `Replace` normalizer that puts
/// text where its pattern matches the empty string (the crate indexes past its alignments and
/// panics on the first document).
fn checked_normalizers(tokenizer: &serde_json::Value) -> Result<(), String> {
    let Some(normalizer) = tokenizer.get("normalizer") else {
        return Ok(());
    };
    each_object(normalizer, &mut |fields| {
        match fields.get("type").and_then(serde_json::Value::as_str) {
            Some("Precompiled") => {
                serde_json::from_value::<tokenizers::normalizers::precompiled::Precompiled>(
                    serde_json::Value::Object(fields.clone()),
                )
                .map_err(|e| format!("its `Precompiled` normalizer cannot be read: {e}"))?;
            }
            Some("Replace") => {
                let content = fields.get("content").and_then(serde_json::Value::as_str);
                let pattern = fields.get("pattern");
                let empty = match pattern {
                    Some(serde_json::Value::Object(p)) => match (p.get("String"), p.get("Regex")) {
                        (Some(serde_json::Value::String(s)), _) => s.is_empty(),
                        (_, Some(serde_json::Value::String(r))) => may_match_empty(r),
                        _ => false,
                    },
                    _ => false,
                };
                if empty && content.is_some_and(|c| !c.is_empty()) {
                    return Err(format!(
                        "its `Replace` normalizer's pattern {} can match the empty string, \
                         where `tokenizers` cannot insert text",
                        pattern.map_or_else(String::new, ToString::to_string)
                    ));
                }
            }
            _ => {}
        }
        Ok(())
    })
}

/// Calls `f` on every object of `v` (`v` itself included), outermost first; the first error.
fn each_object<'v>(
    v: &'v serde_json::Value,
    f: &mut impl FnMut(&'v serde_json::Map<String, serde_json::Value>) -> Result<(), String>,
) -> Result<(), String> {
    match v {
        serde_json::Value::Array(items) => items.iter().try_for_each(|x| each_object(x, f)),
        serde_json::Value::Object(fields) => {
            f(fields)?;
            fields.values().try_for_each(|x| each_object(x, f))
        }
        _ => Ok(()),
    }
}

/// The ids of the special tokens the post-processor puts around a document (`TemplateProcessing`'s
/// `special_tokens`, the `cls` and `sep` of `BertProcessing` and `RobertaProcessing`, in a
/// `Sequence` too), which the vocabulary need not hold.
fn post_processor_ids(post_processor: &serde_json::Value) -> Vec<u32> {
    let mut out = Vec::new();
    let _ = each_object(post_processor, &mut |fields| {
        for (key, x) in fields {
            let ids: Vec<&serde_json::Value> = match (key.as_str(), x) {
                ("ids", serde_json::Value::Array(ids)) => ids.iter().collect(),
                ("cls" | "sep", serde_json::Value::Array(pair)) => {
                    pair.get(1).into_iter().collect()
                }
                _ => Vec::new(),
            };
            out.extend(
                ids.into_iter()
                    .filter_map(serde_json::Value::as_u64)
                    .map(|id| u32::try_from(id).unwrap_or(u32::MAX)),
            );
        }
        Ok(())
    });
    out
}

/// Whether a pattern of `tokenizers` (`fancy-regex`'s syntax) can match the empty string
/// somewhere: an assertion, a look-around, an optional or starred part, an empty alternative, a
/// back-reference (it may refer to an empty group), each counted as possibly empty. A pattern that
/// does not parse is `tokenizers`' to refuse.
fn may_match_empty(pattern: &str) -> bool {
    fn empty(e: &fancy_regex::Expr) -> bool {
        use fancy_regex::Expr;
        match e {
            Expr::Any { .. } => false,
            Expr::Literal { val, .. } => val.is_empty(),
            Expr::Concat(items) => items.iter().all(empty),
            Expr::Alt(items) => items.iter().any(empty),
            Expr::Group(inner) | Expr::AtomicGroup(inner) => empty(inner),
            Expr::Repeat { child, lo, .. } => *lo == 0 || empty(child),
            // A part in the `regex` crate's syntax (a class, say).
            Expr::Delegate { inner, casei, .. } => regex_syntax::ParserBuilder::new()
                .case_insensitive(*casei)
                .build()
                .parse(inner)
                .map_or(true, |hir| hir.properties().minimum_len() == Some(0)),
            _ => true,
        }
    }
    fancy_regex::Expr::parse_tree(pattern).is_ok_and(|tree| empty(&tree.expr))
}

/// Refuses a tokenizer whose regular expressions would take memory out of proportion to its
/// file: more than [`MAX_PATTERNS`] of them, or one that compiles to more than
/// [`MAX_PATTERN_BYTES`] (`tokenizers` compiles each with the `regex` crate's limit of 10 MiB, so
/// that a file of a few KB could hold a GB of them).
fn checked_patterns(tokenizer: &serde_json::Value) -> Result<(), String> {
    let mut patterns = Vec::new();
    let _ = each_object(tokenizer, &mut |fields| {
        if let Some(serde_json::Value::String(r)) = fields.get("Regex") {
            patterns.push(r.as_str());
        }
        Ok(())
    });
    if patterns.len() > MAX_PATTERNS {
        return Err(format!(
            "it has {} regular expressions, more than the {MAX_PATTERNS} a tokenizer is read with",
            patterns.len()
        ));
    }
    for p in patterns {
        if let Err(e) = fancy_regex::RegexBuilder::new(p)
            .delegate_size_limit(MAX_PATTERN_BYTES)
            .build()
        {
            let shown: String = p.chars().take(60).collect();
            let more = if shown.len() < p.len() { "..." } else { "" };
            return Err(format!(
                "its pattern {shown:?}{more} cannot be used within {} KiB: {e}",
                MAX_PATTERN_BYTES >> 10
            ));
        }
    }
    Ok(())
}

/// Refuses a BPE model with a merge `tokenizers` 0.23 cannot read: it joins the two tokens in a
/// buffer as long as the longest token of the vocabulary (a merge of two tokens of the
/// vocabulary that makes a longer one overruns it: a panic), after cutting the
/// `continuing_subword_prefix`'s length off the second (a second token shorter than that, or cut
/// inside a character, is a panic or text that is not UTF-8).
fn checked_merges(tokenizer: &serde_json::Value) -> Result<(), String> {
    let Some(model) = tokenizer.get("model") else {
        return Ok(());
    };
    // A model without its `type` is read by its fields (a BPE's vocabulary is a map).
    if model
        .get("type")
        .and_then(serde_json::Value::as_str)
        .is_some_and(|t| t != "BPE")
    {
        return Ok(());
    }
    let (Some(vocab), Some(merges)) = (
        model.get("vocab").and_then(serde_json::Value::as_object),
        model.get("merges").and_then(serde_json::Value::as_array),
    ) else {
        return Ok(());
    };
    let prefix = model
        .get("continuing_subword_prefix")
        .and_then(serde_json::Value::as_str)
        .map_or(0, str::len);
    let longest = vocab.keys().map(String::len).max().unwrap_or(0);
    for (i, merge) in merges.iter().enumerate() {
        // `["a", "b"]`, or the older `"a b"`.
        let (a, b) = match merge {
            serde_json::Value::Array(pair) => match (pair.first(), pair.get(1)) {
                (Some(serde_json::Value::String(a)), Some(serde_json::Value::String(b))) => {
                    (a.as_str(), b.as_str())
                }
                _ => continue,
            },
            serde_json::Value::String(line) => match line.split_once(' ') {
                Some(pair) => pair,
                None => continue,
            },
            _ => continue,
        };
        if !b.is_char_boundary(prefix) || a.len() + (b.len() - prefix) > longest {
            return Err(format!(
                "its merge {i} ({a:?} {b:?}) cannot make a token of its vocabulary (the \
                 longest is {longest} bytes, the subword prefix {prefix})"
            ));
        }
    }
    Ok(())
}

/// Refuses a Unigram model with a piece longer than [`MAX_PIECE_BYTES`]: `tokenizers` keeps the
/// pieces in a tree of their bytes, as deep as the longest piece, which it clones and drops
/// recursively (a piece of 16 KB overflowed an 8 MiB stack, a piece of 1 KB a 512 KiB one: an
/// abort, not a panic).
fn checked_pieces(tokenizer: &serde_json::Value) -> Result<(), String> {
    let Some(model) = tokenizer.get("model") else {
        return Ok(());
    };
    // A model without its `type` is read by its fields (a Unigram's vocabulary is a list).
    if model
        .get("type")
        .and_then(serde_json::Value::as_str)
        .is_some_and(|t| t != "Unigram")
    {
        return Ok(());
    }
    let Some(vocab) = model.get("vocab").and_then(serde_json::Value::as_array) else {
        return Ok(());
    };
    for (i, entry) in vocab.iter().enumerate() {
        if let Some(piece) = entry.get(0).and_then(serde_json::Value::as_str)
            && piece.len() > MAX_PIECE_BYTES
        {
            return Err(format!(
                "its Unigram piece {i} is {} bytes long, more than the {MAX_PIECE_BYTES} a piece \
                 is read with",
                piece.len()
            ));
        }
    }
    Ok(())
}

/// Refuses a `TemplateProcessing` post-processor that `tokenizers` 0.23 would panic on: a
/// template for one sequence (`single`) that names the second (`$B`: the crate indexes a second
/// encoding, on every document), and a special token of a template that is not a key of its
/// `special_tokens` (the crate checks the tokens' own `id` fields, then looks the token up by
/// key, on every document it adds special tokens to).
fn checked_templates(post_processor: &serde_json::Value) -> Result<(), String> {
    each_object(post_processor, &mut |fields| {
        if fields.get("type").and_then(serde_json::Value::as_str) != Some("TemplateProcessing") {
            return Ok(());
        }
        let pieces = |template: &str, path: &str| -> Vec<&serde_json::Value> {
            match fields.get(template) {
                Some(serde_json::Value::Array(pieces)) => {
                    pieces.iter().filter_map(|p| p.pointer(path)).collect()
                }
                _ => Vec::new(),
            }
        };
        if pieces("single", "/Sequence/id")
            .iter()
            .any(|id| id.as_str() == Some("B"))
        {
            return Err(
                "its `TemplateProcessing` template for one sequence names the second (`$B`)"
                    .to_owned(),
            );
        }
        let keys = fields
            .get("special_tokens")
            .and_then(serde_json::Value::as_object);
        for template in ["single", "pair"] {
            for id in pieces(template, "/SpecialToken/id") {
                let id = id.as_str().unwrap_or_default();
                if !keys.is_some_and(|k| k.contains_key(id)) {
                    return Err(format!(
                        "its `TemplateProcessing` template `{template}` puts the special token \
                         {id:?}, which its `special_tokens` do not hold"
                    ));
                }
            }
        }
        Ok(())
    })
}
