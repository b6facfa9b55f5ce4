//! The same ids as Hugging Face's `encode`, faster, for byte-level BPE tokenizers (GPT-2's
//! pipeline: no normalizer, the `ByteLevel` pre-tokenizer with its regex, a BPE model without
//! dropout): the GPT-2 split done by the `regex` crate with the look-ahead of its pattern
//! (`\s+(?!\S)`) worked out by hand instead of by `fancy-regex`'s backtracking, and the ids of
//! each word kept in a cache. Any other tokenizer goes through `tokenizers` itself. Its ids are
//! checked against `tokenizers`' own on random texts (`tests/text.rs`) and against the Python
//! package's on the fixtures.

use std::collections::HashMap;
use std::sync::Mutex;
use tokenizers::models::bpe::BPE;
use tokenizers::{Model, ModelWrapper, PostProcessorWrapper, PreTokenizerWrapper};

/// GPT-2's pattern without its look-ahead alternative (`\s+(?!\S)`), whose effect [`Fast::split`]
/// applies to the whitespace runs this one matches.
const PATTERN: &str = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+";

/// The most words the cache holds before it is emptied, and the longest word it holds.
const CACHE_WORDS: usize = 1 << 18;
const CACHE_WORD_BYTES: usize = 64;

/// What takes the text between added tokens: the next step of the split, writing ids.
type Rest<'a> = dyn FnMut(&str, &mut Vec<u32>) -> Result<(), String> + 'a;

/// The fast path of one tokenizer (see the module).
pub(crate) struct Fast {
    re: regex::Regex,
    bytes: [char; 256],
    // Added tokens matched before the pre-tokenizer runs, as `tokenizers` does: first those
    // not normalized, then in what is left the normalized ones (the same text here, there is no
    // normalizer).
    plain: Vec<(String, u32)>,
    normalized: Vec<(String, u32)>,
    cache: Mutex<HashMap<Box<str>, Box<[u32]>>>,
}

impl Clone for Fast {
    fn clone(&self) -> Self {
        Fast {
            re: self.re.clone(),
            bytes: self.bytes,
            plain: self.plain.clone(),
            normalized: self.normalized.clone(),
            cache: Mutex::new(HashMap::new()),
        }
    }
}

/// GPT-2's map of bytes to printable characters (`bytes_to_unicode`).
fn byte_chars() -> [char; 256] {
    let printable = |b: u8| (b'!'..=b'~').contains(&b) || (0xA1..=0xAC).contains(&b) || b >= 0xAE;
    let mut out = ['\0'; 256];
    let mut n = 0u32;
    for b in 0..=255u8 {
        out[b as usize] = if printable(b) {
            char::from(b)
        } else {
            n += 1;
            char::from_u32(255 + n).unwrap_or('\0')
        };
    }
    out
}

