//! The derive on real structs: spaces, sources, leaves, describe and validate.

use batchspec::prelude::*;
use batchspec::types::SpecError;
use ndarray::{Array1, Array2, Array4};

#[derive(DataSpec)]
struct Labelled {
    #[spec(source = "targets")]
    label: Batch<Index<10>>,
}

#[derive(DataSpec)]
struct Views {
    #[spec(source = "features")]
    flat: Batch<Vector<3072>>,
    labelled: Labelled,
}

/// Two levels of nesting: `Record` holds `Views`, which holds `Labelled`.
#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<Image<32, 32, 3, 3072, BHWC, u8>>,
    views: Views,
}

fn record(n: usize, labels: usize) -> Record {
    Record {
        image: Batch::new(Array4::<u8>::zeros((n, 32, 32, 3))).unwrap(),
        views: Views {
            flat: Batch::new(Array2::<f32>::zeros((n, 3072))).unwrap(),
            labelled: Labelled {
                label: Batch::new(Array2::<i64>::from_shape_fn((labels, 1), |(i, _)| {
                    (i % 10) as i64
                }))
                .unwrap(),
            },
        },
    }
}

#[test]
fn nested_spec_describes_its_leaves_in_order() {
    let d = Record::describe(128);
    let pairs: Vec<_> = d
        .iter()
        .map(|d| (d.field.as_str(), d.source, d.dims().unwrap()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("image", "features", vec![128, 32, 32, 3]),
            ("views.flat", "features", vec![128, 3072]),
            ("views.labelled.label", "targets", vec![128, 1]),
        ]
    );
    assert_eq!(d[0].space, "image 32×32×3 bhwc u8");
    assert_eq!(d[2].space, "index of 10 labels 1 bk i64");
    assert_eq!(
        d[0].to_string(),
        "image <- features: (128, 32, 32, 3) image 32×32×3 bhwc u8"
    );
    assert_eq!(Record::LEAVES, 3);
    assert_eq!(Record::TOTAL, Some(3072 + 3072 + 1));
}

#[test]
fn validate_returns_the_batch_size_or_names_the_fields() {
    assert_eq!(record(5, 5).validate(), Ok(5));
    assert_eq!(
        record(0, 0).validate(),
        Ok(0),
        "an empty batch is a valid batch"
    );
    let err = record(5, 4).validate().unwrap_err();
    assert_eq!(
        err,
        SpecError::BatchSize {
            first_field: "image".into(),
            first: 5,
            field: "views.labelled.label".into(),
            actual: 4
        }
    );
    assert_eq!(
        err.to_string(),
        "batch sizes differ: `image` has 5 samples but `views.labelled.label` has 4"
    );
}

#[test]
fn spaces_and_sources_are_type_trees() {
    fn same<A: 'static, B: 'static>() -> bool {
        std::any::TypeId::of::<A>() == std::any::TypeId::of::<B>()
    }
    type Spaces = batchspec::types::SpacesOf<Record>;
    assert!(same::<
        Spaces,
        (
            Image<32, 32, 3, 3072, BHWC, u8>,
            (Vector<3072>, (Index<10>,))
        ),
    >());
    type Sources = batchspec::types::SourcesOf<Record>;
    assert!(same::<Sources, (Features, (Features, (Targets,)))>());
    assert!(same::<Features, source!("features")>());
    assert!(same::<source!("targets"), Targets>());
    assert_eq!(<source!("mask") as Source>::NAME, "mask");
    assert_eq!(<source!("étiquette") as Source>::NAME, "étiquette");
}

/// Generic structs, tuples of specs, tuples of batches sharing one source, and `Null`.
#[derive(DataSpec)]
struct Generic<S: Space> {
    x: Batch<S>,
    #[spec(source = "targets")]
    y: Batch<Labels<3>>,
    penalty: Null,
}

#[derive(DataSpec)]
struct Repeated {
    #[spec(source = "features")]
    views: (Batch<Vector<4>>, Batch<image![1, 2, 2]>),
    pair: (Generic<Vector<2>>, Labelled),
}

#[test]
fn generics_tuples_and_null() {
    let d = Repeated::describe(7);
    let pairs: Vec<_> = d.iter().map(|d| (d.field.as_str(), d.source)).collect();
    assert_eq!(
        pairs,
        [
            ("views.0", "features"),
            ("views.1", "features"),
            ("pair.0.x", "x"),
            ("pair.0.y", "targets"),
            ("pair.1.label", "targets"),
        ]
    );
    assert_eq!(Repeated::LEAVES, 5);
    let g = Generic::<Vector<2>> {
        x: Batch::new(Array2::zeros((3, 2))).unwrap(),
        y: Batch::new(Array1::from(vec![0i64, 1, 2])).unwrap(),
        penalty: Null,
    };
    assert_eq!(g.validate(), Ok(3));
}

#[test]
fn labels_out_of_range_are_errors_never_wrapped() {
    let err = Batch::<Index<4, 2>>::new(ndarray::array![[0i64, 2], [1, -1]]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "index of 4 labels 2 bk i64: label -1 at [1, 1] is not in 0..4"
    );
    let err = Batch::<Labels<4, u8>>::new(ndarray::array![0u8, 4]).unwrap_err();
    assert!(matches!(err, SpecError::Label { ref value, .. } if value == "4"));
    let mut ok = Batch::<Labels<4>>::zeros(2, 0);
    assert!(ok.set_label(1, 3).is_ok());
    assert!(ok.set_label(1, 4).is_err());
    assert_eq!(ok.array(), &ndarray::array![0i64, 3]);
}

/// Lifetimes, defaults and const generics on the struct.
#[derive(DataSpec)]
struct Borrowed<'a, const N: usize, S: Space = Vector<4>> {
    #[spec(source = "features")]
    x: BatchView<'a, Vector<N>>,
    y: batchspec::types::BatchView<'a, S>,
}

#[test]
fn borrowed_generic_spec() {
    let xs = Array2::<f32>::zeros((2, 3));
    let ys = Array2::<f32>::zeros((2, 4));
    let b = Borrowed::<'_, 3> {
        x: Batch::new(xs.view()).unwrap(),
        y: Batch::new(ys.view()).unwrap(),
    };
    assert_eq!(b.validate(), Ok(2));
    assert_eq!(Borrowed::<'static, 3>::LEAVES, 2);
}
