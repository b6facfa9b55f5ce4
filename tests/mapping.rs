//! Pylearn2's DataSpecsMapping examples (seed document and its test suite), reproduced.

use batchspec::mapping::Mapping;
use batchspec::mapping::MappingError;
use batchspec::prelude::*;
use batchspec::types::ArcBatch;
use ndarray::Array2;

type VecSpace = Vector<3072>;
type ConvSpace = image![32, 32, 3; BCHW];
type TargetSpace = Vector<10>;

#[derive(DataSpec)]
struct Features3072 {
    #[spec(source = "features")]
    x: Batch<VecSpace>,
}

#[derive(DataSpec)]
struct ConvAndTargets {
    #[spec(source = "features")]
    conv: Batch<ConvSpace>,
    #[spec(source = "targets")]
    y: Batch<TargetSpace>,
}

#[derive(DataSpec)]
struct VecAndTargets {
    #[spec(source = "features")]
    x: Batch<VecSpace>,
    #[spec(source = "targets")]
    y: Batch<TargetSpace>,
}

#[derive(DataSpec)]
struct NullAndTargets {
    penalty: Null,
    #[spec(source = "targets")]
    y: Batch<Vector<3>>,
}

#[test]
fn same_source_in_two_spaces_stays_twice() {
    // source = ("features", ("features", "targets"))
    type Spec = (Features3072, ConvAndTargets);
    let m = Mapping::<Spec>::new();
    assert_eq!(m.positions(), [0, 1, 2]);
    assert_eq!(m.flat_sources(), ["features", "features", "targets"]);
    assert_eq!(
        m.flat_spaces(),
        [
            "vector 3072 bf f32",
            "image 3×32×32 bchw f32",
            "vector 10 bf f32"
        ]
    );
    assert_eq!(m.nest(&[1, 2, 3]).unwrap(), ((1,), (2, 3)));
    assert_eq!(m.flatten(((1,), (2, 3))).unwrap(), [1, 2, 3]);
}

#[test]
fn a_repeated_pair_is_flattened_once() {
    // source = (("features", "targets"), ("features", "targets"))
    type Spec = (VecAndTargets, VecAndTargets);
    let m = Mapping::<Spec>::new();
    assert_eq!(m.positions(), [0, 1, 0, 1]);
    assert_eq!(m.flat_sources(), ["features", "targets"]);
    assert_eq!(m.nest(&[1, 2]).unwrap(), ((1, 2), (1, 2)));
    assert_eq!(m.flatten(((1, 2), (1, 2))).unwrap(), [1, 2]);
}

#[test]
fn the_same_space_and_source_twice_is_one_leaf() {
    // source = ("features", "features") with the same space
    type Spec = (Features3072, Features3072);
    let m = Mapping::<Spec>::new();
    assert_eq!(m.len(), 1);
    assert_eq!(m.flat_sources(), ["features"]);
    assert_eq!(m.nest(&["x"]).unwrap(), (("x",), ("x",)));
}

#[test]
fn a_null_leaf_takes_no_flat_slot() {
    // source = ("", "targets") with (NullSpace(), VectorSpace(3))
    let m = Mapping::<NullAndTargets>::new();
    assert_eq!(m.positions(), [0]);
    assert_eq!(m.flatten(((), "y")).unwrap(), ["y"]);
    assert_eq!(m.nest(&["y"]).unwrap(), ((), "y"));
}

#[test]
fn flattening_refuses_shared_places_that_differ_and_nesting_refuses_wrong_lengths() {
    let m = Mapping::<(VecAndTargets, VecAndTargets)>::new();
    let err = m.flatten(((1, 2), (1, 5))).unwrap_err();
    assert_eq!(
        err,
        MappingError::SharedLeafDiffers {
            source_name: "targets",
            space: "vector 10 bf f32".into(),
            leaf: 3
        }
    );
    assert_eq!(
        m.nest(&[1]).unwrap_err(),
        MappingError::FlatLength {
            expected: 2,
            actual: 1
        }
    );
}

