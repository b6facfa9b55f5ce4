//! Global allocators for tests: one that counts allocations, for the tests that show a path
//! allocates nothing (counted per thread: a test sees only its own), and one that fills new
//! memory with a pattern, for the tests that show a path writes every value it hands out.

// A counting allocator: `unsafe impl GlobalAlloc`, forwarding to `System`.
#![allow(unsafe_code)]
// Each test binary uses one of the allocators.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts every allocation, then forwards it to the system allocator.
pub struct Counting;

thread_local! {
    // Per thread, so that the test harness's own threads never count. A `const` thread-local
    // of a `Cell<usize>` needs no allocation and no destructor, so the allocator may use it.
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
    // Allocations of at least `LARGE` bytes.
    static LARGE_ALLOCS: Cell<usize> = const { Cell::new(0) };
}

/// What [`large_allocations`] counts: allocations of at least a mebibyte.
pub const LARGE: usize = 1 << 20;

// Allocations of at least `LARGE` bytes by every thread of the process (a library's own
// threads included).
static LARGE_ALL_THREADS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to `System`, which upholds `GlobalAlloc`'s contract.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.with(|n| n.set(n.get() + 1));
        if layout.size() >= LARGE {
            LARGE_ALLOCS.with(|n| n.set(n.get() + 1));
            LARGE_ALL_THREADS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this layout, in `alloc` above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// The number of allocations made by this thread so far.
pub fn allocations() -> usize {
    ALLOCS.with(Cell::get)
}

/// The number of allocations of at least [`LARGE`] bytes made by this thread so far (a
/// reallocation counts as a new allocation of its new size).
pub fn large_allocations() -> usize {
    LARGE_ALLOCS.with(Cell::get)
}

/// The number of allocations of at least [`LARGE`] bytes made by every thread of the process so
/// far: a test that counts them runs alone among the tests of its binary that allocate as much.
pub fn large_allocations_all_threads() -> usize {
    LARGE_ALL_THREADS.load(Ordering::Relaxed)
}

/// Fills every new allocation (not the zeroed ones) with the byte 0xA5 before it is handed out,
/// so that a value a path leaves unwritten reads as that pattern, never as a lucky zero.
pub struct Poisoned;

// SAFETY: every call is forwarded to `System`, which upholds `GlobalAlloc`'s contract; `alloc`
// only writes the bytes of the block it returns.
unsafe impl GlobalAlloc for Poisoned {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            // SAFETY: `p` is a fresh block of `layout.size()` bytes, ours to write.
            unsafe { p.write_bytes(0xA5, layout.size()) };
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this layout, in `alloc` above.
        unsafe { System.dealloc(ptr, layout) }
    }
}
