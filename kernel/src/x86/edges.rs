//! The edges of the AVX2 transpositions: where the line-sized column blocks start and end, and
//! the parts of the core they leave, run by the portable tile kernel.

use crate::exec::Opts;
use crate::generic;
use crate::loops::Core;

/// Where the line-sized column blocks start and end: `(begin, end)` with `end - begin` a
/// multiple of `lane`, and whether the rows are all line aligned there.
pub(super) fn column_blocks<B>(dst: *mut B, c: &Core, lane: usize) -> (usize, usize, bool) {
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

/// The parts of the core the blocks leave: columns `..jb` and `je..` of every row, and
/// rows `rows_b..` of columns `jb..je`.
///
/// # Safety
/// The contract of the module documentation; `rows_b <= rows`, `jb <= je <= cols`.
pub(super) unsafe fn edges<A: Copy, B: Copy, F: Fn(A) -> B>(
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
