//! A gather of whole rows into new memory: every value written once, never zero-filled first.

use crate::error::KernelError;
use crate::pages::prefetch_read;
use crate::tuning::Tuning;

/// The rows `rows` of `src` (rows of `run` values, back to back), each value passed through
/// `map`, then `pad_rows` rows of `pad`, as a new vector of `(rows.len() + pad_rows) * run`
/// values.
///
/// What an owned batch given away (to a framework's tensor, to the caller) is made of: the
/// vector's memory is written once, row by row, and never zero-filled before (a zero fill is a
/// second pass over the batch, and a `calloc` of memory the allocator reuses is a `memset`).
/// Every value of the vector is written by this function itself, whatever `map` does, so
/// nothing uninitialised can be read from it. Rows of a source larger than the caches are
/// prefetched ahead ([`prefetch_read`], [`Tuning::for_machine`](crate::Tuning)).
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
    gather_rows_tuned(src, run, rows, pad_rows, pad, map, &Tuning::for_machine())
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
    let have = match src.len().checked_div(run) {
        Some(n) if n * run == src.len() => n,
        // Rows of no values: any row is one of them, and the output is empty.
        None if src.is_empty() => usize::MAX,
        _ => {
            return Err(KernelError::LengthMismatch {
                expected: src.len().next_multiple_of(run.max(1)),
                actual: src.len(),
            });
        }
    };
    if let Some(&row) = rows.iter().find(|&&r| r >= have) {
        return Err(KernelError::RowOutOfRange { row, rows: have });
    }
    let len = rows
        .len()
        .checked_add(pad_rows)
        .and_then(|r| r.checked_mul(run))
        .ok_or(KernelError::LengthMismatch {
            expected: usize::MAX,
            actual: src.len(),
        })?;
    let mut out: Vec<B> = Vec::with_capacity(len);
    let spare = &mut out.spare_capacity_mut()[..len];
    let (gathered, padding) = spare.split_at_mut(rows.len() * run);
    if run > 0 {
        let prefetch =
            tuning.prefetch_rows > 0 && core::mem::size_of_val(src) >= tuning.prefetch_min_bytes;
        for (j, (to, &i)) in gathered.chunks_exact_mut(run).zip(rows).enumerate() {
            if prefetch
                && let Some(&ahead) = rows.get(j + tuning.prefetch_rows)
                && let Some(row) = src.get(ahead * run..(ahead + 1) * run)
            {
                prefetch_read(row);
            }
            for (t, &f) in to.iter_mut().zip(&src[i * run..(i + 1) * run]) {
                t.write(map(f));
            }
        }
    }
    for t in padding {
        t.write(pad);
    }
    // SAFETY: the first `len` values of the capacity are `gathered` (`rows.len()` chunks of
    // `run` values, each chunk zipped with a source row of exactly `run` values, so every value
    // of it written) followed by `padding`, every value of which was written: all `len` are
    // initialised. A panic of `map` leaves the length 0 (the values are `Copy`: nothing to
    // drop).
    unsafe { out.set_len(len) };
    Ok(out)
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
