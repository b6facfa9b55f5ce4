//! AVX2 transposition kernels for 4- and 8-byte plain elements (x86-64, picked at run time), and
//! AVX-512 blocks for 4-byte elements where the CPU has it (`wide`).
//!
//! The core is cut into strips of `strip` destination rows (16, panels written whole, for rows
//! of at most `PANEL_COLS` columns); each strip is walked in blocks
//! of one cache line of destination columns (16 x 4 bytes or 8 x 8 bytes). A block loads
//! 16 (8) source rows, maps them through `f`, transposes them in registers as two 8 x 8
//! (4 x 4) blocks, or one 16 x 16 with AVX-512, and stores every destination row's whole
//! 64-byte line at once, with
//! non-temporal stores when asked (large outputs whose rows are line aligned). Columns
//! before the first aligned line, after the last full one, and rows past the last full
//! block of 8 (4) go to the portable tile kernel.
//!
//! Callers guarantee, besides the contract of [`generic`](super::generic): `tp == 1`, the
//! CPU supports AVX2, and `B` is a plain integer or float type of 4 (8) bytes, so that every
//! byte of a `B` value is initialised and may be moved through vector registers.
//!
//! Here the run-time detection and the entry points of the transpositions, which pick the
//! write-out; beside them the register primitives (`regs`), the tiled blocks (`blocks`), the
//! bands of small cores (`bands`), the staged write-out of long rows (`staged`), the panels of
//! narrow rows written through an aligned tile where the buffers' lines do not start at the
//! rows (`panels`), the edges left to the portable kernel (`edges`), the 3-channel
//! de-interleave (`deinterleave`) and the AVX-512 blocks (`wide`).

mod bands;
mod blocks;
mod deinterleave;
mod edges;
mod panels;
mod regs;
mod staged;
mod wide;

pub(crate) use deinterleave::{deinterleave3_b4, deinterleave3_u8_affine};

use core::arch::x86_64::_mm_sfence;

use bands::{SMALL_CORE_BYTES, bands_b4, shared_lines_rest, straddles};
use blocks::{blocks_b4, blocks_b8};
use edges::{column_blocks, edges};
use panels::{PANEL_COLS, panels_b4_tiled, source_skip};
pub(crate) use staged::STAGE_MIN_COLS;
use staged::staged_b4;
pub(crate) use wide::has_avx512;
use wide::{bands_b4_wide, blocks_b4_wide};

use crate::exec::Opts;
use crate::loops::Core;

/// Whether the AVX2 kernels may run: the CPU has AVX2 (cached by std after the first call) and
/// the SIMD kernels are not turned off by `BATCHSPEC_DISABLE_SIMD` (see [`super::cpu::simd_enabled`]).
pub(crate) fn has_avx2() -> bool {
    super::cpu::simd_enabled() && std::is_x86_feature_detected!("avx2")
}

/// Whether [`tile_b4`] writes a core in panels (rows of at most `PANEL_COLS` columns, not a
/// small core), for the calibration of its non-temporal stores.
pub(crate) fn in_panels<A>(c: &Core) -> bool {
    c.cols <= PANEL_COLS && c.rows * c.cols * core::mem::size_of::<A>() > SMALL_CORE_BYTES
}

