//! Flatten and nest of a three-level spec are plain moves: a counting allocator sees none.

use batchspec::prelude::*;
use ndarray::Array2;

mod common;

#[global_allocator]
static GLOBAL: common::Counting = common::Counting;

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

#[test]
fn flatten_and_nest_allocate_nothing() {
    let spec = Level1 {
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
    };
    // A control: the counter does see an allocation.
    let before = common::allocations();
    drop(std::hint::black_box(vec![1u8; 16]));
    assert_eq!(common::allocations(), before + 1);

    let before = common::allocations();
    let mut spec = spec;
    for _ in 0..1000 {
        let flat = std::hint::black_box(spec.flatten());
        spec = Level1::nest(flat);
    }
    let refs = std::hint::black_box(spec.flatten_ref());
    let _ = refs;
    assert_eq!(common::allocations(), before, "flatten / nest allocated");
}
