//! The tiled blocks of the AVX2 transpositions: 16 x 16 blocks of 4-byte lanes collected in a
//! stack tile, and 8 x 4 blocks of 8-byte lanes, each destination row's line stored whole.

use core::arch::x86_64::{_MM_HINT_T1, _mm_prefetch};

use super::bands::bands_b4;
use super::regs::{block16, load4, store_pd, tr4x4};
use crate::loops::Core;

/// The 16 x 16 blocks of [`tile_b4`] (and 16 x 8 blocks for a last group of 8 rows).
///
/// A block reads its 16 source rows as 4 blocks of 8 x 8, each source line's two halves
/// back to back (16 rows of a power-of-two stride share one L1 set, so a line read in two
/// distant passes would be fetched twice), collects the transposed block in a stack tile
/// and then stores each destination row's line whole.
///
/// # Safety
/// As [`tile_b4`]; `rows8 <= rows` is a multiple of 8, `jb..je` whole lines inside `cols`.
///
/// [`tile_b4`]: super::tile_b4
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn blocks_b4<const NT: bool, const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    strip: usize,
    lines: usize,
    rows8: usize,
    jb: usize,
    je: usize,
    prefetch: usize,
) {
    let (ts, ds) = (c.ts, c.ds);
    let block = |s: *const A, d: *mut f32| {
        // SAFETY: every block the walk hands over is inside the core (caller contract).
        unsafe { block16::<NT, AV, A, B, F>(s, d, ts, ds, f) }
    };
    // SAFETY: the walk hands over blocks inside the core (caller contract).
    unsafe {
        walk_b4::<NT, AV, A, B, F>(src, dst, c, f, strip, lines, rows8, jb, je, prefetch, block)
    }
}

/// The walk of the 16 x 16 blocks of [`blocks_b4`] and [`blocks_b4_wide`]: strips of `strip`
/// destination rows, each `lines` columns of lines at a time (each destination row given
/// `lines` consecutive lines in turn: with streaming stores, on the 260 MiB-L3 Xeon, 2 lines
/// wrote an 8192 x 8192 transpose at 0.81-0.87 x memcpy against 0.76-0.79 for 1, and 3 or 4
/// at 0.73-0.78), each block's 16 source lines `prefetch` elements further along their rows
/// prefetched into the level-2 cache first (0: none; see
/// [`Tuning::stream_prefetch`](crate::Tuning)), `block(s, d)` for the block whose source
/// starts at `s` (its 16 rows `ts` apart) and whose destination starts at `d` (its 16 rows `ds`
/// apart); then the last group of 8 rows, if any, as one band of [`bands_b4`].
///
/// # Safety
/// As [`blocks_b4`]; `block` writes the block it is given and nothing else.
///
/// [`blocks_b4_wide`]: super::wide::blocks_b4_wide
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn walk_b4<const NT: bool, const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    strip: usize,
    lines: usize,
    rows8: usize,
    jb: usize,
    je: usize,
    prefetch: usize,
    mut block: impl FnMut(*const A, *mut f32),
) {
    let strip = strip.max(16) / 16 * 16;
    let lines = lines.max(1);
    let (ts, ds) = (c.ts, c.ds);
    let rows16 = rows8 / 16 * 16;
    let mut i0 = 0;
    while i0 < rows16 {
        let i1 = (i0 + strip).min(rows16);
        let mut j = jb;
        while j < je {
            // `lines` columns of lines (the last group may have fewer), row block by row block.
            let jn = je.min(j.saturating_add(16 * lines));
            let mut i = i0;
            while i < i1 {
                let mut jj = j;
                while jj < jn {
                    // In bounds: `(i, jj)` is a block of the core (caller contract); the
                    // pointers are only offset here, and read or written by `block`.
                    let s = src.wrapping_offset(jj as isize * ts).wrapping_add(i);
                    let d = dst.wrapping_add(jj).wrapping_offset(i as isize * ds);
                    if prefetch > 0 {
                        for k in 0..16 {
                            let ahead = s.wrapping_offset(k * ts).wrapping_add(prefetch);
                            // SAFETY: a prefetch is a hint: it never faults and reads nothing
                            // the program sees, wherever it points.
                            unsafe { _mm_prefetch::<_MM_HINT_T1>(ahead.cast::<i8>()) };
                        }
                    }
                    block(s, d.cast::<f32>());
                    jj += 16;
                }
                i += 16;
            }
            j = jn;
        }
        i0 = i1;
    }
    if rows16 < rows8 {
        // The last 8 rows: one band.
        let sub = Core {
            rows: rows8 - rows16,
            ..*c
        };
        // SAFETY: rows `rows16..rows8` of the core, as a core of their own; AVX2 is available
        // (caller contract of the kernels that walk).
        unsafe {
            bands_b4::<NT, false, AV, A, B, F>(
                src.add(rows16),
                dst.offset(rows16 as isize * ds),
                &sub,
                f,
                8,
                jb,
                je,
                0,
            );
        }
    }
}

/// The 8 x 4 blocks of [`tile_b8`].
///
/// # Safety
/// As [`tile_b8`]; `rows4 <= rows` is a multiple of 4, `jb..je` whole lines inside `cols`.
///
/// [`tile_b8`]: super::tile_b8
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn blocks_b8<const NT: bool, const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    strip: usize,
    rows4: usize,
    jb: usize,
    je: usize,
) {
    let strip = strip.max(8);
    let (ts, ds) = (c.ts, c.ds);
    let mut i0 = 0;
    while i0 < rows4 {
        let i1 = (i0 + strip).min(rows4);
        let mut j = jb;
        while j < je {
            // SAFETY: every `(i + m, j + k)` with `m < 4`, `k < 8` is inside the core.
            unsafe {
                let s = src.offset(j as isize * ts);
                let d = dst.add(j);
                let mut i = i0;
                while i < i1 {
                    let si = s.add(i);
                    let lo = tr4x4([
                        load4::<AV, A, B, F>(si, f),
                        load4::<AV, A, B, F>(si.offset(ts), f),
                        load4::<AV, A, B, F>(si.offset(2 * ts), f),
                        load4::<AV, A, B, F>(si.offset(3 * ts), f),
                    ]);
                    let s4 = si.offset(4 * ts);
                    let hi = tr4x4([
                        load4::<AV, A, B, F>(s4, f),
                        load4::<AV, A, B, F>(s4.offset(ts), f),
                        load4::<AV, A, B, F>(s4.offset(2 * ts), f),
                        load4::<AV, A, B, F>(s4.offset(3 * ts), f),
                    ]);
                    let di = d.offset(i as isize * ds).cast::<f64>();
                    for m in 0..4 {
                        let p = di.offset(m as isize * ds);
                        store_pd::<NT>(p, lo[m]);
                        store_pd::<NT>(p.add(4), hi[m]);
                    }
                    i += 4;
                }
            }
            j += 8;
        }
        i0 = i1;
    }
}
