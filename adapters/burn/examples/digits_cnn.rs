//! A small CNN trained with burn on scikit-learn's digits, fed by batchspec: the dataset stores
//! `bhwc u8` images and `u8` labels; the model asks for `bchw f32` images and `i64` labels, and
//! gets them as burn tensors from [`SpecLoader`], burn's own `DataLoader` trait, with no batcher
//! written by hand. Prints the loss per epoch, the held-out accuracy and samples/s; exits with an
//! error below 0.95.
//!
//! `cargo run --release -p batchspec-burn --example digits_cnn`

use batchspec::data::Dataset;
use batchspec::iteration::{Schedule, permutation};
use batchspec::prelude::*;
use batchspec_burn::{SpecLoader, Tensors};
use batchspec_quickstart::{Digits, load_digits};
use burn::data::dataloader::DataLoader;
use burn::module::Module;
use burn::nn::loss::CrossEntropyLossConfig;
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::{Device, Int, Tensor};
use cnn::{Cnn, Labelled, accuracy};
use std::sync::Arc;
use std::time::Instant;

#[path = "shared/cnn.rs"]
mod cnn;

/// What the model asks for: channels-first float images, one label per sample.
#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    image: Batch<image![8, 8, 1; BCHW, f32]>,
    #[spec(source = "targets")]
    label: Batch<Index<10, 1, i64>>,
}

impl Labelled for Tensors<Input> {
    /// The pixels' 16 grey levels scaled to 0..1.
    fn parts(self) -> (Tensor<4>, Tensor<1, Int>) {
        (self.image.div_scalar(16.0), self.label.squeeze_dim(1))
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let digits = load_digits()?;
    let n = digits.len();
    let order = permutation(n, 2026, 0);
    let cut = n * 4 / 5;
    let train = Arc::new(Dataset::new(digits.select(&order[..cut])?)?);
    let test = Arc::new(Dataset::new(digits.select(&order[cut..])?)?);
    println!("digits: {} to train, {} held out", train.len(), test.len());

    let device = Device::flex().autodiff();
    let schedule = Schedule::builder(train.len())
        .batch_size(32)
        .shuffle(true)
        .seed(7)
        .build()?;
    // burn's DataLoader over the batchspec dataset: a fresh shuffle per `iter()`, gathered and
    // converted (bhwc u8 -> bchw f32) on a thread of its own, 4 batches ahead.
    let loader = SpecLoader::<Digits, Input>::new(train.clone(), schedule, &device)?.prefetch(4);
    let test_schedule = Schedule::builder(test.len()).batch_size(256).build()?;
    let held_out = SpecLoader::<Digits, Input>::new(test, test_schedule, &Device::flex())?;

    let mut model = Cnn::new(&device);
    let mut optim = AdamConfig::new().init();
    let loss_fn = CrossEntropyLossConfig::new().init(&device);
    let started = Instant::now();
    let mut samples = 0usize;
    let mut acc = 0.0;
    for epoch in 1..=12 {
        let (mut loss_sum, mut seen) = (0.0f64, 0usize);
        for batch in loader.iter() {
            let (image, labels) = batch?.parts();
            let count = labels.dims()[0];
            let loss = loss_fn.forward(model.forward(image), labels);
            loss_sum += loss.clone().into_scalar::<f32>() as f64 * count as f64;
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(2e-3, model, grads);
            seen += count;
        }
        samples += seen;
        acc = accuracy::<Input>(&model.valid(), &*held_out.to_device(&Device::flex()));
        println!(
            "epoch {epoch:>2}: train loss {:.4}, held-out accuracy {acc:.4}",
            loss_sum / seen as f64
        );
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "trained on {samples} samples in {secs:.2} s ({:.0} samples/s, model included)",
        samples as f64 / secs
    );
    println!("held-out accuracy: {acc:.4} (bar 0.95)");
    if acc < 0.95 {
        return Err(format!("held-out accuracy {acc:.4} is below 0.95").into());
    }
    Ok(())
}
