//! A Parquet stream's steady state allocates nothing: `fill_next` on rows already read writes
//! the batch, converted, into the request without touching the heap (reading a window is the
//! decoder's business, and it allocates); and a window of several row groups is read into one
//! allocation per leaf, not grown row group by row group. Its own test binary, so the counting
//! allocator sees only this.
#![cfg(feature = "parquet")]

use batchspec::load::{ParquetFiles, ParquetStream, Rank, ShardPlan};
use batchspec::prelude::*;

#[path = "../../tests/common/mod.rs"]
mod common;

#[global_allocator]
static GLOBAL: common::Counting = common::Counting;

#[derive(DataSpec)]
struct Ids {
    #[spec(source = "id")]
    id: Batch<Index<100>>,
}

#[derive(DataSpec)]
struct OneHot {
    #[spec(source = "id")]
    id: Batch<Vector<100>>,
}

#[test]
fn fill_next_allocates_nothing_between_windows() {
    // `uneven.parquet`: 33 ids in 9 row groups of 5, 3, 7, 1, 4, 3, 2, 6, 2 rows.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/parquet/uneven.parquet"
    );
    let files = ParquetFiles::open(path).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap())
        .unwrap()
        .shuffle(5);
    let mut stream = ParquetStream::<Ids>::new(&files, &plan, 0, 2, 3);
    let mut out = OneHot {
        id: Batch::zeros(2, 0),
    };
    let (mut quiet, mut rows) = (0, 0);
    loop {
        // Enough rows held for the batch: no window is read by this call.
        let held = stream.buffered() >= 2.min(stream.remaining());
        let before = common::allocations();
        let Some(n) = stream.fill_next(&mut out) else {
            break;
        };
        let allocated = common::allocations() - before;
        rows += n.unwrap();
        if held {
            assert_eq!(allocated, 0, "a batch from rows already read allocated");
            quiet += 1;
        }
    }
    assert_eq!(rows, 33);
    assert!(
        quiet >= 10,
        "most batches come from rows already read ({quiet})"
    );
}

#[derive(DataSpec)]
struct Wide {
    #[spec(source = "x")]
    x: Batch<Vector<256>>,
}

/// Serializes the tests that count large allocations of every thread.
static LARGE_COUNTED: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// 4 row groups of 1024 rows of 256 f32 (1 MiB of values each; value `k` at flat position `k`),
/// written by the `parquet` crate in pages of 128 rows, so that no buffer of the decoder's
/// reaches a mebibyte.
fn write_wide(dir: &std::path::Path) -> std::path::PathBuf {
    use arrow_array::types::Float32Type;
    use arrow_array::{FixedSizeListArray, PrimitiveArray, RecordBatch};
    use arrow_schema::{DataType, Field, Schema};
    use parquet::arrow::ArrowWriter;
    use parquet::file::properties::WriterProperties;
    use std::sync::Arc;

    let (rows, per, group) = (WIDE_ROWS, WIDE_VALUES, WIDE_GROUP);
    let item = Arc::new(Field::new("item", DataType::Float32, false));
    let flat: PrimitiveArray<Float32Type> = (0..rows * per).map(|i| i as f32).collect();
    let column =
        FixedSizeListArray::try_new(item.clone(), per as i32, Arc::new(flat), None).unwrap();
    let schema = Arc::new(Schema::new(vec![Field::new(
        "x",
        DataType::FixedSizeList(item, per as i32),
        false,
    )]));
    let props = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_data_page_row_count_limit(128)
        .set_write_batch_size(128)
        .set_max_row_group_row_count(Some(group))
        .build();
    let path = dir.join("wide.parquet");
    let mut writer = ArrowWriter::try_new(
        std::fs::File::create(&path).unwrap(),
        schema.clone(),
        Some(props),
    )
    .unwrap();
    writer
        .write(&RecordBatch::try_new(schema, vec![Arc::new(column)]).unwrap())
        .unwrap();
    writer.close().unwrap();
    path
}

const WIDE_ROWS: usize = 4096;
const WIDE_VALUES: usize = 256;
const WIDE_GROUP: usize = 1024;
/// The bytes of a row group's values: a window of one row group's memory.
const WIDE_GROUP_BYTES: usize = WIDE_GROUP * WIDE_VALUES * 4;

fn temp_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("batchspec-window-alloc-")
        .tempdir()
        .unwrap()
}

