//! Datasets (the Pylearn dataset proposal): length, typed fields, selection, writes (fields,
//! samples, selections, arithmetic), iteration, minibatches, shuffling by a permutation.

use batchspec::data::DataError;
use batchspec::data::Dataset;
use batchspec::iteration::permutation;
use batchspec::prelude::*;
use batchspec::types::SpecError;
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
    let s = ds.sample(5).unwrap();
    assert_eq!(s.x.array(), &array![[50f32, 51.]]);
    assert_eq!(s.x.array().as_ptr(), ds.fields().x.array().row(5).as_ptr());
    assert_eq!(s.y.array(), &array![0i64]);
    assert_eq!(ds.view(2..5).unwrap().x.len(), 3);
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
fn writes_through_the_fields() {
    let mut ds = table(3);
    ds.fields_mut().x.array_mut().mapv_inplace(|v| v + 0.5);
    ds.fields_mut().y.set_label(0, 4).unwrap();
    assert_eq!(ds.fields().x.array()[[2, 0]], 20.5);
    assert_eq!(ds.fields().y.array()[0], 4);
    // A label write is still checked: 5 is not in 0..5.
    assert!(ds.fields_mut().y.set_label(0, 5).is_err());
    // Read-only by ownership: a shared dataset has no `fields_mut` (a compile error), which is
    // how providers and prefetching hold it.
    let shared = std::sync::Arc::new(table(3));
    assert_eq!(shared.len(), 3);
}

/// Today's bug, fixed: a field replaced by a shorter one kept the old length and the next
/// `select` panicked. Now every row operation refuses, naming the fields, until they agree.
#[test]
fn a_field_of_another_length_is_refused_until_the_fields_agree() {
    let mut ds = table(4);
    ds.fields_mut().x = Batch::new(Array2::zeros((2, 2))).unwrap();
    let refused = |r: Result<Table, DataError>| match r {
        Err(DataError::Invalidated(SpecError::BatchSize {
            first: 2,
            actual: 4,
            ..
        })) => {}
        other => panic!("{:?}", other.map(|t| t.x.len())),
    };
    refused(ds.select(&[3]));
    refused(ds.slice(0..1));
    refused(ds.get(0));
    assert!(ds.view(0..1).is_err());
    assert!(ds.minibatches(2).next().unwrap().is_err());
    assert!(ds.check().is_err());
    let schedule = batchspec::iteration::Schedule::builder(4)
        .batch_size(2)
        .build()
        .unwrap();
    assert!(matches!(
        batchspec::data::Provider::<Table, Table>::new(&ds, schedule),
        Err(DataError::Invalidated(_))
    ));
    let msg = ds.select(&[0]).err().unwrap().to_string();
    assert!(msg.contains("`x` has 2 samples but `y` has 4"), "{msg}");
    // Made to agree again: a dataset of 2.
    ds.fields_mut().y = Batch::new(array![3i64, 4]).unwrap();
    assert_eq!(ds.check().unwrap(), 2);
    assert_eq!(ds.select(&[1]).unwrap().y.array(), &array![4i64]);
}

