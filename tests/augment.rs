//! Augmentations fused into the gather, against plain step-by-step implementations: every step
//! on random images of odd sizes, several channel counts, element types and layouts (proptest);
//! the same choices for a sample served by one provider, a prefetching one on another thread, or
//! two sharded ranks; validation requests deterministic by their type; mixup and CutMix with
//! their labels.

use batchspec::augment::{Augmentation, Draws, Eval, ImageSpace, Steps};
use batchspec::data::Dataset;
use batchspec::data::{Prefetch, Provider};
use batchspec::iteration::{LastBatch, Order, Schedule, Shard};
use batchspec::prelude::*;
use batchspec::types::axis::{B, C, H, W};
use ndarray::{Array3, Array4, ArrayView4, Axis};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Reflects `k` into `0..n` about the edges, the edge not repeated (NumPy's `reflect`).
fn reflect(k: isize, n: usize) -> usize {
    let n = n as isize;
    let k = if k < 0 { -k } else { k };
    (if k >= n { 2 * (n - 1) - k } else { k }) as usize
}

/// The steps one after another on one sample `(h, w, c)`, in plain loops: pad, crop, flips,
/// noise and normalization in f32, cutout. Values are f64 (exact for the inputs used).
fn reference_sample(
    x: &Array3<f64>,
    pad: usize,
    reflect_pad: bool,
    crop: Option<(usize, usize)>,
    normalize: Option<(&[f32], &[f32])>,
    ch: &batchspec::augment::SampleChoices,
    floats: bool,
) -> Array3<f64> {
    let (h, w, c) = x.dim();
    // 1. pad
    let (ph, pw) = (h + 2 * pad, w + 2 * pad);
    let padded = Array3::from_shape_fn((ph, pw, c), |(i, j, k)| {
        let (si, sj) = (i as isize - pad as isize, j as isize - pad as isize);
        if reflect_pad {
            x[[reflect(si, h), reflect(sj, w), k]]
        } else if si >= 0 && sj >= 0 && (si as usize) < h && (sj as usize) < w {
            x[[si as usize, sj as usize, k]]
        } else {
            0.0
        }
    });
    // 2. crop
    let (ho, wo) = crop.unwrap_or((ph, pw));
    let cropped = Array3::from_shape_fn((ho, wo, c), |(i, j, k)| {
        padded[[ch.crop_y + i, ch.crop_x + j, k]]
    });
    // 3. flips
    let mut out = Array3::from_shape_fn((ho, wo, c), |(i, j, k)| {
        let i = if ch.flip_v { ho - 1 - i } else { i };
        let j = if ch.flip_h { wo - 1 - j } else { j };
        cropped[[i, j, k]]
    });
    // 4., 5. noise and normalize, in f32
    if floats {
        for ((i, j, k), v) in out.indexed_iter_mut() {
            let mut f = *v as f32;
            f += ch.noise((i * wo + j) * c + k);
            if let Some((mean, std)) = normalize {
                f = (f - mean[k]) / std[k];
            }
            *v = f64::from(f);
        }
    }
    // 6. cutout
    if let Some((ys, xs)) = &ch.cutout {
        for i in ys.clone() {
            for j in xs.clone() {
                for k in 0..c {
                    out[[i, j, k]] = 0.0;
                }
            }
        }
    }
    out
}

/// A value of sample `b` at `(i, j, k)`: integers 0..=255 (exact in every element type used).
fn value(seed: u64, b: usize, i: usize, j: usize, k: usize) -> f64 {
    let mut z = seed ^ ((b as u64) << 40) ^ ((i as u64) << 28) ^ ((j as u64) << 14) ^ k as u64;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) % 256) as f64
}