impl Fast {
    /// The fast path of `tokenizer`, or `None` when its pipeline is not the one this path
    /// reproduces exactly.
    pub(crate) fn new(tokenizer: &tokenizers::Tokenizer, add_special: bool) -> Option<Fast> {
        if tokenizer.get_normalizer().is_some()
            || tokenizer.get_truncation().is_some()
            || tokenizer.get_padding().is_some()
        {
            return None;
        }
        match tokenizer.get_pre_tokenizer() {
            Some(PreTokenizerWrapper::ByteLevel(b)) if b.use_regex && !b.add_prefix_space => {}
            _ => return None,
        }
        match tokenizer.get_post_processor() {
            None => {}
            Some(PostProcessorWrapper::ByteLevel(_)) if !add_special => {}
            _ => return None,
        }
        match tokenizer.get_model() {
            ModelWrapper::BPE(bpe) if bpe.dropout.is_none_or(|d| d == 0.0) => {}
            _ => return None,
        }
        let added = tokenizer.get_added_tokens_decoder();
        if added.len() > 256
            || added
                .values()
                .any(|t| t.single_word || t.lstrip || t.rstrip)
        {
            return None;
        }
        let (mut plain, mut normalized) = (Vec::new(), Vec::new());
        for (&id, t) in &added {
            if t.content.is_empty() {
                continue;
            }
            if t.normalized {
                normalized.push((t.content.clone(), id));
            } else {
                plain.push((t.content.clone(), id));
            }
        }
        // Longest first, so that the first one found at a place is the longest there.
        plain.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.1.cmp(&b.1)));
        normalized.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.1.cmp(&b.1)));
        Some(Fast {
            re: regex::Regex::new(PATTERN).ok()?,
            bytes: byte_chars(),
            plain,
            normalized,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// Appends the ids of `text` to `out`.
    pub(crate) fn encode(
        &self,
        model: &ModelWrapper,
        text: &str,
        out: &mut Vec<u32>,
    ) -> Result<(), String> {
        let ModelWrapper::BPE(bpe) = model else {
            return Err("the fast path is for BPE models".to_owned());
        };
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        let mut words = |segment: &str, out: &mut Vec<u32>| -> Result<(), String> {
            self.split(segment, |word| self.word(bpe, word, &mut cache, out))
        };
        self.added(text, &self.plain, out, &mut |plain, out| {
            self.added(plain, &self.normalized, out, &mut words)
        })
    }

    /// Splits `text` at the added tokens of `tokens` (leftmost, then longest), pushing their
    /// ids, and hands what lies between them to `rest`.
    fn added(
        &self,
        text: &str,
        tokens: &[(String, u32)],
        out: &mut Vec<u32>,
        rest: &mut Rest<'_>,
    ) -> Result<(), String> {
        if tokens.is_empty() {
            return rest(text, out);
        }
        let mut from = 0;
        let mut i = 0;
        let bytes = text.as_bytes();
        while i < bytes.len() {
            if let Some((t, id)) = tokens
                .iter()
                .find(|(t, _)| bytes[i..].starts_with(t.as_bytes()))
            {
                if from < i {
                    rest(&text[from..i], out)?;
                }
                out.push(*id);
                i += t.len();
                from = i;
            } else {
                i += 1;
            }
        }
        if from < text.len() {
            rest(&text[from..], out)?;
        }
        Ok(())
    }

    /// GPT-2's split of `text` into words, each handed to `word`.
    fn split(
        &self,
        text: &str,
        mut word: impl FnMut(&str) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut at = 0;
        while at < text.len() {
            // Every character is matched by one of the alternatives, so the match starts here.
            let Some(m) = self.re.find_at(text, at) else {
                break;
            };
            let (start, end) = (m.start(), m.end());
            if start != at {
                return Err(format!("the split found no word at byte {at}"));
            }
            let first = text[start..].chars().next().unwrap_or(' ');
            let run_of_spaces =
                first.is_whitespace() && text[start..end].chars().all(char::is_whitespace);
            if run_of_spaces && end < text.len() && text[start..end].chars().nth(1).is_some() {
                // `\s+(?!\S)`: a run of whitespace before a word keeps its last character for
                // the word (or for a run of its own).
                let last = text[start..end]
                    .char_indices()
                    .last()
                    .map_or(end, |(i, _)| start + i);
                word(&text[start..last])?;
                at = last;
            } else {
                word(&text[start..end])?;
                at = end;
            }
        }
        Ok(())
    }

    /// Appends the ids of one word, from the cache or from the model.
    fn word(
        &self,
        bpe: &BPE,
        word: &str,
        cache: &mut HashMap<Box<str>, Box<[u32]>>,
        out: &mut Vec<u32>,
    ) -> Result<(), String> {
        if let Some(ids) = cache.get(word) {
            out.extend_from_slice(ids);
            return Ok(());
        }
        let mapped: String = word.bytes().map(|b| self.bytes[b as usize]).collect();
        let ids: Box<[u32]> = bpe
            .tokenize(&mapped)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|t| t.id)
            .collect();
        out.extend_from_slice(&ids);
        if word.len() <= CACHE_WORD_BYTES {
            if cache.len() >= CACHE_WORDS {
                cache.clear();
            }
            cache.insert(word.into(), ids);
        }
        Ok(())
    }
}
