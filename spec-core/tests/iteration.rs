//! Index planning: the Pylearn2 and MXNet examples exactly, golden shuffles, and invariants.

// A counting allocator: `unsafe impl GlobalAlloc`, forwarding to `System`.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ops::Range;

use batchspec_core::iteration::{
    DeviceSplit, IndexBatch, Indices, IterationError, IterationMode, LastBatch, Order, Schedule,
    Shard, ShardSplit, below, epoch_rng, permutation, permutation_into, shuffle,
};
use proptest::prelude::*;
use rand::Rng;

// ---------------------------------------------------------------------------------------------
// helpers

fn mode(
    mode: IterationMode,
    n: usize,
    bs: Option<usize>,
    nb: Option<usize>,
) -> Result<Schedule, IterationError> {
    let mut builder = Schedule::builder(n).mode(mode);
    if let Some(bs) = bs {
        builder = builder.batch_size(bs);
    }
    if let Some(nb) = nb {
        builder = builder.num_batches(nb);
    }
    builder.build()
}

fn ranges(schedule: &Schedule, epoch: u64) -> Vec<Range<usize>> {
    schedule
        .epoch(epoch)
        .map(|b| b.indices().as_range().expect("a contiguous batch"))
        .collect()
}

fn lists(schedule: &Schedule, epoch: u64) -> Vec<Vec<usize>> {
    schedule
        .epoch(epoch)
        .map(|b| b.indices().to_vec())
        .collect()
}

/// (indices, count_samples, pad) of every batch of an epoch.
fn summary(schedule: &Schedule, epoch: u64) -> Vec<(Vec<usize>, usize, usize)> {
    schedule
        .epoch(epoch)
        .map(|b| (b.indices().to_vec(), b.count_samples(), b.pad()))
        .collect()
}

fn sequential(n: usize, bs: usize, last: LastBatch) -> Schedule {
    Schedule::builder(n)
        .batch_size(bs)
        .last_batch(last)
        .build()
        .unwrap()
}

// ---------------------------------------------------------------------------------------------
// Pylearn2 iteration modes, n = 10 (seed-systems.md §1.4 item 4)

#[test]
fn pylearn2_sequential_batch_size_3() {
    let s = mode(IterationMode::Sequential, 10, Some(3), None).unwrap();
    assert_eq!(ranges(&s, 0), [0..3, 3..6, 6..9, 9..10]);
    assert_eq!(s.batch_size(), 3);
    assert_eq!(s.num_batches(), Some(4));
    assert_eq!(s.num_examples(), Some(10));
    assert!(s.uneven());
    assert!(!s.stochastic());
    assert!(!s.fancy());
}

#[test]
fn pylearn2_sequential_num_batches_3_gives_batch_size_4() {
    let s = mode(IterationMode::Sequential, 10, None, Some(3)).unwrap();
    assert_eq!(s.batch_size(), 4);
    assert_eq!(ranges(&s, 0), [0..4, 4..8, 8..10]);
    assert_eq!(s.num_batches(), Some(3));
    assert_eq!(s.num_examples(), Some(10));
    assert!(s.uneven());
}

#[test]
fn pylearn2_sequential_batch_size_3_num_batches_2() {
    let s = mode(IterationMode::Sequential, 10, Some(3), Some(2)).unwrap();
    assert_eq!(ranges(&s, 0), [0..3, 3..6]);
    assert_eq!(s.num_batches(), Some(2));
    assert_eq!(s.num_examples(), Some(6));
    assert!(!s.uneven());
}

#[test]
fn pylearn2_sequential_batch_size_3_num_batches_5_is_an_error() {
    let err = mode(IterationMode::Sequential, 10, Some(3), Some(5)).unwrap_err();
    assert_eq!(
        err,
        IterationError::TooManyBatches {
            num_samples: 10,
            batch_size: 3,
            max: 4,
            requested: 5
        }
    );
    assert_eq!(
        err.to_string(),
        "10 samples can only provide 4 batches of size 3, but 5 were requested"
    );
}

#[test]
fn pylearn2_even_sequential_batch_size_3() {
    let s = mode(IterationMode::EvenSequential, 10, Some(3), None).unwrap();
    assert_eq!(ranges(&s, 0), [0..3, 3..6, 6..9]);
    assert_eq!(s.num_batches(), Some(3));
    assert_eq!(s.num_examples(), Some(9));
    assert!(!s.uneven());
}

#[test]
fn pylearn2_even_sequential_num_batches_3_gives_batch_size_3() {
    let s = mode(IterationMode::EvenSequential, 10, None, Some(3)).unwrap();
    assert_eq!(s.batch_size(), 3);
    assert_eq!(ranges(&s, 0), [0..3, 3..6, 6..9]);
    assert_eq!(s.num_examples(), Some(9));
}

#[test]
fn pylearn2_even_sequential_batch_size_4_num_batches_3_is_an_error() {
    let err = mode(IterationMode::EvenSequential, 10, Some(4), Some(3)).unwrap_err();
    assert_eq!(
        err,
        IterationError::TooManyEvenBatches {
            num_samples: 10,
            batch_size: 4,
            max: 2,
            requested: 3
        }
    );
    assert_eq!(
        err.to_string(),
        "10 samples can only provide 2 batches of equal size 4, but 3 were requested"
    );
}

