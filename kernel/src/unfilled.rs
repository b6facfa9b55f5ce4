//! A vector written in parts, each part whole and once, on any thread, and never zero-filled
//! first.

use core::any::TypeId;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicUsize, Ordering};

use crate::error::KernelError;

/// A vector of `len` values written in parts ([`Unfilled::parts`]), each part whole by one of
/// its methods, on any thread; [`Unfilled::finish`] gives the vector when every value has been
/// written.
///
/// What an owned batch is made of when workers write its samples (an image stream's batch,
/// given away to the caller or a framework): its memory is written once, by the workers, and
/// never zero-filled before. A zero fill is a pass over the whole batch on the thread that
/// allocates it, before any worker starts (a `calloc` of memory the allocator reuses is a
/// `memset`: 19 MB for 32 images of `224 × 224 × 3` `f32`).
///
/// ```
/// use batchspec_kernel::Unfilled;
/// let mut batch = Unfilled::<f32>::new(6);
/// let parts: Vec<_> = batch.parts(3).collect();
/// std::thread::scope(|s| {
///     for (i, part) in parts.into_iter().enumerate() {
///         s.spawn(move || part.fill(i as f32));
///     }
/// });
/// assert_eq!(batch.finish()?, [0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
/// # Ok::<(), batchspec_kernel::KernelError>(())
/// ```
#[derive(Debug)]
pub struct Unfilled<B> {
    values: Vec<B>,
    len: usize,
    /// The values written through the parts of the last [`Unfilled::parts`]: the parts of one
    /// call are disjoint and each writes its values once, so all `len` are written when it
    /// reaches `len`.
    written: AtomicUsize,
}

/// A part of an [`Unfilled`] vector: values not yet written, which one of its methods writes
/// whole (consuming it) and gives back as written values.
#[derive(Debug)]
pub struct Part<'a, B> {
    values: &'a mut [MaybeUninit<B>],
    written: &'a AtomicUsize,
}

impl<B: Copy> Unfilled<B> {
    /// Room for `len` values, none written (asked for 2 MB pages when it is 4 MB or more:
    /// [`HUGE_PAGE_MIN_BYTES`](crate::HUGE_PAGE_MIN_BYTES)).
    #[must_use]
    pub fn new(len: usize) -> Unfilled<B> {
        Unfilled {
            values: crate::vec_for_writing(len),
            len,
            written: AtomicUsize::new(0),
        }
    }

    /// The number of values the vector will hold.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the vector will hold no values.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The vector as parts of `size` values, in order (the last one shorter when `size` does not
    /// divide the length; none when `size` is 0). Every value counts as unwritten again: what
    /// [`finish`](Unfilled::finish) checks is that the parts of this call were all written.
    pub fn parts(&mut self, size: usize) -> impl ExactSizeIterator<Item = Part<'_, B>> + '_ {
        *self.written.get_mut() = 0;
        let spare = &mut self.values.spare_capacity_mut()[..self.len];
        let written = &self.written;
        // `chunks_mut` takes no size 0: an empty slice then, which has no chunks.
        let (spare, size) = if size == 0 {
            (&mut spare[..0], 1)
        } else {
            (spare, size)
        };
        spare
            .chunks_mut(size)
            .map(move |values| Part { values, written })
    }

    /// The vector, when every part of the last [`parts`](Unfilled::parts) was written.
    ///
    /// # Errors
    /// [`KernelError::Unwritten`] when a part was not (it was dropped unwritten, or its work
    /// failed); nothing unwritten is ever readable.
    pub fn finish(mut self) -> Result<Vec<B>, KernelError> {
        let written = *self.written.get_mut();
        if written != self.len {
            return Err(KernelError::Unwritten {
                written,
                len: self.len,
            });
        }
        // SAFETY: the parts of the last `parts` call split the first `len` values of the
        // capacity into disjoint pieces; each part, consumed by the method that writes it,
        // writes every one of its values before adding its length to `written`; no earlier
        // call's part outlives the borrow of `self` that made it. So `written == len` means
        // all `len` values are written (`B: Copy`: nothing to drop either way).
        unsafe { self.values.set_len(self.len) };
        Ok(self.values)
    }
}

