//! One shuffled epoch of minibatches: 60000 × 784 f32 features plus u8 labels, batch 128, served
//! by a `Provider` (1 thread) and by two prefetching providers over two shards (2 threads),
//! each beside `copy_from_slice` of the same feature bytes measured in the same run.
//!
//! `cargo bench -p batchspec-bench --bench gather` (set `BENCH_QUICK=1` for a short run).
//! Each line: `case=gather threads=T samples_per_s=.. gbps=.. ratio_memcpy=..`; GB/s counts the
//! bytes of the features and labels written per second, memcpy the feature matrix copied once.

use batchspec::dataset::Dataset;
use batchspec::iteration::{LastBatch, Schedule, Shard};
use batchspec::prelude::*;
use batchspec::provider::{Prefetch, Provider};
use ndarray::{Array2, Array4};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

const N: usize = 60_000;
const BATCH: usize = 128;

#[derive(DataSpec)]
struct Mnist {
    #[spec(source = "features")]
    x: Batch<Vector<784>>,
    #[spec(source = "targets")]
    y: Batch<Labels<10, u8>>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn time(reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    f();
    median(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

fn main() {
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let reps = if quick { 3 } else { 9 };
    let ds = Arc::new(
        Dataset::new(Mnist {
            x: Batch::new(Array2::from_shape_fn((N, 784), |(i, j)| {
                ((i * 784 + j) % 16_777_213) as f32
            }))
            .unwrap(),
            y: Batch::new(ndarray::Array1::from_shape_fn(N, |i| (i % 10) as u8)).unwrap(),
        })
        .unwrap(),
    );
    let feature_bytes = (N * 784 * 4) as f64;
    let epoch_bytes = feature_bytes + N as f64;

    // memcpy of the feature matrix, 1 thread and two halves on 2 threads.
    let src = ds.fields().x.array().as_slice().unwrap().to_vec();
    let mut dst = vec![0f32; src.len()];
    let memcpy1 = time(reps, || {
        dst.copy_from_slice(&src);
        black_box(&dst);
    });
    let memcpy2 = time(reps, || {
        let (a, b) = dst.split_at_mut(src.len() / 2);
        let (sa, sb) = src.split_at(src.len() / 2);
        std::thread::scope(|s| {
            s.spawn(|| a.copy_from_slice(sa));
            b.copy_from_slice(sb);
        });
        black_box(&dst);
    });

    let schedule = |shard: Shard| {
        Schedule::builder(N)
            .batch_size(BATCH)
            .shuffle(true)
            .seed(42)
            .last_batch(LastBatch::Short)
            .shard(shard)
            .build()
            .unwrap()
    };

    // 1 thread: the provider in the consumer's loop, a new shuffle every epoch.
    let mut provider = Provider::<Mnist, Mnist>::new(&ds, schedule(Shard::whole())).unwrap();
    let mut epoch = 0u64;
    let one = time(reps, || {
        provider.start_epoch(epoch);
        epoch += 1;
        let mut sum = 0f32;
        while let Some(b) = provider.next_batch() {
            sum += b.batch.x.array()[[0, 0]];
        }
        black_box(sum);
    });

    // The plain loop a person would write: a Fisher-Yates order, then copy_from_slice per row.
    let x = ds.fields().x.array().as_slice().unwrap();
    let y = ds.fields().y.array().as_slice().unwrap();
    let mut out_x = vec![0f32; BATCH * 784];
    let mut out_y = [0u8; BATCH];
    let mut plain_epoch = 0u64;
    let plain = time(reps, || {
        let order = batchspec::iteration::permutation(N, 42, plain_epoch);
        plain_epoch += 1;
        let mut sum = 0f32;
        for rows in order.chunks(BATCH) {
            for (j, &i) in rows.iter().enumerate() {
                out_x[j * 784..(j + 1) * 784].copy_from_slice(&x[i * 784..(i + 1) * 784]);
                out_y[j] = y[i];
            }
            sum += out_x[0] + f32::from(out_y[0]);
        }
        black_box(sum);
    });

    // 2 threads: two prefetching providers over two shards, each gathering on its own thread.
    let epochs = (reps + 2) as u64;
    let mut workers: Vec<_> = (0..2)
        .map(|k| {
            Prefetch::<Mnist>::provider::<Mnist>(
                Arc::clone(&ds),
                schedule(Shard::new(k, 2).unwrap()),
                0..epochs,
                2,
            )
        })
        .collect();
    let two = time(reps, || {
        let mut sum = 0f32;
        let mut open = [true, true];
        while open.iter().any(|&o| o) {
            for (k, w) in workers.iter_mut().enumerate() {
                if !open[k] {
                    continue;
                }
                match w.next_batch() {
                    Some(Ok(b)) => {
                        sum += b.x.array()[[0, 0]];
                        if b.info.count_samples < BATCH {
                            open[k] = false; // the shard's last batch of this epoch
                        }
                    }
                    _ => open[k] = false,
                }
            }
        }
        black_box(sum);
    });

    println!(
        "# one shuffled epoch, {N} x 784 f32 + u8 labels, batch {BATCH}; gbps = features+labels bytes / s; memcpy = features copied once"
    );
    println!(
        "peer plain_gather threads=1 samples_per_s={:.0} ratio_memcpy={:.2} (copy_from_slice per row, no provider)",
        N as f64 / plain,
        memcpy1 / plain
    );
    for (threads, secs, memcpy) in [(1, one, memcpy1), (2, two, memcpy2)] {
        println!(
            "case=gather threads={threads} samples_per_s={:.0} gbps={:.2} ratio_memcpy={:.2} memcpy_gbps={:.2}",
            N as f64 / secs,
            epoch_bytes / secs / 1e9,
            memcpy / secs,
            feature_bytes / memcpy / 1e9,
        );
    }
    let _ = Array4::<f32>::zeros((1, 1, 1, 1));
}
