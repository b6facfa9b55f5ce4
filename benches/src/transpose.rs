//! Layout conversion (cases A-E of issue 3): batchspec's kernel against memcpy, ndarray and
//! the Rust transpose crates, into preallocated buffers, on 1 and 2 threads.
//!
//! ```text
//! cargo bench -p batchspec-bench --bench transpose                 # all cases, full
//! cargo bench -p batchspec-bench --bench transpose -- --quick      # 1 warm-up + 3 timed calls
//! cargo bench -p batchspec-bench --bench transpose -- --cases AC   # some cases
//! ```
//!
//! A full run measures in 3 passes one after the other (`BATCHSPEC_BENCH_PROCESSES=N`; a quick
//! run in one), each case in a process of its own (a case run after another inherits the cache
//! and the dirty lines the other left: D after C's 537 MB ran 0.06-0.15 × memcpy slower than
//! alone), prints each process's lines, then per case and thread count the median and range of
//! the ratios over the passes and, at one thread, whether the issue's bars held in every pass.
//! Each case line says whether its source and destination fit the last-level cache
//! (`working_set=in_llc`) or not (`beyond_llc`); case L (case A with 512 images, 308 MB per side)
//! is beyond it on every host seen. Each case also times the kernel from and into the same
//! buffers 16 bytes further on, 16 bytes past a 64-byte line (`offset16_ratio_memcpy`), where
//! glibc's `malloc` places large allocations, ndarray's arrays among them: the bars are read on
//! line-aligned buffers (the `batchspec` figure), the offset one is what arrays allocated the
//! usual way get.
//!
//! `BATCHSPEC_BENCH_QUICK=1` is the same as `--quick`. Every figure of a case is measured in
//! the same process on the same buffers: the variants that write into the preallocated
//! output run in rounds (one timed call of each per round) after warm-up calls, each figure
//! the median over the rounds (memcpy's figure depends on the call before it: on case B, after
//! the last peer of the round, 29.9-30.5 GB/s, after a call of its own, as in a loop of memcpy
//! alone, 28.3, and the kernel 28.4-28.6 either way; the rounds keep the faster baseline);
//! ndarray's `as_standard_layout`, which allocates its result,
//! is timed after them on its own (a large allocation and free slows the copies that follow
//! it on this machine). Results are compared with ndarray's output after timing. The
//! 2-thread figures use one 2-thread rayon pool per case.

use std::hint::black_box;
use std::time::{Duration, Instant};

use batchspec::kernel::{Threads, permute_into};
use ndarray::{ArrayView, ArrayViewMut, Dimension, Ix2, Ix3, Ix4, IxDyn, Zip};
use rayon::prelude::*;
use strided_rs::kernel::{ExecutionPolicy, with_execution_policy};
use strided_rs::{StridedView, StridedViewMut, row_major_strides};

/// One benchmark case: an f32 array of `shape` (C order) written with axes `perm`.
struct Case {
    name: char,
    what: &'static str,
    shape: &'static [usize],
    perm: &'static [usize],
    /// The same copy as `items` row-major `rows x cols` matrices transposed one by one
    /// (how the `transpose` crate is called).
    items: usize,
    rows: usize,
    cols: usize,
}

const CASES: [Case; 6] = [
    Case {
        name: 'A',
        what: "64x224x224x3 bhwc->bchw",
        shape: &[64, 224, 224, 3],
        perm: &[0, 3, 1, 2],
        items: 64,
        rows: 224 * 224,
        cols: 3,
    },
    Case {
        name: 'B',
        what: "256x32x32x3 bhwc->bchw",
        shape: &[256, 32, 32, 3],
        perm: &[0, 3, 1, 2],
        items: 256,
        rows: 32 * 32,
        cols: 3,
    },
    Case {
        name: 'C',
        what: "8192x8192 2-D transpose",
        shape: &[8192, 8192],
        perm: &[1, 0],
        items: 1,
        rows: 8192,
        cols: 8192,
    },
    Case {
        name: 'D',
        what: "64x3x224x224 bchw->chwb",
        shape: &[64, 3, 224, 224],
        perm: &[1, 2, 3, 0],
        items: 1,
        rows: 64,
        cols: 3 * 224 * 224,
    },
    Case {
        name: 'E',
        what: "1024x128x64 bwc->bcw",
        shape: &[1024, 128, 64],
        perm: &[0, 2, 1],
        items: 1024,
        rows: 128,
        cols: 64,
    },
    // Case A with 8 times the images (308 MB per side): a working set beyond the last-level
    // cache of every host seen (32 to 480 MiB), where A itself (77 MB) fits in some.
    Case {
        name: 'L',
        what: "512x224x224x3 bhwc->bchw",
        shape: &[512, 224, 224, 3],
        perm: &[0, 3, 1, 2],
        items: 512,
        rows: 224 * 224,
        cols: 3,
    },
];

