//! Layout-conversion kernels: a strided array of rank 0 to 6, written with its axes permuted
//! into a C-order buffer, each element passed through a map (so a cast such as `u8 -> f32`
//! costs no extra pass).
//!
//! ```
//! use batchspec_kernel::{permute_into, Threads};
//! use ndarray::Array4;
//!
//! // A batch of 2 images of 3 x 4 pixels with 3 channels, `bhwc`, converted to `bchw`.
//! let bhwc = Array4::from_shape_fn((2, 3, 4, 3), |(b, h, w, c)| (b * 100 + h * 10 + w + c * 1000) as u8);
//! let mut bchw = vec![0.0f32; bhwc.len()];
//! permute_into(bhwc.view().into_dyn(), &[0, 3, 1, 2], &mut bchw, |x| f32::from(x), Threads::One)?;
//! // bchw[b][c][h][w] == bhwc[b][h][w][c]
//! assert_eq!(bchw[((1 * 3 + 2) * 3 + 1) * 4 + 3], f32::from(bhwc[[1, 1, 3, 2]]));
//! # Ok::<(), batchspec_kernel::KernelError>(())
//! ```
//!
//! # How a copy is run
//!
//! The permuted copy is first normalised (`plan`): axes of length 1 are dropped and output
//! axes that are neighbours in the source too are merged. What is left is a loop nest of
//! at most four outer axes around one 2-D *core*, `rows x cols`, contiguous along `cols` in
//! the destination, and one of these kernels runs the core:
//!
//! * **row copy** when the innermost axis is kept (the source is contiguous along `cols`):
//!   a memcpy-like loop per row;
//! * **de-interleave** when a unit-stride source axis of length 2 to 4 moves outward
//!   (`bhwc -> bchw` with up to 4 channels), and **interleave** for the inverse;
//! * **tiled transposition** otherwise: on x86-64 with AVX2 (detected at run time, AVX-512's
//!   16 x 16 blocks for 4-byte elements where the CPU has it) and 4- or 8-byte integer or float
//!   elements, register transposes that store whole 64-byte destination lines, with
//!   non-temporal stores for large outputs; a portable tiled loop in every other case.
//!
//! The kernels are generic over the element types and the map, not over sizes, rank or
//! permutation. With the `rayon` feature (on by default) the work can be split over threads
//! ([`Threads`]).
#![doc = include_str!("../doc/kernel.md")]
// The only part with `unsafe` code (the workspace denies it elsewhere): raw strided loops,
// each block with its `SAFETY:` comment.
#![allow(unsafe_code)]

mod cpu;
mod error;
mod exec;
mod generic;
mod loops;
mod pages;
mod rows;
mod tuning;
mod unfilled;
#[cfg(target_arch = "x86_64")]
mod x86;

use core::any::TypeId;

use ndarray::{ArrayView, IxDyn};

use exec::{Job, KernelFn, Opts};
use loops::{LoopNest, Shape};

pub use cpu::simd_enabled;
pub use error::KernelError;
pub use loops::MAX_RANK;
pub use pages::{
    HUGE_PAGE, HUGE_PAGE_MIN_BYTES, advise_huge_pages, prefetch_read, vec_for_writing,
};
pub use rows::{gather_rows, gather_rows_into, gather_rows_tuned};
pub use tuning::{
    Caches, ROW_PREFETCH_LINES, Tuning, calibrating, panels_streaming_decided,
    row_prefetch_decided, staging_decided, stream_lines_decided, stream_parts_decided,
    wide_panels_decided,
};
pub use unfilled::{Part, Unfilled};

