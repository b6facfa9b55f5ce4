//! Bands of 16 destination rows for the 4-byte transposition: small cores (whose source the
//! caches hold) written left to right in 16 sequential streams, with the next core's source
//! prefetched meanwhile.

use core::arch::x86_64::{_MM_HINT_T1, _mm_prefetch, _mm256_loadu_ps, _mm256_storeu_ps};

use super::regs::{block8, block16, store_ps};
use crate::exec::Opts;
use crate::generic;
use crate::loops::Core;

/// Cores whose source is at most this many bytes go through [`bands_b4`] when they stream.
pub(super) const SMALL_CORE_BYTES: usize = 64 << 10;

/// Transposition of a core in bands of 16 destination rows (a last band of 8; streaming stores
/// with `NT`; for small cores, and for the last 8 rows of [`blocks_b4`]'s tiles): each band
/// written left to right, a whole 64-byte line of each of its rows per step (a 16 x 16 block,
/// [`block16`]; two 8 x 8 blocks in a band of 8), so the writes form 16 sequential streams and
/// each step reads whole source lines. With the 16 x 16 tiles of [`blocks_b4`], which walk down
/// a column of lines, the same copy ran about 1.2 × slower on the `bwc -> bcw` items of the
/// benchmark (32 KB each), whose source the caches hold anyway. Bands of 8 rows (8 streams,
/// each source line read in two halves by two bands) ran the 1024 items at 0.93-1.00 x memcpy
/// where bands of 16 ran 1.11-1.21 (32 rows: 1.03-1.13; 64: 0.78-0.85), AVX2 blocks, on a
/// 32 MiB-L3 EPYC with 1 MiB of L2 (alternated processes of a `permute_into_tuned` loop).
///
/// With `SHARED` (and `NT`), each band but the last then streams the lines its rows share with
/// the next rows ([`shared_lines_band`], 8 rows at a time).
///
/// # Safety
/// As [`tile_b4`] (with `NT`, rows line aligned from `jb` on); `rows8 <= rows` is a multiple of
/// 8, `jb..je` whole lines inside `cols`; with `SHARED`, [`straddles`] holds for `jb`, `je`.
///
/// [`tile_b4`]: super::tile_b4
/// [`blocks_b4`]: super::blocks::blocks_b4
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn bands_b4<
    const NT: bool,
    const SHARED: bool,
    const AV: bool,
    A: Copy,
    B: Copy,
    F: Fn(A) -> B,
>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    rows8: usize,
    jb: usize,
    je: usize,
    ahead: isize,
) {
    let (ts, ds) = (c.ts, c.ds);
    let step16 = |s: *const A, d: *mut f32| {
        // SAFETY: the block's 16 rows and columns (source at `s`, destination at `d`) are inside
        // the core; streaming stores are 32-byte aligned (rows line aligned from `jb` on).
        unsafe { block16::<NT, AV, A, B, F>(s, d, ts, ds, f) }
    };
    // SAFETY: caller contract; the step writes the block it is given.
    unsafe { walk_bands::<NT, SHARED, AV, A, B, F>(src, dst, c, f, rows8, jb, je, ahead, step16) }
}

/// The walk of [`bands_b4`] and [`bands_b4_wide`]: bands of 16 rows (a last one of 8), each
/// left to right, `step16(s, d)` for the block of 16 rows and 16 columns whose source starts at
/// `s` (its 16 rows `ts` apart) and whose destination starts at `d` (its rows `ds` apart), two
/// AVX2 8 x 8 blocks a step in the band of 8, the next core's source prefetched meanwhile; with
/// `SHARED`, each band's shared lines after it ([`shared_lines_band`]).
///
/// # Safety
/// As [`bands_b4`]; `step16` writes the block it is given and nothing else; the caller enables
/// AVX2.
///
/// [`bands_b4_wide`]: super::wide::bands_b4_wide
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn walk_bands<
    const NT: bool,
    const SHARED: bool,
    const AV: bool,
    A: Copy,
    B: Copy,
    F: Fn(A) -> B,
