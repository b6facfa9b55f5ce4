//! The quickstart from Parquet, trained by two ranks: the digits are written as a directory of
//! part files the way Spark writes them (snappy `part-*.parquet`, a `_SUCCESS` marker; images as
//! an `arrow.fixed_shape_tensor` of shape 8×8×1 with its axis names, labels as int64), then two
//! training processes (threads here, each a `Rank` of 2) stream their shares with
//! `ParquetStream`, shuffled by (seed, epoch), padded to equal batch counts, and train one softmax
//! regression data-parallel: each computes the gradient of its batch, the two are summed, and
//! both apply the same step. The held-out fifth is read back from its own file.
//!
//! `cargo run --release -p batchspec-quickstart --example digits_parquet`

use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::iteration::{Schedule, permutation};
use batchspec::load::{ParquetFiles, ParquetStream, Rank, ShardPlan};
use batchspec::prelude::*;
use batchspec_quickstart::{Digits, Gradient, Softmax, Supervised, load_digits};
use parts::write_parts;
use std::sync::{Barrier, Mutex, RwLock};
use std::time::Instant;

#[path = "shared/parts.rs"]
mod parts;

const RANKS: usize = 2;
const BATCH: usize = 32;
const EPOCHS: u64 = 40;

/// One rank's training loop: its share of each epoch, a batch at a time, the gradients summed
/// with the other ranks' before every step (the barrier keeps the ranks in step).
struct Shared {
    model: RwLock<Softmax<64, 10>>,
    sum: Mutex<Option<Gradient>>,
    step: Barrier,
}

fn train_rank(
    files: &ParquetFiles,
    plan: &ShardPlan,
    shared: &Shared,
) -> Result<Vec<(f32, usize)>, batchspec::Error> {
    let mut out = Supervised::<64, 10> {
        x: Batch::zeros(BATCH, 0),
        y: Batch::zeros(BATCH, 0),
    };
    let mut losses = Vec::new();
    for epoch in 0..EPOCHS {
        let mut stream = ParquetStream::<Digits>::new(files, plan, epoch, BATCH, 2).read_ahead();
        let (mut loss, mut seen) = (0.0, 0);
        while let Some(n) = stream.fill_next(&mut out) {
            let n = n?;
            let g = shared
                .model
                .read()
                .expect("a rank panicked")
                .gradient(&out, n);
            {
                let mut sum = shared.sum.lock().expect("a rank panicked");
                match sum.as_mut() {
                    Some(s) => s.add(&g),
                    None => *sum = Some(g),
                }
            }
            // The last rank to arrive applies the summed gradient; all wait until it has.
            if shared.step.wait().is_leader() {
                let g = shared.sum.lock().expect("a rank panicked").take();
                if let Some(g) = g {
                    loss += g.loss;
                    seen += g.count;
                    shared
                        .model
                        .write()
                        .expect("a rank panicked")
                        .apply(&g, 0.5, 1e-4);
                }
            }
            shared.step.wait();
        }
        // The summed loss and samples of the steps this rank applied.
        losses.push((loss, seen));
    }
    Ok(losses)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let digits = load_digits()?;
    let n = digits.len();
    // The same held-out fifth as the quickstart.
    let order = permutation(n, 2026, 0);
    let cut = n * 4 / 5;
    let dir = std::env::temp_dir().join(format!("batchspec-digits-{}", std::process::id()));
    write_parts(&digits, &order[..cut], &dir.join("train"), 4, 64)?;
    write_parts(&digits, &order[cut..], &dir.join("test"), 1, 64)?;

    let files = ParquetFiles::open(dir.join("train"))?;
    println!(
        "train: {} part files, {} row groups",
        files.files().len(),
        files.row_groups()?.len()
    );
    let plans: Vec<ShardPlan> = (0..RANKS)
        .map(|r| Ok(ShardPlan::new(&files, Rank::new(r, RANKS)?)?.shuffle(7)))
        .collect::<Result<_, batchspec::Error>>()?;
    for (r, plan) in plans.iter().enumerate() {
        println!(
            "rank {r}: {} row groups, {} samples per epoch",
            plan.row_groups(0).len(),
            plan.samples(0)
        );
    }
    let shared = Shared {
        model: RwLock::new(Softmax::new(1.0 / 16.0)),
        sum: Mutex::new(None),
        step: Barrier::new(RANKS),
    };
    let started = Instant::now();
    let losses = std::thread::scope(|s| {
        let ranks: Vec<_> = plans
            .iter()
            .map(|plan| s.spawn(|| train_rank(&files, plan, &shared)))
            .collect();
        ranks
            .into_iter()
            .map(|r| r.join().expect("a rank panicked"))
            .collect::<Result<Vec<_>, _>>()
    })?;
    let secs = started.elapsed().as_secs_f64();
    // Each step's summed loss was recorded by the rank that applied it.
    let per_epoch: Vec<f32> = (0..EPOCHS as usize)
        .map(|e| {
            let (loss, seen) = losses
                .iter()
                .filter_map(|l| l.get(e))
                .fold((0.0, 0), |(l, n), &(dl, dn)| (l + dl, n + dn));
            loss / seen.max(1) as f32
        })
        .collect();
    for (e, loss) in per_epoch.iter().enumerate() {
        if e % 5 == 4 || e == 0 {
            println!("epoch {:>2}: train loss {loss:.4}", e + 1);
        }
    }
    let samples: usize = plans
        .iter()
        .map(|p| (0..EPOCHS).map(|e| p.samples(e)).sum::<usize>())
        .sum();
    println!(
        "{RANKS} ranks trained on {samples} samples streamed from Parquet in {secs:.3} s: {:.0} samples/s",
        samples as f64 / secs
    );

    let test = Dataset::<Digits>::load(&mut ParquetFiles::open(dir.join("test"))?)?;
    let schedule = Schedule::builder(test.len()).batch_size(256).build()?;
    let mut held_out = Provider::<Digits, Supervised<64, 10>>::new(&test, schedule)?;
    let model = shared.model.into_inner().expect("a rank panicked");
    let mut correct = 0;
    while let Some(b) = held_out.next_batch() {
        correct += model.correct(b.batch);
    }
    let accuracy = correct as f64 / test.len() as f64;
    println!(
        "held-out accuracy: {accuracy:.4} on {} samples read back from Parquet",
        test.len()
    );
    std::fs::remove_dir_all(&dir)?;
    if accuracy < 0.93 {
        return Err(format!("held-out accuracy {accuracy:.4} is below 0.93").into());
    }
    Ok(())
}
