//! Encoded images as sources: the folder, WebDataset and RecordIO readers against fixtures
//! written by torchvision's conventions, `webdataset` 1.0.2 and MXNet 1.9.1's `im2rec.py`
//! (`tests/data/images/make_image_fixtures.py`), decodes against Pillow's, and the stream's
//! guarantees (the same batches at any number of workers, every sample once across ranks,
//! resume) as properties.
#![cfg(feature = "images")]

use batchspec::data::{BatchSource, DataError};
use batchspec::iteration::{Schedule, Shard};
use batchspec::load::LoadError;
use batchspec::load::images::{
    EncodedImages, ImageFolder, ImageSteps, ImageStream, RecordIo, ShardStream, WebDataset,
    decode_image,
};
use batchspec::prelude::*;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

mod damaged_state;
use damaged_state::{edited, position};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/images")
}

fn json(name: &str) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(data().join(name)).unwrap()).unwrap()
}

fn npy(name: &str) -> ndarray::ArrayD<u8> {
    ndarray_npy::read_npy(data().join(name)).unwrap()
}

#[derive(DataSpec)]
struct Small {
    #[spec(source = "image")]
    image: Batch<image![16, 16, 3; BCHW, f32]>,
    #[spec(source = "label")]
    label: Batch<Index<3>>,
}

#[derive(DataSpec)]
struct Pixels {
    #[spec(source = "image")]
    image: Batch<image![16, 16, 3; BHWC, u8]>,
}

#[derive(DataSpec)]
struct Grey {
    #[spec(source = "image")]
    image: Batch<image![8, 8, 1; BHWC, u8]>,
    #[spec(source = "label")]
    label: Batch<Index<3>>,
}

fn folder() -> ImageFolder {
    ImageFolder::open(data().join("folder")).unwrap()
}

fn schedule(n: usize, batch: usize) -> Schedule {
    Schedule::builder(n).batch_size(batch).build().unwrap()
}

fn all<R, S: BatchSource<R>>(source: &mut S) -> Vec<R> {
    std::iter::from_fn(|| source.next_owned())
        .map(|b| b.unwrap().0)
        .collect()
}

