//! A language model's data path: sentences of token ids of different lengths, stored ragged,
//! served time-major `(T, B)` with a mask and the lengths, in batches of sentences of similar
//! lengths (buckets, as tf.data's `bucket_by_sequence_length`). The model is a bigram softmax
//! trained by SGD; the mask keeps the padding out of the loss.
//!
//! `cargo run --release --example language_model`
//!
//! The sentences come from a known Markov chain; the model's held-out perplexity is compared
//! with the best a bigram model can do (the counts of the training sentences) and with a model
//! that knows nothing (uniform over the words). The example fails if the model is not within
//! 5% of the counts.

use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::iteration::{Buckets, Schedule};
use batchspec::prelude::*;

/// `<pad>` (0, the `pad` value below), `<bos>`, `<eos>` and ten words.
const V: usize = 13;
const BOS: i64 = 1;
const EOS: i64 = 2;

/// What is stored: one sentence of token ids per sample.
#[derive(DataSpec)]
struct Corpus {
    #[spec(source = "tokens")]
    tokens: Ragged<IndexSeq<V>>,
}

/// What the model asks for: time-major token ids padded with `<pad>`, which steps are real, and
/// how many there are.
#[derive(DataSpec)]
struct LmBatch {
    #[spec(source = "tokens", pad = 0)]
    tokens: Batch<IndexSeq<V, TB>>,
    #[spec(mask_of = "tokens")]
    mask: Batch<Mask<TB>>,
    #[spec(lengths_of = "tokens")]
    len: Batch<Lengths>,
}

/// A small deterministic generator (SplitMix64), so that the example needs no `rand`.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Sentences from a Markov chain over the ten words: each word prefers three successors; a
/// sentence ends with probability 0.12 after each word.
fn sentences(n: usize, rng: &mut Rng) -> Vec<Vec<i64>> {
    (0..n)
        .map(|_| {
            let mut s = vec![BOS];
            let mut w = 3 + (rng.next() * 10.0) as i64 % 10;
            loop {
                s.push(w);
                if rng.next() < 0.12 || s.len() > 60 {
                    break;
                }
                let r = rng.next();
                let step = if r < 0.5 {
                    1
                } else if r < 0.8 {
                    3
                } else if r < 0.95 {
                    7
                } else {
                    (rng.next() * 10.0) as i64
                };
                w = 3 + (w - 3 + step) % 10;
            }
            s.push(EOS);
            s
        })
        .collect()
}

/// `log softmax(w[a])[b]` and its gradient into `g`, scaled by `scale`.
fn nll_and_grad(w: &[[f64; V]; V], a: usize, b: usize, g: &mut [[f64; V]; V], scale: f64) -> f64 {
    let row = &w[a];
    let max = row.iter().cloned().fold(f64::MIN, f64::max);
    let z: f64 = row.iter().map(|v| (v - max).exp()).sum();
    for (k, v) in row.iter().enumerate() {
        let p = (v - max).exp() / z;
        g[a][k] += scale * (p - if k == b { 1.0 } else { 0.0 });
    }
    -(row[b] - max - z.ln())
}