#[test]
fn pylearn2_random_slice_batch_size_11_is_an_error() {
    // Pylearn2 checks for the missing num_batches first, then the size.
    assert_eq!(
        mode(IterationMode::RandomSlice, 10, Some(11), None).unwrap_err(),
        IterationError::MissingNumBatches {
            order: Order::RandomSlice
        }
    );
    let err = mode(IterationMode::RandomSlice, 10, Some(11), Some(1)).unwrap_err();
    assert_eq!(
        err,
        IterationError::SliceLargerThanData {
            batch_size: 11,
            num_samples: 10
        }
    );
    assert_eq!(
        err.to_string(),
        "random_slice needs batch size 11 to fit in the 10 samples"
    );
}

#[test]
fn pylearn2_random_uniform_without_batch_size_is_an_error() {
    let err = mode(IterationMode::RandomUniform, 10, None, Some(2)).unwrap_err();
    assert_eq!(
        err,
        IterationError::MissingBatchSize {
            order: Order::RandomUniform
        }
    );
    assert_eq!(
        err.to_string(),
        "random_uniform iteration needs a batch size, got none"
    );
    assert!(mode(IterationMode::RandomUniform, 10, None, None).is_err());
    assert_eq!(
        mode(IterationMode::RandomUniform, 10, Some(3), None).unwrap_err(),
        IterationError::MissingNumBatches {
            order: Order::RandomUniform
        }
    );
}

#[test]
fn pylearn2_sequential_needs_a_size() {
    let err = mode(IterationMode::Sequential, 10, None, None).unwrap_err();
    assert_eq!(
        err,
        IterationError::MissingSize {
            order: Order::Sequential
        }
    );
    assert_eq!(
        err.to_string(),
        "sequential iteration needs a batch size or a number of batches, got neither"
    );
}

#[test]
fn sequential_num_batches_that_the_derived_batch_size_cannot_fill_is_an_error() {
    // Pylearn2 would report num_batches 6 and serve 5 batches of 2.
    assert_eq!(
        mode(IterationMode::Sequential, 10, None, Some(6)).unwrap_err(),
        IterationError::TooManyBatches {
            num_samples: 10,
            batch_size: 2,
            max: 5,
            requested: 6
        }
    );
    assert_eq!(
        mode(IterationMode::Sequential, 10, None, Some(11)).unwrap_err(),
        IterationError::TooManyBatches {
            num_samples: 10,
            batch_size: 1,
            max: 10,
            requested: 11
        }
    );
    let s = mode(IterationMode::Sequential, 10, None, Some(10)).unwrap();
    assert_eq!(s.batch_size(), 1);
    assert_eq!(s.epoch(0).len(), 10);
}

#[test]
fn sequential_allows_a_batch_size_above_n_as_one_short_batch() {
    let s = mode(IterationMode::Sequential, 10, Some(11), None).unwrap();
    assert_eq!(ranges(&s, 0), vec![0..10; 1]);
    assert_eq!(s.num_examples(), Some(10));
    assert!(s.uneven());
}

#[test]
fn even_modes_reject_batch_size_above_n_and_too_many_batches() {
    assert_eq!(
        mode(IterationMode::EvenSequential, 10, Some(11), None).unwrap_err(),
        IterationError::BatchLargerThanData {
            batch_size: 11,
            num_samples: 10,
            last_batch: LastBatch::Drop
        }
    );
    assert_eq!(
        mode(IterationMode::EvenSequential, 10, None, Some(11)).unwrap_err(),
        IterationError::TooManyEvenBatches {
            num_samples: 10,
            batch_size: 1,
            max: 10,
            requested: 11
        }
    );
    // floor(10 / 4) = 2: four batches of 2, samples 8 and 9 unused.
    let s = mode(IterationMode::EvenSequential, 10, None, Some(4)).unwrap();
    assert_eq!(ranges(&s, 0), [0..2, 2..4, 4..6, 6..8]);
    assert_eq!(s.num_examples(), Some(8));
}

#[test]
fn zero_batches_and_no_samples_are_errors() {
    assert_eq!(
        mode(IterationMode::Sequential, 10, Some(3), Some(0)).unwrap_err(),
        IterationError::ZeroBatches
    );
    assert_eq!(
        mode(IterationMode::Sequential, 0, Some(3), None).unwrap_err(),
        IterationError::NoSamples
    );
    assert_eq!(
        mode(IterationMode::RandomUniform, 0, Some(3), Some(1)).unwrap_err(),
        IterationError::NoSamples
    );
}

#[test]
fn random_modes_serve_full_batches_and_count_with_replacement() {
    let s = mode(IterationMode::RandomUniform, 10, Some(8), Some(3)).unwrap();
    assert_eq!(s.num_examples(), Some(24), "may exceed n");
    assert!(!s.uneven());
    assert!(s.stochastic());
    assert!(s.fancy());
    assert!(
        s.epoch(0)
            .all(|b| b.size() == 8 && b.count_samples() == 8 && b.pad() == 0)
    );

    let s = mode(IterationMode::RandomSlice, 10, Some(10), Some(4)).unwrap();
    assert_eq!(ranges(&s, 5), [0..10, 0..10, 0..10, 0..10]);
    assert!(!s.fancy());
    assert_eq!(
        mode(IterationMode::RandomUniform, 10, Some(usize::MAX), Some(2)).unwrap_err(),
        IterationError::Overflow {
            batch_size: usize::MAX,
            num_batches: 2
        }
    );
}

