//! Files that lie consistently: Parquet files written by pyarrow (the fixtures of
//! `tests/data/parquet`), their footer or a page header re-encoded with a field set to a chosen
//! value by a structure-aware writer (Thrift's compact protocol, read and written back), each
//! read through `Dataset::load`, `ShardPlan::load` and `ParquetStream`. Every one must be an
//! error in words naming the file, with no allocation near what the lie claims: a global
//! allocator records the largest request, and each test asserts it stayed under 64 MiB.
//! `.ci/run` runs this binary under a 2 GiB address-space limit too.
#![cfg(feature = "parquet")]
#![allow(unsafe_code)]

use batchspec::data::Dataset;
use batchspec::load::parquet_thrift::{self as thrift, Value, footer_of, read_struct, set_int};
use batchspec::load::{LoadError, ParquetFiles, ParquetStream, Rank, ShardPlan, TextNulls};
use batchspec::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Forwards to `System`, remembering the largest single request.
struct Largest;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call forwards to `System` with the caller's arguments; the only addition is a
// relaxed atomic maximum, which allocates nothing.
unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc` is `System`'s.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (through `alloc` above).
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        // SAFETY: the caller's contract for `realloc` is `System`'s.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Largest = Largest;

/// The tests share the allocator's record: one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const LIMIT: usize = 64 << 20;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/parquet")
            .join(name),
    )
    .unwrap()
}

/// The file's footer, read with the structure-aware reader, and where it starts.
fn footer(bytes: &[u8]) -> (Value, usize) {
    footer_of(bytes).unwrap()
}

fn with_footer(bytes: &[u8], meta: &Value) -> Vec<u8> {
    thrift::with_footer(bytes, meta).unwrap()
}

/// The footer with `edit` applied.
fn edit_footer(bytes: &[u8], edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let (mut meta, _) = footer(bytes);
    edit(&mut meta);
    with_footer(bytes, &meta)
}

/// Row group `g`'s `num_rows` set to `rows` (and the file's, to stay consistent).
fn rows_claimed(bytes: &[u8], g: usize, rows: i64) -> Vec<u8> {
    edit_footer(bytes, |meta| {
        let groups = meta.field_mut(4).unwrap().list_mut().unwrap();
        set_int(groups[g].field_mut(3).unwrap(), rows);
        set_int(meta.field_mut(3).unwrap(), rows);
    })
}

fn chunk_start(meta: &Value, g: usize, c: usize) -> usize {
    thrift::chunk_start(meta, g, c).unwrap()
}

/// The file with the page header at `at` re-encoded after `edit`, the rest kept consistent.
fn edit_page(bytes: &[u8], at: usize, edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    thrift::edit_page(bytes, at, edit).unwrap()
}

/// A file a test wrote, in a directory of its own that is removed with it.
struct Written {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl std::ops::Deref for Written {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for Written {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

fn write(name: &str, bytes: &[u8]) -> Written {
    let dir = tempfile::Builder::new()
        .prefix("batchspec-hostile-")
        .tempdir()
        .unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    Written { path, _dir: dir }
}

#[derive(DataSpec)]
struct Doubles {
    #[spec(source = "features")]
    x: Batch<Vector<4, f64>>,
    #[spec(source = "targets")]
    y: Batch<Index<3>>,
}

/// Panics anywhere in this process since the hook was installed (a failing test's too: the
/// run fails then anyway).
static PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_panics() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::Relaxed);
            default(info);
        }));
    });
}

/// The three ways in: the whole file, a rank's share, a stream of it; each must be an error
/// naming the file (or, where `ok` is given, load that many rows), and allocate less than
/// [`LIMIT`] at once.
fn refused(path: &Path, words: &[&str]) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    count_panics();
    let panics_before = PANICS.load(Ordering::Relaxed);
    LARGEST.store(0, Ordering::Relaxed);
    let check = |how: &str, e: LoadError| {
        let msg = e.to_string();
        assert!(
            msg.contains(path.file_name().unwrap().to_str().unwrap()),
            "{how}: the error names no file: {msg}"
        );
        for w in words {
            assert!(msg.contains(w), "{how}: `{w}` not in: {msg}");
        }
    };
    let whole = ParquetFiles::open(path).and_then(|mut f| Dataset::<Doubles>::load(&mut f));
    check(
        "Dataset::load",
        whole.err().expect("Dataset::load refuses it"),
    );
    match ParquetFiles::open(path)
        .and_then(|f| ShardPlan::new(&f, Rank::new(0, 1)?).map(|p| (f, p)))
    {
        Err(e) => check("ShardPlan::new", e),
        Ok((files, plan)) => {
            check(
                "ShardPlan::load",
                plan.load::<Doubles>(&files, 0)
                    .err()
                    .expect("plan.load refuses it"),
            );
            let mut stream = ParquetStream::<Doubles>::new(&files, &plan, 0, 4, 1);
            let first = stream
                .next_batch()
                .expect("the stream says why it ends")
                .err()
                .expect("the stream refuses it");
            check("ParquetStream", first);
        }
    }
    // Refused before the decoder, not caught from it: under `panic = "abort"` a panic inside
    // the decoder would be an abort.
    assert_eq!(
        PANICS.load(Ordering::Relaxed),
        panics_before,
        "a panic (caught by the reader's guard) while refusing {}",
        path.display()
    );
    let largest = LARGEST.load(Ordering::Relaxed);
    assert!(
        largest < LIMIT,
        "an allocation of {largest} bytes while refusing {}",
        path.display()
    );
}

#[test]
fn the_fixture_reads_as_it_is_and_through_the_writer_unchanged() {
    let bytes = fixture("fixed_size_list.parquet");
    let (meta, _) = footer(&bytes);
    let same = with_footer(&bytes, &meta);
    assert_eq!(
        same, bytes,
        "the writer re-encodes pyarrow's footer byte for byte"
    );
    let path = write("same.parquet", &same);
    let ds = Dataset::<Doubles>::load(&mut ParquetFiles::open(&path).unwrap()).unwrap();
    assert_eq!(ds.len(), 10);
}

#[test]
fn a_row_group_claiming_a_billion_rows_is_refused_by_the_budget() {
    let path = write(
        "rows_1e9.parquet",
        &rows_claimed(&fixture("fixed_size_list.parquet"), 0, 1_000_000_000),
    );
    refused(&path, &["claims 1000000000 rows", "memory budget"]);
}

#[test]
fn a_row_group_claiming_2_to_the_62_rows_is_refused_without_overflow() {
    let path = write(
        "rows_2e62.parquet",
        &rows_claimed(&fixture("fixed_size_list.parquet"), 0, 1 << 62),
    );
    refused(&path, &["claims 4611686018427387904 rows"]);
}

#[test]
fn row_groups_whose_counts_overflow_their_sum_are_refused() {
    // `uneven.parquet` has 9 row groups; each claims i64::MAX rows.
    let bytes = edit_footer(&fixture("uneven.parquet"), |meta| {
        for g in meta.field_mut(4).unwrap().list_mut().unwrap() {
            set_int(g.field_mut(3).unwrap(), i64::MAX);
        }
    });
    let path = write("rows_overflow.parquet", &bytes);
    let err = ParquetFiles::open(&path)
        .and_then(|f| f.row_groups())
        .expect_err("the footer is refused");
    assert!(err.to_string().contains("add up beyond"), "{err}");
}

#[test]
fn a_negative_row_count_is_refused() {
    let path = write(
        "rows_negative.parquet",
        &rows_claimed(&fixture("fixed_size_list.parquet"), 0, -5),
    );
    refused(&path, &["-5 rows"]);
}

/// A schema of `depth` nested groups around one leaf, as a footer's schema list.
fn deep_schema(depth: usize) -> Value {
    let group = |name: &str, children: i32| {
        Value::Struct(vec![
            (3, Value::I32(0)),
            (4, Value::Binary(name.as_bytes().to_vec())),
            (5, Value::I32(children)),
        ])
    };
    let mut elements = vec![Value::Struct(vec![
        (4, Value::Binary(b"schema".to_vec())),
        (5, Value::I32(1)),
    ])];
    for _ in 0..depth {
        elements.push(group("g", 1));
    }
    elements.push(Value::Struct(vec![
        (1, Value::I32(2)),
        (3, Value::I32(0)),
        (4, Value::Binary(b"features".to_vec())),
    ]));
    Value::List(12, elements)
}

#[test]
fn a_schema_nested_20000_deep_is_refused_before_it_is_converted_even_on_a_small_stack() {
    let bytes = edit_footer(&fixture("fixed_size_list.parquet"), |meta| {
        *meta.field_mut(2).unwrap() = deep_schema(20_000);
    });
    let path = write("deep_schema.parquet", &bytes);
    // A worker thread's stack (the parquet crate's schema reader overflowed 2 MiB at 3,000
    // levels).
    let refused_here = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            ParquetFiles::open(&path)
                .and_then(|mut f| Dataset::<Doubles>::load(&mut f))
                .err()
                .map(|e| e.to_string())
        })
        .unwrap()
        .join()
        .unwrap()
        .expect("the schema is refused");
    assert!(
        refused_here.contains("nests deeper than 64"),
        "{refused_here}"
    );
    assert!(
        refused_here.contains("deep_schema.parquet"),
        "{refused_here}"
    );
}

#[test]
fn a_schema_element_claiming_more_children_than_follow_is_refused() {
    let bytes = edit_footer(&fixture("fixed_size_list.parquet"), |meta| {
        let root = &mut meta.field_mut(2).unwrap().list_mut().unwrap()[0];
        set_int(root.field_mut(5).unwrap(), i64::from(i32::MAX));
    });
    let path = write("children.parquet", &bytes);
    refused(&path, &["claims 2147483647 children"]);
}

#[test]
fn a_page_claiming_to_decompress_to_2_gb_is_refused_before_it_is_decompressed() {
    let bytes = fixture("fixed_size_list.parquet");
    let (meta, _) = footer(&bytes);
    let at = chunk_start(&meta, 0, 0);
    let lying = edit_page(&bytes, at, |h| {
        set_int(h.field_mut(2).unwrap(), i64::from(i32::MAX))
    });
    let path = write("page_2gb.parquet", &lying);
    refused(&path, &["decompress to 2147483647 bytes", "memory budget"]);
}

#[test]
fn a_page_with_a_page_header_rewritten_to_the_same_value_still_reads() {
    // The page editor itself: a header re-encoded unchanged (the same length) reads as before.
    let bytes = fixture("fixed_size_list.parquet");
    let (meta, _) = footer(&bytes);
    let at = chunk_start(&meta, 0, 0);
    let same = edit_page(&bytes, at, |_| {});
    assert_eq!(same, bytes);
}

#[test]
fn a_dictionary_claiming_2_to_the_31_values_is_refused() {
    let bytes = fixture("fixed_size_list.parquet");
    let (meta, _) = footer(&bytes);
    let at = chunk_start(&meta, 0, 0);
    let (header, _) = read_struct(&bytes[at..]).unwrap();
    assert_eq!(
        header.field(1).and_then(Value::int),
        Some(2),
        "pyarrow wrote a dictionary page first"
    );
    let lying = edit_page(&bytes, at, |h| {
        let dict = h.field_mut(7).unwrap();
        set_int(dict.field_mut(1).unwrap(), i64::from(i32::MAX));
    });
    let path = write("dictionary.parquet", &lying);
    refused(&path, &["dictionary claiming 2147483647 values"]);
}

#[test]
fn a_data_page_claiming_2_to_the_31_values_with_its_row_group_is_refused() {
    // The claim of a run-length-encoded page that decodes to 2^31 rows: the row group says so
    // too, so only the budget refuses it.
    let bytes = rows_claimed(&fixture("fixed_size_list.parquet"), 0, 1 << 31);
    let (meta, _) = footer(&bytes);
    let at = chunk_start(&meta, 0, 0);
    let (header, used) = read_struct(&bytes[at..]).unwrap();
    // The first data page: after the dictionary page.
    let compressed = header.field(3).and_then(Value::int).unwrap() as usize;
    let data_at = at + used + compressed;
    let lying = edit_page(&bytes, data_at, |h| {
        let data = h.field_mut(5).unwrap();
        set_int(data.field_mut(1).unwrap(), i64::from(i32::MAX));
    });
    let path = write("rle_bomb.parquet", &lying);
    refused(&path, &["claims 2147483648 rows", "memory budget"]);
}

#[test]
fn a_larger_budget_is_the_users_to_set() {
    // An honest file under a budget too small for it: refused, naming the setting.
    let path = write("honest.parquet", &fixture("fixed_size_list.parquet"));
    let err = Dataset::<Doubles>::load(&mut ParquetFiles::open(&path).unwrap().memory_budget(16))
        .err()
        .unwrap();
    assert!(
        err.to_string().contains("ParquetFiles::memory_budget"),
        "{err}"
    );
    let ds =
        Dataset::<Doubles>::load(&mut ParquetFiles::open(&path).unwrap().memory_budget(1 << 20))
            .unwrap();
    assert_eq!(ds.len(), 10);
}

/// The first data page of column chunk `c` of row group `g` (after the dictionary page pyarrow
/// writes first): where its header starts, where its payload starts, and its header.
fn first_data_page(bytes: &[u8], g: usize, c: usize) -> (usize, usize, Value) {
    let (meta, _) = footer(bytes);
    let at = chunk_start(&meta, g, c);
    let (header, used) = read_struct(&bytes[at..]).unwrap();
    assert_eq!(
        header.field(1).and_then(Value::int),
        Some(2),
        "a dictionary page"
    );
    let data_at = at + used + header.field(3).and_then(Value::int).unwrap() as usize;
    let (header, used) = read_struct(&bytes[data_at..]).unwrap();
    assert_eq!(
        header.field(1).and_then(Value::int),
        Some(0),
        "a v1 data page"
    );
    (data_at, data_at + used, header)
}

#[test]
fn a_bit_packed_run_of_definition_levels_longer_than_its_bytes_is_refused_before_the_decoder() {
    // `targets` (int32, nullable: the one-bit level decoder) of the uncompressed fixture: the
    // page's definition levels are 4 bytes of length (2), then one run of 3 present values
    // ([3 << 1, 1]). Rewritten in the same bytes as a length of 1 and a bit-packed run of one
    // group of 8 levels, whose byte is not there: the crate's decoder reads past the levels
    // (a panic inside arrow-buffer, an abort under `panic = "abort"`).
    let mut bytes = fixture("fixed_size_list.parquet");
    let (_, payload, _) = first_data_page(&bytes, 0, 1);
    assert_eq!(&bytes[payload..payload + 6], &[2, 0, 0, 0, 3 << 1, 1]);
    bytes[payload..payload + 6].copy_from_slice(&[1, 0, 0, 0, (1 << 1) | 1, 0]);
    let path = write("bit_packed_levels.parquet", &bytes);
    refused(
        &path,
        &[
            "row group 0, column 1",
            "definition levels",
            "bit-packed run",
            "need 1 bytes; 0 are left",
        ],
    );
}

#[test]
fn byte_stream_split_values_fewer_than_their_levels_are_refused_before_the_decoder() {
    // The same page's header rewritten to say its values are BYTE_STREAM_SPLIT: the 3 present
    // int32 values need 12 bytes, the page holds the dictionary indices' 2 (the crate's
    // decoder indexes past them).
    let bytes = fixture("fixed_size_list.parquet");
    let (at, _, _) = first_data_page(&bytes, 0, 1);
    let lying = edit_page(&bytes, at, |h| {
        set_int(h.field_mut(5).unwrap().field_mut(2).unwrap(), 9)
    });
    let path = write("byte_stream_split.parquet", &lying);
    refused(
        &path,
        &[
            "row group 0, column 1",
            "3 values of 4 bytes are present (BYTE_STREAM_SPLIT",
        ],
    );
}

/// The text fixture `name` of the text package (written by pyarrow).
fn text_fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../text/tests/data")
            .join(name),
    )
    .unwrap()
}

/// Reads the text column `text` of every row group of `path`: the first error, with no panic
/// (caught or not) on the way.
fn texts_refused(path: &Path, words: &[&str]) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    count_panics();
    let panics_before = PANICS.load(Ordering::Relaxed);
    let files = ParquetFiles::open(path).unwrap();
    let err = files
        .row_groups()
        .unwrap()
        .into_iter()
        .find_map(|g| files.read_texts(g, "text", "text", TextNulls::Refuse).err())
        .expect("a read refuses it")
        .to_string();
    for w in words {
        assert!(err.contains(w), "`{w}` not in: {err}");
    }
    assert_eq!(
        PANICS.load(Ordering::Relaxed),
        panics_before,
        "a panic while refusing {}",
        path.display()
    );
}

#[test]
fn a_text_dictionary_of_no_values_holding_bytes_is_refused_before_the_decoder_divides_by_zero() {
    // pyarrow writes a dictionary page first in each chunk of the text column.
    let bytes = text_fixture("small.parquet");
    let (meta, _) = footer(&bytes);
    let at = chunk_start(&meta, 0, 0);
    let (header, _) = read_struct(&bytes[at..]).unwrap();
    assert_eq!(
        header.field(1).and_then(Value::int),
        Some(2),
        "a dictionary page"
    );
    let lying = edit_page(&bytes, at, |h| {
        set_int(h.field_mut(7).unwrap().field_mut(1).unwrap(), 0)
    });
    texts_refused(
        &write("text_dictionary.parquet", &lying),
        &["dictionary claiming 0 values"],
    );
}

#[test]
fn a_text_data_page_of_no_values_holding_bytes_is_refused_before_the_decoder_divides_by_zero() {
    // No dictionary here: the data page's values are PLAIN byte arrays.
    let bytes = text_fixture("invalid-utf8.parquet");
    let (meta, _) = footer(&bytes);
    let at = chunk_start(&meta, 0, 0);
    let (header, _) = read_struct(&bytes[at..]).unwrap();
    assert_eq!(header.field(1).and_then(Value::int), Some(0), "a data page");
    let lying = edit_page(&bytes, at, |h| {
        set_int(h.field_mut(5).unwrap().field_mut(1).unwrap(), 0)
    });
    texts_refused(&write("text_page.parquet", &lying), &["claims no values"]);
}
