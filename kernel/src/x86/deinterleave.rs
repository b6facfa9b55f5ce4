//! De-interleave of 3 channels with AVX2: plain 4-byte elements (`bhwc -> bchw`) and `u8`
//! pixels normalised into `f32` rows.

use core::arch::x86_64::{
    __m256, _MM_HINT_T0, _mm_prefetch, _mm_sfence, _mm256_add_ps, _mm256_blend_ps, _mm256_div_ps,
    _mm256_mul_ps, _mm256_permutevar8x32_ps, _mm256_set1_ps, _mm256_setr_epi32, _mm256_storeu_ps,
    _mm256_sub_ps,
};

use super::edges::column_blocks;
use super::regs::{load8, load8_u8_f32, store_ps};
use crate::exec::Opts;
use crate::loops::Core;

/// De-interleaves 8 pixels of 3 channels (`a`, `b`, `c` = 24 consecutive lanes) into the
/// 8 lanes of each channel.
#[target_feature(enable = "avx2")]
#[inline]
fn deinterleave3x8(a: __m256, b: __m256, c: __m256) -> [__m256; 3] {
    [
        channel3x8::<0>(a, b, c),
        channel3x8::<1>(a, b, c),
        channel3x8::<2>(a, b, c),
    ]
}

/// The 8 lanes of channel `Q` of 8 pixels of 3 channels (`a`, `b`, `c` = 24 consecutive
/// lanes).
#[target_feature(enable = "avx2")]
#[inline]
fn channel3x8<const Q: usize>(a: __m256, b: __m256, c: __m256) -> __m256 {
    // Blend the three vectors so that every lane holds an element of the wanted channel
    // (red is at lanes 0, 3, 6 of `a`, 1, 4, 7 of `b`, 2, 5 of `c`, and so on), then put
    // the lanes in pixel order.
    match Q {
        0 => _mm256_permutevar8x32_ps(
            _mm256_blend_ps::<0b0010_0100>(_mm256_blend_ps::<0b1001_0010>(a, b), c),
            _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5),
        ),
        1 => _mm256_permutevar8x32_ps(
            _mm256_blend_ps::<0b0100_1001>(_mm256_blend_ps::<0b0010_0100>(a, b), c),
            _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6),
        ),
        _ => _mm256_permutevar8x32_ps(
            _mm256_blend_ps::<0b1001_0010>(_mm256_blend_ps::<0b0100_1001>(a, b), c),
            _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7),
        ),
    }
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
        if o.nt && aligned && o.parts <= 1 && o.runs >= 16 {
            // The next core's source, where the plan knows it: the last run prefetches it.
            let next = (o.ahead != 0).then(|| src.wrapping_offset(o.ahead));
            deinterleave3_runs::<AV, A, B, F>(src, dst, c.ds, f, jb, je, o.runs / 16 * 16, next);
            _mm_sfence();
        } else if o.nt && aligned {
            deinterleave3_run::<true, AV, A, B, F>(src, dst, c.ds, f, jb, je, o.parts);
            _mm_sfence();
        } else {
            deinterleave3_run::<false, AV, A, B, F>(src, dst, c.ds, f, jb, je, 1);
        }
        let head = Core { cols: jb, ..*c };
        crate::generic::deinterleave::<3, A, B, F>(src, dst, &head, f, o);
        let tail = Core {
            cols: c.cols - je,
            ..*c
        };
        crate::generic::deinterleave::<3, A, B, F>(src.add(3 * je), dst.add(je), &tail, f, o);
    }
}

/// The 16-pixel steps of [`deinterleave3_b4`] over pixels `jb..je`, in `parts` equal runs of
/// whole steps taken a step of each in turn, then the steps left (1: in order). Streamed, the
/// source is then read at `parts` places at once (beyond the last-level cache: the bench's case
/// L, 512 images of 224 x 224 x 3, 0.87 × memcpy in one part, 1.04 in four, on the Intel Xeon
/// host).
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
    parts: usize,
) {
    // In order (one part): every step in the loop of the steps left, a plain loop (the nested
    // one with a single part ran B 0.81-0.83 × memcpy against 0.93-0.94).
    let parts = parts.max(1);
    let per = if parts > 1 { (je - jb) / 16 / parts } else { 0 };
    let rest = jb + parts * per * 16;
    // SAFETY: step `k` of part `p` is pixels `j..j + 16` with `j + 16 <= rest <= je`; the
    // steps after `rest` are whole steps inside `jb..je` too.
    unsafe {
        for k in 0..per {
            for p in 0..parts {
                deinterleave3_step::<NT, AV, A, B, F>(src, dst, ds, f, jb + (p * per + k) * 16);
            }
        }
        let mut j = rest;
        while j < je {
            deinterleave3_step::<NT, AV, A, B, F>(src, dst, ds, f, j);
            j += 16;
        }
    }
}

