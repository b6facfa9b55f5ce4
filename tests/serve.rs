//! Serving requests from a record: lookup by source, conversion, de-duplication across
//! consumers, and shared buffers.

use batchspec::mapping::{ServeCache, Server, serve};
use batchspec::prelude::*;
use ndarray::{Array2, Array4, array};

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![2, 3, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<4, 1, u8>>,
}

fn record() -> Record {
    Record {
        image: Batch::new(Array4::from_shape_fn((3, 2, 3, 1), |(b, h, w, _)| {
            (b * 6 + h * 3 + w) as u8
        }))
        .unwrap(),
        label: Batch::new(array![[3u8], [0], [1]]).unwrap(),
    }
}

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: ArcBatch<Vector<6>>,
}

#[derive(DataSpec)]
struct Supervised {
    input: ModelInput,
    #[spec(source = "targets")]
    y: Batch<Vector<4>>,
}

#[derive(DataSpec)]
struct Monitor {
    #[spec(source = "features")]
    planes: Batch<image![2, 3, 1; BCHW, f64]>,
    #[spec(source = "targets")]
    labels: Batch<Labels<4>>,
}

#[test]
fn a_nested_request_is_served_by_a_flat_record_with_conversions() {
    let r = record();
    let s: Supervised = serve::<_, Supervised>(&r, &mut ServeCache::new());
    assert_eq!(
        s.input.x.array(),
        &Array2::from_shape_fn((3, 6), |(b, f)| (b * 6 + f) as f32)
    );
    assert_eq!(
        s.y.array(),
        &array![[0f32, 0., 0., 1.], [1., 0., 0., 0.], [0., 1., 0., 0.]]
    );
    let m: Monitor = serve::<_, Monitor>(&r, &mut ServeCache::new());
    assert_eq!(m.planes.shape(), [3, 1, 2, 3]);
    assert_eq!(m.labels.array(), &array![3i64, 0, 1]);
}

#[test]
fn each_unique_leaf_is_produced_once_across_consumers_and_shared() {
    let r = record();
    let mut server = Server::new(&r);
    let model: ModelInput = server.get::<ModelInput>();
    let cost: Supervised = server.get::<Supervised>();
    let monitor: Monitor = server.get::<Monitor>();
    // features as vector, targets as one-hot, features as bchw f64, targets as labels.
    assert_eq!(server.produced(), 4);
    assert_eq!(
        model.x.array().as_ptr(),
        cost.input.x.array().as_ptr(),
        "one buffer for both"
    );
    assert_eq!(monitor.validate(), Ok(3));
}

#[test]
fn a_tuple_of_requests_is_one_combined_request() {
    let r = record();
    let mut cache = ServeCache::new();
    let (a, b): (ModelInput, Supervised) = serve::<_, (ModelInput, Supervised)>(&r, &mut cache);
    assert_eq!(cache.produced(), 2);
    assert_eq!(a.x.array().as_ptr(), b.input.x.array().as_ptr());
}

/// One source read twice by a request, in two spaces (Pylearn2 allows it): both leaves come
/// from the record's one field, each converted on its own.
#[derive(DataSpec)]
struct TwoForms {
    #[spec(source = "features")]
    flat: Batch<Vector<6>>,
    #[spec(source = "features")]
    planes: Batch<image![2, 3, 1; BCHW, f32]>,
}

#[test]
fn a_request_reads_one_source_in_two_spaces() {
    let r = record();
    let mut cache = ServeCache::new();
    let two: TwoForms = serve(&r, &mut cache);
    assert_eq!(cache.produced(), 2);
    for b in 0..3 {
        for i in 0..6 {
            let want = (b * 6 + i) as f32;
            assert_eq!(two.flat.array()[[b, i]], want);
            assert_eq!(two.planes.array()[[b, 0, i / 3, i % 3]], want);
        }
    }
}