impl<'a, B: Copy> Part<'a, B> {
    /// The number of values of the part.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the part holds no values.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Writes `value` to every value of the part.
    pub fn fill(self, value: B) -> &'a mut [B] {
        for t in self.values.iter_mut() {
            t.write(value);
        }
        self.written_whole()
    }

    /// Writes the part as three planes of `n = len / 3` values each from `src`, rows of `cols`
    /// pixels of three interleaved channels (`3n` values): plane `k`'s value of pixel `x` of row
    /// `y` is channel `k` of that pixel as `v as f32 * mul[k] + add[k]` (a product then a sum,
    /// each rounded to `f32`, as Rust's `v * mul + add`), the row's pixels in reverse order
    /// when `reverse` (a horizontal flip). An image stream's normalization of a whole `u8` image
    /// into a `chw f32` sample, with the SIMD rows of [`deinterleave3_mul_add`](crate::deinterleave3_mul_add)
    /// where the machine has them.
    ///
    /// # Errors
    /// The part back, unwritten, unless `A` is `u8` and `B` is `f32`, the part's length is
    /// `3 · rows · cols` for some number of rows, and `src` holds those rows' `3n` values.
    pub fn planes3_mul_add<A: 'static>(
        self,
        src: &[A],
        cols: usize,
        mul: [f32; 3],
        add: [f32; 3],
        reverse: bool,
    ) -> Result<&'a mut [B], Part<'a, B>>
    where
        B: 'static,
    {
        let len = self.values.len();
        let n = len / 3;
        if TypeId::of::<A>() != TypeId::of::<u8>()
            || TypeId::of::<B>() != TypeId::of::<f32>()
            || !len.is_multiple_of(3)
            || cols == 0
            || !n.is_multiple_of(cols)
            || src.len() != len
        {
            return Err(self);
        }
        // SAFETY: `A` is `u8` (checked by type id): the same type, the same length.
        let src = unsafe { core::slice::from_raw_parts(src.as_ptr().cast::<u8>(), src.len()) };
        let base = self.values.as_mut_ptr().cast::<f32>();
        for (y, row) in src.chunks_exact(3 * cols).enumerate() {
            // SAFETY: `B` is `f32` (checked by type id) and `MaybeUninit<f32>` has its layout;
            // row `y` of plane `k` is the `cols` values at `k·n + y·cols`, inside the part's
            // `3n` (`y < n / cols`: `src` has `n / cols` rows of `3·cols` values).
            let planes = [0, 1, 2].map(|k| unsafe { base.add(k * n + y * cols) });
            write_row(row, cols, planes, (mul, add), reverse);
        }
        Ok(self.written_whole())
    }

    /// The part as written values, its length added to the vector's count.
    fn written_whole(self) -> &'a mut [B] {
        self.written.fetch_add(self.values.len(), Ordering::Relaxed);
        // SAFETY: every value of the part was written by the caller (`fill`, `planes3_mul_add`),
        // and `MaybeUninit<B>` has the layout of `B`.
        unsafe { &mut *(core::ptr::from_mut(self.values) as *mut [B]) }
    }
}

/// One row of `cols` pixels (`3 · cols` bytes) into the three plane rows at `planes`, each of
/// `cols` writable `f32`: the SIMD rows where they run, else a scalar loop.
fn write_row(
    row: &[u8],
    cols: usize,
    planes: [*mut f32; 3],
    (mul, add): ([f32; 3], [f32; 3]),
    reverse: bool,
) {
    #[cfg(target_arch = "x86_64")]
    if crate::x86::has_avx2() {
        // SAFETY: AVX2 is available (checked); `row` holds `3 · cols` readable bytes and each
        // plane row `cols` writable `f32` (the caller's).
        let done = unsafe {
            crate::x86::deinterleave3_u8_affine::<true>(
                row.as_ptr(),
                cols,
                planes,
                (mul, add),
                reverse,
            )
        };
        if done == cols {
            return;
        }
    }
    for (x, px) in row.chunks_exact(3).enumerate() {
        let at = if reverse { cols - 1 - x } else { x };
        for k in 0..3 {
            // SAFETY: `at < cols`, inside plane row `k` (the caller's).
            unsafe { planes[k].add(at).write(f32::from(px[k]) * mul[k] + add[k]) };
        }
    }
}