/// How many threads a conversion may use.
///
/// Threads come from the current rayon pool (the global pool unless the call runs inside
/// [`rayon::ThreadPool::install`](https://docs.rs/rayon/1/rayon/struct.ThreadPool.html#method.install)).
/// Without the `rayon` feature every conversion runs on the calling thread. Small
/// conversions (less than 4 MiB written) also run on the calling thread whatever is asked:
/// waking a second thread costs more than it saves there (measured on a 2-core VM, a 3 MiB
/// `bhwc -> bchw` ran at about half the speed on two threads as on one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Threads {
    /// Run on the calling thread.
    #[default]
    One,
    /// Split the output in two halves run with `rayon::join`.
    Two,
    /// Split the output in as many parts as the current rayon pool has threads.
    All,
}

impl Threads {
    /// The number of parts the work is split into.
    pub fn count(self) -> usize {
        match self {
            Threads::One => 1,
            #[cfg(feature = "rayon")]
            Threads::Two => 2,
            #[cfg(feature = "rayon")]
            Threads::All => rayon::current_num_threads().max(1),
            #[cfg(not(feature = "rayon"))]
            Threads::Two | Threads::All => 1,
        }
    }
}

/// Writes `src` into `dst` in C order with its axes permuted, mapping every element.
///
/// `dst` has the shape `[src.shape()[perm[0]], src.shape()[perm[1]], ...]` and
/// `dst[i0, i1, ..] = f(src[idx])` where `idx[perm[k]] = i_k` (NumPy's
/// `np.copyto(dst, f(src.transpose(perm)))`). `src` may have any strides, negative and
/// zero included. With `A == B` and an identity map (`|x| x`) this runs at the speed of a
/// copy for the common layouts; see the [module documentation](self).
///
/// # Errors
/// [`KernelError::RankTooLarge`] for more than [`MAX_RANK`] axes,
/// [`KernelError::NotAPermutation`] when `perm` is not a permutation of `0..src.ndim()`,
/// [`KernelError::LengthMismatch`] when `dst.len() != src.len()`.
pub fn permute_into<A, B, F>(
    src: ArrayView<'_, A, IxDyn>,
    perm: &[usize],
    dst: &mut [B],
    f: F,
    threads: Threads,
) -> Result<(), KernelError>
where
    A: Copy + Sync,
    B: Copy + Send,
    F: Fn(A) -> B + Sync,
{
    permute_with(
        src,
        perm,
        as_uninit(dst),
        f,
        threads,
        &Tuning::for_machine(),
        true,
    )
}

/// [`permute_into`] into memory not written yet: on `Ok`, every value of `dst` has been written
/// once (a permutation writes each place of its destination, and the kernels never read it), so
/// `dst` may then be taken as initialised; on `Err`, nothing is written. What a transposed batch
/// given away is made of (a batch of its own, never zero-filled first).
///
/// ```
/// use core::mem::MaybeUninit;
/// let src = ndarray::arr2(&[[1u8, 2, 3], [4, 5, 6]]);
/// let mut dst: Vec<f32> = Vec::with_capacity(6);
/// batchspec_kernel::permute_into_uninit(
///     src.view().into_dyn(),
///     &[1, 0],
///     &mut dst.spare_capacity_mut()[..6],
///     f32::from,
///     batchspec_kernel::Threads::One,
/// )?;
/// // SAFETY: the call returned `Ok`: the 6 values are written.
/// unsafe { dst.set_len(6) };
/// assert_eq!(dst, [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
/// # Ok::<(), batchspec_kernel::KernelError>(())
/// ```
///
/// # Errors
/// As [`permute_into`].
pub fn permute_into_uninit<A, B, F>(
    src: ArrayView<'_, A, IxDyn>,
    perm: &[usize],
    dst: &mut [core::mem::MaybeUninit<B>],
    f: F,
    threads: Threads,
) -> Result<(), KernelError>
where
    A: Copy + Sync,
    B: Copy + Send,
    F: Fn(A) -> B + Sync,
{
    permute_with(src, perm, dst, f, threads, &Tuning::for_machine(), true)
}

