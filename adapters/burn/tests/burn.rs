//! The burn adapter against hand-computed tensors (values, shapes, dtypes, layouts), burn's own
//! `DataLoader` and `Batcher` contracts, and the plain batchspec provider as the reference order.

use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::iteration::{LastBatch, Schedule, Shard};
use batchspec::prelude::*;
use batchspec_burn::{IntoTensors, SpecBatcher, SpecLoader, Tensors};
use burn::data::dataloader::batcher::Batcher;
use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
use burn::data::dataset::{Dataset as BurnDataset, InMemDataset};
use burn::tensor::{DType, Device, Int, Tensor};
use std::sync::Arc;

#[derive(DataSpec, Clone, Debug)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![2, 3, 2; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<4, 1, u8>>,
}

/// What a convolutional model asks for: channels first, floats, one label per sample.
#[derive(DataSpec)]
struct Conv {
    #[spec(source = "features")]
    image: Batch<image![2, 3, 2; BCHW, f32]>,
    #[spec(source = "targets")]
    label: Batch<Index<4, 1, i64>>,
}

/// The record as stored, and one-hot labels.
#[derive(DataSpec)]
struct Raw {
    #[spec(source = "features")]
    image: Batch<image![2, 3, 2; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<OneHot<4>>,
}

fn pixel(b: usize, h: usize, w: usize, c: usize) -> u8 {
    (b * 12 + h * 6 + w * 2 + c) as u8
}

fn record(n: usize) -> Record {
    Record {
        image: Batch::new(ndarray::Array4::from_shape_fn(
            (n, 2, 3, 2),
            |(b, h, w, c)| pixel(b, h, w, c),
        ))
        .unwrap(),
        label: Batch::new(ndarray::Array2::from_shape_fn((n, 1), |(b, _)| {
            (b % 4) as u8
        }))
        .unwrap(),
    }
}

fn device() -> Device {
    Device::flex()
}

/// The device's integer dtype, from a tensor made without one.
fn int_dtype() -> DType {
    Tensor::<1, Int>::from_data([0i64], &device()).dtype()
}

#[test]
fn a_request_becomes_tensors_of_its_layout_rank_and_dtype() {
    let ds = Dataset::new(record(3)).unwrap();
    let schedule = Schedule::builder(3).batch_size(3).build().unwrap();
    let mut p = Provider::<Record, Conv>::new(&ds, schedule).unwrap();
    let (conv, _) = p.next_owned().unwrap();
    let t: Tensors<Conv> = conv.into_tensors(&device());
    let image: Tensor<4> = t.image;
    let label: Tensor<2, Int> = t.label;
    assert_eq!(image.dims(), [3, 2, 2, 3]);
    assert_eq!(image.dtype(), DType::F32);
    assert_eq!(label.dims(), [3, 1]);
    // Labels take the device's integer dtype (flex: i32), whatever the request's label type.
    assert_eq!(label.dtype(), int_dtype());
    assert_eq!(int_dtype(), DType::I32);
    // bchw, by hand: element [b, c, h, w] is the stored pixel (b, h, w, c).
    let mut want = Vec::new();
    for b in 0..3 {
        for c in 0..2 {
            for h in 0..2 {
                for w in 0..3 {
                    want.push(pixel(b, h, w, c) as f32);
                }
            }
        }
    }
    assert_eq!(image.into_data().try_to_vec::<f32>().unwrap(), want);
    assert_eq!(label.into_data().try_to_vec::<i32>().unwrap(), [0, 1, 2]);
}

#[test]
fn u8_stays_u8_and_one_hot_is_float() {
    let ds = Dataset::new(record(2)).unwrap();
    let schedule = Schedule::builder(2).batch_size(2).build().unwrap();
    let mut p = Provider::<Record, Raw>::new(&ds, schedule).unwrap();
    let (raw, _) = p.next_owned().unwrap();
    let t = raw.into_tensors(&device());
    let image: Tensor<4, Int> = t.image;
    assert_eq!(image.dtype(), DType::U8);
    assert_eq!(image.dims(), [2, 2, 3, 2]);
    let want: Vec<u8> = (0..24).map(|i| i as u8).collect();
    assert_eq!(image.into_data().try_to_vec::<u8>().unwrap(), want);
    let label: Tensor<2> = t.label;
    assert_eq!(label.dtype(), DType::F32);
    assert_eq!(
        label.into_data().try_to_vec::<f32>().unwrap(),
        [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    );
}

#[test]
fn tuples_and_f64_keep_their_structure_and_dtype() {
    let x = Batch::<Vector<2, f64>>::new(ndarray::array![[1.0, 2.0], [3.0, 4.0]]).unwrap();
    let y = Batch::<Labels<5, i32>>::new(ndarray::array![4, 0]).unwrap();
    let (tx, ty): (Tensor<2>, Tensor<1, Int>) = (x, y).into_tensors(&device());
    assert_eq!(tx.dtype(), DType::F64);
    assert_eq!(
        tx.into_data().try_to_vec::<f64>().unwrap(),
        [1.0, 2.0, 3.0, 4.0]
    );
    assert_eq!(ty.dtype(), int_dtype());
    assert_eq!(ty.into_data().try_to_vec::<i32>().unwrap(), [4, 0]);
    // u8 labels are widened to the device's dtype; u8 data that is not labels stays u8.
    let y = Batch::<Labels<5, u8>>::new(ndarray::array![3u8, 1]).unwrap();
    let ty: Tensor<1, Int> = y.into_tensors(&device());
    assert_eq!(ty.dtype(), int_dtype());
    assert_eq!(ty.into_data().try_to_vec::<i32>().unwrap(), [3, 1]);
}

/// The labels of every batch of one `iter()` (an epoch).
fn epoch_labels(loader: &dyn DataLoader<Tensors<Conv>>) -> Vec<Vec<i64>> {
    loader
        .iter()
        .map(|b| {
            let l = b.unwrap().label.into_data().try_to_vec::<i32>().unwrap();
            l.into_iter().map(i64::from).collect()
        })
        .collect()
}

/// `each` of every batch of epoch `epoch` from the plain provider: the reference order.
fn provider_epoch<T>(
    ds: &Dataset<Record>,
    schedule: &Schedule,
    epoch: u64,
    each: impl Fn(&Conv) -> T,
) -> Vec<T> {
    let mut p = Provider::<Record, Conv>::new(ds, schedule.clone()).unwrap();
    p.start_epoch(epoch);
    let mut out = Vec::new();
    while let Some(b) = p.next_batch() {
        out.push(each(b.batch));
    }
    out
}

/// The labels of each batch of an epoch from the plain provider.
fn provider_labels(ds: &Dataset<Record>, schedule: &Schedule, epoch: u64) -> Vec<Vec<i64>> {
    provider_epoch(ds, schedule, epoch, |b| {
        b.label.array().iter().copied().collect()
    })
}

/// A record whose label is the sample's index, so that batches show which samples they hold.
fn indexed(n: usize) -> Dataset<Record> {
    let mut r = record(n);
    r.label = Batch::new(ndarray::Array2::from_shape_fn((n, 1), |(b, _)| {
        (b % 4) as u8
    }))
    .unwrap();
    Dataset::new(r).unwrap()
}

/// The samples of each batch of an epoch's tensors, read from the images (the first value of
/// sample `b`'s image is `pixel(b, 0, 0, 0)`, 12 values a sample).
fn samples_of(batches: impl Iterator<Item = Tensors<Conv>>) -> Vec<Vec<usize>> {
    batches
        .map(|b| {
            let v = b.image.into_data().try_to_vec::<f32>().unwrap();
            samples(&v)
        })
        .collect()
}

/// The samples of a batch's images, `bchw f32` values in order.
fn samples(values: &[f32]) -> Vec<usize> {
    values.chunks(12).map(|s| s[0] as usize / 12).collect()
}

/// The samples of each batch of an epoch from the plain provider.
fn provider_samples(ds: &Dataset<Record>, schedule: &Schedule, epoch: u64) -> Vec<Vec<usize>> {
    provider_epoch(ds, schedule, epoch, |b| {
        let v: Vec<f32> = b.image.array().iter().copied().collect();
        samples(&v)
    })
}

#[test]
fn epochs_left_early_or_served_side_by_side_are_each_the_schedules() {
    // The loader keeps the provider of an epoch served on the caller's thread, and the worker of
    // a prefetched epoch read to its end (it runs on into the next epoch), for the next `iter()`:
    // whatever an epoch left them in, the next epoch is whole, two epochs at once (a clone's
    // beside the loader's) are each their own, and an epoch asked for out of turn is that
    // epoch. Also with a roll-over schedule, whose epochs have different numbers of batches.
    let ds = Arc::new(Dataset::new(record(21)).unwrap());
    for last_batch in [LastBatch::Short, LastBatch::RollOver] {
        let schedule = Schedule::builder(21)
            .batch_size(4)
            .shuffle(true)
            .seed(5)
            .last_batch(last_batch)
            .build()
            .unwrap();
        for ahead in [0, 1, 3] {
            let loader = SpecLoader::<Record, Conv>::new(ds.clone(), schedule.clone(), &device())
                .unwrap()
                .prefetch(ahead);
            check_epochs(
                &ds,
                &schedule,
                &loader,
                &format!("{last_batch:?}, ahead {ahead}"),
            );
        }
    }
    // Epochs differ (the test can tell them apart), and so do the roll-over's lengths.
    let schedule = Schedule::builder(21).batch_size(4).shuffle(true).seed(5);
    let short = schedule.clone().build().unwrap();
    assert_ne!(
        provider_samples(&ds, &short, 3),
        provider_samples(&ds, &short, 4)
    );
    let roll = schedule.last_batch(LastBatch::RollOver).build().unwrap();
    let lengths: Vec<usize> = (0..4)
        .map(|e| provider_samples(&ds, &roll, e).len())
        .collect();
    assert!(lengths.iter().any(|&n| n != lengths[0]), "{lengths:?}");
}

/// The epochs of `loader` (fresh, at epoch 0) in the orders of the checks above.
fn check_epochs(
    ds: &Dataset<Record>,
    schedule: &Schedule,
    loader: &SpecLoader<Record, Conv>,
    what: &str,
) {
    let whole = |it: Box<dyn burn::data::dataloader::DataLoaderIterator<Tensors<Conv>>>| {
        samples_of(it.map(|b| b.unwrap()))
    };
    assert_eq!(
        whole(loader.iter()),
        provider_samples(ds, schedule, 0),
        "{what}"
    );
    // Epoch 1 left after two batches.
    let mut left = loader.iter();
    let firsts = samples_of(left.by_ref().take(2).map(|b| b.unwrap()));
    assert_eq!(firsts, provider_samples(ds, schedule, 1)[..2], "{what}");
    drop(left);
    assert_eq!(
        whole(loader.iter()),
        provider_samples(ds, schedule, 2),
        "{what}"
    );
    // Epoch 3 (the loader's) and 4 (a clone's, asked for while 3 is served), interleaved.
    let other = loader.clone();
    let mut three = loader.iter();
    let mut four = other.iter();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    loop {
        let (x, y) = (three.next(), four.next());
        if x.is_none() && y.is_none() {
            break;
        }
        a.extend(x.map(|t| t.unwrap()));
        b.extend(y.map(|t| t.unwrap()));
    }
    drop((three, four));
    for (batches, epoch) in [(a, 3), (b, 4)] {
        assert_eq!(
            samples_of(batches.into_iter()),
            provider_samples(ds, schedule, epoch),
            "{what}, epoch {epoch}"
        );
    }
    // The epochs after them, from whichever provider or worker was kept.
    for epoch in 5..8 {
        let it = if epoch % 2 == 0 {
            loader.iter()
        } else {
            other.iter()
        };
        assert_eq!(
            whole(it),
            provider_samples(ds, schedule, epoch),
            "{what}, epoch {epoch}"
        );
    }
    // After a whole epoch (whose worker ran on into epoch 8), epoch 11 asked for, then 12.
    loader.start_epoch(11);
    for epoch in [11, 12] {
        assert_eq!(
            whole(loader.iter()),
            provider_samples(ds, schedule, epoch),
            "{what}, epoch {epoch}"
        );
    }
}

#[test]
fn each_iter_is_the_next_epoch_in_the_providers_order_with_or_without_prefetch() {
    let ds = Arc::new(indexed(10));
    let schedule = Schedule::builder(10)
        .batch_size(4)
        .shuffle(true)
        .seed(3)
        .build()
        .unwrap();
    let plain = SpecLoader::<Record, Conv>::new(ds.clone(), schedule.clone(), &device()).unwrap();
    let ahead = SpecLoader::<Record, Conv>::new(ds.clone(), schedule.clone(), &device())
        .unwrap()
        .prefetch(2);
    for epoch in 0..3 {
        let want = provider_labels(&ds, &schedule, epoch);
        assert_eq!(epoch_labels(&plain), want, "epoch {epoch}");
        assert_eq!(epoch_labels(&ahead), want, "epoch {epoch}, prefetched");
    }
    // Epochs differ (a fresh shuffle each), and a batch's images follow its labels.
    assert_ne!(
        provider_labels(&ds, &schedule, 0),
        provider_labels(&ds, &schedule, 1)
    );
    plain.start_epoch(1);
    assert_eq!(epoch_labels(&plain), provider_labels(&ds, &schedule, 1));
    // An epoch left after its first batch stops its thread (the drop returns).
    for _ in 0..20 {
        assert!(ahead.iter().next().is_some());
    }
}

#[test]
fn images_follow_their_samples_through_a_shuffled_epoch() {
    let ds = Arc::new(indexed(9));
    let schedule = Schedule::builder(9)
        .batch_size(4)
        .shuffle(true)
        .seed(11)
        .build()
        .unwrap();
    let loader = SpecLoader::<Record, Conv>::new(ds, schedule, &device())
        .unwrap()
        .prefetch(1);
    let mut seen = Vec::new();
    for batch in loader.iter() {
        let batch = batch.unwrap();
        let n = batch.image.dims()[0];
        let values = batch.image.into_data().try_to_vec::<f32>().unwrap();
        for k in 0..n {
            // The first value of sample k is pixel (b, 0, 0, 0) = 12 b.
            let b = values[k * 12] as usize / 12;
            assert_eq!(values[k * 12 + 1], pixel(b, 0, 1, 0) as f32);
            seen.push(b);
        }
    }
    seen.sort();
    assert_eq!(seen, (0..9).collect::<Vec<_>>());
}

#[test]
fn shards_progress_slices_and_devices() {
    let ds = Arc::new(indexed(10));
    let mut all = Vec::new();
    for part in 0..2 {
        let schedule = Schedule::builder(10)
            .batch_size(3)
            .shard(Shard::new(part, 2).unwrap())
            .build()
            .unwrap();
        let loader = SpecLoader::<Record, Conv>::new(ds.clone(), schedule, &device()).unwrap();
        assert_eq!(loader.num_items(), 5);
        let mut it = loader.iter();
        let mut items = 0;
        while let Some(b) = it.next() {
            let b = b.unwrap();
            items += b.image.dims()[0];
            assert_eq!(it.progress().items_processed, items);
            assert_eq!(it.progress().items_total, 5);
            all.push(b.image.into_data().try_to_vec::<f32>().unwrap()[0] as usize / 12);
        }
        assert!(it.progress().is_completed());
    }
    // Every sample once, each first pixel in sample order: 0, 3, 5, 8 start the batches.
    assert_eq!(all, [0, 3, 5, 8]);

    let schedule = Schedule::builder(10).batch_size(2).build().unwrap();
    let loader = SpecLoader::<Record, Conv>::new(ds, schedule, &device()).unwrap();
    let part = loader.slice(3, 8);
    assert_eq!(part.num_items(), 5);
    let firsts: Vec<usize> = part
        .iter()
        .map(|b| b.unwrap().image.into_data().try_to_vec::<f32>().unwrap()[0] as usize / 12)
        .collect();
    assert_eq!(firsts, [3, 5, 7]);
    assert_eq!(loader.slice(8, 100).num_items(), 2);
    assert_eq!(loader.slice(5, 5).num_items(), 0);
    assert_eq!(loader.slice(5, 5).iter().count(), 0);
    let moved = loader.to_device(&device());
    assert_eq!(moved.num_items(), 10);
    assert_eq!(moved.iter().count(), 5);
}

#[test]
fn last_batch_policies_reach_the_tensors() {
    let ds = Arc::new(indexed(10));
    let sizes = |lb: LastBatch| -> Vec<usize> {
        let schedule = Schedule::builder(10)
            .batch_size(4)
            .last_batch(lb)
            .build()
            .unwrap();
        let loader = SpecLoader::<Record, Conv>::new(ds.clone(), schedule, &device()).unwrap();
        loader.iter().map(|b| b.unwrap().image.dims()[0]).collect()
    };
    assert_eq!(sizes(LastBatch::Short), [4, 4, 2]);
    assert_eq!(sizes(LastBatch::Drop), [4, 4]);
    assert_eq!(sizes(LastBatch::Pad), [4, 4, 4]);
}

#[test]
fn a_loader_for_another_number_of_samples_is_refused() {
    let ds = Arc::new(indexed(10));
    let schedule = Schedule::builder(12).batch_size(4).build().unwrap();
    let err = SpecLoader::<Record, Conv>::new(ds, schedule, &device())
        .err()
        .unwrap();
    assert!(err.to_string().contains("12"), "{err}");
}

#[test]
fn the_batcher_stacks_burn_dataset_items_as_the_loader_gathers_them() {
    let ds = indexed(7);
    let items: Vec<Record> = (0..7).map(|i| ds.get(i).unwrap()).collect();
    let burn_ds = InMemDataset::new(items);
    assert_eq!(burn_ds.len(), 7);
    let batcher = SpecBatcher::<Conv>::new();
    // burn's own loader over burn's own dataset, in order.
    let loader = DataLoaderBuilder::new(batcher.clone())
        .batch_size(3)
        .build(burn_ds);
    let got: Vec<Vec<f32>> = loader
        .iter()
        .map(|b| b.unwrap().image.into_data().try_to_vec::<f32>().unwrap())
        .collect();
    let schedule = Schedule::builder(7).batch_size(3).build().unwrap();
    let ours = SpecLoader::<Record, Conv>::new(Arc::new(ds), schedule, &device()).unwrap();
    let want: Vec<Vec<f32>> = ours
        .iter()
        .map(|b| b.unwrap().image.into_data().try_to_vec::<f32>().unwrap())
        .collect();
    assert_eq!(got, want);
    assert_eq!(got.len(), 3);
    // One item of several samples is stacked like several items.
    let two = indexed(2).into_record();
    let t = batcher.batch(vec![two], &device());
    assert_eq!(t.image.dims(), [2, 2, 2, 3]);
}

/// Ragged token ids served padded and time-major, with their mask and lengths: the ids and the
/// lengths take the device's integer dtype, the mask stays a float tensor.
#[test]
fn padded_sequences_with_mask_and_lengths_become_tensors() {
    #[derive(DataSpec)]
    struct Text {
        #[spec(source = "tokens")]
        tokens: Ragged<IndexSeq<10>>,
    }
    #[derive(DataSpec)]
    struct Lm {
        #[spec(source = "tokens", pad = 9)]
        tokens: Batch<IndexSeq<10, TB>>,
        #[spec(mask_of = "tokens")]
        mask: Batch<Mask<TB>>,
        #[spec(lengths_of = "tokens")]
        len: Batch<Lengths>,
    }
    let ds = Dataset::new(Text {
        tokens: Ragged::from_flat_samples([vec![1i64], vec![2, 2], vec![3, 3, 3]]).unwrap(),
    })
    .unwrap();
    let schedule = Schedule::builder(3).batch_size(3).build().unwrap();
    let mut p = Provider::<Text, Lm>::new(&ds, schedule).unwrap();
    let (lm, _) = p.next_owned().unwrap();
    let t: Tensors<Lm> = lm.into_tensors(&device());
    let (tokens, mask, len): (Tensor<2, Int>, Tensor<2>, Tensor<1, Int>) =
        (t.tokens, t.mask, t.len);
    assert_eq!(tokens.dims(), [3, 3]);
    assert_eq!(tokens.dtype(), int_dtype());
    assert_eq!(len.dtype(), int_dtype());
    assert_eq!(mask.dtype(), DType::F32);
    assert_eq!(
        tokens.into_data().try_to_vec::<i32>().unwrap(),
        [1, 2, 3, 9, 2, 3, 9, 9, 3]
    );
    assert_eq!(
        mask.into_data().try_to_vec::<f32>().unwrap(),
        [1., 1., 1., 0., 1., 1., 0., 0., 1.]
    );
    assert_eq!(len.into_data().try_to_vec::<i32>().unwrap(), [1, 2, 3]);
}