/// A `fields_mut` guard leaked with `mem::forget` never checks the fields: the guard marked the
/// dataset unchecked when it was made, so every row operation refuses (an error, not a panic)
/// until a guard is dropped again.
#[test]
fn a_leaked_fields_guard_leaves_the_dataset_refusing_not_panicking() {
    let mut ds = table(4);
    let mut guard = ds.fields_mut();
    guard.x = Batch::new(Array2::zeros((2, 2))).unwrap();
    std::mem::forget(guard);
    let refused = |r: Result<Table, DataError>| match r {
        Err(DataError::FieldsUnchecked) => {}
        other => panic!("{:?}", other.map(|t| t.x.len())),
    };
    refused(ds.select(&[3]));
    refused(ds.slice(0..4));
    refused(ds.get(3));
    assert!(ds.view(0..4).is_err());
    assert!(ds.sample_mut(3).is_err());
    assert!(ds.minibatches(2).all(|b| b.is_err()));
    assert!(ds.samples().all(|s| s.is_err()));
    assert!(ds.permuted(&[0, 1, 2, 3]).is_err());
    assert!(ds.write_rows(&[0], &table(1).into_fields()).is_err());
    assert!(matches!(ds.check(), Err(DataError::FieldsUnchecked)));
    let msg = ds.check().unwrap_err().to_string();
    assert!(msg.contains("leaked"), "{msg}");
    let schedule = batchspec::iteration::Schedule::builder(4)
        .batch_size(2)
        .build()
        .unwrap();
    assert!(matches!(
        batchspec::data::Provider::<Table, Table>::new(&ds, schedule),
        Err(DataError::FieldsUnchecked)
    ));
    // A leaked guard whose fields still agree is refused all the same: nothing checked them.
    let mut whole = table(3);
    std::mem::forget(whole.fields_mut());
    assert!(matches!(
        whole.select(&[0]),
        Err(DataError::FieldsUnchecked)
    ));
    // A guard dropped checks them: the lengths still differ, then agree.
    drop(ds.fields_mut());
    assert!(matches!(ds.select(&[0]), Err(DataError::Invalidated(_))));
    ds.fields_mut().y = Batch::new(array![3i64, 4]).unwrap();
    assert_eq!(ds.check().unwrap(), 2);
    assert_eq!(ds.select(&[1]).unwrap().y.array(), &array![4i64]);
}

/// The proposal's `s = d[i]; s.input = val` (writes through views of the dataset's own rows)
/// and writes into a selection.
#[test]
fn writable_samples_and_selections() {
    let mut ds = table(5);
    let x_row2 = ds.fields().x.array().row(2).as_ptr();
    let mut s = ds.sample_mut(2).unwrap();
    // A view of the dataset's memory, not a copy.
    assert_eq!(s.x.array().as_ptr(), x_row2);
    assert_eq!(s.x.len(), 1);
    s.x.assign(&Batch::new(array![[-1f32, -2.]]).unwrap())
        .unwrap();
    s.y.set_label(0, 4).unwrap();
    assert_eq!(ds.fields().x.array().row(2).to_vec(), [-1., -2.]);
    assert_eq!(ds.fields().y.array()[2], 4);
    // Refused writes through a view leave the row as it was: a label out of range, an edit of
    // the labels that breaks one, values of two samples for one.
    let mut s = ds.sample_mut(1).unwrap();
    assert!(s.y.set_label(0, 5).is_err());
    assert!(s.y.update(|a| a[0] = -1).is_err());
    let two = Batch::<Vector<2>>::new(Array2::zeros((2, 2))).unwrap();
    assert!(matches!(
        s.x.assign(&two),
        Err(SpecError::Size {
            axis: 0,
            expected: 1,
            actual: 2,
            ..
        })
    ));
    assert_eq!(ds.fields().x.array().row(1).to_vec(), [10., 11.]);
    assert_eq!(ds.fields().y.array()[1], 1);
    // Rows in place: every leaf's rows, by the record's field names.
    let mut rows = ds.rows_mut(3..5).unwrap();
    rows.x.array_mut().mapv_inplace(|v| v + 0.5);
    rows.y.update(|a| a.mapv_inplace(|l| (l + 1) % 5)).unwrap();
    assert_eq!(
        ds.fields().x.array().slice(ndarray::s![3.., ..]),
        array![[30.5f32, 31.5], [40.5, 41.5]]
    );
    assert_eq!(ds.fields().y.array(), &array![0i64, 1, 4, 4, 0]);
    // Past the end, reversed: refused.
    assert!(matches!(
        ds.sample_mut(5),
        Err(DataError::Spec(SpecError::Row { row: 5, .. }))
    ));
    assert!(matches!(
        ds.sample_mut(usize::MAX),
        Err(DataError::Spec(SpecError::Row { .. }))
    ));
    #[allow(clippy::reversed_empty_ranges)]
    let reversed = ds.rows_mut(3..1);
    assert!(matches!(
        reversed,
        Err(DataError::Spec(SpecError::Reversed { start: 3, end: 1 }))
    ));
    // Restore the rows the selection test below expects.
    let mut rows = ds.rows_mut(0..5).unwrap();
    rows.x.assign(&table(5).fields().x).unwrap();
    rows.y.assign(&table(5).fields().y).unwrap();

    // Writes into a selection, in order: sample j into row rows[j].
    let values = Table {
        x: Batch::new(array![[100f32, 101.], [200., 201.]]).unwrap(),
        y: Batch::new(array![1i64, 2]).unwrap(),
    };
    ds.write_rows(&[4, 0], &values).unwrap();
    assert_eq!(ds.fields().x.array().row(4).to_vec(), [100., 101.]);
    assert_eq!(ds.fields().x.array().row(0).to_vec(), [200., 201.]);
    assert_eq!(ds.fields().y.array(), &array![2i64, 1, 2, 3, 1]);
    // A row past the end, or another number of values: refused, nothing written.
    assert!(matches!(
        ds.write_rows(&[1, 5], &values),
        Err(DataError::Spec(SpecError::Row { row: 5, .. }))
    ));
    assert!(matches!(
        ds.write_rows(&[1], &values),
        Err(DataError::WriteRows {
            rows: 1,
            samples: 2
        })
    ));
    assert_eq!(ds.fields().x.array().row(1).to_vec(), [10., 11.]);
}