/// The samples `rows` of `src` (its axis 0 holds the samples), each with its axes permuted by
/// `perm` and every value passed through `f`, then `pad_rows` samples of `pad`, as a new vector:
/// the values of `[rows.len() + pad_rows, ..the permuted sample axes]` in C order. `perm` keeps
/// the sample axis first (`perm[0] == 0`).
///
/// What a transposed batch given away is made of (`bhwc` images served as `bchw`): each sample
/// is permuted ([`permute_into_uninit`]) into its part of memory written once, never
/// zero-filled before, and asked for 2 MB pages when it is large ([`vec_for_writing`]).
///
/// ```
/// // Two samples of 2 x 3, transposed to 3 x 2, the second row first, then one padding sample.
/// let src = ndarray::Array3::from_shape_fn((2, 2, 3), |(i, r, c)| (i * 10 + r * 3 + c) as u8);
/// let v = batchspec_kernel::gather_permuted(src.view().into_dyn(), &[1], 1, -1.0f32, &[0, 2, 1], f32::from)?;
/// assert_eq!(v, [10.0, 13.0, 11.0, 14.0, 12.0, 15.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0]);
/// # Ok::<(), batchspec_kernel::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::RowOutOfRange`] for a row not in `src`, [`KernelError::NotAPermutation`] when
/// `perm` is not a permutation of `src`'s axes that keeps axis 0 first, and
/// [`KernelError::LengthMismatch`] when the output's length overflows; nothing is allocated then.
pub fn gather_permuted<A, B, F>(
    src: ArrayView<'_, A, IxDyn>,
    rows: &[usize],
    pad_rows: usize,
    pad: B,
    perm: &[usize],
    f: F,
) -> Result<Vec<B>, KernelError>
where
    A: Copy + Sync,
    B: Copy + Send,
    F: Fn(A) -> B + Sync,
{
    let n = src.shape().first().copied().unwrap_or(0);
    if src.ndim() > MAX_RANK || !is_permutation(perm, src.ndim()) || perm.first() != Some(&0) {
        return Err(KernelError::NotAPermutation {
            perm: perm.to_vec(),
            rank: src.ndim(),
        });
    }
    if let Some(&row) = rows.iter().find(|&&r| r >= n) {
        return Err(KernelError::RowOutOfRange { row, rows: n });
    }
    let per = src.len().checked_div(n).unwrap_or(0);
    let len = rows::batch_len(rows.len(), pad_rows, per, src.len())?;
    let mut out: Vec<B> = vec_for_writing(len);
    let room = &mut out.spare_capacity_mut()[..len];
    let (samples, padding) = room.split_at_mut(rows.len() * per);
    if per > 0 {
        for (&i, to) in rows.iter().zip(samples.chunks_exact_mut(per)) {
            let one = src.slice_axis(ndarray::Axis(0), (i..i + 1).into());
            // One sample at a time on this thread, as a lent batch's gather permutes them.
            permute_into_uninit(one, perm, to, &f, Threads::One)?;
        }
    }
    for t in padding {
        t.write(pad);
    }
    // SAFETY: the first `len` values of the capacity are `samples` (every sample's `per`
    // values written by `permute_into_uninit`, which returned `Ok` for each: an error returned
    // early, leaving the length 0) followed by `padding`, every value of which was written.
    // The values are `Copy`: nothing to drop if `f` panics, the length then still 0.
    unsafe { out.set_len(len) };
    Ok(out)
}

/// Whether `perm` is a permutation of `0..rank` (`rank` at most [`MAX_RANK`]).
fn is_permutation(perm: &[usize], rank: usize) -> bool {
    let mut seen = [false; MAX_RANK];
    perm.len() == rank
        && perm
            .iter()
            .all(|&p| p < rank && !core::mem::replace(&mut seen[p], true))
}

/// Written values seen as room to write into: the kernels only write initialised values of `B`
/// through it, so the slice stays initialised.
fn as_uninit<B>(dst: &mut [B]) -> &mut [core::mem::MaybeUninit<B>] {
    // SAFETY: `MaybeUninit<B>` has the layout of `B`; the permute kernels write only values of
    // `B` through the result (never `uninit`), so every value of `dst` stays initialised.
    unsafe { &mut *(core::ptr::from_mut(dst) as *mut [core::mem::MaybeUninit<B>]) }
}

