//! dp's views: cached forms, gradients routed back and summed, index/sub, replace, composites.

use batchspec::prelude::*;
use batchspec::types::Features;
use batchspec::types::SpecError;
use batchspec::view::ViewError;
use batchspec::view::{SpecView, View};
use ndarray::{Array1, Array2, Array3, Array4, array};

fn bhwc(n: usize) -> Array4<f64> {
    Array4::from_shape_fn((n, 32, 32, 3), |(b, h, w, c)| {
        (b * 10000 + h * 100 + w * 3 + c) as f64
    })
}

type Bhwc = image![32, 32, 3; BHWC, f64];

#[test]
fn dp_image_forms() {
    let mut view = View::<Bhwc, f64>::new();
    view.put(Batch::new(bhwc(8)).unwrap()).unwrap();
    let bchw = view.get::<image![32, 32, 3; BCHW, f64]>().unwrap();
    assert_eq!(bchw.shape(), [8, 3, 32, 32]);
    assert_eq!(bchw.array(), &bhwc(8).permuted_axes([0, 3, 1, 2]));
    let bf = view.get::<Vector<3072, f64>>().unwrap();
    assert_eq!(bf.shape(), [8, 3072]);
    // A second get is the cached batch itself.
    let again = view.get::<image![32, 32, 3; BCHW, f64]>().unwrap();
    assert_eq!(again.array().as_ptr(), bchw.array().as_ptr());

    let mut small = View::<image![3, 3, 1; BHWC, f64]>::new();
    small
        .put(
            Batch::new(Array4::from_shape_fn((8, 3, 3, 1), |(b, h, w, _)| {
                (b * 9 + h * 3 + w) as f64
            }))
            .unwrap(),
        )
        .unwrap();
    assert_eq!(
        small.get::<image![3, 3, 1; CHWB, f64]>().unwrap().shape(),
        [1, 3, 3, 8]
    );
}

#[test]
fn dp_class_bt_as_b() {
    let mut view = View::<Index<5, 2>>::new();
    view.put(Batch::new(array![[4i64, 2], [3, 1], [2, 3], [3, 4]]).unwrap())
        .unwrap();
    assert_eq!(
        view.get::<Labels<5>>().unwrap().array(),
        &array![4i64, 3, 2, 3]
    );
}

#[test]
fn dp_gradients_in_f64_and_f32_come_back_summed_in_f64() {
    let mut view = View::<Bhwc, f64>::new();
    view.put(Batch::new(bhwc(2)).unwrap()).unwrap();
    let _ = view.get::<image![32, 32, 3; BCHW, f64]>().unwrap();
    let _ = view.get::<image![32, 32, 3; BHWC, f32]>().unwrap();
    let g = Array4::from_shape_fn((2, 3, 32, 32), |(b, c, h, w)| (b + c + h + w) as f64);
    let g2 = Array4::from_shape_fn((2, 32, 32, 3), |(b, h, w, c)| (b * c + h + w) as f32 * 0.5);
    view.put_gradient(&Batch::<image![32, 32, 3; BCHW, f64]>::new(g.clone()).unwrap())
        .unwrap();
    view.put_gradient(&Batch::<image![32, 32, 3; BHWC, f32]>::new(g2.clone()).unwrap())
        .unwrap();
    let expected = g.permuted_axes([0, 2, 3, 1]).to_owned() + g2.mapv(f64::from);
    assert_eq!(view.gradient().unwrap().array(), &expected);
    assert_eq!(view.gradients_put(), 2);
}

