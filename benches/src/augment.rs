//! The standard CIFAR training augmentation (pad 4, random crop 32, random horizontal flip,
//! normalize, `bhwc u8 -> bchw f32`) over 50000 random 32×32×3 images, batch 256, one shuffled
//! epoch, on 1 thread (a provider in the consumer's loop) and 2 threads (two prefetching
//! providers over two shards), beside, in the same run:
//!
//! * `plain`: the plain gather with the same conversion and no augmentation;
//! * `passes`: the same steps as separate passes with this crate's pieces (gather `bhwc u8`,
//!   pad into a 40×40 buffer, crop and flip into a 32×32 buffer, convert to `bchw f32` with the
//!   layout kernel, normalize in place), every buffer allocated once.
//!
//! `numpy_augment.py` runs the same pipeline in NumPy, vectorized per batch.
//!
//! `cargo bench -p batchspec-bench --bench augment` (`BENCH_QUICK=1` for a short run). Each line:
//! `case=.. threads=T samples_per_s=.. ratio_plain=..`.

use batchspec::augment::{Augmentation, Draws, Steps};
use batchspec::data::Dataset;
use batchspec::data::{Prefetch, Provider};
use batchspec::iteration::{LastBatch, Order, Schedule, Shard};
use batchspec::prelude::*;
use batchspec_bench::median;
use ndarray::{Array4, Axis, s};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

const N: usize = 50_000;
const BATCH: usize = 256;
const MEAN: [f32; 3] = [125.3, 123.0, 113.9];
const STD: [f32; 3] = [63.0, 62.1, 66.7];

#[derive(DataSpec)]
struct Cifar {
    #[spec(source = "image")]
    image: Batch<image![32, 32, 3; BHWC, u8]>,
    #[spec(source = "label")]
    label: Batch<Labels<10, u8>>,
}

struct Standard;
impl Augmentation for Standard {
    type Input = image![32, 32, 3; BHWC, u8];
    const STEPS: Steps = Steps::new()
        .pad(4)
        .random_crop(32, 32)
        .flip_h(0.5)
        .normalize(&MEAN, &STD);
}

#[derive(DataSpec)]
struct Fused {
    #[spec(source = "image", augment = Standard)]
    image: Batch<image![32, 32, 3; BCHW, f32]>,
    #[spec(source = "label")]
    label: Batch<Labels<10, u8>>,
}

#[derive(DataSpec)]
struct Plain {
    #[spec(source = "image")]
    image: Batch<image![32, 32, 3; BCHW, f32]>,
    #[spec(source = "label")]
    label: Batch<Labels<10, u8>>,
}

#[derive(DataSpec)]
struct Raw {
    #[spec(source = "image")]
    image: Batch<image![32, 32, 3; BHWC, u8]>,
    #[spec(source = "label")]
    label: Batch<Labels<10, u8>>,
}

