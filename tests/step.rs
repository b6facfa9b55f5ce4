//! Steps, the conversions that are not permutations: flips against a plain reference, alone and
//! fused into a provider's gather.

use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::format::{FlipLeftRight, FlipUpDown, Through};
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use ndarray::Array4;
use proptest::prelude::*;

type Bhwc = image![3, 5, 2; BHWC, u8];
type Bchw = image![3, 5, 2; BCHW, f32];

/// The plain reference: value at (b, h, w, c) of the flipped batch, in bhwc order.
fn flipped_ref(x: &Array4<u8>, flip_w: bool) -> Array4<u8> {
    let (n, h, w, c) = x.dim();
    Array4::from_shape_fn((n, h, w, c), |(b, i, j, k)| {
        if flip_w {
            x[[b, i, w - 1 - j, k]]
        } else {
            x[[b, h - 1 - i, j, k]]
        }
    })
}

fn bhwc(values: Vec<u8>, n: usize) -> Array4<u8> {
    Array4::from_shape_vec((n, 3, 5, 2), values).unwrap()
}

proptest! {
    #[test]
    fn flips_match_the_reference_in_every_layout(n in 1usize..4, seed in any::<u64>()) {
        let values: Vec<u8> = (0..n * 30).map(|i| (seed.wrapping_mul(31).wrapping_add(i as u64 * 7) % 251) as u8).collect();
        let x = bhwc(values, n);
        let batch = Batch::<Bhwc>::new(x.clone()).unwrap();
        let w = batch.format_as::<Through<FlipLeftRight, Bhwc>>();
        prop_assert_eq!(w.array(), &flipped_ref(&x, true));
        let h = batch.format_as::<Through<FlipUpDown, Bhwc>>();
        prop_assert_eq!(h.array(), &flipped_ref(&x, false));
        // The same step in another layout: flip a bchw copy, then compare in bhwc.
        let chw = batch.format_as::<image![3, 5, 2; BCHW, u8]>();
        let flipped = chw.format_as::<Through<FlipLeftRight, image![3, 5, 2; BCHW, u8]>>();
        let back = Batch::<image![3, 5, 2; BCHW, u8]>::new(flipped.into_array())
            .unwrap()
            .format_as::<Bhwc>();
        prop_assert_eq!(back.array(), &flipped_ref(&x, true));
        // A flip is its own inverse.
        let twice = Batch::<Bhwc>::new(w.into_array())
            .unwrap()
            .format_as::<Through<FlipLeftRight, Bhwc>>();
        prop_assert_eq!(twice.array(), &x);
    }
}

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<Bhwc>,
}

#[derive(DataSpec)]
struct Mirrored {
    #[spec(source = "features")]
    image: Batch<Through<FlipLeftRight, Bhwc>>,
}

#[derive(DataSpec)]
struct AsFloats {
    #[spec(source = "features")]
    image: Batch<Bchw>,
}

#[test]
fn a_provider_gathers_through_a_step() {
    let x = bhwc((0..4 * 30).map(|i| i as u8).collect(), 4);
    let ds = Dataset::new(Record {
        image: Batch::new(x.clone()).unwrap(),
    })
    .unwrap();
    // A shuffled epoch: every sample served is the mirror of the sample the batch says it is.
    let schedule = Schedule::builder(4)
        .batch_size(4)
        .shuffle(true)
        .seed(7)
        .build()
        .unwrap();
    let order: Vec<usize> = schedule.epoch(0).next().unwrap().indices().to_vec();
    assert_ne!(order, [0, 1, 2, 3], "the seed gives a shuffled order");
    let mut p = Provider::<Record, Mirrored>::new(&ds, schedule).unwrap();
    let b = p.next_batch().unwrap();
    let want = flipped_ref(&x, true);
    for (j, &i) in order.iter().enumerate() {
        assert_eq!(
            b.batch.image.array().index_axis(ndarray::Axis(0), j),
            want.index_axis(ndarray::Axis(0), i)
        );
    }
    // A plain request of the same record is untouched by the step.
    let schedule = Schedule::builder(4).batch_size(4).build().unwrap();
    let mut plain = Provider::<Record, AsFloats>::new(&ds, schedule).unwrap();
    let b = plain.next_batch().unwrap();
    assert_eq!(
        b.batch.image.array()[[0, 0, 0, 1]],
        f32::from(x[[0, 0, 1, 0]])
    );
}
