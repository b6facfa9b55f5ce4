//! Conversions between spaces: the documents' exact examples, a plain reference, and inverses.

use batchspec::format::FormatError;
use batchspec::prelude::*;
use batchspec::types::OneHot;
use ndarray::{Array, Array2, Array4, ArrayD, IxDyn, array, s};

fn vec12() -> Batch<Vector<12>> {
    Batch::new(
        Array::range(0., 24., 1.)
            .into_shape_with_order((2, 12))
            .unwrap(),
    )
    .unwrap()
}

#[test]
fn pylearn2_vector_12_as_conv2d_bc01_and_c01b() {
    let bc01 = vec12().format_as::<image![2, 2, 3; BCHW]>();
    assert_eq!(bc01.shape(), [2, 3, 2, 2]);
    let ex0 = bc01.array().slice(s![0, .., .., ..]).to_owned();
    assert_eq!(ex0.slice(s![0, .., ..]), array![[0., 3.], [6., 9.]]);
    assert_eq!(ex0.slice(s![1, .., ..]), array![[1., 4.], [7., 10.]]);
    assert_eq!(ex0.slice(s![2, .., ..]), array![[2., 5.], [8., 11.]]);

    let c01b = vec12().format_as::<image![2, 2, 3; CHWB]>();
    assert_eq!(c01b.shape(), [3, 2, 2, 2]);
    assert_eq!(c01b.array().slice(s![.., .., .., 0]), ex0);

    // Both round-trip to the input.
    assert_eq!(bc01.format_as::<Vector<12>>(), vec12());
    assert_eq!(c01b.format_as::<Vector<12>>(), vec12());
}

#[test]
fn pylearn2_conv2d_bc01_as_c_b_1_0_is_a_transpose() {
    let data = Array4::from_shape_fn((5, 3, 8, 8), |(b, c, h, w)| {
        (b * 1000 + c * 100 + h * 10 + w) as f32
    });
    let batch = Batch::<image![8, 8, 3; BCHW]>::new(data.clone()).unwrap();
    let out = batch.format_as::<image![8, 8, 3; layout!(cbwh)]>();
    assert_eq!(out.shape(), [3, 5, 8, 8]);
    assert_eq!(out.array(), &data.permuted_axes([1, 0, 3, 2]));
}

#[test]
fn pylearn2_index_one_hot_merge_and_concatenate() {
    let idx = Batch::<Index<4, 2>>::new(array![[0i64, 2], [1, 1]]).unwrap();
    let merged = idx.format_as::<Vector<4>>();
    assert_eq!(
        merged.array(),
        &array![[1f32, 0., 1., 0.], [0., 1., 0., 0.]]
    );
    let concat = idx.format_as::<OneHot<4, 2>>();
    assert_eq!(
        concat.array(),
        &array![
            [1f32, 0., 0., 0., 0., 0., 1., 0.],
            [0., 1., 0., 0., 0., 1., 0., 0.]
        ]
    );
}

/// Labels (one per sample) as one-hot rows: `OneHot<M>` holds the same data as `Vector<M>`, each
/// row a single one at the label, through a conversion and through a provider's gather.
#[test]
fn labels_as_one_hot_rows() {
    let labels = Batch::<Labels<4>>::new(array![2i64, 0, 3, 3, 1]).unwrap();
    let hot = labels.format_as::<OneHot<4>>();
    let want = Array2::from_shape_fn((5, 4), |(i, k)| {
        f32::from(u8::from(k == [2, 0, 3, 3, 1][i]))
    });
    assert_eq!(hot.array(), &want);
    assert_eq!(labels.format_as::<Vector<4>>().array(), &want);
    batchspec::format::assert_formats::<Labels<4>, OneHot<4, 1, f64>>();

    #[derive(DataSpec)]
    struct Record {
        #[spec(source = "targets")]
        y: Batch<Labels<4>>,
    }
    #[derive(DataSpec)]
    struct Request {
        #[spec(source = "targets")]
        y: Batch<OneHot<4>>,
    }
    let ds = batchspec::data::Dataset::new(Record { y: labels }).unwrap();
    let picked: Request = batchspec::mapping::Server::new(ds.fields()).get();
    assert_eq!(picked.y.array(), &want);
    let schedule = batchspec::iteration::Schedule::builder(5)
        .batch_size(2)
        .build()
        .unwrap();
    let mut provider = batchspec::data::Provider::<Record, Request>::new(&ds, schedule).unwrap();
    let first = provider.next_batch().unwrap();
    assert_eq!(first.batch.y.array(), &want.slice(s![0..2, ..]));
}

