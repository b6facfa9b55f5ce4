//! One shuffled epoch of minibatches: 60000 × 784 f32 features plus u8 labels, batch 128, served
//! by a `Provider` (1 thread) and by two prefetching providers over two shards (2 threads),
//! each beside `copy_from_slice` of the same feature bytes measured in the same run.
//!
//! The dataset is moved onto 2 MB pages first (`Dataset::huge_pages`, as NumPy advises its
//! arrays of 4 MB or more), and memcpy's buffers are on 2 MB pages too; the same provider over
//! the same data on 4 KB pages runs beside it.
//!
//! Beside them, a plain loop a person would write (a permutation, then `copy_from_slice` per row)
//! and the same loop over the rows in file order (what reading rows at random places costs).
//!
//! Then owned batches of ImageNet's size (`case=owned_images`: 256 images of `224 × 224 × 3`
//! served as `f32`, 154 MB a batch, and 32 of them, 19 MB) from `next_owned`, beside the same
//! provider's lent batch and a plain loop that gathers each batch into a new vector; the images
//! stored as `u8` in `bhwc` (served in `bhwc`, a cast, and in `bchw`, a transpose) and stored as
//! one vector each (served in `bchw`: a split and a transpose).
//!
//! `cargo bench -p batchspec-bench --bench gather` (set `BENCH_QUICK=1` for a short run).
//! The variants run in interleaved rounds (each round times each of them once), and each ratio
//! is the median, with its range, of the ratios within a round. Each line:
//! `case=gather threads=T samples_per_s=.. gbps=.. ratio_memcpy=M [min-max] ..`; GB/s counts
//! the bytes of the features and labels written per second, memcpy the feature matrix copied
//! once.

use batchspec::data::Dataset;
use batchspec::data::{Prefetch, Provider};
use batchspec::iteration::{LastBatch, Schedule, Shard};
use batchspec::prelude::*;
use batchspec_bench::{median, ratio};
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

/// ImageNet's batches: images of `224 × 224 × 3` stored as `u8` pixels (`bhwc`), served as
/// `f32` in the same layout (a cast: the gather writes each value once into new memory) and in
/// `bchw` (a transpose: into zeros).
#[derive(DataSpec)]
struct Pixels {
    #[spec(source = "images")]
    x: Batch<image![224, 224, 3; BHWC, u8]>,
}

#[derive(DataSpec)]
struct PixelsF32 {
    #[spec(source = "images")]
    x: Batch<image![224, 224, 3; BHWC, f32]>,
}

#[derive(DataSpec)]
struct PixelsBchw {
    #[spec(source = "images")]
    x: Batch<image![224, 224, 3; BCHW, f32]>,
}

/// The same pixels stored as one vector per image (`hwc` order), as a Parquet column of lists
/// or a dataset of flat arrays holds them: served as `bchw` `f32`, each vector is split into the
/// image's axes and transposed.
#[derive(DataSpec)]
struct FlatPixels {
    #[spec(source = "images")]
    x: Batch<Vector<PIXELS, u8>>,
}

const IMAGES: usize = 1024;
const PIXELS: usize = 224 * 224 * 3;

/// One epoch of a provider over `ds` per call, a new shuffle each time.
fn epochs_of(ds: &Dataset<Mnist>, schedule: Schedule) -> impl FnMut() + '_ {
    let mut provider = Provider::<Mnist, Mnist>::new(ds, schedule).unwrap();
    let mut epoch = 0u64;
    move || {
        provider.start_epoch(epoch);
        epoch += 1;
        let mut sum = 0f32;
        while let Some(b) = provider.next_batch() {
            sum += b.batch.x.array()[[0, 0]];
        }
        black_box(sum);
    }
}