/// The issue's bar of a case at one thread, as a ratio to memcpy (and every case at least the
/// best peer).
fn bar(case: char) -> f64 {
    match case {
        'A' | 'B' | 'L' => 0.95,
        'C' | 'E' => 0.85,
        _ => 0.8,
    }
}

/// What is measured in each round, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Variant {
    Memcpy,
    Batchspec,
    /// The kernel from and into the same buffers 16 bytes further on (16 bytes past a line, as
    /// glibc's `malloc` places large allocations, ndarray's arrays among them); `Batchspec`'s
    /// views of them start at a line.
    BatchspecOffset16,
    NdarrayAssign,
    Transpose,
    StridedCopyInto,
    StridedPermCopyInto,
    NdarrayStandardLayout,
    /// Not a transposition, at one thread: for case C the memory access of one (64 source rows
    /// read a cache line each in turn, the output written in order) with the values copied as
    /// they come; for case E the items (32 KB each) copied one by one. What the access pattern
    /// alone gets on this machine, beside the kernel.
    Pattern,
}

const VARIANTS: [Variant; 9] = [
    Variant::Memcpy,
    Variant::Batchspec,
    Variant::BatchspecOffset16,
    Variant::NdarrayAssign,
    Variant::Transpose,
    Variant::StridedCopyInto,
    Variant::StridedPermCopyInto,
    Variant::NdarrayStandardLayout,
    Variant::Pattern,
];

impl Variant {
    fn is_peer(self) -> bool {
        matches!(
            self,
            Variant::Transpose
                | Variant::StridedCopyInto
                | Variant::StridedPermCopyInto
                | Variant::NdarrayStandardLayout
        )
    }

    /// Writes into the preallocated output (else allocates its result).
    fn writes_buffer(self) -> bool {
        self != Variant::NdarrayStandardLayout
    }

    /// Whether it is measured for `case` at `threads`.
    fn runs(self, case: &Case, threads: usize) -> bool {
        self != Variant::Pattern || (matches!(case.name, 'C' | 'E') && threads == 1)
    }

    fn name(self) -> &'static str {
        match self {
            Variant::Memcpy => "memcpy",
            Variant::Batchspec => "batchspec",
            Variant::BatchspecOffset16 => "batchspec_offset16",
            Variant::NdarrayAssign => "ndarray_assign",
            Variant::Transpose => "transpose",
            Variant::StridedCopyInto => "strided_rs_copy_into",
            Variant::StridedPermCopyInto => "strided_rs_perm_copy_into",
            Variant::NdarrayStandardLayout => "ndarray_as_standard_layout",
            Variant::Pattern => "access_pattern",
        }
    }

    /// How it runs at `threads`.
    fn label(self, case: &Case, threads: usize) -> String {
        let two = threads > 1;
        match self {
            Variant::Memcpy if two => "memcpy(copy_from_slice, 2 halves, rayon::join)".into(),
            Variant::Memcpy => "memcpy(copy_from_slice)".into(),
            Variant::Batchspec if two => "batchspec(permute_into, Threads::Two)".into(),
            Variant::Batchspec => "batchspec(permute_into, Threads::One)".into(),
            Variant::BatchspecOffset16 if two => {
                "batchspec(permute_into, Threads::Two), buffers 16 bytes past a line".into()
            }
            Variant::BatchspecOffset16 => {
                "batchspec(permute_into, Threads::One), buffers 16 bytes past a line".into()
            }
            Variant::NdarrayAssign if two => "ndarray(Zip::par_for_each assign)".into(),
            Variant::NdarrayAssign => "ndarray(assign)".into(),
            Variant::Transpose if two && case.items > 1 => {
                "transpose(per item, items over 2 threads)".into()
            }
            Variant::Transpose if case.items > 1 => "transpose(per item)".into(),
            Variant::Transpose => "transpose(single-threaded crate)".into(),
            Variant::StridedCopyInto if two => "strided-rs(copy_into, 2-thread pool)".into(),
            Variant::StridedCopyInto => "strided-rs(copy_into, Sequential)".into(),
            Variant::StridedPermCopyInto if two => "strided-rs(perm::copy_into_par)".into(),
            Variant::StridedPermCopyInto => "strided-rs(perm::copy_into)".into(),
            Variant::NdarrayStandardLayout => {
                "ndarray(permuted_axes.as_standard_layout, allocates, single-threaded)".into()
            }
            Variant::Pattern if case.items > 1 => {
                "not a transpose: the items copied one by one (copy_from_slice)".into()
            }
            Variant::Pattern => {
                "not a transpose: 64 source rows read 64 bytes each in turn, output written in order".into()
            }
        }
    }
}