#[test]
fn pylearn2_index_sequence_one_hot() {
    // IndexSequenceSpace(6) [[0],[1],[4],[3]] as VectorSequenceSpace(6): one sequence of 4 steps.
    let seq = Batch::<IndexSeq<6>>::new(array![[0i64, 1, 4, 3]]).unwrap();
    let hot = seq.format_as::<VectorSeq<6>>();
    assert_eq!(hot.shape(), [1, 4, 6]);
    let eye = Array2::<f32>::eye(6);
    for (t, l) in [0usize, 1, 4, 3].into_iter().enumerate() {
        assert_eq!(hot.array().slice(s![0, t, ..]), eye.row(l));
    }
    // The same in time-major layouts.
    let tb = Batch::<IndexSeq<6, batchspec::types::axis::TB>>::new(array![[0i64], [1], [4], [3]])
        .unwrap();
    let tbf = tb.format_as::<VectorSeq<6, TBF>>();
    assert_eq!(tbf.format_as::<VectorSeq<6>>(), hot);
}

#[test]
fn dp_bhwc_8x3x3x1_as_chwb_and_bf() {
    let data = Array4::from_shape_fn((8, 3, 3, 1), |(b, h, w, _)| (b * 9 + h * 3 + w) as f32);
    let batch = Batch::<image![3, 3, 1; BHWC]>::new(data.clone()).unwrap();
    let chwb = batch.format_as::<image![3, 3, 1; CHWB]>();
    assert_eq!(chwb.shape(), [1, 3, 3, 8]);
    assert_eq!(chwb.array(), &data.view().permuted_axes([3, 1, 2, 0]));
    let bf = batch.format_as::<Vector<9>>();
    assert_eq!(bf.shape(), [8, 9]);
    assert_eq!(bf.array(), &data.into_shape_with_order((8, 9)).unwrap());
}

#[test]
fn dp_class_bt_as_b_and_back() {
    let bt = Batch::<Index<5, 2>>::new(array![[4i64, 2], [3, 1], [2, 3], [3, 4]]).unwrap();
    let b = bt.format_as::<Labels<5>>();
    assert_eq!(b.array(), &array![4i64, 3, 2, 3]);
    let back = b.format_as::<Index<5>>();
    assert_eq!(back.array(), &array![[4i64], [3], [2], [3]]);
    let hot = b.format_as::<Vector<5, f64>>();
    assert_eq!(hot.array().row(0), array![0., 0., 0., 0., 1.]);
}

#[test]
fn casts_widen_on_their_own_and_narrow_only_by_name() {
    let bytes =
        Batch::<image![2, 2, 1; BHWC, u8]>::new(Array4::from_elem((3, 2, 2, 1), 200u8)).unwrap();
    let floats = bytes.format_as::<image![2, 2, 1; BCHW, f32]>();
    assert!(floats.array().iter().all(|&v| v == 200.0));
    let halves = Batch::<Vector<2, f32>>::new(array![[1.7f32, -3.2], [300.0, f32::NAN]]).unwrap();
    let narrow = halves.cast_lossy::<u8>();
    assert_eq!(narrow.array(), &array![[1u8, 0], [255, 0]]);
}

#[test]
fn format_into_reuses_the_output_and_checks_its_shape() {
    let batch = vec12();
    let mut out = Batch::<image![2, 2, 3; BCHW]>::zeros(2, 0);
    let ptr = out.array().as_ptr();
    batch.format_into(&mut out).unwrap();
    assert_eq!(out.array().as_ptr(), ptr);
    assert_eq!(out, batch.format_as::<image![2, 2, 3; BCHW]>());
    let mut wrong = Batch::<image![2, 2, 3; BCHW]>::zeros(3, 0);
    assert!(matches!(
        batch.format_into(&mut wrong),
        Err(FormatError::OutputShape { .. })
    ));
}