/// The proposal's `d -= numpy.mean(d())` and `s *= val`: explicit broadcasting (the same shape,
/// or one sample for every sample), never a silent one, never a wrapped integer.
#[test]
fn in_place_arithmetic_with_explicit_broadcasting() {
    use batchspec::types::Arith;
    #[derive(DataSpec)]
    struct Pair {
        #[spec(source = "features")]
        x: Batch<Vector<2>>,
        #[spec(source = "counts")]
        n: Batch<Vector<1, u8>>,
    }
    let mut ds = Dataset::new(Pair {
        x: Batch::new(array![[1f32, 2.], [3., 6.], [5., 10.]]).unwrap(),
        n: Batch::new(array![[10u8], [20], [30]]).unwrap(),
    })
    .unwrap();
    // d -= mean (one sample for every sample), against a plain loop.
    let mean = Pair {
        x: Batch::new(array![[3f32, 6.]]).unwrap(),
        n: Batch::new(array![[10u8]]).unwrap(),
    };
    ds.apply(Arith::Sub, &mean).unwrap();
    assert_eq!(
        ds.fields().x.array(),
        &array![[-2f32, -4.], [0., 0.], [2., 4.]]
    );
    assert_eq!(ds.fields().n.array(), &array![[0u8], [10], [20]]);
    // Sample by sample with a record of the same length.
    let scale = Pair {
        x: Batch::new(array![[1f32, 1.], [2., 2.], [3., 3.]]).unwrap(),
        n: Batch::new(array![[1u8], [2], [3]]).unwrap(),
    };
    ds.apply(Arith::Mul, &scale).unwrap();
    assert_eq!(ds.fields().n.array(), &array![[0u8], [20], [60]]);
    // Two samples against three: no broadcast; nothing written.
    let two = Pair {
        x: Batch::new(Array2::ones((2, 2))).unwrap(),
        n: Batch::new(Array2::ones((2, 1))).unwrap(),
    };
    let before = ds.fields().x.array().clone();
    let err = ds.apply(Arith::Add, &two).unwrap_err();
    assert!(
        matches!(err, DataError::Spec(SpecError::Broadcast { .. })),
        "{err}"
    );
    assert_eq!(ds.fields().x.array(), &before);
    // An integer that would overflow: refused, naming the value, and no field written (the
    // float field comes first and would have been).
    let big = Pair {
        x: Batch::new(array![[1f32, 1.]]).unwrap(),
        n: Batch::new(array![[200u8]]).unwrap(),
    };
    let err = ds.apply(Arith::Add, &big).unwrap_err();
    assert!(err.to_string().contains("60 + 200 does not fit"), "{err}");
    assert_eq!(ds.fields().x.array(), &before);
    assert_eq!(ds.fields().n.array(), &array![[0u8], [20], [60]]);
    // Integer division by zero: an error, not a panic.
    let zero = Pair {
        x: Batch::new(array![[1f32, 1.]]).unwrap(),
        n: Batch::new(array![[0u8]]).unwrap(),
    };
    assert!(
        ds.apply(Arith::Div, &zero)
            .unwrap_err()
            .to_string()
            .contains("divides by zero")
    );
    // On a field (and on a sample: `sample_mut`'s example).
    ds.fields_mut().x.apply_scalar(Arith::Mul, 0.5).unwrap();
    assert_eq!(ds.fields().x.array().row(2).to_vec(), [3., 6.]);
    // Labels are not quantities.
    let mut t = table(2);
    let one = Batch::<Labels<5>>::new(array![1i64]).unwrap();
    assert!(matches!(
        t.fields_mut().y.apply(Arith::Add, &one),
        Err(SpecError::Arithmetic { .. })
    ));
}

