//! dp's views: cached forms, gradients routed back and summed, index/sub, replace, composites.

use batchspec::Features;
use batchspec::error::SpecError;
use batchspec::prelude::*;
use batchspec::view::ViewError;
use batchspec::view::{SpecView, View};
use ndarray::{Array2, Array4, array};

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