#[test]
fn views_cost_nothing_where_strides_can_say_it() {
    let batch =
        Batch::<image![4, 5, 3; BHWC]>::new(Array4::from_shape_fn((2, 4, 5, 3), |(a, b, c, d)| {
            (a * 60 + b * 15 + c * 3 + d) as f32
        }))
        .unwrap();
    let same = batch.view_as::<image![4, 5, 3; BHWC]>().unwrap();
    assert_eq!(same.array().as_ptr(), batch.array().as_ptr());
    let bchw = batch.view_as::<image![4, 5, 3; BCHW]>().unwrap();
    assert_eq!(bchw.array().as_ptr(), batch.array().as_ptr());
    assert_eq!(bchw.to_owned(), batch.format_as::<image![4, 5, 3; BCHW]>());
    let flat = batch.view_as::<Vector<60>>().unwrap();
    assert_eq!(flat.to_owned(), batch.format_as::<Vector<60>>());
    // bchw flattened in bhwc order needs a copy.
    let planar = batch.format_as::<image![4, 5, 3; BCHW]>();
    assert!(planar.view_as::<Vector<60>>().is_none());
}

#[test]
fn non_contiguous_inputs_convert_like_contiguous_ones() {
    let big = Array4::from_shape_fn((6, 4, 5, 3), |(a, b, c, d)| {
        (a * 60 + b * 15 + c * 3 + d) as f32
    });
    let sliced = big.slice(s![..;2, .., ..;-1, ..]);
    let batch = BatchView::<image![4, 5, 3; BHWC]>::new(sliced).unwrap();
    let out = batch.format_as::<image![4, 5, 3; CHWB]>();
    assert_eq!(out.array(), &sliced.permuted_axes([3, 1, 2, 0]));
    let flat = Batch::<Vector<60>>::new(
        big.into_shape_with_order((6, 60))
            .unwrap()
            .slice_move(s![.., ..;1]),
    )
    .unwrap();
    let flat_rows = flat.array().slice(s![..;3, ..]);
    let img = BatchView::<Vector<60>>::new(flat_rows)
        .unwrap()
        .format_as::<image![4, 5, 3; BCHW]>();
    assert_eq!(img.shape(), [2, 3, 4, 5]);
}

fn reference_permute(data: &ArrayD<f32>, perm: &[usize]) -> ArrayD<f32> {
    let shape: Vec<usize> = perm.iter().map(|&p| data.shape()[p]).collect();
    let mut out = ArrayD::zeros(IxDyn(&shape));
    for (idx, v) in out.indexed_iter_mut() {
        let mut src = vec![0; perm.len()];
        for (k, &p) in perm.iter().enumerate() {
            src[p] = idx[k];
        }
        *v = data[IxDyn(&src)];
    }
    out
}

proptest::proptest! {
    #[test]
    fn layouts_round_trip_and_match_a_plain_reference(n in 0usize..4, seed in 0u32..1000) {
        let data = Array4::from_shape_fn((n, 3, 5, 2), |(a, b, c, d)| (seed as usize * 7 + a * 30 + b * 10 + c * 2 + d) as f32);
        let batch = Batch::<image![3, 5, 2; BHWC]>::new(data.clone()).unwrap();
        let chwb = batch.format_as::<image![3, 5, 2; CHWB]>();
        proptest::prop_assert_eq!(chwb.array().clone().into_dyn(), reference_permute(&data.clone().into_dyn(), &[3, 1, 2, 0]));
        let back = chwb.format_as::<image![3, 5, 2; BHWC]>();
        proptest::prop_assert_eq!(&back, &batch);
        let flat = chwb.format_as::<Vector<30>>();
        proptest::prop_assert_eq!(flat.format_as::<image![3, 5, 2; BHWC]>(), batch);
    }
}

/// The layout algebra: a chain of conversions planned as one. Each case is checked against the
/// same conversion done step by step (an independent path), and by what it cost: the passes
/// over the data and the bytes written, counted by `format::moved`.
mod composed {
    use batchspec::format::moved;
    use batchspec::prelude::*;
    use ndarray::Array4;

    type Bhwc = image![6, 5, 3; BHWC, u8];
    type Bchw = image![6, 5, 3; BCHW, u8];
    type Chwb = image![6, 5, 3; CHWB, u8];
    type Cbhw = image![6, 5, 3; layout!(cbhw), u8];

