//! Datasets (the Pylearn dataset proposal): length, typed fields, selection, writes refused when
//! read-only, iteration, minibatches, shuffling by a permutation.

use batchspec::data::DataError;
use batchspec::dataset::Dataset;
use batchspec::error::SpecError;
use batchspec::iteration::permutation;
use batchspec::prelude::*;
use ndarray::{Array1, Array2, array};

#[derive(DataSpec)]
struct Table {
    #[spec(source = "features")]
    x: Batch<Vector<2>>,
    #[spec(source = "targets")]
    y: Batch<Labels<5>>,
}

fn table(n: usize) -> Dataset<Table> {
    Dataset::new(Table {
        x: Batch::new(Array2::from_shape_fn((n, 2), |(i, j)| (i * 10 + j) as f32)).unwrap(),
        y: Batch::new(Array1::from_shape_fn(n, |i| (i % 5) as i64)).unwrap(),
    })
    .unwrap()
}

#[test]
fn fields_selection_and_slices() {
    let ds = table(7);
    assert_eq!(ds.len(), 7);
    assert_eq!(ds.fields().x.array()[[3, 1]], 31.0);
    let picked = ds.select(&[6, 0, 6]).unwrap();
    assert_eq!(
        picked.x.array(),
        &array![[60f32, 61.], [0., 1.], [60., 61.]]
    );
    assert_eq!(picked.y.array(), &array![1i64, 0, 1]);
    let part = ds.slice(2..4).unwrap();
    assert_eq!(part.y.array(), &array![2i64, 3]);
    assert_eq!(ds.get(5).unwrap().x.array(), &array![[50f32, 51.]]);
    // Views borrow the dataset: no copy.
    let (x, y) = ds.sample(5).unwrap();
    assert_eq!(x.array(), &array![[50f32, 51.]]);
    assert_eq!(x.array().as_ptr(), ds.fields().x.array().row(5).as_ptr());
    assert_eq!(y.array(), &array![0i64]);
    let (xs, _) = ds.view(2..5).unwrap();
    assert_eq!(xs.len(), 3);
    assert!(ds.view(6..8).is_err());
    assert!(matches!(
        ds.select(&[7]),
        Err(DataError::Spec(SpecError::Row {
            row: 7,
            position: 0,
            len: 7
        }))
    ));
    assert!(ds.slice(5..9).is_err());
}

#[test]
fn writes_and_in_place_arithmetic_unless_read_only() {
    let mut ds = table(3);
    ds.fields_mut()
        .unwrap()
        .x
        .array_mut()
        .mapv_inplace(|v| v + 0.5);
    ds.fields_mut().unwrap().y.set_label(0, 4).unwrap();
    assert_eq!(ds.fields().x.array()[[2, 0]], 20.5);
    assert_eq!(ds.fields().y.array()[0], 4);
    // A label write is still checked: 5 is not in 0..5.
    assert!(ds.fields_mut().unwrap().y.set_label(0, 5).is_err());
    ds.set_read_only(true);
    assert!(matches!(ds.fields_mut(), Err(DataError::ReadOnly)));
}

#[test]
fn iteration_minibatches_and_permutations() {
    let ds = table(5);
    let firsts: Vec<f32> = ds.samples().map(|s| s.unwrap().x.array()[[0, 0]]).collect();
    assert_eq!(firsts, [0., 10., 20., 30., 40.]);
    let sizes: Vec<usize> = ds
        .minibatches(2)
        .map(|b| b.unwrap().validate().unwrap())
        .collect();
    assert_eq!(sizes, [2, 2, 1]);
    let perm = permutation(5, 3, 0);
    let shuffled = ds.permuted(&perm).unwrap();
    for (j, &i) in perm.iter().enumerate() {
        assert_eq!(shuffled.fields().y.array()[j], ds.fields().y.array()[i]);
    }
    assert!(matches!(
        ds.permuted(&[0, 0, 1, 2, 3]),
        Err(DataError::NotAPermutation { .. })
    ));
}