/// Writes pixels of three interleaved channels (`src` holds `3·n` values) into three rows of
/// `n` values, channel `k` as `(v as f32 - mean[k]) / std[k]`, in reverse pixel order when
/// `reverse` (a horizontal flip): what an augmented `bhwc u8 -> bchw f32` gather does per row.
/// Runs where a SIMD path exists (x86-64 with AVX2, `u8 -> f32`) and returns the number of
/// pixels it wrote, from the start of `src` (at the end of the rows when reversed); the caller
/// writes the rest, `0` on other machines and types.
#[doc(hidden)]
pub fn deinterleave3_affine<A: 'static, B: 'static>(
    src: &[A],
    rows: [&mut [B]; 3],
    mean: [f32; 3],
    std: [f32; 3],
    reverse: bool,
) -> usize {
    deinterleave3_rows(src, rows, (mean, std), false, reverse)
}

/// [`deinterleave3_affine`] with channel `k` written as `v as f32 * mul[k] + add[k]`: a product,
/// then a sum, each rounded to `f32` as Rust's `v * mul + add` rounds them (no fused
/// multiply-add), so that the values equal those of the plain expression bit for bit. What an
/// image stream's normalization does per row.
#[doc(hidden)]
pub fn deinterleave3_mul_add<A: 'static, B: 'static>(
    src: &[A],
    rows: [&mut [B]; 3],
    mul: [f32; 3],
    add: [f32; 3],
    reverse: bool,
) -> usize {
    deinterleave3_rows(src, rows, (mul, add), true, reverse)
}

fn deinterleave3_rows<A: 'static, B: 'static>(
    src: &[A],
    rows: [&mut [B]; 3],
    constants: ([f32; 3], [f32; 3]),
    mul_add: bool,
    reverse: bool,
) -> usize {
    let n = rows[0].len();
    if rows.iter().any(|r| r.len() != n) || src.len() < 3 * n {
        return 0;
    }
    #[cfg(target_arch = "x86_64")]
    if TypeId::of::<A>() == TypeId::of::<u8>()
        && TypeId::of::<B>() == TypeId::of::<f32>()
        && x86::has_avx2()
    {
        let [r0, r1, r2] = rows;
        let (src, rows) = (
            src.as_ptr().cast::<u8>(),
            [
                r0.as_mut_ptr().cast::<f32>(),
                r1.as_mut_ptr().cast::<f32>(),
                r2.as_mut_ptr().cast::<f32>(),
            ],
        );
        // The form is a constant of each loop: with it tested in the loop, the fused
        // augmentation ran 0.56-0.69 x the plain gather on the EPYC (0.83-0.84 before).
        return if mul_add {
            // SAFETY: `A` is `u8` and `B` is `f32` (checked by type id), so the casts keep the
            // element types; `src` holds `3n` values and each row `n` (checked above); AVX2 is
            // available (checked).
            unsafe { x86::deinterleave3_u8_affine::<true>(src, n, rows, constants, reverse) }
        } else {
            // SAFETY: as for the other form.
            unsafe { x86::deinterleave3_u8_affine::<false>(src, n, rows, constants, reverse) }
        };
    }
    let _ = (rows, constants, mul_add, reverse);
    0
}

/// [`permute_into`] with explicit [`Tuning`].
#[doc(hidden)]
pub fn permute_into_tuned<A, B, F>(
    src: ArrayView<'_, A, IxDyn>,
    perm: &[usize],
    dst: &mut [B],
    f: F,
    threads: Threads,
    tuning: &Tuning,
) -> Result<(), KernelError>
where
    A: Copy + Sync,
    B: Copy + Send,
    F: Fn(A) -> B + Sync,
{
    permute_with(src, perm, as_uninit(dst), f, threads, tuning, false)
}

