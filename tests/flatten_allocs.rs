//! Flatten and nest of a three-level spec are plain moves: a counting allocator sees none.

use batchspec::prelude::*;
use ndarray::Array2;
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
struct Level3 {
    #[spec(source = "mask")]
    m: Batch<Vector<2>>,
}

#[derive(DataSpec)]
struct Level2 {
    #[spec(source = "targets")]
    y: Batch<Index<4>>,
    deeper: Level3,
}

#[derive(DataSpec)]
struct Level1 {
    #[spec(source = "features")]
    x: Batch<Vector<3>>,
    inner: Level2,
    pair: (Level3, Null),
}

#[test]
fn flatten_and_nest_allocate_nothing() {
    let spec = Level1 {
        x: Batch::new(Array2::zeros((8, 3))).unwrap(),
        inner: Level2 {
            y: Batch::new(Array2::zeros((8, 1))).unwrap(),
            deeper: Level3 {
                m: Batch::new(Array2::zeros((8, 2))).unwrap(),
            },
        },
        pair: (
            Level3 {
                m: Batch::new(Array2::zeros((8, 2))).unwrap(),
            },
            Null,
        ),
    };
    // A control: the counter does see an allocation.
    let before = ALLOCS.load(Ordering::SeqCst);
    drop(std::hint::black_box(vec![1u8; 16]));
    assert_eq!(ALLOCS.load(Ordering::SeqCst), before + 1);

    let before = ALLOCS.load(Ordering::SeqCst);
    let mut spec = spec;
    for _ in 0..1000 {
        let flat = std::hint::black_box(spec.flatten());
        spec = Level1::nest(flat);
    }
    let refs = std::hint::black_box(spec.flatten_ref());
    let _ = refs;
    assert_eq!(
        ALLOCS.load(Ordering::SeqCst),
        before,
        "flatten / nest allocated"
    );
}