#[test]
fn modes_parse_from_their_pylearn2_names() {
    for (mode, name) in IterationMode::ALL.into_iter().zip(IterationMode::NAMES) {
        assert_eq!(name.parse::<IterationMode>(), Ok(mode));
        assert_eq!(mode.to_string(), name);
    }
    let err = "shuffled".parse::<IterationMode>().unwrap_err();
    assert_eq!(
        err,
        IterationError::UnknownMode {
            name: "shuffled".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "unknown iteration mode \"shuffled\"; expected one of sequential, shuffled_sequential, \
         batchwise_shuffled_sequential, random_slice, random_uniform, even_sequential, \
         even_shuffled_sequential, even_batchwise_shuffled_sequential"
    );
    assert!("Sequential".parse::<IterationMode>().is_err());
}

#[test]
fn mode_flags_are_pylearn2s() {
    use IterationMode::*;
    let stochastic = [
        ShuffledSequential,
        BatchwiseShuffledSequential,
        RandomSlice,
        RandomUniform,
        EvenShuffledSequential,
        EvenBatchwiseShuffledSequential,
    ];
    let fancy = [ShuffledSequential, RandomUniform, EvenShuffledSequential];
    let uniform = [
        RandomSlice,
        RandomUniform,
        EvenSequential,
        EvenShuffledSequential,
        EvenBatchwiseShuffledSequential,
    ];
    for m in IterationMode::ALL {
        assert_eq!(m.is_stochastic(), stochastic.contains(&m), "{m}");
        assert_eq!(m.is_fancy(), fancy.contains(&m), "{m}");
        assert_eq!(m.has_uniform_batch_size(), uniform.contains(&m), "{m}");
        let s = mode(m, 10, Some(3), Some(3)).unwrap();
        assert_eq!(s.stochastic(), m.is_stochastic(), "{m}");
        assert_eq!(s.fancy(), m.is_fancy(), "{m}");
    }
}

#[test]
fn a_seed_is_accepted_and_ignored_by_sequential_order() {
    let a = Schedule::builder(10)
        .mode(IterationMode::Sequential)
        .batch_size(3)
        .seed(99)
        .build()
        .unwrap();
    let b = mode(IterationMode::Sequential, 10, Some(3), None).unwrap();
    assert_eq!(ranges(&a, 0), ranges(&b, 0));
    assert_eq!(ranges(&a, 0), ranges(&a, 7));
}

// ---------------------------------------------------------------------------------------------
// golden shuffles: these values must never change

#[test]
fn golden_generator_outputs() {
    let mut rng = epoch_rng(0, 0, 0);
    assert_eq!(
        [rng.next_u64(), rng.next_u64(), rng.next_u64()],
        [
            4526510421850589242,
            9596305322356609015,
            10226273489455087555
        ]
    );
    assert_eq!(epoch_rng(42, 1, 2).next_u64(), 1530760600747649480);
    let mut rng = epoch_rng(0, 0, 0);
    let draws: Vec<u64> = (0..10).map(|_| below(&mut rng, 6)).collect();
    assert_eq!(draws, [1, 3, 3, 2, 4, 3, 2, 1, 1, 1]);
}

#[test]
fn golden_permutations() {
    assert_eq!(permutation(10, 0, 0), [5, 6, 0, 1, 3, 7, 9, 8, 4, 2]);
    assert_eq!(permutation(10, 42, 0), [1, 7, 0, 4, 2, 8, 5, 3, 6, 9]);
    assert_eq!(permutation(10, 42, 1), [0, 5, 8, 6, 9, 3, 7, 1, 4, 2]);
    assert_eq!(permutation(10, 7, 3), [3, 1, 2, 8, 7, 6, 4, 0, 9, 5]);
    let mut reused = vec![123; 40];
    permutation_into(&mut reused, 10, 42, 1);
    assert_eq!(reused, permutation(10, 42, 1));
}

#[test]
fn golden_schedules() {
    let seeded = |m| {
        Schedule::builder(10)
            .mode(m)
            .batch_size(3)
            .num_batches(2)
            .seed(42)
    };
    let s = Schedule::builder(10)
        .mode(IterationMode::ShuffledSequential)
        .batch_size(3)
        .seed(42)
        .build()
        .unwrap();
    assert_eq!(
        lists(&s, 0),
        [vec![1, 7, 0], vec![4, 2, 8], vec![5, 3, 6], vec![9]]
    );
    // an unsharded shuffled epoch is `permutation(n, seed, epoch)` cut into batches
    assert_eq!(lists(&s, 1).concat(), permutation(10, 42, 1));

    let s = Schedule::builder(10)
        .mode(IterationMode::BatchwiseShuffledSequential)
        .batch_size(3)
        .seed(42)
        .build()
        .unwrap();
    assert_eq!(ranges(&s, 0), [9..10, 6..9, 3..6, 0..3]);

    let s = seeded(IterationMode::RandomUniform).build().unwrap();
    assert_eq!(lists(&s, 0), [vec![7, 3, 1], vec![0, 7, 1]]);
    let s = seeded(IterationMode::RandomSlice).build().unwrap();
    assert_eq!(ranges(&s, 0), [5..8, 2..5]);
}

#[test]
fn below_is_unbiased_enough_and_total() {
    let mut rng = epoch_rng(1, 2, 3);
    let mut counts = [0usize; 3];
    for _ in 0..30_000 {
        counts[below(&mut rng, 3) as usize] += 1;
    }
    assert!(
        counts.iter().all(|&c| (9_700..10_300).contains(&c)),
        "{counts:?}"
    );
    // a bound just above 2^63 rejects about half the draws
    let bound = (1u64 << 63) + 1;
    assert!((0..1000).all(|_| below(&mut rng, bound) < bound));
    assert_eq!(below(&mut rng, 1), 0);
    assert_eq!(below(&mut rng, 0), 0);
}

// ---------------------------------------------------------------------------------------------
// MXNet last-batch policies (seed-systems.md §4.4)

#[test]
fn mxnet_pad_10_samples_batch_3() {
    let s = sequential(10, 3, LastBatch::Pad);
    let batches: Vec<IndexBatch<'static>> = s.epoch(0).collect();
    let got: Vec<_> = batches
        .iter()
        .map(|b| (b.indices().as_range().unwrap(), b.count_samples(), b.pad()))
        .collect();
    assert_eq!(
        got,
        [(0..3, 3, 0), (3..6, 3, 0), (6..9, 3, 0), (9..10, 1, 2)]
    );
    assert!(batches.iter().all(|b| b.size() == 3));
    assert_eq!(batches[3].fill_rows(), 1..3);
    assert!(batches[3].is_padded());
    assert_eq!(batches[0].fill_rows(), 3..3);
    assert_eq!(s.num_batches(), Some(4));
    assert_eq!(s.num_examples(), Some(10));
    assert!(!s.uneven());
}

#[test]
fn mxnet_batch_size_0_is_one_batch_of_everything() {
    for last in [
        LastBatch::Pad,
        LastBatch::Short,
        LastBatch::Drop,
        LastBatch::RollOver,
    ] {
        let s = sequential(10, 0, last);
        assert_eq!(s.batch_size(), 10, "{last}");
        assert_eq!(summary(&s, 0), [((0..10).collect(), 10, 0)], "{last}");
    }
}

#[test]
fn mxnet_batch_size_above_n_is_an_error() {
    for last in [LastBatch::Pad, LastBatch::Drop, LastBatch::RollOver] {
        let err = Schedule::builder(10)
            .batch_size(11)
            .last_batch(last)
            .build()
            .unwrap_err();
        assert_eq!(
            err,
            IterationError::BatchLargerThanData {
                batch_size: 11,
                num_samples: 10,
                last_batch: last
            }
        );
    }
    let err = Schedule::builder(10)
        .batch_size(11)
        .last_batch(LastBatch::Pad)
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "batch size 11 is larger than the 10 samples; a pad last batch needs at least one full \
         batch (only a short last batch allows this)"
    );
}

