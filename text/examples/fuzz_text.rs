//! The readers' mutation fuzzer for the text package, with the core's harness
//! (`spec-core/examples/fuzz_readers/harness.rs`): JSON-lines files and `tokenizer.json` files
//! damaged at random (bytes flipped, cut, copied, set to huge numbers) and, for the tokenizer, by
//! structure: a node of its JSON set to a chosen value (the edges of the integer types, another
//! section's type name, a long string, an empty list) or to another node of the same file, a key
//! of an object renamed (a vocabulary's, a map of special tokens'), and
//! whole sections set to what a stranger's file may hold (padding and truncation to huge lengths,
//! a precompiled normalizer of garbage, regular expressions that backtrack, post-processors with
//! ids beyond the vocabulary), so that the file lies consistently. Each damaged JSON-lines file
//! is read whole and tokenized, and also served by a `TextStream` with two workers; each damaged
//! tokenizer (the seeds: a byte-level BPE, a WordPiece with BERT's pipeline, a Unigram) is read
//! and tokenizes the committed documents. Each input must give `Ok` or `Err`:
//! the run counts panics (those that escaped, and those a guard caught, which would abort a
//! program built with `panic = "abort"`), the slowest input, the largest single allocation
//! against 16 bytes per byte of the file plus 4 MB, and the peak resident memory.
//!
//! `cargo run --release -p batchspec-text --example fuzz_text -- N [seed]` runs N inputs per
//! reader (CI runs 5,000). Inputs that fail are written to `target/fuzz-crashes/`.

use batchspec::data::BatchSource;
use batchspec_text::{Documents, JsonLines, TextError, TextStream, Tokenizer};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

#[path = "../../spec-core/examples/fuzz_readers/harness.rs"]
#[allow(dead_code)]
mod harness;
use harness::{Report, Rng, fuzz, mutate};

const V: usize = 1024;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Every document of `docs`, tokenized by `tokenizer`; the first error.
fn tokenize_all(docs: &impl Documents, tokenizer: &Tokenizer<V>) -> Result<usize, TextError> {
    let mut tokens = 0;
    let mut ids = Vec::new();
    for b in docs.blocks(0) {
        let texts = docs.read(&b)?;
        for i in 0..texts.len() {
            ids.clear();
            tokenizer.encode_into(texts.get(i).unwrap_or_default(), &mut ids)?;
            tokens += ids.len();
        }
    }
    Ok(tokens)
}

/// Reads the JSON-lines file at `path` whole and tokenizes it with the committed tokenizer.
fn load_json_lines(path: &Path, tokenizer: &Tokenizer<V>) -> bool {
    JsonLines::with_block_lines(&[path], "text", 4)
        .and_then(|docs| tokenize_all(&docs, tokenizer))
        .is_ok()
}

/// Serves an epoch of the JSON-lines file at `path` through a `TextStream` with two workers:
/// whether every batch came.
fn stream_json_lines(path: &Path, tokenizer: &Tokenizer<V>) -> bool {
    let Ok(docs) = JsonLines::with_block_lines(&[path], "text", 3) else {
        return false;
    };
    let Ok(stream) = TextStream::new(docs, tokenizer.clone(), 16, 4) else {
        return false;
    };
    let mut stream = stream.window(8).workers(2).attention(true);
    let mut batches = 0;
    while let Some(batch) = stream.next_owned() {
        if batch.is_err() || batches > 10_000 {
            return false;
        }
        batches += 1;
    }
    true
}

/// Reads the tokenizer at `path` and tokenizes the committed documents with it: with the
/// post-processor's special tokens, `<eos>` after each document where the tokenizer has one, and
/// for every other input through `tokenizers`' own `encode` where the fast path would serve.
fn load_tokenizer(path: &Path, len: usize, docs: &JsonLines) -> bool {
    Tokenizer::<V>::from_file(path)
        .map(|t| t.add_special_tokens(true))
        .map(|t| {
            if len.is_multiple_of(2) {
                t.exact_path()
            } else {
                t
            }
        })
        .map(|t| t.clone().eos("<eos>").unwrap_or(t))
        .and_then(|t| tokenize_all(docs, &t))
        .is_ok()
}

// ---- Damage by structure: a tokenizer.json that lies consistently ----

fn count(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count).sum(),
        Value::Object(o) => o.values().map(count).sum(),
        _ => 0,
    }
}