/// Transposition for plain 4-byte destinations; see the module documentation. `AV`: the
/// source elements are plain 4-byte values too (see [`load8`](regs::load8)). `WIDE`: the 16 x 16
/// blocks are AVX-512's ([`blocks_b4_wide`]), the bands, staging and edges as without it.
///
/// # Safety
/// The contract of the module documentation; with `WIDE`, the CPU supports AVX-512F.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn tile_b4<const AV: bool, const WIDE: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    o: &Opts,
) {
    debug_assert!(c.tp == 1 && core::mem::size_of::<B>() == 4);
    let (jb, je, aligned) = column_blocks(dst, c, 16);
    let r = c.rows / 8 * 8;
    // Destination rows of at most `PANEL_COLS` columns are written in panels of 16 whole rows
    // (strips of 16), sequentially, each panel reading a line of every source row: the source
    // rows stay streams the prefetchers follow, and the destination is one stream. Wider rows
    // go in strips of `o.strip` rows, a column of lines at a time, each source row read along.
    let w = if je - jb <= PANEL_COLS { 16 } else { o.strip };
    // Streamed blocks read a line of up to 64 source rows at a time (a panel, or a column of
    // direct blocks), more streams than the hardware prefetchers follow: each line is
    // prefetched `o.stream_prefetch` blocks ahead along its row.
    let pf = if o.nt { 16 * o.stream_prefetch } else { 0 };
    if o.nt && aligned && panels::wants_tile(src, dst, c) {
        // SAFETY: caller contract, and the tiled panels want the core.
        unsafe { panels_b4_tiled::<AV, A, B, F>(src, dst, c, f, pf) };
        _mm_sfence();
        return;
    }
    // Rows wider than a panel whose source lines do not start at the first row (an array 16
    // bytes past a line, as glibc's `malloc` returns large ones): the rows before the source's
    // first whole line go to the portable kernel, and the blocks start there, so each block
    // reads whole source lines. From the first row, the 8192 x 8192 transpose with the source
    // 16 bytes off ran 0.40-0.44 x memcpy in its streamed direct blocks against 0.77-0.81
    // aligned (0.65-0.68 staged), and 0.77-0.83 started at the line; 2048 x 2048 in the caches,
    // plain stores, 0.42-0.46 against 0.56-0.61 aligned, and 0.56-0.58 started at the line (a
    // 32 MiB-L3 EPYC with 1 MiB of L2, AVX-512 or AVX2 blocks alike).
    let skip = source_skip(src, c);
    if skip > 0
        && c.cols > PANEL_COLS
        && c.rows >= skip + 16
        && c.rows * c.cols * core::mem::size_of::<A>() > SMALL_CORE_BYTES
    {
        let head = Core { rows: skip, ..*c };
        let rest = Core {
            rows: c.rows - skip,
            ..*c
        };
        // SAFETY: rows `..skip` and `skip..` split the core (the rest's blocks are found again
        // from its own first row); the source's rows now start at a line.
        unsafe {
            edges(src, dst, &head, f, 0, jb, je);
            tile_b4::<AV, WIDE, A, B, F>(
                src.add(skip),
                dst.offset(skip as isize * c.ds),
                &rest,
                f,
                o,
            );
        }
        return;
    }
    // SAFETY: blocks stay inside rows < r <= rows and columns jb..je <= cols; the
    // streaming stores are 32-byte aligned because rows are line aligned from `jb` on.
    unsafe {
        if o.nt && aligned {
            // Long destination rows go through the staging buffer (whole panels of the
            // first `r16` rows), the rest through direct blocks.
            let r16 = r / 16 * 16;
            let js = if o.staged && c.cols >= STAGE_MIN_COLS {
                staged_b4::<AV, A, B, F>(src, dst, c, f, w, r16, jb, je)
            } else {
                jb
            };
            if js > jb && r16 < r {
                let sub = Core {
                    rows: c.rows - r16,
                    ..*c
                };
                let d = dst.offset(r16 as isize * c.ds);
                blocks_b4::<true, AV, A, B, F>(src.add(r16), d, &sub, f, w, o.lines, 8, jb, js, 0);
            }
            if js == jb && c.rows * c.cols * core::mem::size_of::<A>() <= SMALL_CORE_BYTES {
                // A small core (one batch item of `bwc -> bcw`, say): its source stays in the
                // caches, so the order of the writes is what counts.
                if straddles::<B>(c, jb, je) {
                    if WIDE {
                        bands_b4_wide::<true, true, AV, A, B, F>(
                            src, dst, c, f, r, jb, je, o.ahead,
                        );
                    } else {
                        bands_b4::<true, true, AV, A, B, F>(src, dst, c, f, r, jb, je, o.ahead);
                    }
                    shared_lines_rest::<AV, A, B, F>(src, dst, c, f, jb, je);
                    _mm_sfence();
                    return;
                }
                if WIDE {
                    bands_b4_wide::<true, false, AV, A, B, F>(src, dst, c, f, r, jb, je, o.ahead);
                } else {
                    bands_b4::<true, false, AV, A, B, F>(src, dst, c, f, r, jb, je, o.ahead);
                }
            } else if WIDE && (w != 16 || o.wide_panels) {
                blocks_b4_wide::<true, AV, A, B, F>(src, dst, c, f, w, o.lines, r, js, je, pf);
            } else {
                blocks_b4::<true, AV, A, B, F>(src, dst, c, f, w, o.lines, r, js, je, pf);
            }
            _mm_sfence();
        } else if WIDE {
            blocks_b4_wide::<false, AV, A, B, F>(src, dst, c, f, w, 1, r, jb, je, 0);
        } else {
            blocks_b4::<false, AV, A, B, F>(src, dst, c, f, w, 1, r, jb, je, 0);
        }
        edges(src, dst, c, f, r, jb, je);
    }
}

/// Transposition for plain 8-byte destinations; see the module documentation. `AV`: the
/// source elements are plain 8-byte values too (see [`load4`](regs::load4)).
///
/// # Safety
/// The contract of the module documentation.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn tile_b8<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    o: &Opts,
) {
    debug_assert!(c.tp == 1 && core::mem::size_of::<B>() == 8);
    let (jb, je, aligned) = column_blocks(dst, c, 8);
    let rows4 = c.rows / 4 * 4;
    // SAFETY: as in `tile_b4`, with 8 x 4 blocks.
    unsafe {
        if o.nt && aligned {
            blocks_b8::<true, AV, A, B, F>(src, dst, c, f, o.strip, rows4, jb, je);
            _mm_sfence();
        } else {
            blocks_b8::<false, AV, A, B, F>(src, dst, c, f, o.strip, rows4, jb, je);
        }
        edges(src, dst, c, f, rows4, jb, je);
    }
}