fn main() -> Result<(), batchspec::Error> {
    let mut rng = Rng(7);
    let train = sentences(4000, &mut rng);
    let test = sentences(1000, &mut rng);
    let ds = Dataset::new(Corpus {
        tokens: Ragged::from_flat_samples(&train)?,
    })?;
    let held_out = Dataset::new(Corpus {
        tokens: Ragged::from_flat_samples(&test)?,
    })?;

    // Batches of 32 sentences of similar lengths: buckets by length, shuffled every epoch.
    let boundaries = [6, 10, 16, 24];
    let buckets = Buckets::new(ds.fields().tokens.lengths(), &boundaries, &[32; 5])?.shuffled(3);
    let schedule = Schedule::builder(ds.len()).batch_size(32).build()?;
    let mut provider = Provider::<Corpus, LmBatch>::new(&ds, schedule)?;

    let mut w = [[0.0f64; V]; V];
    let (mut real, mut padded) = (0usize, 0usize);
    for epoch in 0..6 {
        let mut total = 0.0;
        let mut count = 0.0;
        for rows in buckets.epoch(epoch) {
            let b = provider.batch_of(&rows)?.batch;
            let (x, mask) = (b.tokens.array(), b.mask.array());
            let steps = x.shape()[0];
            real += b.len.array().iter().sum::<i64>() as usize;
            padded += x.len();
            let mut g = [[0.0f64; V]; V];
            let n: f32 = mask.iter().sum::<f32>() - rows.len() as f32; // predicted steps
            for j in 0..rows.len() {
                for t in 0..steps - 1 {
                    // The mask keeps `<pad>` out: a step is predicted only if it is real.
                    if mask[[t + 1, j]] == 0.0 {
                        continue;
                    }
                    let (a, c) = (x[[t, j]] as usize, x[[t + 1, j]] as usize);
                    total += nll_and_grad(&w, a, c, &mut g, 1.0 / f64::from(n));
                    count += 1.0;
                }
            }
            for (wr, gr) in w.iter_mut().zip(&g) {
                for (wv, gv) in wr.iter_mut().zip(gr) {
                    *wv -= 2.0 * gv;
                }
            }
        }
        println!(
            "epoch {epoch}: train perplexity {:.3}",
            (total / count).exp()
        );
    }
    // The same epochs without buckets: shuffled batches of 32, each padded to its longest.
    let lengths: Vec<usize> = ds.fields().tokens.lengths().collect();
    let (mut real_plain, mut padded_plain) = (0usize, 0usize);
    let shuffled = Schedule::builder(ds.len())
        .batch_size(32)
        .shuffle(true)
        .seed(3)
        .build()?;
    for epoch in 0..6 {
        for b in shuffled.epoch(epoch) {
            let rows = b.indices().to_vec();
            let longest = rows.iter().map(|&i| lengths[i]).max().unwrap_or(0);
            real_plain += rows.iter().map(|&i| lengths[i]).sum::<usize>();
            padded_plain += rows.len() * longest;
        }
    }

    // Held out: the model, the counts of the training sentences, and no knowledge.
    let mut counts = [[1e-3f64; V]; V];
    for s in &train {
        for p in s.windows(2) {
            counts[p[0] as usize][p[1] as usize] += 1.0;
        }
    }
    let mut g = [[0.0f64; V]; V];
    let (mut model, mut best, mut n) = (0.0, 0.0, 0.0);
    let schedule = Schedule::builder(held_out.len()).batch_size(50).build()?;
    let mut eval = Provider::<Corpus, LmBatch>::new(&held_out, schedule)?;
    while let Some(b) = eval.next_batch() {
        let (x, len) = (b.batch.tokens.array(), b.batch.len.array());
        for (j, &l) in len.iter().enumerate() {
            for t in 0..l as usize - 1 {
                let (a, c) = (x[[t, j]] as usize, x[[t + 1, j]] as usize);
                model += nll_and_grad(&w, a, c, &mut g, 0.0);
                best -= (counts[a][c] / counts[a].iter().sum::<f64>()).ln();
                n += 1.0;
            }
        }
    }
    let (model, best) = ((model / n).exp(), (best / n).exp());
    println!(
        "held-out perplexity: model {model:.3}, bigram counts {best:.3}, uniform over the words {:.1}",
        (V - 3) as f64
    );
    println!(
        "padding: {:.1}% of the batches' steps with buckets by length, {:.1}% without",
        100.0 * (padded - real) as f64 / padded as f64,
        100.0 * (padded_plain - real_plain) as f64 / padded_plain as f64
    );
    if model > 1.05 * best {
        eprintln!("the model is not within 5% of the bigram counts");
        std::process::exit(1);
    }
    Ok(())
}
