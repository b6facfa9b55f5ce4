//! AVX2 transposition kernels for 4- and 8-byte plain elements (x86-64, picked at run time).
//!
//! The core is cut into strips of `strip` destination rows; each strip is walked in blocks
//! of one cache line of destination columns (16 x 4 bytes or 8 x 8 bytes). A block loads
//! 16 (8) source rows, maps them through `f`, transposes them in registers as two 8 x 8
//! (4 x 4) blocks and stores every destination row's whole 64-byte line at once, with
//! non-temporal stores when asked (large outputs whose rows are line aligned). Columns
//! before the first aligned line, after the last full one, and rows past the last full
//! block of 8 (4) go to the portable tile kernel.
//!
//! Callers guarantee, besides the contract of [`generic`](super::generic): `tp == 1`, the
//! CPU supports AVX2, and `B` is a plain integer or float type of 4 (8) bytes, so that every
//! byte of a `B` value is initialised and may be moved through vector registers.

use core::arch::x86_64::{
    __m256, __m256d, _MM_HINT_T1, _mm_loadl_epi64, _mm_prefetch, _mm_sfence, _mm256_blend_ps,
    _mm256_cvtepi32_ps, _mm256_cvtepu8_epi32, _mm256_div_ps, _mm256_load_ps, _mm256_loadu_pd,
    _mm256_loadu_ps, _mm256_permute2f128_pd, _mm256_permute2f128_ps, _mm256_permutevar8x32_ps,
    _mm256_set1_ps, _mm256_setr_epi32, _mm256_setzero_ps, _mm256_shuffle_ps, _mm256_store_ps,
    _mm256_storeu_pd, _mm256_storeu_ps, _mm256_stream_pd, _mm256_stream_ps, _mm256_sub_ps,
    _mm256_unpackhi_pd, _mm256_unpackhi_ps, _mm256_unpacklo_pd, _mm256_unpacklo_ps,
};

use super::exec::Opts;
use super::generic;
use super::loops::Core;

/// Whether the AVX2 kernels may run: the CPU has AVX2 (cached by std after the first call) and
/// the SIMD kernels are not turned off by `BATCHSPEC_DISABLE_SIMD` (see [`super::cpu::simd_enabled`]).
pub(crate) fn has_avx2() -> bool {
    super::cpu::simd_enabled() && std::is_x86_feature_detected!("avx2")
}

/// Loads 8 consecutive `A` from `p`, maps them and returns the bits as a vector.
///
/// With `AV` (`A` is a plain 4-byte type too) the source is read with one vector load and
/// passed through the map lane by lane, which folds away for an identity map; otherwise
/// the 8 elements are read as an array.
///
/// # Safety
/// `p..p+8` is readable; `B` is a plain 4-byte type, and so is `A` when `AV`; AVX2 is
/// available.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load8<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(p: *const A, f: &F) -> __m256 {
    let a: [A; 8] = if AV {
        let mut a = core::mem::MaybeUninit::<[A; 8]>::uninit();
        // SAFETY: `A` is a plain 4-byte type: 32 readable bytes at `p` (unaligned load),
        // written whole into `a`, and any bit pattern is a valid `A`.
        unsafe {
            _mm256_storeu_ps(
                a.as_mut_ptr().cast::<f32>(),
                _mm256_loadu_ps(p.cast::<f32>()),
            );
            a.assume_init()
        }
    } else {
        // SAFETY: the caller guarantees 8 readable `A`; `[A; 8]` has the same layout as 8
        // consecutive `A` and `read_unaligned` needs no alignment.
        unsafe { p.cast::<[A; 8]>().read_unaligned() }
    };
    let b: [B; 8] = [
        f(a[0]),
        f(a[1]),
        f(a[2]),
        f(a[3]),
        f(a[4]),
        f(a[5]),
        f(a[6]),
        f(a[7]),
    ];
    // SAFETY: `B` is a plain 4-byte type (caller contract): the 32 bytes of `b` are
    // initialised; the load is unaligned.
    unsafe { _mm256_loadu_ps(b.as_ptr().cast::<f32>()) }
}