/// Whether the buffers are asked for 2 MB pages (`BATCHSPEC_BENCH_PAGES=2M`; NumPy asks for
/// them on its arrays of 4 MB or more).
fn huge_pages() -> bool {
    std::env::var("BATCHSPEC_BENCH_PAGES").is_ok_and(|v| v == "2M")
}

/// Values past a line where the offset views start ([`Variant::BatchspecOffset16`]).
const SHIFT: usize = 4;

/// An f32 buffer starting at a 64-byte line, with room for a view `SHIFT` values further on.
struct Aligned {
    buf: Vec<f32>,
    off: usize,
    len: usize,
}

impl Aligned {
    fn new(len: usize) -> Self {
        let buf = vec![0.0f32; len + 16 + SHIFT];
        if huge_pages() {
            // Before anything is written: the pages are 2 MB from the first write on.
            batchspec::kernel::advise_huge_pages(&buf, false);
        }
        let off = (0..16)
            .find(|&o| (buf.as_ptr() as usize + 4 * o).is_multiple_of(64))
            .expect("an f32 buffer has a 64-byte aligned element among its first 16");
        Aligned { buf, off, len }
    }
    fn as_slice(&self) -> &[f32] {
        &self.buf[self.off..self.off + self.len]
    }
    fn as_mut_slice(&mut self) -> &mut [f32] {
        &mut self.buf[self.off..self.off + self.len]
    }
    /// The view at the line, or `SHIFT` values further on.
    fn view(&self, shifted: bool) -> &[f32] {
        let at = self.off + if shifted { SHIFT } else { 0 };
        &self.buf[at..at + self.len]
    }
    fn view_mut(&mut self, shifted: bool) -> &mut [f32] {
        let at = self.off + if shifted { SHIFT } else { 0 };
        &mut self.buf[at..at + self.len]
    }
}

struct Bench<'a> {
    case: &'a Case,
    src: Aligned,
    out: Aligned,
    out_shape: Vec<usize>,
    pool: rayon::ThreadPool,
}

