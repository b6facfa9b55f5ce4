//! Text sources, the tokenizer and packed streams, against files and ids written by other tools
//! (`tokenizers`, `datasets`, pyarrow: `tests/data/make_text_fixtures.py`) and plain references.

use batchspec::data::{BatchSource, SourceState};
use batchspec::load::{ParquetFiles, Rank, ShardPlan};
use batchspec::prelude::*;
use batchspec_text::pack::{Piece, Row, pack};
use batchspec_text::{
    Block, Documents, JsonLines, Long, Packed, Packing, TextColumn, TextError, TextNulls,
    TextStream, Texts, Tokenizer, flat_cu_seqlens,
};
use proptest::prelude::*;
use std::path::PathBuf;

#[path = "../../spec-core/tests/damaged_state/mod.rs"]
mod damaged_state;
use damaged_state::{edited, position};

const V: usize = 1024;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn tokenizer() -> Tokenizer<V> {
    Tokenizer::<V>::from_file(data("tokenizer.json")).unwrap()
}

/// The ids the Python `tokenizers` package gave for the 37 texts of `small.*`.
fn python_ids() -> Vec<Vec<u32>> {
    let json = fixture_json("small-ids.json");
    serde_json::from_value(json["ids"].clone()).unwrap()
}

/// The text column `column` of the fixture `file`, read by one rank.
fn column(file: &str, column: &str) -> TextColumn {
    let files = ParquetFiles::open(data(file)).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap();
    TextColumn::new(&files, &plan, column)
}

/// Every document of `docs` in epoch `epoch`, block by block, with its row; or the first error.
fn documents(docs: &impl Documents, epoch: u64) -> Result<Vec<(String, u64)>, TextError> {
    let mut out = Vec::new();
    for b in docs.blocks(epoch) {
        let t = docs.read(&b)?;
        out.extend((0..t.len()).map(|i| (t.get(i).unwrap().to_owned(), t.row(i).unwrap())));
    }
    Ok(out)
}

/// The texts alone.
fn texts_of(docs: &impl Documents) -> Vec<String> {
    documents(docs, 0)
        .unwrap()
        .into_iter()
        .map(|(t, _)| t)
        .collect()
}

#[test]
fn ids_are_the_python_packages_for_parquet_and_json_lines() {
    let tok = tokenizer();
    let expected = python_ids();
    for column in ["text", "large_text"] {
        let texts = texts_of(&self::column("small.parquet", column));
        assert_eq!(texts.len(), 37);
        let ids: Vec<Vec<u32>> = texts.iter().map(|t| tok.encode(t).unwrap()).collect();
        assert_eq!(ids, expected, "column {column}");
    }
    let lines = JsonLines::with_block_lines(&[data("small.jsonl")], "text", 8).unwrap();
    assert_eq!(texts_of(&lines), texts_of(&column("small.parquet", "text")));
}

/// A WordPiece (BERT's normalizer, pre-tokenizer and `[CLS] $A [SEP]` template) and a Unigram
/// (NFKC, a `Replace` of runs of spaces, Metaspace) tokenizer, trained and saved by the Python
/// package (`tests/data/make_tokenizer_kinds.py`): the ids are the package's for the 37 texts,
/// with and without the template's special tokens.
#[test]
fn ids_are_the_python_packages_for_wordpiece_and_unigram() {
    let json = fixture_json("kinds-ids.json");
    let expected =
        |key: &str| -> Vec<Vec<u32>> { serde_json::from_value(json[key].clone()).unwrap() };
    let texts = texts_of(&JsonLines::open(&[data("small.jsonl")], "text").unwrap());
    let ids = |tok: &Tokenizer<V>| -> Vec<Vec<u32>> {
        texts.iter().map(|t| tok.encode(t).unwrap()).collect()
    };
    let wordpiece = Tokenizer::<V>::from_file(data("wordpiece.json")).unwrap();
    assert!(!wordpiece.is_fast());
    assert_eq!(ids(&wordpiece), expected("wordpiece"));
    assert_eq!(
        ids(&wordpiece.add_special_tokens(true)),
        expected("wordpiece_special")
    );
    let unigram = Tokenizer::<V>::from_file(data("unigram.json")).unwrap();
    assert_eq!(ids(&unigram), expected("unigram"));
    // The texts hold words outside both vocabularies: the unknown tokens are in the ids.
    assert!(expected("wordpiece").iter().flatten().any(|&id| id == 1));
}

#[test]
fn bos_and_eos_go_around_each_document() {
    let tok = tokenizer().bos("<bos>").unwrap().eos("<eos>").unwrap();
    let ids = tok.encode("To be").unwrap();
    assert_eq!((ids[0], *ids.last().unwrap()), (1, 2));
    assert_eq!(
        &ids[1..ids.len() - 1],
        &tokenizer().encode("To be").unwrap()[..]
    );
    assert_eq!(tok.encode("").unwrap(), vec![1, 2]);
}

#[test]
fn the_vocabulary_is_checked_against_the_spec() {
    let err = Tokenizer::<512>::from_file(data("tokenizer.json")).unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(
            err,
            TextError::Vocabulary {
                ids: 1024,
                labels: 512,
                ..
            }
        ),
        "{msg}"
    );
    assert!(
        msg.contains("tokenizer.json") && msg.contains("IndexSeq<512>") && msg.contains("1024"),
        "{msg}"
    );
    // A wider spec is fine (models round their vocabulary up).
    assert_eq!(
        Tokenizer::<2048>::from_file(data("tokenizer.json"))
            .unwrap()
            .ids(),
        1024
    );
    let err = tokenizer().eos("</s>").unwrap_err().to_string();
    assert!(err.contains("no token \"</s>\" to use as eos"), "{err}");
    let err = Tokenizer::<V>::from_bytes(b"{\"not\": \"a tokenizer\"}").unwrap_err();
    assert!(matches!(err, TextError::Tokenizer { .. }), "{err}");
}

fn read_all(file: &str, name: &str, nulls: TextNulls) -> Result<Vec<(String, u64)>, TextError> {
    documents(&column(file, name).nulls(nulls), 0)
}

#[test]
fn a_null_is_refused_naming_file_row_and_column_or_skipped() {
    let err = read_all("nulls.parquet", "text", TextNulls::Refuse)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("nulls.parquet") && err.contains("row 13") && err.contains("text"),
        "{err}"
    );
    assert!(err.contains("null"), "{err}");
    let kept = read_all("nulls.parquet", "text", TextNulls::Skip).unwrap();
    assert_eq!(kept.len(), 24);
    assert!(kept.iter().all(|(_, row)| *row != 13));
    assert_eq!(kept[13].1, 14);
}

