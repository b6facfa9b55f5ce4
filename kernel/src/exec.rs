//! Running a plan: the outer loops, the split of the work into parts, and the threads.
//!
//! The work is a range of *units*: outer iteration `n` and chunk `k` of the core form unit
//! `n * chunks + k`. One thread runs a contiguous range of units, so with one chunk per
//! core the threads split the outer output range, and with fewer outer iterations than
//! threads each core is cut into row (or column) chunks. Every unit writes its own part of
//! the destination.

use super::loops::{Core, LoopNest, MAX_RANK};

/// Options every kernel receives.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Opts {
    /// Use non-temporal stores where the kernel has them.
    pub nt: bool,
    /// Destination rows per strip in the tiled transpositions.
    pub strip: usize,
    /// Streaming transpositions go through a staging buffer.
    pub staged: bool,
    /// Streaming de-interleaves read this many parts of a core in turn (at least 1).
    pub parts: usize,
    /// Streaming de-interleaves in one part write runs of this many pixels of one channel's
    /// row in turn, the source of the next run prefetched meanwhile (below 16: a line of each
    /// channel's row per step).
    pub runs: usize,
    /// Streaming-store transpositions write this many lines of each destination row in turn
    /// (at least 1).
    pub lines: usize,
    /// Streamed transpositions in blocks prefetch each block's source lines this many blocks
    /// ahead along their rows (0: none).
    pub stream_prefetch: usize,
    /// Streamed transpositions in panels use the AVX-512 blocks, where the kernel has them.
    pub wide_panels: bool,
    /// Elements from a core's first source element to the next core's (the innermost outer
    /// axis's source stride), 0 when unknown: a kernel of small cores may prefetch there.
    pub ahead: isize,
}

impl Opts {
    /// Regular stores, default strips (for edge pieces).
    pub const PLAIN: Opts = Opts {
        nt: false,
        strip: 1024,
        staged: false,
        parts: 1,
        runs: 0,
        lines: 1,
        stream_prefetch: 0,
        wide_panels: true,
        ahead: 0,
    };
}

/// A kernel for the 2-D core.
///
/// # Safety
/// Every element `src[i * tp + j * ts]` of the core must be inside the source view and every
/// `dst[i * ds + j]` inside the destination and written by nothing else meanwhile; for the
/// specialised kernels, the preconditions that selected them hold.
pub(crate) type KernelFn<A, B, F> = unsafe fn(*const A, *mut B, &Core, &F, &Opts);

/// One permuted copy, ready to run on any range of units.
pub(crate) struct Job<'a, A, B, F> {
    /// First source element of the core at outer index 0 (source view origin + offset).
    pub src: *const A,
    /// First destination element of the core at outer index 0.
    pub dst: *mut B,
    pub plan: &'a LoopNest,
    pub kernel: KernelFn<A, B, F>,
    pub f: &'a F,
    pub opts: Opts,
    /// Chunks per core (1 = no split inside a core).
    pub chunks: usize,
    /// Chunks are row ranges (else column ranges).
    pub split_rows: bool,
}

// SAFETY: a `Job` only reads `A` through `src` (shared access, `A: Sync`), writes `B`
// through `dst` to disjoint units on different threads (`B: Send`), and calls `f` through
// a shared reference (`F: Sync`).
unsafe impl<A: Sync, B: Send, F: Sync> Sync for Job<'_, A, B, F> {}

