//! Providers: MXNet's and Pylearn2's batch semantics on a dataset, conversions fused into the
//! gather, shards, device splits, prefetch and endless sources.

use batchspec::data::DataError;
use batchspec::data::Dataset;
use batchspec::data::{BatchInfo, Generator, Prefetch, Provider, split_across};
use batchspec::iteration::{LastBatch, Schedule, Shard};
use batchspec::prelude::*;
use ndarray::{Array1, Array2, Array4, array};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(DataSpec)]
struct Mx {
    #[spec(source = "data")]
    data: Batch<Vector<2>>,
    #[spec(source = "softmax_label")]
    label: Batch<Labels<100>>,
}

fn mx(n: usize) -> Dataset<Mx> {
    Dataset::new(Mx {
        data: Batch::new(Array2::from_shape_fn((n, 2), |(i, j)| {
            (10 * (i + 1) + j) as f32
        }))
        .unwrap(),
        label: Batch::new(Array1::from_iter(1..=n as i64)).unwrap(),
    })
    .unwrap()
}

#[test]
fn mxnet_ten_samples_batch_three_padded() {
    let ds = mx(10);
    let schedule = Schedule::builder(10)
        .batch_size(3)
        .last_batch(LastBatch::Pad)
        .build()
        .unwrap();
    let mut p = Provider::<Mx, Mx>::new(&ds, schedule).unwrap();
    let data: Vec<_> = p
        .provide_data()
        .into_iter()
        .map(|d| (d.source, d.dims().unwrap()))
        .collect();
    let label: Vec<_> = p
        .provide_label()
        .into_iter()
        .map(|d| (d.source, d.dims().unwrap()))
        .collect();
    assert_eq!(data, [("data", vec![3, 2])]);
    assert_eq!(label, [("softmax_label", vec![3])]);
    let mut seen = vec![];
    while let Some(b) = p.next_batch() {
        seen.push((
            b.info,
            b.batch.data.array().clone(),
            b.batch.label.array().clone(),
        ));
    }
    let counts: Vec<_> = seen
        .iter()
        .map(|(i, _, _)| (i.count_samples, i.pad))
        .collect();
    assert_eq!(counts, [(3, 0), (3, 0), (3, 0), (1, 2)]);
    assert_eq!(seen[0].1, array![[10f32, 11.], [20., 21.], [30., 31.]]);
    // The last batch: sample 10, then padding of 0.
    assert_eq!(seen[3].1, array![[100f32, 101.], [0., 0.], [0., 0.]]);
    assert_eq!(seen[3].2, array![10i64, 0, 0]);
}

#[test]
fn mxnet_fifteen_samples_batch_four_and_shuffled_labels_are_a_permutation() {
    let ds = mx(15);
    let schedule = Schedule::builder(15)
        .batch_size(4)
        .last_batch(LastBatch::Pad)
        .build()
        .unwrap();
    let mut p = Provider::<Mx, Mx>::new(&ds, schedule).unwrap();
    let mut firsts = vec![];
    let mut last = 0;
    while let Some(b) = p.next_batch() {
        firsts.push(b.batch.label.array()[0]);
        last = b.info.count_samples;
    }
    assert_eq!(firsts, [1, 5, 9, 13]);
    assert_eq!(last, 3);

    let schedule = Schedule::builder(15)
        .batch_size(4)
        .shuffle(true)
        .seed(7)
        .last_batch(LastBatch::Pad)
        .build()
        .unwrap();
    let mut p = Provider::<Mx, Mx>::new(&ds, schedule).unwrap();
    let mut labels = vec![];
    while let Some(b) = p.next_batch() {
        labels.extend(
            b.batch
                .label
                .array()
                .iter()
                .take(b.info.count_samples)
                .copied(),
        );
    }
    assert_ne!(labels, (1..=15).collect::<Vec<i64>>(), "shuffled");
    labels.sort();
    assert_eq!(labels, (1..=15).collect::<Vec<i64>>());
}

/// MXNet's `data_padding` / `label_padding`: the padding rows of the last batch hold a value
/// declared on each field (`#[spec(pad = ..)]`), here through a conversion (labels to one-hot).
#[derive(DataSpec)]
struct MxPadded {
    #[spec(source = "data", pad = -1.5)]
    data: Batch<Vector<2, f64>>,
    #[spec(source = "softmax_label", pad = 99)]
    label: Batch<Labels<100>>,
}