#[test]
fn the_folder_lists_as_torchvision_does() {
    let expected = json("folder.json");
    let f = folder();
    let classes: Vec<&str> = expected["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(f.classes(), classes);
    let listed: Vec<(String, usize)> = f
        .files()
        .map(|(p, c)| (p.to_string_lossy().into_owned(), c))
        .collect();
    let images: Vec<(String, usize)> = expected["images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["path"].as_str().unwrap().to_owned(),
                i["class_index"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    assert_eq!(listed, images);
}

#[test]
fn labels_are_the_class_indices_in_the_schedules_order() {
    let f = folder();
    let expected: Vec<i64> = f.files().map(|(_, c)| c as i64).collect();
    let n = f.len();
    let mut stream =
        ImageStream::<Small>::new(f, ImageSteps::stretch().scale(1.0 / 255.0), schedule(n, 4))
            .unwrap();
    let labels: Vec<i64> = all(&mut stream)
        .iter()
        .flat_map(|b| b.label.array().iter().copied().collect::<Vec<_>>())
        .collect();
    assert_eq!(labels, expected);
}

/// The stream's resize of the whole image to 16×16 against Pillow's `resize((16, 16),
/// BILINEAR)` of Pillow's decode: the decoders differ by a few values, the resize by rounding.
#[test]
fn a_stretched_image_is_pillows_bilinear_resize() {
    let expected = json("folder.json");
    let f = folder();
    let paths: Vec<String> = f
        .files()
        .map(|(p, _)| p.to_string_lossy().into_owned())
        .collect();
    let n = f.len();
    let mut stream = ImageStream::<Pixels>::new(f, ImageSteps::stretch(), schedule(n, n)).unwrap();
    let batch = all(&mut stream).remove(0);
    let mut checked = 0;
    for image in expected["images"].as_array().unwrap() {
        let Some(resized) = image["resized16"].as_str() else {
            continue;
        };
        let at = paths
            .iter()
            .position(|p| p == image["path"].as_str().unwrap())
            .unwrap();
        let pillow = npy(resized);
        let ours = batch
            .image
            .array()
            .index_axis(ndarray::Axis(0), at)
            .to_owned();
        let diffs: Vec<i32> = ours
            .iter()
            .zip(pillow.iter())
            .map(|(&a, &b)| (i32::from(a) - i32::from(b)).abs())
            .collect();
        let mean = diffs.iter().sum::<i32>() as f64 / diffs.len() as f64;
        let max = diffs.iter().max().copied().unwrap_or(0);
        assert!(mean < 1.5 && max <= 8, "{resized}: mean {mean}, max {max}");
        checked += 1;
    }
    assert_eq!(checked, 2);
}

/// An image field of the image's own size, center-cropped: the decode itself, against Pillow's
/// (PNG exactly, JPEG within the decoders' differences; grey converted to RGB by repeating,
/// RGBA by dropping alpha, RGB to grey as the grey PNG's own values).
#[test]
fn decodes_match_pillows() {
    let expected = json("folder.json");
    for image in expected["images"].as_array().unwrap() {
        let path = image["path"].as_str().unwrap();
        let (w, h) = (
            image["width"].as_u64().unwrap(),
            image["height"].as_u64().unwrap(),
        );
        let bytes = std::fs::read(data().join("folder").join(path)).unwrap();
        let pillow = npy(image["decoded_rgb"].as_str().unwrap());
        let ours = decode_image(&bytes, 3, 1 << 20).unwrap();
        assert_eq!(
            (ours.width, ours.height),
            (w as usize, h as usize),
            "{path}"
        );
        let diffs: Vec<i32> = ours
            .data
            .iter()
            .zip(pillow.iter())
            .map(|(&a, &b)| (i32::from(a) - i32::from(b)).abs())
            .collect();
        let max = diffs.iter().max().copied().unwrap_or(0);
        let mean = diffs.iter().sum::<i32>() as f64 / diffs.len() as f64;
        if image["format"] == "PNG" {
            assert_eq!(max, 0, "{path}");
        } else {
            assert!(max <= 12 && mean < 1.5, "{path}: mean {mean}, max {max}");
        }
    }
}

#[test]
fn layouts_and_types_hold_the_same_values() {
    let f = folder();
    let n = f.len();
    let steps = ImageSteps::random_resized_crop((0.3, 1.0), (0.75, 1.33)).flip_h(0.5);
    let sched = || {
        Schedule::builder(n)
            .batch_size(5)
            .shuffle(true)
            .seed(4)
            .build()
            .unwrap()
    };
    let u8s = all(&mut ImageStream::<Pixels>::new(folder(), steps.clone(), sched()).unwrap());
    let floats =
        all(&mut ImageStream::<Small>::new(f, steps.clone().scale(1.0 / 255.0), sched()).unwrap());
    for (a, b) in u8s.iter().zip(&floats) {
        let hwc = b.image.array().view().permuted_axes([0, 2, 3, 1]);
        for (&x, &y) in a.image.array().iter().zip(hwc.iter()) {
            assert!((f32::from(x) / 255.0 - y).abs() < 1e-6);
        }
    }
}

#[derive(DataSpec)]
struct SmallHwc {
    #[spec(source = "image")]
    image: Batch<image![16, 16, 3; BHWC, f32]>,
}

/// Scaled and normalized floats are the plain expression `v as f32 * mul + add` of the pixels
/// the same crops and flips give a `u8` field, bit for bit (`mul = scale / std`, `add = (0 ·
/// scale - mean) / std`, in `f32` as the steps compute them): in a `bchw` field, whose rows the
/// kernel's SIMD rows write where AVX2 is (three channels from one read of a row), and in a
/// `bhwc` one, written a value at a time from a table.
#[test]
fn normalized_floats_are_the_plain_expression_of_the_pixels_bit_for_bit() {
    let n = folder().len();
    let sched = || {
        Schedule::builder(n)
            .batch_size(5)
            .shuffle(true)
            .seed(9)
            .build()
            .unwrap()
    };
    let (scale, mean, std) = (
        1.0f32 / 255.0,
        [0.485f32, 0.456, 0.406],
        [0.229f32, 0.224, 0.225],
    );
    for geometry in [
        ImageSteps::stretch(),
        ImageSteps::random_resized_crop((0.08, 1.0), (0.75, 1.33)).flip_h(0.5),
    ] {
        let normalized = geometry.clone().scale(scale).normalize(&mean, &std);
        each_value_is(geometry, normalized, sched, |_, _, c, v| {
            f32::from(v) * (1.0 * scale / std[c]) + (0.0 * scale - mean[c]) / std[c]
        });
    }
}

/// Streams the same folder three times with one schedule: as `u8` pixels through `geometry`
/// alone, and as `bchw` and `bhwc` floats through `steps` (the same geometry with value steps);
/// every float of both is `want(row, column, channel, pixel)` of its pixel, bit for bit.
fn each_value_is(
    geometry: ImageSteps,
    steps: ImageSteps,
    sched: impl Fn() -> Schedule,
    want: impl Fn(usize, usize, usize, u8) -> f32,
) {
    let pixels = all(&mut ImageStream::<Pixels>::new(folder(), geometry, sched()).unwrap());
    let chw = all(&mut ImageStream::<Small>::new(folder(), steps.clone(), sched()).unwrap());
    let hwc = all(&mut ImageStream::<SmallHwc>::new(folder(), steps, sched()).unwrap());
    assert_eq!(pixels.len(), chw.len());
    assert_eq!(pixels.len(), hwc.len());
    for ((p, a), b) in pixels.iter().zip(&chw).zip(&hwc) {
        let a = a.image.array().view().permuted_axes([0, 2, 3, 1]);
        for ((i, &v), (&x, &y)) in p
            .image
            .array()
            .indexed_iter()
            .zip(a.iter().zip(b.image.array().iter()))
        {
            let want = want(i.1, i.2, i.3, v);
            assert_eq!(
                (x.to_bits(), y.to_bits()),
                (want.to_bits(), want.to_bits()),
                "{i:?}: {v}"
            );
        }
    }
}

/// A mean image (MXNet's `mean_img`): each value is the plain expression of its pixel with the
/// mean image's value at its row, column and channel subtracted after the scale and divided by
/// the channel's `std`, bit for bit, in `bchw` and `bhwc`, flipped samples included.
#[test]
fn a_mean_image_is_subtracted_value_by_value() {
    let n = folder().len();
    let sched = || {
        Schedule::builder(n)
            .batch_size(4)
            .shuffle(true)
            .seed(5)
            .build()
            .unwrap()
    };
    let (scale, std) = (1.0f32 / 255.0, [0.229f32, 0.224, 0.225]);
    // A different value at every row, column and channel (16 × 16 × 3, channels interleaved).
    let mean: Vec<f32> = (0..16 * 16 * 3).map(|i| (i % 97) as f32 / 200.0).collect();
    let geometry = ImageSteps::random_resized_crop((0.08, 1.0), (0.75, 1.33)).flip_h(0.5);
    let steps = geometry
        .clone()
        .scale(scale)
        .normalize(&[0.0; 3], &std)
        .mean_image(mean.clone());
    each_value_is(geometry, steps, sched, |row, col, c, v| {
        f32::from(v) * (1.0 * scale / std[c]) + (0.0 * scale - 0.0) / std[c]
            - mean[(row * 16 + col) * 3 + c] / std[c]
    });
}

#[test]
fn normalization_is_applied_per_channel() {
    let f = folder();
    let n = f.len();
    let plain =
        all(
            &mut ImageStream::<Small>::new(folder(), ImageSteps::stretch(), schedule(n, n))
                .unwrap(),
        );
    let mean = [0.485f32 * 255.0, 0.456 * 255.0, 0.406 * 255.0];
    let std = [0.229f32 * 255.0, 0.224 * 255.0, 0.225 * 255.0];
    let normed = all(&mut ImageStream::<Small>::new(
        f,
        ImageSteps::stretch().normalize(&mean, &std),
        schedule(n, n),
    )
    .unwrap());
    let (a, b) = (plain[0].image.array(), normed[0].image.array());
    for ((i, &x), &y) in a.indexed_iter().zip(b.iter()) {
        let c = i.1;
        assert!(((x - mean[c]) / std[c] - y).abs() < 1e-4);
    }
}

/// A padded last batch: its samples as the same samples of a shorter last batch, bit for bit,
/// and every value of its padding rows zero, in a `bchw f32` field (whose samples the workers
/// write straight into the batch's unwritten memory) and a `bhwc u8` one, at 1 and 3 workers.
#[test]
fn a_padded_last_batch_holds_its_samples_and_zeros() {
    use batchspec::iteration::LastBatch;
    let n = folder().len();
    let batch = n / 2 + 1;
    assert!(
        !n.is_multiple_of(batch),
        "a last batch shorter than the others"
    );
    let sched = |last| {
        Schedule::builder(n)
            .batch_size(batch)
            .shuffle(true)
            .seed(3)
            .last_batch(last)
            .build()
            .unwrap()
    };
    let steps = ImageSteps::random_resized_crop((0.08, 1.0), (0.75, 1.33))
        .flip_h(0.5)
        .scale(1.0 / 255.0)
        .normalize(&[0.485, 0.456, 0.406], &[0.229, 0.224, 0.225]);
    for workers in [1, 3] {
        let stream = |last| {
            ImageStream::<Small>::new(folder(), steps.clone(), sched(last))
                .unwrap()
                .workers(workers)
        };
        let short = all(&mut stream(LastBatch::Short));
        let padded = all(&mut stream(LastBatch::Pad));
        let (s, p) = (short.last().unwrap(), padded.last().unwrap());
        let real = n % batch;
        let (s, p) = (s.image.array(), p.image.array());
        assert_eq!((s.shape()[0], p.shape()[0]), (real, batch));
        let bits =
            |v: ndarray::ArrayViewD<'_, f32>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            bits(p.slice(ndarray::s![..real, .., .., ..]).into_dyn()),
            bits(s.view().into_dyn())
        );
        assert!(
            p.slice(ndarray::s![real.., .., .., ..])
                .iter()
                .all(|&v| v.to_bits() == 0)
        );
        let pixels = |last| {
            all(
                &mut ImageStream::<Pixels>::new(folder(), ImageSteps::stretch(), sched(last))
                    .unwrap()
                    .workers(workers),
            )
        };
        let (s, p) = (pixels(LastBatch::Short), pixels(LastBatch::Pad));
        let (s, p) = (
            s.last().unwrap().image.array(),
            p.last().unwrap().image.array(),
        );
        assert_eq!(p.slice(ndarray::s![..real, .., .., ..]), s.view());
        assert!(
            p.slice(ndarray::s![real.., .., .., ..])
                .iter()
                .all(|&v| v == 0)
        );
    }
}

fn stream_of(workers: usize, batch: usize, seed: u64, part: (usize, usize)) -> ImageStream<Small> {
    let f = folder();
    let n = f.len();
    let schedule = Schedule::builder(n)
        .batch_size(batch)
        .shuffle(true)
        .seed(seed)
        .shard(Shard::new(part.0, part.1).unwrap())
        .build()
        .unwrap();
    let steps = ImageSteps::random_resized_crop((0.08, 1.0), (0.75, 4.0 / 3.0))
        .flip_h(0.5)
        .random_contrast(0.3)
        .random_illumination(20.0)
        .scale(1.0 / 255.0);
    ImageStream::new(f, steps, schedule)
        .unwrap()
        .workers(workers)
}

fn flat(batches: &[Small]) -> Vec<(Vec<u32>, i64)> {
    batches
        .iter()
        .flat_map(|b| {
            let images = b.image.array();
            (0..images.shape()[0])
                .map(|i| {
                    let values = images
                        .index_axis(ndarray::Axis(0), i)
                        .iter()
                        .map(|v| v.to_bits())
                        .collect();
                    (values, b.label.array()[[i, 0]])
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// The same batches, bit for bit, at 1, 2, 3 and 8 workers.
    #[test]
    fn batches_do_not_depend_on_the_number_of_workers(
        seed in 0u64..1000, batch in 1usize..7, workers in 2usize..9, epoch in 0u64..3
    ) {
        let mut one = stream_of(1, batch, seed, (0, 1));
        let mut many = stream_of(workers, batch, seed, (0, 1));
        one.start_epoch(epoch);
        many.start_epoch(epoch);
        prop_assert_eq!(flat(&all(&mut one)), flat(&all(&mut many)));
    }

    /// A sample's crop, flip and jitter do not depend on the batch size either: the epoch's
    /// samples in order are the same at any two batch sizes.
    #[test]
    fn samples_do_not_depend_on_the_batch_size(seed in 0u64..1000, a in 1usize..8, b in 1usize..8, epoch in 0u64..3) {
        let mut one = stream_of(1, a, seed, (0, 1));
        let mut other = stream_of(2, b, seed, (0, 1));
        one.start_epoch(epoch);
        other.start_epoch(epoch);
        prop_assert_eq!(flat(&all(&mut one)), flat(&all(&mut other)));
    }

    /// Across the ranks of a world, each sample is served once an epoch (the samples told apart
    /// by the center crop of their image).
    #[test]
    fn every_sample_is_served_once_across_ranks(seed in 0u64..1000, world in 1usize..5, batch in 1usize..6) {
        #[derive(DataSpec)]
        struct Crop {
            #[spec(source = "image")]
            image: Batch<image![12, 12, 3; BHWC, u8]>,
        }
        let n = folder().len();
        let served = |part: usize, world: usize, shuffle: bool| {
            let schedule = Schedule::builder(n)
                .batch_size(batch)
                .shuffle(shuffle)
                .seed(seed)
                .shard(Shard::new(part, world).unwrap())
                .build()
                .unwrap();
            let mut s = ImageStream::<Crop>::new(folder(), ImageSteps::center_crop(), schedule).unwrap();
            std::iter::from_fn(|| s.next_owned())
                .flat_map(|b| {
                    let (b, info) = b.unwrap();
                    let a = b.image.array().to_owned();
                    (0..info.count_samples).map(move |i| a.index_axis(ndarray::Axis(0), i).iter().copied().collect::<Vec<u8>>())
                })
                .collect::<Vec<_>>()
        };
        let mut every: Vec<Vec<u8>> = served(0, 1, false);
        let mut ranks: Vec<Vec<u8>> = (0..world).flat_map(|r| served(r, world, true)).collect();
        every.sort();
        ranks.sort();
        prop_assert_eq!(ranks, every);
    }

    /// A state taken after any batch resumes with exactly the batches that came next, at
    /// another number of workers.
    #[test]
    fn a_state_resumes_where_it_was_taken(seed in 0u64..1000, batch in 1usize..6, at in 0usize..8) {
        let mut run = stream_of(1, batch, seed, (0, 1));
        let mut before = Vec::new();
        for _ in 0..at {
            match run.next_owned() {
                Some(b) => before.push(b.unwrap().0),
                None => break,
            }
        }
        let state = run.state();
        let rest = all(&mut run);
        let mut resumed = stream_of(2, batch, seed, (0, 1));
        resumed.resume(&serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap()).unwrap();
        prop_assert_eq!(flat(&all(&mut resumed)), flat(&rest));
    }
}

#[test]
fn a_record_of_sources_the_folder_lacks_is_refused_in_words() {
    #[derive(DataSpec)]
    struct Wrong {
        #[spec(source = "pixels")]
        image: Batch<image![8, 8, 3; BHWC, u8]>,
    }
    let n = folder().len();
    let err = ImageStream::<Wrong>::new(folder(), ImageSteps::stretch(), schedule(n, 2))
        .err()
        .unwrap();
    assert!(matches!(err, LoadError::NoSource { .. }), "{err}");
    assert!(
        err.to_string().contains("`pixels`") && err.to_string().contains("image, label"),
        "{err}"
    );

    // Normalized values into a u8 field.
    let err =
        ImageStream::<Pixels>::new(folder(), ImageSteps::stretch().scale(0.5), schedule(n, 2))
            .err()
            .unwrap();
    assert!(err.to_string().contains("float type"), "{err}");

    // Labels of three classes into an index of two.
    #[derive(DataSpec)]
    struct Two {
        #[spec(source = "label")]
        label: Batch<Index<2>>,
    }
    let mut s = ImageStream::<Two>::new(folder(), ImageSteps::stretch(), schedule(n, n)).unwrap();
    let err = s.next_owned().unwrap().err().unwrap();
    assert!(
        err.to_string().contains("dog") && err.to_string().contains("label 2"),
        "{err}"
    );
}

#[test]
fn grey_fields_take_the_luma_of_colour_images() {
    let f = folder();
    let n = f.len();
    let mut s = ImageStream::<Grey>::new(f, ImageSteps::center_crop(), schedule(n, n)).unwrap();
    let b = all(&mut s).remove(0);
    assert_eq!(b.image.shape(), [n, 8, 8, 1]);
}

#[test]
fn recordio_written_by_im2rec_reads_back() {
    let expected = json("rec.json");
    let files = expected["files"].as_object().unwrap();
    for (name, file) in files {
        let rec = RecordIo::open(data().join("rec").join(name)).unwrap();
        let records = file["records"].as_array().unwrap();
        assert_eq!(rec.len(), records.len(), "{name}");
        let keys: Vec<u64> = rec.keys().collect();
        let mut bytes = Vec::new();
        let mut labels = Vec::new();
        for (i, r) in records.iter().enumerate() {
            assert_eq!(keys[i], r["key"].as_u64().unwrap(), "{name} record {i}");
            rec.read_labels(i, "label", &mut labels).unwrap();
            let want: Vec<f64> = match r["labels"].as_array() {
                Some(l) => l.iter().map(|v| v.as_f64().unwrap()).collect(),
                None => vec![r["label"].as_f64().unwrap()],
            };
            assert_eq!(labels, want, "{name} record {i}");
            rec.read_image(i, "image", u64::MAX, &mut bytes).unwrap();
            assert_eq!(
                bytes.len() as u64,
                r["image_len"].as_u64().unwrap(),
                "{name} record {i}"
            );
            let source = r["source"].as_str().or(r["derived_from"].as_str()).unwrap();
            let original = std::fs::read(data().join("folder").join(source)).unwrap();
            if r["source"].is_string() {
                assert_eq!(
                    bytes, original,
                    "{name} record {i}: the file, passed through"
                );
            } else {
                // A record split where its image holds the magic (a comment segment the
                // fixture added): joined again, the image is the same pixels.
                let (a, b) = (
                    decode_image(&bytes, 3, 1 << 20).unwrap(),
                    decode_image(&original, 3, 1 << 20).unwrap(),
                );
                assert_eq!(a, b, "{name} record {i}");
            }
        }
    }
}

#[test]
fn webdataset_shards_read_back_as_webdataset_reads_them() {
    let expected = json("wds.json");
    for (name, shard) in expected["shards"].as_object().unwrap() {
        let wds = WebDataset::from_paths([data().join("wds").join(name)]).unwrap();
        let samples = shard["samples"].as_array().unwrap();
        let keys: Vec<&str> = wds.keys().collect();
        let want: Vec<&str> = samples.iter().map(|s| s["key"].as_str().unwrap()).collect();
        assert_eq!(keys, want, "{name}");
        if name == "dotted.tar" {
            // Members with dots in their extension are sources by the whole of it.
            let mut mask = Vec::new();
            wds.read_image(0, "seg.png", u64::MAX, &mut mask).unwrap();
            assert_eq!(decode_image(&mask, 1, 1 << 20).unwrap().width, 48);
        }
        let mut bytes = Vec::new();
        let mut labels = Vec::new();
        for (i, s) in samples.iter().enumerate() {
            // The members as webdataset reads them (`a/d.v2.cls` is member `v2.cls` of `a/d`).
            let ext = |end: &str| -> &'static str {
                let m = s["members"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|m| m["ext_as_read"].as_str().unwrap().ends_with(end))
                    .unwrap();
                Box::leak(
                    m["ext_as_read"]
                        .as_str()
                        .unwrap()
                        .to_owned()
                        .into_boxed_str(),
                )
            };
            wds.read_labels(i, ext("cls"), &mut labels).unwrap();
            assert_eq!(labels, [s["cls"].as_f64().unwrap()], "{name} {i}");
            wds.read_image(i, "image", u64::MAX, &mut bytes).unwrap();
            let original =
                std::fs::read(data().join("folder").join(s["source"].as_str().unwrap())).unwrap();
            assert_eq!(bytes, original, "{name} {i}");
        }
    }
    let all = WebDataset::open(format!(
        "{}/shard-{{000000..000002}}.tar",
        data().join("wds").display()
    ))
    .unwrap();
    assert_eq!(all.len(), folder().len());
}

#[test]
fn a_stream_reads_webdataset_and_recordio_into_the_same_batches_as_the_folder() {
    // im2rec gives the nested folder `cat/indoor` a class of its own (and `dog` becomes 3):
    // the images are compared, the labels by rec.json above.
    #[derive(DataSpec)]
    struct Small {
        #[spec(source = "image")]
        image: Batch<image![16, 16, 3; BCHW, f32]>,
    }
    let flat = |batches: &[Small]| -> Vec<Vec<u32>> {
        batches
            .iter()
            .flat_map(|b| {
                b.image
                    .array()
                    .iter()
                    .map(|v| v.to_bits())
                    .collect::<Vec<_>>()
                    .chunks(768)
                    .map(<[u32]>::to_vec)
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let n = folder().len();
    let steps = ImageSteps::resize_shorter(20)
        .random_crop()
        .flip_h(0.5)
        .scale(1.0 / 255.0);
    let sched = || {
        Schedule::builder(n)
            .batch_size(4)
            .shuffle(true)
            .seed(9)
            .build()
            .unwrap()
    };
    let from_folder = flat(&all(&mut ImageStream::<Small>::new(
        folder(),
        steps.clone(),
        sched(),
    )
    .unwrap()));
    let wds = WebDataset::open(format!(
        "{}/shard-{{000000..000002}}.tar",
        data().join("wds").display()
    ))
    .unwrap();
    let from_wds = flat(&all(&mut ImageStream::<Small>::new(
        wds,
        steps.clone(),
        sched(),
    )
    .unwrap()));
    assert_eq!(from_wds, from_folder);
    let rec = RecordIo::open(data().join("rec/folder.rec")).unwrap();
    let from_rec = flat(&all(
        &mut ImageStream::<Small>::new(rec, steps, sched()).unwrap()
    ));
    assert_eq!(from_rec, from_folder);
}

#[test]
fn a_multi_label_record_fills_a_vector_field() {
    #[derive(DataSpec)]
    struct Multi {
        #[spec(source = "image")]
        image: Batch<image![8, 8, 3; BCHW, f32]>,
        #[spec(source = "label")]
        labels: Batch<Vector<3>>,
    }
    let rec = RecordIo::open(data().join("rec/multi.rec")).unwrap();
    let n = rec.len();
    let expected = json("rec.json");
    let want: Vec<f32> = expected["files"]["multi.rec"]["records"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| {
            r["labels"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap() as f32)
                .collect::<Vec<_>>()
        })
        .collect();
    let mut s = ImageStream::<Multi>::new(rec, ImageSteps::stretch(), schedule(n, n)).unwrap();
    let b = all(&mut s).remove(0);
    assert_eq!(b.labels.array().iter().copied().collect::<Vec<_>>(), want);
}

/// Files from strangers: an image header claiming 60000×60000 pixels, a truncated JPEG, a
/// record claiming more bytes than its file, a tar member past its shard's end: each an error
/// naming the file, nothing allocated for the claim.
#[test]
fn lying_files_are_errors_naming_them() {
    let dir = std::env::temp_dir().join(format!("batchspec-hostile-images-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for class in ["a", "b"] {
        std::fs::create_dir_all(dir.join(class)).unwrap();
    }
    let good = std::fs::read(data().join("folder/bird/b01.jpg")).unwrap();
    std::fs::write(dir.join("a/good.jpg"), &good).unwrap();
    // A JPEG whose frame header claims 60000×60000.
    let mut huge = good.clone();
    let sof = huge
        .windows(2)
        .position(|w| w == [0xff, 0xc0] || w == [0xff, 0xc2])
        .unwrap();
    huge[sof + 5..sof + 9].copy_from_slice(&[0xea, 0x60, 0xea, 0x60]);
    std::fs::write(dir.join("b/huge.jpg"), &huge).unwrap();
    let images = ImageFolder::open(&dir).unwrap();
    let mut s = ImageStream::<Pixels>::new(images, ImageSteps::stretch(), schedule(2, 1)).unwrap();
    assert!(s.next_owned().unwrap().is_ok());
    let err = s.next_owned().unwrap().err().unwrap().to_string();
    assert!(
        err.contains("huge.jpg") && err.contains("60000×60000"),
        "{err}"
    );

    // Truncated.
    std::fs::write(dir.join("b/huge.jpg"), &good[..good.len() / 3]).unwrap();
    let images = ImageFolder::open(&dir).unwrap();
    let mut s = ImageStream::<Pixels>::new(images, ImageSteps::stretch(), schedule(2, 2)).unwrap();
    match s.next_owned().unwrap() {
        Err(DataError::Read(e)) => assert!(e.to_string().contains("huge.jpg"), "{e}"),
        Err(e) => panic!("{e}"),
        // A decoder may fill what is missing of a truncated scan (libjpeg does, with grey).
        Ok(_) => {}
    }

    // A record whose length runs past the end of its file.
    let mut rec = std::fs::read(data().join("rec/folder.rec")).unwrap();
    rec[4..8].copy_from_slice(&((1u32 << 29) - 1).to_le_bytes());
    std::fs::write(dir.join("lying.rec"), &rec).unwrap();
    std::fs::copy(data().join("rec/folder.idx"), dir.join("lying.idx")).unwrap();
    let lying = RecordIo::open(dir.join("lying.rec")).unwrap();
    let err = lying
        .read_image(0, "image", u64::MAX, &mut Vec::new())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("lying.rec byte 0") && err.contains("past the end"),
        "{err}"
    );

    // A tar member whose size runs past the end of the shard.
    let mut tar = std::fs::read(data().join("wds/shard-000000.tar")).unwrap();
    let len = tar.len();
    tar.truncate(len / 2);
    std::fs::write(dir.join("cut.tar"), &tar).unwrap();
    let err = WebDataset::from_paths([dir.join("cut.tar")]).map(|w| w.len());
    if let Err(e) = err {
        assert!(e.to_string().contains("cut.tar"), "{e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Mutated images and records are decoded or refused, never a panic or an abort.
    #[test]
    fn mutated_files_are_refused_or_read(flips in proptest::collection::vec((0usize..4000, any::<u8>()), 1..12), which in 0usize..4) {
        let names = ["folder/bird/b01.jpg", "folder/dog/d03_rgb.png", "folder/cat/c03_rgba.png", "folder/bird/b04_grey.png"];
        let mut bytes = std::fs::read(data().join(names[which])).unwrap();
        for (at, v) in flips {
            if !bytes.is_empty() {
                let i = at % bytes.len();
                bytes[i] = v;
            }
        }
        let _ = decode_image(&bytes, 3, 1 << 20);
        let _ = decode_image(&bytes, 1, 1 << 20);
    }
}

/// MXNet's HLS jitter against OpenCV's own conversion and clamping, on a real photo's pixels.
#[test]
fn hls_shifts_match_opencvs() {
    let rgb = npy("decoded/cat__c01.jpg.npy");
    let expected = npy("decoded/hls_shifts.npy");
    let shifts = json("hls_shifts.json")["shifts"]
        .as_array()
        .unwrap()
        .clone();
    for (k, shift) in shifts.iter().enumerate() {
        let shift: Vec<i32> = shift
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap() as i32)
            .collect();
        let mut ours: Vec<u8> = rgb.iter().copied().collect();
        for px in ours.chunks_exact_mut(3) {
            batchspec::load::images::hls_shift(px, [shift[0], shift[1], shift[2]]);
        }
        let theirs = expected.index_axis(ndarray::Axis(0), k);
        let max = ours
            .iter()
            .zip(theirs.iter())
            .map(|(&a, &b)| (i32::from(a) - i32::from(b)).abs())
            .max()
            .unwrap();
        assert_eq!(max, 0, "shift {shift:?}: max difference {max}");
    }
}

/// The affine path with nothing drawn is the crop it replaces; a fixed scale of ½ puts the
/// shrunk image in the middle of the field and the fill value around it.
#[test]
fn an_affine_warp_composes_with_the_crop() {
    #[derive(DataSpec)]
    struct Crop {
        #[spec(source = "image")]
        image: Batch<image![16, 16, 3; BHWC, u8]>,
    }
    let n = folder().len();
    let run = |steps: ImageSteps, workers: usize| {
        let mut s = ImageStream::<Crop>::new(folder(), steps, schedule(n, n))
            .unwrap()
            .workers(workers);
        all(&mut s).remove(0).image.array().to_owned()
    };
    let plain = run(ImageSteps::center_crop(), 1);
    let identity = run(ImageSteps::center_crop().img_size(0.0, 1e9), 1);
    assert_eq!(identity, plain);

    let half = run(
        ImageSteps::resize_shorter(20)
            .random_scale(0.5, 0.5)
            .fill(77),
        1,
    );
    for i in 0..n {
        // The warped image is 10 pixels on its shorter side: the field's corners are fill.
        for (y, x) in [(0, 0), (0, 15), (15, 0), (15, 15)] {
            assert_eq!(half[[i, y, x, 0]], 77, "sample {i}");
        }
    }
    // Rotation, shear and aspect drawn per sample: the same at any number of workers.
    let steps = ImageSteps::resize_shorter(24)
        .random_crop()
        .random_rotate(30)
        .random_shear(0.2)
        .random_aspect(0.25)
        .random_scale(0.8, 1.2)
        .fill(128);
    assert_eq!(run(steps.clone(), 1), run(steps.clone(), 3));
    assert_ne!(
        run(steps, 1),
        run(ImageSteps::resize_shorter(24).random_crop(), 1)
    );
    // The warp is for the shorter-side geometry only, said in words.
    let err = ImageStream::<Crop>::new(
        folder(),
        ImageSteps::stretch().random_rotate(10),
        schedule(n, n),
    )
    .err()
    .unwrap();
    assert!(err.to_string().contains("resize_shorter"), "{err}");
}

/// MXNet's affine warp (its matrix, the new size, bilinear sampling, the fill outside) against
/// OpenCV's `warpAffine` with the same matrix: OpenCV interpolates in fixed point (1/32 pixel,
/// weights of 1/1024), so values differ by a little: the identity exactly, the others by 0.2-0.3
/// on average and at most 4 (measured).
#[test]
fn the_affine_warp_matches_opencvs() {
    let kitten = npy("decoded/cat__kitten.jpg.npy");
    let (h, w) = (kitten.shape()[0], kitten.shape()[1]);
    let src = batchspec::load::images::Pixels {
        width: w,
        height: h,
        channels: 3,
        data: kitten.iter().copied().collect(),
    };
    let warps = json("warps.json")["warps"].as_array().unwrap().clone();
    for (k, p) in warps.iter().enumerate() {
        let p: Vec<f64> = p
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let ours = batchspec::load::images::mxnet_warp(
            &src,
            [p[0], p[1], p[2], p[3]],
            (p[4], p[5]),
            p[6] as u8,
        );
        let theirs = npy(&format!("decoded/warp_{k}.npy"));
        assert_eq!(
            [ours.height, ours.width],
            [theirs.shape()[0], theirs.shape()[1]],
            "warp {k}"
        );
        let diffs: Vec<i32> = ours
            .data
            .iter()
            .zip(theirs.iter())
            .map(|(&a, &b)| (i32::from(a) - i32::from(b)).abs())
            .collect();
        let max = diffs.iter().max().copied().unwrap();
        let mean = diffs.iter().sum::<i32>() as f64 / diffs.len() as f64;
        assert!(max <= 4 && mean < 0.3, "warp {k}: mean {mean}, max {max}");
    }
}

fn shard_pattern() -> String {
    format!(
        "{}/shard-{{000000..000002}}.tar",
        data().join("wds").display()
    )
}

fn shard_stream(
    world: usize,
    rank: usize,
    buffer: usize,
    seed: Option<u64>,
    workers: usize,
) -> ShardStream<Small> {
    let steps = ImageSteps::random_resized_crop((0.3, 1.0), (0.75, 1.33))
        .flip_h(0.5)
        .scale(1.0 / 255.0);
    ShardStream::<Small>::open(&shard_pattern(), steps, 4, Shard::new(rank, world).unwrap())
        .unwrap()
        .shuffle(seed)
        .buffer(buffer)
        .workers(workers)
}

#[test]
fn a_shard_stream_in_order_serves_the_shards_samples_in_order() {
    let expected = json("wds.json");
    let labels: Vec<i64> = ["shard-000000.tar", "shard-000001.tar", "shard-000002.tar"]
        .iter()
        .flat_map(|s| {
            expected["shards"][s]["samples"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x["cls"].as_i64().unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    let mut s = shard_stream(1, 0, 1, None, 1);
    let served: Vec<i64> = all(&mut s)
        .iter()
        .flat_map(|b| b.label.array().iter().copied().collect::<Vec<_>>())
        .collect();
    assert_eq!(served, labels);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Whole shards to each rank, every sample once an epoch across the ranks, whatever the
    /// buffer and the seed; the same batches at any number of workers.
    #[test]
    fn shards_serve_every_sample_once_across_ranks(world in 1usize..5, buffer in 1usize..9, seed in 0u64..100, epoch in 0u64..3, workers in 2usize..4) {
        #[derive(DataSpec)]
        struct Crop {
            #[spec(source = "image")]
            image: Batch<image![12, 12, 3; BHWC, u8]>,
        }
        let contents = |s: &mut ShardStream<Crop>| -> Vec<Vec<u8>> {
            std::iter::from_fn(|| s.next_owned())
                .flat_map(|b| {
                    let (b, info) = b.unwrap();
                    let a = b.image.array().to_owned();
                    (0..info.count_samples).map(move |i| a.index_axis(ndarray::Axis(0), i).iter().copied().collect::<Vec<u8>>())
                })
                .collect()
        };
        let mut folder_stream = ImageStream::<Crop>::new(folder(), ImageSteps::center_crop(), schedule(folder().len(), 4)).unwrap();
        let mut every: Vec<Vec<u8>> = std::iter::from_fn(|| folder_stream.next_owned())
            .flat_map(|b| {
                let (b, info) = b.unwrap();
                let a = b.image.array().to_owned();
                (0..info.count_samples).map(move |i| a.index_axis(ndarray::Axis(0), i).iter().copied().collect::<Vec<u8>>())
            })
            .collect();
        let mut ranks = Vec::new();
        for rank in 0..world {
            let mut s = ShardStream::<Crop>::open(&shard_pattern(), ImageSteps::center_crop(), 3, Shard::new(rank, world).unwrap())
                .unwrap()
                .shuffle(Some(seed))
                .buffer(buffer);
            s.start_epoch(epoch);
            ranks.extend(contents(&mut s));
        }
        every.sort();
        ranks.sort();
        prop_assert_eq!(ranks, every);

        let mut one = shard_stream(world, 0, buffer, Some(seed), 1);
        let mut many = shard_stream(world, 0, buffer, Some(seed), workers);
        one.start_epoch(epoch);
        many.start_epoch(epoch);
        prop_assert_eq!(flat(&all(&mut one)), flat(&all(&mut many)));
    }

    /// A shard stream's state resumes it where it was taken.
    #[test]
    fn a_shard_stream_resumes_where_it_was_taken(buffer in 1usize..9, seed in 0u64..100, at in 0usize..5) {
        let mut run = shard_stream(1, 0, buffer, Some(seed), 1);
        for _ in 0..at {
            if run.next_owned().is_none() {
                break;
            }
        }
        let state = run.state();
        let rest = flat(&all(&mut run));
        let mut resumed = shard_stream(1, 0, buffer, Some(seed), 2);
        resumed.resume(&state).unwrap();
        prop_assert_eq!(flat(&all(&mut resumed)), rest);
    }
}

/// WebP through the `image` crate's decoder: a lossless file is its source's pixels, a lossy
/// one libwebp's decode (Pillow's, within the decoders' rounding).
#[test]
fn webp_decodes_as_libwebp_does() {
    for (name, tolerance) in [("kitten_lossless", 0), ("kitten_lossy", 3)] {
        let bytes = std::fs::read(data().join(format!("webp/{name}.webp"))).unwrap();
        let ours = decode_image(&bytes, 3, 1 << 20).unwrap();
        let pillow = npy(&format!("decoded/{name}.webp.npy"));
        assert_eq!([ours.height, ours.width, 3], pillow.shape(), "{name}");
        let max = ours
            .data
            .iter()
            .zip(pillow.iter())
            .map(|(&a, &b)| (i32::from(a) - i32::from(b)).abs())
            .max()
            .unwrap();
        assert!(max <= tolerance, "{name}: max difference {max}");
    }
}

/// CRC-32 as zlib computes it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 == 1 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// NVIDIA DALI's own readers (`fn.readers.mxnet`, `fn.readers.webdataset`) read the same
/// images and labels from the same files (`make_dali_crosscheck.py`), and its decoder the same
/// pixels within the decoders' differences.
#[test]
fn dalis_readers_read_what_ours_read() {
    let dali = json("dali.json");
    for (name, samples) in dali["recordio"].as_object().unwrap() {
        let rec = RecordIo::open(data().join("rec").join(name)).unwrap();
        let (mut bytes, mut labels) = (Vec::new(), Vec::new());
        for (i, s) in samples.as_array().unwrap().iter().enumerate() {
            rec.read_image(i, "image", u64::MAX, &mut bytes).unwrap();
            rec.read_labels(i, "label", &mut labels).unwrap();
            assert_eq!(bytes.len() as u64, s["len"].as_u64().unwrap(), "{name} {i}");
            assert_eq!(
                u64::from(crc32(&bytes)),
                s["crc32"].as_u64().unwrap(),
                "{name} {i}"
            );
            let want: Vec<f64> = s["labels"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            assert_eq!(labels, want, "{name} {i}");
            if i == 0 {
                let ours = decode_image(&bytes, 3, 1 << 20).unwrap();
                let theirs = npy(&format!("decoded/dali_{name}_0.npy"));
                let max = ours
                    .data
                    .iter()
                    .zip(theirs.iter())
                    .map(|(&a, &b)| (i32::from(a) - i32::from(b)).abs())
                    .max()
                    .unwrap();
                assert!(max <= 12, "{name}: DALI's decode differs by {max}");
            }
        }
    }
    let wds = WebDataset::open(shard_pattern()).unwrap();
    let samples = dali["webdataset"]["shard-{000000..000002}.tar"]
        .as_array()
        .unwrap();
    assert_eq!(wds.len(), samples.len());
    let (mut bytes, mut labels) = (Vec::new(), Vec::new());
    for (i, s) in samples.iter().enumerate() {
        wds.read_image(i, "image", u64::MAX, &mut bytes).unwrap();
        wds.read_labels(i, "cls", &mut labels).unwrap();
        assert_eq!(
            (bytes.len() as u64, u64::from(crc32(&bytes))),
            (s["len"].as_u64().unwrap(), s["crc32"].as_u64().unwrap()),
            "{i}"
        );
        assert_eq!(
            labels,
            [s["cls"].as_str().unwrap().parse::<f64>().unwrap()],
            "{i}"
        );
    }
}

/// MXNet's image list as im2rec wrote it (`folder.lst`), read with its root as `ImageIter`
/// reads it, serves the same images and labels as the pack im2rec made from it; a list with
/// several labels a line gives a pack its labels (`path_imglist`).
#[test]
fn image_lists_read_as_mxnet_reads_them() {
    use batchspec::load::images::ImageList;
    let list = ImageList::open(data().join("rec/folder.lst"), data().join("folder")).unwrap();
    let rec = RecordIo::open(data().join("rec/folder.rec")).unwrap();
    assert_eq!(
        list.indices().collect::<Vec<_>>(),
        rec.keys().collect::<Vec<_>>()
    );
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let (mut la, mut lb) = (Vec::new(), Vec::new());
    for i in 0..list.len() {
        list.read_image(i, "image", u64::MAX, &mut a).unwrap();
        rec.read_image(i, "image", u64::MAX, &mut b).unwrap();
        assert_eq!(a, b, "{i}");
        list.read_labels(i, "label", &mut la).unwrap();
        rec.read_labels(i, "label", &mut lb).unwrap();
        assert_eq!(la, lb, "{i}");
    }

    let dir = std::env::temp_dir().join(format!("batchspec-lists-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lst = dir.join("multi.lst");
    let lines: String = rec
        .keys()
        .map(|k| format!("{k}\t{}\t0.5\t{}\tx.jpg\n", k % 3, k as f64 / 4.0))
        .collect();
    std::fs::write(&lst, lines).unwrap();
    #[derive(DataSpec)]
    struct Multi {
        #[spec(source = "label")]
        labels: Batch<Vector<3>>,
    }
    let n = rec.len();
    let relabelled = rec.with_list(&lst).unwrap();
    let mut s =
        ImageStream::<Multi>::new(relabelled, ImageSteps::stretch(), schedule(n, n)).unwrap();
    let got: Vec<f32> = all(&mut s)
        .remove(0)
        .labels
        .array()
        .iter()
        .copied()
        .collect();
    let want: Vec<f32> = (0..n as u64)
        .flat_map(|k| [(k % 3) as f32, 0.5, k as f32 / 4.0])
        .collect();
    assert_eq!(got, want);
    // A list without a line for every record is refused, naming the record.
    std::fs::write(&lst, "0\t1\tx.jpg\n").unwrap();
    let err = RecordIo::open(data().join("rec/folder.rec"))
        .unwrap()
        .with_list(&lst)
        .unwrap_err()
        .to_string();
    assert!(err.contains("no line for record 1"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A model that asks for one-hot labels and another layout gets them from an image stream of
/// the record, converted in one pass.
#[test]
fn an_image_stream_serves_other_requests() {
    #[derive(DataSpec)]
    struct Model {
        #[spec(source = "image")]
        image: Batch<image![16, 16, 3; BHWC, f32]>,
        #[spec(source = "label")]
        label: Batch<OneHot<3>>,
    }
    let f = folder();
    let n = f.len();
    let classes: Vec<usize> = f.files().map(|(_, c)| c).collect();
    let record =
        all(
            &mut ImageStream::<Small>::new(folder(), ImageSteps::stretch(), schedule(n, n))
                .unwrap(),
        )
        .remove(0);
    let stream = ImageStream::<Small>::new(f, ImageSteps::stretch(), schedule(n, n)).unwrap();
    let mut model = stream.into_request::<Model>();
    let batch = all(&mut model).remove(0);
    for (i, &c) in classes.iter().enumerate() {
        let row: Vec<f32> = batch.label.array().row(i).to_vec();
        assert_eq!(
            row,
            (0..3)
                .map(|k| f32::from(u8::from(k == c)))
                .collect::<Vec<_>>()
        );
    }
    assert_eq!(
        batch.image.array().view().permuted_axes([0, 3, 1, 2]),
        record.image.array().view()
    );
}

/// A collection whose read panics on one sample: that sample's batch is an error saying so, at
/// any number of workers, and the stream goes on with the next batch.
#[test]
fn a_panic_in_a_worker_is_an_error_at_its_batch() {
    use batchspec::load::Place;
    use batchspec::load::images::SourceKind;
    struct Fragile(ImageFolder);
    impl EncodedImages for Fragile {
        fn len(&self) -> usize {
            self.0.len()
        }
        fn kind(&self, source: &str) -> Option<SourceKind> {
            self.0.kind(source)
        }
        fn sources(&self) -> Vec<String> {
            EncodedImages::sources(&self.0)
        }
        fn read_image(
            &self,
            i: usize,
            source: &'static str,
            limit: u64,
            out: &mut Vec<u8>,
        ) -> Result<(), LoadError> {
            assert!(i != 5, "the storage broke on sample 5");
            self.0.read_image(i, source, limit, out)
        }
        fn read_labels(
            &self,
            i: usize,
            source: &'static str,
            out: &mut Vec<f64>,
        ) -> Result<(), LoadError> {
            self.0.read_labels(i, source, out)
        }
        fn place(&self, i: usize) -> (PathBuf, Place) {
            self.0.place(i)
        }
        fn fingerprint(&self) -> u64 {
            self.0.fingerprint()
        }
    }
    for workers in [1, 3] {
        let n = folder().len();
        let mut s =
            ImageStream::<Small>::new(Fragile(folder()), ImageSteps::stretch(), schedule(n, 4))
                .unwrap()
                .workers(workers);
        let outcomes: Vec<Result<usize, String>> = std::iter::from_fn(|| s.next_owned())
            .map(|b| {
                b.map(|(_, info)| info.count_samples)
                    .map_err(|e| e.to_string())
            })
            .collect();
        assert_eq!(outcomes.len(), 4, "{outcomes:?}");
        assert!(
            outcomes[0].is_ok() && outcomes[2].is_ok() && outcomes[3].is_ok(),
            "{outcomes:?}"
        );
        let err = outcomes[1].as_ref().unwrap_err();
        assert!(
            err.contains("panicked") && err.contains("sample 5") && err.contains("cat"),
            "{err}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// An image stream's and a shard stream's saved state with a damaged position (epoch,
    /// batches or samples edited, up to `u64::MAX`) resumes or is refused in words, promptly;
    /// never a panic or a hang.
    #[test]
    fn a_damaged_position_resumes_or_is_refused(
        seed in 0u64..100, batch in 1usize..6, at in 0usize..5,
        edits in [position(), position(), position()],
    ) {
        let t = std::time::Instant::now();
        let mut run = stream_of(1, batch, seed, (0, 1));
        for _ in 0..at {
            let _ = run.next_owned();
        }
        let state = edited(&run.state(), edits);
        let mut resumed = stream_of(1, batch, seed, (0, 1));
        if resumed.resume(&state).is_ok() {
            let served = std::iter::from_fn(|| resumed.next_owned()).take(1000).count();
            prop_assert!(served < 1000, "served {served} batches");
        }
        let mut run = shard_stream(1, 0, batch, Some(seed), 1);
        for _ in 0..at {
            let _ = run.next_owned();
        }
        let state = edited(&run.state(), edits);
        let mut resumed = shard_stream(1, 0, batch, Some(seed), 1);
        if resumed.resume(&state).is_ok() {
            let served = std::iter::from_fn(|| resumed.next_owned()).take(1000).count();
            prop_assert!(served < 1000, "served {served} batches");
        }
        prop_assert!(t.elapsed().as_secs() < 10, "took {:?}", t.elapsed());
    }
}