>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    rows8: usize,
    jb: usize,
    je: usize,
    ahead: isize,
    mut step16: impl FnMut(*const A, *mut f32),
) {
    let (ts, ds) = (c.ts, c.ds);
    // The next core's source, when it is a range no longer than a small core's (`ahead`
    // elements on): read into the level-2 cache a few lines per block while this core is
    // written, so that its loads find it there.
    let span = if ahead != 0 && ts > 0 && c.tp == 1 {
        ((c.cols.saturating_sub(1)) * ts as usize + c.rows) * core::mem::size_of::<A>()
    } else {
        usize::MAX
    };
    let (mut next, mut next_end) = (src.cast::<i8>(), src.cast::<i8>());
    let mut per_block = 0;
    if span <= SMALL_CORE_BYTES {
        next = src.wrapping_offset(ahead).cast::<i8>();
        next_end = next.wrapping_add(span);
        let blocks = rows8.div_ceil(16) * (je.saturating_sub(jb) / 16);
        per_block = (span / 64).div_ceil(blocks.max(1));
    }
    let mut i = 0;
    while i < rows8 {
        let band = if i + 16 <= rows8 { 16 } else { 8 };
        let mut j = jb;
        while j < je {
            for _ in 0..per_block {
                if next < next_end {
                    // SAFETY: SSE is part of x86-64; a hint, it never faults and reads
                    // nothing into the program.
                    unsafe { _mm_prefetch::<_MM_HINT_T1>(next) };
                    next = next.wrapping_add(64);
                }
            }
            // In bounds: rows `i..i + band` and columns `j..j + 16` are inside the core; the
            // pointers are only offset here, and read or written by the step.
            let s = src.wrapping_offset(j as isize * ts).wrapping_add(i);
            let d = dst
                .wrapping_offset(i as isize * ds)
                .wrapping_add(j)
                .cast::<f32>();
            if band == 16 {
                step16(s, d);
            } else {
                // SAFETY: the band's 8 rows and 16 columns are inside the core; streaming stores
                // are 32-byte aligned (rows line aligned from `jb` on); AVX2 is enabled.
                unsafe {
                    let lo = block8::<AV, A, B, F>(s, ts, f);
                    let hi = block8::<AV, A, B, F>(s.offset(8 * ts), ts, f);
                    for m in 0..8 {
                        let p = d.offset(m as isize * ds);
                        store_ps::<NT>(p, lo[m]);
                        store_ps::<NT>(p.add(8), hi[m]);
                    }
                }
            }
            j += 16;
        }
        if SHARED {
            for h in (i..i + band).step_by(8) {
                if h + 8 < c.rows {
                    // SAFETY: [`straddles`] holds (caller contract with `SHARED`), and rows
                    // `h..h + 8` are not the last 8.
                    unsafe { shared_lines_band::<AV, A, B, F>(src, dst, c, f, h, je) };
                }
            }
        }
        i += band;
    }
}

/// Whether a small core written in bands with streaming stores has its rows back to back with
/// lines that straddle them (the destination not at a line, as an array 16 bytes past one):
/// rows of a whole number of lines, `jb` (the first line's column) past the first column, whole
/// bands. Then [`bands_b4`] with `SHARED` and [`shared_lines_rest`] write the lines the blocks
/// leave.
pub(super) fn straddles<B>(c: &Core, jb: usize, je: usize) -> bool {
    core::mem::size_of::<B>() == 4
        && c.ds == c.cols as isize
        && c.cols.is_multiple_of(16)
        && jb > 0
        && je + 16 - jb == c.cols
        && c.rows >= 8
        && c.rows.is_multiple_of(8)
}

/// The rest of the lines a core for which [`straddles`] holds shares between its rows, after
/// [`bands_b4`] with `SHARED` wrote those of every band but the last ([`shared_lines_band`]):
/// the last band's, whose next row is past the core, gathered a value at a time, and the first
/// row's head and the last row's tail, lines shared with the cores before and after, by the
/// portable kernel's plain stores.
///
/// # Safety
/// As [`bands_b4`] with `NT`, and [`straddles`] holds for `jb`, `je`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn shared_lines_rest<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    jb: usize,
    je: usize,
) {
    let mut row = Lines([0.0; 32]);
    let tail = c.cols - je;
    let ts = c.ts;
    // SAFETY: every address is inside the core; `B` is a plain 4-byte type (the module's
    // contract), so its bits travel as an `f32`'s; each line streamed starts at row `i`'s column
    // `je`, a line boundary (rows line aligned from `jb` on, `je - jb` whole lines).
    unsafe {
        let last_band = c.rows - 8;
        for i in last_band..c.rows - 1 {
            let put = |line: &mut Lines, k: usize, i: usize, j: usize| {
                let v = f(*src.add(i).offset(j as isize * ts));
                line.0[k] = core::mem::transmute_copy::<B, f32>(&v);
            };
            for k in 0..tail {
                put(&mut row, k, i, je + k);
            }
            for k in 0..jb {
                put(&mut row, tail + k, i + 1, k);
            }
            stream_line(dst, c, i, je, row.0.as_ptr());
        }
        let head = Core {
            rows: 1,
            cols: jb,
            ..*c
        };
        generic::tile(src, dst, &head, f, &Opts::PLAIN);
        let last = c.rows - 1;
        let end = Core {
            rows: 1,
            cols: tail,
            ..*c
        };
        generic::tile(
            src.add(last).offset(je as isize * ts),
            dst.offset(last as isize * c.ds).add(je),
            &end,
            f,
            &Opts::PLAIN,
        );
    }
}

