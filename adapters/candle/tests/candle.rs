//! The candle adapter against hand-computed tensors (values, shapes, dtypes, layouts) and the
//! plain batchspec provider as the reference order.

use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::iteration::{LastBatch, Schedule};
use batchspec::prelude::*;
use batchspec_candle::{Batches, IntoTensors, Tensors};
use candle_core::{DType, Device, Tensor};

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![2, 3, 2; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<4, 1, u8>>,
}

/// Channels first, floats, and labels candle can gather with.
#[derive(DataSpec)]
struct Conv {
    #[spec(source = "features")]
    image: Batch<image![2, 3, 2; BCHW, f32]>,
    #[spec(source = "targets")]
    label: Batch<Index<4, 1, u32>>,
}

/// Flat vectors and one-hot targets, for an MLP.
#[derive(DataSpec)]
struct Flat {
    #[spec(source = "features")]
    x: Batch<Vector<12, f64>>,
    #[spec(source = "targets")]
    y: Batch<OneHot<4>>,
}

fn pixel(b: usize, h: usize, w: usize, c: usize) -> u8 {
    (b * 12 + h * 6 + w * 2 + c) as u8
}

fn dataset(n: usize) -> Dataset<Record> {
    Dataset::new(Record {
        image: Batch::new(ndarray::Array4::from_shape_fn(
            (n, 2, 3, 2),
            |(b, h, w, c)| pixel(b, h, w, c),
        ))
        .unwrap(),
        label: Batch::new(ndarray::Array2::from_shape_fn((n, 1), |(b, _)| {
            (b % 4) as u8
        }))
        .unwrap(),
    })
    .unwrap()
}

fn first<Q: batchspec::data::ProvidedBy<Record>>(ds: &Dataset<Record>) -> Q {
    let schedule = Schedule::builder(ds.len())
        .batch_size(ds.len())
        .build()
        .unwrap();
    Provider::<Record, Q>::new(ds, schedule)
        .unwrap()
        .next_owned()
        .unwrap()
        .0
}

#[test]
fn a_request_becomes_tensors_of_its_layout_and_dtype() {
    let ds = dataset(3);
    let t: Tensors<Conv> = first::<Conv>(&ds).into_tensors(&Device::Cpu).unwrap();
    let (image, label): (Tensor, Tensor) = (t.image, t.label);
    assert_eq!(image.dims(), [3, 2, 2, 3]);
    assert_eq!(image.dtype(), DType::F32);
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
    assert_eq!(image.flatten_all().unwrap().to_vec1::<f32>().unwrap(), want);
    assert_eq!(label.dtype(), DType::U32);
    assert_eq!(label.to_vec2::<u32>().unwrap(), [[0], [1], [2]]);
}