/// A batch of `n` images of the space `S` from logical `(b, h, w, c)` values.
fn images<S: ImageSpace>(n: usize, seed: u64, cast: impl Fn(f64) -> S::Elem) -> Batch<S>
where
    S::Dim: ndarray::Dimension,
{
    let [h, w, c] = S::HWC;
    let logical = Array4::from_shape_fn((n, h, w, c), |(b, i, j, k)| cast(value(seed, b, i, j, k)));
    // Memory axis m holds the logical axis `inv[m]`.
    let mut inv = [0usize; 4];
    for (l, &m) in S::AXES.iter().enumerate() {
        inv[m] = l;
    }
    let mem = logical.permuted_axes(inv).as_standard_layout().into_owned();
    Batch::new(mem.into_dimensionality::<S::Dim>().unwrap()).unwrap()
}

/// A batch of `S` seen as logical `(b, h, w, c)`.
fn logical<S: ImageSpace>(b: &Batch<S>) -> ArrayView4<'_, S::Elem> {
    b.array()
        .view()
        .into_dimensionality::<ndarray::Ix4>()
        .unwrap()
        .permuted_axes(S::AXES)
}

macro_rules! exact_case {
    ($test:ident: [$h:literal, $w:literal, $c:literal; $lin:ty, $ein:ty] => [$ho:literal, $wo:literal; $lout:ty, $eout:ty],
     pad = $pad:expr, reflect = $refl:expr, crop = $crop:expr, normalize = $norm:expr, $steps:expr) => {
        mod $test {
            use super::*;
            pub struct Aug;
            impl Augmentation for Aug {
                type Input = image![$h, $w, $c; $lin, $ein];
                const STEPS: Steps = $steps;
            }
            #[allow(dead_code)]
            #[derive(DataSpec)]
            pub struct Rec {
                #[spec(source = "image")]
                pub image: Batch<image![$h, $w, $c; $lin, $ein]>,
                #[spec(source = "id")]
                pub id: Batch<Labels<100000>>,
            }
            #[allow(dead_code)]
            #[derive(DataSpec)]
            pub struct Req {
                #[spec(source = "image", augment = Aug)]
                pub image: Batch<image![$ho, $wo, $c; $lout, $eout]>,
                #[spec(source = "id")]
                pub id: Batch<Labels<100000>>,
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(24))]
                #[test]
                fn matches_the_plain_steps(n in 1usize..10, batch in 1usize..5, seed: u64, epoch in 0u64..3, data in any::<u64>()) {
                    let ds = Dataset::new(Rec {
                        image: images::<image![$h, $w, $c; $lin, $ein]>(n, data, |v| v as $ein),
                        id: Batch::new(ndarray::Array1::from_iter(0..n as i64)).unwrap(),
                    }).unwrap();
                    let schedule = Schedule::builder(n).batch_size(batch.min(n)).order(Order::Shuffled).seed(seed).last_batch(LastBatch::Pad).build().unwrap();
                    let mut p = Provider::<Rec, Req>::new(&ds, schedule).unwrap();
                    p.start_epoch(epoch);
                    let steps = Aug::STEPS;
                    let floats = steps.computes_floats();
                    let mut seen = 0;
                    while let Some(b) = p.next_batch() {
                        let out = logical(&b.batch.image);
                        let ids = b.batch.id.array();
                        for j in 0..b.info.count_samples {
                            let row = ids[j] as usize;
                            let ch = steps.choices($h, $w, Draws::new(seed, epoch), row);
                            let x = Array3::from_shape_fn(($h, $w, $c), |(i, jj, k)| value(data, row, i, jj, k));
                            let want = reference_sample(&x, $pad, $refl, $crop, $norm, &ch, floats);
                            let got = out.index_axis(Axis(0), j).mapv(|v| v as f64);
                            prop_assert_eq!(got, want, "row {} of epoch {}", row, epoch);
                            seen += 1;
                        }
                        // Padding rows are zeros.
                        for j in b.info.count_samples..out.shape()[0] {
                            prop_assert!(out.index_axis(Axis(0), j).iter().all(|&v| v as f64 == 0.0));
                        }
                    }
                    prop_assert_eq!(seen, n);
                }
            }
        }
    };
}

