//! Reading, shuffling, batching and converting Parquet: 60000 × 784 f32 features
//! (FixedSizeList) plus int64 labels in row groups of 8192 rows, uncompressed and snappy, served
//! by `ParquetStream` (batch 128, a window of 2 row groups, shuffled) into a request of f32
//! vectors and one-hot targets; beside the `parquet` crate's own `ParquetRecordBatchReader`
//! decoding the same file with no batching (the floor), measured in the same run.
//!
//! `cargo bench -p batchspec-bench --bench parquet` (set `BENCH_QUICK=1` for a short run).
//! Each line: `case=parquet codec=C threads=T samples_per_s=.. decoder_samples_per_s=..
//! ratio_decoder=..` (and `case=parquet_load`: `Dataset::load` of the whole file, no batching);
//! at the end the process's peak resident memory (`VmHWM`) beside the file size.

use arrow_array::{ArrayRef, FixedSizeListArray, Float32Array, Int64Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use batchspec::load::{ParquetFiles, ParquetStream, Rank, ShardPlan};
use batchspec::prelude::*;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

const N: usize = 60_000;
const D: usize = 784;
const GROUP: usize = 8192;
const BATCH: usize = 128;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<784>>,
    #[spec(source = "targets")]
    y: Batch<Labels<10>>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "features")]
    x: Batch<Vector<784>>,
    #[spec(source = "targets")]
    y: Batch<Vector<10>>,
}

/// Writes the file a row group at a time (the writer never holds the whole table).
fn write(path: &Path, compression: Compression) {
    let item = Arc::new(Field::new("item", DataType::Float32, false));
    let schema = Arc::new(Schema::new(vec![
        Field::new(
            "features",
            DataType::FixedSizeList(item.clone(), D as i32),
            false,
        ),
        Field::new("targets", DataType::Int64, false),
    ]));
    let props = WriterProperties::builder()
        .set_compression(compression)
        .set_max_row_group_row_count(Some(GROUP))
        .build();
    let file = std::fs::File::create(path).unwrap();
    let mut writer = ArrowWriter::try_new(file, schema.clone(), Some(props)).unwrap();
    let mut start = 0;
    while start < N {
        let n = GROUP.min(N - start);
        let values = Float32Array::from_iter_values(
            (start * D..(start + n) * D).map(|k| (k % 251) as f32 * 0.25),
        );
        let x =
            FixedSizeListArray::try_new(item.clone(), D as i32, Arc::new(values), None).unwrap();
        let y = Int64Array::from_iter_values((start..start + n).map(|i| (i % 10) as i64));
        let columns: Vec<ArrayRef> = vec![Arc::new(x), Arc::new(y)];
        writer
            .write(&RecordBatch::try_new(schema.clone(), columns).unwrap())
            .unwrap();
        start += n;
    }
    writer.close().unwrap();
}

/// The decoder alone: every record batch of the file, no batching or conversion.
fn decode(path: &Path) -> usize {
    let file = std::fs::File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    reader.map(|b| black_box(b.unwrap()).num_rows()).sum()
}

/// One epoch of the rank's share, streamed into a request.
fn stream(path: &Path, rank: Rank) -> usize {
    let files = ParquetFiles::open(path).unwrap();
    let plan = ShardPlan::new(&files, rank).unwrap().shuffle(7);
    let mut stream = ParquetStream::<Record>::new(&files, &plan, 0, BATCH, 2);
    let mut out = Request {
        x: Batch::zeros(BATCH, 0),
        y: Batch::zeros(BATCH, 0),
    };
    let mut rows = 0;
    while let Some(n) = stream.fill_next(&mut out) {
        rows += n.unwrap();
        black_box(&out);
    }
    rows
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn time(reps: usize, mut f: impl FnMut() -> usize) -> f64 {
    let served = f();
    assert!(served >= N, "every sample at least once (served {served})");
    median(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                black_box(f());
                t.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

fn vm_hwm_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let reps = if std::env::var_os("BENCH_QUICK").is_some() {
        3
    } else {
        7
    };
    let dir: PathBuf = std::env::temp_dir().join(format!("batchspec-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    println!(
        "# {N} x {D} f32 + int64 labels, row groups of {GROUP}; stream: batch {BATCH}, window of 2 row groups, shuffled, into f32 vectors + one-hot"
    );
    let mut largest = 0;
    for (name, codec) in [
        ("none", Compression::UNCOMPRESSED),
        ("snappy", Compression::SNAPPY),
    ] {
        let path = dir.join(format!("bench-{name}.parquet"));
        write(&path, codec);
        largest = largest.max(std::fs::metadata(&path).unwrap().len());
        let floor = time(reps, || decode(&path));
        let load = time(reps, || {
            let mut files = ParquetFiles::open(&path).unwrap();
            batchspec::dataset::Dataset::<Record>::load(&mut files)
                .unwrap()
                .len()
        });
        println!(
            "case=parquet_load codec={name} samples_per_s={:.0} ratio_decoder={:.2} (whole columns into memory, no batching)",
            N as f64 / load,
            floor / load
        );
        let one = time(reps, || stream(&path, Rank::new(0, 1).unwrap()));
        let two = time(reps, || {
            std::thread::scope(|s| {
                let a = s.spawn(|| stream(&path, Rank::new(0, 2).unwrap()));
                let b = s.spawn(|| stream(&path, Rank::new(1, 2).unwrap()));
                a.join().unwrap() + b.join().unwrap()
            })
        });
        for (threads, secs) in [(1, one), (2, two)] {
            println!(
                "case=parquet codec={name} threads={threads} samples_per_s={:.0} decoder_samples_per_s={:.0} ratio_decoder={:.2}",
                N as f64 / secs,
                N as f64 / floor,
                floor / secs
            );
        }
    }
    if let Some(kb) = vm_hwm_kb() {
        println!(
            "peak_rss_mb={:.0} largest_file_mb={:.0}",
            kb as f64 / 1024.0,
            largest as f64 / 1e6
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