impl Bench<'_> {
    fn src_view(&self) -> ArrayView<'_, f32, IxDyn> {
        ArrayView::from_shape(IxDyn(self.case.shape), self.src.as_slice())
            .expect("the source buffer has the case's length")
    }

    /// One call of `v` on `threads` threads.
    fn run(&mut self, v: Variant, threads: usize) {
        let case = self.case;
        let two = threads > 1;
        match v {
            Variant::Memcpy => {
                let (src, out) = (self.src.as_slice(), self.out.as_mut_slice());
                if two {
                    let h = src.len() / 2;
                    let (s0, s1) = src.split_at(h);
                    let (d0, d1) = out.split_at_mut(h);
                    self.pool.install(|| {
                        rayon::join(|| d0.copy_from_slice(s0), || d1.copy_from_slice(s1))
                    });
                } else {
                    out.copy_from_slice(src);
                }
            }
            Variant::Batchspec | Variant::BatchspecOffset16 => {
                let shifted = v == Variant::BatchspecOffset16;
                let out = self.out.view_mut(shifted);
                let src = ArrayView::from_shape(IxDyn(case.shape), self.src.view(shifted))
                    .expect("the source buffer has the case's length");
                let r = if two {
                    self.pool
                        .install(|| permute_into(src, case.perm, out, |x| x, Threads::Two))
                } else {
                    permute_into(src, case.perm, out, |x| x, Threads::One)
                };
                r.expect("the case is a valid permutation");
            }
            Variant::NdarrayAssign => {
                let src = ArrayView::from_shape(IxDyn(case.shape), self.src.as_slice())
                    .expect("the source buffer has the case's length");
                let out = ArrayViewMut::from_shape(IxDyn(&self.out_shape), self.out.as_mut_slice())
                    .expect("the output buffer has the case's length");
                let pool = two.then_some(&self.pool);
                match case.shape.len() {
                    2 => nd_assign::<Ix2>(src, case.perm, out, pool),
                    3 => nd_assign::<Ix3>(src, case.perm, out, pool),
                    _ => nd_assign::<Ix4>(src, case.perm, out, pool),
                }
            }
            Variant::Transpose => {
                let n = case.rows * case.cols;
                let (src, out) = (self.src.as_slice(), self.out.as_mut_slice());
                let one = |(s, d): (&[f32], &mut [f32])| {
                    transpose::transpose(s, d, case.cols, case.rows);
                };
                if two && case.items > 1 {
                    self.pool.install(|| {
                        src.par_chunks_exact(n)
                            .zip(out.par_chunks_exact_mut(n))
                            .for_each(one)
                    });
                } else {
                    src.chunks_exact(n)
                        .zip(out.chunks_exact_mut(n))
                        .for_each(one);
                }
            }
            Variant::StridedCopyInto | Variant::StridedPermCopyInto => {
                let sh = case.shape;
                let (src, out) = (self.src.as_slice(), self.out.as_mut_slice());
                let view = StridedView::<f32>::new(src, sh, &row_major_strides(sh), 0)
                    .and_then(|v| v.permute(case.perm))
                    .expect("a valid strided-rs view");
                let strides = row_major_strides(&self.out_shape);
                let mut o = StridedViewMut::<f32>::new(out, &self.out_shape, &strides, 0)
                    .expect("a valid strided-rs view");
                let r = match (v, two) {
                    (Variant::StridedCopyInto, false) => {
                        with_execution_policy(ExecutionPolicy::Sequential, || {
                            strided_rs::copy_into(&mut o, &view)
                        })
                    }
                    (Variant::StridedCopyInto, true) => {
                        self.pool.install(|| strided_rs::copy_into(&mut o, &view))
                    }
                    (_, false) => strided_rs::perm::copy_into(&mut o, &view),
                    (_, true) => self
                        .pool
                        .install(|| strided_rs::perm::copy_into_par(&mut o, &view)),
                };
                r.expect("strided-rs accepts the case");
            }
            Variant::Pattern if case.items > 1 => {
                let n = case.rows * case.cols;
                let (src, out) = (self.src.as_slice(), self.out.as_mut_slice());
                for (d, s) in out.chunks_exact_mut(n).zip(src.chunks_exact(n)) {
                    d.copy_from_slice(s);
                }
            }
            Variant::Pattern => {
                let (rows, cols) = (case.rows, case.cols);
                let (src, out) = (self.src.as_slice(), self.out.as_mut_slice());
                let mut at = 0;
                for r0 in (0..rows).step_by(64) {
                    let r1 = (r0 + 64).min(rows);
                    for j in (0..cols).step_by(16) {
                        let w = 16.min(cols - j);
                        for r in r0..r1 {
                            out[at..at + w].copy_from_slice(&src[r * cols + j..r * cols + j + w]);
                            at += w;
                        }
                    }
                }
            }
            Variant::NdarrayStandardLayout => {
                let owned = self
                    .src_view()
                    .permuted_axes(IxDyn(case.perm))
                    .as_standard_layout()
                    .into_owned();
                black_box(owned);
            }
        }
    }
}

