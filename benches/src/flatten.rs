//! Generated `flatten` + `nest` of a three-level spec against the same moves written by hand.
//!
//! `cargo bench -p batchspec-bench --bench flatten`: one line,
//! `case=flatten_nest generated_ns=.. hand_ns=.. ratio_hand=..` (ratio 1.00 = the same work).

use batchspec::hlist::{HCons, HNil};
use batchspec::prelude::*;
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
type Leaves = batchspec::FlatOf<Level1>;

/// The moves a person would write to build the flat form by hand.
#[inline(always)]
fn hand_flatten(s: Level1) -> Leaves {
    HCons {
        head: s.x,
        tail: HCons {
            head: s.inner.y,
            tail: HCons {
                head: s.inner.deeper.m,
                tail: HCons {
                    head: s.pair.0.m,
                    tail: HNil,
                },
            },
        },
    }
}

/// And back.
#[inline(always)]
fn hand_nest(f: Leaves) -> Level1 {
    let HCons {
        head: x,
        tail:
            HCons {
                head: y,
                tail:
                    HCons {
                        head: m,
                        tail:
                            HCons {
                                head: m2,
                                tail: HNil,
                            },
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

fn measure(f: fn(Level1) -> Level1, iters: u32) -> f64 {
    let mut s = spec();
    for _ in 0..1000 {
        s = f(s);
    }
    let mut best = f64::MAX;
    for _ in 0..7 {
        let t = Instant::now();
        for _ in 0..iters {
            s = f(black_box(s));
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / f64::from(iters));
    }
    black_box(s);
    best
}

fn main() {
    let iters = if std::env::var_os("BENCH_QUICK").is_some() {
        100_000
    } else {
        2_000_000
    };
    let generated = measure(generated_round_trip, iters);
    let hand = measure(hand_round_trip, iters);
    println!(
        "# flatten then nest of a three-level spec of 4 leaves (moves of ndarray arrays), best of 7"
    );
    println!(
        "case=flatten_nest generated_ns={generated:.2} hand_ns={hand:.2} ratio_hand={:.2}",
        hand / generated
    );
}
