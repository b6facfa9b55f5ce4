//! Owned batches are made without zero-filling their memory first: each value is written once
//! by the gather (a row copy, a cast, a transpose of each sample, a vector split into an image or
//! an image flattened, in either order) or the leaf is made zeros where
//! the conversion cannot (a one-hot, sequences, augmentations, lengths and masks). Under an allocator
//! that fills every new allocation with a garbage pattern, every owned batch equals the batch the
//! provider lends from its reused, zero-initialised buffer: a value left unwritten would show as
//! the pattern. A property over random datasets, batch sizes, last-batch policies, seeds and
//! epochs, for a request of every kind of leaf.

use batchspec::augment::{Augmentation, Steps};
use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::iteration::{LastBatch, Schedule};
use batchspec::prelude::*;
use batchspec::types::Ragged;
use ndarray::{Array1, Array2, Array4};
use proptest::prelude::*;

mod common;

#[global_allocator]
static GLOBAL: common::Poisoned = common::Poisoned;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "x")]
    x: Batch<Vector<6>>,
    #[spec(source = "w")]
    w: Batch<Vector<3, u8>>,
    #[spec(source = "img")]
    img: Batch<image![2, 3, 2; BHWC, u8]>,
    #[spec(source = "y")]
    y: Batch<Labels<5, u8>>,
    #[spec(source = "s")]
    s: Ragged<IndexSeq<10>>,
    #[spec(source = "gray")]
    gray: Batch<image![2, 3, 1; BHWC, u8]>,
    #[spec(source = "flat")]
    flat: Batch<Vector<12, u8>>,
    #[spec(source = "flat6")]
    flat6: Batch<Vector<6, u8>>,
    #[spec(source = "chw")]
    chw: Batch<image![2, 3, 2; BCHW, u8]>,
    #[spec(source = "hwc")]
    hwc: Batch<image![2, 3, 2; BHWC]>,
}

struct Flip;
impl Augmentation for Flip {
    type Input = image![2, 3, 2; BHWC, u8];
    const STEPS: Steps = Steps::new().flip_h(0.5);
}

/// Every kind of leaf a request can have, owned.
#[derive(DataSpec)]
struct Request {
    // The same space: a row copy.
    #[spec(source = "x")]
    x: Batch<Vector<6>>,
    // A cast with a pad value for padding rows.
    #[spec(source = "w", pad = 7.0)]
    w: Batch<Vector<3>>,
    // A transpose with a cast.
    #[spec(source = "img")]
    img: Batch<image![2, 3, 2; BCHW, f32]>,
    // One channel moved: the same runs of values, a cast written once.
    #[spec(source = "gray")]
    gray: Batch<image![2, 3, 1; BCHW, f32]>,
    // A vector split into a `bchw` image: a transpose of each sample, with a cast.
    #[spec(source = "flat")]
    flat: Batch<image![2, 3, 2; BCHW, f32]>,
    // A vector split into a `bhwc` image: the same runs, a cast.
    #[spec(source = "flat6")]
    flat6: Batch<image![1, 3, 2; BHWC, f32]>,
    // A `bchw` image flattened (in `hwc` order): a transpose of each sample, with a cast.
    #[spec(source = "chw")]
    chw: Batch<Vector<12>>,
    // A `bhwc` image flattened: a row copy.
    #[spec(source = "hwc")]
    hwc: Batch<Vector<12>>,
    // Labels cast, as a shared batch.
    #[spec(source = "y")]
    y: ArcBatch<Labels<5, i64>>,
    // Sequences padded to the longest, with their lengths and mask.
    #[spec(source = "s")]
    s: Batch<IndexSeq<10>>,
    #[spec(lengths_of = "s")]
    len: Batch<Lengths>,
    #[spec(mask_of = "s")]
    mask: Batch<Mask>,
}

/// An augmented image and one-hot targets.
#[derive(DataSpec)]
struct Augmented {
    #[spec(source = "img", augment = Flip)]
    img: Batch<image![2, 3, 2; BCHW, f32]>,
    #[spec(source = "y")]
    y: Batch<Vector<5>>,
}

