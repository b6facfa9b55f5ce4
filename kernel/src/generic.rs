//! Portable kernels for the 2-D core, generic over the element types and the map.
//!
//! Each kernel has the signature of [`KernelFn`](super::exec::KernelFn): it writes the core
//! `dst[i * ds + j] = f(src[i * tp + j * ts])` for every `i < rows`, `j < cols`.
//! The caller guarantees that every addressed element is inside the source view and the
//! destination slice, and that no two `(i, j)` address the same destination element.

use super::exec::Opts;
use super::loops::Core;

/// Rows copied one after another; the inner loop runs along the contiguous destination.
/// With `ts == 1` and an identity map this is a memcpy per row.
///
/// # Safety
/// See the module documentation.
pub(crate) unsafe fn row_copy<A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    _o: &Opts,
) {
    for i in 0..c.rows as isize {
        // SAFETY: row `i` of the core lies inside the source view and the destination
        // (caller contract); rows of the destination are disjoint.
        unsafe {
            let s = src.offset(i * c.tp);
            let d = dst.offset(i * c.ds);
            if c.ts == 1 {
                let s = core::slice::from_raw_parts(s, c.cols);
                let d = core::slice::from_raw_parts_mut(d, c.cols);
                for (o, &x) in d.iter_mut().zip(s) {
                    *o = f(x);
                }
            } else {
                for j in 0..c.cols {
                    *d.add(j) = f(*s.offset(j as isize * c.ts));
                }
            }
        }
    }
}

/// De-interleave of `R` (2..=4) channels: `R` destination rows, each filled from every
/// `ts`-th source element; requires `tp == 1`.
///
/// # Safety
/// See the module documentation; `c.rows == R` and `c.tp == 1`.
pub(crate) unsafe fn deinterleave<const R: usize, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    _o: &Opts,
) {
    debug_assert!(c.rows == R && c.tp == 1);
    // SAFETY: the R destination rows of `cols` elements each are inside `dst` and pairwise
    // disjoint (distinct rows of the core); source elements `j * ts + r`, `r < R`, are inside
    // the view (caller contract).
    unsafe {
        let rows: [*mut B; R] = core::array::from_fn(|r| dst.offset(r as isize * c.ds));
        if c.ts == R as isize {
            let s = core::slice::from_raw_parts(src, c.cols * R);
            let outs: [&mut [B]; R] = rows.map(|p| core::slice::from_raw_parts_mut(p, c.cols));
            for (j, px) in s.chunks_exact(R).enumerate() {
                for r in 0..R {
                    outs[r][j] = f(px[r]);
                }
            }
        } else {
            for j in 0..c.cols {
                let s = src.offset(j as isize * c.ts);
                for (r, row) in rows.iter().enumerate() {
                    *row.add(j) = f(*s.add(r));
                }
            }
        }
    }
}

/// Interleave into `C` (2..=4) destination columns, each read from a contiguous source
/// row; requires `tp == 1`.
///
/// # Safety
/// See the module documentation; `c.cols == C` and `c.tp == 1`.
pub(crate) unsafe fn interleave<const C: usize, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    _o: &Opts,
) {
    debug_assert!(c.cols == C && c.tp == 1);
    // SAFETY: the C source rows of `rows` elements are inside the view; the destination
    // elements `i * ds + k`, `k < C`, are inside `dst` (caller contract).
    unsafe {
        let ins: [&[A]; C] = core::array::from_fn(|k| {
            core::slice::from_raw_parts(src.offset(k as isize * c.ts), c.rows)
        });
        if c.ds == C as isize {
            let d = core::slice::from_raw_parts_mut(dst, c.rows * C);
            for (i, px) in d.chunks_exact_mut(C).enumerate() {
                for k in 0..C {
                    px[k] = f(ins[k][i]);
                }
            }
        } else {
            for i in 0..c.rows {
                let d = dst.offset(i as isize * c.ds);
                for (k, row) in ins.iter().enumerate() {
                    *d.add(k) = f(row[i]);
                }
            }
        }
    }
}

/// Side of the square tiles of the portable transposition.
const TILE: usize = 16;

/// Cache-blocked transposition with any strides: `TILE x TILE` tiles, the inner loop along
/// the contiguous destination.
///
/// # Safety
/// See the module documentation.
pub(crate) unsafe fn tile<A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    _o: &Opts,
) {
    let mut i0 = 0;
    while i0 < c.rows {
        let i1 = (i0 + TILE).min(c.rows);
        let mut j0 = 0;
        while j0 < c.cols {
            let j1 = (j0 + TILE).min(c.cols);
            for i in i0..i1 {
                // SAFETY: `(i, j)` with `i < rows`, `j < cols` is inside the core (caller
                // contract).
                unsafe {
                    let s = src.offset(i as isize * c.tp);
                    let d = dst.offset(i as isize * c.ds);
                    for j in j0..j1 {
                        *d.add(j) = f(*s.offset(j as isize * c.ts));
                    }
                }
            }
            j0 = j1;
        }
        i0 = i1;
    }
}
