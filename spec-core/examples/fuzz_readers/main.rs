//! A mutation fuzzer for every file reader, on stable Rust: valid seed files (CSV, an IDX pair,
//! `.npy`, `.npz`, and Parquet files written by pyarrow) are damaged at random (bits flipped,
//! bytes set to values parsers care about, header words set to huge numbers, slices cut, copied
//! or dropped, files truncated) and loaded into a record. Parquet inputs are also damaged by
//! structure: a field of the Thrift footer or of a page header set to a chosen integer (0, -1,
//! 2^31, 2^62, i64::MAX, the value ± 1, ...) and the file re-encoded, the rest kept consistent,
//! so that the file lies consistently. Each input must give `Ok` or `Err`: the run counts
//! panics (those that escaped, and those the reader's guard caught inside the `parquet` crate),
//! the slowest input (a hang would show), the largest single allocation made while loading
//! against what the file could justify, and the peak resident memory of any input (Linux).
//! With the feature `images`, JPEG, PNG and WebP files through an `ImageStream`, a RecordIO pack and
//! a WebDataset shard too, within the spec's pixel budget rather than the file's length.
//!
//! `cargo run --release -p batchspec-core --features parquet --example fuzz_readers -- N [seed]`
//! runs N inputs per reader (CI runs a few thousand; the README gives a run of 1,000,000).
//! Inputs that panic are written to `target/fuzz-crashes/` to be replayed. Exits with an error
//! if any input panicked (a panic the reader's guard caught too: it would be an abort under
//! `panic = "abort"`), took over 2 s, or allocated more than 16 bytes per byte of file (plus
//! 4 MB; for images, the pixel budget in RGBA three times over, plus that).

use batchspec::data::Dataset;
use batchspec::load::parquet_thrift::{self as thrift, Value};
use batchspec::load::{Column, CsvFile, IdxFiles, NpyFiles, NpzFile, ParquetFiles};
use batchspec::prelude::*;
use std::path::Path;

mod harness;
use harness::{Rng, budget, fuzz, mutate};

#[derive(DataSpec)]
struct Table {
    #[spec(source = "features")]
    x: Batch<Vector<3, f32>>,
    #[spec(source = "targets")]
    y: Batch<Labels<10, u8>>,
}

