//! A provider's steady state allocates nothing: the batch buffer, the row list and the shuffle
//! order are reused from epoch to epoch.

use batchspec::dataset::Dataset;
use batchspec::iteration::{LastBatch, Schedule};
use batchspec::prelude::*;
use batchspec::provider::Provider;
use ndarray::{Array2, Array4};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this layout, in `alloc` above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![4, 4, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<10, 1, u8>>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "features")]
    x: Batch<Vector<16>>,
    #[spec(source = "targets")]
    y: Batch<Vector<10>>,
}

#[test]
fn shuffled_padded_epochs_allocate_nothing_after_the_first() {
    let n = 103;
    let ds = Dataset::new(Record {
        image: Batch::new(Array4::from_shape_fn((n, 4, 4, 1), |(i, h, w, _)| {
            (i + h + w) as u8
        }))
        .unwrap(),
        label: Batch::new(Array2::from_shape_fn((n, 1), |(i, _)| (i % 10) as u8)).unwrap(),
    })
    .unwrap();
    for policy in [LastBatch::Pad, LastBatch::Short, LastBatch::RollOver] {
        let schedule = Schedule::builder(n)
            .batch_size(8)
            .shuffle(true)
            .seed(5)
            .last_batch(policy)
            .build()
            .unwrap();
        let mut p = Provider::<Record, Request>::new(&ds, schedule).unwrap();
        let mut checksum = 0.0f32;
        let mut run_epoch = |p: &mut Provider<'_, Record, Request>, e: u64| {
            p.start_epoch(e);
            while let Some(b) = p.next_batch() {
                checksum += b.batch.x.array()[[0, 0]] + b.batch.y.array()[[0, 0]];
            }
        };
        run_epoch(&mut p, 0);
        run_epoch(&mut p, 1);
        let before = ALLOCS.load(Ordering::SeqCst);
        for e in 2..6 {
            run_epoch(&mut p, e);
        }
        assert_eq!(
            ALLOCS.load(Ordering::SeqCst),
            before,
            "{policy:?}: a steady-state epoch allocated"
        );
        std::hint::black_box(checksum);
    }
    // A control: the counter sees allocations.
    let before = ALLOCS.load(Ordering::SeqCst);
    drop(std::hint::black_box(Vec::<u8>::with_capacity(8)));
    assert!(ALLOCS.load(Ordering::SeqCst) > before);
}