/// Loads 4 consecutive `A` from `p`, maps them and returns the bits as a vector; as
/// [`load8`] for 8-byte lanes.
///
/// # Safety
/// `p..p+4` is readable; `B` is a plain 8-byte type, and so is `A` when `AV`; AVX2 is
/// available.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load4<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(p: *const A, f: &F) -> __m256d {
    let a: [A; 4] = if AV {
        let mut a = core::mem::MaybeUninit::<[A; 4]>::uninit();
        // SAFETY: as in `load8`, for 4 plain 8-byte elements.
        unsafe {
            _mm256_storeu_pd(
                a.as_mut_ptr().cast::<f64>(),
                _mm256_loadu_pd(p.cast::<f64>()),
            );
            a.assume_init()
        }
    } else {
        // SAFETY: as in `load8`, for 4 elements.
        unsafe { p.cast::<[A; 4]>().read_unaligned() }
    };
    let b: [B; 4] = [f(a[0]), f(a[1]), f(a[2]), f(a[3])];
    // SAFETY: `B` is a plain 8-byte type: the 32 bytes of `b` are initialised.
    unsafe { _mm256_loadu_pd(b.as_ptr().cast::<f64>()) }
}

/// 8 x 8 transpose of 32-bit lanes: `out[m]` lane `k` = `r[k]` lane `m`.
#[target_feature(enable = "avx2")]
#[inline]
fn tr8x8(r: [__m256; 8]) -> [__m256; 8] {
    let t0 = _mm256_unpacklo_ps(r[0], r[1]);
    let t1 = _mm256_unpackhi_ps(r[0], r[1]);
    let t2 = _mm256_unpacklo_ps(r[2], r[3]);
    let t3 = _mm256_unpackhi_ps(r[2], r[3]);
    let t4 = _mm256_unpacklo_ps(r[4], r[5]);
    let t5 = _mm256_unpackhi_ps(r[4], r[5]);
    let t6 = _mm256_unpacklo_ps(r[6], r[7]);
    let t7 = _mm256_unpackhi_ps(r[6], r[7]);
    let s0 = _mm256_shuffle_ps::<0x44>(t0, t2);
    let s1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
    let s2 = _mm256_shuffle_ps::<0x44>(t1, t3);
    let s3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
    let s4 = _mm256_shuffle_ps::<0x44>(t4, t6);
    let s5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
    let s6 = _mm256_shuffle_ps::<0x44>(t5, t7);
    let s7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
    [
        _mm256_permute2f128_ps::<0x20>(s0, s4),
        _mm256_permute2f128_ps::<0x20>(s1, s5),
        _mm256_permute2f128_ps::<0x20>(s2, s6),
        _mm256_permute2f128_ps::<0x20>(s3, s7),
        _mm256_permute2f128_ps::<0x31>(s0, s4),
        _mm256_permute2f128_ps::<0x31>(s1, s5),
        _mm256_permute2f128_ps::<0x31>(s2, s6),
        _mm256_permute2f128_ps::<0x31>(s3, s7),
    ]
}

/// 4 x 4 transpose of 64-bit lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn tr4x4(r: [__m256d; 4]) -> [__m256d; 4] {
    let t0 = _mm256_unpacklo_pd(r[0], r[1]);
    let t1 = _mm256_unpackhi_pd(r[0], r[1]);
    let t2 = _mm256_unpacklo_pd(r[2], r[3]);
    let t3 = _mm256_unpackhi_pd(r[2], r[3]);
    [
        _mm256_permute2f128_pd::<0x20>(t0, t2),
        _mm256_permute2f128_pd::<0x20>(t1, t3),
        _mm256_permute2f128_pd::<0x31>(t0, t2),
        _mm256_permute2f128_pd::<0x31>(t1, t3),
    ]
}

/// Stores 8 floats' worth of bits at `p`, streaming (`p` 32-byte aligned) or not.
///
/// # Safety
/// `p..p+8` is writable; aligned to 32 bytes when `NT`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store_ps<const NT: bool>(p: *mut f32, v: __m256) {
    // SAFETY: caller contract.
    unsafe {
        if NT {
            _mm256_stream_ps(p, v);
        } else {
            _mm256_storeu_ps(p, v);
        }
    }
}