// Geometry only, u8 kept: zero padding, random crop, both flips, bhwc -> bchw.
exact_case!(pad_crop_flips_u8: [5, 7, 3; BHWC, u8] => [6, 8; BCHW, u8],
    pad = 2, reflect = false, crop = Some((6, 8)), normalize = None,
    Steps::new().pad(2).random_crop(6, 8).flip_h(0.5).flip_v(0.5));
// Reflect padding and a center crop, grey images, f32 -> f64, batch-last layouts.
exact_case!(reflect_center_grey: [4, 5, 1; CHWB, f32] => [5, 6; (H, W, C, B), f64],
    pad = 3, reflect = true, crop = Some((5, 6)), normalize = None,
    Steps::new().reflect_pad(3).center_crop(5, 6).flip_h(0.5));
// Padding alone grows the image; noise and normalization of 4 channels into f32.
exact_case!(pad_noise_normalize_4: [3, 3, 4; BHWC, u8] => [5, 5; (B, C, W, H), f32],
    pad = 1, reflect = false, crop = None, normalize = Some((&[10.0, 20.0, 30.0, 40.0][..], &[2.0, 3.0, 5.0, 7.0][..])),
    Steps::new().pad(1).flip_v(0.3).noise(4.0).normalize(&[10.0, 20.0, 30.0, 40.0], &[2.0, 3.0, 5.0, 7.0]));
// A crop smaller than the image without padding, cutout after normalization, 2 channels.
exact_case!(crop_cutout_2: [7, 6, 2; (B, W, H, C), u8] => [5, 4; BCHW, f32],
    pad = 0, reflect = false, crop = Some((5, 4)), normalize = Some((&[100.0, 50.0][..], &[64.0, 32.0][..])),
    Steps::new().random_crop(5, 4).flip_h(0.5).normalize(&[100.0, 50.0], &[64.0, 32.0]).cutout(3, 0.7));
// The usual case, u8 `bhwc` to normalized f32 `bchw` with 3 channels: rows of 8 pixels and
// more go through the SIMD rows (on machines that have them), the rest through plain loops.
exact_case!(cifar_like_simd_rows: [9, 13, 3; BHWC, u8] => [10, 12; BCHW, f32],
    pad = 2, reflect = false, crop = Some((10, 12)), normalize = Some((&[120.0, 110.0, 100.0][..], &[60.0, 61.0, 62.0][..])),
    Steps::new().pad(2).random_crop(10, 12).flip_h(0.5).flip_v(0.2).normalize(&[120.0, 110.0, 100.0], &[60.0, 61.0, 62.0]));
// Reflect padding with the SIMD rows.
exact_case!(reflect_simd_rows: [8, 17, 3; BHWC, u8] => [8, 16; BCHW, f32],
    pad = 3, reflect = true, crop = Some((8, 16)), normalize = None,
    Steps::new().reflect_pad(3).random_crop(8, 16).flip_h(0.5));
// No step: a plain gather with the cast and the layout change.
exact_case!(no_step: [4, 4, 3; BHWC, u8] => [4, 4; CHWB, f32],
    pad = 0, reflect = false, crop = None, normalize = None, Steps::new());

// ---- every layout, in and out ----

