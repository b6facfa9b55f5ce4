//! Gathering and padding shuffled ragged sequences: 4096 sequences of 1..=512 steps of 64 f32
//! features, batches of 32, each padded to its own longest sequence by a `Provider` (one
//! thread), beside, in the same run, (a) the plain loop a person would write (zero the batch up
//! to its longest sequence, copy each sequence's steps), (b) `copy_from_slice` of as many bytes
//! into one large buffer, (c) the fixed-size alternative: every sequence stored padded to 512
//! steps and gathered whole, as a dense `Batch<VectorSeq<64>>`, and (d) the same provider over
//! `Buckets` of similar lengths (boundaries every 64 steps), which pad less.
//!
//! `cargo bench -p batchspec-bench --bench ragged` (`BENCH_QUICK=1` for a short run). Each line:
//! `case=.. samples_per_s=.. gbps=.. ratio_memcpy=..`; `benches/numpy_ragged.py` runs the NumPy
//! versions on the same shapes.

use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::iteration::{LastBatch, Schedule};
use batchspec::prelude::*;
use batchspec_bench::median;
use ndarray::Array3;
use std::hint::black_box;
use std::time::Instant;

const N: usize = 4096;
const F: usize = 64;
const MAX: usize = 512;
const BATCH: usize = 32;

#[derive(DataSpec)]
struct Ragged64 {
    #[spec(source = "frames")]
    x: Ragged<VectorSeq<F>>,
}