/// As [`store_ps`] for 4 doubles' worth of bits.
///
/// # Safety
/// `p..p+4` is writable; aligned to 32 bytes when `NT`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store_pd<const NT: bool>(p: *mut f64, v: __m256d) {
    // SAFETY: caller contract.
    unsafe {
        if NT {
            _mm256_stream_pd(p, v);
        } else {
            _mm256_storeu_pd(p, v);
        }
    }
}

/// Where the line-sized column blocks start and end: `(begin, end)` with `end - begin` a
/// multiple of `lane`, and whether the rows are all line aligned there.
fn column_blocks<B>(dst: *mut B, c: &Core, lane: usize) -> (usize, usize, bool) {
    let size = core::mem::size_of::<B>();
    let aligned =
        (c.ds.unsigned_abs() * size).is_multiple_of(64) && (dst as usize).is_multiple_of(size);
    let begin = if aligned {
        ((64 - (dst as usize) % 64) % 64 / size).min(c.cols)
    } else {
        0
    };
    let end = begin + (c.cols - begin) / lane * lane;
    (begin, end, aligned)
}

/// Transposition for plain 4-byte destinations; see the module documentation. `AV`: the
/// source elements are plain 4-byte values too (see [`load8`]).
///
/// # Safety
/// The contract of the module documentation.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn tile_b4<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    o: &Opts,
) {
    debug_assert!(c.tp == 1 && core::mem::size_of::<B>() == 4);
    let (jb, je, aligned) = column_blocks(dst, c, 16);
    let (w, r) = (o.strip, c.rows / 8 * 8);
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
                blocks_b4::<true, AV, A, B, F>(src.add(r16), d, &sub, f, w, 8, jb, js);
            }
            if js == jb && c.rows * c.cols * core::mem::size_of::<A>() <= SMALL_CORE_BYTES {
                // A small core (one batch item of `bwc -> bcw`, say): its source stays in the
                // caches, so the order of the writes is what counts.
                bands_b4::<true, AV, A, B, F>(src, dst, c, f, r, jb, je, o.ahead);
            } else {
                blocks_b4::<true, AV, A, B, F>(src, dst, c, f, w, r, js, je);
            }
            _mm_sfence();
        } else {
            blocks_b4::<false, AV, A, B, F>(src, dst, c, f, w, r, jb, je);
        }
        edges(src, dst, c, f, r, jb, je);
    }
}

/// Transposes the 8 x 8 block of source rows `s + k * ts`, `k < 8` (8 elements each) into
/// `out[m]` = destination row `m` (8 elements).
///
/// # Safety
/// As [`load8`] for each of the 8 rows.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn block8<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    s: *const A,
    ts: isize,
    f: &F,
) -> [__m256; 8] {
    // SAFETY: caller contract.
    unsafe {
        tr8x8([
            load8::<AV, A, B, F>(s, f),
            load8::<AV, A, B, F>(s.offset(ts), f),
            load8::<AV, A, B, F>(s.offset(2 * ts), f),
            load8::<AV, A, B, F>(s.offset(3 * ts), f),
            load8::<AV, A, B, F>(s.offset(4 * ts), f),
            load8::<AV, A, B, F>(s.offset(5 * ts), f),
            load8::<AV, A, B, F>(s.offset(6 * ts), f),
            load8::<AV, A, B, F>(s.offset(7 * ts), f),
        ])
    }
}

/// A 16 x 16 tile of 4-byte lanes on the stack, one 64-byte line per row.
#[repr(C, align(64))]
struct Tile16([[__m256; 2]; 16]);