#[test]
fn a_window_of_row_groups_is_read_into_one_allocation() {
    let _alone = LARGE_COUNTED.lock().unwrap_or_else(|e| e.into_inner());
    let dir = temp_dir();
    let files = ParquetFiles::open(write_wide(dir.path())).unwrap();
    let groups = files.row_groups().unwrap();
    assert_eq!(groups.len(), 4);
    // The window of the four row groups, as a stream reads it.
    let mut window = files.select_row_groups(&groups);
    let before = common::large_allocations();
    let read = batchspec::data::Dataset::<Wide>::load(&mut window).unwrap();
    let large = common::large_allocations() - before;
    // One allocation of the window's 4 MiB; reserving a row group at a time grew the vector
    // through 1, 2 and 4 MiB (three, each a copy of what was read).
    assert_eq!(large, 1, "large allocations while reading the window");
    let (rows, per) = (WIDE_ROWS, WIDE_VALUES);
    let x = read.fields().x.array();
    assert_eq!(x.dim(), (rows, per));
    assert_eq!(x[[rows - 1, per - 1]], (rows * per - 1) as f32);
    assert_eq!(x[[WIDE_GROUP, 0]], (WIDE_GROUP * per) as f32);
}

#[test]
fn a_kept_stream_reads_ahead_into_the_memory_of_the_windows_it_served() {
    // Windows of one row group (1 MiB), one to three read ahead, on one reading thread beside
    // the serving one or on one a window: every window in flight has its memory back once
    // served, so over six epochs the stream asks the allocator for no more than the windows it
    // holds at once (those ahead and one), whichever thread reads them. Keeping one window's memory alone, the reads ahead took fresh
    // memory for most windows of every epoch (the system allocator may give it back to the
    // system and fault it in again).
    let _alone = LARGE_COUNTED.lock().unwrap_or_else(|e| e.into_inner());
    let dir = temp_dir();
    let files = ParquetFiles::open(write_wide(dir.path())).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap())
        .unwrap()
        .shuffle(3);
    for (windows, threads) in [(1, 1), (2, 1), (2, 2), (3, 1), (3, 3)] {
        // Each case from its first allocation: not into the memory the case before passed on,
        // nor into what another test's files left lingering.
        files.release_kept_memory();
        ParquetFiles::release_lingering_memory();
        let mut stream = ParquetStream::<Wide>::new(&files, &plan, 0, 100, 1)
            .read_ahead_windows(windows)
            .reading_threads(threads);
        let mut out = Wide {
            x: Batch::zeros(100, 0),
        };
        let (mut large, first) = (Vec::new(), common::large_allocations_all_threads());
        for epoch in 0..6 {
            stream.start_epoch(epoch);
            let before = common::large_allocations_all_threads();
            let mut rows = 0;
            while let Some(n) = stream.fill_next(&mut out) {
                rows += n.unwrap();
            }
            assert_eq!(rows, WIDE_ROWS);
            large.push(common::large_allocations_all_threads() - before);
        }
        // The stream dropped waits for the windows its threads are reading (the next epoch's
        // first ones, read ahead during the last): no read of this case's asks for memory during
        // the next case.
        drop(stream);
        // The memory of the windows in flight (as many as `windows + 1` at once: those ahead and
        // the one served, or one more ahead once the served one gave its memory back) is taken
        // once, in the epochs in which the threads' timing first puts that many in flight, and
        // never again.
        let all = common::large_allocations_all_threads() - first;
        let case =
            format!("{windows} windows, {threads} threads: {all} in all, by epoch {large:?}");
        assert!(large[0] > 0, "{case}");
        assert!(all <= windows + 1, "{case}");
        // Each window's memory passed to the files when the stream was dropped, those read ahead
        // included: none was lost with a read still going on.
        assert_eq!(
            files.release_kept_memory(),
            all * WIDE_GROUP_BYTES,
            "{case}"
        );
    }
}

/// Every value `stream` serves, in order, into `values` (cleared first; it holds them all without
/// growing, so that the test's own memory is not counted).
fn served(mut stream: ParquetStream<Wide>, values: &mut Vec<f32>) {
    let mut out = Wide {
        x: Batch::zeros(100, 0),
    };
    values.clear();
    while let Some(n) = stream.fill_next(&mut out) {
        let n = n.unwrap();
        values.extend(out.x.array().outer_iter().take(n).flatten().copied());
    }
}

/// The large allocations of each epoch (`large`) of streams `windows` ahead: the first epoch's
/// windows always, and then, when memory was `reused`, no more than the windows one stream holds
/// at once in all epochs; else some in every epoch.
fn assert_epochs_reused(large: &[usize], windows: usize, reused: bool, case: &str) {
    assert!(large[0] > 0, "{case}");
    if reused {
        assert!(large.iter().sum::<usize>() <= windows + 1, "{case}");
    } else {
        assert!(large.iter().all(|&n| n > 0), "{case}");
    }
}

