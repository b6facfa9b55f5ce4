//! The layout-conversion kernels against a plain index loop: every permutation of rank 2 to
//! 5, odd and prime sizes, zero-size axes, non-contiguous sources (steps, negative strides,
//! Fortran order, broadcasting), a rank-6 sample, `u8 -> f32` and `f64`, one and two
//! threads, and each kernel family forced on small inputs through the hidden tuning knobs; the
//! normalizing de-interleave of `u8` pixels against the plain expression; the `Unfilled` vector
//! written in parts; the gather of permuted samples into memory written once.

use batchspec_kernel::{
    KernelError, MAX_RANK, Part, Threads, Tuning, Unfilled, gather_permuted, gather_rows_into,
    gather_rows_tuned, permute_into, permute_into_tuned,
};
use ndarray::{ArrayD, ArrayViewD, Axis, IxDyn, Slice};
use proptest::prelude::*;

/// `dst[i0, .., ik] = f(src[idx])` with `idx[perm[k]] = i_k`, by a plain index loop.
fn reference<A: Copy, B>(src: &ArrayViewD<'_, A>, perm: &[usize], f: impl Fn(A) -> B) -> Vec<B> {
    let rank = src.ndim();
    let out_shape: Vec<usize> = perm.iter().map(|&p| src.shape()[p]).collect();
    let n: usize = out_shape.iter().product();
    let mut out = Vec::with_capacity(n);
    let mut idx = vec![0usize; rank];
    let mut src_idx = vec![0usize; rank];
    for flat in 0..n {
        let mut rest = flat;
        for k in (0..rank).rev() {
            idx[k] = rest % out_shape[k];
            rest /= out_shape[k];
        }
        for k in 0..rank {
            src_idx[perm[k]] = idx[k];
        }
        out.push(f(src[IxDyn(&src_idx)]));
    }
    out
}

/// All permutations of `0..n` (Heap's algorithm).
fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn heap(k: usize, a: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if k <= 1 {
            out.push(a.clone());
            return;
        }
        heap(k - 1, a, out);
        for i in 0..k - 1 {
            if k.is_multiple_of(2) {
                a.swap(i, k - 1);
            } else {
                a.swap(0, k - 1);
            }
            heap(k - 1, a, out);
        }
    }
    let mut a: Vec<usize> = (0..n).collect();
    let mut out = Vec::new();
    heap(n, &mut a, &mut out);
    out
}

/// The kernel configurations every case runs under.
fn configs() -> Vec<(&'static str, Tuning, Threads)> {
    let forced = Tuning {
        nt_min_bytes: 0,
        par_min_bytes: 0,
        strip_rows: 16,
        ..Tuning::default()
    };
    let portable = Tuning {
        simd: false,
        small: false,
        par_min_bytes: 0,
        ..Tuning::default()
    };
    vec![
        ("default, one thread", Tuning::default(), Threads::One),
        ("default, two threads", Tuning::default(), Threads::Two),
        (
            "streaming stores, short strips, split",
            forced,
            Threads::Two,
        ),
        ("portable kernels, split", portable, Threads::Two),
        (
            "streaming stores, not staged",
            Tuning {
                staged: false,
                ..forced
            },
            Threads::One,
        ),
        // The de-interleave's streamed source read in order (the calibration's other choice), in
        // two parts, and in a count of parts that leaves steps over (the default is 4).
        (
            "streaming stores, in one part (the calibration's other choice)",
            Tuning {
                stream_parts: 1,
                ..forced
            },
            Threads::One,
        ),
        (
            "streaming stores, in one part, split",
            Tuning {
                stream_parts: 1,
                ..forced
            },
            Threads::Two,
        ),
        // Read in one part, the three rows are written a run at a time (`stream_runs`, 1024
        // pixels by default: one run per core here): runs of one step (every run's prefetch
        // reaching the next, the last one the next core), of five steps (39 steps a row leave a
        // short run at the end), and none (a line of each row per step).
        (
            "streaming stores, in one part, runs of one step",
            Tuning {
                stream_parts: 1,
                stream_runs: 16,
                ..forced
            },
            Threads::One,
        ),
        (
            "streaming stores, in one part, runs of five steps, split",
            Tuning {
                stream_parts: 1,
                stream_runs: 80,
                ..forced
            },
            Threads::Two,
        ),
        (
            "streaming stores, in one part, a line of each row per step",
            Tuning {
                stream_parts: 1,
                stream_runs: 0,
                ..forced
            },
            Threads::One,
        ),
        (
            "streaming stores, in two parts, split",
            Tuning {
                stream_parts: 2,
                ..forced
            },
            Threads::Two,
        ),
        (
            "streaming stores, in three parts",
            Tuning {
                stream_parts: 3,
                ..forced
            },
            Threads::One,
        ),
        // The streamed transposition's destination rows a line at a time, and three lines
        // at a time (a count that leaves a shorter group at the end of a row; the default
        // is 2).
        (
            "streaming stores, not staged, a line of each row at a time",
            Tuning {
                staged: false,
                stream_lines: 1,
                ..forced
            },
            Threads::One,
        ),
        (
            "streaming stores, not staged, three lines of each row at a time",
            Tuning {
                staged: false,
                stream_lines: 3,
                ..forced
            },
            Threads::One,
        ),
        ("this machine's tuning", Tuning::for_machine(), Threads::One),
        // The AVX2 blocks where the machine has AVX-512 (the defaults take its blocks there).
        (
            "AVX2 blocks",
            Tuning {
                wide: false,
                ..Tuning::default()
            },
            Threads::One,
        ),
        (
            "AVX2 blocks, streaming stores, not staged",
            Tuning {
                wide: false,
                staged: false,
                ..forced
            },
            Threads::One,
        ),
        // Streamed panels in the AVX2 blocks where the machine has AVX-512 (the calibration's
        // other choice), their source not prefetched; and the streamed blocks, direct, their
        // source prefetched far past the core's end (a prefetch reads nothing the program sees,
        // wherever it points).
        (
            "streaming stores, panels in AVX2 blocks, not prefetched",
            Tuning {
                wide_panels: false,
                stream_prefetch: 0,
                ..forced
            },
            Threads::One,
        ),
        (
            "streaming stores, not staged, prefetched 1000 blocks ahead, split",
            Tuning {
                staged: false,
                stream_prefetch: 1000,
                ..forced
            },
            Threads::Two,
        ),
    ]
}

