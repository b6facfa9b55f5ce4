//! Panels of narrow destination rows stored back to back, written through an aligned tile:
//! the streamed transposition of a core whose lines do not start where its rows do.

use core::arch::x86_64::{__m256, _mm256_loadu_ps, _mm256_setzero_ps, _mm256_storeu_ps};

use super::bands::SMALL_CORE_BYTES;
use super::blocks::blocks_b4;
use super::regs::store_ps;
use crate::exec::Opts;
use crate::generic;
use crate::loops::Core;

/// The widest destination rows, in columns, written in panels (see
/// [`tile_b4`](super::tile_b4)): 64 source rows read at once, one line of each per block, on the
/// measurements of `bchw -> chwb` (64 columns: 0.70 -> 0.85 x memcpy with AVX-512 on a 300
/// MiB-L3 Xeon) and `bwc -> bcw` (128 columns: 0.77 -> 0.72, so not).
pub(super) const PANEL_COLS: usize = 64;

/// Rows of a panel.
const PANEL_ROWS: usize = 16;

/// A panel of 16 rows of at most `PANEL_COLS` 4-byte columns, line aligned.
#[repr(C, align(64))]
struct Panel([[__m256; PANEL_COLS / 8]; PANEL_ROWS]);

/// Whether [`panels_b4_tiled`] writes this core: rows of at most `PANEL_COLS` columns, a multiple
/// of 16, stored back to back (`ds == cols`), 4-byte lanes, not a small core (those go in bands),
/// and the destination's lines not starting at its rows, or the source's lines not at a panel's
/// first row (`src` and `dst` as the kernel is given them).
pub(super) fn wants_tile<A, B>(src: *const A, dst: *mut B, c: &Core) -> bool {
    let narrow = c.cols <= PANEL_COLS
        && c.cols.is_multiple_of(16)
        && c.ds == c.cols as isize
        && c.rows * c.cols * 4 > SMALL_CORE_BYTES
        && core::mem::size_of::<B>() == 4;
    narrow && (!(dst as usize).is_multiple_of(64) || source_skip(src, c) != 0)
}

/// The rows before the first whose source starts a line in every source row (0 when the
/// source rows do not share an alignment, or 4-byte source lanes cannot reach one).
pub(super) fn source_skip<A>(src: *const A, c: &Core) -> usize {
    let size = core::mem::size_of::<A>();
    let off = src as usize % 64;
    if size != 4 || !(c.ts.unsigned_abs() * size).is_multiple_of(64) || !off.is_multiple_of(4) {
        return 0;
    }
    ((64 - off) % 64 / 4).min(c.rows)
}

/// The streamed transposition of a core that [`wants_tile`]: the rows before the source's first
/// line and after the last whole panel by the portable kernel; every panel of 16 rows between
/// them transposed into a line-aligned tile (4 KB at most, so it stays in the level-1 cache),
/// then copied out as the contiguous run of memory its rows are, with streaming stores on the
/// whole lines inside it and plain ones on the two partial lines at its ends. The panels read
/// whole source lines and write whole destination lines wherever the buffers start; written
/// otherwise (line-aligned columns only, the rest by the portable kernel), a 16-byte offset of the
/// source or of the destination ran `bchw -> chwb` (64 columns) at 0.51-0.54 × memcpy, and both
/// at 0.42, against 1.09 with both aligned, on a 32 MiB-L3 EPYC; through the tile, both off,
/// 0.50-0.67. (Aligned, the tile ran 20 % slower than the direct panels, which keep them; the
/// small cores of 128 columns of `bwc -> bcw` ran 0.48-0.70 through it against 0.85-0.96 in
/// their bands.)
///
/// Each panel's source lines are prefetched `prefetch` source elements ahead (0: none), as
/// [`walk_b4`](super::blocks::walk_b4) does.
///
/// # Safety
/// As [`tile_b4`](super::tile_b4), and [`wants_tile`] holds.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn panels_b4_tiled<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    prefetch: usize,
) {
    let head = source_skip(src, c);
    let panels = (c.rows - head) / PANEL_ROWS;
    let end = head + panels * PANEL_ROWS;
    let mut panel = Panel([[_mm256_setzero_ps(); PANEL_COLS / 8]; PANEL_ROWS]);
    let tile = panel.0.as_mut_ptr().cast::<f32>();
    let in_tile = Core {
        rows: PANEL_ROWS,
        ds: c.cols as isize,
        ..*c
    };
    let run = PANEL_ROWS * c.cols;
    // SAFETY: rows `0..head`, `head..end` and `end..rows` are inside the core; a panel's
    // source is rows `i..i + 16` of it, its tile `16 * cols <= 16 * PANEL_COLS` lanes, and its
    // destination the `run` contiguous lanes from row `i` (`ds == cols`).
    unsafe {
        generic::tile(src, dst, &Core { rows: head, ..*c }, f, &Opts::PLAIN);
        let mut i = head;
        while i < end {
            blocks_b4::<false, AV, A, B, F>(
                src.add(i),
                tile.cast::<B>(),
                &in_tile,
                f,
                PANEL_ROWS,
                1,
                PANEL_ROWS,
                0,
                c.cols,
                prefetch,
            );
            stream_run(tile, dst.add(i * c.cols).cast::<f32>(), run);
            i += PANEL_ROWS;
        }
        let tail = Core {
            rows: c.rows - end,
            ..*c
        };
        generic::tile(src.add(end), dst.add(end * c.cols), &tail, f, &Opts::PLAIN);
    }
}

/// Copies `n` lanes from `from` to `to`: streaming stores on the whole lines of the
/// destination, plain ones before the first and after the last.
///
/// # Safety
/// `from..from + n` readable, `to..to + n` writable, `to` 4-byte aligned, AVX2 available.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn stream_run(from: *const f32, to: *mut f32, n: usize) {
    let lead = ((64 - to as usize % 64) % 64 / 4).min(n);
    let lines = (n - lead) / 16;
    // The lanes are copied as bits (4-byte integers) one at a time, as vectors in between.
    let (from_bits, to_bits) = (from.cast::<u32>(), to.cast::<u32>());
    // SAFETY: every index below is `< n` (caller contract); the streaming stores go to whole
    // lines (`to + lead` is line aligned).
    unsafe {
        for k in 0..lead {
            *to_bits.add(k) = *from_bits.add(k);
        }
        for l in 0..lines {
            let k = lead + 16 * l;
            store_ps::<true>(to.add(k), _mm256_loadu_ps(from.add(k)));
            store_ps::<true>(to.add(k + 8), _mm256_loadu_ps(from.add(k + 8)));
        }
        let mut k = lead + 16 * lines;
        while k + 8 <= n {
            _mm256_storeu_ps(to.add(k), _mm256_loadu_ps(from.add(k)));
            k += 8;
        }
        while k < n {
            *to_bits.add(k) = *from_bits.add(k);
            k += 1;
        }
    }
}
