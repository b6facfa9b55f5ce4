//! A provider's steady state allocates nothing: the batch buffer, the row list and the shuffle
//! order are reused from epoch to epoch.

use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::iteration::{LastBatch, Schedule};
use batchspec::prelude::*;
use ndarray::{Array2, Array4};

mod common;

#[global_allocator]
static GLOBAL: common::Counting = common::Counting;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![4, 4, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<10, 1, u8>>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "features")]
    x: Batch<Vector<16>>,
    #[spec(source = "targets")]
    y: Batch<Vector<10>>,
}

#[test]
fn shuffled_padded_epochs_allocate_nothing_after_the_first() {
    let n = 103;
    let ds = Dataset::new(Record {
        image: Batch::new(Array4::from_shape_fn((n, 4, 4, 1), |(i, h, w, _)| {
            (i + h + w) as u8
        }))
        .unwrap(),
        label: Batch::new(Array2::from_shape_fn((n, 1), |(i, _)| (i % 10) as u8)).unwrap(),
    })
    .unwrap();
    for policy in [LastBatch::Pad, LastBatch::Short, LastBatch::RollOver] {
        let schedule = Schedule::builder(n)
            .batch_size(8)
            .shuffle(true)
            .seed(5)
            .last_batch(policy)
            .build()
            .unwrap();
        let mut p = Provider::<Record, Request>::new(&ds, schedule).unwrap();
        let mut checksum = 0.0f32;
        let mut run_epoch = |p: &mut Provider<'_, Record, Request>, e: u64| {
            p.start_epoch(e);
            while let Some(b) = p.next_batch() {
                checksum += b.batch.x.array()[[0, 0]] + b.batch.y.array()[[0, 0]];
            }
        };
        run_epoch(&mut p, 0);
        run_epoch(&mut p, 1);
        let before = common::allocations();
        for e in 2..6 {
            run_epoch(&mut p, e);
        }
        assert_eq!(
            common::allocations(),
            before,
            "{policy:?}: a steady-state epoch allocated"
        );
        std::hint::black_box(checksum);
    }
    // A control: the counter sees allocations.
    let before = common::allocations();
    drop(std::hint::black_box(Vec::<u8>::with_capacity(8)));
    assert!(common::allocations() > before);
}
