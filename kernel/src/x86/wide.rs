//! The 16 x 16 blocks of the 4-byte transposition with AVX-512, for the tiles of larger cores and
//! the bands of small ones: a block's 16 source lines are loaded into 16 of the 32 vector
//! registers, transposed there (four stages of shuffles, 64 for 256 elements, where two 8 x 8
//! AVX2 blocks take 96 and a pass through a stack tile), and each destination row's 64-byte line
//! is stored with one instruction.

use core::arch::x86_64::{
    __m512, _mm512_castpd_ps, _mm512_castps_pd, _mm512_loadu_ps, _mm512_setzero_ps,
    _mm512_shuffle_f32x4, _mm512_storeu_ps, _mm512_stream_ps, _mm512_unpackhi_pd,
    _mm512_unpackhi_ps, _mm512_unpacklo_pd, _mm512_unpacklo_ps,
};

use super::bands::walk_bands;
use super::blocks::walk_b4;
use crate::loops::Core;

/// Whether the CPU has AVX-512 (foundation), cached by std after the first call. The caller also
/// checks [`has_avx2`](super::has_avx2), which honours `BATCHSPEC_DISABLE_SIMD`.
pub(crate) fn has_avx512() -> bool {
    std::is_x86_feature_detected!("avx512f")
}

/// Loads 16 consecutive `A` from `p`, maps them and returns the bits as a vector; as
/// [`load8`](super::regs::load8) for 16 lanes.
///
/// # Safety
/// `p..p+16` is readable; `B` is a plain 4-byte type, and so is `A` when `AV`; AVX-512F is
/// available.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn load16<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(p: *const A, f: &F) -> __m512 {
    let a: [A; 16] = if AV {
        let mut a = core::mem::MaybeUninit::<[A; 16]>::uninit();
        // SAFETY: `A` is a plain 4-byte type: 64 readable bytes at `p` (unaligned load),
        // written whole into `a`, and any bit pattern is a valid `A`.
        unsafe {
            _mm512_storeu_ps(
                a.as_mut_ptr().cast::<f32>(),
                _mm512_loadu_ps(p.cast::<f32>()),
            );
            a.assume_init()
        }
    } else {
        // SAFETY: the caller guarantees 16 readable `A`; `[A; 16]` has the layout of 16
        // consecutive `A` and `read_unaligned` needs no alignment.
        unsafe { p.cast::<[A; 16]>().read_unaligned() }
    };
    let mut b = [f(a[0]); 16];
    for k in 1..16 {
        b[k] = f(a[k]);
    }
    // SAFETY: `B` is a plain 4-byte type (caller contract): the 64 bytes of `b` are
    // initialised; the load is unaligned.
    unsafe { _mm512_loadu_ps(b.as_ptr().cast::<f32>()) }
}

/// 16 x 16 transpose of 32-bit lanes: `out[m]` lane `k` = `r[k]` lane `m`.
#[target_feature(enable = "avx512f")]
#[inline]
fn tr16x16(r: &[__m512; 16]) -> [__m512; 16] {
    // Pairs of rows interleaved by 32-bit lanes, then by 64-bit lanes: `u[4k + q]` holds, in
    // each 128-bit lane `l`, column `4l + q` of rows `4k..4k + 4`.
    let mut t = [_mm512_setzero_ps(); 16];
    for k in 0..8 {
        t[2 * k] = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
    }
    let mut u = [_mm512_setzero_ps(); 16];
    for k in 0..4 {
        let (a0, a1) = (_mm512_castps_pd(t[4 * k]), _mm512_castps_pd(t[4 * k + 1]));
        let (b0, b1) = (
            _mm512_castps_pd(t[4 * k + 2]),
            _mm512_castps_pd(t[4 * k + 3]),
        );
        u[4 * k] = _mm512_castpd_ps(_mm512_unpacklo_pd(a0, b0));
        u[4 * k + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a0, b0));
        u[4 * k + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(a1, b1));
        u[4 * k + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(a1, b1));
    }
    // Then the 128-bit lanes of the four groups of rows gathered: column `4l + q` is lane `l`
    // of `u[q]`, `u[4 + q]`, `u[8 + q]`, `u[12 + q]`.
    let mut v = [_mm512_setzero_ps(); 16];
    for q in 0..4 {
        let ab_lo = _mm512_shuffle_f32x4::<0x44>(u[q], u[4 + q]);
        let ab_hi = _mm512_shuffle_f32x4::<0xEE>(u[q], u[4 + q]);
        let cd_lo = _mm512_shuffle_f32x4::<0x44>(u[8 + q], u[12 + q]);
        let cd_hi = _mm512_shuffle_f32x4::<0xEE>(u[8 + q], u[12 + q]);
        v[q] = _mm512_shuffle_f32x4::<0x88>(ab_lo, cd_lo);
        v[4 + q] = _mm512_shuffle_f32x4::<0xDD>(ab_lo, cd_lo);
        v[8 + q] = _mm512_shuffle_f32x4::<0x88>(ab_hi, cd_hi);
        v[12 + q] = _mm512_shuffle_f32x4::<0xDD>(ab_hi, cd_hi);
    }
    v
}