fn time(reps: usize, mut f: impl FnMut()) -> f64 {
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

fn schedule(shard: Shard) -> Schedule {
    Schedule::builder(N)
        .batch_size(BATCH)
        .order(Order::Shuffled)
        .seed(42)
        .last_batch(LastBatch::Pad)
        .shard(shard)
        .build()
        .unwrap()
}

/// The separate passes over one batch gathered as `bhwc u8`.
struct Passes {
    padded: Array4<u8>,
    cropped: Batch<image![32, 32, 3; BHWC, u8]>,
    out: Batch<image![32, 32, 3; BCHW, f32]>,
}

impl Passes {
    fn new() -> Self {
        Passes {
            padded: Array4::zeros((BATCH, 40, 40, 3)),
            cropped: Batch::new(Array4::zeros((BATCH, 32, 32, 3))).unwrap(),
            out: Batch::new(Array4::zeros((BATCH, 3, 32, 32))).unwrap(),
        }
    }

    fn run(&mut self, raw: &Raw, rows: usize, global: &[usize], draws: Draws) -> f32 {
        // `global`: the global indices of the batch's samples.
        let x = raw.image.array();
        // Pass 1: pad (the border stays zero from the allocation).
        self.padded
            .slice_mut(s![..rows, 4..36, 4..36, ..])
            .assign(&x.slice(s![..rows, .., .., ..]));
        // Pass 2: crop and flip, with the same choices as the fused gather.
        {
            let c = self.cropped.array_mut();
            for (j, &row) in global.iter().enumerate().take(rows) {
                let ch = Standard::STEPS.choices(32, 32, draws, row);
                let win = self.padded.slice(s![
                    j,
                    ch.crop_y..ch.crop_y + 32,
                    ch.crop_x..ch.crop_x + 32,
                    ..
                ]);
                let mut dst = c.index_axis_mut(Axis(0), j);
                if ch.flip_h {
                    dst.assign(&win.slice(s![.., ..;-1, ..]));
                } else {
                    dst.assign(&win);
                }
            }
        }
        // Pass 3: layout and element (the crate's conversion kernel).
        self.cropped.format_into(&mut self.out).unwrap();
        // Pass 4: normalize in place.
        let o = self.out.array_mut();
        for (k, (m, sd)) in MEAN.iter().zip(STD).enumerate() {
            o.slice_mut(s![.., k, .., ..])
                .mapv_inplace(|v| (v - m) / sd);
        }
        o[[0, 0, 0, 0]]
    }
}

fn main() {
    batchspec_bench::record::start("augment", std::env::var_os("BENCH_QUICK").is_some());
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let reps = if quick { 3 } else { 7 };
    let ds = Arc::new(
        Dataset::new(Cifar {
            image: Batch::new(Array4::from_shape_fn((N, 32, 32, 3), |(i, h, w, c)| {
                ((i * 7919 + h * 131 + w * 17 + c * 3) % 251) as u8
            }))
            .unwrap(),
            label: Batch::new(ndarray::Array1::from_shape_fn(N, |i| (i % 10) as u8)).unwrap(),
        })
        .unwrap(),
    );

    // 1 thread: the fused and the plain provider, a new shuffle every epoch.
    let mut fused = Provider::<Cifar, Fused>::new(&ds, schedule(Shard::whole())).unwrap();
    let mut e = 0u64;
    let fused1 = time(reps, || {
        fused.start_epoch(e);
        e += 1;
        let mut sum = 0f32;
        while let Some(b) = fused.next_batch() {
            sum += b.batch.image.array()[[0, 0, 0, 0]];
        }
        black_box(sum);
    });
    let mut plain = Provider::<Cifar, Plain>::new(&ds, schedule(Shard::whole())).unwrap();
    let mut e = 0u64;
    let plain1 = time(reps, || {
        plain.start_epoch(e);
        e += 1;
        let mut sum = 0f32;
        while let Some(b) = plain.next_batch() {
            sum += b.batch.image.array()[[0, 0, 0, 0]];
        }
        black_box(sum);
    });
    // Separate passes: the provider gathers bhwc u8, the passes do the rest.
    let mut raw = Provider::<Cifar, Raw>::new(&ds, schedule(Shard::whole())).unwrap();
    let mut passes = Passes::new();
    let mut e = 0u64;
    let passes1 = time(reps, || {
        raw.start_epoch(e);
        let order = batchspec::iteration::permutation(N, 42, e);
        let draws = Draws::new(42, e);
        e += 1;
        let mut sum = 0f32;
        let mut at = 0;
        while let Some(b) = raw.next_batch() {
            let rows = b.info.count_samples;
            sum += passes.run(b.batch, rows, &order[at..at + rows], draws);
            at += rows;
        }
        black_box(sum);
    });

    // 2 threads: two prefetching providers over two shards.
    let two = |make: &dyn Fn(usize) -> Box<dyn FnMut() -> Option<bool>>| {
        let mut workers: Vec<_> = (0..2).map(make).collect();
        time(reps, || {
            let mut open = [true, true];
            while open.iter().any(|&o| o) {
                for (k, w) in workers.iter_mut().enumerate() {
                    if open[k] {
                        match w() {
                            Some(true) => {}
                            _ => open[k] = false,
                        }
                    }
                }
            }
        })
    };
    let epochs = (reps + 2) as u64;
    let fused2 = two(&|k| {
        let mut p = Prefetch::<Fused>::provider::<Cifar>(
            Arc::clone(&ds),
            schedule(Shard::new(k, 2).unwrap()),
            0..epochs,
            2,
        );
        Box::new(move || {
            p.next_batch().map(|b| {
                let b = b.unwrap();
                black_box(b.image.array()[[0, 0, 0, 0]]);
                b.info.count_samples == BATCH && b.info.pad == 0
            })
        })
    });
    let plain2 = two(&|k| {
        let mut p = Prefetch::<Plain>::provider::<Cifar>(
            Arc::clone(&ds),
            schedule(Shard::new(k, 2).unwrap()),
            0..epochs,
            2,
        );
        Box::new(move || {
            p.next_batch().map(|b| {
                let b = b.unwrap();
                black_box(b.image.array()[[0, 0, 0, 0]]);
                b.info.count_samples == BATCH && b.info.pad == 0
            })
        })
    });

    batchspec_bench::out!(
        "# one shuffled epoch of {N} 32×32×3 u8 images + labels, batch {BATCH}: pad 4, random crop 32, random flip, normalize, bhwc u8 -> bchw f32"
    );
    let sps = |t: f64| N as f64 / t;
    batchspec_bench::out!(
        "case=plain_gather threads=1 samples_per_s={:.0} (bhwc u8 -> bchw f32, no augmentation)",
        sps(plain1)
    );
    batchspec_bench::out!(
        "case=fused threads=1 samples_per_s={:.0} ratio_plain={:.2}",
        sps(fused1),
        plain1 / fused1
    );
    batchspec_bench::out!(
        "case=passes threads=1 samples_per_s={:.0} ratio_plain={:.2} fused_over_passes={:.2}",
        sps(passes1),
        plain1 / passes1,
        passes1 / fused1
    );
    batchspec_bench::out!(
        "case=plain_gather threads=2 samples_per_s={:.0}",
        sps(plain2)
    );
    batchspec_bench::out!(
        "case=fused threads=2 samples_per_s={:.0} ratio_plain={:.2}",
        sps(fused2),
        plain2 / fused2
    );
    // The NumPy version in the same session, its lines in this run's record.
    batchspec_bench::run_numpy("numpy_augment.py", &[]);
}
