//! Benchmarks of batchspec against its baselines (no library code).
//!
//! * `src/transpose.rs` (`cargo bench -p batchspec-bench --bench transpose`): layout
//!   conversion, cases A-E of issue 3, against memcpy, ndarray, `transpose` and `strided-rs`.
//! * `numpy_transpose.py`: the same cases in NumPy.
//! * `src/ragged.rs` (`cargo bench -p batchspec-bench --bench ragged`): gathering and padding
//!   shuffled ragged sequences, against the plain loop, memcpy and fixed-size padding;
//!   `numpy_ragged.py` runs the NumPy versions.
//! * `src/augment.rs` (`cargo bench -p batchspec-bench --bench augment`): the standard CIFAR
//!   augmentation fused into the gather, against the plain gather and separate passes;
//!   `numpy_augment.py` runs it in NumPy.
//!
//! * `src/remote.rs` (`cargo bench -p batchspec-bench --bench remote`): Parquet part files
//!   streamed from an S3-compatible server on loopback (moto), beside the same files on local
//!   disk and beside pyarrow's S3 filesystem; `remote_pyarrow.py` runs the Python side.
//!
//! Each prints the CPU it ran on first, with its caches ([`cpu_model`]), and appends what it
//! prints to `benches/results/raw/` under the date and commit ([`record`]).
//!
//! The sources live under `src/` because the workspace root package would otherwise pick
//! up `benches/*.rs` as its own benchmark targets.
#![forbid(unsafe_code)]

pub mod record;
pub use record::{cpu_caches, cpu_model};

/// `println!` that also appends the line to the run's record ([`record::line`]).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::record::line(&format!($($arg)*))
    };
}

/// Writes the Parquet benchmarks' rows `rows` to `path`, a row group of `group` rows at a time
/// (the writer never holds the whole table): `features`, a `FixedSizeList<f32, 784>` whose value
/// `k` (counted over the whole table) is `(k % 251) * 0.25`, and `targets`, the int64 `i % 10`.
pub fn write_features(
    path: &std::path::Path,
    compression: parquet::basic::Compression,
    rows: std::ops::Range<usize>,
    group: usize,
) {
    write_table(path, compression, rows, group, false);
}

/// As [`write_features`], with `features` a `FixedSizeList<u8, 784>` of the values `k % 251`
/// (pixels, as images are often stored; a Parquet `int32` annotated as `u8`).
pub fn write_pixels(path: &std::path::Path, rows: std::ops::Range<usize>, group: usize) {
    let none = parquet::basic::Compression::UNCOMPRESSED;
    write_table(path, none, rows, group, true);
}

fn write_table(
    path: &std::path::Path,
    compression: parquet::basic::Compression,
    rows: std::ops::Range<usize>,
    group: usize,
    pixels: bool,
) {
    use arrow_array::{
        ArrayRef, FixedSizeListArray, Float32Array, Int64Array, RecordBatch, UInt8Array,
    };
    use arrow_schema::{DataType, Field, Schema};
    use std::sync::Arc;
    const D: usize = 784;
    let value_type = if pixels {
        DataType::UInt8
    } else {
        DataType::Float32
    };
    let item = Arc::new(Field::new("item", value_type, false));
    let schema = Arc::new(Schema::new(vec![
        Field::new(
            "features",
            DataType::FixedSizeList(item.clone(), D as i32),
            false,
        ),
        Field::new("targets", DataType::Int64, false),
    ]));
    let props = parquet::file::properties::WriterProperties::builder()
        .set_compression(compression)
        .set_max_row_group_row_count(Some(group))
        .build();
    let file = std::fs::File::create(path).unwrap();
    let mut writer =
        parquet::arrow::ArrowWriter::try_new(file, schema.clone(), Some(props)).unwrap();
    let mut start = rows.start;
    while start < rows.end {
        let n = group.min(rows.end - start);
        let k = start * D..(start + n) * D;
        let values: ArrayRef = if pixels {
            Arc::new(UInt8Array::from_iter_values(k.map(|k| (k % 251) as u8)))
        } else {
            Arc::new(Float32Array::from_iter_values(
                k.map(|k| (k % 251) as f32 * 0.25),
            ))
        };
        let x = FixedSizeListArray::try_new(item.clone(), D as i32, values, None).unwrap();
        let y = Int64Array::from_iter_values((start..start + n).map(|i| (i % 10) as i64));
        let columns: Vec<ArrayRef> = vec![Arc::new(x), Arc::new(y)];
        writer
            .write(&RecordBatch::try_new(schema.clone(), columns).unwrap())
            .unwrap();
        start += n;
    }
    writer.close().unwrap();
}