#[test]
fn mxnet_data_padding_and_label_padding() {
    let ds = mx(10);
    let schedule = || {
        Schedule::builder(10)
            .batch_size(4)
            .last_batch(LastBatch::Pad)
            .build()
            .unwrap()
    };
    let expect_last = (
        array![[90f64, 91.], [100., 101.], [-1.5, -1.5], [-1.5, -1.5]],
        array![9i64, 10, 99, 99],
    );
    // Two epochs through one buffer: the padding rows are written again each time, not left
    // from the full batch before them.
    let mut p = Provider::<Mx, MxPadded>::new(&ds, schedule()).unwrap();
    for epoch in 0..2 {
        let mut last = None;
        while let Some(b) = p.next_batch() {
            last = Some((
                b.info,
                b.batch.data.array().clone(),
                b.batch.label.array().clone(),
            ));
        }
        let (info, data, label) = last.unwrap();
        assert_eq!((info.count_samples, info.pad), (2, 2), "epoch {epoch}");
        assert_eq!((data, label), expect_last, "epoch {epoch}");
        p.start_epoch(epoch + 1);
    }
    // The same from a prefetching provider, which fills buffers of its own.
    let mut pre = Prefetch::<MxPadded>::provider::<Mx>(Arc::new(mx(10)), schedule(), 0..2, 2);
    let mut last = None;
    while let Some(b) = pre.next_batch() {
        let b = b.unwrap();
        last = Some((b.data.array().clone(), b.label.array().clone()));
    }
    assert_eq!(last.unwrap(), expect_last);
    // Without `pad`, padding rows are zeros (the test above).
}

/// A pad value that is not a label: refused where the provider is made (a literal one against a
/// literal label count is refused by the compiler: `trybuild/collate/pad-rows-not-a-label.rs`).
#[derive(DataSpec)]
struct MxBadPad {
    #[spec(source = "softmax_label", pad = 100)]
    label: Batch<Labels<{ 50 + 50 }>>,
}

