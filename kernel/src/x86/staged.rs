//! The staged write-out of the 4-byte AVX2 transposition: panels of long destination rows
//! transposed into a per-thread staging buffer, then streamed out a row's lines at a time.

use core::arch::x86_64::{_mm256_load_ps, _mm256_store_ps, _mm256_stream_ps};

use super::regs::block8;
use crate::loops::Core;

/// One 64-byte line of 4-byte lanes.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([f32; 16]);

/// Lines per destination row of a staged panel.
const STAGE_LINES: usize = 4;

/// Destinations with rows of at least this many columns go through the staging buffer.
/// Shorter rows (`bchw -> chwb` with 64, `bwc -> bcw` with 128) were measured faster with
/// direct blocks: their rows are close together, so direct streaming stores are local.
pub(crate) const STAGE_MIN_COLS: usize = 256;

std::thread_local! {
    /// The staging buffer of [`staged_b4`], grown on first use and kept per thread.
    static STAGE: core::cell::RefCell<Vec<Line>> = const { core::cell::RefCell::new(Vec::new()) };
}

/// Streaming-store transposition through a staging buffer, for [`tile_b4`].
///
/// The core is cut into strips of `strip` destination rows and panels of 64 destination
/// columns. A panel is transposed in two passes: first its 64 source rows are read 16 at a
/// time along the whole strip (long runs of every source row, few rows at once: what the
/// prefetchers handle best) into a per-thread staging buffer (`strip` x 4 lines, 256 KiB
/// for 1024 rows, so it stays in L2); then every destination row's 4 lines are
/// streamed out back to back (streaming stores reach the copy bandwidth only when several
/// consecutive lines of a row go out together). Returns the first column not done (a
/// multiple of 64 columns after `jb`), or `jb` when the buffer is in use (a map that calls
/// the kernel again) and nothing was done.
///
/// # Safety
/// As [`tile_b4`]; `rows16 <= rows` is a multiple of 16, `jb..je` whole lines inside `cols`,
/// destination rows line aligned from column `jb` on.
///
/// [`tile_b4`]: super::tile_b4
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn staged_b4<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    strip: usize,
    rows16: usize,
    jb: usize,
    je: usize,
) -> usize {
    let strip = strip.clamp(16, rows16.max(16)) / 16 * 16;
    let jm = jb + (je - jb) / (16 * STAGE_LINES) * (16 * STAGE_LINES);
    if jm == jb || rows16 == 0 {
        return jb;
    }
    STAGE.with(|cell| {
        let Ok(mut buf) = cell.try_borrow_mut() else {
            return jb;
        };
        let need = strip * STAGE_LINES;
        if buf.len() < need {
            buf.resize(need, Line([0.0; 16]));
        }
        // SAFETY: caller contract; the buffer holds `strip` rows of `STAGE_LINES` lines.
        unsafe { staged_b4_run::<AV, A, B, F>(src, dst, c, f, strip, rows16, jb, jm, &mut buf) };
        jm
    })
}

/// The two passes of [`staged_b4`] over columns `jb..jm` (whole panels), one after the
/// other for each panel. (Interleaving the streaming stores of one panel with the reads of
/// the next was measured slower: both use the core's few line-fill buffers.)
///
/// # Safety
/// As [`staged_b4`]; `buf.len() >= strip * STAGE_LINES`.
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn staged_b4_run<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    strip: usize,
    rows16: usize,
    jb: usize,
    jm: usize,
    buf: &mut [Line],
) {
    const ROW: usize = 16 * STAGE_LINES;
    debug_assert!(buf.len() >= strip * STAGE_LINES);
    let (ts, ds) = (c.ts, c.ds);
    let bp = buf.as_mut_ptr().cast::<f32>();
    let mut i0 = 0;
    while i0 < rows16 {
        let h = strip.min(rows16 - i0);
        let mut j = jb;
        while j < jm {
            // SAFETY: source rows `j..j + ROW` and columns `i0..i0 + h` are inside the core;
            // buffer row `r < h <= strip`, lanes `< ROW`, is inside the buffer; destination
            // rows `i0..i0 + h`, columns `j..j + ROW` are inside the core, 64-byte aligned.
            unsafe {
                for x in 0..2 * STAGE_LINES {
                    let s = src.offset((j + 8 * x) as isize * ts).add(i0);
                    let mut r = 0;
                    while r < h {
                        let top = block8::<AV, A, B, F>(s.add(r), ts, f);
                        let bottom = block8::<AV, A, B, F>(s.add(r + 8), ts, f);
                        let bq = bp.add(r * ROW + 8 * x);
                        for m in 0..8 {
                            _mm256_store_ps(bq.add(m * ROW), top[m]);
                            _mm256_store_ps(bq.add((m + 8) * ROW), bottom[m]);
                        }
                        r += 16;
                    }
                }
                let d = dst.offset(i0 as isize * ds).add(j).cast::<f32>();
                for r in 0..h {
                    let p = d.offset(r as isize * ds);
                    let q = bp.add(r * ROW);
                    for x in 0..2 * STAGE_LINES {
                        _mm256_stream_ps(p.add(8 * x), _mm256_load_ps(q.add(8 * x)));
                    }
                }
            }
            j += ROW;
        }
        i0 += h;
    }
}