fn u8_array(shape: &[usize], seed: usize) -> ArrayD<u8> {
    let mut k = seed;
    ArrayD::from_shape_simple_fn(IxDyn(shape), || {
        k = k.wrapping_mul(31).wrapping_add(7);
        (k % 251) as u8
    })
}

fn f64_array(shape: &[usize], seed: usize) -> ArrayD<f64> {
    let mut k = seed as f64;
    ArrayD::from_shape_simple_fn(IxDyn(shape), || {
        k += 1.0;
        k * 0.5 - 3.0
    })
}

/// Runs `src` through every permutation and configuration, for one element map.
fn check_all<A, B, F>(what: &str, src: ArrayViewD<'_, A>, perms: &[Vec<usize>], f: F)
where
    A: Copy + Sync,
    B: Copy + Send + Default + PartialEq + std::fmt::Debug,
    F: Fn(A) -> B + Sync + Copy,
{
    for perm in perms {
        let want = reference(&src, perm, f);
        for (name, tuning, threads) in configs() {
            let mut got = vec![B::default(); want.len()];
            permute_into_tuned(src.view(), perm, &mut got, f, threads, &tuning).unwrap();
            assert!(
                got == want,
                "{what}, shape {:?}, strides {:?}, perm {perm:?}, {name}",
                src.shape(),
                src.strides()
            );
        }
    }
}

/// The same logical array as contiguous, stepped, reversed and Fortran-ordered views.
fn variants<T: Copy>(
    shape: &[usize],
    make: impl Fn(&[usize], usize) -> ArrayD<T>,
) -> Vec<(String, ArrayD<T>, Layout)> {
    let contiguous = make(shape, 1);
    let wide: Vec<usize> = shape.iter().map(|&d| 2 * d + 1).collect();
    let stepped = make(&wide, 2);
    let fortran: Vec<usize> = shape.iter().rev().copied().collect();
    vec![
        ("contiguous".into(), contiguous.clone(), Layout::Plain),
        ("stepped".into(), stepped, Layout::Stepped),
        ("reversed".into(), contiguous, Layout::Reversed),
        ("fortran".into(), make(&fortran, 3), Layout::Fortran),
    ]
}

#[derive(Clone, Copy)]
enum Layout {
    Plain,
    Stepped,
    Reversed,
    Fortran,
}

fn view_of<T>(a: &ArrayD<T>, layout: Layout) -> ArrayViewD<'_, T> {
    let mut v = a.view();
    match layout {
        Layout::Plain => {}
        Layout::Stepped => v.slice_each_axis_inplace(|ax| {
            Slice::new(1, Some(1 + 2 * ((ax.len - 1) / 2) as isize), 2)
        }),
        Layout::Reversed => {
            for k in (0..v.ndim()).step_by(2) {
                v.invert_axis(Axis(k));
            }
        }
        Layout::Fortran => v = v.reversed_axes(),
    }
    v
}

fn check_shape(shape: &[usize]) {
    let perms = permutations(shape.len());
    for (name, a, layout) in variants(shape, u8_array) {
        let v = view_of(&a, layout);
        assert_eq!(v.shape(), shape);
        check_all(&format!("u8 -> f32 {name}"), v, &perms, |x: u8| {
            f32::from(x)
        });
    }
    for (name, a, layout) in variants(shape, f64_array) {
        let v = view_of(&a, layout);
        check_all(&format!("f64 {name}"), v, &perms, |x: f64| x);
    }
}

#[test]
fn every_permutation_of_rank_2() {
    check_shape(&[37, 53]);
    check_shape(&[3, 41]);
    check_shape(&[17, 2]);
    check_shape(&[0, 5]);
}

#[test]
fn every_permutation_of_rank_3() {
    check_shape(&[3, 19, 17]);
    check_shape(&[5, 4, 3]);
    check_shape(&[2, 0, 7]);
}

#[test]
fn every_permutation_of_rank_4() {
    check_shape(&[3, 5, 7, 2]);
    check_shape(&[2, 11, 1, 3]);
    check_shape(&[4, 3, 0, 2]);
}

#[test]
fn every_permutation_of_rank_5() {
    check_shape(&[2, 3, 5, 1, 7]);
    check_shape(&[3, 2, 2, 4, 3]);
    check_shape(&[2, 3, 0, 2, 1]);
}

#[test]
fn rank_6_sample() {
    let shape = [2, 3, 1, 4, 2, 3];
    let perms = vec![
        vec![0, 1, 2, 3, 4, 5],
        vec![5, 4, 3, 2, 1, 0],
        vec![0, 5, 1, 2, 3, 4],
        vec![1, 0, 3, 2, 5, 4],
        vec![2, 4, 0, 5, 3, 1],
        vec![3, 5, 0, 1, 4, 2],
    ];
    for (name, a, layout) in variants(&shape, f64_array) {
        check_all(
            &format!("f64 {name}"),
            view_of(&a, layout),
            &perms,
            |x: f64| x,
        );
    }
    for (name, a, layout) in variants(&shape, u8_array) {
        check_all(
            &format!("u8 {name}"),
            view_of(&a, layout),
            &perms,
            |x: u8| f32::from(x),
        );
    }
}