#[test]
fn gradient_rules() {
    let mut view = View::<Bhwc, f64>::new();
    assert_eq!(
        view.get::<Vector<3072, f64>>().unwrap_err(),
        ViewError::ViewEmpty
    );
    view.put(Batch::new(bhwc(2)).unwrap()).unwrap();
    // No gradient put: zeros.
    assert!(view.gradient().unwrap().array().iter().all(|&g| g == 0.0));
    // A gradient for a form never got is refused.
    let err = view
        .put_gradient(&Batch::<Vector<3072, f64>>::new(Array2::zeros((2, 3072))).unwrap())
        .unwrap_err();
    assert!(matches!(err, ViewError::GradientWithoutGet { .. }));
    let _ = view.get::<Vector<3072, f64>>().unwrap();
    view.put_gradient(&Batch::<Vector<3072, f64>>::new(Array2::ones((2, 3072))).unwrap())
        .unwrap();
    // A new put resets the gradient and what was got.
    view.put(Batch::new(bhwc(2)).unwrap()).unwrap();
    assert!(view.gradient().unwrap().array().iter().all(|&g| g == 0.0));
    assert!(
        view.put_gradient(&Batch::<Vector<3072, f64>>::new(Array2::ones((2, 3072))).unwrap())
            .is_err()
    );
}

#[test]
fn forms_are_recomputed_into_their_memory_on_each_put_and_flushed() {
    let mut view = View::<Bhwc, f64>::new();
    view.put(Batch::new(bhwc(3)).unwrap()).unwrap();
    let first = view.get::<Vector<3072, f64>>().unwrap();
    let ptr = first.array().as_ptr();
    drop(first);
    view.put(Batch::new(bhwc(3) * 2.0).unwrap()).unwrap();
    let second = view.get::<Vector<3072, f64>>().unwrap();
    assert_eq!(
        second.array().as_ptr(),
        ptr,
        "the cached form's memory is reused"
    );
    assert_eq!(second.array()[[1, 1]], 2.0 * bhwc(3)[[1, 0, 0, 1]]);
    view.flush();
    let third = view.get::<Vector<3072, f64>>().unwrap();
    assert_eq!(third, second);
}

#[test]
fn index_sub_and_replace() {
    let mut view = View::<Bhwc, f64>::new();
    view.put(Batch::new(bhwc(6)).unwrap()).unwrap();
    let mut part = View::<Bhwc, f64>::new();
    view.index_into(&[4, 1], &mut part).unwrap();
    assert_eq!(
        part.base().unwrap().array().index_axis(ndarray::Axis(0), 0),
        bhwc(6).index_axis(ndarray::Axis(0), 4)
    );
    let ptr = part.base().unwrap().array().as_ptr();
    view.sub_into(2, 4, &mut part).unwrap();
    assert_eq!(
        part.base().unwrap().array().as_ptr(),
        ptr,
        "the caller's storage is reused"
    );
    assert_eq!(
        part.base().unwrap().array().index_axis(ndarray::Axis(0), 0),
        bhwc(6).index_axis(ndarray::Axis(0), 2)
    );
    assert!(matches!(
        view.index_into(&[6], &mut part),
        Err(ViewError::Spec(SpecError::Row { .. }))
    ));

    // Preprocessing: a consumer's bchw output becomes the new base, in bhwc.
    let planes = view.get::<image![32, 32, 3; BCHW, f64]>().unwrap();
    let centred = planes.array().mapv(|v| v - 1.0);
    view.replace(&Batch::<image![32, 32, 3; BCHW, f64]>::new(centred).unwrap())
        .unwrap();
    assert_eq!(view.base().unwrap().array(), &(bhwc(6) - 1.0));
}

#[derive(DataSpec)]
struct TwoImages {
    #[spec(source = "features")]
    a: Batch<image![3, 4, 2; BCHW, f64]>,
    #[spec(source = "context")]
    b: Batch<image![3, 4, 2; BCHW, f64]>,
}

#[derive(DataSpec)]
struct TwoBhwc {
    #[spec(source = "features")]
    a: ArcBatch<image![3, 4, 2; BHWC, f64]>,
    #[spec(source = "context")]
    b: ArcBatch<image![3, 4, 2; BHWC, f64]>,
}

