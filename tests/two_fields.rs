//! A record that holds one source in two fields of different kinds (the pixels as an image and
//! as a vector, as Pylearn2's datasets and MNIST loaders often store them): each request's field
//! is served from the record's field of its kind, through every entry point that pairs the two.
//! The record's two fields hold different values, so a test tells which one served a leaf; the
//! expectations are plain loops over the record's arrays.

use batchspec::data::{Dataset, Provider};
use batchspec::iteration::{LastBatch, Schedule};
use batchspec::mapping::{ServeCache, Server, assert_serves, serve};
use batchspec::prelude::*;
use ndarray::{Array1, Array2, Array4};

/// Four samples of 2×2 RGB pixels, stored twice: as bytes in an image and, negated and scaled,
/// as a vector of floats (a different value at every place, so the source field shows).
#[derive(DataSpec)]
struct Pixels {
    #[spec(source = "features")]
    image: Batch<image![2, 2, 3; BHWC, u8]>,
    #[spec(source = "features")]
    flat: Batch<Vector<12>>,
    #[spec(source = "targets")]
    label: Batch<Labels<3>>,
}

const N: usize = 4;

/// The image's byte at sample `b`, row `h`, column `w`, channel `c`.
fn byte(b: usize, h: usize, w: usize, c: usize) -> u8 {
    (b * 12 + h * 6 + w * 3 + c) as u8
}

/// The vector's value at sample `b`, place `i`.
fn float(b: usize, i: usize) -> f32 {
    -0.5 * (b * 12 + i) as f32 - 100.0
}

fn pixels() -> Pixels {
    Pixels {
        image: Batch::new(Array4::from_shape_fn((N, 2, 2, 3), |(b, h, w, c)| {
            byte(b, h, w, c)
        }))
        .unwrap(),
        flat: Batch::new(Array2::from_shape_fn((N, 12), |(b, i)| float(b, i))).unwrap(),
        label: Batch::new(Array1::from_iter([2i64, 0, 1, 2])).unwrap(),
    }
}

/// A model that reads the vector form.
#[derive(DataSpec)]
struct Flat {
    #[spec(source = "features")]
    x: Batch<Vector<12>>,
}

/// A model that reads the image form, channels first, as floats.
#[derive(DataSpec)]
struct Planes {
    #[spec(source = "features")]
    x: Batch<image![2, 2, 3; BCHW, f32]>,
}

/// Both forms in one request, with the labels.
#[derive(DataSpec)]
struct Both {
    #[spec(source = "features")]
    planes: Batch<image![2, 2, 3; BCHW, f32]>,
    #[spec(source = "features")]
    flat: Batch<Vector<12>>,
    #[spec(source = "targets")]
    label: Batch<Labels<3>>,
}

const _: () = assert_serves::<Pixels, Both>();

/// The vector field's rows `rows`.
fn want_flat(rows: &[usize]) -> Array2<f32> {
    Array2::from_shape_fn((rows.len(), 12), |(k, i)| float(rows[k], i))
}

/// The image field's rows `rows`, channels first, as floats.
fn want_planes(rows: &[usize]) -> Array4<f32> {
    Array4::from_shape_fn((rows.len(), 3, 2, 2), |(k, c, h, w)| {
        f32::from(byte(rows[k], h, w, c))
    })
}

#[test]
fn serve_reads_each_form_from_its_field() {
    let r = pixels();
    let all: Vec<usize> = (0..N).collect();
    let mut cache = ServeCache::new();
    let both: Both = serve(&r, &mut cache);
    assert_eq!(both.flat.array(), &want_flat(&all));
    assert_eq!(both.planes.array(), &want_planes(&all));
    assert_eq!(both.label.array(), &Array1::from_iter([2i64, 0, 1, 2]));
    // The vector is the record's own (no conversion made); the planes and the labels are not.
    let mut server = Server::new(&r);
    let flat: Flat = server.get();
    let planes: Planes = server.get();
    assert_eq!(flat.x.array(), &want_flat(&all));
    assert_eq!(planes.x.array(), &want_planes(&all));
}

#[test]
fn a_provider_gathers_each_form_from_its_field_in_every_batch() {
    let ds = Dataset::new(pixels()).unwrap();
    let schedule = Schedule::builder(N)
        .batch_size(3)
        .last_batch(LastBatch::Pad)
        .shuffle(true)
        .seed(7)
        .build()
        .unwrap();
    let mut p = Provider::<Pixels, Both>::new(&ds, schedule).unwrap();
    let mut seen = Vec::new();
    while let Some(b) = p.next_batch() {
        let real = b.info.count_samples;
        // Each row's sample, read back from its vector (`float` is one-to-one).
        let rows: Vec<usize> = (0..real)
            .map(|k| ((-100.0 - b.batch.flat.array()[[k, 0]]) / 6.0) as usize)
            .collect();
        assert_eq!(
            b.batch.flat.array().slice(ndarray::s![..real, ..]),
            want_flat(&rows)
        );
        assert_eq!(
            b.batch
                .planes
                .array()
                .slice(ndarray::s![..real, .., .., ..]),
            want_planes(&rows)
        );
        seen.extend(rows);
    }
    seen.sort_unstable();
    assert_eq!(seen, (0..N).collect::<Vec<_>>());
}

#[test]
fn a_projection_lends_each_form_from_its_field() {
    let ds = Dataset::new(pixels()).unwrap();
    let lent = ds.project::<Flat>().view(1..3).unwrap();
    assert_eq!(lent.x.array(), &want_flat(&[1, 2]));
    let selected = ds.project::<Planes>().select(&[3, 0]).unwrap();
    assert_eq!(selected.x.array(), &want_planes(&[3, 0]));
}
