//! Register primitives of the AVX2 kernels: loads of 8 (4) mapped elements into a vector, the
//! in-register 8 x 8 (4 x 4) transposes, plain or streaming stores, and the load-and-transpose
//! of one 8 x 8 block of 4-byte lanes, and of a 16 x 16 block through a tile on the stack.

use core::arch::x86_64::{
    __m256, __m256d, _mm_loadl_epi64, _mm256_cvtepi32_ps, _mm256_cvtepu8_epi32, _mm256_loadu_pd,
    _mm256_loadu_ps, _mm256_permute2f128_pd, _mm256_permute2f128_ps, _mm256_setzero_ps,
    _mm256_shuffle_ps, _mm256_storeu_pd, _mm256_storeu_ps, _mm256_stream_pd, _mm256_stream_ps,
    _mm256_unpackhi_pd, _mm256_unpackhi_ps, _mm256_unpacklo_pd, _mm256_unpacklo_ps,
};

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
pub(super) unsafe fn load8<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    p: *const A,
    f: &F,
) -> __m256 {
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
pub(super) unsafe fn load4<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    p: *const A,
    f: &F,
) -> __m256d {
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
pub(super) fn tr8x8(r: [__m256; 8]) -> [__m256; 8] {
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
pub(super) fn tr4x4(r: [__m256d; 4]) -> [__m256d; 4] {
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
pub(super) unsafe fn store_ps<const NT: bool>(p: *mut f32, v: __m256) {
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
pub(super) unsafe fn store_pd<const NT: bool>(p: *mut f64, v: __m256d) {
    // SAFETY: caller contract.
    unsafe {
        if NT {
            _mm256_stream_pd(p, v);
        } else {
            _mm256_storeu_pd(p, v);
        }
    }
}

/// Transposes the 8 x 8 block of source rows `s + k * ts`, `k < 8` (8 elements each) into
/// `out[m]` = destination row `m` (8 elements).
///
/// # Safety
/// As [`load8`] for each of the 8 rows.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn block8<const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
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

/// 8 bytes at `p` as 8 `f32`.
///
/// # Safety
/// `p..p+8` is readable; AVX2 is available.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn load8_u8_f32(p: *const u8) -> __m256 {
    // SAFETY: 8 readable bytes (caller contract); `_mm_loadl_epi64` reads 8 bytes unaligned.
    unsafe { _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64(p.cast()))) }
}

/// A 16 x 16 tile of 4-byte lanes on the stack, one 64-byte line per row.
#[repr(C, align(64))]
struct Tile16([[__m256; 2]; 16]);

/// One 16 x 16 block of [`blocks_b4`](super::blocks::blocks_b4) and
/// [`bands_b4`](super::bands::bands_b4): source rows `s + k * ts` (`k < 16`, 16 elements each)
/// into destination rows `d + m * ds` (`m < 16`, one 64-byte line each), as four 8 x 8 blocks
/// collected in a tile on the stack (each source line's two halves read back to back).
///
/// # Safety
/// Every `(m, k)` with `m < 16`, `k < 16` of the block is inside the core; as
/// [`store_ps`] for each line (32-byte aligned with `NT`); as [`load8`] for each source row.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn block16<const NT: bool, const AV: bool, A: Copy, B: Copy, F: Fn(A) -> B>(
    s: *const A,
    d: *mut f32,
    ts: isize,
    ds: isize,
    f: &F,
) {
    let mut tile = Tile16([[_mm256_setzero_ps(); 2]; 16]);
    // SAFETY: caller contract.
    unsafe {
        for x in 0..2 {
            let sh = s.offset(8 * x as isize * ts);
            let top = block8::<AV, A, B, F>(sh, ts, f);
            let bottom = block8::<AV, A, B, F>(sh.add(8), ts, f);
            for m in 0..8 {
                tile.0[m][x] = top[m];
                tile.0[8 + m][x] = bottom[m];
            }
        }
        for (m, line) in tile.0.iter().enumerate() {
            let p = d.offset(m as isize * ds);
            store_ps::<NT>(p, line[0]);
            store_ps::<NT>(p.add(8), line[1]);
        }
    }
}