#[test]
fn mxnet_15_samples_batch_4() {
    let s = sequential(15, 4, LastBatch::Pad);
    let starts: Vec<_> = s.epoch(0).map(|b| b.indices().get(0).unwrap()).collect();
    assert_eq!(starts, [0, 4, 8, 12]);
    assert_eq!(s.epoch(0).last().unwrap().count_samples(), 3);

    let shuffled = Schedule::builder(15)
        .batch_size(4)
        .last_batch(LastBatch::Pad)
        .shuffle(true)
        .seed(3)
        .build()
        .unwrap();
    for e in 0..3 {
        let mut got: Vec<usize> = shuffled
            .epoch(e)
            .flat_map(|b| b.indices().to_vec())
            .collect();
        assert_ne!(got, (0..15).collect::<Vec<_>>());
        got.sort_unstable();
        assert_eq!(got, (0..15).collect::<Vec<_>>());
    }
}

#[test]
fn mxnet_round_batch_4_rows_batch_3() {
    let s = sequential(4, 3, LastBatch::RollOver);
    // epoch 1 = [r1 r2 r3], [r4 r1 r2] (pad 2, count 1)
    assert_eq!(
        summary(&s, 0),
        [(vec![0, 1, 2], 3, 0), (vec![3, 0, 1], 1, 2)]
    );
    // epoch 2 = [r3 r4 r1] (pad 1)
    assert_eq!(summary(&s, 1), [(vec![2, 3, 0], 2, 1)]);
    // epoch 3 = [r2 r3 r4]
    assert_eq!(summary(&s, 2), [(vec![1, 2, 3], 3, 0)]);
    // epoch 4 repeats epoch 1
    assert_eq!(summary(&s, 3), summary(&s, 0));
    assert_eq!(
        (0..7).map(|e| s.batches_in_epoch(e)).collect::<Vec<_>>(),
        [2, 1, 1, 2, 1, 1, 2]
    );
    assert_eq!(s.num_batches(), None);
    assert_eq!(s.num_examples(), None);
    assert!(s.fancy());
    // the full batches stay contiguous ranges
    assert_eq!(s.epoch(2).next().unwrap().indices().as_range(), Some(1..4));
    // epochs far away are computed directly
    assert_eq!(summary(&s, 3 * 1_000_000_000), summary(&s, 0));
    assert_eq!(summary(&s, u64::MAX), summary(&s, u64::MAX % 3));
}