#[test]
fn dp_list_view_of_two_images() {
    let a = Array4::from_shape_fn((1, 2, 3, 4), |(_, c, h, w)| (c * 12 + h * 4 + w) as f64);
    let mut view = SpecView::<TwoImages, f64>::new();
    view.put(TwoImages {
        a: Batch::new(a.clone()).unwrap(),
        b: Batch::new(a.clone() * 2.0).unwrap(),
    });
    let got = view.get::<TwoBhwc>().unwrap();
    assert_eq!(got.a.shape(), [1, 3, 4, 2]);
    assert_eq!(got.b.shape(), [1, 3, 4, 2]);
    assert_eq!(got.a.array(), &a.view().permuted_axes([0, 2, 3, 1]));
    // A gradient per leaf, in the form got, comes back in the record's layout.
    let g = Array4::from_elem((1, 3, 4, 2), 0.5);
    view.put_leaf_gradient::<Features, image![3, 4, 2; BHWC, f64]>(&Batch::new(g.clone()).unwrap())
        .unwrap();
    view.put_leaf_gradient::<Features, image![3, 4, 2; BHWC, f64]>(&Batch::new(g).unwrap())
        .unwrap();
    let back = view.leaf_gradient::<Features>().unwrap();
    assert_eq!(back.shape(), [1, 2, 3, 4]);
    assert!(back.array().iter().all(|&v| v == 1.0));
    assert!(
        view.leaf_gradient::<batchspec::source!("context")>()
            .is_none()
    );
}

/// dp's `SequenceView`: `dp.SequenceView('bwc', torch.rand(8,2,5))`; `forwardGet('bf')` is the
/// 8×10 of each sample's steps one after the other, `bcw` the transpose, and gradients from both
/// come back summed in `bwc`.
#[test]
fn dp_sequence_view_bwc_bf_bcw() {
    type Bwc = window![2, 5; BWC, f64];
    let data = Array3::from_shape_fn((8, 2, 5), |(b, w, c)| {
        ((b * 7 + w * 3 + c * 11) % 13) as f64 / 13.0
    });
    let mut view = View::<Bwc, f64>::new();
    view.put(Batch::new(data.clone()).unwrap()).unwrap();
    assert_eq!(view.get::<Bwc>().unwrap().array(), &data);
    // bf: row-major reshape of each sample (dp prints row 1 as its two steps of five).
    let bf = view.get::<Vector<10, f64>>().unwrap();
    assert_eq!(bf.shape(), [8, 10]);
    assert_eq!(
        bf.array(),
        &data.clone().into_shape_with_order((8, 10)).unwrap()
    );
    // bcw: the transpose; and back again to bwc.
    let bcw = view.get::<window![2, 5; BCW, f64]>().unwrap();
    assert_eq!(bcw.shape(), [8, 5, 2]);
    assert_eq!(bcw.array(), &data.view().permuted_axes([0, 2, 1]));
    assert_eq!(bcw.format_as::<Bwc>().array(), &data);
    // A vector of 10 fills the window in the same order (and in f32 for a cast on the way).
    let from_bf =
        Batch::<Vector<10, f64>>::new(data.clone().into_shape_with_order((8, 10)).unwrap())
            .unwrap()
            .format_as::<window![2, 5; BCW, f32]>();
    assert_eq!(
        from_bf.array(),
        &data.mapv(|v| v as f32).permuted_axes([0, 2, 1])
    );
    // Gradients from bf and bcw, summed back in bwc.
    let g_bf = Array2::from_shape_fn((8, 10), |(b, f)| (b * 10 + f) as f64);
    let g_bcw = Array3::from_shape_fn((8, 5, 2), |(b, c, w)| (b + c * w) as f64 * 0.5);
    view.put_gradient(&Batch::<Vector<10, f64>>::new(g_bf.clone()).unwrap())
        .unwrap();
    view.put_gradient(&Batch::<window![2, 5; BCW, f64]>::new(g_bcw.clone()).unwrap())
        .unwrap();
    let expected = g_bf.into_shape_with_order((8, 2, 5)).unwrap() + g_bcw.permuted_axes([0, 2, 1]);
    assert_eq!(view.gradient().unwrap().array(), &expected);
}

