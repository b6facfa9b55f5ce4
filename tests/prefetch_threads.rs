//! 1000 prefetching providers made and dropped mid-epoch leave no thread behind (a process of
//! its own, so that other tests' threads do not count).

use batchspec::dataset::Dataset;
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use batchspec::provider::Prefetch;
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    let before = threads();
    for i in 0..1000u64 {
        let schedule = Schedule::builder(100)
            .batch_size(8)
            .shuffle(true)
            .seed(i)
            .build()
            .unwrap();
        let mut p = Prefetch::<Mx>::provider(Arc::clone(&ds), schedule, 0..3, 2);
        // Some are dropped before any batch, some mid-epoch.
        for _ in 0..(i % 4) {
            assert!(p.next_batch().unwrap().is_ok());
        }
    }
    // Every worker stopped (joined by its drop, or ending on its own just after).
    let started = Instant::now();
    while threads() > before && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(threads(), before);
}
