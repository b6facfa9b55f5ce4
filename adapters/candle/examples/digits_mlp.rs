//! An MLP trained with candle on scikit-learn's digits, fed by batchspec: the dataset stores
//! `bhwc u8` images and `u8` labels; the model asks for flat `f32` vectors and `u32` labels (what
//! candle's `gather` takes) and gets them as candle tensors from [`Batches`], with no batcher
//! written by hand. Plain SGD on candle-core's autograd (`Var`, `backward`). Prints the loss per
//! epoch, the held-out accuracy and samples/s; exits with an error below 0.93.
//!
//! `cargo run --release -p batchspec-candle --example digits_mlp`

use batchspec::data::Dataset;
use batchspec::iteration::{Schedule, permutation};
use batchspec::prelude::*;
use batchspec::types::MapSpec;
use batchspec_candle::{Batches, Tensors, ToCandle};
use batchspec_quickstart::{Digits, load_digits};
use candle_core::{D, DType, Device, Result, Tensor, Var};
use std::time::Instant;

/// What the model asks for: the image as a flat vector, one label per sample.
#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    x: Batch<Vector<64>>,
    #[spec(source = "targets")]
    y: Batch<Index<10, 1, u32>>,
}

struct Mlp {
    w1: Var,
    b1: Var,
    w2: Var,
    b2: Var,
}

impl Mlp {
    fn new(device: &Device) -> Result<Self> {
        Ok(Mlp {
            w1: Var::randn(0f32, (2.0f32 / 64.0).sqrt(), (64, 64), device)?,
            b1: Var::zeros(64, DType::F32, device)?,
            w2: Var::randn(0f32, (2.0f32 / 64.0).sqrt(), (64, 10), device)?,
            b2: Var::zeros(10, DType::F32, device)?,
        })
    }

    /// Logits of a batch of flat images with pixels 0..16.
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let x = (x / 16.0)?;
        let h = x.matmul(&self.w1)?.broadcast_add(&self.b1)?.relu()?;
        h.matmul(&self.w2)?.broadcast_add(&self.b2)
    }

    fn vars(&self) -> [&Var; 4] {
        [&self.w1, &self.b1, &self.w2, &self.b2]
    }
}

/// Mean cross-entropy of `logits` against labels of shape `(batch, 1)`.
fn cross_entropy(logits: &Tensor, labels: &Tensor) -> Result<Tensor> {
    let max = logits.max_keepdim(D::Minus1)?;
    let shifted = logits.broadcast_sub(&max)?;
    let log_sum = shifted.exp()?.sum_keepdim(D::Minus1)?.log()?;
    let log_p = shifted.broadcast_sub(&log_sum)?;
    log_p.gather(labels, 1)?.mean_all()?.neg()
}

/// A batch's inputs and labels, whatever request they came from.
trait Labelled {
    fn parts(&self) -> (&Tensor, &Tensor);
}

impl Labelled for Tensors<Input> {
    fn parts(&self) -> (&Tensor, &Tensor) {
        (&self.x, &self.y)
    }
}

/// Correct predictions in a batch: generic over the request, bound on the spec traits.
fn correct<Q>(model: &Mlp, batch: &Tensors<Q>) -> Result<usize>
where
    Q: MapSpec<ToCandle>,
    Tensors<Q>: Labelled,
{
    let (x, y) = batch.parts();
    let predicted = model.forward(x)?.argmax_keepdim(D::Minus1)?;
    let hits = predicted.eq(y)?.to_dtype(DType::U32)?.sum_all()?;
    Ok(hits.to_scalar::<u32>()? as usize)
}

fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    let digits = load_digits()?;
    let n = digits.len();
    let order = permutation(n, 2026, 0);
    let cut = n * 4 / 5;
    let train = Dataset::new(digits.select(&order[..cut])?)?;
    let test = Dataset::new(digits.select(&order[cut..])?)?;
    println!("digits: {} to train, {} held out", train.len(), test.len());

    let device = Device::Cpu;
    let schedule = Schedule::builder(train.len())
        .batch_size(32)
        .shuffle(true)
        .seed(7)
        .build()?;
    let mut batches = Batches::<Digits, Input>::new(&train, schedule, &device)?;
    let test_schedule = Schedule::builder(test.len()).batch_size(256).build()?;
    let mut held_out = Batches::<Digits, Input>::new(&test, test_schedule, &device)?;

    let model = Mlp::new(&device)?;
    let rate = 0.1;
    let started = Instant::now();
    let mut samples = 0usize;
    let mut acc = 0.0;
    for epoch in 0..30u64 {
        let (mut loss_sum, mut seen) = (0.0f64, 0usize);
        for batch in batches.epoch(epoch) {
            let batch = batch?;
            let count = batch.x.dims()[0];
            let loss = cross_entropy(&model.forward(&batch.x)?, &batch.y)?;
            loss_sum += loss.to_scalar::<f32>()? as f64 * count as f64;
            let grads = loss.backward()?;
            for v in model.vars() {
                if let Some(g) = grads.get(v) {
                    v.set(&v.sub(&(g * rate)?)?)?;
                }
            }
            seen += count;
        }
        samples += seen;
        let mut hits = 0;
        for batch in held_out.epoch(0) {
            hits += correct::<Input>(&model, &batch?)?;
        }
        acc = hits as f64 / test.len() as f64;
        println!(
            "epoch {:>2}: train loss {:.4}, held-out accuracy {acc:.4}",
            epoch + 1,
            loss_sum / seen as f64
        );
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "trained on {samples} samples in {secs:.2} s ({:.0} samples/s, model included)",
        samples as f64 / secs
    );
    println!("held-out accuracy: {acc:.4} (bar 0.93)");
    if acc < 0.93 {
        return Err(format!("held-out accuracy {acc:.4} is below 0.93").into());
    }
    Ok(())
}