/// The permuted copy with `tuning`; with `calibrate`, the choices calibrated at first use take
/// the machine's calibrated value (see [`tuning::Choice`]): whether a transposition in panels
/// writes an output the last-level cache could hold with non-temporal stores, whether a
/// streaming-store transposition of long rows goes through the staging buffer (unless
/// `BATCHSPEC_STAGED` forces it), and in how many parts a streamed 3-channel de-interleave reads
/// its core (unless `BATCHSPEC_STREAM_PARTS` forces it). A call takes part in one calibration
/// at most.
fn permute_with<A, B, F>(
    src: ArrayView<'_, A, IxDyn>,
    perm: &[usize],
    dst: &mut [core::mem::MaybeUninit<B>],
    f: F,
    threads: Threads,
    tuning: &Tuning,
    calibrate: bool,
) -> Result<(), KernelError>
where
    A: Copy + Sync,
    B: Copy + Send,
    F: Fn(A) -> B + Sync,
{
    let rank = src.ndim();
    if rank > MAX_RANK {
        return Err(KernelError::RankTooLarge { rank });
    }
    if !is_permutation(perm, rank) {
        return Err(KernelError::NotAPermutation {
            perm: perm.to_vec(),
            rank,
        });
    }
    let expected = src.len();
    if dst.len() != expected {
        return Err(KernelError::LengthMismatch {
            expected,
            actual: dst.len(),
        });
    }
    if expected == 0 {
        return Ok(());
    }
    let mut lens = [0usize; MAX_RANK];
    let mut strides = [0isize; MAX_RANK];
    for (k, &p) in perm.iter().enumerate() {
        lens[k] = src.shape()[p];
        strides[k] = src.strides()[p];
    }
    let plan = LoopNest::new(&lens[..rank], &strides[..rank]);
    let bytes = expected.saturating_mul(core::mem::size_of::<B>());
    let mut opts = Opts {
        nt: bytes >= tuning.nt_min_bytes,
        strip: tuning.strip_rows,
        staged: tuning.staged,
        parts: tuning.stream_parts.max(1),
        runs: tuning.stream_runs,
        lines: tuning.stream_lines.max(1),
        stream_prefetch: tuning.stream_prefetch,
        wide_panels: tuning.wide_panels,
        ahead: 0,
    };
    let parts = if bytes >= tuning.par_min_bytes {
        threads.count()
    } else {
        1
    };
    let outer = plan.outer_count();
    let chunks = if parts == 1 || outer.is_multiple_of(parts) || outer >= 8 * parts {
        1
    } else {
        parts
    };
    if chunks == 1 && plan.n_outer > 0 {
        opts.ahead = plan.outer[plan.n_outer - 1].src;
    }
    let picked = select::<A, B, F>(&plan, tuning);
    // A call in a calibration: the choice, the value it runs with, and whether it is timed.
    let mut trial = None;
    if calibrate && picked.panels && !opts.nt && bytes >= tuning.nt_trial_min_bytes {
        let choice = tuning::Choice::Panels(parts > 1);
        let (nt, timed) = tuning::for_call(choice);
        opts.nt = nt;
        trial = timed.map(|timed| (choice, nt, timed));
    }
    // How many lines of each destination row the direct blocks write in turn depends on the
    // host too: calibrated first, on direct calls, then the staging against the direct blocks
    // with the lines chosen.
    if calibrate && trial.is_none() && picked.may_stage && opts.nt && tuning::lines_calibrated() {
        let (more, timed) = tuning::for_call(tuning::Choice::Lines);
        if more {
            opts.lines *= 2;
        }
        if let Some(timed) = timed {
            opts.staged = false;
            trial = Some((tuning::Choice::Lines, more, timed));
        }
    }
    // Whether streaming long rows through the staging buffer pays depends on the host (it won
    // on a 32 MiB-L3 host, lost on a 300 MiB one): calibrated on calls in no other trial (a
    // core that may stage has rows of 256 columns or more, never one written in panels).
    if calibrate && trial.is_none() && picked.may_stage && opts.nt && tuning::staging_calibrated() {
        let (staged, timed) = tuning::for_call(tuning::Choice::Staging);
        opts.staged = staged;
        trial = timed.map(|timed| (tuning::Choice::Staging, staged, timed));
    }
    // Whether the AVX-512 blocks or the AVX2 ones write streamed panels faster depends on the
    // host (see `Tuning::wide_panels`): calibrated where the kernel has both.
    if calibrate
        && trial.is_none()
        && picked.panels
        && picked.wide
        && opts.nt
        && tuning::wide_panels_calibrated()
    {
        let choice = tuning::Choice::WidePanels(parts > 1);
        let (wide, timed) = tuning::for_call(choice);
        opts.wide_panels = wide;
        trial = timed.map(|timed| (choice, wide, timed));
    }
    // How many places at once a streamed 3-channel de-interleave reads its source at pays
    // depends on the host too: 4 parts against 1 took case L (308 MB) from 0.87 to 1.04 x
    // memcpy on a 260 MiB-L3 Xeon (2 parts 1.01), and ran 15.7-17.5 GB/s against 18.3-22.4 for
    // 2 parts on a 32 MiB-L3 EPYC with 512 KiB of L2 per core, where 1 part ran L at a median
    // 0.84 x memcpy against 0.80 for 2 and 0.64 for 4: calibrated, the tuning's count against 1
    // (in order, its rows written a run at a time: `Tuning::stream_runs`).
    if calibrate
        && trial.is_none()
        && picked.in_parts
        && opts.nt
        && opts.parts > tuning::FEW_PARTS
        && tuning::parts_calibrated()
    {
        let choice = tuning::Choice::Parts(parts > 1);
        let (all, timed) = tuning::for_call(choice);
        if !all {
            opts.parts = tuning::FEW_PARTS;
        }
        trial = timed.map(|timed| (choice, all, timed));
    }
    let start = trial.map(|_| std::time::Instant::now());
    let c = plan.core;
    let job = Job {
        // SAFETY: `src_off` is the offset of the core's first element, an element of the view
        // (the flip of a reversed row axis starts at its last row).
        src: unsafe { src.as_ptr().offset(plan.src_off) },
        // SAFETY: `dst_off` indexes an element of the destination (same reason).
        dst: unsafe { dst.as_mut_ptr().cast::<B>().offset(plan.dst_off) },
        plan: &plan,
        kernel: picked.kernel,
        f: &f,
        opts,
        chunks,
        split_rows: c.rows >= 8 * chunks,
    };
    // SAFETY: the plan is a permuted copy of `src` (borrowed for the whole call) into `dst`
    // (`dst.len()` elements, borrowed mutably); `run_parts` hands disjoint unit ranges to the
    // threads.
    unsafe { exec::run_parts(&job, 0, job.units(), parts) };
    if let (Some((choice, value, timed)), Some(start)) = (trial, start) {
        // An untimed call of the calibration counts too.
        let (bytes, elapsed) = if timed {
            (bytes, start.elapsed())
        } else {
            (0, std::time::Duration::ZERO)
        };
        tuning::timed(choice, value, bytes, elapsed);
    }
    Ok(())
}