/// dp's `b()` of a `bf` whose `f` is 1: one value per sample, and its gradient back as `bf`.
#[test]
fn dp_b_of_a_bf_with_one_feature() {
    let mut view = View::<Vector<1, f32>, f64>::new();
    view.put(Batch::new(array![[1.5f32], [-2.], [3.25]]).unwrap())
        .unwrap();
    let b = view.get::<Scalar<f64>>().unwrap();
    assert_eq!(b.array(), &Array1::from(vec![1.5f64, -2., 3.25]));
    view.put_gradient(&Batch::<Scalar<f64>>::new(array![0.5, 1., 2.]).unwrap())
        .unwrap();
    assert_eq!(
        view.gradient().unwrap().array(),
        &array![[0.5f64], [1.], [2.]]
    );
}

/// dp's `ClassView` with its classes: `bt` labels named through their first column.
#[test]
fn dp_class_view_names_its_classes() {
    let mut view = View::<Index<4, 2>>::new();
    view.set_classes(["cat", "dog", "bird", "fish"]).unwrap();
    view.put(Batch::new(array![[3i64, 2], [3, 1], [2, 3], [3, 0]]).unwrap())
        .unwrap();
    assert_eq!(
        view.class_names().unwrap(),
        ["fish", "bird", "fish", "dog", "bird", "fish", "fish", "cat"]
    );
    // The classes stay across puts, and name the `b` view's labels.
    view.put(Batch::new(array![[0i64, 1]]).unwrap()).unwrap();
    let b = view.get::<Labels<4>>().unwrap();
    assert_eq!(view.class_name(b.array()[0] as usize), Some("cat"));
    assert!(matches!(
        view.set_classes(["cat"]).unwrap_err(),
        ViewError::Classes { given: 1, .. }
    ));
    assert!(matches!(
        View::<Labels<4>>::new().class_names().unwrap_err(),
        ViewError::ViewEmpty
    ));
}