/// The lines band `i` (not the last) of a core for which [`straddles`] holds shares between its
/// rows and the next: each row's last `cols - je` values and the next row's first `jb` are one
/// destination line. The last 8 columns of the band's rows (16 when the tail is longer than 8)
/// and the first 16 of the next 8 rows are transposed as 8 x 8 blocks, laid side by side on the
/// stack, and each row's line is streamed out whole from there, right after the band's blocks
/// (each row's line where its stream of lines ends). Left to the portable kernel (as
/// [`edges`](super::edges::edges) did with every row's ends), each such line was written in two
/// parts at two times with plain stores around the streamed ones, so the memory read it back
/// first: `bwc -> bcw` (rows of 128 columns) from and into arrays 16 bytes past a line ran at
/// 0.61-0.67 x memcpy against 0.89-0.95 aligned on a 32 MiB-L3 EPYC with 1 MiB of L2; gathered a
/// value at a time after the bands, 0.82-0.90; as these blocks after the bands, 0.86-0.91; right
/// after each band, with the destination off, 0.78-0.83 against 0.69-0.74 after the bands in an
/// hour when the aligned case ran 0.74-0.83 (five alternated pairs of processes).
///
/// # Safety
/// As [`shared_lines_rest`], and `i + 8 < c.rows`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn shared_lines_band<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    i: usize,
    je: usize,
) {
    let mut row = Lines([0.0; 32]);
    let tail = c.cols - je;
    let ts = c.ts;
    // SAFETY: rows `i..i + 9` and their columns are inside the core (`i + 8 < rows`); `B` is a
    // plain 4-byte type, its bits moved as an `f32`'s; row `i + m`'s column `je` starts a line.
    unsafe {
        let end = src.add(i).offset((c.cols as isize - 8) * ts);
        let ends = block8::<AV, A, B, F>(end, ts, f);
        let ends_lo = if tail > 8 {
            Some(block8::<AV, A, B, F>(end.offset(-8 * ts), ts, f))
        } else {
            None
        };
        let heads = block8::<AV, A, B, F>(src.add(i + 1), ts, f);
        let heads2 = block8::<AV, A, B, F>(src.add(i + 1).offset(8 * ts), ts, f);
        for m in 0..8 {
            let at = row.0.as_mut_ptr();
            if let Some(lo) = &ends_lo {
                _mm256_storeu_ps(at, lo[m]);
            }
            _mm256_storeu_ps(at.add(8), ends[m]);
            _mm256_storeu_ps(at.add(16), heads[m]);
            _mm256_storeu_ps(at.add(24), heads2[m]);
            stream_line(dst, c, i + m, je, at.add(16 - tail));
        }
    }
}

/// A destination line gathered on the stack, with room for the 8 x 8 blocks around it.
#[repr(C, align(64))]
struct Lines([f32; 32]);

/// Streams the 16 values at `line` out as row `i`'s line that starts at column `je`.
///
/// # Safety
/// Row `i`'s columns `je..je + 16` (into the next row where rows are back to back) are inside
/// the destination and start a line; `line..line + 16` is readable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn stream_line<B>(dst: *mut B, c: &Core, i: usize, je: usize, line: *const f32) {
    // SAFETY: caller contract; streaming stores of 32 bytes at a line and 32 bytes past it.
    unsafe {
        let p = dst.offset(i as isize * c.ds).add(je).cast::<f32>();
        store_ps::<true>(p, _mm256_loadu_ps(line));
        store_ps::<true>(p.add(8), _mm256_loadu_ps(line.add(8)));
    }
}