/// Small versions of the benchmark cases, large enough for the vector kernels' blocks,
/// their edges and the thread split.
#[test]
fn benchmark_layouts_in_small() {
    let cases: [(&[usize], &[usize]); 9] = [
        (&[4, 9, 7, 3], &[0, 3, 1, 2]),   // bhwc -> bchw
        (&[2, 24, 26, 3], &[0, 3, 1, 2]), // bhwc -> bchw, line-aligned planes of 39 steps
        (&[3, 3, 9, 7], &[0, 2, 3, 1]),   // bchw -> bhwc
        (&[48, 40], &[1, 0]),             // 2-D, rows of 48
        (&[32, 3, 5, 7], &[1, 2, 3, 0]),  // bchw -> chwb
        (&[3, 32, 19], &[0, 2, 1]),       // bwc -> bcw
        (&[2, 4, 33, 17], &[0, 3, 1, 2]), // 4 channels of 17 moved outward
        (&[272, 41], &[1, 0]),            // long destination rows (staged)
        (&[2, 264, 24], &[0, 2, 1]),      // staged, batched
    ];
    for (shape, perm) in cases {
        let perms = [perm.to_vec()];
        for (name, a, layout) in variants(shape, u8_array) {
            let v = view_of(&a, layout);
            check_all(&format!("u8 -> f32 {name}"), v.view(), &perms, |x: u8| {
                f32::from(x)
            });
            check_all(&format!("u8 {name}"), v, &perms, |x: u8| x);
        }
        for (name, a, layout) in variants(shape, f64_array) {
            let v = view_of(&a, layout);
            check_all(&format!("f64 {name}"), v.view(), &perms, |x: f64| x);
            check_all(&format!("f64 -> f32 {name}"), v, &perms, |x: f64| x as f32);
        }
        let a = u8_array(shape, 5).mapv(|x| i32::from(x) - 100);
        check_all("i32", a.view(), &perms, |x: i32| x);
    }
}

/// Streaming stores need line-aligned rows: every start offset of the destination.
#[test]
fn every_destination_alignment() {
    let a = f64_array(&[32, 40], 1).mapv(|x| x as f32);
    let want = reference(&a.view().into_dyn(), &[1, 0], |x| x);
    let tuning = Tuning {
        nt_min_bytes: 0,
        ..Tuning::default()
    };
    let mut buf = vec![0.0f32; want.len() + 16];
    for off in 0..16 {
        let dst = &mut buf[off..off + want.len()];
        permute_into_tuned(
            a.view().into_dyn(),
            &[1, 0],
            dst,
            |x| x,
            Threads::One,
            &tuning,
        )
        .unwrap();
        assert_eq!(dst, &want[..], "offset {off}");
    }
    let a = f64_array(&[320, 40], 1).mapv(|x| x as f32);
    let want = reference(&a.view().into_dyn(), &[1, 0], |x| x);
    let mut buf = vec![0.0f32; want.len() + 16];
    for off in 0..16 {
        let dst = &mut buf[off..off + want.len()];
        permute_into_tuned(
            a.view().into_dyn(),
            &[1, 0],
            dst,
            |x| x,
            Threads::One,
            &tuning,
        )
        .unwrap();
        assert_eq!(dst, &want[..], "staged, offset {off}");
    }
    // The 3-channel de-interleave (`bhwc -> bchw`), 80 pixels per channel row.
    let a = u8_array(&[2, 8, 10, 3], 1);
    let want = reference(&a.view(), &[0, 3, 1, 2], f32::from);
    let mut buf = vec![0.0f32; want.len() + 16];
    for off in 0..16 {
        let dst = &mut buf[off..off + want.len()];
        permute_into_tuned(
            a.view(),
            &[0, 3, 1, 2],
            dst,
            f32::from,
            Threads::One,
            &tuning,
        )
        .unwrap();
        assert_eq!(dst, &want[..], "de-interleave, offset {off}");
    }
    let a = f64_array(&[16, 40], 1);
    let want = reference(&a.view().into_dyn(), &[1, 0], |x| x);
    let mut buf = vec![0.0f64; want.len() + 8];
    for off in 0..8 {
        let dst = &mut buf[off..off + want.len()];
        permute_into_tuned(
            a.view().into_dyn(),
            &[1, 0],
            dst,
            |x| x,
            Threads::One,
            &tuning,
        )
        .unwrap();
        assert_eq!(dst, &want[..], "offset {off}");
    }
}

/// Narrow destination rows stored back to back (`bchw -> chwb`: 16, 48 and 64 columns), streamed,
/// from every start of the source's lines and into every start of the destination's: the panels
/// written through an aligned tile (where the lines do not start at the rows) and those written
/// directly, one and two threads, 4-byte and 1-byte sources.
#[test]
fn narrow_rows_from_and_into_every_alignment() {
    let tuning = Tuning {
        nt_min_bytes: 0,
        // Two threads split these small outputs too (below 4 MB they ran on one).
        par_min_bytes: 0,
        ..Tuning::default()
    };
    // Source offsets: none, and 3, 12 and 15 values past a line (skips of 13, 4 and 1 rows).
    for (shape, offsets) in [
        (&[64usize, 3, 10, 10][..], &[0usize, 3, 12, 15][..]),
        (&[48, 3, 12, 12][..], &[0, 3]),
        (&[16, 5, 20, 21][..], &[0, 15]),
    ] {
        let perm = [1, 2, 3, 0];
        let n: usize = shape.iter().product();
        let base = f64_array(&[n + 32], 3).mapv(|x| x as f32);
        let base = base.as_slice().unwrap();
        let line = line_start(base);
        let bytes = u8_array(&[n + 16], 4);
        let bytes = bytes.as_slice().unwrap();
        let mut buf = vec![0.0f32; n + 16];
        for &so in offsets {
            let at = line + so;
            let src = ArrayViewD::from_shape(IxDyn(shape), &base[at..at + n]).unwrap();
            let want = reference(&src, &perm, |x| x);
            let src_u8 = ArrayViewD::from_shape(IxDyn(shape), &bytes[so..so + n]).unwrap();
            let want_u8 = reference(&src_u8, &perm, f32::from);
            for d in 0..16 {
                for threads in [Threads::One, Threads::Two] {
                    let dst = &mut buf[d..d + n];
                    dst.fill(f32::NAN);
                    permute_into_tuned(src.view(), &perm, dst, |x| x, threads, &tuning).unwrap();
                    assert!(
                        dst == &want[..],
                        "{shape:?}, source +{so}, destination +{d}, {threads:?}"
                    );
                    permute_into_tuned(src_u8.view(), &perm, dst, f32::from, threads, &tuning)
                        .unwrap();
                    assert!(
                        dst == &want_u8[..],
                        "u8 {shape:?}, source +{so}, destination +{d}"
                    );
                }
            }
        }
    }
}

