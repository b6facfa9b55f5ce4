//! An augmented gather allocates nothing in the steady state: crop, flip, noise, normalize,
//! cutout and mixup write into the provider's reused batch buffer, with no image buffer of their
//! own, and mixing pairs the batch in place.

use batchspec::augment::{Augmentation, Steps};
use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::iteration::{LastBatch, Schedule};
use batchspec::prelude::*;

mod common;

#[global_allocator]
static GLOBAL: common::Counting = common::Counting;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "image")]
    image: Batch<image![12, 12, 3; BHWC, u8]>,
    #[spec(source = "label")]
    label: Batch<Index<10>>,
}

struct Train;
impl Augmentation for Train {
    type Input = image![12, 12, 3; BHWC, u8];
    const STEPS: Steps = Steps::new()
        .reflect_pad(2)
        .random_crop(10, 10)
        .flip_h(0.5)
        .flip_v(0.5)
        .noise(2.0)
        .normalize(&[120.0, 120.0, 120.0], &[60.0, 60.0, 60.0])
        .cutout(4, 0.5)
        .mixup(0.3);
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "image", augment = Train)]
    image: Batch<image![10, 10, 3; BCHW, f32]>,
    #[spec(source = "label", mixed_with = "image")]
    label: Batch<OneHot<10>>,
}

#[test]
fn augmented_epochs_allocate_nothing_after_the_first() {
    let n = 101;
    let ds = Dataset::new(Record {
        image: Batch::new(ndarray::Array4::from_shape_fn(
            (n, 12, 12, 3),
            |(i, h, w, c)| ((i * 31 + h * 7 + w * 3 + c) % 256) as u8,
        ))
        .unwrap(),
        label: Batch::new(ndarray::Array2::from_shape_fn((n, 1), |(i, _)| {
            (i % 10) as i64
        }))
        .unwrap(),
    })
    .unwrap();
    let schedule = Schedule::builder(n)
        .batch_size(16)
        .shuffle(true)
        .seed(3)
        .last_batch(LastBatch::Pad)
        .build()
        .unwrap();
    let mut p = Provider::<Record, Request>::new(&ds, schedule).unwrap();
    let mut checksum = 0.0f32;
    let mut run_epoch = |p: &mut Provider<'_, Record, Request>, e: u64| {
        p.start_epoch(e);
        while let Some(b) = p.next_batch() {
            checksum += b.batch.image.array()[[0, 0, 0, 0]] + b.batch.label.array()[[0, 0]];
        }
    };
    run_epoch(&mut p, 0);
    let before = common::allocations();
    for e in 1..4 {
        run_epoch(&mut p, e);
    }
    assert_eq!(
        common::allocations(),
        before,
        "a steady-state epoch allocated"
    );
    // The batches are augmented (not all zero, and mixed labels are not all one-hot).
    assert!(checksum != 0.0);
}