#[test]
fn flat_f64_vectors_and_one_hot_floats() {
    let ds = dataset(2);
    let t = first::<Flat>(&ds).into_tensors(&Device::Cpu).unwrap();
    assert_eq!(t.x.dtype(), DType::F64);
    assert_eq!(t.x.dims(), [2, 12]);
    let want: Vec<Vec<f64>> = (0..2)
        .map(|b| (0..12).map(|i| (b * 12 + i) as f64).collect())
        .collect();
    assert_eq!(t.x.to_vec2::<f64>().unwrap(), want);
    assert_eq!(t.y.dtype(), DType::F32);
    assert_eq!(
        t.y.to_vec2::<f32>().unwrap(),
        [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
    );
    // u8 images stay u8.
    let raw = ds.get(1).unwrap().into_tensors(&Device::Cpu).unwrap();
    assert_eq!(raw.image.dtype(), DType::U8);
    assert_eq!(raw.image.dims(), [1, 2, 3, 2]);
}

#[test]
fn epochs_follow_the_providers_order() {
    let ds = dataset(10);
    let schedule = Schedule::builder(10)
        .batch_size(4)
        .shuffle(true)
        .seed(5)
        .build()
        .unwrap();
    let mut batches = Batches::<Record, Conv>::new(&ds, schedule.clone(), &Device::Cpu).unwrap();
    let mut reference = Provider::<Record, Conv>::new(&ds, schedule).unwrap();
    let mut epochs = Vec::new();
    for epoch in [0, 1, 0] {
        let got: Vec<Vec<f32>> = batches
            .epoch(epoch)
            .map(|b| {
                b.unwrap()
                    .image
                    .flatten_all()
                    .unwrap()
                    .to_vec1::<f32>()
                    .unwrap()
            })
            .collect();
        reference.start_epoch(epoch);
        let mut want = Vec::new();
        while let Some(b) = reference.next_batch() {
            want.push(b.batch.image.array().iter().copied().collect::<Vec<f32>>());
        }
        assert_eq!(got, want, "epoch {epoch}");
        assert_eq!(
            got.iter().map(|b| b.len() / 12).collect::<Vec<_>>(),
            [4, 4, 2]
        );
        epochs.push(got);
    }
    assert_ne!(epochs[0], epochs[1]);
    assert_eq!(epochs[0], epochs[2]);
}

#[test]
fn padded_last_batches_and_refused_schedules() {
    let ds = dataset(10);
    let schedule = Schedule::builder(10)
        .batch_size(4)
        .last_batch(LastBatch::Pad)
        .build()
        .unwrap();
    let mut batches = Batches::<Record, Conv>::new(&ds, schedule, &Device::Cpu).unwrap();
    let last = batches.epoch(0).last().unwrap().unwrap();
    // Samples 8 and 9, then two zero rows of padding.
    assert_eq!(last.label.to_vec2::<u32>().unwrap(), [[0], [1], [0], [0]]);
    let wrong = Schedule::builder(11).batch_size(4).build().unwrap();
    assert!(Batches::<Record, Conv>::new(&ds, wrong, &Device::Cpu).is_err());
}

/// Ragged token ids served padded, time-major, with their mask and lengths: each leaf a tensor
/// of the batch's own longest length.
#[test]
fn padded_sequences_with_mask_and_lengths_become_tensors() {
    #[derive(DataSpec)]
    struct Text {
        #[spec(source = "tokens")]
        tokens: Ragged<IndexSeq<10, BT, u32>>,
    }
    #[derive(DataSpec)]
    struct Lm {
        #[spec(source = "tokens", pad = 9)]
        tokens: Batch<IndexSeq<10, TB, u32>>,
        #[spec(mask_of = "tokens")]
        mask: Batch<Mask<TB>>,
        #[spec(lengths_of = "tokens")]
        len: Batch<Lengths>,
    }
    let ds = Dataset::new(Text {
        tokens: Ragged::from_flat_samples([vec![1u32], vec![2, 2], vec![3, 3, 3], vec![4]])
            .unwrap(),
    })
    .unwrap();
    let schedule = Schedule::builder(4).batch_size(2).build().unwrap();
    let mut batches = Batches::<Text, Lm>::new(&ds, schedule, &Device::Cpu).unwrap();
    // Per batch: the token ids, the mask and the lengths.
    type Served = (Vec<Vec<u32>>, Vec<Vec<f32>>, Vec<i64>);
    let got: Vec<Served> = batches
        .epoch(0)
        .map(|b| {
            let b = b.unwrap();
            assert_eq!(b.tokens.dtype(), DType::U32);
            (
                b.tokens.to_vec2::<u32>().unwrap(),
                b.mask.to_vec2::<f32>().unwrap(),
                b.len.to_vec1::<i64>().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                vec![vec![1, 2], vec![9, 2]],
                vec![vec![1.0, 1.0], vec![0.0, 1.0]],
                vec![1, 2]
            ),
            (
                vec![vec![3, 4], vec![3, 9], vec![3, 9]],
                vec![vec![1.0, 1.0], vec![1.0, 0.0], vec![1.0, 0.0]],
                vec![3, 1]
            ),
        ]
    );
}

/// `Batches::from_source`: any source (here a provider prefetched on its own thread) as candle
/// tensors, an epoch at a time; resumed from a saved state, the next `epoch` of the state's epoch
/// continues it with the batches the uninterrupted run served, then the next epochs start fresh.
#[test]
fn batches_from_any_source_resume_mid_epoch() {
    use batchspec::data::{Dataset, Provider};
    use batchspec::iteration::Schedule;
    use batchspec::prelude::*;
    use batchspec_candle::Batches;
    use candle_core::Device;
    use std::sync::Arc;

    #[derive(DataSpec)]
    struct Ids {
        #[spec(source = "id")]
        id: Batch<Vector<1>>,
    }
    let x = ndarray::Array2::from_shape_fn((23, 1), |(i, _)| i as f32);
    let ds = Arc::new(
        Dataset::new(Ids {
            id: Batch::new(x).unwrap(),
        })
        .unwrap(),
    );
    let schedule = Schedule::builder(23)
        .batch_size(5)
        .shuffle(true)
        .seed(9)
        .build()
        .unwrap();
    let source = || {
        Provider::<Ids, Ids>::shared(ds.clone(), schedule.clone())
            .unwrap()
            .prefetched(1)
    };
    let ids = |t: Tensors<Ids>| t.id.flatten_all().unwrap().to_vec1::<f32>().unwrap();
    let mut batches = Batches::from_source(source(), &Device::Cpu);
    let e0: Vec<Vec<f32>> = batches.epoch(0).map(|b| ids(b.unwrap())).collect();
    let e1: Vec<Vec<f32>> = batches.epoch(1).map(|b| ids(b.unwrap())).collect();
    assert_eq!(e0.iter().map(Vec::len).sum::<usize>(), 23);
    assert_ne!(e0, e1);
    let mut run = Batches::from_source(source(), &Device::Cpu);
    let taken: Vec<_> = run.epoch(1).take(2).map(|b| ids(b.unwrap())).collect();
    assert_eq!(taken, e1[..2]);
    let saved = run.state();
    let mut resumed = Batches::from_source(source(), &Device::Cpu);
    resumed.resume(&saved).unwrap();
    let rest: Vec<_> = resumed.epoch(1).map(|b| ids(b.unwrap())).collect();
    assert_eq!(rest, e1[2..]);
    let again: Vec<_> = resumed.epoch(0).map(|b| ids(b.unwrap())).collect();
    assert_eq!(again, e0);
}