/// Rows wider than a panel from a source whose lines do not start at the first destination row:
/// the rows before its first whole line by the portable kernel, the blocks from there, streamed
/// (direct with 1, 2 and 4 lines of a row in turn, or staged) or not, AVX-512 or AVX2 blocks,
/// one and two threads, the destination at a line or not. And small cores written in bands
/// (`bwc -> bcw`, rows back to back), whose destination lines straddle two rows when the
/// destination is not at a line; these from bytes mapped to floats as well.
#[test]
fn wide_rows_from_every_source_alignment() {
    // The shapes, and whether their rows are long enough for the staging and the lines of a row
    // to matter (else one tuning each of streamed or not, AVX-512 or not).
    for (shape, perm, long) in [
        (&[300usize, 80][..], &[1usize, 0][..], true),
        (&[2, 288, 64][..], &[0, 2, 1][..], true),
        (&[3, 128, 64][..], &[0, 2, 1][..], false),
        (&[4, 48, 16][..], &[0, 2, 1][..], false),
        (&[2, 32, 12][..], &[0, 2, 1][..], false),
    ] {
        let n: usize = shape.iter().product();
        let base = f64_array(&[n + 32], 5).mapv(|x| x as f32);
        let base = base.as_slice().unwrap();
        let line = line_start(base);
        let bytes = u8_array(&[n + 16], 6);
        let bytes = bytes.as_slice().unwrap();
        let mut buf = vec![0.0f32; n + 32];
        let dline = line_start(&buf);
        let mut tunings = vec![];
        for nt_min_bytes in [0, usize::MAX] {
            let ways: &[(bool, usize)] = if long {
                &[(true, 2), (false, 1), (false, 2), (false, 4)]
            } else {
                &[(true, 2)]
            };
            for &(staged, stream_lines) in ways {
                for wide in [true, false] {
                    tunings.push(Tuning {
                        nt_min_bytes,
                        staged,
                        stream_lines,
                        wide,
                        // Two threads split these small outputs too.
                        par_min_bytes: 0,
                        ..Tuning::default()
                    });
                }
            }
        }
        for so in [0usize, 1, 4, 12, 15] {
            let at = line + so;
            let src = ArrayViewD::from_shape(IxDyn(shape), &base[at..at + n]).unwrap();
            let want = reference(&src, perm, |x| x);
            // Long rows: the destination at a line or 16 bytes past one; small cores' shared
            // lines with every tail length's kind (1, 4 and 15 values).
            let dsts: &[usize] = if long { &[0, 4] } else { &[0, 1, 4, 15] };
            for &d in dsts {
                for tuning in &tunings {
                    for threads in [Threads::One, Threads::Two] {
                        let dst = &mut buf[dline + d..dline + d + n];
                        dst.fill(f32::NAN);
                        permute_into_tuned(src.view(), perm, dst, |x| x, threads, tuning).unwrap();
                        assert!(
                            dst == &want[..],
                            "{shape:?}, source +{so}, destination +{d}, {threads:?}, {tuning:?}"
                        );
                    }
                }
                // Bytes mapped to floats (the blocks that map each value), streamed.
                let src_u8 = ArrayViewD::from_shape(IxDyn(shape), &bytes[so..so + n]).unwrap();
                let want_u8 = reference(&src_u8, perm, f32::from);
                let dst = &mut buf[dline + d..dline + d + n];
                dst.fill(f32::NAN);
                permute_into_tuned(src_u8, perm, dst, f32::from, Threads::One, &tunings[0])
                    .unwrap();
                assert!(
                    dst == &want_u8[..],
                    "u8 {shape:?}, source +{so}, destination +{d}"
                );
            }
        }
    }
}

#[test]
fn broadcast_source() {
    let row = f64_array(&[7], 1);
    let b = row.broadcast(IxDyn(&[5, 3, 7])).unwrap();
    check_all("broadcast", b, &permutations(3), |x: f64| x);
}

#[test]
fn rank_0_and_1() {
    let a = ArrayD::from_elem(IxDyn(&[]), 2.5f64);
    let mut d = [0.0f64];
    permute_into(a.view(), &[], &mut d, |x| x * 2.0, Threads::Two).unwrap();
    assert_eq!(d, [5.0]);
    let a = f64_array(&[9], 1);
    let mut v = a.view();
    v.invert_axis(Axis(0));
    let mut d = [0.0f64; 9];
    permute_into(v.view(), &[0], &mut d, |x| x, Threads::One).unwrap();
    assert_eq!(d.to_vec(), v.iter().copied().collect::<Vec<_>>());
}

#[test]
fn refusals() {
    let a = f64_array(&[2, 3, 4], 1);
    let mut d = vec![0.0f64; 24];
    for perm in [&[0, 1][..], &[0, 1, 1], &[0, 1, 3], &[0, 1, 2, 3], &[]] {
        let e = permute_into(a.view(), perm, &mut d, |x| x, Threads::One).unwrap_err();
        assert_eq!(
            e,
            KernelError::NotAPermutation {
                perm: perm.to_vec(),
                rank: 3
            }
        );
        assert!(e.to_string().contains("not a permutation"), "{e}");
    }
    let mut short = vec![0.0f64; 23];
    let e = permute_into(a.view(), &[2, 1, 0], &mut short, |x| x, Threads::One).unwrap_err();
    assert_eq!(
        e,
        KernelError::LengthMismatch {
            expected: 24,
            actual: 23
        }
    );
    assert_eq!(
        e.to_string(),
        "destination holds 23 elements but the source has 24"
    );
    let big = ArrayD::<u8>::zeros(IxDyn(&[1; MAX_RANK + 1]));
    let mut d = [0u8];
    let e = permute_into(
        big.view(),
        &[0, 1, 2, 3, 4, 5, 6],
        &mut d,
        |x| x,
        Threads::One,
    )
    .unwrap_err();
    assert_eq!(e, KernelError::RankTooLarge { rank: 7 });
    assert_eq!(
        e.to_string(),
        "rank 7 is above the largest supported rank 6"
    );
    // Nothing was written on refusal.
    assert!(short.iter().all(|&x| x == 0.0));
}

/// A shape of rank 1 to 6 with small axes (zero included), data and a permutation.
fn case() -> impl Strategy<Value = (Vec<usize>, Vec<usize>, u64)> {
    (1usize..=MAX_RANK)
        .prop_flat_map(|rank| {
            (
                proptest::collection::vec(0usize..5, rank),
                Just((0..rank).collect::<Vec<_>>()).prop_shuffle(),
                any::<u64>(),
            )
        })
        .prop_filter("not too large", |(s, _, _)| {
            s.iter().product::<usize>() <= 2000
        })
}