#[test]
fn invalid_utf8_is_refused_naming_the_row_and_byte() {
    let err = read_all("invalid-utf8.parquet", "text", TextNulls::Refuse)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("invalid-utf8.parquet") && err.contains("row 17"),
        "{err}"
    );
    assert!(err.contains("not UTF-8"), "{err}");
}

#[test]
fn a_column_of_another_type_or_name_is_refused_in_words() {
    let err = read_all("not-text.parquet", "text", TextNulls::Refuse)
        .unwrap_err()
        .to_string();
    assert!(err.contains("Int64") && err.contains("Utf8"), "{err}");
    let err = read_all("small.parquet", "body", TextNulls::Refuse)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no such column") && err.contains("large_text"),
        "{err}"
    );
}

fn jsonl(dir: &tempdir::Dir, text: &str) -> PathBuf {
    dir.write("docs.jsonl", text)
}

mod tempdir {
    use std::path::PathBuf;
    pub struct Dir(pub PathBuf);
    impl Dir {
        pub fn new(name: &str) -> Dir {
            let p =
                std::env::temp_dir().join(format!("batchspec-text-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&p);
            std::fs::create_dir_all(&p).unwrap();
            Dir(p)
        }
        pub fn write(&self, name: &str, text: &str) -> PathBuf {
            let p = self.0.join(name);
            std::fs::write(&p, text).unwrap();
            p
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn read_lines(path: &std::path::Path, nulls: TextNulls) -> Result<Vec<(String, u64)>, TextError> {
    documents(
        &JsonLines::with_block_lines(&[path], "text", 2)?.nulls(nulls),
        0,
    )
}

#[test]
fn json_lines_errors_name_the_file_and_line() {
    let dir = tempdir::Dir::new("jsonl");
    let ok = jsonl(
        &dir,
        "{\"text\": \"a\"}\n\n{\"text\": \"b\", \"x\": 1}\r\n{\"text\": \"c\"}",
    );
    let docs = read_lines(&ok, TextNulls::Refuse).unwrap();
    assert_eq!(
        docs,
        vec![("a".into(), 0), ("b".into(), 2), ("c".into(), 3)]
    );
    for (body, line, words) in [
        (
            "{\"text\": \"a\"}\n{\"text\": 3}\n",
            2,
            "a number, not a string",
        ),
        (
            "{\"text\": \"a\"}\n{\"text\": \"a\"}\n{\"txt\": \"a\"}\n",
            3,
            "no key \"text\"",
        ),
        ("{\"text\": \"a\"}\n{\"text\": nul\n", 2, "not JSON"),
        ("[1, 2]\n", 1, "not a JSON object"),
        ("{\"text\": null}\n", 1, "null"),
    ] {
        let path = jsonl(&dir, body);
        let err = read_lines(&path, TextNulls::Refuse)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("docs.jsonl") && err.contains(&format!("line {line}")),
            "{err}"
        );
        assert!(err.contains(words), "{err}");
    }
    let path = jsonl(&dir, "{\"text\": null}\n{\"y\": 1}\n{\"text\": \"z\"}\n");
    assert_eq!(
        read_lines(&path, TextNulls::Skip).unwrap(),
        vec![("z".into(), 2)]
    );
    // A line longer than the limit is refused before it is held.
    let path = jsonl(&dir, &format!("{{\"text\": \"{}\"}}\n", "x".repeat(100)));
    let docs = JsonLines::open(&[&path], "text")
        .unwrap()
        .max_line_bytes(50);
    let err = docs.read(&docs.blocks(0)[0]).unwrap_err().to_string();
    assert!(
        err.contains("line 1") && err.contains("longer than the 50 bytes"),
        "{err}"
    );
}

// ---- Packing against plain references ----

/// First fit or best fit decreasing as the textbook writes it: a scan of the rows per item.
fn reference_decreasing(lengths: &[usize], t: usize, best: bool) -> Vec<Row> {
    let mut items: Vec<Piece> = Vec::new();
    for (doc, &len) in lengths.iter().enumerate() {
        let mut start = 0;
        while start < len {
            let take = t.min(len - start);
            items.push(Piece {
                doc,
                start,
                len: take,
            });
            start += take;
        }
    }
    items.sort_by_key(|p| std::cmp::Reverse(p.len));
    let mut rows: Vec<Row> = Vec::new();
    for item in items {
        let room = |r: &Row| t - r.iter().map(|p| p.len).sum::<usize>();
        let mut chosen: Option<usize> = None;
        for (i, r) in rows.iter().enumerate() {
            if room(r) >= item.len {
                match chosen {
                    None => chosen = Some(i),
                    Some(c) if best && room(r) < room(&rows[c]) => chosen = Some(i),
                    _ => {}
                }
                if !best {
                    break;
                }
            }
        }
        match chosen {
            Some(i) => rows[i].push(item),
            None => rows.push(vec![item]),
        }
    }
    rows
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn greedy_is_the_concatenation_cut_every_t(lengths in prop::collection::vec(0usize..40, 0..60), t in 1usize..32) {
        let rows = pack(&lengths, t, Packing::Greedy, Long::Split).unwrap();
        // The rows laid end to end are the documents laid end to end.
        let laid: Vec<(usize, usize)> = rows.iter().flatten().flat_map(|p| (p.start..p.start + p.len).map(move |j| (p.doc, j))).collect();
        let expected: Vec<(usize, usize)> = lengths.iter().enumerate().flat_map(|(d, &n)| (0..n).map(move |j| (d, j))).collect();
        prop_assert_eq!(laid, expected);
        for (i, r) in rows.iter().enumerate() {
            let used: usize = r.iter().map(|p| p.len).sum();
            prop_assert!(used == t || i + 1 == rows.len());
        }
    }

    #[test]
    fn bin_packing_is_the_textbooks(lengths in prop::collection::vec(0usize..50, 0..80), t in 1usize..40, best in any::<bool>()) {
        let policy = if best { Packing::BestFit } else { Packing::FirstFit };
        let rows = pack(&lengths, t, policy, Long::Split).unwrap();
        prop_assert_eq!(&rows, &reference_decreasing(&lengths, t, best));
        // Every token of every document once; no row over t.
        let mut seen: Vec<Vec<bool>> = lengths.iter().map(|&n| vec![false; n]).collect();
        for r in &rows {
            prop_assert!(r.iter().map(|p| p.len).sum::<usize>() <= t);
            for p in r {
                for s in &mut seen[p.doc][p.start..p.start + p.len] {
                    prop_assert!(!*s);
                    *s = true;
                }
            }
        }
        prop_assert!(seen.iter().flatten().all(|&s| s));
    }
}

#[test]
fn best_fit_packs_a_realistic_corpus_almost_without_padding() {
    // The training plays' documents as the tokenizer makes them, with `<eos>`, in rows of 512:
    // nearly every document is shorter than a row.
    let tok = tokenizer().eos("<eos>").unwrap();
    let lengths: Vec<usize> = texts_of(&column("shakespeare-train.parquet", "text"))
        .iter()
        .map(|t| tok.encode(t).unwrap().len())
        .collect();
    let t = 512;
    let files = ParquetFiles::open(data("shakespeare-train.parquet")).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap();
    let mut s = TextStream::new(TextColumn::new(&files, &plan, "text"), tok, t, 16)
        .unwrap()
        .packing(Packing::BestFit);
    let (mut tokens, mut room) = (0.0, 0.0);
    while let Some(b) = s.next_batch() {
        let (b, _) = b.unwrap();
        tokens += f64::from(b.mask.array().sum());
        room += b.mask.array().len() as f64;
    }
    assert_eq!(tokens as usize, lengths.iter().sum::<usize>());
    let eff = tokens / room;
    assert!(eff >= 0.99, "best fit fills {eff:.4} of the rows");
}

// ---- The stream ----

/// Documents held in memory, in blocks of `per` documents: a source for properties.
struct InMemory {
    texts: Vec<String>,
    per: usize,
    rank: usize,
    world: usize,
    seed: Option<u64>,
}

impl Documents for InMemory {
    fn source(&self) -> &'static str {
        "text"
    }
    fn blocks(&self, epoch: u64) -> Vec<Block> {
        let n = self.texts.len().div_ceil(self.per);
        let order: Vec<usize> = match self.seed {
            Some(s) => batchspec::iteration::permutation(n, s, epoch),
            None => (0..n).collect(),
        };
        order
            .into_iter()
            .skip(self.rank)
            .step_by(self.world)
            .map(|i| Block {
                file: 0,
                index: i,
                first_row: (i * self.per) as u64,
                rows: self.per.min(self.texts.len() - i * self.per),
            })
            .collect()
    }
    fn read(&self, b: &Block) -> Result<Texts, TextError> {
        let mut t = Texts::new();
        for r in b.first_row..b.first_row + b.rows as u64 {
            t.push(&self.texts[r as usize], r);
        }
        Ok(t)
    }
    fn file(&self, _: &Block) -> String {
        "memory".into()
    }
    fn plan(&self) -> String {
        format!("{} texts in blocks of {}", self.texts.len(), self.per)
    }
    fn seed(&self) -> Option<u64> {
        self.seed
    }
    fn rank(&self) -> (usize, usize) {
        (self.rank, self.world)
    }
    fn fingerprint(&self) -> u64 {
        batchspec::data::fingerprint(&[self.texts.join("\u{1}").as_bytes()])
    }
}

const WORDS: &[&str] = &[
    "to", "be", "or", "not", "that", "is", "the", "question", "whether", "tis", "nobler", "in",
    "mind",
];

fn corpus(n: usize, seed: u64) -> Vec<String> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let words = (s >> 33) % 40;
            (0..words)
                .map(|k| WORDS[((s >> 7) as usize + k as usize * 7) % WORDS.len()])
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[derive(Clone, Copy, Debug)]
struct Options {
    t: usize,
    batch: usize,
    window: usize,
    per: usize,
    policy: Packing,
    workers: usize,
}

fn options() -> impl Strategy<Value = Options> {
    (
        2usize..48,
        1usize..5,
        1usize..30,
        1usize..12,
        0usize..3,
        1usize..4,
    )
        .prop_map(|(t, batch, window, per, p, workers)| Options {
            t,
            batch,
            window,
            per,
            policy: [Packing::Greedy, Packing::FirstFit, Packing::BestFit][p],
            workers,
        })
}

fn stream(
    texts: &[String],
    o: Options,
    rank: usize,
    world: usize,
    seed: Option<u64>,
) -> TextStream<InMemory, V> {
    let docs = InMemory {
        texts: texts.to_vec(),
        per: o.per,
        rank,
        world,
        seed,
    };
    let tok = tokenizer().eos("<eos>").unwrap().pad("<pad>").unwrap();
    TextStream::new(docs, tok, o.t, o.batch)
        .unwrap()
        .packing(o.policy)
        .window(o.window)
        .workers(o.workers)
        .attention(true)
}

fn epoch(s: &mut TextStream<InMemory, V>) -> Vec<Packed<V>> {
    std::iter::from_fn(|| s.next_owned())
        .map(|b| b.unwrap().0)
        .collect()
}

/// Checks every leaf of a batch against the tokens and segments it holds: targets, masks,
/// positions, attention and cumulative lengths follow the segments and never cross them.
fn check_leaves(b: &Packed<V>, t: usize, pad: i64) {
    let (x, y) = (b.tokens.array(), b.targets.array());
    let (seg, pos) = (b.segments.array(), b.positions.array());
    let (lm, m, att, cu) = (
        b.loss_mask.array(),
        b.mask.array(),
        b.attention.array(),
        b.cu_seqlens.array(),
    );
    for r in 0..x.shape()[0] {
        let mut ends = vec![0i32];
        for j in 0..t {
            let s = seg[[r, j]];
            if s == 0 {
                assert_eq!(
                    (x[[r, j]], m[[r, j]], lm[[r, j]], pos[[r, j]]),
                    (pad, 0.0, 0.0, 0)
                );
                assert!(
                    seg.row(r).iter().skip(j).all(|&v| v == 0),
                    "padding only at the end"
                );
                continue;
            }
            assert_eq!(m[[r, j]], 1.0);
            let starts = j == 0 || seg[[r, j - 1]] != s;
            assert_eq!(pos[[r, j]] == 0, starts);
            if !starts {
                assert_eq!(pos[[r, j]], pos[[r, j - 1]] + 1);
            }
            let same_next = j + 1 < t && seg[[r, j + 1]] == s;
            assert_eq!(
                lm[[r, j]] == 1.0,
                same_next,
                "a target only inside its document"
            );
            if same_next {
                assert_eq!(y[[r, j]], x[[r, j + 1]]);
            } else {
                assert_eq!(y[[r, j]], pad);
                ends.push(j as i32 + 1);
            }
            for k in 0..t {
                assert_eq!(
                    att[[r, j, k]] == 1.0,
                    seg[[r, k]] == s,
                    "attention within the document only"
                );
            }
        }
        if *ends.last().unwrap() < t as i32 {
            ends.push(t as i32);
        }
        let row: Vec<i32> = cu.row(r).to_vec();
        assert_eq!(&row[..ends.len()], &ends[..]);
        assert!(row[ends.len()..].iter().all(|&v| v == t as i32));
    }
}

/// The documents as the rows hold them: each segment's tokens, in order, per document, by
/// joining the pieces of a split document (greedy cuts them across rows).
fn segments_of(batches: &[Packed<V>]) -> Vec<Vec<i64>> {
    let mut out = Vec::new();
    for b in batches {
        let (x, seg) = (b.tokens.array(), b.segments.array());
        for r in 0..x.shape()[0] {
            let mut cur: Vec<i64> = Vec::new();
            let mut s = 0;
            for j in 0..x.shape()[1] {
                if seg[[r, j]] != s {
                    if !cur.is_empty() {
                        out.push(std::mem::take(&mut cur));
                    }
                    s = seg[[r, j]];
                }
                if s != 0 {
                    cur.push(x[[r, j]]);
                }
            }
            if !cur.is_empty() {
                out.push(cur);
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Every document's tokens are in the epoch exactly once, as segments (pieces of at most a
    /// row), in any packing, and no leaf crosses a segment.
    #[test]
    fn every_document_once_and_nothing_crosses_a_document(n in 0usize..60, seed in any::<u64>(), o in options()) {
        let texts = corpus(n, seed);
        let tok = tokenizer().eos("<eos>").unwrap();
        let mut s = stream(&texts, o, 0, 1, None);
        let batches = epoch(&mut s);
        for b in &batches {
            check_leaves(b, o.t, 0);
            prop_assert!(b.tokens.len() <= o.batch);
        }
        // Every document's ids, cut into the pieces a row can hold, as a multiset.
        let mut expected: Vec<Vec<i64>> = Vec::new();
        let mut got = segments_of(&batches);
        let ids: Vec<Vec<i64>> = texts.iter().map(|t| tok.encode(t).unwrap().into_iter().map(i64::from).collect()).collect();
        let total: usize = ids.iter().map(Vec::len).sum();
        prop_assert_eq!(got.iter().map(Vec::len).sum::<usize>(), total);
        if o.policy != Packing::Greedy {
            for d in &ids {
                expected.extend(d.chunks(o.t).map(<[i64]>::to_vec));
            }
            expected.sort();
            got.sort();
            prop_assert_eq!(got, expected);
        } else {
            // Greedy: the segments laid end to end are the documents laid end to end.
            let laid: Vec<i64> = got.concat();
            prop_assert_eq!(laid, ids.concat());
        }
    }

    /// The same batches at any number of workers; a resumed stream serves exactly what the
    /// uninterrupted one served after the state, at any batch boundary, then the next epoch.
    #[test]
    fn deterministic_and_resumable(n in 1usize..50, seed in any::<u64>(), o in options(), at in 0usize..20, order in proptest::option::of(any::<u64>())) {
        let texts = corpus(n, seed);
        let mut s = stream(&texts, o, 0, 1, order);
        let all = epoch(&mut s);
        let mut one = stream(&texts, Options { workers: 1, ..o }, 0, 1, order);
        let same = epoch(&mut one);
        prop_assert!(all.iter().zip(&same).all(|(a, b)| a.tokens.array() == b.tokens.array()));
        prop_assert_eq!(all.len(), same.len());

        let at = at.min(all.len());
        let mut first = stream(&texts, o, 0, 1, order);
        for _ in 0..at {
            first.next_owned().unwrap().unwrap();
        }
        let saved = serde_json::to_string(&first.state()).unwrap();
        let mut resumed = stream(&texts, Options { workers: 1, ..o }, 0, 1, order);
        resumed.resume(&serde_json::from_str::<SourceState>(&saved).unwrap()).unwrap();
        let rest = epoch(&mut resumed);
        prop_assert_eq!(rest.len(), all.len() - at);
        for (a, b) in rest.iter().zip(&all[at..]) {
            prop_assert_eq!(a.tokens.array(), b.tokens.array());
            prop_assert_eq!(a.segments.array(), b.segments.array());
        }
        resumed.start_epoch(1);
        let mut fresh = stream(&texts, o, 0, 1, order);
        fresh.start_epoch(1);
        let (a, b) = (epoch(&mut resumed), epoch(&mut fresh));
        prop_assert!(a.iter().zip(&b).all(|(a, b)| a.tokens.array() == b.tokens.array()) && a.len() == b.len());
    }

    /// Across ranks every document is served exactly once.
    #[test]
    fn ranks_share_the_documents_exactly_once(n in 0usize..60, seed in any::<u64>(), o in options(), world in 1usize..4, order in any::<u64>()) {
        let texts = corpus(n, seed);
        let o = Options { policy: Packing::BestFit, ..o };
        let mut got: Vec<Vec<i64>> = Vec::new();
        for rank in 0..world {
            let mut s = stream(&texts, o, rank, world, Some(order));
            s.start_epoch(3);
            got.extend(segments_of(&epoch(&mut s)));
        }
        let tok = tokenizer().eos("<eos>").unwrap();
        let mut expected: Vec<Vec<i64>> = texts.iter().flat_map(|t| {
            let ids: Vec<i64> = tok.encode(t).unwrap().into_iter().map(i64::from).collect();
            ids.chunks(o.t).map(<[i64]>::to_vec).collect::<Vec<_>>()
        }).collect();
        expected.sort();
        got.sort();
        prop_assert_eq!(got, expected);
    }
}

#[test]
fn a_state_of_another_stream_is_refused() {
    let texts = corpus(30, 1);
    let o = Options {
        t: 16,
        batch: 2,
        window: 5,
        per: 4,
        policy: Packing::FirstFit,
        workers: 1,
    };
    let mut a = stream(&texts, o, 0, 1, None);
    a.next_owned();
    let state = a.state();
    let mut b = stream(&texts, Options { t: 32, ..o }, 0, 1, None);
    let err = b.resume(&state).unwrap_err().to_string();
    assert!(
        err.contains("plan") && err.contains("rows of 16 tokens"),
        "{err}"
    );
    let mut c = stream(&corpus(30, 2), o, 0, 1, None);
    let err = c.resume(&state).unwrap_err().to_string();
    assert!(err.contains("data"), "{err}");
}

#[test]
fn a_long_document_is_refused_by_policy_naming_its_row() {
    let files = ParquetFiles::open(data("small.parquet")).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap();
    let docs = TextColumn::new(&files, &plan, "text");
    let mut s = TextStream::new(docs, tokenizer(), 64, 4)
        .unwrap()
        .long(Long::Refuse)
        .packing(Packing::BestFit);
    let err = loop {
        match s.next_owned() {
            Some(Ok(_)) => {}
            Some(Err(e)) => break e.to_string(),
            None => panic!("the long text was served"),
        }
    };
    assert!(
        err.contains("small.parquet row") && err.contains("more than a row's 64"),
        "{err}"
    );
    assert!(s.next_owned().is_none(), "the stream ends after its error");
}

/// A tokenizer that cannot tokenize a document (a WordPiece whose vocabulary lacks its unknown
/// token, so a word outside it fails) is an error naming the tokenizer's file and, in a stream,
/// the document's file and row; a `tokenizer.json` that is not JSON (a lone surrogate in its
/// decoder, which `tokenizers` 0.23 panics on) is refused naming the file.
#[test]
fn tokenizer_failures_name_the_tokenizer_and_the_document() {
    let dir = tempdir::Dir::new("tokenizer-failures");
    let path = dir.write(
        "wordpiece.json",
        r###"{"version": "1.0", "truncation": null, "padding": null, "added_tokens": [],
        "normalizer": null, "pre_tokenizer": {"type": "Whitespace"}, "post_processor": null,
        "decoder": null, "model": {"type": "WordPiece", "unk_token": "[UNK]",
        "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
        "vocab": {"to": 0, "be": 1, "or": 2, "not": 3}}}"###,
    );
    let tok = Tokenizer::<V>::from_file(&path).unwrap();
    assert_eq!(
        tok.encode("to be or not to be").unwrap(),
        [0, 1, 2, 3, 0, 1]
    );
    let err = tok.encode("to question").unwrap_err();
    assert!(
        matches!(&err, TextError::Encode { file, place: None, .. } if file.ends_with("wordpiece.json")),
        "{err:?}"
    );

    let docs = InMemory {
        texts: vec![
            "to be".into(),
            "or not".into(),
            "that is".into(),
            "to be".into(),
        ],
        per: 2,
        rank: 0,
        world: 1,
        seed: None,
    };
    let mut s = TextStream::new(docs, tok, 8, 2).unwrap();
    let err = loop {
        match s.next_owned() {
            Some(Ok(_)) => {}
            Some(Err(e)) => break e.to_string(),
            None => panic!("the document the tokenizer fails on was served"),
        }
    };
    assert!(
        err.contains("wordpiece.json") && err.contains("on the document at memory row 2"),
        "{err}"
    );

    let broken = dir.write("broken.json", r#"{"decoder": {"type": "\ud800"}}"#);
    let err = Tokenizer::<V>::from_file(&broken).unwrap_err().to_string();
    assert!(
        err.contains("broken.json") && err.contains("not JSON") && err.contains("line 1 column"),
        "{err}"
    );
}

/// The committed `tokenizer.json` with each section of `edits` set to its value, written to `dir`
/// as `name`.
fn tokenizer_with(
    dir: &tempdir::Dir,
    name: &str,
    edits: &[(&str, serde_json::Value)],
) -> std::path::PathBuf {
    let mut json = fixture_json("tokenizer.json");
    for (section, value) in edits {
        json[*section] = value.clone();
    }
    dir.write(name, &json.to_string())
}

/// The committed JSON fixture `name`, parsed.
fn fixture_json(name: &str) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(data(name)).unwrap()).unwrap()
}

/// Asserts that the tokenizer `json`, written to `dir` as `name`, is refused in words naming the
/// file and saying `words`.
fn assert_refused(dir: &tempdir::Dir, name: &str, json: &serde_json::Value, words: &str) {
    let path = dir.write(name, &json.to_string());
    let err = Tokenizer::<V>::from_file(&path).unwrap_err().to_string();
    assert!(err.contains(name) && err.contains(words), "{name}: {err}");
}

/// A `tokenizer.json` that asks for truncation (to 2 tokens) and padding (to 2^40 tokens, which
/// would allocate terabytes per document) is read without them: documents are kept whole, as
/// the Python package tokenized them, and rows are padded by the stream.
#[test]
fn a_tokenizers_truncation_and_padding_are_not_applied() {
    let dir = tempdir::Dir::new("truncation");
    let path = tokenizer_with(
        &dir,
        "truncating.json",
        &[
            (
                "truncation",
                serde_json::json!({"direction": "Right", "max_length": 2,
                    "strategy": "LongestFirst", "stride": 0}),
            ),
            (
                "padding",
                serde_json::json!({"strategy": {"Fixed": 1u64 << 40}, "direction": "Right",
                    "pad_to_multiple_of": null, "pad_id": 0, "pad_type_id": 0, "pad_token": "<pad>"}),
            ),
        ],
    );
    let tok = Tokenizer::<V>::from_file(&path).unwrap();
    assert!(tok.inner().get_truncation().is_none() && tok.inner().get_padding().is_none());
    let docs = JsonLines::open(&[data("small.jsonl")], "text").unwrap();
    let ids: Vec<Vec<u32>> = documents(&docs, 0)
        .unwrap()
        .iter()
        .map(|(text, _)| tok.clone().exact_path().encode(text).unwrap())
        .collect();
    assert_eq!(ids, python_ids());
}

/// What `tokenizers` 0.23 cannot run, or would run with memory out of proportion to the file,
/// is refused when the tokenizer is read, in words naming the file: a `Replace` normalizer that
/// inserts text where its pattern matches the empty string (the crate panics on the first
/// document), a `Precompiled` normalizer whose map does not decode (the crate `expect`s it), a
/// pattern that compiles to more than 1 MiB, more than 16 patterns, special tokens of the
/// post-processor beyond the spec's ids, a template for one sequence naming the second, a
/// template's special token that its map does not hold by that key, a BPE merge longer than the
/// crate's buffer, and a Unigram piece of 16 KB. What it can run is read, look-arounds included.
#[test]
fn tokenizers_that_tokenizers_cannot_run_are_refused_in_words() {
    let dir = tempdir::Dir::new("unrunnable");
    let replace = |pattern: serde_json::Value, content: &str| serde_json::json!({"type": "Replace", "pattern": pattern, "content": content});
    let refused = [
        (
            "empty-regex.json",
            vec![(
                "normalizer",
                replace(serde_json::json!({"Regex": ""}), "aa"),
            )],
            "can match the empty string",
        ),
        (
            "starred.json",
            vec![(
                "normalizer",
                serde_json::json!({"type": "Sequence", "normalizers": [
                    {"type": "NFC"},
                    replace(serde_json::json!({"Regex": "x*"}), "y")]}),
            )],
            "can match the empty string",
        ),
        (
            "lookahead.json",
            vec![(
                "normalizer",
                replace(serde_json::json!({"Regex": "(?!x)"}), "aa"),
            )],
            "can match the empty string",
        ),
        (
            "empty-string.json",
            vec![(
                "normalizer",
                replace(serde_json::json!({"String": ""}), "aa"),
            )],
            "can match the empty string",
        ),
        (
            "precompiled.json",
            vec![(
                "normalizer",
                serde_json::json!({"type": "Precompiled", "precompiled_charsmap": ""}),
            )],
            "`Precompiled` normalizer cannot be read",
        ),
        (
            "large-pattern.json",
            vec![(
                "pre_tokenizer",
                serde_json::json!({"type": "Split", "pattern": {"Regex": "\\p{L}{100}"},
                    "behavior": "Isolated", "invert": false}),
            )],
            "cannot be used within 1024 KiB",
        ),
        (
            "many-patterns.json",
            vec![(
                "pre_tokenizer",
                serde_json::json!({"type": "Sequence", "pretokenizers":
                    vec![serde_json::json!({"type": "Split", "pattern": {"Regex": "a"},
                        "behavior": "Isolated", "invert": false}); 17]}),
            )],
            "17 regular expressions, more than the 16",
        ),
        (
            "template.json",
            vec![(
                "post_processor",
                serde_json::json!({"type": "TemplateProcessing",
                    "single": [{"Sequence": {"id": "B", "type_id": 0}}],
                    "pair": [{"Sequence": {"id": "A", "type_id": 0}}],
                    "special_tokens": {}}),
            )],
            "template for one sequence names the second",
        ),
        (
            // A piece written as a list (serde reads a struct from either).
            "listed.json",
            vec![(
                "post_processor",
                serde_json::json!({"type": "TemplateProcessing",
                    "single": [{"SpecialToken": ["WordLevel", 655543]}, {"Sequence": ["A", 0]}],
                    "pair": [{"Sequence": {"id": "A", "type_id": 0}}],
                    "special_tokens": {}}),
            )],
            "puts the special token \"WordLevel\"",
        ),
        (
            "listed-ids.json",
            vec![(
                "post_processor",
                serde_json::json!({"type": "TemplateProcessing",
                    "single": [{"SpecialToken": {"id": "<x>", "type_id": 0}},
                               {"Sequence": {"id": "A", "type_id": 0}}],
                    "pair": [{"Sequence": {"id": "A", "type_id": 0}}],
                    "special_tokens": {"<x>": ["<x>", [7000], ["<x>"]]}}),
            )],
            "gives ids up to 7000",
        ),
        (
            "special-ids.json",
            vec![(
                "post_processor",
                serde_json::json!({"type": "TemplateProcessing",
                    "single": [{"SpecialToken": {"id": "<x>", "type_id": 0}},
                               {"Sequence": {"id": "A", "type_id": 0}}],
                    "pair": [{"Sequence": {"id": "A", "type_id": 0}}],
                    "special_tokens": {"<x>": {"id": "<x>", "ids": [5000], "tokens": ["<x>"]}}}),
            )],
            "gives ids up to 5000",
        ),
    ];
    for (name, edits, words) in refused {
        let mut json = fixture_json("tokenizer.json");
        for (section, value) in edits {
            json[section] = value;
        }
        assert_refused(&dir, name, &json, words);
    }
    // A Unigram piece of 16 KB (the crate's tree of pieces, as deep, is dropped recursively:
    // this overflowed the stack, an abort), and the same without the model's `type`, which
    // `tokenizers` reads by its fields.
    let mut unigram = fixture_json("unigram.json");
    unigram["model"]["vocab"][100][0] = serde_json::json!("a".repeat(16 << 10));
    let words = "piece 100 is 16384 bytes long";
    assert_refused(&dir, "deep.json", &unigram, words);
    unigram["model"].as_object_mut().unwrap().remove("type");
    assert_refused(&dir, "untyped.json", &unigram, words);

    // The WordPiece's template with a special token that is not a key of its `special_tokens`
    // (a byte changed in the key: the crate checks the token's `id` field, then panics on the
    // key).
    let mut template = fixture_json("wordpiece.json");
    let tokens = template["post_processor"]["special_tokens"]
        .as_object_mut()
        .unwrap();
    let sep = tokens.remove("[SEP]").unwrap();
    tokens.insert("[SEQ]".into(), sep);
    assert_refused(&dir, "key.json", &template, "special token \"[SEP]\"");

    // A merge of the vocabulary's longest token with itself (the crate's buffer holds one).
    let mut merged = fixture_json("tokenizer.json");
    let longest = merged["model"]["vocab"]
        .as_object()
        .unwrap()
        .keys()
        .max_by_key(|k| k.len())
        .unwrap()
        .clone();
    merged["model"]["merges"][0] = serde_json::json!([longest, longest]);
    assert_refused(&dir, "merge.json", &merged, "its merge 0");

    // Runnable: a replacement of a pattern that cannot be empty (a look-ahead before a letter),
    // an empty replacement of one that can, and a split on a look-ahead.
    let path = tokenizer_with(
        &dir,
        "runnable.json",
        &[
            (
                "normalizer",
                serde_json::json!({"type": "Sequence", "normalizers": [
                    replace(serde_json::json!({"Regex": "(?=b)b"}), "B"),
                    replace(serde_json::json!({"Regex": "x*"}), "")]}),
            ),
            (
                "pre_tokenizer",
                serde_json::json!({"type": "Sequence", "pretokenizers": [
                    {"type": "Split", "pattern": {"Regex": "\\s+(?!\\S)"},
                     "behavior": "Isolated", "invert": false},
                    {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true,
                     "use_regex": true}]}),
            ),
        ],
    );
    let tok = Tokenizer::<V>::from_file(&path).unwrap();
    assert!(!tok.encode("to be, or not to be").unwrap().is_empty());
}

/// A model's request: time-major ids, the loss mask, `i64` positions, the attention.
#[derive(DataSpec)]
struct TimeMajor {
    #[spec(source = "tokens")]
    x: Batch<IndexSeq<V, TB>>,
    #[spec(source = "targets")]
    y: Batch<IndexSeq<V, TB>>,
    #[spec(source = "loss_mask")]
    keep: Batch<Mask<TB>>,
    #[spec(source = "positions")]
    pos: Batch<Positions<TB, i64>>,
    #[spec(source = "attention")]
    attention: Batch<Attention>,
    #[spec(source = "cu_seqlens")]
    cu: Batch<CuSeqlens<i64>>,
}

#[test]
fn a_request_gets_its_leaves_in_its_own_layouts_and_types() {
    let files = ParquetFiles::open(data("shakespeare-test.parquet")).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap();
    let tok = tokenizer().eos("<eos>").unwrap().pad("<pad>").unwrap();
    let make = || {
        TextStream::new(TextColumn::new(&files, &plan, "text"), tok.clone(), 64, 4)
            .unwrap()
            .packing(Packing::BestFit)
    };
    let mut packed = make();
    let mut asked = make().request::<TimeMajor>();
    let (p, _) = packed.next_owned().unwrap().unwrap();
    let (q, info) = asked.next_owned().unwrap().unwrap();
    assert_eq!(info.count_samples, 4);
    assert_eq!(q.x.array().shape(), &[64, 4]);
    assert_eq!(q.x.array().t(), p.tokens.array().view());
    assert_eq!(q.y.array().t(), p.targets.array().view());
    assert_eq!(q.keep.array().t(), p.loss_mask.array().view());
    assert_eq!(
        q.pos.array().t().mapv(|v| v as i32),
        p.positions.array().view()
    );
    // The attention is computed because the request asks for it (the plain stream's is empty).
    assert_eq!(p.attention.array().shape(), &[4, 0, 0]);
    assert_eq!(q.attention.array().shape(), &[4, 64, 64]);
    let flat = flat_cu_seqlens(&q.cu.array().view(), 64);
    assert_eq!((flat[0], *flat.last().unwrap()), (0, 4 * 64));
    assert!(flat.windows(2).all(|w| w[0] < w[1]));
}

// ---- The fast path against tokenizers' own encode ----

/// Texts of the characters the GPT-2 split treats differently: spaces and other whitespace
/// (runs before words, at the end), letters of several scripts, digits of two, punctuation,
/// apostrophes and contractions, combining marks, emoji, and the added tokens whole and cut.
fn tricky_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        " ",
        "  ",
        "   ",
        "\n",
        "\n\n",
        "\t",
        "\r\n",
        "\u{a0}",
        "\u{2028}",
        "\u{3000}",
        "a",
        "To",
        "be",
        "é",
        "ß",
        "日本",
        "Ωμέγα",
        "١٢٣",
        "42",
        "0",
        "'s",
        "'t",
        "'re",
        "'ve",
        "'m",
        "'ll",
        "'d",
        "'S",
        "'",
        "\"",
        ",",
        ".",
        "!?",
        "--",
        "\u{301}",
        "e\u{301}",
        "🦀",
        "👩\u{200d}💻",
        "<bos>",
        "<eos>",
        "<pad>",
        "<bo",
        "s>",
        "<",
        ">",
        "\\",
        "\u{0}",
        "_",
        "😀😀",
    ]);
    prop::collection::vec(pieces, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn the_fast_path_gives_tokenizers_ids(text in tricky_text()) {
        let (fast, exact) = fast_and_exact();
        prop_assert!(fast.is_fast());
        prop_assert_eq!(fast.encode(&text).unwrap(), exact.encode(&text).unwrap(), "{:?}", text);
    }
}

/// The tokenizer and its exact path, loaded once for the property's cases, as a run loads its
/// tokenizer once for all its texts (loaded per case, the vocabulary and merges parsed twice
/// over in a debug build took 22 s of the 1000 cases' 22.5).
fn fast_and_exact() -> &'static (Tokenizer<V>, Tokenizer<V>) {
    static BOTH: std::sync::OnceLock<(Tokenizer<V>, Tokenizer<V>)> = std::sync::OnceLock::new();
    BOTH.get_or_init(|| (tokenizer(), tokenizer().exact_path()))
}

#[test]
fn the_fast_path_gives_tokenizers_ids_on_the_corpus() {
    let (fast, exact) = (tokenizer(), tokenizer().exact_path());
    for file in [
        "shakespeare-train.parquet",
        "shakespeare-test.parquet",
        "small.parquet",
    ] {
        for t in texts_of(&column(file, "text")) {
            assert_eq!(fast.encode(&t).unwrap(), exact.encode(&t).unwrap(), "{t:?}");
        }
    }
}

// ---- JSON lines against a plain reference ----

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any file of lines (blank ones, CRLF endings, the last one with or without its newline),
    /// cut into blocks of any size and dealt to any number of ranks: every document once, in
    /// order within its block, with its line; as a plain split of the file on newlines says.
    #[test]
    fn json_lines_blocks_hold_every_line_once(
        lines in prop::collection::vec((prop::option::of("[a-z ]{0,12}"), any::<bool>()), 0..40),
        last_newline in any::<bool>(),
        per in 1usize..7,
        world in 1usize..4,
        seed in proptest::option::of(any::<u64>()),
    ) {
        let dir = tempdir::Dir::new(&format!("jsonl-prop-{per}-{world}"));
        let mut body = String::new();
        for (i, (text, crlf)) in lines.iter().enumerate() {
            match text {
                Some(t) => body.push_str(&serde_json::json!({ "text": t, "n": i }).to_string()),
                None => body.push_str("  "),
            }
            if i + 1 < lines.len() || last_newline {
                body.push_str(if *crlf { "\r\n" } else { "\n" });
            }
        }
        let path = dir.write("p.jsonl", &body);
        // The reference: the file split on newlines, blank lines left out.
        let mut expected: Vec<(String, u64)> = body
            .split('\n')
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| {
                let v: serde_json::Value = serde_json::from_str(l.trim_end_matches('\r')).unwrap();
                (v["text"].as_str().unwrap().to_owned(), i as u64)
            })
            .collect();
        let mut got = Vec::new();
        for rank in 0..world {
            let mut docs = JsonLines::with_block_lines(&[&path], "text", per).unwrap().shard(rank, world).unwrap();
            if let Some(s) = seed {
                docs = docs.shuffle(s);
            }
            for b in docs.blocks(2) {
                let t = docs.read(&b).unwrap();
                let rows: Vec<u64> = (0..t.len()).map(|i| t.row(i).unwrap()).collect();
                prop_assert!(rows.windows(2).all(|w| w[0] < w[1]));
                prop_assert!(rows.iter().all(|&r| r >= b.first_row && r < b.first_row + b.rows as u64));
                got.extend((0..t.len()).map(|i| (t.get(i).unwrap().to_owned(), t.row(i).unwrap())));
            }
        }
        got.sort_by_key(|g| g.1);
        expected.sort_by_key(|e| e.1);
        prop_assert_eq!(got, expected);
    }
}