#[derive(DataSpec)]
struct Mnist {
    #[spec(source = "features")]
    image: Batch<image![4, 4, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Labels<10>>,
}

#[derive(DataSpec)]
struct Seq {
    #[spec(source = "features")]
    x: Batch<VectorSeq<2>>,
}

#[derive(DataSpec)]
struct Doubles {
    #[spec(source = "features")]
    x: Batch<Vector<4, f64>>,
    #[spec(source = "targets")]
    y: Batch<Index<3>>,
}

#[derive(DataSpec)]
struct Grey {
    #[spec(source = "features")]
    image: Batch<image![2, 2, 1; BHWC]>,
    #[spec(source = "targets")]
    label: Batch<Labels<3>>,
}

/// A Hugging Face image column (encoded PNGs; decoded with the `parquet-image` feature).
#[derive(DataSpec)]
struct GreyU8 {
    #[spec(source = "features")]
    image: Batch<image![2, 2, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<3>>,
}

/// Ragged list columns (`List<int64>`, `List<FixedSizeList<float32, 2>>`, `List<List<f64>>`).
#[derive(DataSpec)]
struct Sentences {
    #[spec(source = "tokens")]
    tokens: Ragged<IndexSeq<100>>,
    #[spec(source = "frames")]
    frames: Ragged<VectorSeq<2>>,
    #[spec(source = "nested")]
    nested: Ragged<VectorSeq<2, BTF, f64>>,
}

/// Loads the Parquet file at `path` (of `len` bytes) into the record `R` within the fuzzer's
/// budget; whether it loaded.
fn load_parquet<R: batchspec::load::LoadRecord>(path: &Path, len: usize) -> bool {
    ParquetFiles::open(path)
        .map(|f| f.memory_budget(budget(len) as u64))
        .and_then(|mut f| Dataset::<R>::load(&mut f))
        .is_ok()
}

/// Reads every row group of the text column `text` of the Parquet file at `path` within the
/// fuzzer's budget; whether every one was read.
fn load_texts(path: &Path, len: usize) -> bool {
    let Ok(files) = ParquetFiles::open(path).map(|f| f.memory_budget(budget(len) as u64)) else {
        return false;
    };
    let Ok(groups) = files.row_groups() else {
        return false;
    };
    groups.into_iter().all(|g| {
        files
            .read_texts(g, "text", "text", batchspec::load::TextNulls::Skip)
            .is_ok()
    })
}

/// Integers a structure-aware mutation writes into a field: the edges of the types, sizes
/// that overflow, and the field's own value moved a little or a lot.
fn chosen(rng: &mut Rng, was: i64) -> i64 {
    const EDGES: &[i64] = &[
        0,
        -1,
        1,
        i32::MAX as i64,
        i32::MIN as i64,
        1 << 31,
        1 << 32,
        1 << 62,
        i64::MAX,
        i64::MIN,
        1_000_000_000,
    ];
    match rng.below(4) {
        0 => was.wrapping_add(1),
        1 => was.wrapping_sub(1),
        2 => was.wrapping_mul(1000),
        _ => EDGES[rng.below(EDGES.len())],
    }
}

/// Every integer of a Thrift value, to change one.
fn ints(v: &mut Value) -> Vec<&mut Value> {
    match v {
        Value::Byte(_) | Value::I16(_) | Value::I32(_) | Value::I64(_) => vec![v],
        Value::List(_, items) => items.iter_mut().flat_map(ints).collect(),
        Value::Map(_, _, pairs) => pairs.iter_mut().flat_map(|(_, x)| ints(x)).collect(),
        Value::Struct(fields) => fields.iter_mut().flat_map(|(_, x)| ints(x)).collect(),
        _ => Vec::new(),
    }
}

/// One integer of `v` set to a chosen value.
fn set_one(v: &mut Value, rng: &mut Rng) {
    let mut slots = ints(v);
    let n = slots.len();
    if n > 0 {
        let slot = &mut slots[rng.below(n)];
        let was = slot.int().unwrap_or(0);
        thrift::set_int(slot, chosen(rng, was));
    }
}

/// A Parquet seed damaged by bytes, or by structure: a footer field or a page header field set
/// to a chosen integer, the file re-encoded consistently.
fn mutate_parquet(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let structured = match rng.below(3) {
        0 => thrift::footer_of(seed).ok().and_then(|(mut meta, _)| {
            set_one(&mut meta, rng);
            thrift::with_footer(seed, &meta).ok()
        }),
        1 => thrift::footer_of(seed).ok().and_then(|(meta, _)| {
            let groups = meta.field(4)?.list()?.len();
            let g = rng.below(groups);
            let columns = meta.field(4)?.list()?[g].field(1)?.list()?.len();
            let at = thrift::chunk_start(&meta, g, rng.below(columns))?;
            thrift::edit_page(seed, at, |h| set_one(h, rng)).ok()
        }),
        _ => None,
    };
    structured.unwrap_or_else(|| mutate(seed, rng))
}

/// The image readers (feature `images`): JPEG, PNG and WebP files through an `ImageStream` (decode,
/// random-resized crop, flip, normalize), a RecordIO pack scanned without its index, and a
/// WebDataset shard, each read whole. Their budget is the spec's: the stream's pixel budget
/// (`max_pixels`, here 2^20) in RGBA and the resizer's rows, not the file's length.
#[cfg(feature = "images")]
mod images {
    use super::harness::{Report, Rng, fuzz_within, mutate};
    use batchspec::data::BatchSource;
    use batchspec::iteration::Schedule;
    use batchspec::load::images::{
        EncodedImages, ImageSteps, ImageStream, RecordIo, SourceKind, WebDataset,
    };
    use batchspec::load::{LoadError, Place};
    use batchspec::prelude::*;
    use std::path::{Path, PathBuf};

    #[derive(DataSpec)]
    struct Photo {
        #[spec(source = "image")]
        image: Batch<image![24, 24, 3; BCHW, f32]>,
    }

    #[derive(DataSpec)]
    struct Labelled {
        #[spec(source = "image")]
        image: Batch<image![16, 16, 3; BCHW, f32]>,
        #[spec(source = "label")]
        label: Batch<Index<4>>,
    }

    const PIXELS: u64 = 1 << 20;

    fn steps() -> ImageSteps {
        ImageSteps::random_resized_crop((0.1, 1.0), (0.75, 1.33))
            .flip_h(0.5)
            .scale(1.0 / 255.0)
            .max_pixels(PIXELS)
    }

    /// One file as a collection of one image.
    struct One(PathBuf);

    impl EncodedImages for One {
        fn len(&self) -> usize {
            1
        }
        fn kind(&self, _: &str) -> Option<SourceKind> {
            Some(SourceKind::Image)
        }
        fn sources(&self) -> Vec<String> {
            vec!["image".into()]
        }
        fn read_image(
            &self,
            _: usize,
            _: &'static str,
            _: u64,
            out: &mut Vec<u8>,
        ) -> Result<(), LoadError> {
            *out = std::fs::read(&self.0).unwrap_or_default();
            Ok(())
        }
        fn read_labels(
            &self,
            _: usize,
            _: &'static str,
            _: &mut Vec<f64>,
        ) -> Result<(), LoadError> {
            Ok(())
        }
        fn place(&self, _: usize) -> (PathBuf, Place) {
            (self.0.clone(), Place::File)
        }
        fn fingerprint(&self) -> u64 {
            0
        }
    }