#[test]
fn pad_value_not_a_label_is_refused() {
    let ds = mx(10);
    let schedule = Schedule::builder(10)
        .batch_size(4)
        .last_batch(LastBatch::Pad)
        .build()
        .unwrap();
    let err = Provider::<Mx, MxBadPad>::new(&ds, schedule).err().unwrap();
    assert!(matches!(err, DataError::PadLabel { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "source `softmax_label`: the pad value 100 is not a label in 0..100"
    );
}

#[test]
fn mxnet_round_batch_epochs() {
    let ds = mx(4);
    let schedule = Schedule::builder(4)
        .batch_size(3)
        .last_batch(LastBatch::RollOver)
        .build()
        .unwrap();
    let mut p = Provider::<Mx, Mx>::new(&ds, schedule).unwrap();
    let mut epochs = vec![];
    for e in 0..4 {
        p.start_epoch(e);
        let mut batches = vec![];
        while let Some(b) = p.next_batch() {
            batches.push((b.batch.label.array().to_vec(), b.info.pad));
        }
        epochs.push(batches);
    }
    assert_eq!(epochs[0], [(vec![1, 2, 3], 0), (vec![4, 1, 2], 2)]);
    assert_eq!(epochs[1], [(vec![3, 4, 1], 1)]);
    assert_eq!(epochs[2], [(vec![2, 3, 4], 0)]);
    assert_eq!(epochs[3], epochs[0]);
}

#[test]
fn a_short_last_batch_has_exactly_its_samples() {
    let ds = mx(10);
    let schedule = Schedule::builder(10).batch_size(4).build().unwrap();
    let mut p = Provider::<Mx, Mx>::new(&ds, schedule).unwrap();
    let mut sizes = vec![];
    for e in 0..2 {
        p.start_epoch(e);
        while let Some(b) = p.next_batch() {
            sizes.push(b.batch.validate().unwrap());
        }
    }
    assert_eq!(sizes, [4, 4, 2, 4, 4, 2]);
}

#[test]
fn shards_are_disjoint_and_cover_the_dataset() {
    let ds = mx(10);
    let mut all = vec![];
    for part in 0..3 {
        let schedule = Schedule::builder(10)
            .batch_size(2)
            .shard(Shard::new(part, 3).unwrap())
            .build()
            .unwrap();
        let mut p = Provider::<Mx, Mx>::new(&ds, schedule).unwrap();
        while let Some(b) = p.next_batch() {
            all.extend(
                b.batch
                    .label
                    .array()
                    .iter()
                    .take(b.info.count_samples)
                    .copied(),
            );
        }
    }
    all.sort();
    assert_eq!(all, (1..=10).collect::<Vec<i64>>());
}

#[test]
fn device_splits_follow_mxnet() {
    let ds = mx(10);
    let all = ds.slice(0..10).unwrap();
    let parts: Vec<_> = split_across(&all, 3).unwrap().collect();
    assert_eq!(parts, [0..4, 4..7, 7..10]);
    let three = ds.slice(0..3).unwrap();
    assert_eq!(
        split_across(&three, 2).unwrap().collect::<Vec<_>>(),
        [0..2, 2..3]
    );
    let two = ds.slice(0..2).unwrap();
    assert!(matches!(
        split_across(&two, 3),
        Err(DataError::Iteration(_))
    ));
}

/// MXNet.jl's data parallelism: a batch of 10 over 3 devices is rows 1:4, 5:7 and 8:10; each
/// device gets a view of its rows of every leaf, or a copy into its own buffers (`load_data!`
/// with the data sources, `load_label!` with the labels, here one-hot on the way).
#[test]
fn per_device_loads_follow_mxnet() {
    use batchspec::data::{device_views, load_into_devices};
    #[derive(DataSpec)]
    struct Labels1h {
        #[spec(source = "softmax_label")]
        y: Batch<Vector<100>>,
    }
    let ds = mx(10);
    let batch = ds.slice(0..10).unwrap();
    let views = device_views(&batch, 3).unwrap();
    assert_eq!(views.len(), 3);
    let firsts: Vec<(f32, i64, usize)> = views
        .iter()
        .map(|v| (v.data.array()[[0, 0]], v.label.array()[0], v.label.len()))
        .collect();
    assert_eq!(firsts, [(10.0, 1, 4), (50.0, 5, 3), (80.0, 8, 3)]);

    let mut data: Vec<Mx> = [4, 3, 3]
        .iter()
        .map(|&n| Mx {
            data: Batch::zeros(n, 0),
            label: Batch::zeros(n, 0),
        })
        .collect();
    let split = load_into_devices(&batch, &mut data).unwrap();
    assert_eq!(split.collect::<Vec<_>>(), [0..4, 4..7, 7..10]);
    for (d, rows) in [0..4, 4..7, 7..10].into_iter().enumerate() {
        let want = batch
            .data
            .array()
            .slice(ndarray::s![rows.clone(), ..])
            .to_owned();
        assert_eq!(data[d].data.array(), &want);
        assert_eq!(
            data[d].label.array().to_vec(),
            (rows.start as i64 + 1..=rows.end as i64).collect::<Vec<_>>()
        );
    }
    let mut labels: Vec<Labels1h> = [4, 3, 3]
        .iter()
        .map(|&n| Labels1h {
            y: Batch::zeros(n, 0),
        })
        .collect();
    load_into_devices(&batch, &mut labels).unwrap();
    // Row 0 of device 2 is sample 8 (label 8): one-hot at column 8.
    assert_eq!(labels[2].y.array()[[0, 8]], 1.0);
    assert_eq!(labels[2].y.array().row(0).sum(), 1.0);

    // The errors: a target per device, each of its device's rows; nothing written otherwise.
    let mut two: Vec<Labels1h> = [5, 5]
        .iter()
        .map(|&n| Labels1h {
            y: Batch::zeros(n, 0),
        })
        .collect();
    assert!(load_into_devices(&batch, &mut two).is_ok());
    let mut wrong: Vec<Labels1h> = [4, 4, 2]
        .iter()
        .map(|&n| Labels1h {
            y: Batch::zeros(n, 0),
        })
        .collect();
    let err = load_into_devices(&batch, &mut wrong).unwrap_err();
    assert_eq!(
        err.to_string(),
        "per-device targets: the target of device 1 holds 4 rows; its part of the batch is 3 rows (4..7)"
    );
    assert!(
        wrong[0].y.array().iter().all(|&v| v == 0.0),
        "nothing is written on an error"
    );
    let mut none: Vec<Labels1h> = vec![];
    assert!(load_into_devices(&batch, &mut none).is_err());
    let small = ds.slice(0..2).unwrap();
    assert!(matches!(
        device_views(&small, 3),
        Err(DataError::Iteration(_))
    ));
}

#[derive(DataSpec)]
struct Images {
    #[spec(source = "features")]
    image: Batch<image![2, 2, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<3, 1, u8>>,
}

#[derive(DataSpec)]
struct Wanted {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
    #[spec(source = "targets")]
    y: Batch<Vector<3>>,
}

#[test]
fn the_conversion_is_fused_into_the_gather() {
    let n = 7;
    let ds = Dataset::new(Images {
        image: Batch::new(Array4::from_shape_fn((n, 2, 2, 1), |(i, h, w, _)| {
            (i * 4 + h * 2 + w) as u8
        }))
        .unwrap(),
        label: Batch::new(Array2::from_shape_fn((n, 1), |(i, _)| (i % 3) as u8)).unwrap(),
    })
    .unwrap();
    let schedule = Schedule::builder(n)
        .batch_size(3)
        .shuffle(true)
        .seed(3)
        .build()
        .unwrap();
    let mut p = Provider::<Images, Wanted>::new(&ds, schedule.clone()).unwrap();
    let mut epoch = schedule.epoch(0);
    while let Some(b) = p.next_batch() {
        let rows = epoch.next().unwrap().indices().to_vec();
        let expected = ds.select(&rows).unwrap();
        assert_eq!(b.batch.x, expected.image.format_as::<Vector<4>>());
        assert_eq!(b.batch.y, expected.label.format_as::<Vector<3>>());
    }
}

#[test]
fn prefetch_serves_the_same_batches_over_epochs() {
    let ds = Arc::new(mx(10));
    let schedule = Schedule::builder(10)
        .batch_size(3)
        .shuffle(true)
        .seed(11)
        .last_batch(LastBatch::Pad)
        .build()
        .unwrap();
    let mut p = Prefetch::<Mx>::provider::<Mx>(Arc::clone(&ds), schedule.clone(), 0..5, 2);
    let mut direct = Provider::<Mx, Mx>::new(&ds, schedule).unwrap();
    let mut n = 0;
    for epoch in 0..5 {
        direct.start_epoch(epoch);
        while let Some(d) = direct.next_batch() {
            let b = p.next_batch().unwrap().unwrap();
            assert_eq!(b.info, d.info);
            assert_eq!(b.data, d.batch.data);
            assert_eq!(b.label, d.batch.label);
            n += 1;
        }
    }
    assert!(p.next_batch().is_none());
    assert_eq!(n, 20);
}

#[test]
fn a_worker_error_reaches_the_consumer_and_dropping_stops_the_worker() {
    let calls = Arc::new(AtomicUsize::new(0));
    let c = Arc::clone(&calls);
    let mut p = Prefetch::spawn(
        2,
        || 0u32,
        move |out: &mut u32| {
            let k = c.fetch_add(1, Ordering::SeqCst);
            *out = k as u32;
            if k == 3 {
                return Some(Err(DataError::MinibatchSize));
            }
            Some(Ok(BatchInfo {
                count_samples: 1,
                pad: 0,
            }))
        },
    );
    let mut got = vec![];
    while let Some(b) = p.next_batch() {
        match b {
            Ok(v) => got.push(*v),
            Err(e) => {
                assert_eq!(e, DataError::MinibatchSize);
                break;
            }
        }
    }
    assert_eq!(got, [0, 1, 2]);

    // An endless producer, dropped mid-stream: the drop joins the thread.
    let calls = Arc::new(AtomicUsize::new(0));
    let c = Arc::clone(&calls);
    let mut endless = Prefetch::spawn(
        1,
        || 0u8,
        move |_: &mut u8| {
            c.fetch_add(1, Ordering::SeqCst);
            Some(Ok(BatchInfo {
                count_samples: 1,
                pad: 0,
            }))
        },
    );
    for _ in 0..5 {
        let _ = endless.next_batch().unwrap().unwrap();
    }
    drop(endless);
    // The drop joins a worker that stops within 100 ms (this one does: its next send fails);
    // under a heavy load it may still finish the batch it was making, and no more.
    let after = calls.load(Ordering::SeqCst);
    std::thread::sleep(std::time::Duration::from_millis(200));
    let later = calls.load(Ordering::SeqCst);
    assert!(
        later <= after + 1,
        "the worker went on after the drop: {after} -> {later}"
    );
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert_eq!(calls.load(Ordering::SeqCst), later, "the worker stopped");
}

#[test]
fn an_endless_generator_serves_batches() {
    let mut k = 0.0f32;
    let mut g = Generator::<Wanted, _>::new(2, |out: &mut Wanted| {
        out.x.array_mut().fill(k);
        k += 1.0;
        Some(Ok(BatchInfo {
            count_samples: 2,
            pad: 0,
        }))
    });
    for i in 0..100 {
        let b = g.next_batch().unwrap().unwrap();
        assert_eq!(b.batch.x.array()[[1, 3]], i as f32);
    }
}

#[test]
fn next_owned_gives_away_what_next_batch_lends() {
    // MXNet's 10 samples in batches of 3, every last-batch policy, shuffled: each owned batch
    // equals the lent one (values, rows, padding counts), and a short batch is short.
    for last in [
        LastBatch::Short,
        LastBatch::Pad,
        LastBatch::Drop,
        LastBatch::RollOver,
    ] {
        let ds = mx(10);
        let schedule = Schedule::builder(10)
            .batch_size(3)
            .shuffle(true)
            .seed(9)
            .last_batch(last)
            .build()
            .unwrap();
        let mut lent = Provider::<Mx, Mx>::new(&ds, schedule.clone()).unwrap();
        let mut owned = Provider::<Mx, Mx>::new(&ds, schedule).unwrap();
        for epoch in 0..2 {
            lent.start_epoch(epoch);
            owned.start_epoch(epoch);
            let mut sizes = Vec::new();
            while let Some(b) = lent.next_batch() {
                let (o, info) = owned.next_owned().expect("as many batches");
                assert_eq!(info, b.info, "{last:?}");
                assert_eq!(o.data.array(), b.batch.data.array(), "{last:?}");
                assert_eq!(o.label.array(), b.batch.label.array(), "{last:?}");
                sizes.push(o.data.len());
            }
            assert!(owned.next_owned().is_none());
            let want: &[usize] = match last {
                LastBatch::Short => &[3, 3, 3, 1],
                LastBatch::Pad => &[3, 3, 3, 3],
                _ => &[3, 3, 3],
            };
            if last != LastBatch::RollOver {
                assert_eq!(sizes, want, "{last:?}");
            }
        }
    }
}

/// A producer of `u32` batches numbered from 0 that panics when asked for batch `k`.
fn panicking_at(k: u32) -> impl FnMut(&mut u32) -> Option<Result<BatchInfo, DataError>> + Send {
    let mut next = 0;
    move |out: &mut u32| {
        if next == k {
            panic!("batch {k} failed");
        }
        *out = next;
        next += 1;
        Some(Ok(BatchInfo {
            count_samples: 1,
            pad: 0,
        }))
    }
}

#[test]
fn a_producer_that_panics_is_an_error_after_its_batches_not_the_end() {
    for (ahead, k) in [(1, 0), (1, 3), (4, 3), (usize::MAX, 5)] {
        let mut p = Prefetch::spawn(ahead, || 0u32, panicking_at(k));
        let mut got = vec![];
        let err = loop {
            match p.next_batch() {
                Some(Ok(b)) => got.push(*b),
                Some(Err(e)) => break e,
                None => panic!("the stream ended quietly after {got:?} (ahead {ahead})"),
            }
        };
        assert_eq!(got, (0..k).collect::<Vec<_>>(), "ahead {ahead}");
        assert_eq!(
            err.to_string(),
            format!("the thread producing batches panicked: batch {k} failed")
        );
        assert!(matches!(err, DataError::WorkerPanicked(_)));
        assert!(p.next_batch().is_none(), "the stream ends after the error");
    }
}

#[test]
fn owned_prefetch_gives_what_next_owned_gives_a_short_last_batch_short() {
    // 10 samples in shuffled batches of 3, the last one short (1 sample), over three epochs:
    // the owned prefetch gives the provider's own batches, in order, rows and padding counts.
    let ds = Arc::new(mx(10));
    let schedule = Schedule::builder(10)
        .batch_size(3)
        .shuffle(true)
        .seed(5)
        .last_batch(LastBatch::Short)
        .build()
        .unwrap();
    for ahead in [0, 1, 2, 50] {
        let mut pre =
            Prefetch::<Mx>::owned_provider::<Mx>(Arc::clone(&ds), schedule.clone(), 1..4, ahead);
        let mut direct = Provider::<Mx, Mx>::new(&ds, schedule.clone()).unwrap();
        let mut sizes = vec![];
        for epoch in 1..4 {
            direct.start_epoch(epoch);
            while let Some((want, want_info)) = direct.next_owned() {
                let (got, info) = pre.next_owned().unwrap().unwrap();
                assert_eq!(info, want_info, "ahead {ahead}");
                assert_eq!(got.data, want.data, "ahead {ahead}");
                assert_eq!(got.label, want.label, "ahead {ahead}");
                sizes.push(got.data.len());
            }
        }
        assert!(pre.next_owned().is_none(), "ahead {ahead}");
        assert_eq!(sizes, [3, 3, 3, 1].repeat(3), "ahead {ahead}");
    }
    // A provider that cannot be made (a schedule of another length) is the first item.
    let wrong = Schedule::builder(7).batch_size(3).build().unwrap();
    let mut pre = Prefetch::<Mx>::owned_provider::<Mx>(ds, wrong, 0..1, 2);
    assert!(matches!(
        pre.next_owned(),
        Some(Err(DataError::ScheduleMismatch { .. }))
    ));
    assert!(pre.next_owned().is_none());
}

#[test]
fn owned_batches_in_flight_are_at_most_ahead_plus_one() {
    // A worker that counts the batches it made: however slow the consumer, at most `ahead + 1`
    // are made and not yet taken, and the worker does run that far ahead.
    for ahead in [1, 3] {
        let made = Arc::new(AtomicUsize::new(0));
        let m = Arc::clone(&made);
        let total = 12;
        let mut pre = Prefetch::spawn_owned(ahead, move |feeder| {
            for k in 0..total {
                if !feeder.permit() {
                    return;
                }
                m.fetch_add(1, Ordering::SeqCst);
                let info = BatchInfo {
                    count_samples: 1,
                    pad: 0,
                };
                if !feeder.send(Ok((vec![k as u8; 1 << 16], info))) {
                    return;
                }
            }
        });
        let mut taken = 0;
        loop {
            // Let the worker run as far ahead as it may.
            let reach = (taken + ahead + 1).min(total);
            let started = std::time::Instant::now();
            while made.load(Ordering::SeqCst) < reach
                && started.elapsed() < std::time::Duration::from_secs(5)
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
            let now = made.load(Ordering::SeqCst);
            assert_eq!(now, reach, "ahead {ahead}, {taken} taken");
            let Some(batch) = pre.next_owned() else {
                break;
            };
            let (batch, _) = batch.unwrap();
            assert_eq!(batch[0] as usize, taken, "in order");
            taken += 1;
        }
        assert_eq!(taken, total);
    }
}

#[test]
fn an_owned_producer_that_panics_is_an_error_after_its_batches() {
    let mut pre = Prefetch::spawn_owned(2, |feeder| {
        for k in 0..2u32 {
            let info = BatchInfo {
                count_samples: 1,
                pad: 0,
            };
            if !feeder.permit() || !feeder.send(Ok((k, info))) {
                return;
            }
        }
        panic!("batch 2 failed");
    });
    assert_eq!(pre.next_owned().unwrap().unwrap().0, 0);
    assert_eq!(pre.next_owned().unwrap().unwrap().0, 1);
    let err = pre.next_owned().unwrap().unwrap_err();
    assert!(matches!(err, DataError::WorkerPanicked(_)), "{err}");
    assert_eq!(
        err.to_string(),
        "the thread producing batches panicked: batch 2 failed"
    );
    assert!(pre.next_owned().is_none());
    // Dropped mid-stream, an endless owned producer stops.
    let calls = Arc::new(AtomicUsize::new(0));
    let c = Arc::clone(&calls);
    let mut endless = Prefetch::spawn_owned(1, move |feeder| {
        while feeder.permit() {
            c.fetch_add(1, Ordering::SeqCst);
            let info = BatchInfo {
                count_samples: 1,
                pad: 0,
            };
            if !feeder.send(Ok((0u8, info))) {
                return;
            }
        }
    });
    for _ in 0..5 {
        endless.next_owned().unwrap().unwrap();
    }
    drop(endless);
    let after = calls.load(Ordering::SeqCst);
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert_eq!(calls.load(Ordering::SeqCst), after, "the worker stopped");
}

#[test]
fn a_huge_ahead_allocates_only_the_buffers_in_flight() {
    // `ahead = usize::MAX` neither panics nor makes buffers up front: a stream of 5 batches
    // makes at most 6.
    let made = Arc::new(AtomicUsize::new(0));
    let m = Arc::clone(&made);
    let mut left = 5;
    let mut p = Prefetch::spawn(
        usize::MAX,
        move || {
            m.fetch_add(1, Ordering::SeqCst);
            vec![0u8; 1 << 20]
        },
        move |_: &mut Vec<u8>| {
            if left == 0 {
                return None;
            }
            left -= 1;
            Some(Ok(BatchInfo {
                count_samples: 1,
                pad: 0,
            }))
        },
    );
    let mut n = 0;
    while let Some(b) = p.next_batch() {
        b.unwrap();
        n += 1;
    }
    assert_eq!(n, 5);
    assert!(made.load(Ordering::SeqCst) <= 6, "{made:?}");
    // A small `ahead` recycles: at most 2 buffers for 5 batches taken one by one (1 when the
    // consumer hands each back before the worker wants another).
    let made = Arc::new(AtomicUsize::new(0));
    let m = Arc::clone(&made);
    let mut left = 5;
    let mut p = Prefetch::spawn(
        1,
        move || {
            m.fetch_add(1, Ordering::SeqCst);
            0u8
        },
        move |_: &mut u8| {
            (left > 0).then(|| {
                left -= 1;
                Ok(BatchInfo {
                    count_samples: 1,
                    pad: 0,
                })
            })
        },
    );
    while let Some(b) = p.next_batch() {
        b.unwrap();
    }
    let made = made.load(Ordering::SeqCst);
    assert!((1..=2).contains(&made), "{made} buffers for ahead 1");
}

#[test]
fn dropping_while_the_producer_is_blocked_returns_promptly() {
    let p = Prefetch::spawn(
        1,
        || 0u8,
        |_: &mut u8| {
            // A read that takes long (a stalled file system, a network mount).
            std::thread::sleep(std::time::Duration::from_secs(3));
            Some(Ok(BatchInfo {
                count_samples: 1,
                pad: 0,
            }))
        },
    );
    // The worker is in its read; the consumer gives up without a batch.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let started = std::time::Instant::now();
    drop(p);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "the drop waited {:?}",
        started.elapsed()
    );
}

#[test]
fn a_short_last_batch_lent_short_has_no_padding() {
    let ds = mx(10);
    let schedule = Schedule::builder(10)
        .batch_size(4)
        .last_batch(LastBatch::Short)
        .build()
        .unwrap();
    let mut p = Provider::<Mx, Mx>::new(&ds, schedule.clone()).unwrap();
    let mut infos = vec![];
    while let Some(b) = p.next_batch() {
        infos.push((b.batch.data.len(), b.info.count_samples, b.info.pad));
    }
    assert_eq!(infos, [(4, 4, 0), (4, 4, 0), (2, 2, 0)]);
    // Into a full-size buffer the same batch has two rows of padding after its samples.
    let mut p = Provider::<Mx, Mx>::new(&ds, schedule).unwrap();
    let mut out = Mx {
        data: Batch::new(Array2::zeros((4, 2))).unwrap(),
        label: Batch::new(Array1::zeros(4)).unwrap(),
    };
    let mut pads = vec![];
    while let Some(info) = p.fill_next(&mut out) {
        let info = info.unwrap();
        pads.push((info.count_samples, info.pad));
    }
    assert_eq!(pads, [(4, 0), (4, 0), (2, 2)]);
}