proptest! {
    /// Permuting and then applying the inverse permutation gives back the source.
    #[test]
    fn inverse_permutation_is_identity((shape, perm, seed) in case(), two in any::<bool>()) {
        let threads = if two { Threads::Two } else { Threads::One };
        let tuning = Tuning { par_min_bytes: 0, nt_min_bytes: 0, ..Tuning::default() };
        let a = f64_array(&shape, seed as usize % 1000);
        let out_shape: Vec<usize> = perm.iter().map(|&p| shape[p]).collect();
        let mut mid = vec![0.0f64; a.len()];
        permute_into_tuned(a.view(), &perm, &mut mid, |x| x, threads, &tuning).unwrap();
        let mid_view = ArrayViewD::from_shape(IxDyn(&out_shape), &mid).unwrap();
        let mut inv = vec![0; perm.len()];
        for (k, &p) in perm.iter().enumerate() {
            inv[p] = k;
        }
        let mut back = vec![0.0f64; a.len()];
        permute_into_tuned(mid_view, &inv, &mut back, |x| x, threads, &tuning).unwrap();
        prop_assert_eq!(back, a.iter().copied().collect::<Vec<_>>());
    }

    /// Any stepped or reversed view against the reference.
    #[test]
    fn strided_views_match_reference(
        (shape, perm, seed) in case(),
        steps in proptest::collection::vec(-2isize..=2, MAX_RANK),
    ) {
        let wide: Vec<usize> = shape.iter().map(|&d| 2 * d).collect();
        let a = f64_array(&wide, seed as usize % 1000);
        let mut v = a.view();
        v.slice_each_axis_inplace(|ax| {
            let step = if steps[ax.axis.index()] == 0 { 1 } else { steps[ax.axis.index()] };
            Slice::new(0, Some((ax.len / 2) as isize * step.abs()), step)
        });
        let want = reference(&v, &perm, |x| x);
        let mut got = vec![0.0f64; want.len()];
        permute_into(v, &perm, &mut got, |x| x, Threads::One).unwrap();
        prop_assert_eq!(got, want);
    }
}

proptest! {
    /// A gather of rows into new memory equals the plain loop (rows copied through the map,
    /// then padding rows), under every prefetch distance, whether or not the source is large
    /// enough to prefetch from.
    #[test]
    fn gather_rows_is_the_plain_loop(
        n in 0usize..40,
        run in 0usize..9,
        picks in proptest::collection::vec(any::<proptest::sample::Index>(), 0..50),
        pad_rows in 0usize..4,
        prefetch_rows in 0usize..5,
        prefetch_min_bytes in prop_oneof![Just(0usize), Just(usize::MAX)],
    ) {
        let src: Vec<u16> = (0..n * run).map(|i| (i * 7 % 1000) as u16).collect();
        let rows: Vec<usize> = if n == 0 { vec![] } else { picks.iter().map(|p| p.index(n)).collect() };
        let tuning = Tuning { prefetch_rows, prefetch_min_bytes, ..Tuning::default() };
        let got = gather_rows_tuned(&src, run, &rows, pad_rows, -1.0f32, |x| f32::from(x) * 0.5, &tuning).unwrap();
        let mut want = Vec::new();
        for &r in &rows {
            want.extend(src[r * run..(r + 1) * run].iter().map(|&x| f32::from(x) * 0.5));
        }
        want.extend(std::iter::repeat_n(-1.0f32, pad_rows * run));
        // The same rows into memory the caller reuses (a lent batch): every value of it
        // written, the padding rows' place left to the caller.
        let mut lent = vec![f32::NAN; rows.len() * run];
        gather_rows_into(&src, run, &rows, &mut lent, |x| f32::from(x) * 0.5).unwrap();
        prop_assert_eq!(&lent[..], &want[..rows.len() * run]);
        prop_assert_eq!(got, want);
    }
}

#[test]
fn a_gather_into_refuses_what_does_not_fit_and_writes_nothing() {
    let src = [1u8, 2, 3, 4, 5, 6];
    let mut dst = [9.0f32; 4];
    // A row past the source.
    assert_eq!(
        gather_rows_into(&src, 2, &[0, 3], &mut dst, f32::from),
        Err(KernelError::RowOutOfRange { row: 3, rows: 3 })
    );
    // A destination of another size than the rows.
    assert!(matches!(
        gather_rows_into(&src, 2, &[0], &mut dst, f32::from),
        Err(KernelError::LengthMismatch {
            expected: 2,
            actual: 4
        })
    ));
    // A source that is not whole rows.
    assert!(matches!(
        gather_rows_into(&src, 4, &[0], &mut dst, f32::from),
        Err(KernelError::LengthMismatch { .. })
    ));
    assert_eq!(dst, [9.0; 4]);
    gather_rows_into(&src, 2, &[2, 0], &mut dst, f32::from).unwrap();
    assert_eq!(dst, [5.0, 6.0, 1.0, 2.0]);
}

/// `bchw -> chwb` of 64 images (destination rows of 64 columns: the transposition in panels)
/// of 9.6 MB, through `permute_into`, whose first calls on a machine whose last-level cache
/// could hold it try non-temporal stores and plain ones (`Tuning::nt_trial_min_bytes`): every
/// call writes the same values, whichever it tried, and the calibration decides.
#[test]
fn calibrated_calls_write_the_same_values() {
    let (b, chw) = (64, 3 * 112 * 112);
    let src: Vec<f32> = (0..b * chw).map(|i| (i % 65_521) as f32).collect();
    let a = ArrayViewD::from_shape(IxDyn(&[b, 3, 112, 112]), &src).unwrap();
    let mut want = vec![0.0f32; b * chw];
    for (k, row) in want.chunks_exact_mut(b).enumerate() {
        for (bi, v) in row.iter_mut().enumerate() {
            *v = src[bi * chw + k];
        }
    }
    // Line aligned, as the streaming stores need: a buffer 16 values longer, from its first
    // 64-byte boundary on.
    let mut buf = vec![0.0f32; want.len() + 16];
    let off = line_start(&buf);
    let dst = &mut buf[off..off + want.len()];
    for threads in [Threads::One, Threads::Two] {
        for call in 0..18 {
            dst.fill(f32::NAN);
            permute_into(a.clone(), &[1, 2, 3, 0], dst, |x| x, threads).unwrap();
            assert!(dst == &want[..], "{threads:?}, call {call}");
        }
    }
    let tuning = Tuning::for_machine();
    let bytes = want.len() * 4;
    let decided = batchspec_kernel::panels_streaming_decided();
    if (tuning.nt_trial_min_bytes..tuning.nt_min_bytes).contains(&bytes) {
        assert!(decided[0].is_some(), "one thread: {decided:?}");
        if bytes >= tuning.par_min_bytes {
            assert!(decided[1].is_some(), "two threads: {decided:?}");
        }
    } else {
        assert_eq!(decided, [None, None]);
    }
}