fn record(n: usize, data: u64) -> Dataset<Record> {
    let v =
        |i: usize, j: usize| ((data.wrapping_mul(31).wrapping_add((i * 7 + j) as u64)) % 200) as u8;
    Dataset::new(Record {
        x: Batch::new(Array2::from_shape_fn((n, 6), |(i, j)| {
            f32::from(v(i, j)) - 50.0
        }))
        .unwrap(),
        w: Batch::new(Array2::from_shape_fn((n, 3), |(i, j)| v(i, j + 9))).unwrap(),
        img: Batch::new(Array4::from_shape_fn((n, 2, 3, 2), |(i, h, w, c)| {
            v(i, h * 6 + w * 2 + c)
        }))
        .unwrap(),
        y: Batch::new(Array1::from_shape_fn(n, |i| v(i, 3) % 5)).unwrap(),
        s: Ragged::from_flat_samples((0..n).map(|i| {
            (0..(v(i, 1) % 4) as usize)
                .map(|t| i64::from(v(i, t) % 10))
                .collect::<Vec<_>>()
        }))
        .unwrap(),
        gray: Batch::new(Array4::from_shape_fn((n, 2, 3, 1), |(i, h, w, _)| {
            v(i, h * 3 + w + 40)
        }))
        .unwrap(),
        flat: Batch::new(Array2::from_shape_fn((n, 12), |(i, j)| v(i, j + 60))).unwrap(),
        flat6: Batch::new(Array2::from_shape_fn((n, 6), |(i, j)| v(i, j + 80))).unwrap(),
        chw: Batch::new(Array4::from_shape_fn((n, 2, 2, 3), |(i, c, h, w)| {
            v(i, c * 6 + h * 3 + w + 90)
        }))
        .unwrap(),
        hwc: Batch::new(Array4::from_shape_fn((n, 2, 3, 2), |(i, h, w, c)| {
            f32::from(v(i, h * 6 + w * 2 + c + 110)) - 3.0
        }))
        .unwrap(),
    })
    .unwrap()
}