/// The 16 x 16 blocks of [`tile_b4`] (and 16 x 8 blocks for a last group of 8 rows).
///
/// A block reads its 16 source rows as 4 blocks of 8 x 8, each source line's two halves
/// back to back (16 rows of a power-of-two stride share one L1 set, so a line read in two
/// distant passes would be fetched twice), collects the transposed block in a stack tile
/// and then stores each destination row's line whole.
///
/// # Safety
/// As [`tile_b4`]; `rows8 <= rows` is a multiple of 8, `jb..je` whole lines inside `cols`.
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn blocks_b4<const NT: bool, const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    strip: usize,
    rows8: usize,
    jb: usize,
    je: usize,
) {
    let strip = strip.max(16) / 16 * 16;
    let (ts, ds) = (c.ts, c.ds);
    let rows16 = rows8 / 16 * 16;
    let mut tile = Tile16([[_mm256_setzero_ps(); 2]; 16]);
    let mut i0 = 0;
    while i0 < rows16 {
        let i1 = (i0 + strip).min(rows16);
        let mut j = jb;
        while j < je {
            // SAFETY: every `(i + m, j + k)` with `m < 16`, `k < 16` is inside the core.
            unsafe {
                let s = src.offset(j as isize * ts);
                let d = dst.add(j);
                let mut i = i0;
                while i < i1 {
                    for x in 0..2 {
                        let sh = s.offset(8 * x as isize * ts).add(i);
                        let top = block8::<AV, A, B, F>(sh, ts, f);
                        let bottom = block8::<AV, A, B, F>(sh.add(8), ts, f);
                        for m in 0..8 {
                            tile.0[m][x] = top[m];
                            tile.0[8 + m][x] = bottom[m];
                        }
                    }
                    let di = d.offset(i as isize * ds).cast::<f32>();
                    for (m, line) in tile.0.iter().enumerate() {
                        let p = di.offset(m as isize * ds);
                        store_ps::<NT>(p, line[0]);
                        store_ps::<NT>(p.add(8), line[1]);
                    }
                    i += 16;
                }
            }
            j += 16;
        }
        i0 = i1;
    }
    if rows16 < rows8 {
        // The last 8 rows: one band.
        let sub = Core {
            rows: rows8 - rows16,
            ..*c
        };
        // SAFETY: rows `rows16..rows8` of the core, as a core of their own.
        unsafe {
            bands_b4::<NT, AV, A, B, F>(
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

/// Cores whose source is at most this many bytes go through [`bands_b4`] when they stream.
const SMALL_CORE_BYTES: usize = 64 << 10;

/// Transposition of a core in bands of 8 destination rows (streaming stores with `NT`; for small
/// cores, and for the last 8 rows of [`blocks_b4`]'s tiles): each band written
/// left to right, a whole 64-byte line of each of its 8 rows per step (two 8 x 8 blocks), so
/// the writes form 8 sequential streams. With the 16 x 16 tiles of [`blocks_b4`], which walk
/// down a column of lines, the same copy ran about 1.2 × slower on the `bwc -> bcw` items of
/// the benchmark (32 KB each), whose source the caches hold anyway.
///
/// # Safety
/// As [`tile_b4`] (with `NT`, rows line aligned from `jb` on); `rows8 <= rows` is a multiple of
/// 8, `jb..je` whole lines inside `cols`.
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn bands_b4<const NT: bool, const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
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
        let blocks = (rows8 / 8) * (je.saturating_sub(jb) / 16);
        per_block = (span / 64).div_ceil(blocks.max(1));
    }
    let mut i = 0;
    while i < rows8 {
        let mut j = jb;
        while j < je {
            for _ in 0..per_block {
                if next < next_end {
                    // A hint: it never faults and reads nothing into the program.
                    _mm_prefetch::<_MM_HINT_T1>(next);
                    next = next.wrapping_add(64);
                }
            }
            // SAFETY: rows `i..i + 8` and columns `j..j + 16` are inside the core; streaming
            // stores are 32-byte aligned because rows are line aligned from `jb` on.
            unsafe {
                let s = src.offset(j as isize * ts).add(i);
                let lo = block8::<AV, A, B, F>(s, ts, f);
                let hi = block8::<AV, A, B, F>(s.offset(8 * ts), ts, f);
                let di = dst.offset(i as isize * ds).add(j).cast::<f32>();
                for m in 0..8 {
                    let p = di.offset(m as isize * ds);
                    store_ps::<NT>(p, lo[m]);
                    store_ps::<NT>(p.add(8), hi[m]);
                }
            }
            j += 16;
        }
        i += 8;
    }
}

/// One 64-byte line of 4-byte lanes.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([f32; 16]);

/// Lines per destination row of a staged panel.
const STAGE_LINES: usize = 4;

/// Destinations with rows of at least this many columns go through the staging buffer.
/// Shorter rows (`bchw -> chwb` with 64, `bwc -> bcw` with 128) were measured faster with
/// direct blocks: their rows are close together, so direct streaming stores are local.
const STAGE_MIN_COLS: usize = 256;

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
#[allow(clippy::too_many_arguments)]
unsafe fn staged_b4<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
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

/// De-interleaves 8 pixels of 3 channels (`a`, `b`, `c` = 24 consecutive lanes) into the
/// 8 lanes of each channel.
#[target_feature(enable = "avx2")]
#[inline]
fn deinterleave3x8(a: __m256, b: __m256, c: __m256) -> [__m256; 3] {
    // Blend the three vectors so that every lane holds an element of the wanted channel
    // (red is at lanes 0, 3, 6 of `a`, 1, 4, 7 of `b`, 2, 5 of `c`, and so on), then put
    // the lanes in pixel order.
    let r = _mm256_blend_ps::<0b0010_0100>(_mm256_blend_ps::<0b1001_0010>(a, b), c);
    let g = _mm256_blend_ps::<0b0100_1001>(_mm256_blend_ps::<0b0010_0100>(a, b), c);
    let bl = _mm256_blend_ps::<0b1001_0010>(_mm256_blend_ps::<0b0100_1001>(a, b), c);
    [
        _mm256_permutevar8x32_ps(r, _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5)),
        _mm256_permutevar8x32_ps(g, _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6)),
        _mm256_permutevar8x32_ps(bl, _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7)),
    ]
}