#[test]
fn a_shared_leaf_is_one_buffer_handed_to_every_place() {
    let m = Mapping::<(VecAndTargets, VecAndTargets)>::new();
    let x: ArcBatch<VecSpace> = Batch::<VecSpace>::new(Array2::zeros((4, 3072)))
        .unwrap()
        .to_shared();
    let y: ArcBatch<TargetSpace> = Batch::<TargetSpace>::new(Array2::zeros((4, 10)))
        .unwrap()
        .to_shared();
    // The values to nest are the shared batches themselves, as one enum per leaf kind.
    #[derive(Clone)]
    enum Leaf {
        X(ArcBatch<VecSpace>),
        Y(ArcBatch<TargetSpace>),
    }
    let ((a, b), (c, d)) = m.nest(&[Leaf::X(x.clone()), Leaf::Y(y.clone())]).unwrap();
    let ptr = |l: &Leaf| match l {
        Leaf::X(b) => b.array().as_ptr() as usize,
        Leaf::Y(b) => b.array().as_ptr() as usize,
    };
    assert_eq!(ptr(&a), x.array().as_ptr() as usize);
    assert_eq!(ptr(&a), ptr(&c), "both places hold the one features buffer");
    assert_eq!(ptr(&b), ptr(&d), "both places hold the one targets buffer");
}

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
    nothing: Null,
}

fn level1(n: usize, seed: f32) -> Level1 {
    Level1 {
        x: Batch::new(Array2::from_shape_fn((n, 3), |(i, j)| {
            seed + (i * 3 + j) as f32
        }))
        .unwrap(),
        inner: Level2 {
            y: Batch::new(Array2::from_shape_fn((n, 1), |(i, _)| (i % 4) as i64)).unwrap(),
            deeper: Level3 {
                m: Batch::new(Array2::from_elem((n, 2), seed)).unwrap(),
            },
        },
        nothing: Null,
    }
}

#[test]
fn flatten_then_nest_is_the_identity_and_keeps_the_buffers() {
    let spec = level1(5, 0.5);
    let (px, py, pm) = (
        spec.x.array().as_ptr(),
        spec.inner.y.array().as_ptr(),
        spec.inner.deeper.m.array().as_ptr(),
    );
    let flat = spec.flatten();
    // The flat form is a balanced tree over the fields: `x`, then (`inner`'s `y` and `m`, and
    // `nothing`'s no leaves).
    assert_eq!(flat.first.array().as_ptr(), px);
    assert_eq!(flat.second.first.first.array().as_ptr(), py);
    assert_eq!(flat.second.first.second.array().as_ptr(), pm);
    let batchspec::types::HNil = flat.second.second;
    let back = Level1::nest(flat);
    assert_eq!(back.x, level1(5, 0.5).x);
    assert_eq!(back.inner.y, level1(5, 0.5).inner.y);
    assert_eq!(back.inner.deeper.m, level1(5, 0.5).inner.deeper.m);
    assert_eq!(
        (
            back.x.array().as_ptr(),
            back.inner.y.array().as_ptr(),
            back.inner.deeper.m.array().as_ptr()
        ),
        (px, py, pm)
    );
}

proptest::proptest! {
    #[test]
    fn nest_after_flatten_is_the_identity(n in 0usize..6, seed in -10.0f32..10.0) {
        let back = Level1::nest(level1(n, seed).flatten());
        let again = level1(n, seed);
        proptest::prop_assert_eq!(back.x, again.x);
        proptest::prop_assert_eq!(back.inner.y, again.inner.y);
        proptest::prop_assert_eq!(back.inner.deeper.m, again.inner.deeper.m);
    }

    #[test]
    fn mapping_nest_then_flatten_is_the_identity(values in proptest::collection::vec(0u32..100, 2)) {
        let m = Mapping::<(VecAndTargets, VecAndTargets)>::new();
        let nested = m.nest(&values).unwrap();
        proptest::prop_assert_eq!(m.flatten(nested).unwrap(), values);
    }
}