/// `bchw -> chwb` of 64 images (the transposition in panels) large enough to be streamed where
/// the last-level cache is small (12 MB on a 32 MiB-L3 host; elsewhere 4 MB, written with plain
/// stores): through `permute_into`, whose first calls on a streamed output try the AVX-512 blocks
/// and the AVX2 ones where the CPU has both; every call writes the same values, from a source at
/// a line and 16 bytes past one (written through the aligned tile), and the calibration decides.
#[test]
fn calibrated_panel_blocks_write_the_same_values() {
    let tuning = Tuning::for_machine();
    let target = streamed_bytes(&tuning);
    let (b, c, w) = (64, 3, 128);
    let h = target.div_ceil(4 * b * c * w);
    let chw = c * h * w;
    let n = b * chw;
    let src: Vec<f32> = (0..n + 16).map(|i| (i % 65_521) as f32).collect();
    let line = line_start(&src);
    let mut buf = vec![0.0f32; n + 16];
    let off = line_start(&buf);
    let dst = &mut buf[off..off + n];
    for threads in [Threads::One, Threads::Two] {
        for call in 0..36 {
            let at = line + if call % 3 == 2 { 4 } else { 0 };
            let a = ArrayViewD::from_shape(IxDyn(&[b, c, h, w]), &src[at..at + n]).unwrap();
            dst.fill(f32::NAN);
            permute_into(a, &[1, 2, 3, 0], dst, |x| x, threads).unwrap();
            let wrong = (0..n).find(|&k| dst[k] != src[at + (k % b) * chw + k / b]);
            assert_eq!(
                wrong,
                None,
                "{threads:?}, call {call}, source +{}",
                at - line
            );
        }
    }
    let decided = batchspec_kernel::wide_panels_decided();
    let forced = std::env::var_os("BATCHSPEC_WIDE_PANELS").is_some();
    if n * 4 >= tuning.nt_min_bytes && has_avx2() && has_avx512() && tuning.wide && !forced {
        assert!(decided[0].is_some(), "one thread: {decided:?}");
        if n * 4 >= tuning.par_min_bytes {
            assert!(decided[1].is_some(), "two threads: {decided:?}");
        }
    } else if forced || !has_avx512() || !tuning.wide {
        assert_eq!(decided, [None, None]);
    }
}

/// A square transpose large enough to be streamed where the last-level cache is small (12 MB on
/// a 32 MiB-L3 host; elsewhere 4 MB, written with plain stores): through `permute_into`, whose
/// first calls on a streamed output try the direct blocks with the tuning's lines of each
/// destination row and twice as many, then the staging buffer against the lines chosen; every
/// call writes the same values, from a source at a line and 16 bytes past one, and both
/// calibrations decide.
#[test]
fn calibrated_lines_and_staging_write_the_same_values() {
    let tuning = Tuning::for_machine();
    let target = streamed_bytes(&tuning);
    let side = ((target / 4) as f64).sqrt().ceil() as usize / 16 * 16 + 16;
    let n = side * side;
    let src: Vec<f32> = (0..n + 16).map(|i| (i % 65_521) as f32).collect();
    let line = line_start(&src);
    let mut buf = vec![0.0f32; n + 16];
    let off = line_start(&buf);
    let dst = &mut buf[off..off + n];
    for call in 0..34 {
        let at = line + if call % 3 == 2 { 4 } else { 0 };
        let a = ArrayViewD::from_shape(IxDyn(&[side, side]), &src[at..at + n]).unwrap();
        dst.fill(f32::NAN);
        permute_into(a, &[1, 0], dst, |x| x, Threads::One).unwrap();
        let wrong = (0..n).find(|&k| dst[k] != src[at + (k % side) * side + k / side]);
        assert_eq!(wrong, None, "call {call}, source +{}", at - line);
    }
    let forced = |name| std::env::var_os(name).is_some();
    let lines = batchspec_kernel::stream_lines_decided();
    let staged = batchspec_kernel::staging_decided();
    if n * 4 >= tuning.nt_min_bytes && has_avx2() {
        if forced("BATCHSPEC_STREAM_LINES")
            || std::env::var("BATCHSPEC_STAGED").as_deref() == Ok("1")
        {
            assert_eq!(lines, None);
        } else {
            let l = tuning.stream_lines.max(1);
            assert!(lines == Some(l) || lines == Some(2 * l), "{lines:?}");
        }
        assert_eq!(staged.is_some(), !forced("BATCHSPEC_STAGED"), "{staged:?}");
    } else {
        assert_eq!((lines, staged), (None, None));
    }
}

