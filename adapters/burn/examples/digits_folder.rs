//! The CNN of `digits_cnn` trained from folders of PNG files, read through batchspec's image
//! pipeline. The example writes scikit-learn's digits (80/20, as `digits_cnn` splits them) as
//! `train/<label>/<index>.png` and `test/<label>/<index>.png` under a temporary folder, removed
//! at the end: grey 16×16 images, each of the 8×8 pixels' grey levels (0..=16) times 16 (at
//! most 255) over 2×2 pixels. Each folder is an `ImageFolder` (the classes are its sub-folders,
//! "0" to "9"), and an `ImageStream` serves the model's request from it: every PNG decoded on 2
//! workers, random-resized-cropped to the field's 8×8 (area 0.85-1 of the image, aspect ratio
//! 0.9-1.1, antialiased bilinear) and scaled to 0..1 into `bchw f32`, prefetched 2 batches
//! ahead, and burn's `DataLoader` through `SourceLoader`; the held-out images are resized whole
//! (`ImageSteps::stretch`). Prints the loss and held-out accuracy per epoch, the training
//! loop's images/s (decoding and model included) and the held-out accuracy; exits with an error
//! below 0.93.
//!
//! `cargo run --release -p batchspec-burn --example digits_folder`

use batchspec::data::Dataset;
use batchspec::iteration::{Schedule, permutation};
use batchspec::load::images::{EncodedImages, ImageFolder, ImageSteps, ImageStream};
use batchspec::prelude::*;
use batchspec_burn::{SourceLoader, Tensors};
use batchspec_quickstart::{Digits, load_digits};
use burn::data::dataloader::DataLoader;
use burn::module::Module;
use burn::nn::loss::CrossEntropyLossConfig;
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::{Device, Int, Tensor};
use cnn::{Cnn, Labelled, accuracy};
use image::{GrayImage, Luma};
use std::error::Error;
use std::path::Path;
use std::time::{Duration, Instant};

#[path = "shared/cnn.rs"]
mod cnn;

/// The held-out accuracy below which the example fails.
const BAR: f64 = 0.93;

/// What the model asks for: channels-first float images of 8×8 (whatever the files' size), one
/// label per sample (the class index, from the folder's name).
#[derive(DataSpec)]
struct Input {
    #[spec(source = "image")]
    image: Batch<image![8, 8, 1; BCHW, f32]>,
    #[spec(source = "label")]
    label: Batch<Index<10, 1, i64>>,
}

impl Labelled for Tensors<Input> {
    /// The pixels are in 0..1 already (the steps' `scale`).
    fn parts(self) -> (Tensor<4>, Tensor<1, Int>) {
        (self.image, self.label.squeeze_dim(1))
    }
}

/// Writes the samples `rows` of `digits` as `dir/<label>/<index>.png`: grey 16×16, each of the
/// 8×8 pixels' grey levels (0..=16) times 16, at most 255, repeated over 2×2 pixels.
fn write_folder(
    digits: &Dataset<Digits>,
    rows: &[usize],
    dir: &Path,
) -> Result<(), Box<dyn Error>> {
    let images = digits.fields().image.array();
    let labels = digits.fields().label.array();
    for &i in rows {
        let class = dir.join(labels[[i, 0]].to_string());
        std::fs::create_dir_all(&class)?;
        let png = GrayImage::from_fn(16, 16, |x, y| {
            let v = images[[i, y as usize / 2, x as usize / 2, 0]];
            Luma([(u16::from(v) * 16).min(255) as u8])
        });
        png.save(class.join(format!("{i}.png")))?;
    }
    Ok(())
}

/// Trains the CNN from the folders `dir/train` and `dir/test`; returns the last held-out
/// accuracy.
fn train(dir: &Path) -> Result<f64, Box<dyn Error>> {
    let train = ImageFolder::open(dir.join("train"))?;
    let test = ImageFolder::open(dir.join("test"))?;
    println!(
        "image folders: classes {:?}, {} PNG files to train, {} held out",
        train.classes(),
        train.len(),
        test.len()
    );

    let device = Device::flex().autodiff();
    let schedule = Schedule::builder(train.len())
        .batch_size(32)
        .shuffle(true)
        .seed(7)
        .build()?;
    // A mild augmentation: a random part of 85-100% of the 16×16 image, resized to the field's
    // 8×8; 255 becomes 1, as 16 grey levels become 1 in `digits_cnn`.
    let steps = ImageSteps::random_resized_crop((0.85, 1.0), (0.9, 1.1)).scale(1.0 / 255.0);
    let stream = ImageStream::<Input>::new(train, steps, schedule)?.workers(2);
    // burn's DataLoader over the stream: the next epoch (a fresh shuffle, fresh crops) at every
    // `iter()`, decoded on 2 workers on a thread of its own, 2 batches ahead of the model.
    let loader = SourceLoader::new(stream.prefetched(2), &device);
    let test_schedule = Schedule::builder(test.len()).batch_size(256).build()?;
    let held_out_steps = ImageSteps::stretch().scale(1.0 / 255.0);
    let held_out = SourceLoader::new(
        ImageStream::<Input>::new(test, held_out_steps, test_schedule)?.workers(2),
        &Device::flex(),
    );

    let mut model = Cnn::new(&device);
    let mut optim = AdamConfig::new().init();
    let loss_fn = CrossEntropyLossConfig::new().init(&device);
    let mut training = Duration::ZERO;
    let mut images = 0usize;
    let mut acc = 0.0;
    for epoch in 1..=12 {
        let started = Instant::now();
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
        training += started.elapsed();
        images += seen;
        acc = accuracy::<Input>(&model.valid(), &held_out);
        println!(
            "epoch {epoch:>2}: train loss {:.4}, held-out accuracy {acc:.4}",
            loss_sum / seen as f64
        );
    }
    let secs = training.as_secs_f64();
    println!(
        "trained on {images} images in {secs:.2} s ({:.0} images/s, decoding and model included)",
        images as f64 / secs
    );
    Ok(acc)
}

fn main() -> Result<(), Box<dyn Error>> {
    let digits = load_digits()?;
    let n = digits.len();
    let order = permutation(n, 2026, 0);
    let cut = n * 4 / 5;
    let dir = std::env::temp_dir().join(format!("batchspec-digits-folder-{}", std::process::id()));
    write_folder(&digits, &order[..cut], &dir.join("train"))?;
    write_folder(&digits, &order[cut..], &dir.join("test"))?;
    let trained = train(&dir);
    // The folders go whether training succeeded or not.
    let removed = std::fs::remove_dir_all(&dir);
    let acc = trained?;
    removed?;
    println!("held-out accuracy: {acc:.4} (bar {BAR})");
    if acc < BAR {
        return Err(format!("held-out accuracy {acc:.4} is below {BAR}").into());
    }
    Ok(())
}