fn policy(k: u8) -> LastBatch {
    [
        LastBatch::Short,
        LastBatch::Pad,
        LastBatch::Drop,
        LastBatch::RollOver,
    ][usize::from(k % 4)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn owned_batches_equal_the_lent_ones(
        n in 1usize..40, batch in 1usize..9, last in 0u8..4, seed: u64, data: u64, epochs in 1u64..3,
    ) {
        let ds = record(n, data);
        let schedule = Schedule::builder(n)
            .batch_size(batch.min(n))
            .shuffle(true)
            .seed(seed)
            .last_batch(policy(last))
            .build()
            .unwrap();
        let mut lent = Provider::<Record, Request>::new(&ds, schedule.clone()).unwrap();
        let mut owned = Provider::<Record, Request>::new(&ds, schedule.clone()).unwrap();
        let mut lent_aug = Provider::<Record, Augmented>::new(&ds, schedule.clone()).unwrap();
        let mut owned_aug = Provider::<Record, Augmented>::new(&ds, schedule).unwrap();
        for epoch in 0..epochs {
            lent.start_epoch(epoch);
            owned.start_epoch(epoch);
            lent_aug.start_epoch(epoch);
            owned_aug.start_epoch(epoch);
            while let Some(b) = lent.next_batch() {
                let (o, info) = owned.next_owned().expect("as many batches");
                let want = b.batch;
                prop_assert_eq!(info, b.info);
                prop_assert_eq!(o.x.array(), want.x.array());
                prop_assert_eq!(o.w.array(), want.w.array());
                prop_assert_eq!(o.img.array(), want.img.array());
                prop_assert_eq!(o.gray.array(), want.gray.array());
                prop_assert_eq!(o.flat.array(), want.flat.array());
                prop_assert_eq!(o.flat6.array(), want.flat6.array());
                prop_assert_eq!(o.chw.array(), want.chw.array());
                prop_assert_eq!(o.hwc.array(), want.hwc.array());
                prop_assert_eq!(o.y.array(), want.y.array());
                prop_assert_eq!(o.s.array(), want.s.array());
                prop_assert_eq!(o.len.array(), want.len.array());
                prop_assert_eq!(o.mask.array(), want.mask.array());
                // Padding rows (of `Pad`; `RollOver` repeats samples): the pad value where one is
                // declared, zeros elsewhere.
                let pads = if policy(last) == LastBatch::Pad { info.count_samples } else { o.x.len() };
                for j in pads..o.x.len() {
                    prop_assert!(o.w.array().row(j).iter().all(|&v| v == 7.0));
                    prop_assert!(o.x.array().row(j).iter().all(|&v| v == 0.0));
                    prop_assert!(o.gray.array().index_axis(ndarray::Axis(0), j).iter().all(|&v| v == 0.0));
                    prop_assert!(o.flat.array().index_axis(ndarray::Axis(0), j).iter().all(|&v| v == 0.0));
                    prop_assert!(o.chw.array().row(j).iter().all(|&v| v == 0.0));
                }
            }
            prop_assert!(owned.next_owned().is_none());
            while let Some(b) = lent_aug.next_batch() {
                let (o, info) = owned_aug.next_owned().expect("as many batches");
                prop_assert_eq!(info, b.info);
                prop_assert_eq!(o.img.array(), b.batch.img.array());
                prop_assert_eq!(o.y.array(), b.batch.y.array());
            }
            prop_assert!(owned_aug.next_owned().is_none());
        }
    }
}

/// A single channel moved (`bhwc` of one channel as `bchw`) is the same runs of values: the
/// batch is made written once, the cast fused with the row copy, and a lent batch is gathered
/// into as runs; two channels are a transpose, each sample permuted into memory written once, as
/// are a vector split into a `bchw` image and the inverse flatten. The expected values are
/// written out by index, independently of the library's plans.
#[test]
fn one_channel_moved_is_written_once() {
    use batchspec::format::Convert;
    type Gray = image![2, 3, 1; BHWC, u8];
    type GrayChw = image![2, 3, 1; BCHW, f32];
    let gray = Array4::from_shape_fn((3, 2, 3, 1), |(i, h, w, _)| (i * 10 + h * 3 + w) as u8);
    let made = <Gray as Convert<GrayChw>>::gather_new(gray.view(), &[2, 0], 1, 0.0)
        .expect("one channel moved is made written once");
    let want = Array4::from_shape_fn((3, 1, 2, 3), |(j, _, h, w)| match j {
        0 => (20 + h * 3 + w) as f32,
        1 => (h * 3 + w) as f32,
        _ => 0.0,
    });
    assert_eq!(made, want);
    // The lent path's gather into a batch it holds: the same rows, as runs.
    let mut lent = Array4::<f32>::from_elem((2, 1, 2, 3), -1.0);
    <Gray as Convert<GrayChw>>::gather_view_into(gray.view(), &[2, 0], lent.view_mut());
    assert_eq!(lent, want.slice(ndarray::s![..2, .., .., ..]));
    type Two = image![2, 3, 2; BHWC, u8];
    type TwoChw = image![2, 3, 2; BCHW, f32];
    let two = Array4::from_shape_fn((3, 2, 3, 2), |(i, h, w, c)| {
        (i * 20 + h * 6 + w * 2 + c) as u8
    });
    let made = <Two as Convert<TwoChw>>::gather_new(two.view(), &[2, 0], 1, 0.5)
        .expect("a transpose is made written once");
    let want = Array4::from_shape_fn((3, 2, 2, 3), |(j, c, h, w)| match j {
        0 => (40 + h * 6 + w * 2 + c) as f32,
        1 => (h * 6 + w * 2 + c) as f32,
        _ => 0.5,
    });
    assert_eq!(made, want);
    // A vector split into a `bchw` image: each sample's values, read in `hwc` order, written
    // in `chw` order.
    type Flat = Vector<12, u8>;
    let flat = Array2::from_shape_fn((3, 12), |(i, j)| (i * 20 + j) as u8);
    let made = <Flat as Convert<TwoChw>>::gather_new(flat.view(), &[2, 0], 1, 0.5)
        .expect("a vector split into a bchw image is made written once");
    let want = Array4::from_shape_fn((3, 2, 2, 3), |(j, c, h, w)| match j {
        0 => (40 + h * 6 + w * 2 + c) as f32,
        1 => (h * 6 + w * 2 + c) as f32,
        _ => 0.5,
    });
    assert_eq!(made, want);
    // The inverse: a `bchw` image flattened in `hwc` order.
    let chw = Array4::from_shape_fn((3, 2, 2, 3), |(i, c, h, w)| {
        (i * 20 + h * 6 + w * 2 + c) as u8
    });
    let made =
        <image![2, 3, 2; BCHW, u8] as Convert<Vector<12>>>::gather_new(chw.view(), &[2, 0], 1, 0.5)
            .expect("a bchw image flattened is made written once");
    let want = Array2::from_shape_fn((3, 12), |(j, k)| match j {
        0 => (40 + k) as f32,
        1 => k as f32,
        _ => 0.5,
    });
    assert_eq!(made, want);
    // A vector split into a `bhwc` image: the same runs of values.
    let made = <Flat as Convert<image![2, 3, 2; BHWC, f32]>>::gather_new(flat.view(), &[1], 0, 0.0)
        .expect("a vector split into a bhwc image is made written once");
    assert_eq!(
        made.as_slice().unwrap(),
        flat.row(1).mapv(f32::from).as_slice().unwrap()
    );
}
