//! The quickstart, on real data: scikit-learn's digits (1797 grey 8×8 images of 10 classes,
//! shipped inside the smartcore crate), stored as bhwc u8 images and index labels; a softmax
//! regression written over spec traits asks for flat f32 vectors and one-hot targets, and the
//! provider converts while it gathers shuffled minibatches.
//!
//! `cargo run --release -p batchspec-quickstart`
#![forbid(unsafe_code)]

use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::iteration::{LastBatch, Schedule, permutation};
use batchspec_quickstart::{Digits, Softmax, Supervised, load_digits};
use std::time::Instant;

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
