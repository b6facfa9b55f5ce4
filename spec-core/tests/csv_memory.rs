//! The CSV loader streams: loading a file holds the loaded arrays and a buffer, never the file
//! or its records (it used to peak at 16 × the file). A process of its own, so that the peak
//! counts this test's allocations only.

// A counting allocator: `unsafe impl GlobalAlloc`, forwarding to `System`.
#![allow(unsafe_code)]

use batchspec::data::Dataset;
use batchspec::load::{Column, CsvFile};
use batchspec::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts the bytes allocated and not yet freed, and their peak.
struct Peak;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to `System`, which upholds `GlobalAlloc`'s contract.
unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = LIVE.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
        PEAK.fetch_max(now, Ordering::SeqCst);
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
        // SAFETY: `ptr` was allocated by `System` with this layout, in `alloc` above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Peak = Peak;

#[derive(DataSpec)]
struct Digits {
    #[spec(source = "features")]
    x: Batch<Vector<64, u8>>,
    #[spec(source = "targets")]
    y: Batch<Labels<10, u8>>,
}

#[test]
fn loading_a_csv_file_holds_the_arrays_not_the_file() {
    let n = 20_000;
    let mut text = String::with_capacity(n * 200);
    for i in 0..n {
        for j in 0..64 {
            text.push_str(&((i * 7 + j * 13) % 256).to_string());
            text.push(',');
        }
        text.push_str(&(i % 10).to_string());
        text.push_str("\r\n");
    }
    let dir = std::env::temp_dir().join(format!("batchspec-csv-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("digits.csv");
    std::fs::write(&path, &text).unwrap();
    let file_bytes = text.len();
    drop(text);

    let before = LIVE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let ds = Dataset::<Digits>::load(&mut CsvFile::new(&path).label_column(Column::Last)).unwrap();
    let peak = PEAK.load(Ordering::SeqCst) - before;
    let _ = std::fs::remove_dir_all(&dir);

    let arrays = n * 64 + n;
    eprintln!("peak {peak} bytes for {arrays} bytes of arrays from a file of {file_bytes} bytes");
    assert_eq!(ds.len(), n);
    assert_eq!(ds.fields().x.array()[[3, 2]], (3 * 7 + 2 * 13) as u8);
    assert_eq!(ds.fields().y.array()[19_999], 9);
    // The arrays, at most once more while the values are sized, and the reader's buffers.
    assert!(
        peak <= 2 * arrays + (256 << 10),
        "peak {peak} bytes for {arrays} bytes of arrays from a file of {file_bytes} bytes"
    );
}