/// The kernel picked for a plan's core.
struct Picked<A, B, F> {
    kernel: KernelFn<A, B, F>,
    /// It may stream long rows out through the staging buffer (the 4-byte AVX2 tile, for rows
    /// of at least `STAGE_MIN_COLS`).
    may_stage: bool,
    /// It is the 4-byte transposition in panels (see [`tuning::Choice::Panels`]).
    panels: bool,
    /// It is the 3-channel de-interleave that reads its core in parts when it streams (see
    /// [`tuning::Choice::Parts`]).
    in_parts: bool,
    /// It has the AVX-512 blocks (see [`tuning::Choice::WidePanels`]).
    wide: bool,
}

/// Picks the kernel for the plan's core.
fn select<A, B, F>(plan: &LoopNest, tuning: &Tuning) -> Picked<A, B, F>
where
    A: Copy,
    B: Copy,
    F: Fn(A) -> B,
{
    let plain = |kernel: KernelFn<A, B, F>| Picked {
        kernel,
        may_stage: false,
        panels: false,
        in_parts: false,
        wide: false,
    };
    let c = &plan.core;
    if plan.shape == Shape::RowCopy {
        return plain(generic::row_copy::<A, B, F>);
    }
    #[cfg(target_arch = "x86_64")]
    if c.tp == 1
        && c.rows == 3
        && c.ts == 3
        && tuning.small
        && tuning.simd
        && x86::has_avx2()
        && plain_size::<B>() == 4
    {
        let kernel: KernelFn<A, B, F> = if plain_size::<A>() == 4 {
            x86::deinterleave3_b4::<true, A, B, F>
        } else {
            x86::deinterleave3_b4::<false, A, B, F>
        };
        return Picked {
            in_parts: true,
            ..plain(kernel)
        };
    }
    if c.tp == 1 && tuning.small {
        match c.rows {
            2 => return plain(generic::deinterleave::<2, A, B, F>),
            3 => return plain(generic::deinterleave::<3, A, B, F>),
            4 => return plain(generic::deinterleave::<4, A, B, F>),
            _ => {}
        }
        match c.cols {
            2 => return plain(generic::interleave::<2, A, B, F>),
            3 => return plain(generic::interleave::<3, A, B, F>),
            4 => return plain(generic::interleave::<4, A, B, F>),
            _ => {}
        }
    }
    #[cfg(target_arch = "x86_64")]
    if c.tp == 1 && tuning.simd && x86::has_avx2() {
        let same = plain_size::<A>() == plain_size::<B>();
        let wide = tuning.wide && x86::has_avx512();
        match plain_size::<B>() {
            4 if c.rows >= 8 && c.cols >= 16 => {
                let kernel: KernelFn<A, B, F> = match (same, wide) {
                    (true, true) => x86::tile_b4::<true, true, A, B, F>,
                    (true, false) => x86::tile_b4::<true, false, A, B, F>,
                    (false, true) => x86::tile_b4::<false, true, A, B, F>,
                    (false, false) => x86::tile_b4::<false, false, A, B, F>,
                };
                return Picked {
                    kernel,
                    may_stage: c.cols >= x86::STAGE_MIN_COLS,
                    panels: x86::in_panels::<A>(c),
                    in_parts: false,
                    wide,
                };
            }
            8 if c.rows >= 4 && c.cols >= 8 && same => {
                return plain(x86::tile_b8::<true, A, B, F>);
            }
            8 if c.rows >= 4 && c.cols >= 8 => return plain(x86::tile_b8::<false, A, B, F>),
            _ => {}
        }
    }
    plain(generic::tile::<A, B, F>)
}

/// The size of `T` if it is a primitive integer or float (every byte initialised, any bit
/// pattern valid), else 0. Only such types go through the vector-register kernels.
fn plain_size<T>() -> usize {
    let id = typeid::of::<T>();
    let plain = [
        TypeId::of::<u8>(),
        TypeId::of::<i8>(),
        TypeId::of::<u16>(),
        TypeId::of::<i16>(),
        TypeId::of::<u32>(),
        TypeId::of::<i32>(),
        TypeId::of::<f32>(),
        TypeId::of::<u64>(),
        TypeId::of::<i64>(),
        TypeId::of::<f64>(),
        TypeId::of::<usize>(),
        TypeId::of::<isize>(),
    ];
    if plain.contains(&id) {
        core::mem::size_of::<T>()
    } else {
        0
    }
}