    fn batch() -> Batch<Bhwc> {
        Batch::new(Array4::from_shape_fn((4, 6, 5, 3), |(b, h, w, c)| {
            (b * 90 + h * 15 + w * 3 + c) as u8
        }))
        .unwrap()
    }

    #[test]
    fn a_round_trip_costs_no_copy() {
        let x = batch();
        let before = moved();
        let same = x.view_through::<(Bchw, Bhwc)>().unwrap();
        assert_eq!(same.array().as_ptr(), x.array().as_ptr());
        assert_eq!(same.array(), x.array());
        // Through a vector and back: the flatten and the split cancel.
        let again = x.view_through::<(Vector<90, u8>, Bhwc)>().unwrap();
        assert_eq!(again.array().as_ptr(), x.array().as_ptr());
        let back = x
            .view_through::<(Bchw, Vector<90, u8>, Bchw, Bhwc)>()
            .unwrap();
        assert_eq!(back.array().as_ptr(), x.array().as_ptr());
        assert_eq!(moved().since(before).passes, 0);
        // Step by step, the same round trip copies four times.
        let before = moved();
        let stepwise = x
            .format_as::<Bchw>()
            .format_as::<Vector<90, u8>>()
            .format_as::<Bchw>()
            .format_as::<Bhwc>();
        assert_eq!(stepwise.array(), x.array());
        assert_eq!(moved().since(before).passes, 4);
    }

    #[test]
    fn a_chain_of_transposes_is_one_transpose() {
        let x = batch();
        let before = moved();
        let y = x.format_through::<(Bchw, Chwb, Cbhw)>();
        let cost = moved().since(before);
        assert_eq!((cost.passes, cost.bytes), (1, 4 * 90));
        assert_eq!(y.array(), x.format_as::<Cbhw>().array());
        // Through a vector on the way (a flatten that a strided view cannot express, then its
        // split): still one pass.
        let before = moved();
        let z = x.format_through::<(Bchw, Vector<90, u8>, Chwb)>();
        assert_eq!(moved().since(before).passes, 1);
        assert_eq!(
            z.array(),
            x.format_as::<Bchw>()
                .format_as::<Vector<90, u8>>()
                .format_as::<Chwb>()
                .array()
        );
    }

    #[test]
    fn a_transpose_and_a_cast_are_one_pass() {
        let x = batch();
        let before = moved();
        let y =
            x.format_through::<(Bchw, image![6, 5, 3; CHWB, f32], image![6, 5, 3; CHWB, f64])>();
        let cost = moved().since(before);
        assert_eq!((cost.passes, cost.bytes), (1, 4 * 90 * 8));
        let reference = x
            .format_as::<Bchw>()
            .format_as::<image![6, 5, 3; CHWB, f32]>()
            .format_as::<image![6, 5, 3; CHWB, f64]>();
        assert_eq!(y.array(), reference.array());
        // No view through another element type, even one that comes back.
        let f = Batch::<Vector<4, f32>>::new(ndarray::Array2::from_elem((2, 4), 0.1)).unwrap();
        assert!(
            f.view_through::<(Vector<4, f64>, Vector<4, f32>)>()
                .is_none()
        );
        assert_eq!(
            f.format_through::<(Vector<4, f64>, Vector<4, f32>)>()
                .array(),
            f.array()
        );
        // bhwc -> bchw -> vector: the vector is bhwc's order, so the two transposes cancel and
        // the flatten is a view: the one pass is the cast.
        let before = moved();
        let v = x.format_through::<(Bchw, Vector<90, f32>)>();
        assert_eq!(moved().since(before).passes, 1);
        assert_eq!(v.array(), x.format_as::<Vector<90, f32>>().array());
        // From bchw data, the flatten needs the data in bhwc order: the copy made there, cast
        // on the way, is the result.
        let b = x.format_as::<Bchw>();
        let before = moved();
        let v = b.format_through::<(Vector<90, f32>, Vector<90, f64>)>();
        let cost = moved().since(before);
        assert_eq!((cost.passes, cost.bytes), (1, 4 * 90 * 8));
        assert_eq!(
            v.array(),
            b.format_as::<Vector<90, f32>>()
                .format_as::<Vector<90, f64>>()
                .array()
        );
    }

