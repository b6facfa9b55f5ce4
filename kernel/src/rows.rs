//! A gather of whole rows into new memory: every value written once, never zero-filled first.

use core::mem::MaybeUninit;

use crate::error::KernelError;
use crate::pages::{prefetch_lines, vec_for_writing};
use crate::tuning::{self, Choice, ROW_PREFETCH_LINES, Tuning};

/// The rows `rows` of `src` (rows of `run` values, back to back), each value passed through
/// `map`, then `pad_rows` rows of `pad`, as a new vector of `(rows.len() + pad_rows) * run`
/// values.
///
/// What an owned batch given away (to a framework's tensor, to the caller) is made of: the
/// vector's memory is written once, row by row, and never zero-filled before (a zero fill is a
/// second pass over the batch, and a `calloc` of memory the allocator reuses is a `memset`).
/// Every value of the vector is written by this function itself, whatever `map` does, so
/// nothing uninitialised can be read from it. Rows of a source larger than the caches are
/// prefetched ahead ([`prefetch_read`](crate::prefetch_read), whole or their first lines as
/// calibrated at first use: [`Tuning::for_machine`](crate::Tuning)). A vector of
/// 4 MB or more is asked for 2 MB pages before its first write
/// ([`HUGE_PAGE_MIN_BYTES`](crate::HUGE_PAGE_MIN_BYTES)): new memory on 4 KB pages faults in
/// at a fraction of the gather's speed.
///
/// ```
/// let src = [0u8, 1, 2, 3, 4, 5];
/// let v = batchspec_kernel::gather_rows(&src, 2, &[2, 0], 1, -1.0f32, f32::from)?;
/// assert_eq!(v, [4.0, 5.0, 0.0, 1.0, -1.0, -1.0]);
/// # Ok::<(), batchspec_kernel::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::RowOutOfRange`] for a row not in `src` (nothing is allocated then);
/// [`KernelError::LengthMismatch`] when `src` is not a whole number of rows, or the output's
/// length overflows.
pub fn gather_rows<A: Copy, B: Copy>(
    src: &[A],
    run: usize,
    rows: &[usize],
    pad_rows: usize,
    pad: B,
    map: impl Fn(A) -> B,
) -> Result<Vec<B>, KernelError> {
    gather_with(
        src,
        run,
        rows,
        pad_rows,
        pad,
        map,
        &Tuning::for_machine(),
        true,
    )
}

/// [`gather_rows`] with explicit [`Tuning`](crate::Tuning) (its prefetch distance and size).
#[doc(hidden)]
pub fn gather_rows_tuned<A: Copy, B: Copy>(
    src: &[A],
    run: usize,
    rows: &[usize],
    pad_rows: usize,
    pad: B,
    map: impl Fn(A) -> B,
    tuning: &Tuning,
) -> Result<Vec<B>, KernelError> {
    gather_with(src, run, rows, pad_rows, pad, map, tuning, false)
}

/// [`gather_rows_tuned`], with the row prefetch calibrated at first use if `calibrate` (the
/// machine's tuning) and the tuning leaves it to the calibration.
#[allow(clippy::too_many_arguments)]
fn gather_with<A: Copy, B: Copy>(
    src: &[A],
    run: usize,
    rows: &[usize],
    pad_rows: usize,
    pad: B,
    map: impl Fn(A) -> B,
    tuning: &Tuning,
    calibrate: bool,
) -> Result<Vec<B>, KernelError> {
    check_rows(src, run, rows)?;
    let len = batch_len(rows.len(), pad_rows, run, src.len())?;
    let mut out: Vec<B> = vec_for_writing(len);
    let spare = &mut out.spare_capacity_mut()[..len];
    let (gathered, padding) = spare.split_at_mut(rows.len() * run);
    rows_into(src, run, rows, gathered, &map, tuning, calibrate);
    for t in padding {
        t.write(pad);
    }
    // SAFETY: the first `len` values of the capacity are `gathered` (`rows.len()` rows of `run`
    // values, every value written by `rows_into`) followed by `padding`, every value of which
    // was written: all `len` are initialised. A panic of `map` leaves the length 0 (the values
    // are `Copy`: nothing to drop).
    unsafe { out.set_len(len) };
    Ok(out)
}

