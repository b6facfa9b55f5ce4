//! The quickstart, on real data: scikit-learn's digits (1797 grey 8×8 images of 10 classes,
//! shipped inside the smartcore crate), stored as bhwc u8 images and index labels; a softmax
//! regression written over spec traits asks for flat f32 vectors and one-hot targets, and the
//! provider converts while it gathers shuffled minibatches.
//!
//! `cargo run --release -p batchspec-quickstart`

use batchspec::dataset::Dataset;
use batchspec::iteration::{LastBatch, Schedule, permutation};
use batchspec::prelude::*;
use batchspec::provider::Provider;
use ndarray::{Array1, Array2, Array4, ArrayView2, Axis};
use std::time::Instant;

/// What the dataset stores.
#[derive(DataSpec)]
struct Digits {
    #[spec(source = "features")]
    image: Batch<image![8, 8, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<10, 1, u8>>,
}

/// What the model and its cost ask for: flat f32 features, one-hot targets.
#[derive(DataSpec)]
struct Supervised<const D: usize, const K: usize> {
    #[spec(source = "features")]
    x: Batch<Vector<D>>,
    #[spec(source = "targets")]
    y: Batch<Vector<K>>,
}

/// Softmax regression from `D` features to `K` classes.
struct Softmax<const D: usize, const K: usize> {
    w: Array2<f32>,
    b: Array1<f32>,
    scale: f32,
}

impl<const D: usize, const K: usize> Softmax<D, K> {
    fn new(scale: f32) -> Self {
        Softmax {
            w: Array2::zeros((D, K)),
            b: Array1::zeros(K),
            scale,
        }
    }

    fn probabilities(&self, x: ArrayView2<'_, f32>) -> Array2<f32> {
        let mut z = (&x * self.scale).dot(&self.w) + &self.b;
        for mut row in z.rows_mut() {
            let max = row.fold(f32::MIN, |m, &v| m.max(v));
            row.mapv_inplace(|v| (v - max).exp());
            let sum = row.sum();
            row /= sum;
        }
        z
    }

    /// One SGD step on the first `count` rows (the rest is padding); returns their mean loss.
    fn step(&mut self, data: &Supervised<D, K>, count: usize, rate: f32, l2: f32) -> f32 {
        let rows = ndarray::s![..count, ..];
        let x = data.x.array().slice(rows);
        let t = data.y.array().slice(rows);
        let p = self.probabilities(x);
        let loss = -(p.mapv(|v| v.max(1e-12).ln()) * t).sum() / count.max(1) as f32;
        let delta = (p - t) / count.max(1) as f32;
        let grad_w = x.t().dot(&delta) * self.scale + &self.w * l2;
        self.w.scaled_add(-rate, &grad_w);
        self.b.scaled_add(-rate, &delta.sum_axis(Axis(0)));
        loss
    }

    fn correct(&self, data: &Supervised<D, K>) -> usize {
        let p = self.probabilities(data.x.array().view());
        let argmax = |row: ndarray::ArrayView1<'_, f32>| {
            row.iter()
                .enumerate()
                .fold(
                    (0, f32::MIN),
                    |best, (i, &v)| if v > best.1 { (i, v) } else { best },
                )
                .0
        };
        p.rows()
            .into_iter()
            .zip(data.y.array().rows())
            .filter(|(p, t)| argmax(p.view()) == argmax(t.view()))
            .count()
    }
}

/// Reads the digits from smartcore's copy of scikit-learn's file, checking every value.
fn load_digits() -> Result<Dataset<Digits>, Box<dyn std::error::Error>> {
    let raw = smartcore::dataset::digits::load_dataset();
    let (n, f) = (raw.num_samples, raw.num_features);
    let pixel = |v: f32| -> Result<u8, String> {
        if v.fract() == 0.0 && (0.0..=255.0).contains(&v) {
            Ok(v as u8)
        } else {
            Err(format!("pixel {v} is not a byte"))
        }
    };
    let pixels: Vec<u8> = raw
        .data
        .iter()
        .map(|&v| pixel(v))
        .collect::<Result<_, _>>()?;
    let labels: Vec<u8> = raw
        .target
        .iter()
        .map(|&v| pixel(v))
        .collect::<Result<_, _>>()?;
    let image = Array4::from_shape_vec((n, 8, 8, f / 64), pixels)?;
    let label = Array2::from_shape_vec((n, 1), labels)?;
    // Shape and label checks happen here, once: a label outside 0..10 would be an error.
    Ok(Dataset::new(Digits {
        image: Batch::new(image)?,
        label: Batch::new(label)?,
    })?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let digits = load_digits()?;
    let n = digits.len();
    println!("digits: {n} samples");
    for d in digits.describe() {
        println!("  {d}");
    }

    // A held-out split by selection: a seeded permutation, 80% to train, 20% to test.
    let order = permutation(n, 2026, 0);
    let cut = n * 4 / 5;
    let train = Dataset::new(digits.select(&order[..cut])?)?;
    let test = Dataset::new(digits.select(&order[cut..])?)?;

    let batch = 32;
    let schedule = Schedule::builder(train.len())
        .batch_size(batch)
        .shuffle(true)
        .seed(7)
        .last_batch(LastBatch::Pad)
        .build()?;
    let mut provider = Provider::<Digits, Supervised<64, 10>>::new(&train, schedule)?;
    println!(
        "provide_data:  {}",
        provider
            .provide_data()
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "provide_label: {}",
        provider
            .provide_label()
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let test_schedule = Schedule::builder(test.len()).batch_size(256).build()?;
    let mut held_out = Provider::<Digits, Supervised<64, 10>>::new(&test, test_schedule)?;

    let mut model = Softmax::<64, 10>::new(1.0 / 16.0);
    let mut accuracy = 0.0;
    let started = Instant::now();
    let mut samples = 0usize;
    for epoch in 0..40u64 {
        provider.start_epoch(epoch);
        let (mut loss, mut seen) = (0.0f32, 0usize);
        while let Some(b) = provider.next_batch() {
            let count = b.info.count_samples;
            loss += model.step(b.batch, count, 0.5, 1e-4) * count as f32;
            seen += count;
        }
        samples += seen;
        held_out.start_epoch(0);
        let mut correct = 0;
        while let Some(b) = held_out.next_batch() {
            correct += model.correct(b.batch);
        }
        accuracy = correct as f64 / test.len() as f64;
        if epoch % 5 == 4 || epoch == 0 {
            println!(
                "epoch {:>2}: train loss {:.4}, held-out accuracy {:.4}",
                epoch + 1,
                loss / seen as f32,
                accuracy
            );
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "trained on {samples} samples in {secs:.3} s: {:.0} samples/s",
        samples as f64 / secs
    );
    println!("held-out accuracy: {accuracy:.4} on {} samples", test.len());
    if accuracy < 0.93 {
        return Err(format!("held-out accuracy {accuracy:.4} is below 0.93").into());
    }
    Ok(())
}