#[test]
fn round_batch_with_a_dividing_batch_size_is_plain_sequential() {
    let s = sequential(6, 3, LastBatch::RollOver);
    assert_eq!(s.num_batches(), Some(2));
    assert_eq!(s.num_examples(), Some(6));
    assert!(!s.fancy());
    assert_eq!(ranges(&s, 5), [0..3, 3..6]);
}

#[test]
fn round_batch_rules() {
    let rb = || Schedule::builder(10).last_batch(LastBatch::RollOver);
    let err = rb().batch_size(3).num_batches(2).build().unwrap_err();
    assert_eq!(
        err,
        IterationError::NumBatchesWithRollOver { num_batches: 2 }
    );
    assert_eq!(
        err.to_string(),
        "a number of batches (2) cannot be combined with a roll-over last batch, whose epochs \
         differ in length"
    );
    assert_eq!(
        rb().build().unwrap_err(),
        IterationError::RollOverWithoutBatchSize
    );
    assert_eq!(
        rb().batch_size(3)
            .order(Order::BatchwiseShuffled)
            .build()
            .unwrap_err(),
        IterationError::Incompatible {
            order: Order::BatchwiseShuffled,
            last_batch: LastBatch::RollOver
        }
    );
    // with-replacement orders ignore the policy
    let s = rb()
        .order(Order::RandomUniform)
        .batch_size(3)
        .num_batches(4)
        .build()
        .unwrap();
    assert_eq!(s.epoch(0).len(), 4);
}

#[test]
fn the_last_batch_table() {
    let s = |last| summary(&sequential(10, 3, last), 0);
    let full = |r: Range<usize>| (r.collect::<Vec<_>>(), 3, 0);
    let head = [full(0..3), full(3..6), full(6..9)];
    assert_eq!(
        s(LastBatch::Short),
        [&head[..], &[(vec![9], 1, 0)]].concat()
    );
    assert_eq!(s(LastBatch::Pad), [&head[..], &[(vec![9], 1, 2)]].concat());
    assert_eq!(s(LastBatch::Drop), head);
    assert_eq!(
        s(LastBatch::RollOver),
        [&head[..], &[(vec![9, 0, 1], 1, 2)]].concat()
    );
    assert_eq!(
        summary(&sequential(10, 3, LastBatch::RollOver), 1)[0],
        (vec![2, 3, 4], 3, 0)
    );
}

#[test]
fn drop_and_short() {
    assert_eq!(
        ranges(&sequential(10, 3, LastBatch::Drop), 0),
        [0..3, 3..6, 6..9]
    );
    let short = sequential(10, 3, LastBatch::Short);
    assert_eq!(summary(&short, 0).last().unwrap(), &(vec![9], 1, 0));
    assert_eq!(short.epoch(0).len(), 4);
}

// ---------------------------------------------------------------------------------------------
// devices and shards

#[test]
fn mxnet_split_inputs() {
    assert_eq!(
        DeviceSplit::new(10, 3).unwrap().collect::<Vec<_>>(),
        [0..4, 4..7, 7..10]
    );
    assert_eq!(
        DeviceSplit::new(3, 2).unwrap().collect::<Vec<_>>(),
        [0..2, 2..3]
    );
    let err = DeviceSplit::new(2, 3).unwrap_err();
    assert_eq!(
        err,
        IterationError::BatchSmallerThanDevices {
            batch_size: 2,
            devices: 3
        }
    );
    assert_eq!(
        err.to_string(),
        "cannot split a batch of 2 samples across 3 devices: every device needs at least one sample"
    );
    assert_eq!(
        DeviceSplit::new(5, 0).unwrap_err(),
        IterationError::ZeroDevices { batch_size: 5 }
    );
    let split = DeviceSplit::new(10, 3).unwrap();
    assert_eq!(split.len(), 3);
    assert_eq!(split.part(1), Some(4..7));
    assert_eq!(split.part(3), None);
    assert_eq!(split.rev().collect::<Vec<_>>(), [7..10, 4..7, 0..4]);
}