macro_rules! layout_cases {
    ($name:ident: $($case:ident: $lin:ty => $lout:ty;)*) => {
        $(
            mod $case {
                use super::*;
                pub struct Aug;
                impl Augmentation for Aug {
                    type Input = image![5, 6, 3; $lin, u8];
                    const STEPS: Steps = Steps::new().pad(1).random_crop(4, 7).flip_h(0.5).flip_v(0.5);
                }
                #[allow(dead_code)]
                #[derive(DataSpec)]
                pub struct Rec {
                    #[spec(source = "image")]
                    pub image: Batch<image![5, 6, 3; $lin, u8]>,
                    #[spec(source = "id")]
                    pub id: Batch<Labels<100000>>,
                }
                #[allow(dead_code)]
                #[derive(DataSpec)]
                pub struct Req {
                    #[spec(source = "image", augment = Aug)]
                    pub image: Batch<image![4, 7, 3; $lout, f32]>,
                    #[spec(source = "id")]
                    pub id: Batch<Labels<100000>>,
                }
                pub fn check(seed: u64) {
                    let n = 7;
                    let ds = Dataset::new(Rec {
                        image: images::<image![5, 6, 3; $lin, u8]>(n, seed, |v| v as u8),
                        id: Batch::new(ndarray::Array1::from_iter(0..n as i64)).unwrap(),
                    })
                    .unwrap();
                    let schedule = Schedule::builder(n).batch_size(3).order(Order::Shuffled).seed(seed).build().unwrap();
                    let mut p = Provider::<Rec, Req>::new(&ds, schedule).unwrap();
                    while let Some(b) = p.next_batch() {
                        let out = logical(&b.batch.image);
                        for j in 0..b.info.count_samples {
                            let row = b.batch.id.array()[j] as usize;
                            let ch = Aug::STEPS.choices(5, 6, Draws::new(seed, 0), row);
                            let x = Array3::from_shape_fn((5, 6, 3), |(i, jj, k)| value(seed, row, i, jj, k));
                            let want = reference_sample(&x, 1, false, Some((4, 7)), None, &ch, false);
                            let got = out.index_axis(Axis(0), j).mapv(f64::from);
                            assert_eq!(got, want, "{} -> {}, row {row}", stringify!($lin), stringify!($lout));
                        }
                    }
                }
            }
        )*
        #[test]
        fn $name() {
            for seed in 0..4 {
                $( $case::check(seed); )*
            }
        }
    };
}

// Every one of the 24 image layouts as the batch's, from `bhwc`, and as the record's, into
// `bchw` (strided samples when the batch axis is not first: the plain loops).
layout_cases!(every_output_layout:
    o_bhwc: BHWC => (B, H, W, C); o_bhcw: BHWC => (B, H, C, W); o_bwhc: BHWC => (B, W, H, C);
    o_bwch: BHWC => (B, W, C, H); o_bchw: BHWC => (B, C, H, W); o_bcwh: BHWC => (B, C, W, H);
    o_hbwc: BHWC => (H, B, W, C); o_hbcw: BHWC => (H, B, C, W); o_hwbc: BHWC => (H, W, B, C);
    o_hwcb: BHWC => (H, W, C, B); o_hcbw: BHWC => (H, C, B, W); o_hcwb: BHWC => (H, C, W, B);
    o_wbhc: BHWC => (W, B, H, C); o_wbch: BHWC => (W, B, C, H); o_whbc: BHWC => (W, H, B, C);
    o_whcb: BHWC => (W, H, C, B); o_wcbh: BHWC => (W, C, B, H); o_wchb: BHWC => (W, C, H, B);
    o_cbhw: BHWC => (C, B, H, W); o_cbwh: BHWC => (C, B, W, H); o_chbw: BHWC => (C, H, B, W);
    o_chwb: BHWC => (C, H, W, B); o_cwbh: BHWC => (C, W, B, H); o_cwhb: BHWC => (C, W, H, B);
);
layout_cases!(every_input_layout:
    i_bhwc: (B, H, W, C) => BCHW; i_bhcw: (B, H, C, W) => BCHW; i_bwhc: (B, W, H, C) => BCHW;
    i_bwch: (B, W, C, H) => BCHW; i_bchw: (B, C, H, W) => BCHW; i_bcwh: (B, C, W, H) => BCHW;
    i_hbwc: (H, B, W, C) => BCHW; i_hbcw: (H, B, C, W) => BCHW; i_hwbc: (H, W, B, C) => BCHW;
    i_hwcb: (H, W, C, B) => BCHW; i_hcbw: (H, C, B, W) => BCHW; i_hcwb: (H, C, W, B) => BCHW;
    i_wbhc: (W, B, H, C) => BCHW; i_wbch: (W, B, C, H) => BCHW; i_whbc: (W, H, B, C) => BCHW;
    i_whcb: (W, H, C, B) => BCHW; i_wcbh: (W, C, B, H) => BCHW; i_wchb: (W, C, H, B) => BCHW;
    i_cbhw: (C, B, H, W) => BCHW; i_cbwh: (C, B, W, H) => BCHW; i_chbw: (C, H, B, W) => BCHW;
    i_chwb: (C, H, W, B) => BCHW; i_cwbh: (C, W, B, H) => BCHW; i_cwhb: (C, W, H, B) => BCHW;
);