fn main() {
    batchspec_bench::record::start("gather", std::env::var_os("BENCH_QUICK").is_some());
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let make = || {
        Dataset::new(Mnist {
            x: Batch::new(Array2::from_shape_fn((N, 784), |(i, j)| {
                ((i * 784 + j) % 16_777_213) as f32
            }))
            .unwrap(),
            y: Batch::new(ndarray::Array1::from_shape_fn(N, |i| (i % 10) as u8)).unwrap(),
        })
        .unwrap()
    };
    // The dataset on 2 MB pages (as NumPy's arrays of 4 MB or more are), and the same data left
    // on the 4 KB pages it was written to.
    let ds = make();
    let started = Instant::now();
    let advised = ds.huge_pages();
    let collapse_ms = started.elapsed().as_secs_f64() * 1e3;
    let ds = Arc::new(ds);
    let ds_4k = make();
    let feature_bytes = (N * 784 * 4) as f64;
    let epoch_bytes = feature_bytes + N as f64;

    // memcpy of the feature matrix, 1 thread and two halves on 2 threads.
    // On 2 MB pages too, as the dataset is: each buffer advised before it is first written.
    let advised_zeros = |len: usize| {
        let v = vec![0f32; len];
        batchspec::kernel::advise_huge_pages(&v, false);
        v
    };
    let mut src = advised_zeros(N * 784);
    src.copy_from_slice(ds.fields().x.array().as_slice().unwrap());
    let mut dst = advised_zeros(src.len());
    let mut memcpy1 = || {
        dst.copy_from_slice(&src);
        black_box(&dst);
    };
    let mut dst2 = advised_zeros(src.len());
    let mut memcpy2 = || {
        let (a, b) = dst2.split_at_mut(src.len() / 2);
        let (sa, sb) = src.split_at(src.len() / 2);
        std::thread::scope(|s| {
            s.spawn(|| a.copy_from_slice(sa));
            b.copy_from_slice(sb);
        });
        black_box(&dst2);
    };

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

    // 1 thread: the provider in the consumer's loop, a new shuffle every epoch (over the data on
    // 2 MB pages, and over the same data on 4 KB pages).
    let mut one = epochs_of(&ds, schedule(Shard::whole()));
    let mut one_4k = epochs_of(&ds_4k, schedule(Shard::whole()));

    // The plain loop a person would write: a Fisher-Yates order, then copy_from_slice per row.
    let x = ds.fields().x.array().as_slice().unwrap();
    let y = ds.fields().y.array().as_slice().unwrap();
    let mut out_x = vec![0f32; BATCH * 784];
    let mut out_y = [0u8; BATCH];
    let mut plain_epoch = 0u64;
    let rows_in = |order: &[usize], out_x: &mut [f32], out_y: &mut [u8]| {
        let mut sum = 0f32;
        for rows in order.chunks(BATCH) {
            for (j, &i) in rows.iter().enumerate() {
                out_x[j * 784..(j + 1) * 784].copy_from_slice(&x[i * 784..(i + 1) * 784]);
                out_y[j] = y[i];
            }
            sum += out_x[0] + f32::from(out_y[0]);
        }
        black_box(sum);
    };
    let mut plain = || {
        let order = batchspec::iteration::permutation(N, 42, plain_epoch);
        plain_epoch += 1;
        rows_in(&order, &mut out_x, &mut out_y);
    };
    // The same row copies in file order: what the access pattern costs is the gap between this
    // and the shuffled loop (the bandwidth of reading 3 KB rows at random places).
    let in_order: Vec<usize> = (0..N).collect();
    let mut out_x2 = vec![0f32; BATCH * 784];
    let mut out_y2 = [0u8; BATCH];
    let mut sequential = || rows_in(&in_order, &mut out_x2, &mut out_y2);

    // 2 threads: two prefetching providers over two shards, each gathering on its own thread.
    let rounds = if quick { 5 } else { 15 };
    let epochs = (rounds + 2) as u64;
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
    let mut two = || {
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
    };

    // Interleaved rounds: each round times every variant once, one after the other, so a slow
    // phase of the shared machine falls on all of them; ratios are taken within a round and
    // their median and spread reported.
    let secs = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    for f in [
        &mut memcpy1 as &mut dyn FnMut(),
        &mut one,
        &mut plain,
        &mut sequential,
        &mut memcpy2,
        &mut two,
        &mut one_4k,
    ] {
        f();
    }
    let mut t: [Vec<f64>; 7] = Default::default();
    for _ in 0..rounds {
        let fs: [&mut dyn FnMut(); 7] = [
            &mut memcpy1,
            &mut one,
            &mut plain,
            &mut sequential,
            &mut memcpy2,
            &mut two,
            &mut one_4k,
        ];
        for (k, f) in fs.into_iter().enumerate() {
            t[k].push(secs(f));
        }
    }
    let [m1, p1, pl, sq, m2, p2, p4k] = &t;

    batchspec_bench::out!(
        "# one shuffled epoch, {N} x 784 f32 + u8 labels, batch {BATCH}; gbps = features+labels bytes / s; memcpy = features copied once; {rounds} interleaved rounds, ratios within a round: median [min-max]"
    );
    batchspec_bench::out!(
        "pattern sequential_rows threads=1 samples_per_s={:.0} ratio_memcpy={} (the plain loop's copies in file order)",
        N as f64 / median(sq.clone()),
        ratio(m1, sq),
    );
    batchspec_bench::out!(
        "peer plain_gather threads=1 samples_per_s={:.0} ratio_memcpy={} ratio_sequential_rows={} (copy_from_slice per row, no provider)",
        N as f64 / median(pl.clone()),
        ratio(m1, pl),
        ratio(sq, pl),
    );
    batchspec_bench::out!(
        "pages: the dataset's leaves of 4 MB or more on 2 MB pages (Dataset::huge_pages: {:.0} MB advised, {collapse_ms:.0} ms); variant case=gather_4k_pages is the same data on 4 KB pages",
        advised as f64 / 1e6
    );
    batchspec_bench::out!(
        "case=gather_4k_pages threads=1 samples_per_s={:.0} ratio_memcpy={} ratio_plain_gather={} ratio_gather_huge_pages={}",
        N as f64 / median(p4k.clone()),
        ratio(m1, p4k),
        ratio(pl, p4k),
        ratio(p1, p4k),
    );
    batchspec_bench::out!(
        "# the rows prefetched ahead, calibrated at first use in this process: {}",
        match batchspec::kernel::row_prefetch_decided() {
            Some(0) => "whole rows".to_string(),
            Some(lines) => format!("the first {lines} lines of each row"),
            None => "not decided (BATCHSPEC_PREFETCH_LINES forced it)".to_string(),
        }
    );
    for (threads, secs, memcpy) in [(1, p1, m1), (2, p2, m2)] {
        batchspec_bench::out!(
            "case=gather threads={threads} samples_per_s={:.0} gbps={:.2} ratio_memcpy={} ratio_plain_gather={} memcpy_gbps={:.2}",
            N as f64 / median(secs.clone()),
            epoch_bytes / median(secs.clone()) / 1e9,
            ratio(memcpy, secs),
            ratio(pl, secs),
            feature_bytes / median(memcpy.clone()) / 1e9,
        );
    }
    // 154 MB batches (above glibc's 32 MB: each mapped afresh), then 19 MB ones (memory the
    // allocator reuses).
    owned_image_batches(quick, 256);
    owned_image_batches(quick, 32);

    // NumPy's `X[idx]` in the same session, after this process's figures (its own memcpy
    // measured beside it, as here); the ratio of the two processes' samples per second.
    let numpy = batchspec_bench::run_numpy("numpy_gather.py", &[]);
    let numpy_rate = numpy.iter().find_map(|l| {
        l.split_whitespace()
            .find_map(|w| w.strip_prefix("samples_per_s=")?.parse::<f64>().ok())
    });
    if let Some(rate) = numpy_rate {
        batchspec_bench::out!(
            "case=gather threads=1 ratio_numpy={:.2} (samples/s over NumPy's X[idx], y[idx], the process after this one)",
            N as f64 / median(p1.clone()) / rate
        );
    }
}