/// The 16-pixel steps of [`deinterleave3_b4`] over pixels `jb..je`, streamed one channel's row
/// at a time: in runs of `run` pixels, each run's three rows written one after the other (the
/// run's source, read three times, stays in the caches), while the next run's source (after
/// the last run, the next core's first, at `next`, when known) is prefetched, spread over the
/// run's steps. Three rows written a line each per step keep three streams of
/// streaming stores open at once: beyond the last-level cache of a 32 MiB-L3 EPYC they ran
/// 0.70-0.75 × memcpy in a C program of case L, one row at a time fed so 0.85-0.92.
///
/// # Safety
/// As [`deinterleave3_b4`]; `je - jb` and `run` (at least 16) multiples of 16.
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn deinterleave3_runs<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    ds: isize,
    f: &F,
    jb: usize,
    je: usize,
    run: usize,
    next: Option<*const A>,
) {
    let mut p0 = jb;
    while p0 < je {
        let p1 = (p0 + run).min(je);
        // The next run's source (a hint only, never read: its address is computed without
        // claiming it is inside anything).
        let (at, pixels) = if p1 < je {
            (src.wrapping_add(3 * p1), (je - p1).min(run))
        } else if let Some(n) = next {
            (n.wrapping_add(3 * jb), (je - jb).min(run))
        } else {
            (src, 0)
        };
        let mut ahead = Ahead {
            at: at.cast(),
            bytes: 3 * pixels * core::mem::size_of::<A>(),
            // The next run's source spread over this run's 3 rows of steps: a line a step for
            // 4-byte values.
            step: 16 * core::mem::size_of::<A>(),
            fetched: 0,
            due: 0,
        };
        // SAFETY: pixels `p0..p1` are whole steps inside `jb..je` (the caller's contract).
        unsafe {
            deinterleave3_row_run::<0, AV, A, B, F>(src, dst, ds, f, p0, p1, &mut ahead);
            deinterleave3_row_run::<1, AV, A, B, F>(src, dst, ds, f, p0, p1, &mut ahead);
            deinterleave3_row_run::<2, AV, A, B, F>(src, dst, ds, f, p0, p1, &mut ahead);
        }
        p0 = p1;
    }
}

/// What [`deinterleave3_runs`] prefetches while it writes a run: `bytes` from `at`, `step`
/// more of them each step, `fetched` so far.
struct Ahead {
    at: *const i8,
    bytes: usize,
    step: usize,
    fetched: usize,
    due: usize,
}

impl Ahead {
    /// A step's share of the prefetch.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn step(&mut self) {
        self.due = (self.due + self.step).min(self.bytes);
        while self.fetched < self.due {
            // A hint: it never faults and reads nothing into the program.
            _mm_prefetch::<_MM_HINT_T0>(self.at.wrapping_add(self.fetched));
            self.fetched += 64;
        }
    }
}

/// Channel `Q`'s row of pixels `p0..p1` (whole steps), streamed, a step of `ahead` each step.
///
/// # Safety
/// As [`deinterleave3_b4`]; pixels `p0..p1` whole steps inside the core, destination rows
/// line aligned from `p0` on.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn deinterleave3_row_run<const Q: usize, const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    ds: isize,
    f: &F,
    p0: usize,
    p1: usize,
    ahead: &mut Ahead,
) {
    // SAFETY: channel `Q`'s row starts `Q * ds` elements into the destination core.
    let row = unsafe { dst.cast::<f32>().offset(Q as isize * ds) };
    let mut j = p0;
    while j < p1 {
        ahead.step();
        // SAFETY: pixels `j..j + 16` (48 source lanes) and channel `Q`'s row at `j..j + 16`
        // (a whole line, 32-byte aligned) are inside the core.
        unsafe {
            let s = src.add(3 * j);
            let lo = channel3x8::<Q>(
                load8::<AV, A, B, F>(s, f),
                load8::<AV, A, B, F>(s.add(8), f),
                load8::<AV, A, B, F>(s.add(16), f),
            );
            let hi = channel3x8::<Q>(
                load8::<AV, A, B, F>(s.add(24), f),
                load8::<AV, A, B, F>(s.add(32), f),
                load8::<AV, A, B, F>(s.add(40), f),
            );
            store_ps::<true>(row.add(j), lo);
            store_ps::<true>(row.add(j + 8), hi);
        }
        j += 16;
    }
}

/// One 16-pixel step of [`deinterleave3_b4`]: pixels `j..j + 16` into a whole line of each
/// channel's row.
///
/// # Safety
/// As [`deinterleave3_b4`]; pixels `j..j + 16` inside the core.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn deinterleave3_step<const NT: bool, const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    src: *const A,
    dst: *mut B,
    ds: isize,
    f: &F,
    j: usize,
) {
    let d = dst.cast::<f32>();
    // SAFETY: pixels `j..j + 16` (48 source lanes) and their 3 destination rows are inside the
    // core.
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
}

/// Pixels of three interleaved `u8` channels into three `f32` rows, channel `k` as
/// `(v - a[k]) / b[k]`, or as `v * a[k] + b[k]` when `MUL_ADD` (a product then a sum, two
/// roundings, as Rust's `v * a + b` on `f32`), in reverse pixel order when `reverse`: every pixel
/// of a row of at least 8 (steps of 8, and one more over the last 8 when `n` is not a multiple:
/// its first pixels are written twice, with the same values), none of a shorter one. Returns how
/// many pixels it wrote (`n` or 0); the rest is the caller's.
///
/// # Safety
/// AVX2 is available; `src..src + 3n` is readable; each of `rows` has `n` writable `f32`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn deinterleave3_u8_affine<const MUL_ADD: bool>(
    src: *const u8,
    n: usize,
    rows: [*mut f32; 3],
    (a, b): ([f32; 3], [f32; 3]),
    reverse: bool,
) -> usize {
    if n < 8 {
        return 0;
    }
    let a = [
        _mm256_set1_ps(a[0]),
        _mm256_set1_ps(a[1]),
        _mm256_set1_ps(a[2]),
    ];
    let b = [
        _mm256_set1_ps(b[0]),
        _mm256_set1_ps(b[1]),
        _mm256_set1_ps(b[2]),
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
                let v = if MUL_ADD {
                    _mm256_add_ps(_mm256_mul_ps(px[k], a[k]), b[k])
                } else {
                    _mm256_div_ps(_mm256_sub_ps(px[k], a[k]), b[k])
                };
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