#[test]
fn mxnet_shards_10_over_3() {
    let parts = |split| -> Vec<Range<usize>> {
        (0..3)
            .map(|i| Shard::with_split(i, 3, split).unwrap().range(10))
            .collect()
    };
    assert_eq!(parts(ShardSplit::Floor), [0..3, 3..6, 6..10]);
    assert_eq!(parts(ShardSplit::CeilStep), [0..4, 4..8, 8..10]);
    assert_eq!(Shard::new(0, 3).unwrap().split(), ShardSplit::Floor);
    assert_eq!(
        Shard::with_split(3, 4, ShardSplit::CeilStep)
            .unwrap()
            .range(9),
        9..9
    );
    assert_eq!(
        Shard::with_split(3, 4, ShardSplit::CeilStep)
            .unwrap()
            .range(5),
        5..5
    );
    assert_eq!(Shard::new(0, 0).unwrap_err(), IterationError::ZeroParts);
    let err = Shard::new(3, 3).unwrap_err();
    assert_eq!(
        err,
        IterationError::PartOutOfRange {
            part_index: 3,
            num_parts: 3
        }
    );
    assert_eq!(
        err.to_string(),
        "part index 3 is out of range for 3 parts (expected 0..3)"
    );
}

#[test]
fn a_sharded_schedule_iterates_its_part_only() {
    let shard = Shard::new(2, 3).unwrap();
    let s = Schedule::builder(10)
        .batch_size(3)
        .shard(shard)
        .build()
        .unwrap();
    assert_eq!(s.sample_range(), 6..10);
    assert_eq!(s.num_samples(), 10);
    assert_eq!(ranges(&s, 0), [6..9, 9..10]);

    let shuffled = Schedule::builder(10)
        .batch_size(2)
        .shuffle(true)
        .shard(shard)
        .build()
        .unwrap();
    let mut seen: Vec<usize> = shuffled
        .epoch(4)
        .flat_map(|b| b.indices().to_vec())
        .collect();
    seen.sort_unstable();
    assert_eq!(seen, [6, 7, 8, 9]);

    let empty = Shard::with_split(3, 4, ShardSplit::CeilStep).unwrap();
    let err = Schedule::builder(9)
        .batch_size(1)
        .shard(empty)
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        IterationError::EmptyShard {
            num_samples: 9,
            part_index: 3,
            num_parts: 4,
            split: ShardSplit::CeilStep
        }
    );
    assert_eq!(
        err.to_string(),
        "part 3 of 4 is empty: the ceil-step split of 9 samples gives it no samples"
    );
}

// ---------------------------------------------------------------------------------------------
// the three ways to take batches agree, and epochs are reproducible

#[test]
fn indices_compare_by_content() {
    assert_eq!(Indices::Range(0..3), Indices::List(vec![0, 1, 2].into()));
    assert_ne!(Indices::Range(0..3), Indices::List(vec![0, 2, 1].into()));
    assert_eq!(Indices::Range(3..3), Indices::Range(5..5));
    let list = Indices::List(vec![4, 2].into());
    assert_eq!(list.get(1), Some(2));
    assert_eq!((&list).into_iter().collect::<Vec<_>>(), [4, 2]);
    assert_eq!(Indices::Range(2..5).iter().len(), 3);
}

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// Counts the allocations of the current thread, so parallel tests do not disturb the count.
struct CountingAllocator;

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn steady_state_iteration_allocates_nothing() {
    let schedules = [
        Schedule::builder(1000)
            .batch_size(32)
            .shuffle(true)
            .last_batch(LastBatch::Pad)
            .build()
            .unwrap(),
        Schedule::builder(1000)
            .batch_size(32)
            .shuffle(true)
            .last_batch(LastBatch::RollOver)
            .build()
            .unwrap(),
        Schedule::builder(1000)
            .batch_size(32)
            .last_batch(LastBatch::RollOver)
            .build()
            .unwrap(),
        Schedule::builder(1000)
            .mode(IterationMode::RandomUniform)
            .batch_size(32)
            .num_batches(20)
            .build()
            .unwrap(),
        Schedule::builder(1000)
            .mode(IterationMode::EvenBatchwiseShuffledSequential)
            .batch_size(32)
            .build()
            .unwrap(),
    ];
    for s in &schedules {
        let mut epoch = s.epoch(0);
        let mut out = Vec::new();
        let mut checksum = 0;
        // warm up: the first epochs size the buffers
        for e in 0..2 {
            epoch.restart(e);
            while let Some(b) = epoch.next_batch() {
                checksum += b.indices().iter().sum::<usize>();
            }
            epoch.restart(e);
            while let Some(b) = epoch.next_into(&mut out) {
                checksum += b.count_samples();
            }
        }
        let before = allocations();
        for e in 2..10 {
            epoch.restart(e);
            while let Some(b) = epoch.next_batch() {
                checksum += b.indices().iter().sum::<usize>() + b.pad();
            }
            epoch.restart(e);
            while let Some(b) = epoch.next_into(&mut out) {
                checksum += b.count_samples();
            }
        }
        assert_eq!(
            allocations() - before,
            0,
            "{:?} {:?} (checksum {checksum})",
            s.order(),
            s.last_batch()
        );
    }
    // the counter works: the owned iterator allocates for every index list
    let before = allocations();
    let owned: Vec<_> = schedules[0].epoch(0).collect();
    assert!(allocations() - before > owned.len());
}

// ---------------------------------------------------------------------------------------------
// invariants

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn sequential_family() -> impl Strategy<Value = Order> {
    prop_oneof![
        Just(Order::Sequential),
        Just(Order::Shuffled),
        Just(Order::BatchwiseShuffled)
    ]
}

