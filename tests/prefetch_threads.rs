//! 1000 prefetching providers (lending and giving away their batches) made and dropped mid-epoch
//! leave no thread and no memory behind (a process of its own, so that other tests' threads and
//! allocations do not count).

// A counting allocator: `unsafe impl GlobalAlloc`, forwarding to `System`.
#![allow(unsafe_code)]

use batchspec::data::Dataset;
use batchspec::data::Prefetch;
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::{Duration, Instant};

/// Counts the bytes allocated and not yet freed, in the whole process.
struct Live;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is forwarded unchanged to `System`, which upholds `GlobalAlloc`'s contract.
unsafe impl GlobalAlloc for Live {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::SeqCst);
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::SeqCst);
        // SAFETY: `ptr` was allocated by `System` with this layout, in `alloc` above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Live = Live;

#[derive(DataSpec)]
struct Mx {
    #[spec(source = "data")]
    data: Batch<Vector<2>>,
    #[spec(source = "softmax_label")]
    label: Batch<Labels<100>>,
}

/// The threads of this process, from the kernel.
fn threads() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux's /proc");
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("a thread count")
}

#[test]
fn a_thousand_prefetching_providers_leave_no_thread() {
    let ds = Arc::new(
        Dataset::new(Mx {
            data: Batch::new(ndarray::Array2::from_shape_fn((100, 2), |(i, j)| {
                (i + j) as f32
            }))
            .unwrap(),
            label: Batch::new(ndarray::Array1::from_iter(0..100i64)).unwrap(),
        })
        .unwrap(),
    );
    let cycle = |i: u64| {
        let schedule = Schedule::builder(100)
            .batch_size(8)
            .shuffle(true)
            .seed(i)
            .build()
            .unwrap();
        // Some are dropped before any batch, some mid-epoch; every other one gives its batches
        // away.
        if i.is_multiple_of(2) {
            let mut p = Prefetch::<Mx>::provider(Arc::clone(&ds), schedule, 0..3, 2);
            for _ in 0..(i % 4) {
                assert!(p.next_batch().unwrap().is_ok());
            }
        } else {
            let mut p = Prefetch::<Mx>::owned_provider(Arc::clone(&ds), schedule, 0..3, 2);
            for _ in 0..(i % 4) {
                assert!(p.next_owned().unwrap().is_ok());
            }
        }
    };
    let settled = |before: usize| {
        let started = Instant::now();
        while threads() > before && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    // A few cycles first, so that what the standard library allocates once is counted before.
    let before = threads();
    (0..8).for_each(cycle);
    settled(before);
    let bytes = LIVE.load(Ordering::SeqCst);
    (0..1000).for_each(cycle);
    // Every worker stopped (joined by its drop, or ending on its own just after).
    settled(before);
    assert_eq!(threads(), before);
    let leaked = LIVE.load(Ordering::SeqCst) - bytes;
    assert!(
        leaked < 4096,
        "{leaked} bytes more are allocated after 1000 cycles"
    );
}