/// The `k`-th node of `v` in pre-order.
fn nth(v: &mut Value, k: usize) -> Option<&mut Value> {
    if k == 0 {
        return Some(v);
    }
    let mut k = k - 1;
    let children: Vec<&mut Value> = match v {
        Value::Array(a) => a.iter_mut().collect(),
        Value::Object(o) => o.values_mut().collect(),
        _ => return None,
    };
    for c in children {
        let n = count(c);
        if k < n {
            return nth(c, k);
        }
        k -= n;
    }
    None
}

/// A value a structure-aware damage writes into a node.
fn chosen(rng: &mut Rng) -> Value {
    const NAMES: &[&str] = &[
        "",
        "BPE",
        "WordPiece",
        "WordLevel",
        "Unigram",
        "Sequence",
        "Split",
        "Precompiled",
        "TemplateProcessing",
        "RobertaProcessing",
        "BertProcessing",
        "ByteLevel",
        "Metaspace",
        "Replace",
        "Strip",
        "ByteFallback",
        "Fixed",
        "BatchLongest",
        "LongestFirst",
        "<eos>",
        "<pad>",
        "[UNK]",
        "$A",
        "$B:1",
        "Ġ",
        "\u{0}",
    ];
    match rng.below(7) {
        0 => json!(
            [
                0i64,
                -1,
                1,
                i64::from(i32::MAX),
                1i64 << 31,
                1i64 << 32,
                1i64 << 53,
                i64::MAX,
                i64::MIN
            ][rng.below(9)]
        ),
        1 => [json!(u64::MAX), json!(1e300), json!(-0.5), json!(1e-300)][rng.below(4)].clone(),
        2 => json!(NAMES[rng.below(NAMES.len())]),
        3 => json!("a".repeat(1 << rng.below(16))),
        4 => [Value::Null, json!(true), json!([]), json!({})][rng.below(4)].clone(),
        5 => json!([NAMES[rng.below(NAMES.len())], rng.below(1 << 20)]),
        _ => json!({"type": NAMES[rng.below(NAMES.len())]}),
    }
}

/// One of `items`, at random.
fn one<T: Clone>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.below(items.len())].clone()
}