// ---- determinism across threads, prefetch and ranks; validation by type ----

struct Train;
impl Augmentation for Train {
    type Input = image![9, 9, 3; BHWC, u8];
    const STEPS: Steps = Steps::new()
        .pad(2)
        .random_crop(8, 8)
        .flip_h(0.5)
        .noise(3.0)
        .normalize(&[128.0, 128.0, 128.0], &[64.0, 64.0, 64.0])
        .cutout(3, 0.5);
}

#[derive(DataSpec)]
struct Rec {
    #[spec(source = "image")]
    image: Batch<image![9, 9, 3; BHWC, u8]>,
    #[spec(source = "id")]
    id: Batch<Labels<100000>>,
}

#[derive(DataSpec)]
struct TrainReq {
    #[spec(source = "image", augment = Train)]
    image: Batch<image![8, 8, 3; BCHW, f32]>,
    #[spec(source = "id")]
    id: Batch<Labels<100000>>,
}

#[derive(DataSpec)]
struct EvalReq {
    #[spec(source = "image", augment = Eval<Train>)]
    image: Batch<image![8, 8, 3; BCHW, f32]>,
    #[spec(source = "id")]
    id: Batch<Labels<100000>>,
}

fn record(n: usize) -> Arc<Dataset<Rec>> {
    Arc::new(
        Dataset::new(Rec {
            image: images::<image![9, 9, 3; BHWC, u8]>(n, 7, |v| v as u8),
            id: Batch::new(ndarray::Array1::from_iter(0..n as i64)).unwrap(),
        })
        .unwrap(),
    )
}

type Samples = BTreeMap<i64, Vec<f32>>;

fn collect(b: &TrainReq, count: usize, into: &mut Samples) {
    let img = logical(&b.image);
    for j in 0..count {
        let id = b.id.array()[j];
        into.insert(id, img.index_axis(Axis(0), j).iter().copied().collect());
    }
}

