//! Text: read + tokenize + pack into batches of token ids, tokens per second, beside Hugging Face
//! `datasets` doing run_clm.py's `map(tokenize, batched=True)` + `group_texts` on the same
//! Parquet file in the same run (`benches/src/text_python.py`); and the share of non-padding
//! tokens of each packing policy on the corpus's own length distribution.
//!
//! `cargo bench -p batchspec-bench --bench text` (`BENCH_QUICK=1`: one round).

use batchspec::data::BatchSource;
use batchspec::load::{ParquetFiles, Rank, ShardPlan};
use batchspec_bench::median;
use batchspec_text::pack::{Long, Packing, efficiency, pack};
use batchspec_text::{Documents, TextColumn, TextStream, Tokenizer};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const V: usize = 1024;
const T: usize = 128;
const BATCH: usize = 8;

/// The venv of the Python baseline (made when missing).
fn venv(root: &Path) -> Option<PathBuf> {
    let venv = root.join("target/tools/text");
    let python = venv.join("bin/python");
    let has = |module: &str| {
        Command::new(&python)
            .args(["-c", &format!("import {module}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !has("datasets") || !has("tokenizers") || !has("transformers") {
        Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .ok()?;
        let ok = Command::new(venv.join("bin/pip"))
            .args(["install", "-q", "--disable-pip-version-check"])
            .args([
                "tokenizers==0.23.3",
                "datasets==5.2.0",
                "pyarrow==26.0.1",
                "transformers==5.24.0",
            ])
            .status()
            .ok()?;
        if !ok.success() {
            return None;
        }
    }
    Some(python)
}

/// The Python pipeline's tokens per second, one per repeat.
fn python(
    py: &Path,
    script: &Path,
    file: &Path,
    tok: &Path,
    procs: usize,
    repeats: usize,
) -> Vec<f64> {
    let Ok(out) = Command::new(py)
        .arg(script)
        .arg(file)
        .arg(tok)
        .args([T.to_string(), procs.to_string(), repeats.to_string()])
        .output()
    else {
        return Vec::new();
    };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            v["tokens_per_s"].as_f64()
        })
        .collect()
}

/// Epochs of the Rust pipeline from the file, each by a new stream with a tokenizer read anew
/// (its word caches cold, as in a new process; the Python side's time includes loading its
/// tokenizer too): tokens (not padding) per second.
fn rust(file: &Path, tok_file: &Path, policy: Packing, workers: usize, epochs: u64) -> f64 {
    let t = Instant::now();
    let mut tokens = 0.0f64;
    for e in 0..epochs {
        let files = ParquetFiles::open(file).unwrap();
        let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap();
        let tok = Tokenizer::<V>::from_file(tok_file).unwrap();
        let mut stream = TextStream::new(TextColumn::new(&files, &plan, "text"), tok, T, BATCH)
            .unwrap()
            .packing(policy)
            .workers(workers);
        stream.start_epoch(e);
        while let Some(b) = stream.next_batch() {
            let (b, _) = b.unwrap();
            tokens += f64::from(b.mask.array().sum());
        }
    }
    tokens / t.elapsed().as_secs_f64()
}

fn main() {
    batchspec_bench::record::start("text", std::env::var_os("BENCH_QUICK").is_some());
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let (epochs, rounds) = if quick { (2, 1) } else { (3, 5) };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let file = root.join("text/tests/data/shakespeare-train.parquet");
    let tok_file = root.join("text/tests/data/tokenizer.json");
    let script = root.join("benches/src/text_python.py");
    batchspec_bench::out!(
        "# text: {} (8863 documents, 431584 tokens) → tokenize (byte-level BPE, 1024 ids) → rows of {T}, batches of {BATCH}",
        file.file_name().unwrap().to_string_lossy()
    );
    let tok = Tokenizer::<V>::from_file(&tok_file).unwrap();

    let files = ParquetFiles::open(&file).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap();
    let docs = TextColumn::new(&files, &plan, "text");
    let texts: Vec<String> = docs
        .blocks(0)
        .iter()
        .flat_map(|b| {
            docs.read(b)
                .unwrap()
                .iter()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    // The tokenizers alone, one thread, each document once: this crate's `Tokenizer` (the fast
    // path to the same ids, a new tokenizer so that its word cache starts cold), and Hugging
    // Face's `encode_fast` (what the exact path calls) and `encode` (offsets too, what the Python
    // package's `encode_batch` runs).
    let time = |f: &dyn Fn(&str) -> usize| {
        let t = Instant::now();
        let n: usize = texts.iter().map(|x| f(x)).sum();
        n as f64 / t.elapsed().as_secs_f64()
    };
    let fresh = || Tokenizer::<V>::from_file(&tok_file).unwrap();
    let (ours, exact) = (fresh(), fresh().exact_path());
    assert!(ours.is_fast());
    let fast = time(&|x| ours.encode(x).unwrap().len());
    let hf_fast = time(&|x| exact.encode(x).unwrap().len());
    let hf = time(&|x| tok.inner().encode(x, false).unwrap().len());
    batchspec_bench::out!(
        "case=tokenize how=batchspec tokens_per_s={fast:.0} ratio_tokenizers_encode_fast={:.2} ratio_tokenizers_encode={:.2}",
        fast / hf_fast,
        fast / hf
    );
    batchspec_bench::out!("case=tokenize how=tokenizers-encode_fast tokens_per_s={hf_fast:.0}");
    batchspec_bench::out!("case=tokenize how=tokenizers-encode tokens_per_s={hf:.0}");
    // This crate's tokenizer on two threads, each with its own copy of a new one (its own word
    // cache, as a stream's workers have) and every other document.
    let t = Instant::now();
    let base = fresh();
    let n2: usize = std::thread::scope(|s| {
        let h: Vec<_> = (0..2)
            .map(|w| {
                let tok = base.clone();
                let texts = &texts;
                s.spawn(move || {
                    texts
                        .iter()
                        .skip(w)
                        .step_by(2)
                        .map(|x| tok.encode(x).unwrap().len())
                        .sum::<usize>()
                })
            })
            .collect();
        h.into_iter().map(|h| h.join().unwrap()).sum()
    });
    let fast2 = n2 as f64 / t.elapsed().as_secs_f64();
    batchspec_bench::out!(
        "case=tokenize how=batchspec threads=2 tokens_per_s={fast2:.0} scaling={:.2}",
        fast2 / fast
    );

    let py = venv(&root);
    let mut ours = [Vec::new(), Vec::new()];
    let mut fits = [Vec::new(), Vec::new()];
    let mut hf = [Vec::new(), Vec::new()];
    // Interleaved rounds, so that a neighbour's load falls on every pipeline.
    for _ in 0..rounds {
        for w in 1..=2 {
            ours[w - 1].push(rust(&file, &tok_file, Packing::Greedy, w, epochs));
            fits[w - 1].push(rust(&file, &tok_file, Packing::BestFit, w, epochs));
            if let Some(py) = &py {
                hf[w - 1].extend(python(py, &script, &file, &tok_file, w, 1));
            }
        }
    }
    let ratio = |x: f64, base: &[f64]| {
        if base.is_empty() {
            "n/a".to_owned()
        } else {
            format!("{:.2}", x / median(base.to_vec()))
        }
    };
    let (one, two) = (median(ours[0].clone()), median(ours[1].clone()));
    let range = |v: &[f64]| {
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(0.0, f64::max);
        format!("{lo:.0}-{hi:.0}")
    };
    batchspec_bench::out!(
        "case=pipeline how=batchspec packing=greedy workers=1 tokens_per_s={one:.0} range={} ratio_datasets_1={}",
        range(&ours[0]),
        ratio(one, &hf[0])
    );
    batchspec_bench::out!(
        "case=pipeline how=batchspec packing=greedy workers=2 tokens_per_s={two:.0} range={} scaling={:.2} ratio_datasets_2={}",
        range(&ours[1]),
        two / one,
        ratio(two, &hf[1])
    );
    for w in 1..=2 {
        let bf = median(fits[w - 1].clone());
        batchspec_bench::out!(
            "case=pipeline how=batchspec packing=best-fit workers={w} tokens_per_s={bf:.0} range={} ratio_datasets_{w}={}",
            range(&fits[w - 1]),
            ratio(bf, &hf[w - 1])
        );
    }
    for w in 1..=2 {
        if !hf[w - 1].is_empty() {
            batchspec_bench::out!(
                "case=pipeline how=datasets-map-group_texts num_proc={w} tokens_per_s={:.0} range={}",
                median(hf[w - 1].clone()),
                range(&hf[w - 1])
            );
        }
    }
    if py.is_none() {
        batchspec_bench::out!("# the Python venv cannot be made: no baseline");
    }

    // Packing efficiency on the corpus's lengths (with `<eos>`), windows of 128 rows (the
    // default): non-padding tokens over the rows' room, as the stream serves them.
    let eos = tok.clone().eos("<eos>").unwrap();
    let lengths: Vec<usize> = texts.iter().map(|t| eos.encode(t).unwrap().len()).collect();
    for t in [128usize, 512, 2048] {
        let shorter = lengths.iter().filter(|&&n| n <= t).count() as f64 / lengths.len() as f64;
        let mut line = format!("case=efficiency T={t} documents_shorter_than_T={shorter:.4}");
        for policy in [Packing::Greedy, Packing::FirstFit, Packing::BestFit] {
            let mut stream = TextStream::new(
                TextColumn::new(&files, &plan, "text"),
                eos.clone(),
                t,
                BATCH,
            )
            .unwrap()
            .packing(policy);
            let (mut used, mut room) = (0.0f64, 0.0f64);
            while let Some(b) = stream.next_batch() {
                let (b, _) = b.unwrap();
                used += f64::from(b.mask.array().sum());
                room += b.mask.array().len() as f64;
            }
            line.push_str(&format!(
                " {}={:.4}",
                policy.words().replace(' ', "_"),
                used / room
            ));
        }
        // One document (or piece of `T`) per row, padded: what padding without packing keeps.
        let padded: usize = lengths.iter().map(|&n| n.div_ceil(t).max(1)).sum();
        let total: usize = lengths.iter().sum();
        line.push_str(&format!(
            " one_per_row={:.4}",
            total as f64 / (padded * t) as f64
        ));
        batchspec_bench::out!("{line}");
    }
    // The bin packing alone over a window's documents, for the cost of the policy.
    let window: Vec<usize> = lengths.iter().copied().take(4000).collect();
    for policy in [Packing::Greedy, Packing::FirstFit, Packing::BestFit] {
        let t0 = Instant::now();
        let reps = 20;
        for _ in 0..reps {
            std::hint::black_box(pack(&window, 512, policy, Long::Split).unwrap());
        }
        let per = t0.elapsed().as_secs_f64() / reps as f64;
        batchspec_bench::out!(
            "case=pack_only policy={} documents=4000 T=512 documents_per_s={:.0} efficiency={:.4}",
            policy.words().replace(' ', "_"),
            window.len() as f64 / per,
            efficiency(&pack(&window, 512, policy, Long::Split).unwrap(), 512)
        );
    }
}