/// `out.assign(&src.permuted_axes(perm))` with a fixed-rank view, or ndarray's parallel
/// `Zip` on the pool.
fn nd_assign<D: Dimension>(
    src: ArrayView<'_, f32, IxDyn>,
    perm: &[usize],
    out: ArrayViewMut<'_, f32, IxDyn>,
    pool: Option<&rayon::ThreadPool>,
) {
    let src = src
        .into_dimensionality::<D>()
        .expect("the case's rank")
        .permuted_axes(D::from_dimension(&IxDyn(perm)).expect("the case's rank"));
    let mut out = out.into_dimensionality::<D>().expect("the case's rank");
    match pool {
        Some(pool) => pool.install(|| Zip::from(&mut out).and(&src).par_for_each(|o, &x| *o = x)),
        None => out.assign(&src),
    }
}

/// Whether `bytes` (source and destination) fit the last-level cache the machine reports.
fn working_set(bytes: usize) -> &'static str {
    let llc = batchspec::kernel::Caches::of_machine().llc;
    if llc == 0 {
        "unknown"
    } else if bytes <= llc {
        "in_llc"
    } else {
        "beyond_llc"
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick")
        || std::env::var("BATCHSPEC_BENCH_QUICK").is_ok_and(|v| !v.is_empty() && v != "0");
    let only: Option<String> = args
        .iter()
        .position(|a| a == "--cases")
        .and_then(|i| args.get(i + 1).cloned());
    if args.iter().any(|a| a == "--child") {
        return measure(quick, only.as_deref());
    }
    let processes: usize = std::env::var("BATCHSPEC_BENCH_PROCESSES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if quick { 1 } else { 3 })
        .max(1);
    batchspec_bench::record::start("transpose", quick);
    let tuning = batchspec::kernel::Tuning::for_machine();
    #[cfg(target_arch = "x86_64")]
    let wide = tuning.wide && std::arch::is_x86_feature_detected!("avx512f");
    #[cfg(not(target_arch = "x86_64"))]
    let wide = false;
    batchspec_bench::out!(
        "# kernel tuning of this machine: streaming stores from {} (calibrated at first use for panels from {}), staged {}, streamed de-interleaves read in {} parts (in one part, rows written in runs of {} pixels), streamed transpositions write {} lines of a row in turn, streamed blocks prefetch their source {} blocks ahead, strips of {} rows, threads from {} MB, AVX-512 blocks {}",
        if tuning.nt_min_bytes == usize::MAX {
            "never".to_string()
        } else {
            format!("{} MB", tuning.nt_min_bytes >> 20)
        },
        if tuning.nt_trial_min_bytes == usize::MAX {
            "never".to_string()
        } else {
            format!("{} MB", tuning.nt_trial_min_bytes >> 20)
        },
        tuning.staged,
        tuning.stream_parts,
        tuning.stream_runs,
        tuning.stream_lines,
        tuning.stream_prefetch,
        tuning.strip_rows,
        tuning.par_min_bytes >> 20,
        wide
    );
    batchspec_bench::out!(
        "# {processes} passes, one after the other, each measuring every case in a process of its own (a fresh address space, heap and cache state each: a figure that holds in one process only is not a result, and a case does not pay for the lines another case left in the cache); their lines follow, then the median and range over the passes"
    );
    // The arguments without `--cases`: each process is given its one case.
    let mut rest = Vec::new();
    let mut given = args[1..].iter();
    while let Some(a) = given.next() {
        if a == "--cases" {
            given.next();
        } else {
            rest.push(a.clone());
        }
    }
    let mut lines = Vec::new();
    let mut described = false;
    for k in 0..processes {
        batchspec_bench::out!("# pass {}", k + 1);
        for case in CASES
            .iter()
            .filter(|c| only.as_deref().is_none_or(|o| o.contains(c.name)))
        {
            let run =
                std::process::Command::new(std::env::current_exe().expect("the bench's own path"))
                    .args(&rest)
                    .args(["--cases", &case.name.to_string(), "--child"])
                    .env("BATCHSPEC_BENCH_RECORD", "0")
                    .output()
                    .expect("the bench runs itself");
            for line in String::from_utf8_lossy(&run.stdout).lines() {
                // The CPU line is the parent's; the description, once.
                let description = line.starts_with("# batchspec layout");
                let repeated = line.starts_with("# cpu:") || (description && described);
                if !repeated {
                    batchspec_bench::out!("{line}");
                }
                described |= description;
                lines.push((k, line.to_string()));
            }
            assert!(
                run.status.success(),
                "a measuring process failed: {}",
                String::from_utf8_lossy(&run.stderr)
            );
        }
    }
    // NumPy's `copyto(out, x.transpose(..))` in the same session, after the processes.
    let numpy = if only.is_none() {
        batchspec_bench::run_numpy("numpy_transpose.py", &[])
    } else {
        Vec::new()
    };
    summarize(&lines, processes, &numpy);
}

/// The value of `key=` in a line of `key=value` words.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

/// Per case and thread count, the median and range over the processes of the ratios to memcpy
/// and to the best peer (the `transpose` crate, strided-rs, ndarray's `as_standard_layout` and
/// `assign`), the ratio to NumPy's `copyto` (one thread), and whether the one-thread bars held
/// in every process.
fn summarize(lines: &[(usize, String)], processes: usize, numpy: &[String]) {
    let mut keys: Vec<(String, String, String)> = Vec::new();
    for (_, l) in lines {
        if let (Some(c), Some(t), Some(w)) = (
            field(l, "case"),
            field(l, "threads"),
            field(l, "working_set"),
        ) && l.starts_with("case=")
            && !keys.iter().any(|k| k.0 == c && k.1 == t)
        {
            keys.push((c.to_string(), t.to_string(), w.to_string()));
        }
    }
    for (c, t, w) in keys {
        let of = |key: &str| -> Vec<f64> {
            lines
                .iter()
                .filter(|(_, l)| {
                    l.starts_with("case=")
                        && field(l, "case") == Some(&c)
                        && field(l, "threads") == Some(&t)
                })
                .filter_map(|(_, l)| field(l, key)?.parse().ok())
                .collect()
        };
        let range = |v: &[f64]| {
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            format!(
                "{:.2} [{lo:.2}-{hi:.2}]",
                batchspec_bench::median(v.to_vec())
            )
        };
        let memcpy = of("ratio_memcpy");
        let offset16 = of("offset16_ratio_memcpy");
        // The best peer of each process: the best of the `peer` lines and ndarray's `assign`.
        let peer: Vec<f64> = of("ratio_best_peer")
            .into_iter()
            .zip(of("ratio_ndarray_assign"))
            .map(|(a, b)| a.min(b))
            .collect();
        // NumPy's copyto, one thread, in its own process after these: the median GB/s of ours
        // over NumPy's.
        let numpy_gbps = numpy.iter().find_map(|l| {
            (l.contains(&format!("case={c} ")) && l.contains("name=copyto ") && t == "1")
                .then(|| field(l, "gbps")?.parse::<f64>().ok())
                .flatten()
        });
        let vs_numpy = numpy_gbps.map(|g| batchspec_bench::median(of("gbps")) / g);
        let name = c.chars().next().unwrap_or('?');
        let verdict = if t == "1" {
            let held = memcpy.iter().all(|&r| r >= bar(name))
                && peer.iter().all(|&r| r >= 1.0)
                && vs_numpy.is_none_or(|r| r >= 1.0);
            format!(
                " bar=memcpy>={:.2},best_peer>=1.00 {}",
                bar(name),
                if held {
                    "met_in_every_process"
                } else {
                    "MISSED"
                }
            )
        } else {
            String::new()
        };
        batchspec_bench::out!(
            "summary case={c} threads={t} working_set={w} processes={} ratio_memcpy={} ratio_best_peer={}{}{verdict} offset16_ratio_memcpy={}",
            memcpy.len().min(processes),
            range(&memcpy),
            range(&peer),
            vs_numpy.map_or(String::new(), |r| format!(" ratio_numpy_copyto={r:.2}")),
            range(&offset16),
        );
    }
}

/// One process's measurements of every case (or those of `only`).
fn measure(quick: bool, only: Option<&str>) {
    let threads: usize = 2;
    batchspec_bench::record::start("transpose", quick);
    batchspec_bench::out!(
        "# batchspec layout conversion, f32 into a preallocated buffer. gbps = (bytes read + \
         bytes written) / s = 2 x tensor bytes / median time (as in perf-baselines.md); \
         ratio_* = gbps / gbps of the named baseline at the same thread count in the same \
         process: memcpy = copy_from_slice of the same bytes, ndarray_assign = \
         out.assign(&x.permuted_axes(..)) (2 threads: Zip::par_for_each), best_peer = best of \
         the `peer` lines (transpose, strided-rs, ndarray as_standard_layout)"
    );
    for case in &CASES {
        if only.is_some_and(|o| !o.contains(case.name)) {
            continue;
        }
        let (warm, reps) = match (quick, case.name) {
            (true, _) => (1, 3),
            (false, 'C') => (1, 7),
            (false, _) => (2, 11),
        };
        let n: usize = case.shape.iter().product();
        let mut src = Aligned::new(n);
        for (i, x) in src.as_mut_slice().iter_mut().enumerate() {
            *x = (i % 16_777_213) as f32;
        }
        let mut out = Aligned::new(n);
        out.as_mut_slice().fill(1.0);
        let out_shape = case.perm.iter().map(|&p| case.shape[p]).collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a 2-thread rayon pool");
        let mut bench = Bench {
            case,
            src,
            out,
            out_shape,
            pool,
        };
        batchspec_bench::out!(
            "# case {}: {} f32, {:.1} MB per side, {warm} warm-up + {reps} timed calls per variant",
            case.name,
            case.what,
            (n * 4) as f64 / 1e6
        );
        // The reference result, then every variant checked against it.
        bench.run(Variant::NdarrayAssign, 1);
        let want = bench.out.as_slice().to_vec();
        // The same for the views 16 bytes further on (another source, the values shifted).
        let want16 = {
            let src = ArrayView::from_shape(IxDyn(case.shape), bench.src.view(true))
                .expect("the source buffer has the case's length");
            let mut out = vec![0.0f32; n];
            let view = ArrayViewMut::from_shape(IxDyn(&bench.out_shape), &mut out[..])
                .expect("the output has the case's length");
            match case.shape.len() {
                2 => nd_assign::<Ix2>(src, case.perm, view, None),
                3 => nd_assign::<Ix3>(src, case.perm, view, None),
                _ => nd_assign::<Ix4>(src, case.perm, view, None),
            }
            out
        };
        for t in [1, threads] {
            // Variants writing into the preallocated buffer run in rounds; the one that
            // allocates its result runs after them, on its own: fresh pages cost so much
            // here (and slow the copies that follow a large free) that interleaving it
            // would disturb every other figure.
            let mut times = vec![Vec::with_capacity(reps); VARIANTS.len()];
            let (rounds, alone): (Vec<_>, Vec<_>) = VARIANTS
                .iter()
                .enumerate()
                .partition(|(_, v)| v.writes_buffer());
            let rounds: Vec<_> = rounds
                .into_iter()
                .filter(|(_, v)| v.runs(case, t))
                .collect();
            for &(_, &v) in &rounds {
                for _ in 0..warm {
                    bench.run(v, t);
                }
                // The kernel's first calls in a process calibrate its choices (whether an
                // output the last-level cache could hold is streamed, whether long rows are
                // staged; sixteen calls each): made here, before the timed rounds, so that they
                // time the choices. Until two calls in a row leave none pending.
                let (mut calls, mut quiet) = (0, 0);
                while v == Variant::Batchspec && quiet < 2 && calls < 40 {
                    bench.run(v, t);
                    calls += 1;
                    quiet = if batchspec::kernel::calibrating() {
                        0
                    } else {
                        quiet + 1
                    };
                }
            }
            for _ in 0..reps {
                for &(k, &v) in &rounds {
                    let t0 = Instant::now();
                    bench.run(v, t);
                    times[k].push(t0.elapsed());
                }
            }
            for &(k, &v) in &alone {
                for _ in 0..warm {
                    bench.run(v, t);
                }
                for _ in 0..reps {
                    let t0 = Instant::now();
                    bench.run(v, t);
                    times[k].push(t0.elapsed());
                }
            }
            let gbps: Vec<f64> = times
                .into_iter()
                .map(|ts| {
                    if ts.is_empty() {
                        f64::NAN
                    } else {
                        2.0 * (n * 4) as f64 / median(ts).as_secs_f64() / 1e9
                    }
                })
                .collect();
            let at = |v: Variant| gbps[VARIANTS.iter().position(|&w| w == v).unwrap_or(0)];
            let ours = at(Variant::Batchspec);
            let memcpy = at(Variant::Memcpy);
            let offset16 = at(Variant::BatchspecOffset16);
            let best_peer = VARIANTS
                .iter()
                .filter(|v| v.is_peer())
                .map(|&v| at(v))
                .fold(0.0f64, f64::max);
            batchspec_bench::out!(
                "case={} threads={t} working_set={} gbps={ours:.2} ratio_memcpy={:.2} ratio_ndarray_assign={:.2} ratio_best_peer={:.2} offset16_ratio_memcpy={:.2}",
                case.name,
                working_set(n * 8),
                ours / memcpy,
                ours / at(Variant::NdarrayAssign),
                ours / best_peer,
                offset16 / memcpy
            );
            for &v in VARIANTS.iter().filter(|v| v.runs(case, t)) {
                let ok = if matches!(
                    v,
                    Variant::Memcpy | Variant::NdarrayStandardLayout | Variant::Pattern
                ) {
                    "n/a"
                } else {
                    let shifted = v == Variant::BatchspecOffset16;
                    bench.out.view_mut(shifted).fill(f32::NAN);
                    bench.run(v, t);
                    let expected = if shifted { &want16 } else { &want };
                    if bench.out.view(shifted) == expected.as_slice() {
                        "ok"
                    } else {
                        "WRONG"
                    }
                };
                let prefix = if v.is_peer() { "peer" } else { "#" };
                batchspec_bench::out!(
                    "{prefix} case={} threads={t} name={} gbps={:.2} ratio_memcpy={:.2} result={ok} how={}",
                    case.name,
                    v.name(),
                    at(v),
                    at(v) / memcpy,
                    v.label(case, t),
                );
            }
        }
    }
    batchspec_bench::out!(
        "# streaming through the staging buffer, calibrated at first use in this process: {}",
        match batchspec::kernel::staging_decided() {
            Some(true) => "staged",
            Some(false) => "not staged",
            None => "not decided (no call streamed long rows, or BATCHSPEC_STAGED forced it)",
        }
    );
    if let Some(lines) = batchspec::kernel::stream_lines_decided() {
        batchspec_bench::out!(
            "# the streamed direct blocks of long rows, calibrated at first use in this process: {lines} lines of each destination row in turn"
        );
    }
    let word = |nt: Option<bool>| match nt {
        Some(true) => "streamed",
        Some(false) => "plain stores",
        None => "not decided",
    };
    let [one_parts, two_parts] = batchspec::kernel::stream_parts_decided();
    if one_parts.is_some() || two_parts.is_some() {
        let parts =
            |p: Option<usize>| p.map_or("not decided".to_string(), |p| format!("{p} parts"));
        batchspec_bench::out!(
            "# the streamed 3-channel de-interleave's reads, calibrated at first use in this process: 1 thread {}, 2 threads {}",
            parts(one_parts),
            parts(two_parts)
        );
    }
    let [one, two] = batchspec::kernel::panels_streaming_decided();
    if one.is_some() || two.is_some() {
        batchspec_bench::out!(
            "# streaming stores of the transposition in panels, its output inside the last-level cache, calibrated at first use in this process: 1 thread {}, 2 threads {}",
            word(one),
            word(two)
        );
    }
    let [one, two] = batchspec::kernel::wide_panels_decided();
    if one.is_some() || two.is_some() {
        let blocks = |d: Option<bool>| match d {
            Some(true) => "AVX-512",
            Some(false) => "AVX2",
            None => "not decided",
        };
        batchspec_bench::out!(
            "# the blocks of the streamed transposition in panels, calibrated at first use in this process: 1 thread {}, 2 threads {}",
            blocks(one),
            blocks(two)
        );
    }
}