    /// Against the stepwise path on random chains of the image layouts.
    #[test]
    fn any_chain_of_layouts_equals_the_steps() {
        let x = batch();
        type L1 = image![6, 5, 3; layout!(bwch), u8];
        type L2 = image![6, 5, 3; layout!(hcbw), u16];
        type L3 = image![6, 5, 3; layout!(cwbh), f32];
        let before = moved();
        let y = x.format_through::<(L1, Vector<90, u8>, L2, L3)>();
        assert_eq!(moved().since(before).passes, 1);
        let stepwise = x
            .format_as::<L1>()
            .format_as::<Vector<90, u8>>()
            .format_as::<L2>()
            .format_as::<L3>();
        assert_eq!(y.array(), stepwise.array());
    }
}

/// A gather from a source larger than the caches (rows prefetched ahead of the copy) gives
/// exactly the rows asked for, in order, repeats and the last rows included.
#[test]
fn a_gather_from_a_large_source_copies_the_rows_asked_for() {
    let (n, d) = (2048, 1024); // 8 MB of f32
    let src = Batch::<Vector<1024>>::new(ndarray::Array2::from_shape_fn((n, d), |(i, j)| {
        (i * d + j) as f32
    }))
    .unwrap();
    let rows: Vec<usize> = batchspec::iteration::permutation(n, 7, 0)
        .into_iter()
        .take(300)
        .chain([n - 1, 0, n - 1])
        .collect();
    let mut out = Batch::<Vector<1024>>::zeros(rows.len(), 0);
    src.gather_into(&rows, &mut out).unwrap();
    let want = src.array().select(ndarray::Axis(0), &rows);
    assert_eq!(out.array(), &want);
}

/// The samples `rows` of `src` gathered into a new batch of `T`.
fn gathered<S, T>(src: &Batch<S>, rows: &[usize]) -> Array2<f32>
where
    S: Space + batchspec::format::FormatAs<T>,
    T: Space<Elem = f32, Dim = ndarray::Ix2>,
{
    let mut out = Batch::<T>::zeros(rows.len(), 0);
    src.gather_into(rows, &mut out).unwrap();
    out.array().clone()
}

/// One-hot rows gathered from labels: each row of the gather is the one-hot form of the labels of
/// the row asked for (repeats and the last row included), from one label per sample (`Labels<M>`
/// and `Index<M>`, into `Vector<M>` and `OneHot<M>`) and from two (`Index<M, 2>`, merged into
/// `Vector<M>` and concatenated into `OneHot<M, 2>`); the rows are built here by hand.
#[test]
fn one_hot_rows_gathered_from_labels() {
    let labels = [3i64, 0, 4, 4, 1, 2, 0];
    let rows = [6, 2, 2, 0, 5, 1, 3];
    let want = Array2::from_shape_fn((rows.len(), 5), |(j, k)| {
        f32::from(u8::from(k as i64 == labels[rows[j]]))
    });
    let one = Batch::<Labels<5>>::new(ndarray::Array1::from(labels.to_vec())).unwrap();
    let column =
        Batch::<Index<5>>::new(Array2::from_shape_vec((7, 1), labels.to_vec()).unwrap()).unwrap();
    assert_eq!(gathered::<_, Vector<5>>(&one, &rows), want);
    assert_eq!(gathered::<_, OneHot<5>>(&one, &rows), want);
    assert_eq!(gathered::<_, Vector<5>>(&column, &rows), want);
    assert_eq!(gathered::<_, OneHot<5>>(&column, &rows), want);

    let pairs = [[1i64, 4], [0, 0], [3, 2]];
    let rows = [2, 0, 2, 1];
    let two =
        Batch::<Index<5, 2>>::new(Array2::from_shape_fn((3, 2), |(i, k)| pairs[i][k])).unwrap();
    let want = Array2::from_shape_fn((rows.len(), 5), |(j, k)| {
        f32::from(u8::from(pairs[rows[j]].contains(&(k as i64))))
    });
    assert_eq!(gathered::<_, Vector<5>>(&two, &rows), want);
    let want = Array2::from_shape_fn((rows.len(), 10), |(j, k)| {
        f32::from(u8::from(pairs[rows[j]][k / 5] == (k % 5) as i64))
    });
    assert_eq!(gathered::<_, OneHot<5, 2>>(&two, &rows), want);
}