/// `bhwc -> bchw` of 3-channel images (the de-interleave), large enough to be streamed where
/// the last-level cache is small (12 MB on a 32 MiB-L3 host; elsewhere 4 MB, written with
/// plain stores): through `permute_into`, whose first calls on a streamed output try the
/// tuning's parts and 1 part (in order); every call writes the same values, and the calibration
/// decides.
#[test]
fn calibrated_parts_write_the_same_values() {
    let tuning = Tuning::for_machine();
    let target = streamed_bytes(&tuning);
    let (h, w) = (64, 64);
    let b = target.div_ceil(4 * 3 * h * w);
    let n = b * h * w * 3;
    let src: Vec<f32> = (0..n).map(|i| (i % 65_521) as f32).collect();
    let a = ArrayViewD::from_shape(IxDyn(&[b, h, w, 3]), &src).unwrap();
    let mut want = vec![0.0f32; n];
    for (i, v) in src.iter().enumerate() {
        let (bi, p, c) = (i / (3 * h * w), (i / 3) % (h * w), i % 3);
        want[(bi * 3 + c) * h * w + p] = *v;
    }
    let mut buf = vec![0.0f32; n + 16];
    let off = line_start(&buf);
    let dst = &mut buf[off..off + n];
    for threads in [Threads::One, Threads::Two] {
        for call in 0..18 {
            dst.fill(f32::NAN);
            permute_into(a.clone(), &[0, 3, 1, 2], dst, |x| x, threads).unwrap();
            assert!(dst == &want[..], "{threads:?}, call {call}");
        }
    }
    let bytes = n * 4;
    let decided = batchspec_kernel::stream_parts_decided();
    let forced = std::env::var_os("BATCHSPEC_STREAM_PARTS").is_some();
    if bytes >= tuning.nt_min_bytes && tuning.stream_parts > 1 && !forced && has_avx2() {
        assert!(decided[0].is_some(), "one thread: {decided:?}");
        if bytes >= tuning.par_min_bytes {
            assert!(decided[1].is_some(), "two threads: {decided:?}");
        }
        for parts in decided.into_iter().flatten() {
            assert!(parts == 1 || parts == tuning.stream_parts, "{parts} parts");
        }
    } else {
        assert_eq!(decided, [None, None]);
    }
}

/// The output size the calibration tests aim at: the streaming threshold where the last-level
/// cache is small (12 MB on a 32 MiB-L3 host), else 4 MB (written with plain stores there).
fn streamed_bytes(tuning: &Tuning) -> usize {
    if tuning.nt_min_bytes <= 32 << 20 {
        tuning.nt_min_bytes
    } else {
        4 << 20
    }
}

/// The first index of `values` that starts a 64-byte line.
fn line_start(values: &[f32]) -> usize {
    (0..16)
        .find(|&o| (values.as_ptr() as usize + 4 * o).is_multiple_of(64))
        .expect("16 floats span a line")
}