/// The Parquet benchmarks' record: the rows [`write_features`] writes.
#[derive(batchspec::DataSpec)]
pub struct Record {
    #[spec(source = "features")]
    pub x: batchspec::prelude::Batch<batchspec::prelude::Vector<784>>,
    #[spec(source = "targets")]
    pub y: batchspec::prelude::Batch<batchspec::prelude::Labels<10>>,
}

/// What the Parquet benchmarks serve: f32 vectors and one-hot targets.
#[derive(batchspec::DataSpec)]
pub struct Request {
    #[spec(source = "features")]
    pub x: batchspec::prelude::Batch<batchspec::prelude::Vector<784>>,
    #[spec(source = "targets")]
    pub y: batchspec::prelude::Batch<batchspec::prelude::Vector<10>>,
}

/// One epoch of `rank`'s share of `files` (shuffled with seed 7), streamed `window` row groups at
/// a time (the next `ahead` windows read ahead on `threads` reading threads, the serving thread
/// reading those they have not started) into [`Request`]s of `batch` rows: the rows served.
pub fn stream_epoch(
    files: &batchspec::load::ParquetFiles,
    rank: batchspec::load::Rank,
    epoch: u64,
    batch: usize,
    window: usize,
    (ahead, threads): (usize, usize),
) -> usize {
    use batchspec::load::{ParquetStream, ShardPlan};
    use batchspec::prelude::Batch;
    let plan = ShardPlan::new(files, rank).unwrap().shuffle(7);
    let stream = ParquetStream::<Record>::new(files, &plan, epoch, batch, window);
    let mut stream = stream.read_ahead_windows(ahead);
    if ahead > 0 {
        stream = stream.reading_threads(threads);
    }
    let mut out = Request {
        x: Batch::zeros(batch, 0),
        y: Batch::zeros(batch, 0),
    };
    let mut rows = 0;
    while let Some(n) = stream.fill_next(&mut out) {
        rows += n.unwrap();
        std::hint::black_box(&out);
    }
    rows
}

/// `base / secs` within each round (the two variants' times of a round side by side): the
/// median and range, as `1.52 [1.44-1.61]`.
pub fn ratio(base: &[f64], secs: &[f64]) -> String {
    let r: Vec<f64> = base.iter().zip(secs).map(|(b, s)| b / s).collect();
    let (lo, hi) = r
        .iter()
        .fold((f64::MAX, 0f64), |(l, h), &v| (l.min(v), h.max(v)));
    format!("{:.2} [{lo:.2}-{hi:.2}]", median(r))
}

/// The median of measurements (the upper one of an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The Python of the benches' NumPy and pyarrow baselines: a venv at
/// `target/tools/numpy-bench` with NumPy 2.4.6 and pyarrow 26.0.1 (the versions of the recorded
/// runs), made on first use from the machine's `python3` and PyPI; `None` (the baselines then
/// say n/a) when it cannot be made.
pub fn numpy_python() -> Option<std::path::PathBuf> {
    use std::process::Command;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
    let venv = root.join("target/tools/numpy-bench");
    let python = venv.join("bin/python");
    let ready = || {
        Command::new(&python)
            .args(["-c", "import numpy, pyarrow"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !ready() {
        Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .output()
            .ok()?;
        Command::new(venv.join("bin/pip"))
            .args(["install", "-q", "--disable-pip-version-check"])
            .args(["numpy==2.4.6", "pyarrow==26.0.1"])
            .output()
            .ok()?;
    }
    ready().then_some(python)
}

/// Runs the NumPy baseline `script` (a file of `benches/`) with `args` in the same session as
/// the bench, and prints its lines into the run's record; the lines, or none when Python
/// cannot be had.
pub fn run_numpy(script: &str, args: &[String]) -> Vec<String> {
    let Some(python) = numpy_python() else {
        out!(
            "# {script}: no Python with NumPy here (target/tools/numpy-bench could not be made): no NumPy baseline"
        );
        return Vec::new();
    };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(script);
    let run = std::process::Command::new(python)
        .arg(&path)
        .args(args)
        .output();
    match run {
        Ok(o) if o.status.success() => {
            let lines: Vec<String> = String::from_utf8_lossy(&o.stdout)
                .lines()
                .map(str::to_owned)
                .collect();
            for l in &lines {
                out!("{l}");
            }
            lines
        }
        Ok(o) => {
            out!(
                "# {script} failed: {}",
                String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            );
            Vec::new()
        }
        Err(e) => {
            out!("# {script} could not run: {e}");
            Vec::new()
        }
    }
}