impl<A, B, F> Job<'_, A, B, F> {
    pub fn units(&self) -> usize {
        self.plan.outer_count() * self.chunks
    }

    /// Runs units `u0..u1`.
    ///
    /// # Safety
    /// The plan describes a permuted copy of a live source view into a live destination of
    /// the plan's size starting at the job's pointers, and no other thread runs an
    /// overlapping unit range at the same time.
    pub unsafe fn run(&self, u0: usize, u1: usize) {
        if u0 >= u1 {
            return;
        }
        let plan = self.plan;
        let outer = &plan.outer[..plan.n_outer];
        let k = self.chunks;
        // Multi-index of the first outer iteration, last axis fastest.
        let mut idx = [0usize; MAX_RANK];
        let mut rest = u0 / k;
        let (mut so, mut dof) = (0isize, 0isize);
        for (a, ax) in outer.iter().enumerate().rev() {
            idx[a] = rest % ax.len;
            rest /= ax.len;
            so += idx[a] as isize * ax.src;
            dof += idx[a] as isize * ax.dst;
        }
        let mut chunk = u0 % k;
        for _ in u0..u1 {
            // SAFETY: `so`/`dof` are the offsets of an outer iteration inside the plan, and
            // the chunk is a sub-rectangle of its core (caller contract).
            unsafe { self.run_chunk(self.src.offset(so), self.dst.offset(dof), chunk) };
            chunk += 1;
            if chunk == k {
                chunk = 0;
                for (a, ax) in outer.iter().enumerate().rev() {
                    idx[a] += 1;
                    so += ax.src;
                    dof += ax.dst;
                    if idx[a] < ax.len {
                        break;
                    }
                    so -= ax.len as isize * ax.src;
                    dof -= ax.len as isize * ax.dst;
                    idx[a] = 0;
                }
            }
        }
    }

    /// Runs chunk `chunk` of the core at `src`, `dst`.
    ///
    /// # Safety
    /// As [`Job::run`], for one core.
    unsafe fn run_chunk(&self, src: *const A, dst: *mut B, chunk: usize) {
        let c = self.plan.core;
        let k = self.chunks;
        // SAFETY: the chunk is a sub-rectangle of the core (rows or columns r0..r1).
        unsafe {
            if k == 1 {
                (self.kernel)(src, dst, &c, self.f, &self.opts);
            } else if self.split_rows {
                let r0 = c.rows * chunk / k;
                let r1 = c.rows * (chunk + 1) / k;
                if r1 > r0 {
                    let sub = Core { rows: r1 - r0, ..c };
                    let s = src.offset(r0 as isize * c.tp);
                    let d = dst.offset(r0 as isize * c.ds);
                    (self.kernel)(s, d, &sub, self.f, &self.opts);
                }
            } else {
                // Column chunks start on multiples of 64 elements (whole lines).
                let cut = |x: usize| if x >= c.cols { c.cols } else { x / 64 * 64 };
                let c0 = cut(c.cols * chunk / k);
                let c1 = if chunk + 1 == k {
                    c.cols
                } else {
                    cut(c.cols * (chunk + 1) / k)
                };
                if c1 > c0 {
                    let sub = Core { cols: c1 - c0, ..c };
                    let s = src.offset(c0 as isize * c.ts);
                    let d = dst.add(c0);
                    (self.kernel)(s, d, &sub, self.f, &self.opts);
                }
            }
        }
    }
}

/// Runs units `u0..u1` of `job` in `parts` parts, on up to `parts` threads of the current
/// rayon pool.
///
/// # Safety
/// As [`Job::run`] for the whole range.
pub(crate) unsafe fn run_parts<A: Sync, B: Send, F: Sync>(
    job: &Job<'_, A, B, F>,
    u0: usize,
    u1: usize,
    parts: usize,
) {
    #[cfg(feature = "rayon")]
    if parts > 1 && u1 - u0 > 1 {
        let mid = u0 + (u1 - u0) * (parts / 2) / parts;
        rayon::join(
            // SAFETY: the two halves are disjoint unit ranges of the caller's range.
            || unsafe { run_parts(job, u0, mid, parts / 2) },
            // SAFETY: as above, the other half.
            || unsafe { run_parts(job, mid, u1, parts - parts / 2) },
        );
        return;
    }
    let _ = parts;
    // SAFETY: caller contract.
    unsafe { job.run(u0, u1) }
}