    /// Every batch of `stream`: `true` when none failed.
    fn drain<R, S: BatchSource<R>>(mut stream: S) -> bool {
        let mut ok = true;
        while let Some(b) = stream.next_owned() {
            ok &= b.is_ok();
        }
        ok
    }

    fn image(path: &Path, _: usize) -> bool {
        let schedule = Schedule::builder(1)
            .batch_size(1)
            .build()
            .expect("a schedule");
        ImageStream::<Photo>::new(One(path.to_path_buf()), steps(), schedule).is_ok_and(drain)
    }

    fn stream<C: EncodedImages + 'static>(images: Result<C, LoadError>) -> bool {
        let Ok(images) = images else { return false };
        let n = images.len();
        let Ok(schedule) = Schedule::builder(n.max(1)).batch_size(4).build() else {
            return false;
        };
        if n == 0 {
            return false;
        }
        ImageStream::<Labelled>::new(images, steps(), schedule).is_ok_and(drain)
    }

    /// The decoded image at the pixel budget in RGBA, the resizer's buffers for it, the file.
    fn image_budget(len: usize) -> usize {
        (PIXELS as usize) * 4 * 3 + 16 * len + (4 << 20)
    }

    pub(super) fn fuzz_images(
        n: usize,
        rng: &mut Rng,
        dir: &Path,
        reports: &mut Vec<(&'static str, Report)>,
    ) {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/images");
        let read = |name: &str| std::fs::read(fixtures.join(name)).expect("a committed fixture");
        let jpegs = [
            read("folder/bird/b01.jpg"),
            read("folder/cat/kitten.jpg"),
            read("folder/dog/Puppy.JPG"),
        ];
        let pngs = [
            read("folder/bird/b04_grey.png"),
            read("folder/cat/c03_rgba.png"),
            read("folder/dog/d03_rgb.png"),
        ];
        reports.push((
            "JPEG (ImageStream)",
            fuzz_within("jpeg", &jpegs, n, rng, dir, mutate, image, image_budget),
        ));
        reports.push((
            "PNG (ImageStream)",
            fuzz_within("png", &pngs, n, rng, dir, mutate, image, image_budget),
        ));
        let webps = [
            read("webp/kitten_lossless.webp"),
            read("webp/kitten_lossy.webp"),
        ];
        reports.push((
            "WebP (ImageStream)",
            fuzz_within("webp", &webps, n, rng, dir, mutate, image, image_budget),
        ));
        let rec = [read("rec/folder.rec"), read("rec/split.rec")];
        reports.push((
            "RecordIO (scanned)",
            fuzz_within(
                "recordio",
                &rec,
                n,
                rng,
                dir,
                mutate,
                |p, _| stream(RecordIo::open(p)),
                image_budget,
            ),
        ));
        let tars = [read("wds/shard-000000.tar"), read("wds/dotted.tar")];
        reports.push((
            "WebDataset shard",
            fuzz_within(
                "wds",
                &tars,
                n,
                rng,
                dir,
                mutate,
                |p, _| stream(WebDataset::from_paths([p])),
                image_budget,
            ),
        ));
    }
}

fn csv_seed(rows: usize, crlf: bool, header: bool) -> Vec<u8> {
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut s = String::new();
    if header {
        s.push_str("a,b,c,label");
        s.push_str(eol);
    }
    for i in 0..rows {
        s.push_str(&format!("{}.5,{},-{},{}{eol}", i, i * 3, i % 7, i % 10));
    }
    s.into_bytes()
}

fn idx_seed(code: u8, dims: &[u32], payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0, 0, code, dims.len() as u8];
    for d in dims {
        out.extend_from_slice(&d.to_be_bytes());
    }
    out.extend_from_slice(payload);
    out
}

fn npy_seed<A: ndarray_npy::WritableElement, D: ndarray::Dimension>(
    a: &ndarray::Array<A, D>,
) -> Vec<u8> {
    use ndarray_npy::WriteNpyExt;
    let mut out = Vec::new();
    a.write_npy(&mut out).expect("an in-memory write");
    out
}

fn npz_seed(dir: &Path) -> Vec<u8> {
    let path = dir.join("seed.npz");
    let mut npz = ndarray_npy::NpzWriter::new(std::fs::File::create(&path).expect("a temp file"));
    let x = ndarray::Array2::from_shape_fn((6, 3), |(i, j)| (i * 3 + j) as f32);
    let y = ndarray::Array1::from_iter((0..6u8).map(|i| i % 10));
    npz.add_array("features", &x).expect("x");
    npz.add_array("targets", &y).expect("y");
    npz.finish().expect("the archive");
    std::fs::read(&path).expect("the archive's bytes")
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2026);
    let dir = std::env::temp_dir().join(format!("batchspec-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    harness::count_panics();
    let mut rng = Rng(seed | 1);
    let mut reports = Vec::new();

    let csv = [
        csv_seed(5, false, false),
        csv_seed(4, true, true),
        csv_seed(1, false, true),
    ];
    reports.push((
        "CSV",
        fuzz("csv", &csv, n, &mut rng, &dir, mutate, |p, _| {
            Dataset::<Table>::load(&mut CsvFile::new(p).label_column(Column::Last)).is_ok()
        }),
    ));

    // The IDX pair: each input damages the images file or the labels file.
    let images = idx_seed(0x08, &[3, 4, 4], &(0..48).collect::<Vec<u8>>());
    let labels = idx_seed(0x08, &[3], &[1, 2, 3]);
    let good_images = dir.join("good-images.idx");
    let good_labels = dir.join("good-labels.idx");
    std::fs::write(&good_images, &images).expect("a temp file");
    std::fs::write(&good_labels, &labels).expect("a temp file");
    let (gi, gl) = (good_images.clone(), good_labels.clone());
    reports.push((
        "IDX images",
        fuzz(
            "idx-images",
            &[images],
            n,
            &mut rng,
            &dir,
            mutate,
            |p, _| Dataset::<Mnist>::load(&mut IdxFiles::mnist(p, &gl)).is_ok(),
        ),
    ));
    reports.push((
        "IDX labels",
        fuzz(
            "idx-labels",
            &[labels],
            n,
            &mut rng,
            &dir,
            mutate,
            |p, _| Dataset::<Mnist>::load(&mut IdxFiles::mnist(&gi, p)).is_ok(),
        ),
    ));

    let npy = [
        npy_seed(&ndarray::Array3::from_shape_fn((3, 4, 2), |(i, j, k)| {
            (i + j + k) as f32
        })),
        npy_seed(&ndarray::Array3::<f32>::zeros((2, 0, 2))),
    ];
    reports.push((
        ".npy",
        fuzz("npy", &npy, n, &mut rng, &dir, mutate, |p, _| {
            Dataset::<Seq>::load(&mut NpyFiles::new().file("features", p)).is_ok()
        }),
    ));

    let npz = [npz_seed(&dir)];
    reports.push((
        ".npz",
        fuzz("npz", &npz, n, &mut rng, &dir, mutate, |p, _| {
            Dataset::<Table>::load(&mut NpzFile::new(p)).is_ok()
        }),
    ));

    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/parquet");
    let read = |name: &str| std::fs::read(fixtures.join(name)).expect("a committed fixture");
    // Each Parquet target: a fixture read into a record, within the fuzzer's budget.
    type Target = (
        &'static str,
        &'static str,
        &'static str,
        fn(&Path, usize) -> bool,
    );
    let targets: [Target; 4] = [
        (
            "Parquet (FixedSizeList)",
            "parquet-fsl",
            "fixed_size_list.parquet",
            load_parquet::<Doubles>,
        ),
        (
            "Parquet (tensor, snappy)",
            "parquet-tensor",
            "tensor.parquet",
            load_parquet::<Grey>,
        ),
        (
            "Parquet (image column)",
            "parquet-image",
            "hf_image.parquet",
            load_parquet::<GreyU8>,
        ),
        (
            "Parquet (ragged lists)",
            "parquet-ragged",
            "sequences.parquet",
            load_parquet::<Sentences>,
        ),
    ];
    for (title, name, fixture, load) in targets {
        let seeds = [read(fixture)];
        reports.push((
            title,
            fuzz(name, &seeds, n, &mut rng, &dir, mutate_parquet, load),
        ));
    }
    // Text columns (the text package's fixture, written by pyarrow: string and large_string
    // columns in four row groups).
    let text = Path::new(env!("CARGO_MANIFEST_DIR")).join("../text/tests/data/small.parquet");
    let seeds = [std::fs::read(text).expect("a committed fixture")];
    reports.push((
        "Parquet (text column)",
        fuzz(
            "parquet-text",
            &seeds,
            n,
            &mut rng,
            &dir,
            mutate_parquet,
            load_texts,
        ),
    ));
    #[cfg(feature = "images")]
    images::fuzz_images(n, &mut rng, &dir, &mut reports);
    let _ = std::fs::remove_dir_all(&dir);

    let failed = harness::print_reports(n, seed, &reports);
    if failed {
        eprintln!(
            "a reader panicked, hung or allocated beyond its budget (inputs in target/fuzz-crashes/)"
        );
        std::process::exit(1);
    }
}