#[derive(DataSpec)]
struct Padded64 {
    #[spec(source = "frames")]
    x: Batch<VectorSeq<F>>,
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

/// Lengths 1..=512, the same in the NumPy script: `(i * 7919 + 13) % 512 + 1`.
fn length(i: usize) -> usize {
    (i * 7919 + 13) % MAX + 1
}

fn main() {
    batchspec_bench::record::start("ragged", std::env::var_os("BENCH_QUICK").is_some());
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let reps = if quick { 3 } else { 9 };
    let samples: Vec<Vec<f32>> = (0..N)
        .map(|i| (0..length(i) * F).map(|v| (v % 1000) as f32).collect())
        .collect();
    let ragged = Dataset::new(Ragged64 {
        x: batchspec::types::Ragged::from_flat_samples(&samples).unwrap(),
    })
    .unwrap();
    drop(samples);
    let schedule = Schedule::builder(N)
        .batch_size(BATCH)
        .shuffle(true)
        .seed(42)
        .last_batch(LastBatch::Short)
        .build()
        .unwrap();

    // The bytes an epoch writes: every batch padded to its own longest sequence.
    let mut written = 0usize;
    let mut e = schedule.epoch(0);
    while let Some(b) = e.next_batch() {
        let rows = b.indices().to_vec();
        let longest = rows.iter().map(|&i| length(i)).max().unwrap_or(0);
        written += rows.len() * longest * F * 4;
    }

    let mut provider = Provider::<Ragged64, Padded64>::new(&ragged, schedule.clone()).unwrap();
    let mut epoch = 0u64;
    let ours = time(reps, || {
        provider.start_epoch(epoch % 2); // epochs 0 and 1: the same bytes as measured above
        epoch += 1;
        let mut sum = 0f32;
        while let Some(b) = provider.next_batch() {
            sum += b.batch.x.array()[[0, 0, 0]];
        }
        black_box(sum);
    });

    // The plain loop a person would write: zero the batch's rows up to its longest sequence,
    // then copy each sequence's steps (the same shuffled order).
    let values = ragged.fields().x.values();
    let offsets = ragged.fields().x.offsets();
    let mut out = vec![0f32; BATCH * MAX * F];
    let mut plain_epoch = 0u64;
    let plain = time(reps, || {
        let order = batchspec::iteration::permutation(N, 42, plain_epoch % 2);
        plain_epoch += 1;
        let mut sum = 0f32;
        for rows in order.chunks(BATCH) {
            let longest = rows
                .iter()
                .map(|&i| offsets[i + 1] - offsets[i])
                .max()
                .unwrap_or(0);
            let out = &mut out[..rows.len() * longest * F];
            out.fill(0.0);
            for (j, &i) in rows.iter().enumerate() {
                let steps = &values[offsets[i] * F..offsets[i + 1] * F];
                out[j * longest * F..j * longest * F + steps.len()].copy_from_slice(steps);
            }
            sum += out[0];
        }
        black_box(sum);
    });

    // Buckets of similar lengths (boundaries every 64 steps): less padding, fewer bytes.
    let buckets = batchspec::iteration::Buckets::new(
        ragged.fields().x.lengths(),
        &[64, 128, 192, 256, 320, 384, 448],
        &[BATCH; 8],
    )
    .unwrap()
    .shuffled(42);
    let plans: Vec<Vec<Vec<usize>>> = (0..2).map(|e| buckets.epoch(e)).collect();
    let mut bucketed = Provider::<Ragged64, Padded64>::new(&ragged, schedule.clone()).unwrap();
    let mut bucket_epoch = 0usize;
    let bucket_t = time(reps, || {
        let mut sum = 0f32;
        for rows in &plans[bucket_epoch % 2] {
            sum += bucketed.batch_of(rows).unwrap().batch.x.array()[[0, 0, 0]];
        }
        bucket_epoch += 1;
        black_box(sum);
    });

    // memcpy of as many bytes, from the ragged values.
    let floats = written / 4;
    let src: Vec<f32> = values.iter().copied().cycle().take(floats).collect();
    let mut dst = vec![0f32; floats];
    let memcpy = time(reps, || {
        dst.copy_from_slice(&src);
        black_box(&dst);
    });
    drop((src, dst));

    // Fixed-size padding: every sequence stored padded to 512 steps, gathered whole.
    let padded = Dataset::new(Padded64 {
        x: Batch::new(Array3::from_shape_fn((N, MAX, F), |(i, t, f)| {
            if t < length(i) {
                ((t * F + f) % 1000) as f32
            } else {
                0.0
            }
        }))
        .unwrap(),
    })
    .unwrap();
    let mut fixed = Provider::<Padded64, Padded64>::new(&padded, schedule.clone()).unwrap();
    let fixed_t = time(reps, || {
        fixed.start_epoch(epoch % 2);
        epoch += 1;
        let mut sum = 0f32;
        while let Some(b) = fixed.next_batch() {
            sum += b.batch.x.array()[[0, 0, 0]];
        }
        black_box(sum);
    });
    let fixed_bytes = N * MAX * F * 4;

    batchspec_bench::out!(
        "case=ragged_pad_longest threads=1 samples_per_s={:.0} gbps={:.2} ratio_plain={:.2} ratio_memcpy={:.2} memcpy_gbps={:.2}",
        N as f64 / ours,
        written as f64 / ours / 1e9,
        plain / ours,
        memcpy / ours,
        written as f64 / memcpy / 1e9
    );
    batchspec_bench::out!(
        "case=plain_loop threads=1 samples_per_s={:.0} gbps={:.2}",
        N as f64 / plain,
        written as f64 / plain / 1e9
    );
    batchspec_bench::out!(
        "case=ragged_buckets_of_64_steps threads=1 samples_per_s={:.0} ratio_ragged={:.2}",
        N as f64 / bucket_t,
        ours / bucket_t
    );
    batchspec_bench::out!(
        "case=fixed_pad_512 threads=1 samples_per_s={:.0} gbps={:.2} ratio_ragged={:.2}",
        N as f64 / fixed_t,
        fixed_bytes as f64 / fixed_t / 1e9,
        ours / fixed_t
    );
    // The NumPy version in the same session, its lines in this run's record.
    batchspec_bench::run_numpy("numpy_ragged.py", &[]);
}