/// Owned batches of ImageNet's size (256 images of `224 × 224 × 3` `f32`, 154 MB a batch, above
/// glibc's 32 MB, so that each batch given away is memory mapped afresh): `next_owned` against
/// `next_batch` (one lent buffer, reused) and a plain loop that gathers each batch into a new
/// vector (`Vec::with_capacity`, then each row cast, on the 4 KB pages the allocator gives).
/// Interleaved rounds of one shuffled epoch each (4 batches), ratios within a round.
fn owned_image_batches(quick: bool, batch: usize) {
    let ds = Dataset::new(Pixels {
        x: Batch::new(Array4::from_shape_fn(
            (IMAGES, 224, 224, 3),
            |(i, h, w, c)| ((i * 7 + h * 3 + w + c) % 251) as u8,
        ))
        .unwrap(),
    })
    .unwrap();
    ds.huge_pages();
    let flat = Dataset::new(FlatPixels {
        x: Batch::new(
            ds.fields()
                .x
                .array()
                .to_shape((IMAGES, PIXELS))
                .unwrap()
                .to_owned(),
        )
        .unwrap(),
    })
    .unwrap();
    flat.huge_pages();
    let schedule = || {
        Schedule::builder(IMAGES)
            .batch_size(batch)
            .shuffle(true)
            .seed(7)
            .build()
            .unwrap()
    };
    let mut lent = Provider::<Pixels, PixelsF32>::new(&ds, schedule()).unwrap();
    let mut owned = Provider::<Pixels, PixelsF32>::new(&ds, schedule()).unwrap();
    let mut lent_bchw = Provider::<Pixels, PixelsBchw>::new(&ds, schedule()).unwrap();
    let mut owned_bchw = Provider::<Pixels, PixelsBchw>::new(&ds, schedule()).unwrap();
    let mut lent_flat = Provider::<FlatPixels, PixelsBchw>::new(&flat, schedule()).unwrap();
    let mut owned_flat = Provider::<FlatPixels, PixelsBchw>::new(&flat, schedule()).unwrap();
    let mut epoch = 0u64;
    let pixels = ds.fields().x.array().as_slice().unwrap();
    let mut run = |k: usize, epoch: u64| -> f32 {
        let mut sum = 0f32;
        match k {
            0 => {
                lent.start_epoch(epoch);
                while let Some(b) = lent.next_batch() {
                    sum += b.batch.x.array()[[0, 0, 0, 0]];
                }
            }
            1 => {
                owned.start_epoch(epoch);
                while let Some((b, _)) = owned.next_owned() {
                    sum += b.x.array()[[0, 0, 0, 0]];
                }
            }
            2 => {
                let order = batchspec::iteration::permutation(IMAGES, 7, epoch);
                for rows in order.chunks(batch) {
                    let mut v: Vec<f32> = Vec::with_capacity(rows.len() * PIXELS);
                    for &i in rows {
                        v.extend(
                            pixels[i * PIXELS..(i + 1) * PIXELS]
                                .iter()
                                .map(|&p| f32::from(p)),
                        );
                    }
                    sum += black_box(&v)[0];
                }
            }
            3 => {
                lent_bchw.start_epoch(epoch);
                while let Some(b) = lent_bchw.next_batch() {
                    sum += b.batch.x.array()[[0, 0, 0, 0]];
                }
            }
            4 => {
                owned_bchw.start_epoch(epoch);
                while let Some((b, _)) = owned_bchw.next_owned() {
                    sum += b.x.array()[[0, 0, 0, 0]];
                }
            }
            5 => {
                lent_flat.start_epoch(epoch);
                while let Some(b) = lent_flat.next_batch() {
                    sum += b.batch.x.array()[[0, 0, 0, 0]];
                }
            }
            _ => {
                owned_flat.start_epoch(epoch);
                while let Some((b, _)) = owned_flat.next_owned() {
                    sum += b.x.array()[[0, 0, 0, 0]];
                }
            }
        }
        sum
    };
    const VARIANTS: usize = 7;
    for k in 0..VARIANTS {
        black_box(run(k, epoch));
    }
    let rounds = if quick { 3 } else { 9 };
    let mut t: [Vec<f64>; VARIANTS] = Default::default();
    for _ in 0..rounds {
        epoch += 1;
        for (k, times) in t.iter_mut().enumerate() {
            let started = Instant::now();
            black_box(run(k, epoch));
            times.push(started.elapsed().as_secs_f64());
        }
    }
    let rate = |v: &[f64]| IMAGES as f64 / median(v.to_vec());
    let [
        lent_t,
        owned_t,
        plain_t,
        lent_bchw_t,
        owned_bchw_t,
        lent_flat_t,
        owned_flat_t,
    ] = &t;
    batchspec_bench::out!(
        "# owned batches of {batch} images of 224 x 224 x 3, u8 pixels (bhwc, {IMAGES} images on 2 MB pages) served as f32: {} MB a batch, one shuffled epoch a round, {rounds} interleaved rounds, ratios within a round: median [min-max]",
        batch * PIXELS * 4 / 1_000_000
    );
    batchspec_bench::out!(
        "peer plain_owned batch={batch} threads=1 samples_per_s={:.0} (a new Vec per batch, each row cast into it: 4 KB pages)",
        rate(plain_t)
    );
    batchspec_bench::out!(
        "case=owned_images batch={batch} layout=bhwc threads=1 samples_per_s={:.0} ratio_lent={} ratio_plain_owned={} lent_samples_per_s={:.0}",
        rate(owned_t),
        ratio(lent_t, owned_t),
        ratio(plain_t, owned_t),
        rate(lent_t),
    );
    batchspec_bench::out!(
        "case=owned_images batch={batch} layout=bchw threads=1 samples_per_s={:.0} ratio_lent={} lent_samples_per_s={:.0} (a transpose)",
        rate(owned_bchw_t),
        ratio(lent_bchw_t, owned_bchw_t),
        rate(lent_bchw_t),
    );
    batchspec_bench::out!(
        "case=owned_images batch={batch} layout=bchw_from_vector threads=1 samples_per_s={:.0} ratio_lent={} lent_samples_per_s={:.0} (the images stored as vectors: a split and a transpose)",
        rate(owned_flat_t),
        ratio(lent_flat_t, owned_flat_t),
        rate(lent_flat_t),
    );
}
