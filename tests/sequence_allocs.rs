//! Padding ragged sequences allocates nothing in the steady state: once a provider's buffers
//! have held the longest batch, every later batch, shorter or as long, reuses their memory
//! (the time axis changes shape within the capacity already there). (A `Ragged` request field
//! is not padded: its values grow to the most steps a batch has held in all, which can grow
//! again in a later epoch.)

use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::iteration::{LastBatch, Schedule};
use batchspec::prelude::*;

mod common;

#[global_allocator]
static GLOBAL: common::Counting = common::Counting;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "tokens")]
    tokens: Ragged<IndexSeq<100, BT, u16>>,
    #[spec(source = "frames")]
    frames: Ragged<VectorSeq<8>>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "tokens", pad = 99)]
    tokens: Batch<IndexSeq<100, TB>>,
    #[spec(lengths_of = "tokens")]
    len: Batch<Lengths>,
    #[spec(mask_of = "tokens")]
    mask: Batch<Mask<TB>>,
    #[spec(source = "frames")]
    frames: Batch<VectorSeq<8, TBF>>,
}

#[test]
fn shuffled_padded_epochs_allocate_nothing_once_the_longest_batch_is_seen() {
    let n = 203;
    // Lengths 1..64 in a scrambled order.
    let lengths: Vec<usize> = (0..n).map(|i| (i * 37) % 64 + 1).collect();
    let tokens: Vec<Vec<u16>> = lengths
        .iter()
        .enumerate()
        .map(|(i, &l)| (0..l).map(|t| ((i + t) % 100) as u16).collect())
        .collect();
    let frames: Vec<Vec<f32>> = lengths
        .iter()
        .map(|&l| (0..8 * l).map(|v| v as f32).collect())
        .collect();
    let ds = Dataset::new(Record {
        tokens: Ragged::from_flat_samples(&tokens).unwrap(),
        frames: Ragged::from_flat_samples(&frames).unwrap(),
    })
    .unwrap();
    for policy in [LastBatch::Pad, LastBatch::RollOver] {
        let schedule = Schedule::builder(n)
            .batch_size(16)
            .shuffle(true)
            .seed(9)
            .last_batch(policy)
            .build()
            .unwrap();
        let mut p = Provider::<Record, Request>::new(&ds, schedule).unwrap();
        let mut checksum = 0.0f32;
        // The time steps seen (a fixed table: the test itself must not allocate).
        let mut steps = [false; 65];
        let mut run_epoch = |p: &mut Provider<'_, Record, Request>, e: u64| {
            p.start_epoch(e);
            while let Some(b) = p.next_batch() {
                steps[b.batch.tokens.shape()[0]] = true;
                checksum += b.batch.frames.array()[[0, 0, 0]] + b.batch.mask.array()[[0, 0]];
                checksum += b.batch.len.array()[0] as f32;
            }
        };
        // Every epoch holds the longest sample: after one, the buffers have its size.
        run_epoch(&mut p, 0);
        let before = common::allocations();
        for e in 1..5 {
            run_epoch(&mut p, e);
        }
        assert_eq!(
            common::allocations(),
            before,
            "{policy:?}: a steady-state epoch allocated"
        );
        // The batches did change length (this is not a test of one shape).
        assert!(steps.iter().filter(|&&s| s).count() > 3, "{steps:?}");
        std::hint::black_box(checksum);
    }
}
