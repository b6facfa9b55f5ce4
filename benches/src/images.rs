//! The image path, end to end: 256 JPEG files (random crops of scikit-learn's two bundled
//! photos, 200–427 pixels a side, written by Pillow at quality 90 by `images_python.py make`)
//! decoded, random-resized-cropped to 224×224 (torchvision's parameters), flipped with
//! probability 0.5, scaled and normalized with ImageNet's mean and std into `bchw f32` batches of
//! 32, at 1 and 2 workers, beside the same pipeline in Python in the same run: Pillow + NumPy in
//! one process, the same in a `multiprocessing.Pool`, and NVIDIA DALI's CPU pipeline when it is
//! installed (`BATCHSPEC_BENCH_DALI=1` installs it: about 1 GB). Also the decoders alone: the
//! `image` crate's JPEG decoder against `zune-jpeg` called directly (what the stream uses).
//!
//! The venv is made at target/tools/images-bench (pillow, numpy). `BENCH_QUICK=1`: one epoch.
//! Lines: `case=images how=.. workers=.. images_per_s=.. ratio_..=..`.

use batchspec::data::BatchSource;
use batchspec::iteration::Schedule;
use batchspec::load::images::{EncodedImages, ImageSteps, ImageStream, SourceKind, decode_image};
use batchspec::load::{LoadError, Place};
use batchspec::prelude::*;
use batchspec_bench::median;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const FILES: usize = 256;
const BATCH: usize = 32;

#[derive(DataSpec)]
struct Input {
    #[spec(source = "image")]
    image: Batch<image![224, 224, 3; BCHW, f32]>,
}

/// The files, held in memory: the collection a user writes for storage of their own (here, so
/// that neither side reads the disk in the timed loop; Python reads the files from the page
/// cache).
struct Files(Vec<(PathBuf, Vec<u8>)>);

impl EncodedImages for Files {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn kind(&self, source: &str) -> Option<SourceKind> {
        (source == "image").then_some(SourceKind::Image)
    }
    fn sources(&self) -> Vec<String> {
        vec!["image".into()]
    }
    fn read_image(
        &self,
        i: usize,
        _: &'static str,
        _: u64,
        out: &mut Vec<u8>,
    ) -> Result<(), LoadError> {
        out.clear();
        out.extend_from_slice(&self.0[i].1);
        Ok(())
    }
    fn read_labels(&self, _: usize, _: &'static str, out: &mut Vec<f64>) -> Result<(), LoadError> {
        out.clear();
        Ok(())
    }
    fn place(&self, i: usize) -> (PathBuf, Place) {
        (self.0[i].0.clone(), Place::File)
    }
    fn fingerprint(&self) -> u64 {
        self.0.len() as u64
    }
}

fn steps() -> ImageSteps {
    ImageSteps::random_resized_crop((0.08, 1.0), (3.0 / 4.0, 4.0 / 3.0))
        .flip_h(0.5)
        .scale(1.0 / 255.0)
        .normalize(&[0.485, 0.456, 0.406], &[0.229, 0.224, 0.225])
}

/// Images per second of `epochs` epochs at `workers` workers, after a warm-up batch.
fn rust(files: &[(PathBuf, Vec<u8>)], workers: usize, epochs: u64) -> f64 {
    let schedule = Schedule::builder(files.len())
        .batch_size(BATCH)
        .shuffle(true)
        .seed(1)
        .build()
        .unwrap();
    let mut stream = ImageStream::<Input>::new(Files(files.to_vec()), steps(), schedule)
        .unwrap()
        .workers(workers);
    stream.start_epoch(100);
    let _ = stream.next_batch().unwrap().unwrap();
    let t = Instant::now();
    let mut images = 0;
    for e in 0..epochs {
        stream.start_epoch(e);
        while let Some(b) = stream.next_batch() {
            let (b, info) = b.unwrap();
            assert_eq!(b.image.shape()[1..], [3, 224, 224]);
            images += info.count_samples;
        }
    }
    images as f64 / t.elapsed().as_secs_f64()
}

