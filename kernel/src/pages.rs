//! Memory backing: asking the kernel for 2 MB pages under a leaf's values.
//!
//! A shuffled gather reads rows at random places of a leaf of hundreds of megabytes; with 4 KB
//! pages nearly every row costs a page-table walk, with 2 MB pages the whole leaf fits the
//! translation cache. Linux backs memory with 2 MB pages where a range is advised
//! (`MADV_HUGEPAGE`, what NumPy asks for its arrays of 4 MB or more) when the system's
//! transparent huge pages are `madvise` or `always`; memory already written is moved onto them
//! by `MADV_COLLAPSE` (Linux 6.1). Neither changes a value. Elsewhere these are no-ops.

/// The size of a huge page on the machines this asks for them (x86-64 and aarch64 Linux).
pub const HUGE_PAGE: usize = 2 << 20;

/// Memory of at least this many bytes is asked for 2 MB pages (NumPy's threshold for the same
/// advice): the leaves of a dataset ([`advise_huge_pages`]) and the new vectors an owned batch is
/// written into ([`vec_for_writing`]).
pub const HUGE_PAGE_MIN_BYTES: usize = 4 << 20;

/// An empty vector with room for `len` values, its room asked for 2 MB pages
/// ([`advise_huge_pages`]) before anything is written to it when it is [`HUGE_PAGE_MIN_BYTES`]
/// or more: what an owned batch is written into.
///
/// A batch of more than 32 MB (256 images of `224 × 224 × 3` `f32`: 154 MB) is memory glibc
/// maps afresh for each allocation and unmaps when it is freed, so every batch given away
/// faults each of its pages in on its first write. On 4 KB pages that costs more than the
/// gather itself: measured on the AMD EPYC host with 512 KiB of L2 (a scratch loop of 154 MB
/// batches gathered from `u8` rows into `f32`), 117–131 ms a batch on 4 KB pages, 24–25 ms on
/// 2 MB pages, 19–22 ms into one vector reused. In the `gather` bench's `case=owned_images` on
/// the same host, `Provider::next_owned` of such batches went from 0.12 to 0.59–0.61 × the same
/// provider's lent batch (a cast, each value written once; 0.10 to 0.48–0.49 for a transpose,
/// gathered into zeros, which `calloc` gives untouched).
///
/// ```
/// let mut v = batchspec_kernel::vec_for_writing::<f32>(3);
/// assert!(v.is_empty() && v.capacity() >= 3);
/// v.extend([1.0, 2.0, 3.0]);
/// ```
#[must_use]
pub fn vec_for_writing<B>(len: usize) -> Vec<B> {
    let mut v: Vec<B> = Vec::with_capacity(len);
    let room = &v.spare_capacity_mut()[..len];
    if core::mem::size_of_val(room) >= HUGE_PAGE_MIN_BYTES {
        advise_huge_pages(room, false);
    }
    v
}

/// Asks the kernel to back the 2 MB-aligned part of `values` with 2 MB pages; with `collapse`,
/// also to move what is already there onto them now (a copy made by the kernel, about a
/// millisecond or two per megabyte on the machine measured here). Returns the bytes advised
/// (0 when `values` spans no aligned 2 MB page, on other systems, or when the kernel refused).
/// The values are unchanged either way.
pub fn advise_huge_pages<E>(values: &[E], collapse: bool) -> usize {
    let start = values.as_ptr() as usize;
    let end = start + core::mem::size_of_val(values);
    let (first, last) = (
        start.next_multiple_of(HUGE_PAGE),
        end / HUGE_PAGE * HUGE_PAGE,
    );
    if last <= first {
        return 0;
    }
    advise(first, last - first, collapse)
}

#[cfg(target_os = "linux")]
fn advise(at: usize, len: usize, collapse: bool) -> usize {
    // SAFETY: `at..at + len` lies inside the slice the caller borrows, so it is mapped memory
    // of this process for the call; `madvise` with these advices changes how pages are backed,
    // never their contents, and reads or writes no memory of ours.
    let advised = unsafe { libc::madvise(at as *mut libc::c_void, len, libc::MADV_HUGEPAGE) };
    if advised != 0 {
        return 0;
    }
    if collapse {
        // Best effort: refused on kernels before 6.1 or when no 2 MB page can be found; the
        // range stays advised, so the kernel may still collapse it later.
        // SAFETY: as above.
        let _ = unsafe { libc::madvise(at as *mut libc::c_void, len, libc::MADV_COLLAPSE) };
    }
    len
}

#[cfg(not(target_os = "linux"))]
fn advise(_: usize, _: usize, _: bool) -> usize {
    0
}

/// Asks the processor to start reading `values` (at most their first 4 KB) into its level-2
/// cache (a hint: no value is read or changed, and nothing happens on processors without the
/// instruction). A gather of rows at random places asks this for the row two rows ahead of
/// the one it copies, or for that row's first lines only, as its calibration finds faster
/// ([`Tuning::prefetch_lines`](crate::Tuning)).
///
/// The hint is `prefetcht1` (the level-2 cache and beyond), not `prefetcht0`: a 3 KB row is 49
/// lines, and asking the level-1 cache for them takes its few miss buffers from the copy's own
/// loads. Measured on an AMD EPYC host with a shuffled epoch of 60000 rows of 3136 bytes, rows
/// two ahead: `t1` 1.30 × memcpy, `t0` 0.58 (below the 0.64 of no prefetch at all), and
/// prefetching 4 KB instead of the row's 3 KB 1.12 (the lines past the row are read for
/// nothing). On the Xeon host of earlier measurements, `t0` of 4 KB made the same epoch 1.3 ×
/// faster on 2 MB pages.
#[inline]
pub fn prefetch_read<E>(values: &[E]) {
    prefetch_lines(values, 64);
}

/// [`prefetch_read`] of the first `lines` 64-byte lines of `values` only (at most 64: 4 KB).
#[inline]
pub(crate) fn prefetch_lines<E>(values: &[E], lines: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T1, _mm_prefetch};
        let bytes = core::mem::size_of_val(values).min(lines.min(64) * 64);
        let at = values.as_ptr().cast::<i8>();
        let mut off = 0;
        while off < bytes {
            // SAFETY: a prefetch is a hint that never faults and reads nothing into the
            // program; the address is inside the borrowed slice anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T1>(at.wrapping_add(off)) };
            off += 64;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (values, lines);
}