/// De-interleave of 3 channels for plain 4-byte destinations (`bhwc -> bchw`): 16 pixels
/// per step, so each channel row receives one whole 64-byte line per step (streamed when
/// asked and the rows are line aligned). Requires `tp == 1`, `ts == 3`, `rows == 3`.
///
/// # Safety
/// The contract of the module documentation, with `c.rows == 3`, `c.ts == 3`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn deinterleave3_b4<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    o: &Opts,
) {
    debug_assert!(c.rows == 3 && c.tp == 1 && c.ts == 3 && core::mem::size_of::<B>() == 4);
    let (jb, je, aligned) = column_blocks(dst, c, 16);
    // SAFETY: pixels `jb..je` of the core (3 source lanes each, 3 destination rows) are
    // inside the view and the destination; the streaming stores are 32-byte aligned since
    // the rows are line aligned from `jb` on.
    unsafe {
        if o.nt && aligned {
            deinterleave3_run::<true, AV, A, B, F>(src, dst, c.ds, f, jb, je);
            _mm_sfence();
        } else {
            deinterleave3_run::<false, AV, A, B, F>(src, dst, c.ds, f, jb, je);
        }
        let head = Core { cols: jb, ..*c };
        super::generic::deinterleave::<3, A, B, F>(src, dst, &head, f, o);
        let tail = Core {
            cols: c.cols - je,
            ..*c
        };
        super::generic::deinterleave::<3, A, B, F>(src.add(3 * je), dst.add(je), &tail, f, o);
    }
}

/// The 16-pixel steps of [`deinterleave3_b4`] over pixels `jb..je`.
///
/// # Safety
/// As [`deinterleave3_b4`]; `je - jb` a multiple of 16.
#[target_feature(enable = "avx2")]
unsafe fn deinterleave3_run<const NT: bool, const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    ds: isize,
    f: &F,
    jb: usize,
    je: usize,
) {
    let d = dst.cast::<f32>();
    let mut j = jb;
    while j < je {
        // SAFETY: pixels `j..j + 16` (48 source lanes) and their 3 destination rows are
        // inside the core.
        unsafe {
            let s = src.add(3 * j);
            let lo = deinterleave3x8(
                load8::<AV, A, B, F>(s, f),
                load8::<AV, A, B, F>(s.add(8), f),
                load8::<AV, A, B, F>(s.add(16), f),
            );
            let hi = deinterleave3x8(
                load8::<AV, A, B, F>(s.add(24), f),
                load8::<AV, A, B, F>(s.add(32), f),
                load8::<AV, A, B, F>(s.add(40), f),
            );
            for q in 0..3 {
                let p = d.offset(q as isize * ds).add(j);
                store_ps::<NT>(p, lo[q]);
                store_ps::<NT>(p.add(8), hi[q]);
            }
        }
        j += 16;
    }
}