/// The rows `rows` of `src` (rows of `run` values, back to back), each value passed through
/// `map`, into `dst` (`rows.len() * run` values): the gather of a batch into memory it reuses
/// (a provider's lent batch), with the same loop as [`gather_rows`].
///
/// ```
/// let src = [0u8, 1, 2, 3, 4, 5];
/// let mut dst = [0.0f32; 4];
/// batchspec_kernel::gather_rows_into(&src, 2, &[2, 0], &mut dst, f32::from)?;
/// assert_eq!(dst, [4.0, 5.0, 0.0, 1.0]);
/// # Ok::<(), batchspec_kernel::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::RowOutOfRange`] for a row not in `src`, [`KernelError::LengthMismatch`] when
/// `src` is not a whole number of rows or `dst` does not hold the rows exactly; nothing is
/// written then.
pub fn gather_rows_into<A: Copy, B: Copy>(
    src: &[A],
    run: usize,
    rows: &[usize],
    dst: &mut [B],
    map: impl Fn(A) -> B,
) -> Result<(), KernelError> {
    check_rows(src, run, rows)?;
    if rows.len().checked_mul(run) != Some(dst.len()) {
        return Err(KernelError::LengthMismatch {
            expected: rows.len().saturating_mul(run),
            actual: dst.len(),
        });
    }
    // SAFETY: `MaybeUninit<B>` has the layout of `B`, and `rows_into` only writes initialised
    // values of `B` into it (it never writes `uninit`), so `dst` stays initialised.
    let out = unsafe { &mut *(core::ptr::from_mut(dst) as *mut [MaybeUninit<B>]) };
    rows_into(src, run, rows, out, &map, &Tuning::for_machine(), true);
    Ok(())
}

/// The number of rows of `src`, checking that it is a whole number of rows of `run` values and
/// that every row of `rows` is one of them (`usize::MAX` for rows of no values: any row is one).
/// The values of a new batch of `rows` samples and `pad_rows` padding ones of `per` values
/// each; [`KernelError::LengthMismatch`] (against the source's `src_len`) when that overflows.
pub(crate) fn batch_len(
    rows: usize,
    pad_rows: usize,
    per: usize,
    src_len: usize,
) -> Result<usize, KernelError> {
    rows.checked_add(pad_rows)
        .and_then(|r| r.checked_mul(per))
        .ok_or(KernelError::LengthMismatch {
            expected: usize::MAX,
            actual: src_len,
        })
}

fn check_rows<A>(src: &[A], run: usize, rows: &[usize]) -> Result<usize, KernelError> {
    let have = match src.len().checked_div(run) {
        Some(n) if n * run == src.len() => n,
        None if src.is_empty() => usize::MAX,
        _ => {
            return Err(KernelError::LengthMismatch {
                expected: src.len().next_multiple_of(run.max(1)),
                actual: src.len(),
            });
        }
    };
    match rows.iter().find(|&&r| r >= have) {
        Some(&row) => Err(KernelError::RowOutOfRange { row, rows: have }),
        None => Ok(have),
    }
}

/// Writes every value of `out` (`rows.len() * run` of them): row `j` of `out` is `map` of row
/// `rows[j]` of `src`. The rows are checked ([`check_rows`]); with AVX2 the loop is compiled for
/// it (a cast of `u8` to `f32` widens 8 values an instruction where the baseline takes 4 with
/// shuffles first), else for the baseline. With `calibrate` (the machine's tuning), how much of
/// each row ahead is prefetched is calibrated at first use ([`Tuning::prefetch_lines`]).
fn rows_into<A: Copy, B: Copy, F: Fn(A) -> B>(
    src: &[A],
    run: usize,
    rows: &[usize],
    out: &mut [MaybeUninit<B>],
    map: &F,
    tuning: &Tuning,
    calibrate: bool,
) {
    let mut tuning = *tuning;
    // A call in the calibration: whether it prefetches whole rows, and whether it is timed.
    let mut trial = None;
    if calibrate
        && run > 1
        && prefetches(src, &tuning)
        && rows.len() > tuning.prefetch_rows
        && tuning::row_prefetch_calibrated()
    {
        let (whole, timed) = tuning::row_prefetch_for_call();
        tuning.prefetch_lines = if whole { 0 } else { ROW_PREFETCH_LINES };
        trial = timed.map(|timed| (whole, timed));
    }
    let start = trial.map(|_| std::time::Instant::now());
    #[cfg(target_arch = "x86_64")]
    if crate::x86::has_avx2() {
        // SAFETY: the CPU has AVX2.
        unsafe { rows_into_avx2(src, run, rows, out, map, &tuning) };
    } else {
        rows_into_any(src, run, rows, out, map, &tuning);
    }
    #[cfg(not(target_arch = "x86_64"))]
    rows_into_any(src, run, rows, out, map, &tuning);
    if let (Some((whole, timed)), Some(start)) = (trial, start) {
        // An untimed call of the calibration counts too.
        let (bytes, elapsed) = if timed {
            (core::mem::size_of_val(out), start.elapsed())
        } else {
            (0, std::time::Duration::ZERO)
        };
        tuning::timed(Choice::RowPrefetch, whole, bytes, elapsed);
    }
}

/// Whether a gather from `src` prefetches its rows ahead.
fn prefetches<A>(src: &[A], tuning: &Tuning) -> bool {
    tuning.prefetch_rows > 0 && core::mem::size_of_val(src) >= tuning.prefetch_min_bytes
}

