//! Provider -> burn tensors, beside (a) the plain provider without tensors and (b) burn's own
//! path that its users write today (`InMemDataset` of items + a hand-written `Batcher` stacking
//! them into tensors, as burn's MNIST example does, served by burn's `DataLoaderBuilder`), in the
//! same run: one shuffled epoch, batch 128, one thread, for the digits (1797 8×8 u8 images to
//! `bchw f32`) and for 60000 × 784 f32 vectors; and the loader with `prefetch(2)` (2 threads).
//!
//! `cargo bench -p batchspec-burn --bench tensors` (set `BENCH_QUICK=1` for a short run).
//! Each line: `case=.. samples_per_s=.. ratio_provider=.. ratio_burn_batcher=..`, then the
//! baselines' own samples/s.

use batchspec::data::AllocFlat;
use batchspec::data::Dataset;
use batchspec::data::GatherSame;
use batchspec::data::Provider;
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use batchspec::types::FlatOf;
use batchspec::types::MapSpec;
use batchspec_burn::{SpecLoader, Tensors, ToBurn};
use burn::data::dataloader::batcher::Batcher;
use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
use burn::data::dataset::InMemDataset;
use burn::tensor::{Device, Int, Tensor, TensorData};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

// The benches' record (the CPU line, the run appended to `benches/results/raw/`), shared with
// the package `batchspec-bench`.
#[path = "../../../benches/src/record.rs"]
mod record;

const BATCH: usize = 128;