/// Transposition for plain 8-byte destinations; see the module documentation. `AV`: the
/// source elements are plain 8-byte values too (see [`load4`]).
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

/// The 8 x 4 blocks of [`tile_b8`].
///
/// # Safety
/// As [`tile_b8`]; `rows4 <= rows` is a multiple of 4, `jb..je` whole lines inside `cols`.
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn blocks_b8<const NT: bool, const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
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

/// The parts of the core the blocks leave: columns `..jb` and `je..` of every row, and
/// rows `rows_b..` of columns `jb..je`.
///
/// # Safety
/// The contract of the module documentation; `rows_b <= rows`, `jb <= je <= cols`.
unsafe fn edges<A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    c: &Core,
    f: &F,
    rows_b: usize,
    jb: usize,
    je: usize,
) {
    // SAFETY: each call addresses a sub-rectangle of the core.
    unsafe {
        if jb > 0 {
            generic::tile(src, dst, &Core { cols: jb, ..*c }, f, &Opts::PLAIN);
        }
        if je < c.cols {
            let sub = Core {
                cols: c.cols - je,
                ..*c
            };
            generic::tile(
                src.offset(je as isize * c.ts),
                dst.add(je),
                &sub,
                f,
                &Opts::PLAIN,
            );
        }
        if rows_b < c.rows && je > jb {
            let sub = Core {
                rows: c.rows - rows_b,
                cols: je - jb,
                ..*c
            };
            let s = src.offset(rows_b as isize * c.tp + jb as isize * c.ts);
            let d = dst.offset(rows_b as isize * c.ds).add(jb);
            generic::tile(s, d, &sub, f, &Opts::PLAIN);
        }
    }
}

/// 8 bytes at `p` as 8 `f32`.
///
/// # Safety
/// `p..p+8` is readable; AVX2 is available.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load8_u8_f32(p: *const u8) -> __m256 {
    // SAFETY: 8 readable bytes (caller contract); `_mm_loadl_epi64` reads 8 bytes unaligned.
    unsafe { _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64(p.cast()))) }
}

/// Pixels of three interleaved `u8` channels into three `f32` rows, channel `k` as
/// `(v - mean[k]) / std[k]`, in reverse pixel order when `reverse`: every pixel of a row of at
/// least 8 (steps of 8, and one more over the last 8 when `n` is not a multiple: its first
/// pixels are written twice, with the same values), none of a shorter one. Returns how many
/// pixels it wrote (`n` or 0); the rest is the caller's.
///
/// # Safety
/// AVX2 is available; `src..src + 3n` is readable; each of `rows` has `n` writable `f32`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn deinterleave3_u8_affine(
    src: *const u8,
    n: usize,
    rows: [*mut f32; 3],
    mean: [f32; 3],
    std: [f32; 3],
    reverse: bool,
) -> usize {
    if n < 8 {
        return 0;
    }
    let m = [
        _mm256_set1_ps(mean[0]),
        _mm256_set1_ps(mean[1]),
        _mm256_set1_ps(mean[2]),
    ];
    let sd = [
        _mm256_set1_ps(std[0]),
        _mm256_set1_ps(std[1]),
        _mm256_set1_ps(std[2]),
    ];
    let rev = _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0);
    let mut j = 0;
    loop {
        // SAFETY: `j + 8 <= n`: pixels `j..j + 8` are 24 readable bytes from `src + 3j`, and
        // the 8 floats written to each row at `j` (or `n - j - 8`) are inside its `n`.
        unsafe {
            let p = src.add(3 * j);
            let px = deinterleave3x8(
                load8_u8_f32(p),
                load8_u8_f32(p.add(8)),
                load8_u8_f32(p.add(16)),
            );
            for k in 0..3 {
                let v = _mm256_div_ps(_mm256_sub_ps(px[k], m[k]), sd[k]);
                if reverse {
                    _mm256_storeu_ps(rows[k].add(n - j - 8), _mm256_permutevar8x32_ps(v, rev));
                } else {
                    _mm256_storeu_ps(rows[k].add(j), v);
                }
            }
        }
        if j + 8 == n {
            return n;
        }
        // The next step, or the last 8 pixels.
        j = (j + 8).min(n - 8);
    }
}