/// The proposal's `d[:, something]`: the dataset seen through a sub-spec of its fields, here
/// converted on the way; `d[i, something] == d[i][something]`.
#[test]
fn a_projection_onto_a_sub_spec_of_the_fields() {
    #[derive(DataSpec)]
    struct OneHotTargets {
        #[spec(source = "targets")]
        y: Batch<Vector<5>>,
    }
    let ds = table(6);
    let targets = ds.project::<OneHotTargets>();
    assert_eq!(targets.len(), 6);
    for i in 0..6 {
        let whole = ds.get(i).unwrap().y.format_as::<Vector<5>>();
        assert_eq!(targets.get(i).unwrap().y.array(), whole.array());
    }
    let picked = targets.select(&[5, 0, 5]).unwrap();
    assert_eq!(
        picked.y.array(),
        ds.select(&[5, 0, 5])
            .unwrap()
            .y
            .format_as::<Vector<5>>()
            .array()
    );
    assert!(targets.get(6).is_err());
}

/// The proposal: `mb_dataset = d._minibatches(batch_size=5)`, `mb_dataset[0]() == d[0:5]()`.
#[test]
fn minibatches_are_indexable() {
    let ds = table(12);
    let mb = ds.minibatches(5);
    assert_eq!(mb.len(), 3);
    assert_eq!(
        mb.get(0).unwrap().x.array(),
        ds.slice(0..5).unwrap().x.array()
    );
    assert_eq!(
        mb.get(2).unwrap().y.array(),
        ds.slice(10..12).unwrap().y.array()
    );
    assert!(mb.get(3).is_err());
    let lens: Vec<usize> = ds.minibatches(5).map(|m| m.unwrap().x.len()).collect();
    assert_eq!(lens, [5, 5, 2]);
    assert!(ds.minibatches(0).get(0).is_err());
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

/// Labels are written only through checked writes: `array_mut` is for spaces whose every value
/// is valid (a label batch asking for it does not compile: `trybuild/entry/labels-written-unchecked`),
/// and `update` keeps an edit only when every label is still below the number of labels. Before,
/// a label 12 written through `array_mut` into `Labels<10>` became an all-zero one-hot row.
#[test]
fn labels_are_changed_only_through_checked_writes() {
    let mut ds = table(4);
    // Every label moved by one: kept.
    ds.fields_mut()
        .y
        .update(|a| a.mapv_inplace(|l| (l + 1) % 5))
        .unwrap();
    assert_eq!(ds.fields().y.array(), &array![1i64, 2, 3, 4]);
    // One label past the end: refused, named, and nothing written.
    let err = ds.fields_mut().y.update(|a| a[2] = 12).unwrap_err();
    assert_eq!(
        err.to_string(),
        "labels of 5 labels b i64: label 12 at [2] is not in 0..5"
    );
    let err = ds.fields_mut().y.update(|a| a.fill(-1)).unwrap_err();
    assert!(
        matches!(err, SpecError::Label { ref value, .. } if value == "-1"),
        "{err}"
    );
    assert_eq!(ds.fields().y.array(), &array![1i64, 2, 3, 4]);
    // An edit that replaces the array by one of another length is refused as well.
    let err = ds
        .fields_mut()
        .y
        .update(|a| *a = Array1::zeros(2))
        .unwrap_err();
    assert!(
        matches!(
            err,
            SpecError::Size {
                expected: 4,
                actual: 2,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(ds.fields().y.array(), &array![1i64, 2, 3, 4]);
    // The checked labels format as one-hot rows, each with its one.
    let one_hot = ds.fields().y.format_as::<Vector<5>>();
    for (row, &label) in one_hot
        .array()
        .rows()
        .into_iter()
        .zip(ds.fields().y.array())
    {
        let hot: Vec<usize> = (0..5).filter(|&k| row[k] == 1.0).collect();
        assert_eq!(hot, vec![label as usize]);
    }
    // A space of free values changes through `update` too (no check but the shape).
    let mut x = Batch::<Vector<2>>::new(array![[1f32, 2.], [3., 4.]]).unwrap();
    x.update(|a| a.mapv_inplace(|v| -v)).unwrap();
    assert_eq!(x.array(), &array![[-1f32, -2.], [-3., -4.]]);
}

/// Rows in place through a nested record and ragged leaves: each view is the dataset's memory,
/// by field name, and a sequence of labels keeps its rules.
#[test]
fn rows_in_place_through_nested_and_ragged_leaves() {
    #[derive(DataSpec)]
    struct Speech {
        #[spec(source = "audio")]
        audio: Ragged<VectorSeq<2>>,
        text: Transcript,
    }
    #[derive(DataSpec)]
    struct Transcript {
        #[spec(source = "tokens")]
        tokens: Ragged<IndexSeq<5>>,
        #[spec(source = "speaker")]
        speaker: Batch<Labels<3>>,
    }
    // Lengths 2, 0, 3 (audio) and 1, 2, 2 (tokens).
    let mut ds = Dataset::new(Speech {
        audio: Ragged::from_parts((0..10).map(|v| v as f32).collect(), vec![0, 2, 2, 5]).unwrap(),
        text: Transcript {
            tokens: Ragged::from_parts(vec![1, 2, 3, 4, 0], vec![0, 1, 3, 5]).unwrap(),
            speaker: Batch::new(array![0i64, 1, 2]).unwrap(),
        },
    })
    .unwrap();
    let mut rows = ds.rows_mut(1..3).unwrap();
    assert_eq!(rows.audio.len(), 2);
    assert_eq!(rows.audio.lengths().collect::<Vec<_>>(), [0, 3]);
    // Sample 1 of the view is row 2: its three steps of two values.
    rows.audio.sample_mut(1).unwrap().mapv_inplace(|v| -v);
    assert!(rows.audio.sample_mut(2).is_err());
    // Labels: a checked edit; one out of range leaves the sample unchanged.
    rows.text.tokens.update(0, |a| a.fill(4)).unwrap();
    assert!(rows.text.tokens.update(1, |a| a.fill(5)).is_err());
    // A length cannot change through a view.
    assert!(
        rows.text
            .tokens
            .update(1, |a| *a = ndarray::Array2::zeros((1, 3)))
            .is_err()
    );
    rows.text.speaker.set_label(1, 0).unwrap();
    let audio = ds.fields().audio.values().to_vec();
    assert_eq!(
        audio,
        [0., 1., 2., 3., -4., -5., -6., -7., -8., -9.],
        "only row 2's steps change"
    );
    assert_eq!(ds.fields().text.tokens.values(), [1, 4, 4, 4, 0]);
    assert_eq!(ds.fields().text.speaker.array(), &array![0i64, 1, 0]);
}

/// The proposal's `d[:, something]` without a copy: a request in the record's own spaces is
/// lent the record's leaves, by the request's field names and in its structure (here nested,
/// with a `Null` and a ragged leaf), and sees writes made to the dataset since.
#[test]
fn a_projection_lends_the_record_leaves() {
    #[derive(DataSpec)]
    struct Record {
        #[spec(source = "audio")]
        audio: Ragged<VectorSeq<2>>,
        #[spec(source = "features")]
        x: Batch<Vector<2>>,
        #[spec(source = "targets")]
        y: Batch<Labels<3>>,
    }
    #[derive(DataSpec)]
    struct Inner {
        #[spec(source = "targets")]
        label: Batch<Labels<3>>,
        nothing: Null,
    }
    #[derive(DataSpec)]
    struct Request {
        #[spec(source = "audio")]
        sound: Ragged<VectorSeq<2>>,
        inner: Inner,
    }
    let mut ds = Dataset::new(Record {
        audio: Ragged::from_parts((0..8).map(|v| v as f32).collect(), vec![0, 1, 1, 4]).unwrap(),
        x: Batch::new(array![[0f32, 1.], [2., 3.], [4., 5.]]).unwrap(),
        y: Batch::new(array![2i64, 0, 1]).unwrap(),
    })
    .unwrap();
    ds.sample_mut(2).unwrap().y.set_label(0, 2).unwrap();
    let projected = ds.project::<Request>();
    let lent = projected.view(1..3).unwrap();
    assert_eq!(lent.inner.label.array(), &array![0i64, 2]);
    assert_eq!(
        lent.inner.label.array().as_ptr(),
        &ds.fields().y.array()[1] as *const i64
    );
    assert_eq!(lent.sound.lengths().collect::<Vec<_>>(), [0, 3]);
    assert_eq!(
        lent.sound.sample(1).unwrap().as_slice().unwrap(),
        [2f32, 3., 4., 5., 6., 7.]
    );
    assert!(matches!(lent.inner.nothing, Null));
    let one = projected.sample(0).unwrap();
    assert_eq!(one.inner.label.array(), &array![2i64]);
    assert_eq!(one.sound.sample(0).unwrap().as_slice().unwrap(), [0f32, 1.]);
    // The same rules as the dataset's views: past the end, reversed.
    assert!(matches!(
        projected.view(2..4),
        Err(DataError::Spec(SpecError::Row { row: 3, .. }))
    ));
    assert!(projected.sample(3).is_err());
    // The copies a projection serves agree with what it lends.
    assert_eq!(
        ds.project::<Inner>().select(&[1, 2]).unwrap().label.array(),
        lent.inner.label.array()
    );
}

/// The kilobytes of 2 MB pages (`AnonHugePages`) backing the mapping that holds the first 2 MB
/// page boundary after `at`, from `/proc/self/smaps` (advising a range splits its mapping: the
/// unaligned head of a leaf is a mapping of its own).
#[cfg(target_os = "linux")]
fn huge_kb_at(at: usize) -> usize {
    let at = at.next_multiple_of(2 << 20);
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
    let mut inside = false;
    for line in smaps.lines() {
        let head = line.split_whitespace().next().unwrap_or("");
        if let Some((a, b)) = head.split_once('-')
            && let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
        {
            inside = (a..b).contains(&at);
        } else if inside && let Some(kb) = line.strip_prefix("AnonHugePages:") {
            return kb.trim().trim_end_matches(" kB").trim().parse().unwrap();
        }
    }
    0
}

/// Large leaves go onto 2 MB pages where the system allows it: a record's leaves when asked
/// (`huge_pages`, the kernel moving what is there), a selection's when it is made (advised
/// before anything is written). Values unchanged either way.
#[cfg(target_os = "linux")]
#[test]
fn large_leaves_go_onto_huge_pages() {
    #[derive(DataSpec)]
    struct Big {
        #[spec(source = "features")]
        x: Batch<Vector<1024>>,
        #[spec(source = "targets")]
        y: Batch<Labels<10, u8>>,
    }
    let n = 16_384; // 64 MB of features, 16 kB of labels
    let ds = Dataset::new(Big {
        x: Batch::new(Array2::from_shape_fn((n, 1024), |(i, j)| (i ^ j) as f32)).unwrap(),
        y: Batch::new(Array1::from_shape_fn(n, |i| (i % 10) as u8)).unwrap(),
    })
    .unwrap();
    let thp =
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
    let advised = ds.huge_pages();
    // Unchanged values.
    assert!(
        ds.fields()
            .x
            .array()
            .indexed_iter()
            .all(|((i, j), &v)| v == (i ^ j) as f32)
    );
    if thp.is_empty() || thp.contains("[never]") {
        assert_eq!(advised, 0, "no huge pages on this system: {thp}");
        return;
    }
    // The labels are too small to advise; of the features, all but the unaligned ends.
    assert!(((60 << 20)..=(64 << 20)).contains(&advised), "{advised}");
    let at = ds.fields().x.array().as_ptr() as usize;
    assert!(huge_kb_at(at) >= 30 << 10, "{} kB", huge_kb_at(at));
    // A selection of every row, in reverse: advised when made, 2 MB pages from the first write.
    let rows: Vec<usize> = (0..n).rev().collect();
    let picked = ds.select(&rows).unwrap();
    assert_eq!(picked.x.array()[[0, 5]], ((n - 1) ^ 5) as f32);
    let at = picked.x.array().as_ptr() as usize;
    assert!(huge_kb_at(at) >= 30 << 10, "{} kB", huge_kb_at(at));
}

/// An owned batch of 4 MB or more (given away by `next_owned`) is written on 2 MB pages where
/// the system allows it: its memory is asked for them before the first write, whether the
/// gather writes each value once (a row copy) or into zeros (a transpose). A batch above
/// glibc's 32 MB is memory mapped afresh for each batch, and on 4 KB pages its faults cost more
/// than the gather. The values are the rows asked for either way.
#[cfg(target_os = "linux")]
#[test]
fn owned_batches_of_4_mb_or_more_are_written_on_huge_pages() {
    use batchspec::data::Provider;
    use batchspec::iteration::Schedule;
    #[derive(DataSpec)]
    struct Big {
        #[spec(source = "features")]
        x: Batch<Vector<1024>>,
    }
    #[derive(DataSpec)]
    struct AsImages {
        #[spec(source = "features")]
        x: Batch<image![16, 16, 4; BCHW]>,
    }
    let n = 16_384; // 64 MB of features; batches of 8192 rows, 32 MB each
    let ds = Dataset::new(Big {
        x: Batch::new(Array2::from_shape_fn((n, 1024), |(i, j)| (i ^ j) as f32)).unwrap(),
    })
    .unwrap();
    let thp =
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
    let huge = !(thp.is_empty() || thp.contains("[never]"));
    let schedule = || {
        Schedule::builder(n)
            .batch_size(n / 2)
            .shuffle(true)
            .seed(3)
            .build()
            .unwrap()
    };
    let order = permutation(n, 3, 0);
    // A row copy: each value written once, into memory asked for 2 MB pages.
    let mut rows = Provider::<Big, Big>::new(&ds, schedule()).unwrap();
    let (batch, info) = rows.next_owned().unwrap();
    assert_eq!(info.count_samples, n / 2);
    for (j, &i) in order[..n / 2].iter().enumerate().step_by(97) {
        assert_eq!(batch.x.array()[[j, 5]], (i ^ 5) as f32, "row {j}");
    }
    let at = batch.x.array().as_ptr() as usize;
    if huge {
        assert!(huge_kb_at(at) >= 16 << 10, "{} kB", huge_kb_at(at));
    }
    // A transpose (a vector's `hwc` values as `chw`): into zeros, asked for 2 MB pages too.
    let mut images = Provider::<Big, AsImages>::new(&ds, schedule()).unwrap();
    let (batch, _) = images.next_owned().unwrap();
    let (i, (c, h, w)) = (order[1], (3, 2, 5));
    assert_eq!(
        batch.x.array()[[1, c, h, w]],
        (i ^ (h * 64 + w * 4 + c)) as f32
    );
    let at = batch.x.array().as_ptr() as usize;
    if huge {
        assert!(huge_kb_at(at) >= 16 << 10, "{} kB", huge_kb_at(at));
    }
}

/// The vector an image stream's workers write a batch into (`Unfilled`) is asked for 2 MB pages
/// before its first write when it is 4 MB or more, as an owned batch's gather is.
#[cfg(target_os = "linux")]
#[test]
fn unfilled_vectors_of_4_mb_or_more_are_written_on_huge_pages() {
    use batchspec::kernel::Unfilled;
    let thp =
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
    let len = 8 << 20; // 32 MB of f32
    let mut batch = Unfilled::<f32>::new(len);
    let parts: Vec<_> = batch.parts(len / 4).collect();
    std::thread::scope(|s| {
        for (k, part) in parts.into_iter().enumerate() {
            s.spawn(move || part.fill(k as f32));
        }
    });
    let values = batch.finish().unwrap();
    assert_eq!(
        (values[0], values[len / 4], values[len - 1]),
        (0.0, 1.0, 3.0)
    );
    if !(thp.is_empty() || thp.contains("[never]")) {
        let at = values.as_ptr() as usize;
        assert!(huge_kb_at(at) >= 16 << 10, "{} kB", huge_kb_at(at));
    }
}
