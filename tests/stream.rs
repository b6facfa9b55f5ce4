//! Streams without a length: samples from iterators, through a seeded shuffle buffer, in
//! batches of a request with its collate policies, sharded and prefetched; checked against a
//! plain reference of the same shuffle written here over sample numbers, and against a
//! provider over the same samples.

use batchspec::data::BatchInfo;
use batchspec::data::Dataset;
use batchspec::data::{BatchSource, Stream};
use batchspec::data::{Generator, Provider};
use batchspec::iteration::{LastBatch, Schedule, below, epoch_rng};
use batchspec::prelude::*;
use proptest::prelude::*;

#[derive(DataSpec, Clone)]
struct Sample {
    #[spec(source = "id")]
    id: Batch<Labels<1000>>,
    #[spec(source = "tokens")]
    tokens: Ragged<IndexSeq<1000>>,
}

#[derive(DataSpec)]
struct Padded {
    #[spec(source = "id")]
    id: Batch<Labels<1000>>,
    #[spec(source = "tokens", pad = 999)]
    tokens: Batch<IndexSeq<1000>>,
    #[spec(lengths_of = "tokens")]
    len: Batch<Lengths>,
}

/// Sample `i` has `i % 4` tokens, each `i`.
fn sample(i: usize) -> Sample {
    Sample {
        id: Batch::new(ndarray::array![i as i64]).unwrap(),
        tokens: Ragged::from_flat_samples([vec![i as i64; i % 4]]).unwrap(),
    }
}

/// A chunk of the samples `range`, as one record.
fn chunk(range: std::ops::Range<usize>) -> Sample {
    Sample {
        id: Batch::new(ndarray::Array1::from_iter(range.clone().map(|i| i as i64))).unwrap(),
        tokens: Ragged::from_flat_samples(range.map(|i| vec![i as i64; i % 4])).unwrap(),
    }
}

/// The plain reference of the stream's order: fill a buffer of `buffer` sample numbers, draw
/// one with `below`, `swap_remove` it, refill; batches of `batch`, the last short.
fn reference(
    n: usize,
    keep: impl Fn(usize) -> bool,
    buffer: usize,
    batch: usize,
    seed: u64,
    epoch: u64,
) -> Vec<Vec<usize>> {
    let mut source = (0..n).filter(|&i| keep(i));
    let mut rng = epoch_rng(seed, epoch, 0);
    let mut buf = Vec::new();
    let mut order = Vec::new();
    loop {
        while buf.len() < buffer.max(1) {
            match source.next() {
                Some(i) => buf.push(i),
                None => break,
            }
        }
        if buf.is_empty() {
            break;
        }
        let at = below(&mut rng, buf.len() as u64) as usize;
        order.push(buf.swap_remove(at));
    }
    order.chunks(batch).map(|c| c.to_vec()).collect()
}

/// Checks a served batch against the samples `ids` (padding rows after them).
fn check(b: &Padded, info: BatchInfo, ids: &[usize], rows: usize) {
    assert_eq!(info.count_samples, ids.len());
    assert_eq!(info.pad, rows - ids.len());
    let longest = ids.iter().map(|i| i % 4).max().unwrap_or(0);
    assert_eq!(b.tokens.shape(), [rows, longest]);
    for (j, &i) in ids.iter().enumerate() {
        assert_eq!(b.id.array()[j], i as i64);
        assert_eq!(b.len.array()[j], (i % 4) as i64);
        for t in 0..longest {
            let want = if t < i % 4 { i as i64 } else { 999 };
            assert_eq!(b.tokens.array()[[j, t]], want);
        }
    }
    for j in ids.len()..rows {
        assert_eq!(b.len.array()[j], 0);
    }
}

fn served(stream: &mut Stream<Sample, Padded>) -> Vec<Vec<usize>> {
    let mut out = vec![];
    while let Some(b) = stream.next_batch() {
        let (b, info) = b.unwrap();
        let ids: Vec<usize> =
            b.id.array()
                .iter()
                .take(info.count_samples)
                .map(|&i| i as usize)
                .collect();
        check(b, info, &ids, b.id.len());
        out.push(ids);
    }
    out
}