/// The venv of the Python baselines, made if missing; `None` when it cannot be.
fn venv(root: &Path, script: &Path) -> Option<PathBuf> {
    let venv = root.join("target/tools/images-bench");
    let python = venv.join("bin/python");
    let has = |module: &str| {
        Command::new(&python)
            .args(["-c", &format!("import {module}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !has("PIL") || !has("numpy") {
        Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .ok()?;
        let req = Command::new("python3")
            .arg(script)
            .args(["--requirements", "core"])
            .output()
            .ok()?;
        let req = String::from_utf8_lossy(&req.stdout).into_owned();
        let mut pip = Command::new(venv.join("bin/pip"));
        pip.args(["install", "-q", "--disable-pip-version-check"])
            .args(req.split_whitespace());
        if !pip.status().ok()?.success() {
            return None;
        }
    }
    if std::env::var_os("BATCHSPEC_BENCH_DALI").is_some() && !has("nvidia.dali") {
        let _ = Command::new(venv.join("bin/pip"))
            .args([
                "install",
                "-q",
                "--disable-pip-version-check",
                "nvidia-dali-cuda120",
            ])
            .status();
    }
    Some(python)
}

/// A Python pipeline's images per second (`None`: skipped or failed, with the reason printed).
fn python(
    python: &Path,
    script: &Path,
    dir: &Path,
    pipeline: &str,
    workers: usize,
    epochs: u64,
) -> Option<f64> {
    let out = Command::new(python)
        .arg(script)
        .args(["run"])
        .arg(dir)
        .args([
            "--batch",
            &BATCH.to_string(),
            "--size",
            "224",
            "--epochs",
            &epochs.to_string(),
        ])
        .args(["--workers", &workers.to_string(), "--pipeline", pipeline])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last().unwrap_or_default();
    let field = |name: &str| {
        line.split(&format!("\"{name}\": ")).nth(1).map(|r| {
            r.split([',', '}'])
                .next()
                .unwrap_or_default()
                .trim()
                .to_owned()
        })
    };
    match field("images_per_s").and_then(|v| v.parse::<f64>().ok()) {
        Some(v) => Some(v),
        None => {
            batchspec_bench::out!(
                "# {pipeline} at {workers}: skipped ({}{})",
                line,
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .last()
                    .unwrap_or_default()
            );
            None
        }
    }
}

fn main() {
    batchspec_bench::record::start("images", std::env::var_os("BENCH_QUICK").is_some());
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let (epochs, reps) = if quick { (1, 1) } else { (2, 3) };
    batchspec_bench::out!(
        "# images: {FILES} JPEGs → random-resized crop 224×224, flip, normalize → bchw f32, batch {BATCH}"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let script = root.join("benches/src/images_python.py");
    let Some(py) = venv(&root, &script) else {
        batchspec_bench::out!("# the Python venv cannot be made: no baseline, no files");
        return;
    };
    let dir = root.join("target/tmp/images-bench/jpegs");
    if std::fs::read_dir(&dir).map_or(0, |d| d.count()) != FILES {
        let _ = std::fs::remove_dir_all(&dir);
        let ok = Command::new(&py)
            .arg(&script)
            .arg("make")
            .arg(&dir)
            .args([&FILES.to_string(), "0"])
            .status();
        assert!(
            ok.is_ok_and(|s| s.success()),
            "images_python.py make failed"
        );
    }
    let mut files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    files.sort();

    // The decoders alone, one thread.
    let t = Instant::now();
    for (_, bytes) in &files {
        std::hint::black_box(decode_image(bytes, 3, 1 << 26).unwrap());
    }
    let zune = files.len() as f64 / t.elapsed().as_secs_f64();
    let t = Instant::now();
    for (_, bytes) in &files {
        std::hint::black_box(
            image::load_from_memory_with_format(bytes, image::ImageFormat::Jpeg)
                .unwrap()
                .to_rgb8(),
        );
    }
    let image_crate = files.len() as f64 / t.elapsed().as_secs_f64();
    batchspec_bench::out!(
        "case=decode how=zune-jpeg images_per_s={zune:.0} ratio_image_crate={:.2}\ncase=decode how=image-crate images_per_s={image_crate:.0}",
        zune / image_crate
    );

    let mut ours = Vec::new();
    let mut pillow = Vec::new();
    let mut pool = [Vec::new(), Vec::new()];
    let mut dali = [Vec::new(), Vec::new()];
    // Interleaved rounds: each round runs every pipeline once, so a neighbour's load falls on all.
    for _ in 0..reps {
        ours.push([rust(&files, 1, epochs), rust(&files, 2, epochs)]);
        pillow.extend(python(&py, &script, &dir, "pillow", 1, epochs));
        for w in 1..=2 {
            pool[w - 1].extend(python(&py, &script, &dir, "pool", w, epochs));
            dali[w - 1].extend(python(&py, &script, &dir, "dali", w, epochs));
        }
    }
    let one = median(ours.iter().map(|r| r[0]).collect());
    let two = median(ours.iter().map(|r| r[1]).collect());
    let pil = (!pillow.is_empty()).then(|| median(pillow));
    let ratio =
        |x: f64, base: Option<f64>| base.map_or("n/a".to_owned(), |b| format!("{:.2}", x / b));
    let base = |v: &[f64]| (!v.is_empty()).then(|| median(v.to_vec()));
    let (pool1, pool2, dali1, dali2) = (
        base(&pool[0]),
        base(&pool[1]),
        base(&dali[0]),
        base(&dali[1]),
    );
    batchspec_bench::out!(
        "case=images how=batchspec workers=1 images_per_s={one:.0} ratio_pillow={} ratio_dali_1={}",
        ratio(one, pil),
        ratio(one, dali1)
    );
    batchspec_bench::out!(
        "case=images how=batchspec workers=2 images_per_s={two:.0} scaling={:.2} ratio_pillow_pool_2={} ratio_dali_2={}",
        two / one,
        ratio(two, pool2),
        ratio(two, dali2)
    );
    let show = |name: &str, w: usize, v: Option<f64>| {
        if let Some(v) = v {
            batchspec_bench::out!("case=images how={name} workers={w} images_per_s={v:.0}");
        }
    };
    show("pillow-numpy", 1, pil);
    show("pillow-pool", 1, pool1);
    show("pillow-pool", 2, pool2);
    show("dali-cpu", 1, dali1);
    show("dali-cpu", 2, dali2);
}