#[derive(DataSpec)]
struct Digits {
    #[spec(source = "features")]
    image: Batch<image![8, 8, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<10, 1, u8>>,
}

#[derive(DataSpec)]
struct DigitsInput {
    #[spec(source = "features")]
    image: Batch<image![8, 8, 1; BCHW, f32]>,
    #[spec(source = "targets")]
    label: Batch<Index<10, 1, i64>>,
}

#[derive(DataSpec)]
struct Mnist {
    #[spec(source = "features")]
    x: Batch<Vector<784>>,
    #[spec(source = "targets")]
    y: Batch<Labels<10, u8>>,
}

#[derive(DataSpec)]
struct MnistInput {
    #[spec(source = "features")]
    x: Batch<Vector<784>>,
    #[spec(source = "targets")]
    y: Batch<Labels<10, i64>>,
}

/// burn's way: one item per sample, stacked by a hand-written batcher.
#[derive(Clone, Debug)]
struct DigitItem {
    image: [[f32; 8]; 8],
    label: u8,
}

#[derive(Clone, Debug)]
struct MnistItem {
    x: Vec<f32>,
    label: u8,
}

#[derive(Clone)]
struct DigitBatcher;

impl Batcher<DigitItem, (Tensor<4>, Tensor<1, Int>)> for DigitBatcher {
    fn batch(&self, items: Vec<DigitItem>, device: &Device) -> (Tensor<4>, Tensor<1, Int>) {
        let images = items
            .iter()
            .map(|item| TensorData::from(item.image))
            .map(|data| Tensor::<2>::from_data(data, device))
            .map(|t| t.reshape([1, 1, 8, 8]))
            .collect();
        let labels = items
            .iter()
            .map(|item| Tensor::<1, Int>::from_data([item.label as i64], device))
            .collect();
        (Tensor::cat(images, 0), Tensor::cat(labels, 0))
    }
}

#[derive(Clone)]
struct MnistBatcher;

impl Batcher<MnistItem, (Tensor<2>, Tensor<1, Int>)> for MnistBatcher {
    fn batch(&self, items: Vec<MnistItem>, device: &Device) -> (Tensor<2>, Tensor<1, Int>) {
        let xs = items
            .iter()
            .map(|item| Tensor::<1>::from_data(TensorData::new(item.x.clone(), [784]), device))
            .map(|t| t.reshape([1, 784]))
            .collect();
        let labels = items
            .iter()
            .map(|item| Tensor::<1, Int>::from_data([item.label as i64], device))
            .collect();
        (Tensor::cat(xs, 0), Tensor::cat(labels, 0))
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Seconds per call of `f`, the median of `reps` after two warm-up calls.
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

fn schedule(n: usize) -> Schedule {
    Schedule::builder(n)
        .batch_size(BATCH)
        .shuffle(true)
        .seed(1)
        .build()
        .expect("a valid schedule")
}

/// One line: the loader's samples/s and its ratios to the plain provider (which lends one
/// reused buffer) and to burn's batcher path; `owned` is the provider's `next_owned` alone (a
/// fresh buffer per batch, the memory the tensors take), to show where the difference lies;
/// `prefetch` is the loader with `prefetch(2)` (its thread and the caller's: 2 threads).
fn report(case: &str, n: usize, [provider, owned, tensors, burn, prefetch]: [f64; 5]) {
    record::line(&format!(
        "case={case} samples_per_s={:.0} ratio_provider={:.2} ratio_burn_batcher={:.2} provider_samples_per_s={:.0} owned_samples_per_s={:.0} burn_batcher_samples_per_s={:.0} prefetch_2_threads_samples_per_s={:.0} prefetch_ratio_provider={:.2}",
        n as f64 / tensors,
        provider / tensors,
        burn / tensors,
        n as f64 / provider,
        n as f64 / owned,
        n as f64 / burn,
        n as f64 / prefetch,
        provider / prefetch,
    ));
}

/// One case: the plain provider, `next_owned` alone, the loader into tensors and burn's batcher
/// path, each over one shuffled epoch of the same samples.
fn case<R, Q, I, O, B>(name: &str, dataset: Arc<Dataset<R>>, items: Vec<I>, batcher: B, reps: usize)
where
    R: DataSpec + Send + Sync + 'static,
    Q: ProvidedBy<R> + MapSpec<ToBurn> + Send + 'static,
    FlatOf<R>: AllocFlat,
    R: GatherSame,
    Tensors<Q>: 'static,
    I: Clone + Send + Sync + core::fmt::Debug + 'static,
    O: Clone + Send + Sync + core::fmt::Debug + 'static,
    B: Batcher<I, O> + Clone + 'static,
{
    let device = Device::flex();
    let n = dataset.len();
    let mut provider = Provider::<R, Q>::new(&dataset, schedule(n)).unwrap();
    let mut epoch = 0;
    let t_provider = time(reps, || {
        provider.start_epoch(epoch);
        epoch += 1;
        while let Some(b) = provider.next_batch() {
            black_box(b.batch);
        }
    });
    let t_owned = time(reps, || {
        provider.start_epoch(epoch);
        epoch += 1;
        while let Some(b) = provider.next_owned() {
            black_box(b);
        }
    });
    let loader = SpecLoader::<R, Q>::new(dataset.clone(), schedule(n), &device).unwrap();
    let t_tensors = time(reps, || {
        for b in loader.iter() {
            black_box(b.unwrap());
        }
    });
    let ahead = loader.clone().prefetch(2);
    let t_prefetch = time(reps, || {
        for b in ahead.iter() {
            black_box(b.unwrap());
        }
    });
    let burn_loader = DataLoaderBuilder::new(batcher)
        .batch_size(BATCH)
        .shuffle(1)
        .set_device(device.clone())
        .build(InMemDataset::new(items));
    let t_burn = time(reps, || {
        for b in burn_loader.iter() {
            black_box(b.unwrap());
        }
    });
    report(
        name,
        n,
        [t_provider, t_owned, t_tensors, t_burn, t_prefetch],
    );
}

fn main() {
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    record::start("tensors", quick);

    // The digits: 1797 samples, as the quickstart stores them.
    let n = 1797;
    let pixels: Vec<u8> = (0..n * 64).map(|i| (i * 7 % 17) as u8).collect();
    let labels: Vec<u8> = (0..n).map(|i| (i % 10) as u8).collect();
    let digits = Arc::new(
        Dataset::new(Digits {
            image: Batch::new(
                ndarray::Array4::from_shape_vec((n, 8, 8, 1), pixels.clone()).unwrap(),
            )
            .unwrap(),
            label: Batch::new(ndarray::Array2::from_shape_vec((n, 1), labels.clone()).unwrap())
                .unwrap(),
        })
        .unwrap(),
    );
    let items: Vec<DigitItem> = (0..n)
        .map(|i| {
            let mut image = [[0f32; 8]; 8];
            for (h, row) in image.iter_mut().enumerate() {
                for (w, v) in row.iter_mut().enumerate() {
                    *v = pixels[i * 64 + h * 8 + w] as f32;
                }
            }
            DigitItem {
                image,
                label: labels[i],
            }
        })
        .collect();
    let reps = if quick { 3 } else { 9 };
    case::<Digits, DigitsInput, _, _, _>("digits_bchw_f32", digits, items, DigitBatcher, reps);

    // 60000 × 784 f32 vectors with u8 labels.
    let n = 60_000;
    let xs: Vec<f32> = (0..n * 784).map(|i| (i % 251) as f32).collect();
    let ys: Vec<u8> = (0..n).map(|i| (i % 10) as u8).collect();
    let items: Vec<MnistItem> = (0..n)
        .map(|i| MnistItem {
            x: xs[i * 784..(i + 1) * 784].to_vec(),
            label: ys[i],
        })
        .collect();
    let mnist = Arc::new(
        Dataset::new(Mnist {
            x: Batch::new(ndarray::Array2::from_shape_vec((n, 784), xs).unwrap()).unwrap(),
            y: Batch::new(ndarray::Array1::from_vec(ys)).unwrap(),
        })
        .unwrap(),
    );
    let reps = if quick { 1 } else { 5 };
    case::<Mnist, MnistInput, _, _, _>("mnist_784_f32", mnist, items, MnistBatcher, reps);
}