/// A whole section of a tokenizer as a stranger's file may hold it: lengths beyond memory, a
/// normalizer of garbage, patterns that backtrack, special ids beyond the vocabulary.
fn section(rng: &mut Rng) -> (&'static str, Value) {
    let huge = one(rng, &[0u64, 1, 7, 1 << 20, 1 << 40, 1 << 62, u64::MAX]);
    let regex = one(
        rng,
        &[
            "(a+)+$",
            "(\\w+\\s?)+$",
            "(?=a)*",
            "(a|aa)+b",
            "\\p{L}{1000000}",
            "[",
            "",
        ],
    );
    match rng.below(9) {
        0 => (
            "padding",
            json!({"strategy": (one(rng, &[json!({"Fixed": huge}), json!("BatchLongest")])),
                   "direction": "Right", "pad_to_multiple_of": (one(rng, &[Value::Null, json!(0), json!(huge)])),
                   "pad_id": huge, "pad_type_id": 0, "pad_token": "<pad>"}),
        ),
        1 => (
            "truncation",
            json!({"direction": (one(rng, &["Right", "Left"])), "max_length": huge,
                   "strategy": "LongestFirst", "stride": (one(rng, &[0u64, 1, huge, u64::MAX]))}),
        ),
        2 => (
            "normalizer",
            json!({"type": "Precompiled", "precompiled_charsmap":
                   (one(rng, &["", "AAAA", "////", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "not base64!"]))}),
        ),
        3 => (
            "normalizer",
            json!({"type": "Replace", "pattern": {"Regex": regex}, "content": "aa"}),
        ),
        4 => (
            "pre_tokenizer",
            json!({"type": "Split", "pattern": {"Regex": regex},
                   "behavior": (one(rng, &["Isolated", "Removed", "MergedWithPrevious", "Contiguous"])),
                   "invert": (rng.below(2) == 0)}),
        ),
        5 => (
            "post_processor",
            json!({"type": "TemplateProcessing",
                   "single": [{"SpecialToken": {"id": "<x>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
                   "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": huge}}],
                   "special_tokens": {"<x>": {"id": "<x>", "ids": [huge, 1], "tokens": ["<x>"]}}}),
        ),
        6 => (
            "post_processor",
            json!({"type": (one(rng, &["RobertaProcessing", "BertProcessing"])),
                   "sep": ["</s>", huge], "cls": ["<s>", 0], "trim_offsets": true, "add_prefix_space": false}),
        ),
        7 => (
            "decoder",
            json!({"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"Regex": regex}, "content": ""}]}),
        ),
        _ => (
            "added_tokens",
            json!([{"id": huge, "content": (one(rng, &["<eos>", "", "a", "Ġthe"])), "single_word": false,
                    "lstrip": (rng.below(2) == 0), "rstrip": false, "normalized": (rng.below(2) == 0), "special": true}]),
        ),
    }
}

/// A `tokenizer.json` damaged by structure (one to three nodes or sections changed, the file
/// written out again as JSON), or by bytes one time in four.
fn mutate_tokenizer(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let Ok(mut v) = serde_json::from_slice::<Value>(seed) else {
        return mutate(seed, rng);
    };
    if rng.below(4) == 0 {
        return mutate(seed, rng);
    }
    for _ in 0..1 + rng.below(3) {
        match rng.below(4) {
            0 => {
                let k = rng.below(count(&v));
                let value = chosen(rng);
                if let Some(node) = nth(&mut v, k) {
                    *node = value;
                }
            }
            1 => {
                // A node set to another node of the same file.
                let n = count(&v);
                let from = nth(&mut v, rng.below(n)).map(|x| x.clone());
                if let (Some(from), Some(node)) = (from, nth(&mut v, rng.below(n))) {
                    *node = from;
                }
            }
            2 => {
                // A key of an object renamed: to one of the names, or with a character changed
                // (the keys of a vocabulary or of a map of special tokens are data too).
                let k = rng.below(count(&v));
                let name = match chosen(rng) {
                    Value::String(name) => Some(name),
                    _ => None,
                };
                let at = rng.below(1 << 16);
                if let Some(Value::Object(o)) = nth(&mut v, k)
                    && !o.is_empty()
                {
                    let old = o.keys().nth(at % o.len()).cloned().unwrap_or_default();
                    let new = name.unwrap_or_else(|| {
                        let mut chars: Vec<char> = old.chars().collect();
                        if chars.is_empty() {
                            chars.push('x');
                        } else {
                            let i = at % chars.len();
                            chars[i] = if chars[i] == 'A' { 'B' } else { 'A' };
                        }
                        chars.into_iter().collect()
                    });
                    if let Some(value) = o.remove(&old) {
                        o.insert(new, value);
                    }
                }
            }
            _ => {
                let (key, value) = section(rng);
                if let Value::Object(o) = &mut v {
                    o.insert(key.to_owned(), value);
                }
            }
        }
    }
    serde_json::to_vec(&v).unwrap_or_else(|_| seed.to_vec())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2026);
    let dir = std::env::temp_dir().join(format!("batchspec-fuzz-text-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    harness::count_panics();
    let mut rng = Rng(seed | 1);
    let mut reports: Vec<(&str, Report)> = Vec::new();

    let tokenizer = Tokenizer::<V>::from_file(data("tokenizer.json"))
        .and_then(|t| t.eos("<eos>"))
        .and_then(|t| t.pad("<pad>"))
        .expect("the committed tokenizer");
    let jsonl = [std::fs::read(data("small.jsonl")).expect("a committed fixture")];
    reports.push((
        "JSON lines",
        fuzz("jsonl", &jsonl, n, &mut rng, &dir, mutate, |p, _| {
            load_json_lines(p, &tokenizer)
        }),
    ));
    reports.push((
        "JSON lines (TextStream, 2 workers)",
        fuzz("jsonl-stream", &jsonl, n, &mut rng, &dir, mutate, |p, _| {
            stream_json_lines(p, &tokenizer)
        }),
    ));
    let docs = JsonLines::with_block_lines(&[data("small.jsonl")], "text", 8)
        .expect("the committed documents");
    // A byte-level BPE, a WordPiece with BERT's pipeline and a Unigram, all written by the
    // Python package (`tests/data/make_*.py`).
    let tokenizers = ["tokenizer.json", "wordpiece.json", "unigram.json"]
        .map(|name| std::fs::read(data(name)).expect("a committed fixture"));
    reports.push((
        "tokenizer.json",
        fuzz(
            "tokenizer",
            &tokenizers,
            n,
            &mut rng,
            &dir,
            mutate,
            |p, len| load_tokenizer(p, len, &docs),
        ),
    ));
    reports.push((
        "tokenizer.json (structure)",
        fuzz(
            "tokenizer-structure",
            &tokenizers,
            n,
            &mut rng,
            &dir,
            mutate_tokenizer,
            |p, len| load_tokenizer(p, len, &docs),
        ),
    ));
    let _ = std::fs::remove_dir_all(&dir);
    if harness::print_reports(n, seed, &reports) {
        eprintln!(
            "a reader panicked, hung or allocated beyond its budget (inputs in target/fuzz-crashes/)"
        );
        std::process::exit(1);
    }
}