/// Whether the AVX2 kernels run here (the de-interleave that reads in parts is one).
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the CPU has AVX-512 (the kernel's blocks of 16 x 16 then run here).
fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

proptest! {
    /// The normalizing de-interleave of `u8` pixels into three `f32` rows writes, for every
    /// pixel it says it wrote, the plain expression bit for bit: `(v - a) / b`, or `v * a + b`
    /// (a product, then a sum), at the mirrored place when reversed; with AVX2 every pixel of
    /// a row of 8 or more, without it none (the caller writes them).
    #[test]
    fn normalizing_deinterleave_is_the_plain_expression(
        px in proptest::collection::vec(any::<u8>(), 0..120),
        a in proptest::array::uniform3(-300.0f32..300.0),
        b in proptest::array::uniform3(0.001f32..300.0),
        mul_add in any::<bool>(),
        reverse in any::<bool>(),
    ) {
        let n = px.len() / 3;
        let mut rows = [vec![f32::NAN; n], vec![f32::NAN; n], vec![f32::NAN; n]];
        let [r0, r1, r2] = &mut rows;
        let out = [&mut r0[..], &mut r1[..], &mut r2[..]];
        let done = if mul_add {
            batchspec_kernel::deinterleave3_mul_add(&px, out, a, b, reverse)
        } else {
            batchspec_kernel::deinterleave3_affine(&px, out, a, b, reverse)
        };
        let simd = has_avx2() && batchspec_kernel::simd_enabled();
        prop_assert_eq!(done, if simd && n >= 8 { n } else { 0 });
        for j in 0..done {
            let at = if reverse { n - 1 - j } else { j };
            for k in 0..3 {
                let v = f32::from(px[3 * j + k]);
                let want = if mul_add { v * a[k] + b[k] } else { (v - a[k]) / b[k] };
                prop_assert_eq!(rows[k][at].to_bits(), want.to_bits(), "pixel {} channel {}", j, k);
            }
        }
    }
}

// ---- the vector written in parts ----

/// [`Part::planes3_mul_add`]'s values by the plain expression: plane `k`, row `y`, pixel `x`
/// (mirrored when `reverse`) is `v as f32 * mul[k] + add[k]`.
fn planes_plain(src: &[u8], cols: usize, mul: [f32; 3], add: [f32; 3], reverse: bool) -> Vec<f32> {
    let n = src.len() / 3;
    let mut out = vec![f32::NAN; src.len()];
    for (i, px) in src.chunks_exact(3).enumerate() {
        let (y, x) = (i / cols, i % cols);
        let x = if reverse { cols - 1 - x } else { x };
        for k in 0..3 {
            out[k * n + y * cols + x] = f32::from(px[k]) * mul[k] + add[k];
        }
    }
    out
}

proptest! {
    /// Samples of three planes written by [`Part::planes3_mul_add`], one part a sample, on a
    /// thread each, the plain expression bit for bit at every width (the SIMD rows from 8
    /// pixels, the scalar loop below, and without SIMD in
    /// `unfilled_planes_without_simd_are_the_same`), then a padding part filled.
    #[test]
    fn unfilled_planes_are_the_plain_expression(
        samples in 1usize..4,
        rows in 0usize..5,
        cols in 1usize..40,
        seed in any::<u64>(),
        mul in proptest::array::uniform3(-300.0f32..300.0),
        add in proptest::array::uniform3(-300.0f32..300.0),
        reverse in any::<bool>(),
    ) {
        let len = rows * cols * 3;
        let src: Vec<Vec<u8>> = (0..samples as u64)
            .map(|s| (0..len as u64).map(|i| ((i ^ seed).wrapping_mul(s + 7) >> 3) as u8).collect())
            .collect();
        let mut batch = Unfilled::<f32>::new((samples + 1) * len);
        if len > 0 {
            let mut parts: Vec<Part<'_, f32>> = batch.parts(len).collect();
            prop_assert_eq!(parts.len(), samples + 1);
            parts.pop().unwrap().fill(-1.0);
            std::thread::scope(|s| {
                for (part, src) in parts.into_iter().zip(&src) {
                    s.spawn(move || {
                        assert!(part.planes3_mul_add(src, cols, mul, add, reverse).is_ok());
                    });
                }
            });
        }
        let got = batch.finish().unwrap();
        let mut want: Vec<f32> = src
            .iter()
            .flat_map(|s| planes_plain(s, cols, mul, add, reverse))
            .collect();
        want.resize((samples + 1) * len, -1.0);
        prop_assert_eq!(
            got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            want.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
    }
}

/// The same samples with the SIMD rows disabled (`BATCHSPEC_DISABLE_SIMD=1`, read once per
/// process): the property above in a child process, where every row is the scalar loop's.
#[test]
fn unfilled_planes_without_simd_are_the_same() {
    if std::env::var_os("BATCHSPEC_DISABLE_SIMD").is_some() {
        assert!(!batchspec_kernel::simd_enabled());
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args([
            "unfilled_planes_are",
            "unfilled_planes_without",
            "--test-threads=2",
        ])
        .env("BATCHSPEC_DISABLE_SIMD", "1")
        .env("PROPTEST_CASES", "64")
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // The property and the child's check of its variable ran, and passed.
    assert!(stdout.contains("test result: ok. 2 passed"), "{stdout}");
}

/// The planes refuse other types, lengths that are not three planes of whole rows and a source
/// of another length, and give the part back unwritten: the vector is then not given.
#[test]
fn unfilled_planes_refuse_what_they_cannot_write_whole() {
    let mut v = Unfilled::<f32>::new(12);
    let part = v.parts(12).next().unwrap();
    let part = part
        .planes3_mul_add(&[0u16; 12], 2, [1.0; 3], [0.0; 3], false)
        .unwrap_err();
    let part = part
        .planes3_mul_add(&[0u8; 9], 3, [1.0; 3], [0.0; 3], false)
        .unwrap_err();
    let part = part
        .planes3_mul_add(&[0u8; 12], 3, [1.0; 3], [0.0; 3], false)
        .unwrap_err();
    part.planes3_mul_add(&[0u8; 12], 0, [1.0; 3], [0.0; 3], false)
        .unwrap_err();
    assert_eq!(
        v.finish(),
        Err(KernelError::Unwritten {
            written: 0,
            len: 12
        })
    );
    let mut w = Unfilled::<f64>::new(6);
    let part = w.parts(6).next().unwrap();
    assert!(
        part.planes3_mul_add(&[0u8; 6], 2, [1.0; 3], [0.0; 3], false)
            .is_err()
    );
    let mut seven = Unfilled::<f32>::new(7);
    let part = seven.parts(7).next().unwrap();
    assert!(
        part.planes3_mul_add(&[0u8; 7], 1, [1.0; 3], [0.0; 3], false)
            .is_err()
    );
}

/// A part left unwritten is an error; the parts of a second call count from zero again (the
/// two calls below write all ten values between them, the second only two); sizes that do not
/// divide the length end in a shorter part; no parts of size 0.
#[test]
fn unfilled_counts_the_parts_of_its_last_call() {
    let mut v = Unfilled::<u8>::new(10);
    let parts: Vec<_> = v.parts(4).collect();
    assert_eq!(parts.iter().map(Part::len).collect::<Vec<_>>(), [4, 4, 2]);
    for p in parts.into_iter().take(2) {
        p.fill(1);
    }
    v.parts(4).last().unwrap().fill(3);
    assert_eq!(
        v.finish(),
        Err(KernelError::Unwritten {
            written: 2,
            len: 10
        })
    );
    let mut w = Unfilled::<u8>::new(10);
    for (i, p) in w.parts(4).enumerate() {
        p.fill(i as u8);
    }
    assert_eq!(w.finish().unwrap(), [0, 0, 0, 0, 1, 1, 1, 1, 2, 2]);
    let mut none = Unfilled::<u8>::new(0);
    assert_eq!(none.parts(0).len(), 0);
    assert_eq!(none.finish().unwrap(), Vec::<u8>::new());
    let mut some = Unfilled::<u8>::new(3);
    assert_eq!(some.parts(0).len(), 0);
    assert!(some.finish().is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// `gather_permuted` writes each sample asked for, permuted, then the padding samples, into
    /// new memory: every value equal to the plain index loop's for that sample, for every order
    /// of the sample's axes (the sample axis kept first), rows repeated and in any order.
    #[test]
    fn gathered_samples_are_permuted_as_the_plain_loop(
        shape in proptest::collection::vec(1usize..6, 2..5),
        rows in proptest::collection::vec(0usize..64, 0..7),
        pad_rows in 0usize..3,
        seed: usize,
        which: usize,
    ) {
        let src = u8_array(&shape, seed);
        let n = shape[0];
        let rows: Vec<usize> = rows.iter().map(|r| r % n).collect();
        let tails = permutations(shape.len() - 1);
        let tail = &tails[which % tails.len()];
        let perm: Vec<usize> = std::iter::once(0).chain(tail.iter().map(|&p| p + 1)).collect();
        let got = gather_permuted(src.view(), &rows, pad_rows, -1.0f32, &perm, f32::from).unwrap();
        let mut want = Vec::new();
        for &i in &rows {
            let one = src.slice_axis(Axis(0), Slice::from(i..i + 1));
            want.extend(reference(&one, &perm, f32::from));
        }
        want.extend(std::iter::repeat_n(-1.0f32, pad_rows * (src.len() / n)));
        prop_assert_eq!(got, want);
    }
}

/// `gather_permuted` refuses, before allocating, a row past the end and an order that moves the
/// sample axis or is not a permutation.
#[test]
fn gathered_samples_refuse_rows_past_the_end_and_moved_sample_axes() {
    let src = u8_array(&[3, 2, 4], 1);
    assert!(matches!(
        gather_permuted(src.view(), &[0, 3], 0, 0u8, &[0, 2, 1], |v| v),
        Err(KernelError::RowOutOfRange { row: 3, rows: 3 })
    ));
    for perm in [&[1, 0, 2][..], &[0, 1], &[0, 1, 1]] {
        assert!(
            matches!(
                gather_permuted(src.view(), &[0], 0, 0u8, perm, |v| v),
                Err(KernelError::NotAPermutation { .. })
            ),
            "{perm:?}"
        );
    }
}
