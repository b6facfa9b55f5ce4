//! Reading, shuffling, batching and converting Parquet: 60000 × 784 f32 features
//! (FixedSizeList) plus int64 labels in row groups of 8192 rows, uncompressed and snappy, served
//! by `ParquetStream` (batch 128, a window of 2 row groups, shuffled) into a request of f32
//! vectors and one-hot targets; beside the `parquet` crate's own `ParquetRecordBatchReader`
//! decoding the same file with no batching (the floor), measured in the same run.
//!
//! The same epoch in Python (pyarrow + NumPy, `parquet_pyarrow.py`) runs in the same run, in the
//! benches' venv (`target/tools/numpy-bench`, made on first use).
//!
//! `cargo bench -p batchspec-bench --bench parquet` (set `BENCH_QUICK=1` for a short run).
//! The Rust variants run in interleaved rounds (each round times each of them once); samples/s
//! are medians over the rounds, and each ratio between two of them is taken within a round and
//! printed as its median and range (`1.52 [1.44-1.61]`). Each stream is made afresh for the
//! epoch it serves (its first), from files opened afresh (which read into the memory the files
//! dropped before them left lingering, as a loop that opens its files for each epoch does), but
//! for the `_same_files` ones, made
//! afresh from files opened once (as a loop that makes a stream for each epoch makes them: each
//! reads into the memory the one before passed on), and the `_kept` ones: a stream kept from
//! epoch to epoch, as a training loop keeps it, serving its next 6 epochs in each round and
//! timing the last 5 (its figures per epoch; see [`kept`]).
//! Each line: `case=parquet codec=C threads=T how=stream|stream_read_ahead|stream_window_1|stream_window_1_2_at_once|stream_window_1_1_reader_3_ahead|stream_2_ranks|stream_window_1_same_files|stream_window_1_1_reader_3_ahead_same_files|stream_window_1_kept|stream_window_1_2_at_once_kept|stream_window_1_1_reader_3_ahead_kept
//! samples_per_s=.. decoder_samples_per_s=.. ratio_decoder=.. ratio_pyarrow_numpy=..` (and
//! `case=parquet_load`: `Dataset::load` of the whole file, no batching; `case=parquet_cores_busy`:
//! the cores the kept streams kept busy, one thread's, two windows at once, and one reading
//! thread with three windows ahead); at the end
//! `case=parquet_pixels`: the features stored as `u8` and served as `f32` (converted as they
//! are decoded) by a kept stream, beside the decoder of that file; `case=parquet_convert`: `i64`
//! features in plain pages loaded into `f32`, each value checked exact, beside the decoder; `case=copy_scaling`: what two threads copying an epoch's features at once get against one
//! (the memory's share for a second thread, the ceiling of a stream that moves as much); and
//! `case=memory`: the peak resident memory (`VmHWM`) of a fresh process that streams a file of
//! small row groups, beside one that loads it whole and one that does nothing.

use batchspec::load::{ParquetFiles, Rank};
use batchspec_bench::Record;
use batchspec_bench::{median, ratio};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

const N: usize = 60_000;
const D: usize = 784;
const GROUP: usize = 8192;
const BATCH: usize = 128;

/// Writes the file a row group at a time (the writer never holds the whole table).
fn write(path: &Path, compression: Compression, group: usize) {
    batchspec_bench::write_features(path, compression, 0..N, group);
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

/// One epoch of the rank's share, streamed into a request (the next `ahead` windows read at once,
/// each on a thread of its own).
fn stream(path: &Path, rank: Rank, window: usize, ahead: usize) -> usize {
    let files = ParquetFiles::open(path).unwrap();
    batchspec_bench::stream_epoch(&files, rank, 0, BATCH, window, (ahead, ahead))
}

/// One epoch of a fresh stream of windows of one row group, three read ahead by one thread and
/// the serving thread (two threads in all).
fn stream_helped(path: &Path) -> usize {
    let files = ParquetFiles::open(path).unwrap();
    batchspec_bench::stream_epoch(&files, Rank::new(0, 1).unwrap(), 0, BATCH, 1, (3, 1))
}

/// Epochs a kept stream times in one call, after one it serves untimed.
const KEPT_TIMED: u64 = 5;

/// The seconds per epoch of each call of a kept stream, as it timed them, and the process's CPU
/// seconds per epoch over the same epochs (every thread's, those ended included).
type Timed = std::rc::Rc<std::cell::RefCell<Vec<(f64, f64)>>>;

/// The CPU seconds this process has run, all its threads together (`/proc/self/stat`'s user and
/// system times, in the kernel's ticks of 1/100 s); 0 where there is no such file.
fn cpu_secs() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // The fields after the command's closing parenthesis: the state, then ... `utime` (14th of
    // the line) and `stime` (15th).
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = after
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|t| t.parse::<u64>().ok())
        .sum();
    ticks as f64 / 100.0
}