/// [`rows_into`] compiled for AVX2.
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn rows_into_avx2<A: Copy, B: Copy, F: Fn(A) -> B>(
    src: &[A],
    run: usize,
    rows: &[usize],
    out: &mut [MaybeUninit<B>],
    map: &F,
    tuning: &Tuning,
) {
    rows_into_any(src, run, rows, out, map, tuning);
}

/// The loop of [`rows_into`], inlined into each of its forms. Rows of one value (labels) are a
/// loop of their own: the general one pays a row's setup for each value.
#[inline(always)]
fn rows_into_any<A: Copy, B: Copy, F: Fn(A) -> B>(
    src: &[A],
    run: usize,
    rows: &[usize],
    out: &mut [MaybeUninit<B>],
    map: &F,
    tuning: &Tuning,
) {
    if run == 1 {
        for (t, &i) in out.iter_mut().zip(rows) {
            t.write(map(src[i]));
        }
        return;
    }
    if run == 0 {
        return;
    }
    let prefetch = prefetches(src, tuning);
    let lines = match tuning.prefetch_lines {
        0 => usize::MAX,
        n => n,
    };
    for (j, (to, &i)) in out.chunks_exact_mut(run).zip(rows).enumerate() {
        if prefetch
            && let Some(&ahead) = rows.get(j + tuning.prefetch_rows)
            && let Some(row) = src.get(ahead * run..(ahead + 1) * run)
        {
            prefetch_lines(row, lines);
        }
        for (t, &f) in to.iter_mut().zip(&src[i * run..(i + 1) * run]) {
            t.write(map(f));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::gather_rows;
    use crate::error::KernelError;

    #[test]
    fn rows_then_padding_every_value_written() {
        let src: Vec<u16> = (0..12).collect();
        let v = gather_rows(&src, 3, &[3, 3, 0], 2, 7u32, u32::from).unwrap();
        assert_eq!(v, [9, 10, 11, 9, 10, 11, 0, 1, 2, 7, 7, 7, 7, 7, 7]);
        assert_eq!(gather_rows(&src, 3, &[], 0, 0u16, |x| x).unwrap(), []);
        assert_eq!(
            gather_rows::<u8, u8>(&[], 0, &[5, 9], 3, 1, |x| x).unwrap(),
            []
        );
    }

    #[test]
    fn every_row_prefetch_gathers_the_same_values() {
        use crate::tuning::Tuning;
        // 3 KB rows (as MNIST's 784 f32), prefetched whatever the source's size.
        let src: Vec<u32> = (0..64 * 784).collect();
        let rows: Vec<usize> = (0..64).map(|i| (i * 37) % 64).collect();
        let expected: Vec<u32> = rows
            .iter()
            .flat_map(|&r| src[r * 784..(r + 1) * 784].iter().map(|&v| v ^ 1))
            .collect();
        for (ahead, lines) in [(0, 0), (2, 0), (2, 1), (2, 4), (5, 64), (200, 4)] {
            let tuning = Tuning {
                prefetch_rows: ahead,
                prefetch_lines: lines,
                prefetch_min_bytes: 0,
                ..Tuning::default()
            };
            let got = super::gather_rows_tuned(&src, 784, &rows, 0, 0, |v| v ^ 1, &tuning).unwrap();
            assert_eq!(got, expected, "{ahead} rows ahead, {lines} lines");
        }
    }

    #[test]
    fn the_row_prefetch_is_decided_after_its_calibration_calls() {
        // A source over the prefetch's 4 MB floor: the machine's tuning calibrates whole rows
        // against their first lines over its first calls (a warm-up, then both in turn), each
        // gathering the same values.
        let src: Vec<u32> = (0..(5 << 20) / 4).collect();
        let run = 1024;
        let rows: Vec<usize> = (0..16).map(|i| (i * 331) % (src.len() / run)).collect();
        let expected: Vec<u32> = rows
            .iter()
            .flat_map(|&r| src[r * run..(r + 1) * run].to_vec())
            .collect();
        for _ in 0..crate::tuning::ROW_PREFETCH_CALLS {
            assert_eq!(
                gather_rows(&src, run, &rows, 0, 0, |v| v).unwrap(),
                expected
            );
        }
        if crate::tuning::row_prefetch_calibrated() {
            let lines = crate::tuning::row_prefetch_decided();
            assert!(
                matches!(lines, Some(0 | crate::ROW_PREFETCH_LINES)),
                "{lines:?}"
            );
        }
    }

    #[test]
    fn refuses_rows_outside_and_sources_of_part_rows() {
        let src = [1.0f32; 6];
        assert_eq!(
            gather_rows(&src, 2, &[0, 3], 0, 0.0, |x| x),
            Err(KernelError::RowOutOfRange { row: 3, rows: 3 })
        );
        assert!(matches!(
            gather_rows(&src, 4, &[0], 0, 0.0, |x| x),
            Err(KernelError::LengthMismatch { .. })
        ));
        assert!(matches!(
            gather_rows(&src, 2, &[0], usize::MAX, 0.0, |x| x),
            Err(KernelError::LengthMismatch { .. })
        ));
    }
}
