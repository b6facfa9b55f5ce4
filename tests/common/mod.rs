//! A global allocator that counts allocations, for the tests that show a path allocates nothing.
//! Allocations are counted per thread: a test sees only its own.

// A counting allocator: `unsafe impl GlobalAlloc`, forwarding to `System`.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts every allocation, then forwards it to the system allocator.
pub struct Counting;

thread_local! {
    // Per thread, so that the test harness's own threads never count. A `const` thread-local
    // of a `Cell<usize>` needs no allocation and no destructor, so the allocator may use it.
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds `GlobalAlloc`'s contract.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.with(|n| n.set(n.get() + 1));
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