#[test]
fn a_stream_made_after_another_from_the_same_files_reads_into_the_memory_it_passed_on() {
    // A loop that makes a stream for each epoch from the same files, windows of one row group
    // (1 MiB), none to three read ahead: the memory of a dropped stream's windows passes to the
    // files, and the streams after it read into it, so four epochs ask the allocator for no
    // more than the windows one stream holds at once. With that memory freed before each stream
    // (`release_kept_memory`), every epoch asks for its windows afresh. Either way each stream
    // serves what a stream of files opened afresh serves.
    let _alone = LARGE_COUNTED.lock().unwrap_or_else(|e| e.into_inner());
    let dir = temp_dir();
    let path = write_wide(dir.path());
    let files = ParquetFiles::open(&path).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap())
        .unwrap()
        .shuffle(3);
    let make = |files: &ParquetFiles, epoch: u64, windows: usize, threads: usize| {
        let stream = ParquetStream::<Wide>::new(files, &plan, epoch, 100, 1);
        if windows == 0 {
            stream
        } else {
            stream.read_ahead_windows(windows).reading_threads(threads)
        }
    };
    for (windows, threads) in [(0, 1), (1, 1), (3, 1), (2, 2)] {
        for pass_on in [true, false] {
            files.release_kept_memory();
            ParquetFiles::release_lingering_memory();
            let mut large = Vec::new();
            let (mut expected, mut values) = (Vec::new(), Vec::new());
            expected.reserve_exact(WIDE_ROWS * WIDE_VALUES);
            values.reserve_exact(WIDE_ROWS * WIDE_VALUES);
            for epoch in 0..4 {
                if !pass_on {
                    files.release_kept_memory();
                }
                let fresh = ParquetFiles::open(&path).unwrap();
                served(make(&fresh, epoch, windows, threads), &mut expected);
                // The fresh files' stream passed its memory to them, left lingering when they
                // are dropped: freed here, not counted.
                drop(fresh);
                ParquetFiles::release_lingering_memory();
                let before = common::large_allocations_all_threads();
                served(make(&files, epoch, windows, threads), &mut values);
                large.push(common::large_allocations_all_threads() - before);
                let case = format!("{windows} windows ahead on {threads} threads, epoch {epoch}");
                assert_eq!(values.len(), WIDE_ROWS * WIDE_VALUES, "{case}");
                assert!(
                    values == expected,
                    "{case}: other values than a fresh stream's"
                );
            }
            let case = format!(
                "{windows} windows ahead on {threads} threads, passed on: {pass_on}, by epoch {large:?}"
            );
            assert_epochs_reused(&large, windows, pass_on, &case);
        }
    }
}

#[test]
fn files_opened_afresh_read_into_the_memory_the_files_dropped_before_them_left_lingering() {
    // A loop that opens its files afresh for each epoch, windows of one row group (1 MiB), none
    // to three read ahead: the files dropped leave the memory their stream passed on lingering
    // for a second, and the next files' stream reads into it, so four epochs ask the allocator
    // for no more than the windows one stream holds at once, as with files opened once. With the
    // lingering memory freed before each epoch, every epoch asks for its windows afresh. Left
    // alone, it is freed by the time it lingers.
    let _alone = LARGE_COUNTED.lock().unwrap_or_else(|e| e.into_inner());
    let dir = temp_dir();
    let path = write_wide(dir.path());
    let epoch_of = |epoch: u64, windows: usize, threads: usize, values: &mut Vec<f32>| {
        let files = ParquetFiles::open(&path).unwrap();
        let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap())
            .unwrap()
            .shuffle(3);
        let stream = ParquetStream::<Wide>::new(&files, &plan, epoch, 100, 1);
        let stream = if windows == 0 {
            stream
        } else {
            stream.read_ahead_windows(windows).reading_threads(threads)
        };
        served(stream, values);
    };
    let mut values = Vec::with_capacity(WIDE_ROWS * WIDE_VALUES);
    for (windows, threads) in [(0, 1), (1, 1), (3, 1), (2, 2)] {
        for linger in [true, false] {
            ParquetFiles::release_lingering_memory();
            let mut large = Vec::new();
            for epoch in 0..4 {
                if !linger {
                    ParquetFiles::release_lingering_memory();
                }
                let before = common::large_allocations_all_threads();
                epoch_of(epoch, windows, threads, &mut values);
                large.push(common::large_allocations_all_threads() - before);
                assert_eq!(values.len(), WIDE_ROWS * WIDE_VALUES);
            }
            let case = format!(
                "{windows} windows ahead on {threads} threads, lingering: {linger}, by epoch {large:?}"
            );
            assert_epochs_reused(&large, windows, linger, &case);
        }
    }
    // Left alone, the memory of the files dropped is freed by a thread once its second is up.
    ParquetFiles::release_lingering_memory();
    epoch_of(0, 1, 1, &mut values);
    let dropped = std::time::Instant::now();
    assert!(ParquetFiles::lingering_memory() >= WIDE_GROUP_BYTES);
    while ParquetFiles::lingering_memory() > 0 {
        assert!(
            dropped.elapsed() < std::time::Duration::from_secs(30),
            "the lingering memory was not freed"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let lingered = dropped.elapsed();
    assert!(
        lingered >= std::time::Duration::from_millis(950),
        "the memory lingered {lingered:?}, not a second"
    );
}