/// `SpecView` has what `View` has: index, sub, replace, flush, and no gradient for a leaf not
/// got since the last put or flush.
#[test]
fn spec_view_index_sub_replace_flush_and_got_before_gradient() {
    #[derive(DataSpec)]
    struct Rec {
        #[spec(source = "features")]
        x: Batch<window![2, 3; BWC, f64]>,
        #[spec(source = "targets")]
        y: Batch<Labels<10>>,
    }
    #[derive(DataSpec)]
    struct Flat {
        #[spec(source = "features")]
        x: ArcBatch<Vector<6, f64>>,
        #[spec(source = "targets")]
        y: ArcBatch<Labels<10>>,
    }
    let x = Array3::from_shape_fn((4, 2, 3), |(b, w, c)| (b * 6 + w * 3 + c) as f64);
    let mut view = SpecView::<Rec, f64>::new();
    view.put(Rec {
        x: Batch::new(x.clone()).unwrap(),
        y: Batch::new(array![4i64, 5, 6, 7]).unwrap(),
    });

    // A gradient before any get is refused, naming the form and the source.
    type Bf = Vector<6, f64>;
    let g = Batch::<Bf>::new(Array2::from_elem((4, 6), 1.0)).unwrap();
    let err = view.put_leaf_gradient::<Features, Bf>(&g).unwrap_err();
    assert!(matches!(err, ViewError::GradientWithoutGet { .. }), "{err}");
    assert!(err.to_string().contains("source `features`"), "{err}");
    let flat: Flat = view.get().unwrap();
    assert_eq!(
        flat.x.array(),
        &x.clone().into_shape_with_order((4, 6)).unwrap()
    );
    view.put_leaf_gradient::<Features, Bf>(&g).unwrap();
    assert_eq!(
        view.leaf_gradient::<Features>().unwrap().array(),
        &Array3::from_elem((4, 2, 3), 1.0)
    );
    // After a flush the forms are converted again, and a gradient needs a new get.
    view.flush();
    assert!(matches!(
        view.put_leaf_gradient::<Features, Bf>(&g).unwrap_err(),
        ViewError::GradientWithoutGet { .. }
    ));

    // index and sub.
    let mut part = SpecView::<Rec, f64>::new();
    view.index_into(&[3, 1, 3], &mut part).unwrap();
    assert_eq!(part.base().unwrap().y.array(), &array![7i64, 5, 7]);
    assert_eq!(
        part.base().unwrap().x.array(),
        &ndarray::stack(
            ndarray::Axis(0),
            &[
                x.index_axis(ndarray::Axis(0), 3),
                x.index_axis(ndarray::Axis(0), 1),
                x.index_axis(ndarray::Axis(0), 3)
            ]
        )
        .unwrap()
    );
    view.sub_into(1, 3, &mut part).unwrap();
    assert_eq!(part.base().unwrap().y.array(), &array![5i64, 6]);
    assert!(matches!(
        view.index_into(&[4], &mut part).unwrap_err(),
        ViewError::Spec(SpecError::Row { row: 4, .. })
    ));
    assert!(view.sub_into(3, 1, &mut part).is_err());

    // replace: a preprocessed output in the consumer's form becomes the record.
    let doubled = Flat {
        x: Batch::new(x.clone().into_shape_with_order((4, 6)).unwrap() * 2.0)
            .unwrap()
            .to_shared(),
        y: flat.y.clone(),
    };
    view.replace(&doubled).unwrap();
    assert_eq!(view.base().unwrap().x.array(), &(x.clone() * 2.0));
    assert!(
        view.leaf_gradient::<Features>().is_none(),
        "a replace resets the gradients"
    );
    let short = Flat {
        x: Batch::new(Array2::zeros((1, 6))).unwrap().to_shared(),
        y: Batch::new(array![1i64]).unwrap().to_shared(),
    };
    assert!(matches!(
        view.replace(&short).unwrap_err(),
        ViewError::ReplacementLength {
            expected: 4,
            given: 1
        }
    ));
}

proptest::proptest! {
    #[test]
    fn the_summed_gradient_is_the_sum_of_each_converted_back(
        n in 1usize..4,
        seeds in proptest::collection::vec(-5.0f64..5.0, 3),
    ) {
        type Base = image![2, 3, 2; BHWC, f32];
        let mut view = View::<Base, f64>::new();
        view.put(Batch::new(Array4::from_elem((n, 2, 3, 2), 1.0f32)).unwrap()).unwrap();
        let _ = view.get::<image![2, 3, 2; BCHW, f64]>().unwrap();
        let _ = view.get::<image![2, 3, 2; CHWB, f32]>().unwrap();
        let _ = view.get::<Vector<12, f64>>().unwrap();
        let g1 = Array4::from_shape_fn((n, 2, 2, 3), |(b, c, h, w)| seeds[0] * (b + 2 * c + h + w) as f64);
        let g2 = Array4::from_shape_fn((2, 2, 3, n), |(c, h, w, b)| (seeds[1] * (c + h * w + b) as f64) as f32);
        let g3 = Array2::from_shape_fn((n, 12), |(b, f)| seeds[2] * (b * 12 + f) as f64);
        view.put_gradient(&Batch::<image![2, 3, 2; BCHW, f64]>::new(g1.clone()).unwrap()).unwrap();
        view.put_gradient(&Batch::<image![2, 3, 2; CHWB, f32]>::new(g2.clone()).unwrap()).unwrap();
        view.put_gradient(&Batch::<Vector<12, f64>>::new(g3.clone()).unwrap()).unwrap();
        let expected = g1.permuted_axes([0, 2, 3, 1]).to_owned()
            + g2.mapv(f64::from).permuted_axes([3, 1, 2, 0])
            + g3.into_shape_with_order((n, 2, 3, 2)).unwrap();
        proptest::prop_assert_eq!(view.gradient().unwrap().array(), &expected);
    }
}