/// A stream kept from epoch to epoch, as a training loop keeps it, windows of one row group,
/// `ahead` of them read at once: each call serves its next `1 + KEPT_TIMED` epochs in turn and
/// times the last `KEPT_TIMED` of them (pushing their seconds per epoch to `Timed`): each of
/// those finds its first windows read while the epoch before ended, and ends while the first
/// windows of the epoch after it are read, as every epoch but the first of a training loop
/// does. The call's first epoch (which waits for its first window, as a loop's first does) is
/// not timed, nor the end of the call: it starts the last epoch again, which waits for the
/// windows read ahead for the epoch after it (read, then dropped: no training loop reads them
/// for nothing, and the next variant's time does not get them).
fn kept(path: &Path, ahead: usize, threads: Option<usize>) -> (impl FnMut() -> usize, Timed) {
    use batchspec::load::{ParquetStream, ShardPlan};
    use batchspec::prelude::Batch;
    let files = ParquetFiles::open(path).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap())
        .unwrap()
        .shuffle(7);
    let mut stream =
        ParquetStream::<Record>::new(&files, &plan, 0, BATCH, 1).read_ahead_windows(ahead);
    if let Some(threads) = threads {
        stream = stream.reading_threads(threads);
    }
    let mut out = batchspec_bench::Request {
        x: Batch::zeros(BATCH, 0),
        y: Batch::zeros(BATCH, 0),
    };
    let mut next = 0;
    let timed = Timed::default();
    let times = timed.clone();
    let call = move || {
        let mut rows = 0;
        let (mut started, mut cpu) = (Instant::now(), cpu_secs());
        for epoch in next..=next + KEPT_TIMED {
            if epoch == next + 1 {
                (started, cpu) = (Instant::now(), cpu_secs());
            }
            stream.start_epoch(epoch);
            while let Some(n) = stream.fill_next(&mut out) {
                rows += n.unwrap();
                black_box(&out);
            }
        }
        let (wall, cpu) = (started.elapsed().as_secs_f64(), cpu_secs() - cpu);
        times
            .borrow_mut()
            .push((wall / KEPT_TIMED as f64, cpu / KEPT_TIMED as f64));
        next += KEPT_TIMED + 1;
        stream.start_epoch(next - 1);
        rows / (KEPT_TIMED + 1) as usize
    };
    (call, timed)
}

/// Seconds of each variant in `rounds` interleaved rounds (each round times every variant once,
/// one after the other, so that a slow phase of the shared machine falls on all of them), after
/// one untimed call of each that checks it serves every one of the file's `samples`.
fn rounds(
    rounds: usize,
    samples: usize,
    variants: &mut [&mut dyn FnMut() -> usize],
) -> Vec<Vec<f64>> {
    for f in variants.iter_mut() {
        let served = f();
        assert!(
            served >= samples,
            "every sample at least once (served {served})"
        );
    }
    let mut secs = vec![Vec::with_capacity(rounds); variants.len()];
    for _ in 0..rounds {
        for (f, t) in variants.iter_mut().zip(&mut secs) {
            let started = Instant::now();
            black_box(f());
            t.push(started.elapsed().as_secs_f64());
        }
    }
    secs
}

