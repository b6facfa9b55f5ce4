//! Generated `flatten` + `nest` of a three-level spec against the same moves written by hand.
//!
//! `cargo bench -p batchspec-bench --bench flatten`: one line,
//! `case=flatten_nest generated_ns=.. hand_ns=.. ratio_hand=.. [min-max]` (ratio 1.00 = the same
//! work), the median of the ratios of interleaved rounds and their range.

use batchspec::prelude::*;
use batchspec::types::{HNil, Pair};
use batchspec_bench::median;
use ndarray::Array2;
use std::hint::black_box;
use std::time::Instant;

#[derive(DataSpec)]
struct Level3 {
    #[spec(source = "mask")]
    m: Batch<Vector<2>>,
}

#[derive(DataSpec)]
struct Level2 {
    #[spec(source = "targets")]
    y: Batch<Index<4>>,
    deeper: Level3,
}

#[derive(DataSpec)]
struct Level1 {
    #[spec(source = "features")]
    x: Batch<Vector<3>>,
    inner: Level2,
    pair: (Level3, Null),
}

/// The flat form, the same type the derive produces.
type Leaves = batchspec::types::FlatOf<Level1>;

/// The moves a person would write to build the flat form by hand.
#[inline(always)]
fn hand_flatten(s: Level1) -> Leaves {
    Pair {
        first: s.x,
        second: Pair {
            first: Pair {
                first: s.inner.y,
                second: s.inner.deeper.m,
            },
            second: Pair {
                first: s.pair.0.m,
                second: HNil,
            },
        },
    }
}

/// And back.
#[inline(always)]
fn hand_nest(f: Leaves) -> Level1 {
    let Pair {
        first: x,
        second:
            Pair {
                first:
                    Pair {
                        first: y,
                        second: m,
                    },
                second:
                    Pair {
                        first: m2,
                        second: HNil,
                    },
            },
    } = f;
    Level1 {
        x,
        inner: Level2 {
            y,
            deeper: Level3 { m },
        },
        pair: (Level3 { m: m2 }, Null),
    }
}

#[inline(never)]
fn generated_round_trip(s: Level1) -> Level1 {
    Level1::nest(black_box(s.flatten()))
}

#[inline(never)]
fn hand_round_trip(s: Level1) -> Level1 {
    hand_nest(black_box(hand_flatten(s)))
}

fn spec() -> Level1 {
    Level1 {
        x: Batch::new(Array2::zeros((8, 3))).unwrap(),
        inner: Level2 {
            y: Batch::new(Array2::zeros((8, 1))).unwrap(),
            deeper: Level3 {
                m: Batch::new(Array2::zeros((8, 2))).unwrap(),
            },
        },
        pair: (
            Level3 {
                m: Batch::new(Array2::zeros((8, 2))).unwrap(),
            },
            Null,
        ),
    }
}

/// Nanoseconds per round trip: the best of 3 timed loops of `iters`.
fn measure(f: fn(Level1) -> Level1, s: &mut Option<Level1>, iters: u32) -> f64 {
    let mut v = s
        .take()
        .expect("the spec is put back after each measurement");
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        for _ in 0..iters {
            v = f(black_box(v));
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / f64::from(iters));
    }
    *s = Some(v);
    best
}

fn main() {
    batchspec_bench::record::start("flatten", std::env::var_os("BENCH_QUICK").is_some());
    let (iters, rounds) = if std::env::var_os("BENCH_QUICK").is_some() {
        (50_000, 5)
    } else {
        (500_000, 15)
    };
    let mut s = Some(spec());
    // Warm both paths, then time them in interleaved rounds (the order alternating from round
    // to round, since the first loop after a pause runs slower on this VM), one ratio per round.
    measure(generated_round_trip, &mut s, iters);
    measure(hand_round_trip, &mut s, iters);
    let (mut generated, mut hand, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let (g, h) = if round % 2 == 0 {
            let g = measure(generated_round_trip, &mut s, iters);
            (g, measure(hand_round_trip, &mut s, iters))
        } else {
            let h = measure(hand_round_trip, &mut s, iters);
            (measure(generated_round_trip, &mut s, iters), h)
        };
        generated.push(g);
        hand.push(h);
        ratios.push(h / g);
    }
    black_box(s);
    let (lo, hi) = ratios
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &r| (lo.min(r), hi.max(r)));
    batchspec_bench::out!(
        "# flatten then nest of a three-level spec of 4 leaves (moves of ndarray arrays); {rounds} interleaved rounds, ratio within a round: median [min-max]"
    );
    batchspec_bench::out!(
        "case=flatten_nest generated_ns={:.2} hand_ns={:.2} ratio_hand={:.2} [{lo:.2}-{hi:.2}]",
        median(generated),
        median(hand),
        median(ratios)
    );
}