/// The real reader with gaps in its rows (nulls skipped), rows of 8, windows of one row: a
/// resume at every batch boundary of every policy serves what the uninterrupted stream served.
#[test]
fn a_parquet_stream_with_skipped_nulls_resumes_at_every_batch() {
    let files = ParquetFiles::open(data("nulls.parquet")).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap())
        .unwrap()
        .shuffle(3);
    for policy in [Packing::Greedy, Packing::FirstFit, Packing::BestFit] {
        let make = || {
            let docs = TextColumn::new(&files, &plan, "text").nulls(TextNulls::Skip);
            TextStream::new(docs, tokenizer().eos("<eos>").unwrap(), 8, 2)
                .unwrap()
                .packing(policy)
                .window(1)
        };
        let mut whole = make();
        whole.start_epoch(1);
        let all: Vec<Packed<V>> = std::iter::from_fn(|| whole.next_owned())
            .map(|b| b.unwrap().0)
            .collect();
        assert!(all.len() > 3, "{policy:?}: {} batches", all.len());
        for at in 0..=all.len() {
            let mut first = make();
            first.start_epoch(1);
            for _ in 0..at {
                first.next_owned().unwrap().unwrap();
            }
            let mut resumed = make();
            resumed.resume(&first.state()).unwrap();
            let rest: Vec<Packed<V>> = std::iter::from_fn(|| resumed.next_owned())
                .map(|b| b.unwrap().0)
                .collect();
            assert_eq!(rest.len(), all.len() - at, "{policy:?} at {at}");
            for (a, b) in rest.iter().zip(&all[at..]) {
                assert_eq!(a.tokens.array(), b.tokens.array(), "{policy:?} at {at}");
                assert_eq!(a.segments.array(), b.segments.array(), "{policy:?} at {at}");
            }
        }
    }
}