fn vm_hwm_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The same epoch in Python: pyarrow `read_row_groups` + NumPy `take` of shuffled batches
/// (`parquet_pyarrow.py`, beside this file, run by the benches' Python,
/// [`batchspec_bench::numpy_python`]):
/// (samples/s, pyarrow's decoder alone in samples/s).
fn pyarrow(path: &Path, reps: usize) -> Option<(f64, f64)> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/parquet_pyarrow.py");
    let out = std::process::Command::new(batchspec_bench::numpy_python()?)
        .arg(script)
        .arg(path)
        .args([BATCH.to_string(), "2".into(), reps.to_string()])
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let value = |key: &str| -> Option<f64> {
        text.split_whitespace()
            .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('=')?.parse().ok())
    };
    Some((
        value("pyarrow_samples_per_s")?,
        value("pyarrow_decoder_samples_per_s")?,
    ))
}

/// The file of the memory case: the same rows in row groups of `SMALL_GROUP`, so that a window
/// (and the one read ahead) is a small part of it.
const SMALL_GROUP: usize = 1024;
const MEMORY_ENV: &str = "BATCHSPEC_BENCH_MEMORY";

/// Peak resident memory of a process that only streams one epoch (window of 1 row group, read
/// ahead) of a file of small row groups, beside one that loads it whole, each in a fresh process
/// (this benchmark run again with `BATCHSPEC_BENCH_MEMORY=stream|load FILE`).
fn memory(dir: &Path) {
    let path = dir.join("bench-memory.parquet");
    write(&path, Compression::UNCOMPRESSED, SMALL_GROUP);
    let file_mb = std::fs::metadata(&path).unwrap().len() as f64 / 1e6;
    let window_mb = (SMALL_GROUP * (D * 4 + 8)) as f64 / 1e6;
    let run = |how: &str| -> Option<f64> {
        let out = std::process::Command::new(std::env::current_exe().ok()?)
            .env(MEMORY_ENV, format!("{how} {}", path.display()))
            .env("BATCHSPEC_BENCH_RECORD", "0")
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        text.lines()
            .find_map(|l| l.trim().strip_prefix("peak_rss_mb="))?
            .parse()
            .ok()
    };
    let idle = run("idle");
    let (stream, load) = (run("stream"), run("load"));
    let show = |v: Option<f64>| v.map_or_else(|| "n/a".to_owned(), |v| format!("{v:.0}"));
    batchspec_bench::out!(
        "case=memory file_mb={file_mb:.0} row_group_mb={window_mb:.1} window=1 read_ahead=1 stream_peak_rss_mb={} load_peak_rss_mb={} idle_process_peak_rss_mb={}",
        show(stream),
        show(load),
        show(idle)
    );
}

/// The child process of [`memory`].
fn memory_child(spec: &str) {
    let (how, path) = spec.split_once(' ').unwrap();
    let path = Path::new(path);
    match how {
        "stream" => assert_eq!(stream(path, Rank::new(0, 1).unwrap(), 1, 1), N),
        "load" => {
            let mut files = ParquetFiles::open(path).unwrap();
            let ds = batchspec::data::Dataset::<Record>::load(&mut files).unwrap();
            assert_eq!(black_box(ds).len(), N);
        }
        _ => {}
    }
    batchspec_bench::out!(
        "peak_rss_mb={:.1}",
        vm_hwm_kb().unwrap_or(0) as f64 / 1024.0
    );
}