#[test]
fn in_order_with_each_last_batch_policy() {
    let mut s = Stream::<Sample, Padded>::new(|_| (0..10).map(sample), 4);
    assert_eq!(
        served(&mut s),
        [vec![0, 1, 2, 3], vec![4, 5, 6, 7], vec![8, 9]]
    );
    let mut s = Stream::<Sample, Padded>::new(|_| (0..10).map(sample), 4)
        .last_batch(LastBatch::Drop)
        .unwrap();
    assert_eq!(served(&mut s), [vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
    let mut s = Stream::<Sample, Padded>::new(|_| (0..10).map(sample), 4)
        .last_batch(LastBatch::Pad)
        .unwrap();
    let mut pads = vec![];
    while let Some(b) = s.next_batch() {
        let (b, info) = b.unwrap();
        assert_eq!(b.id.len(), 4);
        pads.push(info.pad);
    }
    assert_eq!(pads, [0, 0, 2]);
    let err = Stream::<Sample, Padded>::new(|_| (0..10).map(sample), 4)
        .last_batch(LastBatch::RollOver)
        .err()
        .unwrap();
    assert!(err.to_string().contains("roll-over"), "{err}");
    // A stream of one pass has nothing in its second epoch.
    let mut once = Stream::<Sample, Padded>::once((0..3).map(sample), 2);
    assert_eq!(served(&mut once).len(), 2);
    once.start_epoch(1);
    assert!(once.next_batch().is_none());
}

#[test]
fn chunks_are_split_and_bad_items_are_errors_naming_them() {
    // Items of 3, 0 (an error), 4 and 1 samples.
    let items = vec![chunk(0..3), chunk(3..3), chunk(3..7), chunk(7..8)];
    let mut s = Stream::<Sample, Padded>::new(move |_| items.clone(), 3);
    let mut got = vec![];
    let mut errors = vec![];
    while let Some(b) = s.next_batch() {
        match b {
            Ok((b, info)) => got.extend(
                b.id.array()
                    .iter()
                    .take(info.count_samples)
                    .map(|&i| i as usize),
            ),
            Err(e) => errors.push(e.to_string()),
        }
    }
    assert_eq!(errors, ["item 1 of the stream holds no samples"]);
    assert_eq!(got, (0..8).collect::<Vec<_>>());

    // A chunk whose leaves disagree, and a failing source.
    let bad = Sample {
        id: Batch::new(ndarray::array![1i64, 2]).unwrap(),
        tokens: Ragged::from_flat_samples([vec![1i64]]).unwrap(),
    };
    let items = vec![sample(0), bad];
    let mut s = Stream::<Sample, Padded>::new(move |_| items.clone(), 1);
    assert!(s.next_batch().unwrap().is_ok());
    let e = s.next_batch().unwrap().err().unwrap();
    assert_eq!(
        e.to_string(),
        "item 1 of the stream: batch sizes differ: `id` has 2 samples but `tokens` has 1"
    );
    let mut s = Stream::<Sample, Padded>::fallible(
        |_| {
            (0..4).map(|i| {
                if i == 2 {
                    Err(std::io::Error::other("disk gone"))
                } else {
                    Ok(sample(i))
                }
            })
        },
        2,
    );
    let mut results = vec![];
    while let Some(r) = s.next_batch() {
        results.push(match r {
            Ok((b, info)) => format!(
                "{:?}",
                &b.id.array().as_slice().unwrap()[..info.count_samples]
            ),
            Err(e) => e.to_string(),
        });
    }
    assert_eq!(
        results,
        ["[0, 1]", "item 2 of the stream: disk gone", "[3]"]
    );
}

#[test]
fn a_sample_that_breaks_a_policy_is_an_error_in_its_batch() {
    #[derive(DataSpec)]
    struct Strict {
        #[spec(source = "tokens", pad_to = 2)]
        tokens: Batch<IndexSeq<1000>>,
    }
    let mut s = Stream::<Sample, Strict>::new(|_| (0..8).map(sample), 2);
    let mut results = vec![];
    while let Some(r) = s.next_batch() {
        results.push(r.is_ok());
    }
    // Samples 3 and 7 have 3 tokens: their batches (the second and the fourth) fail, the
    // others are served.
    assert_eq!(results, [true, false, true, false]);
}

#[test]
fn a_stream_in_order_serves_what_a_provider_serves() {
    let n = 23;
    let ds = Dataset::new(chunk(0..n)).unwrap();
    let schedule = Schedule::builder(n).batch_size(5).build().unwrap();
    let mut p = Provider::<Sample, Padded>::new(&ds, schedule).unwrap();
    let mut s = Stream::<Sample, Padded>::new(move |_| (0..n).map(sample), 5);
    while let Some(a) = p.next_batch() {
        let (b, info) = s.next_batch().unwrap().unwrap();
        assert_eq!(a.info, info);
        assert_eq!(a.batch.tokens.array(), b.tokens.array());
        assert_eq!(a.batch.len.array(), b.len.array());
        assert_eq!(a.batch.id.array(), b.id.array());
    }
    assert!(s.next_batch().is_none());
}

#[test]
fn prefetched_epochs_are_the_streams_own() {
    let make = |_: u64| (0..17).map(sample);
    let mut plain = Stream::<Sample, Padded>::new(make, 4).shuffle(6, 3);
    let mut want = vec![];
    for e in 0..2 {
        plain.start_epoch(e);
        want.extend(served(&mut plain));
    }
    let stream = Stream::<Sample, Padded>::new(make, 4).shuffle(6, 3);
    let mut pre = stream.prefetch(2, 0..2);
    let mut got = vec![];
    while let Some(b) = pre.next_batch() {
        let b = b.unwrap();
        let ids: Vec<usize> =
            b.id.array()
                .iter()
                .take(b.info.count_samples)
                .map(|&i| i as usize)
                .collect();
        check(&b, b.info, &ids, 4);
        got.push(ids);
    }
    assert_eq!(got, want);
}

/// Generic training code takes a provider, a stream, a prefetched stream and a generator.
#[test]
fn one_trait_for_every_source_of_batches() {
    fn count<B: BatchSource<Padded>>(b: &mut B) -> usize {
        let mut n = 0;
        while let Some(r) = b.next_batch() {
            n += r.unwrap().1.count_samples;
        }
        n
    }
    let ds = Dataset::new(chunk(0..9)).unwrap();
    let schedule = Schedule::builder(9).batch_size(4).build().unwrap();
    assert_eq!(
        count(&mut Provider::<Sample, Padded>::new(&ds, schedule).unwrap()),
        9
    );
    assert_eq!(
        count(&mut Stream::<Sample, Padded>::new(
            |_| (0..9).map(sample),
            4
        )),
        9
    );
    assert_eq!(
        count(&mut Stream::<Sample, Padded>::new(|_| (0..9).map(sample), 4).prefetch(1, 0..1)),
        9
    );
    let mut left = 2;
    let mut generator = Generator::<Padded, _>::new(4, move |_out: &mut Padded| {
        (left > 0).then(|| {
            left -= 1;
            Ok(BatchInfo {
                count_samples: 4,
                pad: 0,
            })
        })
    });
    assert_eq!(count(&mut generator), 8);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any number of samples in chunks of any size, any buffer, batch, seed, epoch and shard:
    /// the batches are those of the plain reference, the same again for the same epoch, and
    /// the shards together serve every sample once.
    #[test]
    fn shuffled_sharded_streams_match_the_reference(
        n in 1usize..60,
        chunk_size in 1usize..7,
        buffer in 0usize..20,
        batch in 1usize..8,
        seed in 0u64..50,
        epoch in 0u64..3,
        ranks in 1usize..4,
    ) {
        let mut all = vec![];
        for rank in 0..ranks {
            let make = move |_: u64| {
                (0..n).step_by(chunk_size).map(move |s| chunk(s..(s + chunk_size).min(n))).collect::<Vec<_>>()
            };
            let mut s = Stream::<Sample, Padded>::new(make, batch)
                .shuffle(buffer, seed)
                .shard(rank, ranks)
                .unwrap();
            s.start_epoch(epoch);
            let got = served(&mut s);
            prop_assert_eq!(&got, &reference(n, |i| i % ranks == rank, buffer, batch, seed, epoch));
            s.start_epoch(epoch);
            prop_assert_eq!(&served(&mut s), &got);
            all.extend(got.into_iter().flatten());
        }
        all.sort();
        prop_assert_eq!(all, (0..n).collect::<Vec<_>>());
    }
}

/// A prefetching stream of one buffer ahead serves every epoch: the buffer taken when an epoch
/// has no batch left is kept for the next (a lost buffer would leave the worker waiting for it
/// forever; the test fails after 20 s instead of hanging).
#[test]
fn a_prefetched_stream_of_one_buffer_ahead_serves_every_epoch() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut pre = Stream::<Sample, Padded>::new(|_| (0..5).map(sample), 2).prefetch(1, 0..6);
        let mut served = 0;
        while let Some(b) = pre.next_batch() {
            served += b.unwrap().info.count_samples;
        }
        let _ = tx.send(served);
    });
    let served = rx
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("the prefetching stream stalled");
    assert_eq!(served, 30);
}
