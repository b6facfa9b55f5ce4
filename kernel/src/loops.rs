//! Normalisation of a permuted copy into a loop nest: a few outer axes around one 2-D core.
//!
//! The destination is always written in C order. Output axes of length 1 are dropped and
//! neighbouring output axes that are also neighbours (in the same order) in the source are
//! merged, so `bchw -> chwb` becomes a plain 2-D transpose and `bhwc -> bchw` a batch of
//! `c x (h*w)` de-interleaves. What remains is a 2-D core (rows x cols, the destination
//! contiguous along cols) and at most four outer axes looped around it.

/// The largest rank the kernels accept.
pub const MAX_RANK: usize = batchspec_facts::MAX_RANK;

/// One axis of the loop nest: its length and its strides (in elements) on both sides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Axis {
    pub len: usize,
    pub src: isize,
    pub dst: isize,
}

/// The innermost 2-D block: `dst[i * ds + j] = f(src[i * tp + j * ts])` for
/// `i < rows`, `j < cols`; the destination is contiguous along `j`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Core {
    pub rows: usize,
    pub cols: usize,
    /// Destination stride between rows.
    pub ds: isize,
    /// Source stride between rows.
    pub tp: isize,
    /// Source stride between columns.
    pub ts: isize,
}

/// What the core is, which decides the kernel family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Rows are copied one by one: the source is at least as dense along `j` as along `i`.
    RowCopy,
    /// A transposition: the source is denser along `i` (after normalisation `tp == 1` when
    /// the source has a unit-stride axis) and the destination along `j`.
    Transpose,
}

/// A normalised permuted copy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LoopNest {
    /// Outer axes, outermost first (destination order).
    pub outer: [Axis; MAX_RANK],
    pub n_outer: usize,
    pub core: Core,
    pub shape: Shape,
    /// Offset (elements) of the core's origin from the source view's first element.
    pub src_off: isize,
    /// Offset (elements) of the core's origin from the start of the destination.
    pub dst_off: isize,
}

impl LoopNest {
    /// Number of outer iterations (product of the outer lengths).
    pub fn outer_count(&self) -> usize {
        self.outer[..self.n_outer].iter().map(|a| a.len).product()
    }

    /// Builds the plan for output axes of lengths `lens` whose source strides are `strides`
    /// (output axis `k` reads source axis `perm[k]`). No length may be 0.
    pub fn new(lens: &[usize], strides: &[isize]) -> LoopNest {
        debug_assert_eq!(lens.len(), strides.len());
        debug_assert!(lens.len() <= MAX_RANK);
        // Drop unit axes, then merge from the inside out.
        let mut ax = [Axis::default(); MAX_RANK];
        let mut n = 0;
        for (&len, &src) in lens.iter().zip(strides).rev() {
            if len == 1 {
                continue;
            }
            if n > 0 {
                let inner = ax[n - 1];
                if src == inner.src.wrapping_mul(inner.len as isize) {
                    ax[n - 1].len *= len;
                    continue;
                }
            }
            ax[n] = Axis { len, src, dst: 0 };
            n += 1;
        }
        ax[..n].reverse();
        // C-order destination strides.
        let mut acc = 1isize;
        for a in ax[..n].iter_mut().rev() {
            a.dst = acc;
            acc *= a.len as isize;
        }

        let one = Axis {
            len: 1,
            src: 0,
            dst: 0,
        };
        let last = if n > 0 { ax[n - 1] } else { one };
        // The densest source axis other than the last one.
        let mut p: Option<usize> = None;
        for k in 0..n.saturating_sub(1) {
            match p {
                Some(q) if ax[k].src.unsigned_abs() >= ax[q].src.unsigned_abs() => {}
                _ => p = Some(k),
            }
        }
        let transpose = match p {
            Some(q) => ax[q].src.unsigned_abs() < last.src.unsigned_abs(),
            None => false,
        };
        let (row_axis, shape) = if transpose {
            (p, Shape::Transpose)
        } else if n >= 2 {
            (Some(n - 2), Shape::RowCopy)
        } else {
            (None, Shape::RowCopy)
        };
        let row = row_axis.map_or(one, |k| ax[k]);
        let mut core = Core {
            rows: row.len,
            cols: last.len,
            ds: row.dst,
            tp: row.src,
            ts: last.src,
        };
        let mut outer = [Axis::default(); MAX_RANK];
        let mut n_outer = 0;
        for (k, a) in ax[..n.saturating_sub(1)].iter().enumerate() {
            if Some(k) != row_axis {
                outer[n_outer] = *a;
                n_outer += 1;
            }
        }
        // A transposition reads rows forward: flip a reversed row axis onto the destination.
        let (mut src_off, mut dst_off) = (0isize, 0isize);
        if shape == Shape::Transpose && core.tp < 0 {
            let back = core.rows as isize - 1;
            src_off += back * core.tp;
            dst_off += back * core.ds;
            core.tp = -core.tp;
            core.ds = -core.ds;
        }
        LoopNest {
            outer,
            n_outer,
            core,
            shape,
            src_off,
            dst_off,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bhwc_to_bchw_is_a_batch_of_deinterleaves() {
        // src (b, h, w, c) = (4, 5, 6, 3) contiguous; dst order (b, c, h, w).
        let p = LoopNest::new(&[4, 3, 5, 6], &[90, 1, 18, 3]);
        assert_eq!(p.shape, Shape::Transpose);
        assert_eq!(
            p.core,
            Core {
                rows: 3,
                cols: 30,
                ds: 30,
                tp: 1,
                ts: 3
            }
        );
        assert_eq!(p.n_outer, 1);
        assert_eq!(
            p.outer[0],
            Axis {
                len: 4,
                src: 90,
                dst: 90
            }
        );
    }

    #[test]
    fn bchw_to_chwb_is_one_transpose() {
        let p = LoopNest::new(&[3, 5, 6, 4], &[30, 6, 1, 90]);
        assert_eq!(p.shape, Shape::Transpose);
        assert_eq!(p.n_outer, 0);
        assert_eq!(
            p.core,
            Core {
                rows: 90,
                cols: 4,
                ds: 4,
                tp: 1,
                ts: 90
            }
        );
    }

    #[test]
    fn identity_is_one_run() {
        let p = LoopNest::new(&[4, 5, 6], &[30, 6, 1]);
        assert_eq!(p.shape, Shape::RowCopy);
        assert_eq!(p.n_outer, 0);
        assert_eq!(p.core.rows, 1);
        assert_eq!(p.core.cols, 120);
        assert_eq!(p.core.ts, 1);
    }

    #[test]
    fn reversed_rows_are_flipped() {
        // 2-D transpose of a source whose inner axis is reversed.
        let p = LoopNest::new(&[7, 5], &[-1, 7]);
        assert_eq!(p.shape, Shape::Transpose);
        assert_eq!(p.core.tp, 1);
        assert_eq!(p.core.ds, -5);
        assert_eq!(p.src_off, -6);
        assert_eq!(p.dst_off, 30);
    }
}