/// One 16 x 16 block with AVX-512: source rows `s + k * ts` (`k < 16`, 16 elements each) loaded
/// into 16 registers, transposed there ([`tr16x16`]), each destination row's line (`d + m *
/// ds`, `m < 16`) stored with one instruction.
///
/// # Safety
/// Every `(m, k)` with `m < 16`, `k < 16` of the block is inside the core; each line 64-byte
/// aligned with `NT`; as [`load16`] for each source row.
#[target_feature(enable = "avx512f,avx2")]
#[inline]
unsafe fn block16<const NT: bool, const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    s: *const A,
    d: *mut f32,
    ts: isize,
    ds: isize,
    f: &F,
) {
    let mut r = [_mm512_setzero_ps(); 16];
    // SAFETY: caller contract.
    unsafe {
        for (k, row) in r.iter_mut().enumerate() {
            *row = load16::<AV, A, B, F>(s.offset(k as isize * ts), f);
        }
        for (m, line) in tr16x16(&r).iter().enumerate() {
            let p = d.offset(m as isize * ds);
            if NT {
                _mm512_stream_ps(p, *line);
            } else {
                _mm512_storeu_ps(p, *line);
            }
        }
    }
}

/// The 16 x 16 blocks of [`tile_b4`](super::tile_b4) with AVX-512, walked as
/// [`blocks_b4`](super::blocks::blocks_b4) walks its own ([`walk_b4`]: strips of `strip`
/// destination rows, each `lines` columns of lines at a time), the last group of 8 rows as one
/// AVX2 band.
///
/// # Safety
/// As [`tile_b4`](super::tile_b4) (with `NT`, rows line aligned from `jb` on, so that each
/// line's streaming store is 64-byte aligned); AVX-512F is available; `rows8 <= rows` is a
/// multiple of 8, `jb..je` whole lines inside `cols`.
#[target_feature(enable = "avx512f,avx2")]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn blocks_b4_wide<
    const NT: bool,
    const AV: bool,
    A: Copy,
    B: Copy,
    F: Fn(A) -> B,
>(
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
        // SAFETY: every block the walk hands over is inside the core; the streaming stores are
        // 64-byte aligned (caller contract).
        unsafe { block16::<NT, AV, A, B, F>(s, d, ts, ds, f) }
    };
    // SAFETY: the walk hands over blocks inside the core (caller contract).
    unsafe {
        walk_b4::<NT, AV, A, B, F>(src, dst, c, f, strip, lines, rows8, jb, je, prefetch, block)
    }
}

/// The bands of small cores ([`bands_b4`](super::bands::bands_b4)) with AVX-512: each step's
/// 16 x 16 block transposed in registers ([`block16`]) and each destination row's line stored
/// with one instruction (a last band of 8 rows as the AVX2 bands write it).
///
/// # Safety
/// As [`bands_b4`](super::bands::bands_b4); AVX-512F is available.
#[target_feature(enable = "avx512f,avx2")]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn bands_b4_wide<
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
        // SAFETY: the block's 16 source rows and 16 destination rows are inside the core; the
        // streaming stores are 64-byte aligned (rows line aligned from `jb` on).
        unsafe { block16::<NT, AV, A, B, F>(s, d, ts, ds, f) }
    };
    // SAFETY: caller contract; the step writes the block it is given.
    unsafe { walk_bands::<NT, SHARED, AV, A, B, F>(src, dst, c, f, rows8, jb, je, ahead, step16) }
}