fn any_order() -> impl Strategy<Value = Order> {
    prop_oneof![
        Just(Order::Sequential),
        Just(Order::Shuffled),
        Just(Order::BatchwiseShuffled),
        Just(Order::RandomSlice),
        Just(Order::RandomUniform)
    ]
}

fn any_last() -> impl Strategy<Value = LastBatch> {
    prop_oneof![
        Just(LastBatch::Short),
        Just(LastBatch::Drop),
        Just(LastBatch::Pad),
        Just(LastBatch::RollOver)
    ]
}

fn any_split() -> impl Strategy<Value = ShardSplit> {
    prop_oneof![Just(ShardSplit::Floor), Just(ShardSplit::CeilStep)]
}

proptest! {
    #[test]
    fn a_shuffle_is_a_permutation(n in 0usize..600, seed: u64, epoch: u64) {
        let mut p = permutation(n, seed, epoch);
        p.sort_unstable();
        prop_assert_eq!(p, (0..n).collect::<Vec<_>>());

        let mut items: Vec<u32> = (0..n as u32).rev().collect();
        shuffle(&mut items, &mut epoch_rng(seed, epoch, 9));
        items.sort_unstable();
        prop_assert_eq!(items, (0..n as u32).collect::<Vec<_>>());
    }

    #[test]
    fn an_epoch_covers_every_sample_once(
        n in 1usize..150,
        bs in 0usize..160,
        order in sequential_family(),
        last in prop_oneof![Just(LastBatch::Short), Just(LastBatch::Pad), Just(LastBatch::Drop)],
        seed: u64,
        epoch in 0u64..1000,
        (num_parts, part_index) in (1usize..5).prop_flat_map(|k| (Just(k), 0..k)),
        split in any_split(),
    ) {
        let shard = Shard::with_split(part_index, num_parts, split).unwrap();
        let range = shard.range(n);
        let built = Schedule::builder(n).batch_size(bs).order(order).last_batch(last).seed(seed).shard(shard).build();
        let len = range.len();
        let bs_eff = if bs == 0 { len } else { bs };
        if len == 0 {
            prop_assert!(matches!(built, Err(IterationError::EmptyShard { .. })), "{:?}", built);
            return Ok(());
        }
        if bs_eff > len && last != LastBatch::Short {
            prop_assert!(matches!(built, Err(IterationError::BatchLargerThanData { .. })), "{:?}", built);
            return Ok(());
        }
        let s = built.unwrap();
        let batches: Vec<_> = s.epoch(epoch).collect();
        prop_assert_eq!(Some(batches.len()), s.num_batches());
        let mut real = Vec::new();
        for (k, b) in batches.iter().enumerate() {
            prop_assert!(b.count_samples() >= 1);
            prop_assert_eq!(b.count_samples(), b.indices().len());
            match last {
                LastBatch::Pad => prop_assert_eq!(b.size(), bs_eff),
                LastBatch::Drop => prop_assert_eq!(b.size(), bs_eff),
                _ => {
                    prop_assert_eq!(b.pad(), 0);
                    prop_assert!(b.size() <= bs_eff);
                    if order != Order::BatchwiseShuffled && k + 1 < batches.len() {
                        prop_assert_eq!(b.size(), bs_eff);
                    }
                }
            }
            real.extend(b.indices().iter());
        }
        let served = real.len();
        prop_assert_eq!(Some(served), s.num_examples());
        real.sort_unstable();
        real.dedup();
        prop_assert_eq!(real.len(), served, "a sample served twice");
        prop_assert!(real.iter().all(|i| range.contains(i)));
        if last == LastBatch::Drop {
            prop_assert_eq!(served, len / bs_eff * bs_eff);
        } else {
            prop_assert_eq!(served, len);
        }
    }

    #[test]
    fn shards_are_disjoint_and_cover_everything(n in 0usize..100_000, k in 1usize..64, split in any_split()) {
        let parts: Vec<_> = (0..k).map(|i| Shard::with_split(i, k, split).unwrap().range(n)).collect();
        prop_assert_eq!(parts[0].start, 0);
        prop_assert_eq!(parts[k - 1].end, n);
        for pair in parts.windows(2) {
            prop_assert_eq!(pair[0].end, pair[1].start);
        }
        prop_assert!(parts.iter().all(|p| p.start <= p.end));
        if split == ShardSplit::Floor {
            let (min, max) = (parts.iter().map(|p| p.len()).min().unwrap(), parts.iter().map(|p| p.len()).max().unwrap());
            prop_assert!(max - min <= 1);
        }
    }

    #[test]
    fn device_splits_are_contiguous_and_balanced(len in 1usize..5000, devices in 1usize..64) {
        let split = DeviceSplit::new(len, devices);
        if devices > len {
            prop_assert!(split.is_err());
            return Ok(());
        }
        let parts: Vec<_> = split.unwrap().collect();
        prop_assert_eq!(parts.len(), devices);
        prop_assert_eq!(parts[0].start, 0);
        prop_assert_eq!(parts[devices - 1].end, len);
        for pair in parts.windows(2) {
            prop_assert_eq!(pair[0].end, pair[1].start);
            prop_assert!(pair[0].len() >= pair[1].len(), "larger parts first");
        }
        let (min, max) = (parts.iter().map(|p| p.len()).min().unwrap(), parts.iter().map(|p| p.len()).max().unwrap());
        prop_assert!(min >= 1 && max - min <= 1);
    }

    #[test]
    fn roll_over_serves_every_sample_equally_often(n in 1usize..40, bs_seed in 0usize..1000, shuffled: bool, seed: u64) {
        let bs = 1 + bs_seed % n;
        let s = Schedule::builder(n).batch_size(bs).shuffle(shuffled).last_batch(LastBatch::RollOver).seed(seed).build().unwrap();
        let epochs = (bs / gcd(n, bs)) as u64; // lcm(n, bs) / n
        let mut times = vec![0usize; n];
        let mut batches = 0;
        let mut stream = Vec::new();
        for e in 0..epochs {
            let mut real = 0;
            for b in s.epoch(e) {
                prop_assert_eq!(b.size(), bs);
                prop_assert_eq!(b.indices().len(), bs);
                real += b.count_samples();
                for i in b.indices() {
                    times[i] += 1;
                    stream.push(i);
                }
                batches += 1;
            }
            prop_assert_eq!(s.batches_in_epoch(e), s.epoch(e).len());
            prop_assert!(real <= n);
        }
        prop_assert!(times.iter().all(|&t| t as u64 == epochs), "{:?}", times);
        prop_assert_eq!(batches * bs, epochs as usize * n);
        if !shuffled {
            // one continuous stream of passes
            prop_assert!(stream.iter().enumerate().all(|(p, &i)| i == p % n));
        }
        // the cycle repeats
        prop_assert_eq!(summary(&s, epochs).len(), summary(&s, 0).len());
        if !shuffled {
            prop_assert_eq!(summary(&s, epochs), summary(&s, 0));
        }
    }

    #[test]
    fn lent_filled_and_owned_batches_agree(
        n in 1usize..120,
        bs in 1usize..130,
        nb in 1usize..12,
        order in any_order(),
        last in any_last(),
        seed: u64,
        epoch in 0u64..50,
    ) {
        let mut builder = Schedule::builder(n).batch_size(bs).order(order).last_batch(last).seed(seed);
        if order.is_with_replacement() {
            builder = builder.num_batches(nb);
        }
        let Ok(s) = builder.build() else { return Ok(()) };
        let owned: Vec<_> = s.epoch(epoch).collect();
        prop_assert_eq!(owned.len(), s.batches_in_epoch(epoch));

        let mut lent = s.epoch(epoch + 7);
        lent.restart(epoch);
        let mut out = vec![usize::MAX; 3];
        let mut filled = s.epoch(epoch);
        for b in &owned {
            let l = lent.next_batch().unwrap().into_owned();
            prop_assert_eq!(&l, b);
            let f = filled.next_into(&mut out).unwrap().into_owned();
            prop_assert_eq!(&f, b);
            prop_assert!(b.indices().iter().all(|i| i < n));
            prop_assert!(b.count_samples() <= b.indices().len() && b.indices().len() <= b.size());
        }
        prop_assert!(lent.next_batch().is_none());
        prop_assert!(filled.next_into(&mut out).is_none());
        if order.is_with_replacement() {
            prop_assert!(owned.iter().all(|b| b.size() == bs && b.pad() == 0));
            if order == Order::RandomSlice {
                prop_assert!(owned.iter().all(|b| b.indices().as_range().is_some()));
            }
        }
    }

    #[test]
    fn pylearn2_size_rules(n in 1usize..200, bs in proptest::option::of(1usize..220), nb in proptest::option::of(1usize..220), m in 0usize..8) {
        let m = IterationMode::ALL[m];
        let got = mode(m, n, bs, nb);
        let ceil = |a: usize, b: usize| a.div_ceil(b);
        let expected: Option<(usize, usize)> = match (m.order().is_with_replacement(), m.last_batch()) {
            (true, _) => match (bs, nb) {
                (Some(b), Some(k)) if !(m == IterationMode::RandomSlice && b > n) => Some((b, k)),
                _ => None,
            },
            (false, LastBatch::Drop) => match (bs, nb) {
                (None, None) => None,
                (None, Some(k)) => (n / k >= 1).then_some((n / k, k)),
                (Some(b), None) => (b <= n).then_some((b, n / b)),
                (Some(b), Some(k)) => (b <= n && k <= n / b).then_some((b, k)),
            },
            (false, _) => match (bs, nb) {
                (None, None) => None,
                (None, Some(k)) => (ceil(n, ceil(n, k)) == k).then_some((ceil(n, k), k)),
                (Some(b), None) => Some((b, ceil(n, b))),
                (Some(b), Some(k)) => (k <= ceil(n, b)).then_some((b, k)),
            },
        };
        match (got, expected) {
            (Ok(s), Some((b, k))) => {
                prop_assert_eq!(s.batch_size(), b);
                prop_assert_eq!(s.num_batches(), Some(k));
                prop_assert_eq!(s.epoch(0).len(), k);
            }
            (Err(_), None) => {}
            (got, expected) => prop_assert!(false, "{:?} vs {:?}", got, expected),
        }
    }
}