#[test]
fn a_sample_gets_the_same_choices_on_any_thread_prefetcher_or_rank() {
    let n = 37;
    let ds = record(n);
    let schedule = |shard: Shard, batch: usize| {
        Schedule::builder(n)
            .batch_size(batch)
            .order(Order::Shuffled)
            .seed(99)
            .shard(shard)
            .build()
            .unwrap()
    };
    // One provider on this thread, batch 5, epoch 2.
    let mut one = Samples::new();
    let mut p = Provider::<Rec, TrainReq>::new(&ds, schedule(Shard::whole(), 5)).unwrap();
    p.start_epoch(2);
    while let Some(b) = p.next_batch() {
        collect(b.batch, b.info.count_samples, &mut one);
    }
    assert_eq!(one.len(), n);
    // A prefetching provider on another thread, batch 4, epochs 0..3 (the third is compared).
    let mut pre = Samples::new();
    let mut f =
        Prefetch::<TrainReq>::provider(Arc::clone(&ds), schedule(Shard::whole(), 4), 0..3, 3);
    let mut epoch_batches = 0;
    let per_epoch = n.div_ceil(4);
    while let Some(b) = f.next_batch() {
        let b = b.unwrap();
        if epoch_batches / per_epoch == 2 {
            collect(&b, b.info.count_samples, &mut pre);
        }
        epoch_batches += 1;
    }
    assert_eq!(pre, one, "prefetched on another thread, other batch size");
    // Two ranks, each its shard, on two threads.
    let ranks: Vec<Samples> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|k| {
                let ds = Arc::clone(&ds);
                s.spawn(move || {
                    let mut got = Samples::new();
                    let mut p =
                        Provider::<Rec, TrainReq>::new(&ds, schedule(Shard::new(k, 2).unwrap(), 3))
                            .unwrap();
                    p.start_epoch(2);
                    while let Some(b) = p.next_batch() {
                        collect(b.batch, b.info.count_samples, &mut got);
                    }
                    got
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut merged = Samples::new();
    for r in ranks {
        for (k, v) in r {
            assert_eq!(one.get(&k), Some(&v), "sample {k} on its rank");
            merged.insert(k, v);
        }
    }
    assert!(merged.len() >= 2 * (n / 2), "{}", merged.len());
    // Another epoch draws other choices.
    let mut other = Samples::new();
    p.start_epoch(3);
    while let Some(b) = p.next_batch() {
        collect(b.batch, b.info.count_samples, &mut other);
    }
    assert_ne!(other, one);
}

#[test]
fn a_validation_request_is_deterministic_by_its_type() {
    let n = 6;
    let ds = record(n);
    let schedule = |seed| {
        Schedule::builder(n)
            .batch_size(n)
            .order(Order::Shuffled)
            .seed(seed)
            .build()
            .unwrap()
    };
    let eval = |seed, epoch| {
        let mut p = Provider::<Rec, EvalReq>::new(&ds, schedule(seed)).unwrap();
        p.start_epoch(epoch);
        let b = p.next_batch().unwrap();
        let img = logical(&b.batch.image);
        let mut by_id = BTreeMap::new();
        for j in 0..n {
            by_id.insert(b.batch.id.array()[j], img.index_axis(Axis(0), j).to_owned());
        }
        by_id
    };
    let a = eval(1, 0);
    assert_eq!(a, eval(2, 5), "no seed or epoch changes a validation batch");
    // It is the center crop of the padded image (offset 1 of 13 - 8 - ... ), normalized.
    let x = &ds.fields().image;
    let raw = logical(x);
    for (id, img) in a {
        let id = id as usize;
        for ((i, j, k), &v) in img.indexed_iter() {
            // Padded 13×13, center 8×8 starts at (13 - 8) / 2 = 2, i.e. source row i + 2 - 2.
            let want = (f32::from(raw[[id, i, j, k]]) - 128.0) / 64.0;
            assert_eq!(v, want, "sample {id} at {i},{j},{k}");
        }
    }
}

// ---- mixup and CutMix, with labels ----

struct MixTrain;
impl Augmentation for MixTrain {
    type Input = image![4, 5, 2; BHWC, u8];
    const STEPS: Steps = Steps::new().normalize(&[0.0, 0.0], &[1.0, 1.0]).mixup(0.4);
}
struct CutTrain;
impl Augmentation for CutTrain {
    type Input = image![4, 5, 2; BHWC, u8];
    const STEPS: Steps = Steps::new().normalize(&[0.0, 0.0], &[1.0, 1.0]).cutmix(1.0);
}

#[derive(DataSpec)]
struct MixRec {
    #[spec(source = "image")]
    image: Batch<image![4, 5, 2; BHWC, u8]>,
    #[spec(source = "label")]
    label: Batch<Index<3>>,
    #[spec(source = "id")]
    id: Batch<Labels<100000>>,
}

#[derive(DataSpec)]
struct MixReq {
    #[spec(source = "image", augment = MixTrain)]
    image: Batch<image![4, 5, 2; BHWC, f32]>,
    #[spec(source = "label", mixed_with = "image")]
    label: Batch<OneHot<3>>,
    #[spec(source = "id")]
    id: Batch<Labels<100000>>,
}

#[derive(DataSpec)]
struct CutReq {
    #[spec(source = "image", augment = CutTrain)]
    image: Batch<image![4, 5, 2; BCHW, f32]>,
    #[spec(source = "label", mixed_with = "image")]
    label: Batch<OneHot<3>>,
    #[spec(source = "id")]
    id: Batch<Labels<100000>>,
}

fn mix_record(n: usize) -> Dataset<MixRec> {
    Dataset::new(MixRec {
        image: images::<image![4, 5, 2; BHWC, u8]>(n, 3, |v| v as u8),
        label: Batch::new(ndarray::Array2::from_shape_fn((n, 1), |(i, _)| {
            i as i64 % 3
        }))
        .unwrap(),
        id: Batch::new(ndarray::Array1::from_iter(0..n as i64)).unwrap(),
    })
    .unwrap()
}

#[test]
fn mixup_mixes_pairs_and_their_labels_with_one_weight() {
    let n = 11;
    let ds = mix_record(n);
    let raw = logical(&ds.fields().image).mapv(f64::from);
    let schedule = Schedule::builder(n)
        .batch_size(5)
        .order(Order::Shuffled)
        .seed(4)
        .build()
        .unwrap();
    let mut p = Provider::<MixRec, MixReq>::new(&ds, schedule).unwrap();
    p.start_epoch(1);
    let mut mixed_pairs = 0;
    while let Some(b) = p.next_batch() {
        let count = b.info.count_samples;
        let rows: Vec<usize> = (0..count).map(|j| b.batch.id.array()[j] as usize).collect();
        let pairs = MixTrain::STEPS.pairs(4, 5, Draws::new(4, 1), &rows);
        let img = logical(&b.batch.image);
        let labels = b.batch.label.array();
        let mut partner: Vec<Option<(usize, f64)>> = vec![None; count];
        for pr in &pairs {
            assert!(pr.i < pr.j && pr.j < count && (0.0..=1.0).contains(&pr.lambda));
            assert!(
                partner[pr.i].is_none() && partner[pr.j].is_none(),
                "a sample in two pairs"
            );
            partner[pr.i] = Some((pr.j, pr.lambda));
            partner[pr.j] = Some((pr.i, pr.lambda));
            mixed_pairs += 1;
        }
        // At most two positions are their own partner.
        assert!(partner.iter().filter(|p| p.is_none()).count() <= 2);
        for j in 0..count {
            let own = rows[j];
            let (other, lam) = match partner[j] {
                Some((k, lam)) => (rows[k], lam),
                None => (own, 1.0),
            };
            for ((i, jj, k), &v) in img.index_axis(Axis(0), j).indexed_iter() {
                let want = (lam * f64::from(raw[[own, i, jj, k]] as f32)
                    + (1.0 - lam) * f64::from(raw[[other, i, jj, k]] as f32))
                    as f32;
                assert_eq!(v, want);
            }
            let label = |r: usize| r % 3;
            for m in 0..3 {
                let want = lam * f64::from(u8::from(label(own) == m))
                    + (1.0 - lam) * f64::from(u8::from(label(other) == m));
                assert_eq!(labels[[j, m]], want as f32, "label of sample {own}");
            }
            let total: f32 = (0..3).map(|m| labels[[j, m]]).sum();
            assert!((total - 1.0).abs() < 1e-6);
        }
    }
    assert!(mixed_pairs >= 4, "{mixed_pairs}");
}

#[test]
fn cutmix_swaps_a_box_and_weights_labels_by_the_area_kept() {
    let n = 8;
    let ds = mix_record(n);
    let raw = logical(&ds.fields().image).mapv(f32::from);
    let schedule = Schedule::builder(n)
        .batch_size(8)
        .order(Order::Shuffled)
        .seed(12)
        .build()
        .unwrap();
    let mut p = Provider::<MixRec, CutReq>::new(&ds, schedule).unwrap();
    let b = p.next_batch().unwrap();
    let rows: Vec<usize> = (0..n).map(|j| b.batch.id.array()[j] as usize).collect();
    let pairs = CutTrain::STEPS.pairs(4, 5, Draws::new(12, 0), &rows);
    assert!(!pairs.is_empty());
    let img = logical(&b.batch.image);
    // The sample each pixel of each output comes from.
    let mut source_of: Vec<Vec<usize>> = rows.iter().map(|&r| vec![r; 20]).collect();
    for pr in &pairs {
        let (ys, xs) = pr.cut.clone().unwrap();
        let kept = 1.0 - (ys.len() * xs.len()) as f64 / 20.0;
        assert_eq!(pr.lambda, kept);
        for y in ys {
            for x in xs.clone() {
                source_of[pr.i][y * 5 + x] = rows[pr.j];
                source_of[pr.j][y * 5 + x] = rows[pr.i];
            }
        }
        let l = b.batch.label.array();
        let (a, c) = (rows[pr.i] % 3, rows[pr.j] % 3);
        for m in 0..3 {
            let want =
                kept * f64::from(u8::from(a == m)) + (1.0 - kept) * f64::from(u8::from(c == m));
            assert_eq!(l[[pr.i, m]], want as f32);
        }
    }
    for j in 0..n {
        for ((y, x, k), &v) in img.index_axis(Axis(0), j).indexed_iter() {
            assert_eq!(
                v,
                raw[[source_of[j][y * 5 + x], y, x, k]],
                "sample {j} at {y},{x}"
            );
        }
    }
}

#[test]
fn a_stream_augments_each_sample_by_its_place_in_the_epoch() {
    use batchspec::data::Stream;
    // Records of one sample each; the id says which.
    let one = |i: usize| Rec {
        image: images::<image![9, 9, 3; BHWC, u8]>(1, 100 + i as u64, |v| v as u8),
        id: Batch::new(ndarray::Array1::from_elem(1, i as i64)).unwrap(),
    };
    let run = |epoch: u64| {
        let mut s = Stream::<Rec, TrainReq>::new(move |_| (0..10).map(one), 4).shuffle(0, 5);
        s.start_epoch(epoch);
        let mut got = Samples::new();
        while let Some(b) = s.next_batch() {
            let (b, info) = b.unwrap();
            collect(b, info.count_samples, &mut got);
        }
        got
    };
    let a = run(1);
    assert_eq!(a.len(), 10);
    assert_eq!(a, run(1), "the same seed and epoch draw the same");
    assert_ne!(a, run(2), "another epoch draws others");
    // In stream order (no shuffle buffer), sample i has the choices of global index i.
    let ch = Train::STEPS.choices(9, 9, Draws::new(5, 1), 3);
    let x = Array3::from_shape_fn((9, 9, 3), |(i, j, k)| value(103, 0, i, j, k));
    let want = reference_sample(
        &x,
        2,
        false,
        Some((8, 8)),
        Some((&[128.0, 128.0, 128.0][..], &[64.0, 64.0, 64.0][..])),
        &ch,
        true,
    );
    let got =
        ndarray::Array3::from_shape_vec((8, 8, 3), a[&3].iter().map(|&v| f64::from(v)).collect())
            .unwrap();
    assert_eq!(got, want);
}

// ---- the portable rows ----

/// The SIMD rows of `kernel::deinterleave3_affine` and the plain loops that write the same pixels
/// without them give the same images: the two cases above that go through the SIMD rows run again
/// in a child process with `BATCHSPEC_DISABLE_SIMD=1`, where no SIMD row is written.
#[test]
fn the_portable_rows_give_the_same_images() {
    let simd_rows = || {
        let src = [7u8; 48];
        let (mut a, mut b, mut c) = ([0f32; 16], [0f32; 16], [0f32; 16]);
        let done = batchspec::kernel::deinterleave3_affine(
            &src,
            [&mut a[..], &mut b[..], &mut c[..]],
            [1.0; 3],
            [2.0; 3],
            false,
        );
        (done, a[15], b[0], c[7])
    };
    if std::env::var_os("BATCHSPEC_DISABLE_SIMD").is_some() {
        // The child: the kernels are portable, the caller writes every pixel.
        assert!(!batchspec::kernel::simd_enabled());
        assert_eq!(simd_rows().0, 0);
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // Here the SIMD rows run, and write (7 - 1) / 2 for every pixel.
        assert_eq!(simd_rows(), (16, 3.0, 3.0, 3.0));
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args(["simd_rows", "the_portable_rows", "--test-threads=2"])
        .env("BATCHSPEC_DISABLE_SIMD", "1")
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // Both SIMD-row cases and the child's check ran, and passed.
    assert!(stdout.contains("test result: ok. 3 passed"), "{stdout}");
}