fn main() {
    batchspec_bench::record::start("parquet", std::env::var_os("BENCH_QUICK").is_some());
    if let Ok(spec) = std::env::var(MEMORY_ENV) {
        return memory_child(&spec);
    }
    let reps = if std::env::var_os("BENCH_QUICK").is_some() {
        3
    } else {
        9
    };
    let dir: PathBuf = std::env::temp_dir().join(format!("batchspec-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    batchspec_bench::out!(
        "# {N} x {D} f32 + int64 labels, row groups of {GROUP}; stream: batch {BATCH}, window of 2 row groups, shuffled, into f32 vectors + one-hot; {reps} interleaved rounds, ratios within a round: median [min-max]"
    );
    for (name, codec) in [
        ("none", Compression::UNCOMPRESSED),
        ("snappy", Compression::SNAPPY),
    ] {
        let path = dir.join(format!("bench-{name}.parquet"));
        write(&path, codec, GROUP);
        let rank = || Rank::new(0, 1).unwrap();
        // The decoder alone; the whole file loaded; the stream (windows of 2 row groups), read
        // ahead; windows of one row group, alone and two read at once; two ranks in two threads;
        // windows of one row group, alone and two at once, of streams kept from epoch to epoch
        // (the fresh streams above each serve their first epoch).
        let ((mut kept_one, timed_one), (mut kept_two, timed_two)) =
            (kept(&path, 0, None), kept(&path, 2, Some(2)));
        // Two threads in all: one reading thread, three windows ahead, and the serving thread
        // reading the windows it has not started when the one it needs is not read yet.
        let (mut kept_helped, timed_helped) = kept(&path, 3, Some(1));
        // Fresh streams made from files opened once, one thread and one reading thread with
        // three windows ahead, each variant from files of its own.
        let (same_one, same_helped) = (
            ParquetFiles::open(&path).unwrap(),
            ParquetFiles::open(&path).unwrap(),
        );
        let one_thread_of = |files: &ParquetFiles, ahead: (usize, usize)| {
            batchspec_bench::stream_epoch(files, rank(), 0, BATCH, 1, ahead)
        };
        let secs = rounds(
            reps,
            N,
            &mut [
                &mut || decode(&path),
                &mut || {
                    let mut files = ParquetFiles::open(&path).unwrap();
                    batchspec::data::Dataset::<Record>::load(&mut files)
                        .unwrap()
                        .len()
                },
                &mut || stream(&path, rank(), 2, 0),
                &mut || stream(&path, rank(), 2, 1),
                &mut || stream(&path, rank(), 1, 0),
                &mut || stream(&path, rank(), 1, 2),
                &mut || stream_helped(&path),
                &mut || one_thread_of(&same_one, (0, 0)),
                &mut || one_thread_of(&same_helped, (3, 1)),
                &mut || {
                    std::thread::scope(|s| {
                        let a = s.spawn(|| stream(&path, Rank::new(0, 2).unwrap(), 2, 0));
                        let b = s.spawn(|| stream(&path, Rank::new(1, 2).unwrap(), 2, 0));
                        a.join().unwrap() + b.join().unwrap()
                    })
                },
                &mut kept_one,
                &mut kept_two,
                &mut kept_helped,
            ],
        );
        let [
            floor,
            load,
            one,
            ahead,
            one_small,
            ahead2,
            helped_fresh,
            one_same,
            helped_same,
            two,
            kept1,
            kept2,
            helped,
        ] = &secs[..]
        else {
            unreachable!("thirteen variants")
        };
        // Seconds per timed epoch of the kept streams, in the rounds (their first call checked
        // the samples served, untimed).
        let timed = |t: &Timed, calls: &[f64]| -> Vec<(f64, f64)> {
            let t = t.borrow();
            t[t.len() - calls.len()..].to_vec()
        };
        let (kept1, kept2, helped) = (
            timed(&timed_one, kept1),
            timed(&timed_two, kept2),
            timed(&timed_helped, helped),
        );
        // The cores the process kept busy in those epochs: CPU time over wall time, summed over
        // the rounds (a tick is 10 ms: a round's epochs alone would be too few ticks).
        let busy = |t: &[(f64, f64)]| {
            let (wall, cpu) = t.iter().fold((0.0, 0.0), |(w, c), &(a, b)| (w + a, c + b));
            cpu / wall
        };
        let (busy1, busy2, busy_helped) = (busy(&kept1), busy(&kept2), busy(&helped));
        let walls = |t: Vec<(f64, f64)>| t.into_iter().map(|(w, _)| w).collect::<Vec<f64>>();
        let (kept1, kept2, helped) = (&walls(kept1), &walls(kept2), &walls(helped));
        batchspec_bench::out!(
            "case=parquet_load codec={name} samples_per_s={:.0} ratio_decoder={} (whole columns into memory, no batching)",
            N as f64 / median(load.clone()),
            ratio(floor, load)
        );
        let python = pyarrow(&path, reps);
        // Each case beside the one-thread stream of its window (`ratio_same_window`).
        for (threads, how, secs, base) in [
            (1, "stream", one, one),
            (1, "stream_read_ahead", ahead, one),
            (1, "stream_window_1", one_small, one_small),
            (2, "stream_window_1_2_at_once", ahead2, one_small),
            (
                2,
                "stream_window_1_1_reader_3_ahead",
                helped_fresh,
                one_small,
            ),
            (2, "stream_2_ranks", two, one),
            (1, "stream_window_1_same_files", one_same, one_same),
            (
                2,
                "stream_window_1_1_reader_3_ahead_same_files",
                helped_same,
                one_same,
            ),
            (1, "stream_window_1_kept", kept1, kept1),
            (2, "stream_window_1_2_at_once_kept", kept2, kept1),
            (2, "stream_window_1_1_reader_3_ahead_kept", helped, kept1),
        ] {
            let versus = python.map_or_else(
                || {
                    " ratio_pyarrow_numpy=n/a (no Python with pyarrow and NumPy could be made)"
                        .to_owned()
                },
                |(py, _)| {
                    format!(
                        " pyarrow_numpy_samples_per_s={py:.0} ratio_pyarrow_numpy={:.2}",
                        N as f64 / median(secs.clone()) / py
                    )
                },
            );
            batchspec_bench::out!(
                "case=parquet codec={name} threads={threads} how={how} samples_per_s={:.0} decoder_samples_per_s={:.0} ratio_decoder={} ratio_stream_one_thread={} ratio_same_window={}{versus}",
                N as f64 / median(secs.clone()),
                N as f64 / median(floor.clone()),
                ratio(floor, secs),
                ratio(one, secs),
                ratio(base, secs)
            );
        }
        batchspec_bench::out!(
            "case=parquet_cores_busy codec={name} stream_window_1_kept={busy1:.2} stream_window_1_2_at_once_kept={busy2:.2} stream_window_1_1_reader_3_ahead_kept={busy_helped:.2} (the process's CPU time over the wall time of the kept streams' timed epochs, all rounds: of the two threads' cores, what the stream kept busy)"
        );
        if let Some((_, py_decoder)) = python {
            batchspec_bench::out!(
                "case=pyarrow_decoder codec={name} samples_per_s={py_decoder:.0} ratio_rust_decoder={:.2}",
                N as f64 / median(floor.clone()) / py_decoder
            );
        }
    }
    pixels(&dir, reps);
    conversion(&dir, reps);
    copy_scaling(reps);
    memory(&dir);
    std::fs::remove_dir_all(&dir).ok();
}

/// The features stored as `u8` pixels (a Parquet `int32` annotated as `u8`, as pyarrow writes
/// a `uint8` array) and served as `f32`s, each converted exactly as it is decoded: a stream
/// kept from epoch to epoch, windows of one row group, beside the crate's decoder of the same
/// file (which gives `u8` arrays, unconverted).
fn pixels(dir: &std::path::Path, reps: usize) {
    let path = dir.join("bench-pixels.parquet");
    batchspec_bench::write_pixels(&path, 0..N, GROUP);
    let (mut kept_one, timed) = kept(&path, 0, None);
    let secs = rounds(reps, N, &mut [&mut || decode(&path), &mut kept_one]);
    let t = timed.borrow();
    let kept1 = &t[t.len() - secs[1].len()..];
    let kept1: Vec<f64> = kept1.iter().map(|&(wall, _)| wall).collect();
    let floor = &secs[0];
    batchspec_bench::out!(
        "case=parquet_pixels codec=none threads=1 how=stream_window_1_kept samples_per_s={:.0} decoder_samples_per_s={:.0} ratio_decoder={} (u8 pixels served as f32)",
        N as f64 / median(kept1.clone()),
        N as f64 / median(floor.clone()),
        ratio(floor, &kept1)
    );
}

/// Rows of the conversion case: 63 MB of `i64`.
const CONVERTED_ROWS: usize = 10_000;

/// The features stored as `i64` in plain pages (no dictionary: what a column of many distinct
/// integers falls back to) and loaded whole into `f32` leaves, each value checked to be exact as
/// it is converted (`Dataset::load`), beside the crate's decoder of the same file (`i64` arrays,
/// unconverted).
fn conversion(dir: &std::path::Path, reps: usize) {
    use arrow_array::{ArrayRef, FixedSizeListArray, Int64Array, RecordBatch};
    use arrow_schema::{DataType, Field, Schema};
    use std::sync::Arc;
    #[derive(batchspec::DataSpec)]
    struct Features {
        #[spec(source = "features")]
        x: batchspec::prelude::Batch<batchspec::prelude::Vector<784>>,
    }
    let path = dir.join("bench-i64-plain.parquet");
    let item = Arc::new(Field::new("item", DataType::Int64, false));
    let list = DataType::FixedSizeList(item.clone(), D as i32);
    let schema = Arc::new(Schema::new(vec![Field::new("features", list, false)]));
    let props = parquet::file::properties::WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_max_row_group_row_count(Some(GROUP))
        .build();
    let file = std::fs::File::create(&path).unwrap();
    let mut writer =
        parquet::arrow::ArrowWriter::try_new(file, schema.clone(), Some(props)).unwrap();
    let values = (0..CONVERTED_ROWS * D).map(|k| (k % 100_003) as i64);
    let values: ArrayRef = Arc::new(Int64Array::from_iter_values(values));
    let x = FixedSizeListArray::try_new(item, D as i32, values, None).unwrap();
    writer
        .write(&RecordBatch::try_new(schema, vec![Arc::new(x)]).unwrap())
        .unwrap();
    writer.close().unwrap();
    let load = || {
        let mut files = ParquetFiles::open(&path).unwrap();
        batchspec::data::Dataset::<Features>::load(&mut files)
            .unwrap()
            .len()
    };
    let secs = rounds(
        reps,
        CONVERTED_ROWS,
        &mut [&mut || decode(&path), &mut { load }],
    );
    let rows = CONVERTED_ROWS as f64;
    batchspec_bench::out!(
        "case=parquet_convert codec=none how=load from=i64_plain to=f32 samples_per_s={:.0} decoder_samples_per_s={:.0} ratio_decoder={} (every value checked exact as it is converted)",
        rows / median(secs[1].clone()),
        rows / median(secs[0].clone()),
        ratio(&secs[0], &secs[1])
    );
    std::fs::remove_file(&path).ok();
}

/// What a second thread gets out of this host's memory, beside the streams' two-thread figures:
/// in each of `reps` rounds, one thread copies a buffer of an epoch's features (N x D f32) into
/// another, then two threads each copy their own pair at once; the ratio is the two copies'
/// bytes per second over the one's. A stream whose window decodes and gathers move that much
/// memory scales no further from one thread to two than this.
fn copy_scaling(reps: usize) {
    let bytes = N * D * 4;
    let pair = || (vec![1u8; bytes], vec![0u8; bytes]);
    let (mut a, mut b) = (pair(), pair());
    let copy = |(src, dst): &mut (Vec<u8>, Vec<u8>)| {
        dst.copy_from_slice(src);
        black_box(&dst[..]);
    };
    // Every page mapped before the first timed copy.
    copy(&mut a);
    copy(&mut b);
    // Seconds for two copies' bytes: twice the one thread's, once the two threads'.
    let (mut one, mut two) = (Vec::with_capacity(reps), Vec::with_capacity(reps));
    for _ in 0..reps {
        let t = Instant::now();
        copy(&mut a);
        one.push(2.0 * t.elapsed().as_secs_f64());
        let t = Instant::now();
        std::thread::scope(|s| {
            s.spawn(|| copy(&mut a));
            copy(&mut b);
        });
        two.push(t.elapsed().as_secs_f64());
    }
    batchspec_bench::out!(
        "case=copy_scaling bytes={bytes} ratio_two_threads={} (two threads each copying an epoch's features at once, over one thread copying them: the host's memory for a second thread)",
        ratio(&one, &two)
    );
}