#[test]
fn leaves_of_different_lengths_are_refused() {
    let err = Dataset::new(Table {
        x: Batch::new(Array2::zeros((3, 2))).unwrap(),
        y: Batch::new(Array1::zeros(4)).unwrap(),
    })
    .err()
    .unwrap();
    assert_eq!(
        err.to_string(),
        "batch sizes differ: `x` has 3 samples but `y` has 4"
    );
}

/// A nested record (and one that holds a source in two fields) still selects and slices: the
/// copy goes field by field, not through a lookup by source.
#[derive(DataSpec)]
struct Labelled {
    #[spec(source = "targets")]
    y: Batch<Index<5>>,
}

#[derive(DataSpec)]
struct Nested {
    #[spec(source = "features")]
    x: Batch<Vector<2>>,
    #[spec(source = "features")]
    again: Batch<Vector<2>>,
    labelled: Labelled,
}

#[test]
fn nested_records_select_field_by_field() {
    let n = 5;
    let ds = Dataset::new(Nested {
        x: Batch::new(ndarray::Array2::from_shape_fn((n, 2), |(i, j)| {
            (i * 2 + j) as f32
        }))
        .unwrap(),
        again: Batch::new(ndarray::Array2::from_shape_fn((n, 2), |(i, j)| {
            -((i * 2 + j) as f32)
        }))
        .unwrap(),
        labelled: Labelled {
            y: Batch::new(ndarray::Array2::from_shape_fn((n, 1), |(i, _)| {
                (4 - i) as i64
            }))
            .unwrap(),
        },
    })
    .unwrap();
    let picked = ds.select(&[4, 0, 4]).unwrap();
    assert_eq!(
        picked.x.array(),
        &ndarray::array![[8.0f32, 9.0], [0.0, 1.0], [8.0, 9.0]]
    );
    assert_eq!(
        picked.again.array(),
        &ndarray::array![[-8.0f32, -9.0], [-0.0, -1.0], [-8.0, -9.0]]
    );
    assert_eq!(
        picked.labelled.y.array(),
        &ndarray::array![[0i64], [4], [0]]
    );
}

#[test]
fn bad_rows_ranges_and_sizes_are_named_as_they_are() {
    let ds = table(5);
    // A sample past the end, even the last index there is: no overflow, the row asked for.
    let err = ds.sample(usize::MAX).err().unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "row {} (at position 0 of the selection) is past the end: there are 5 samples",
            usize::MAX
        )
    );
    let err = ds.sample(5).err().unwrap();
    assert!(err.to_string().starts_with("row 5 "), "{err}");
    // A view that runs past the end names the first row that is not there.
    let err = ds.view(3..7).err().unwrap();
    assert_eq!(
        err.to_string(),
        "row 5 (at position 2 of the selection) is past the end: there are 5 samples"
    );
    // A reversed range says so.
    #[allow(clippy::reversed_empty_ranges)]
    let err = ds.view(5..3).err().unwrap();
    assert_eq!(
        err.to_string(),
        "the rows 5..3 are not a range: 5 is after 3"
    );
    assert!(ds.view(5..5).is_ok());
    // Minibatches of 0 samples are an error, not minibatches of 1.
    let got: Vec<_> = ds.minibatches(0).collect();
    assert_eq!(got.len(), 1);
    assert_eq!(
        got[0].as_ref().err().unwrap().to_string(),
        "a minibatch holds at least 1 sample, 0 were asked for"
    );
    assert_eq!(ds.minibatches(2).count(), 3);
}

#[test]
fn a_label_written_outside_the_batch_names_the_position() {
    let mut b = Batch::<Labels<10>>::new(ndarray::array![1i64, 2, 3]).unwrap();
    let err = b.set_label(5, 4).unwrap_err();
    assert_eq!(
        err.to_string(),
        "labels of 10 labels b i64: position [5] is outside the batch of shape (3,)"
    );
    b.set_label(2, 9).unwrap();
    assert_eq!(b.array()[2], 9);
}