// ---- Damaged files from strangers: errors naming the file, never a panic ----

/// `bytes` with `edits` made in turn, each at a place drawn over the bytes as they are then: a
/// byte overwritten, deleted or inserted (the mutations of the core's readers' fuzzer).
fn damaged(bytes: &[u8], edits: &[(prop::sample::Index, u8, u8)]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for (at, kind, v) in edits {
        if b.is_empty() {
            b.push(*v);
            continue;
        }
        let i = at.index(b.len());
        match kind % 3 {
            0 => b[i] = *v,
            1 => {
                b.remove(i);
            }
            _ => b.insert(i, *v),
        }
    }
    b
}

fn edits() -> impl Strategy<Value = Vec<(prop::sample::Index, u8, u8)>> {
    prop::collection::vec(
        (any::<prop::sample::Index>(), any::<u8>(), any::<u8>()),
        1..12,
    )
}

/// Every document of the JSON-lines file `path`, tokenized by `tokenizer`: the ids, or the
/// first error.
fn tokenized(path: &std::path::Path, tokenizer: &Tokenizer<V>) -> Result<Vec<Vec<u32>>, TextError> {
    let docs = JsonLines::with_block_lines(&[path], "text", 4)?;
    documents(&docs, 0)?
        .iter()
        .map(|(text, _)| tokenizer.encode(text))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A damaged `small.jsonl` reads as documents, or is an error naming the file; never a
    /// panic.
    #[test]
    fn damaged_json_lines_are_documents_or_errors_naming_the_file(edits in edits()) {
        let dir = tempdir::Dir::new("damaged-jsonl");
        let bytes = damaged(&std::fs::read(data("small.jsonl")).unwrap(), &edits);
        let path = dir.0.join("docs.jsonl");
        std::fs::write(&path, &bytes).unwrap();
        let t = tokenizer();
        let read = std::panic::catch_unwind(|| tokenized(&path, &t));
        prop_assert!(read.is_ok(), "a damaged JSON-lines file panicked the reader");
        if let Ok(Err(e)) = read {
            prop_assert!(e.to_string().contains("docs.jsonl"), "{e}");
        }
    }

    /// A damaged `tokenizer.json` is a tokenizer that tokenizes the documents (or refuses one
    /// in words), or an error naming the file; never a panic.
    #[test]
    fn damaged_tokenizers_are_tokenizers_or_errors_naming_the_file(edits in edits()) {
        let dir = tempdir::Dir::new("damaged-tokenizer");
        let bytes = damaged(&std::fs::read(data("tokenizer.json")).unwrap(), &edits);
        let path = dir.0.join("tok.json");
        std::fs::write(&path, &bytes).unwrap();
        let read = std::panic::catch_unwind(|| {
            let t = Tokenizer::<V>::from_file(&path)?;
            tokenized(&data("small.jsonl"), &t)
        });
        prop_assert!(read.is_ok(), "a damaged tokenizer.json panicked");
        if let Ok(Err(TextError::Tokenizer { file, .. } | TextError::Vocabulary { file, .. })) = &read {
            prop_assert!(file.contains("tok.json"), "{file}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// A stream's saved state with a damaged position (epoch, batches or samples edited, up to
    /// `u64::MAX`) resumes or is refused in words, promptly; never a panic or a hang.
    #[test]
    fn a_damaged_position_resumes_or_is_refused(
        n in 1usize..40, seed in any::<u64>(), o in options(), at in 0usize..6,
        edits in [position(), position(), position()],
    ) {
        let texts = corpus(n, seed);
        let mut s = stream(&texts, o, 0, 1, Some(seed));
        for _ in 0..at {
            let _ = s.next_owned();
        }
        let state = edited(&s.state(), edits);
        let t = std::time::Instant::now();
        let mut r = stream(&texts, o, 0, 1, Some(seed));
        if r.resume(&state).is_ok() {
            let served = std::iter::from_fn(|| r.next_owned()).take(1000).count();
            prop_assert!(served < 1000, "served {served} batches");
        }
        prop_assert!(t.elapsed().as_secs() < 10, "took {:?}", t.elapsed());
    }
}
