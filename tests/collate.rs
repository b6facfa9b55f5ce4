//! Collate policies declared on a request's fields: a pad value, a fixed number of steps with or
//! without truncation, time-major output, and the lengths and mask a model asks for beside the
//! padded batch. Checked against cases computed by hand and against a plain reference.

use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::iteration::{LastBatch, Schedule};
use batchspec::prelude::*;
use batchspec::types::Ragged;
use ndarray::{Array1, Array2, array};
use proptest::prelude::*;

#[derive(DataSpec)]
struct Seqs {
    #[spec(source = "x")]
    x: Ragged<IndexSeq<10>>,
}

/// Padded with 9 to the longest of each batch, with the lengths and the mask.
#[derive(DataSpec)]
struct Longest {
    #[spec(source = "x", pad = 9)]
    x: Batch<IndexSeq<10>>,
    #[spec(lengths_of = "x")]
    len: Batch<Lengths>,
    #[spec(mask_of = "x")]
    mask: Batch<Mask>,
}

/// Three steps in every batch, longer samples cut, time-major, lengths as `i32`, a `u8` mask.
#[derive(DataSpec)]
struct Fixed {
    #[spec(source = "x", pad_to = 3, truncate)]
    x: Batch<IndexSeq<10, TB>>,
    #[spec(lengths_of = "x")]
    len: Batch<Lengths<i32>>,
    #[spec(mask_of = "x")]
    mask: Batch<Mask<TB, u8>>,
}

/// Three steps, nothing cut.
#[derive(DataSpec)]
struct Strict {
    #[spec(source = "x", pad_to = 3)]
    x: Batch<IndexSeq<10>>,
}

fn tf_data() -> Dataset<Seqs> {
    Dataset::new(Seqs {
        x: Ragged::from_flat_samples([vec![1i64], vec![2, 2], vec![3, 3, 3], vec![4, 4, 4, 4]])
            .unwrap(),
    })
    .unwrap()
}

/// tf.data's `padded_batch(2, padding_values=9)` on `[1]`, `[2, 2]`, `[3, 3, 3]`, `[4, 4, 4, 4]`,
/// by hand: `[[1, 9], [2, 2]]` and `[[3, 3, 3, 9], [4, 4, 4, 4]]`.
#[test]
fn a_pad_value_with_the_lengths_and_the_mask() {
    let ds = tf_data();
    let schedule = Schedule::builder(4).batch_size(2).build().unwrap();
    let mut p = Provider::<Seqs, Longest>::new(&ds, schedule).unwrap();
    let b = p.next_batch().unwrap().batch;
    assert_eq!(b.x.array(), &array![[1i64, 9], [2, 2]]);
    assert_eq!(b.len.array(), &array![1i64, 2]);
    assert_eq!(b.mask.array(), &array![[1.0f32, 0.0], [1.0, 1.0]]);
    let b = p.next_batch().unwrap().batch;
    assert_eq!(b.x.array(), &array![[3i64, 3, 3, 9], [4, 4, 4, 4]]);
    assert_eq!(b.len.array(), &array![3i64, 4]);
    assert_eq!(
        b.mask.array(),
        &array![[1.0f32, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0]]
    );
}

/// `pad_to = 3, truncate`, time-major (`TB`): by hand, `[[1, 2], [0, 2], [0, 0]]` and, cut,
/// `[[3, 4], [3, 4], [3, 4]]`; the lengths are those of what was kept.
#[test]
fn a_fixed_number_of_steps_cut_and_time_major() {
    let ds = tf_data();
    let schedule = Schedule::builder(4).batch_size(2).build().unwrap();
    let mut p = Provider::<Seqs, Fixed>::new(&ds, schedule).unwrap();
    let b = p.next_batch().unwrap().batch;
    assert_eq!(b.x.array(), &array![[1i64, 2], [0, 2], [0, 0]]);
    assert_eq!(b.len.array(), &array![1i32, 2]);
    assert_eq!(b.mask.array(), &array![[1u8, 1], [0, 1], [0, 0]]);
    let b = p.next_batch().unwrap().batch;
    assert_eq!(b.x.array(), &array![[3i64, 4], [3, 4], [3, 4]]);
    assert_eq!(b.len.array(), &array![3i32, 3]);
    assert_eq!(b.mask.array(), &array![[1u8, 1], [1, 1], [1, 1]]);
}

/// Without `truncate`, a sample longer than `pad_to` is refused where the provider is made,
/// naming the source, not half-way through an epoch.
#[test]
fn a_sample_longer_than_pad_to_is_refused_where_the_provider_is_made() {
    let ds = tf_data();
    let schedule = Schedule::builder(4).batch_size(2).build().unwrap();
    let err = Provider::<Seqs, Strict>::new(&ds, schedule).err().unwrap();
    assert_eq!(
        err.to_string(),
        "source `x`: 4 time steps do not fit the 3 time steps of the batch (give the field `truncate` to cut longer samples)"
    );
    // Without the long sample, every batch has 3 steps.
    let short = Dataset::new(ds.select(&[0, 1, 2]).unwrap()).unwrap();
    let schedule = Schedule::builder(3).batch_size(2).build().unwrap();
    let mut p = Provider::<Seqs, Strict>::new(&short, schedule).unwrap();
    assert_eq!(
        p.next_batch().unwrap().batch.x.array(),
        &array![[1i64, 0, 0], [2, 2, 0]]
    );
    assert_eq!(
        p.next_batch().unwrap().batch.x.array(),
        &array![[3i64, 3, 3]]
    );
}

/// A fixed-length dense source takes the policies too: padded past its own steps.
#[test]
fn a_dense_sequence_source_is_padded_to_pad_to() {
    #[derive(DataSpec)]
    struct Dense {
        #[spec(source = "x")]
        x: Batch<IndexSeq<10>>,
    }
    #[derive(DataSpec)]
    struct Wide {
        #[spec(source = "x", pad = 7, pad_to = 4)]
        x: Batch<IndexSeq<10>>,
        #[spec(mask_of = "x")]
        mask: Batch<Mask<BT, u8>>,
    }
    let ds = Dataset::new(Dense {
        x: Batch::new(array![[1i64, 2], [3, 4], [5, 6]]).unwrap(),
    })
    .unwrap();
    let schedule = Schedule::builder(3)
        .batch_size(2)
        .last_batch(LastBatch::Short)
        .build()
        .unwrap();
    let mut p = Provider::<Dense, Wide>::new(&ds, schedule).unwrap();
    let b = p.next_batch().unwrap().batch;
    assert_eq!(b.x.array(), &array![[1i64, 2, 7, 7], [3, 4, 7, 7]]);
    assert_eq!(b.mask.array(), &array![[1u8, 1, 0, 0], [1, 1, 0, 0]]);
    let b = p.next_batch().unwrap().batch;
    assert_eq!(b.x.array(), &array![[5i64, 6, 7, 7]]);
}

/// A ragged request keeps at most `pad_to` steps of each sample with `truncate`.
#[test]
fn a_ragged_request_is_cut_to_pad_to() {
    #[derive(DataSpec)]
    struct Cut {
        #[spec(source = "x", pad_to = 2, truncate)]
        x: Ragged<IndexSeq<10>>,
    }
    let ds = tf_data();
    let schedule = Schedule::builder(4).batch_size(4).build().unwrap();
    let mut p = Provider::<Seqs, Cut>::new(&ds, schedule).unwrap();
    let b = p.next_batch().unwrap().batch;
    assert_eq!(b.x.lengths().collect::<Vec<_>>(), [1, 2, 2, 2]);
    assert_eq!(b.x.values(), [1, 2, 2, 3, 3, 4, 4]);
}

/// A plain reference for a batch under a policy.
fn reference(
    samples: &[Vec<i64>],
    rows: &[usize],
    size: usize,
    pad: i64,
    pad_to: Option<usize>,
) -> (Array2<i64>, Array1<i64>, Array2<f32>) {
    let longest = rows.iter().map(|&i| samples[i].len()).max().unwrap_or(0);
    let t = pad_to.unwrap_or(longest);
    let mut x = Array2::from_elem((size, t), pad);
    let mut len = Array1::zeros(size);
    let mut mask = Array2::zeros((size, t));
    for (j, &i) in rows.iter().enumerate() {
        let kept = samples[i].len().min(t);
        len[j] = kept as i64;
        for s in 0..kept {
            x[[j, s]] = samples[i][s];
            mask[[j, s]] = 1.0;
        }
    }
    (x, len, mask)
}

#[derive(DataSpec)]
struct Cut3 {
    #[spec(source = "x", pad = 9, pad_to = 3, truncate)]
    x: Batch<IndexSeq<10>>,
    #[spec(lengths_of = "x")]
    len: Batch<Lengths>,
    #[spec(mask_of = "x")]
    mask: Batch<Mask>,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any lengths, shuffled batches: the padded batch, the lengths and the mask are the
    /// reference's, to the longest and to a fixed 3 steps with cutting.
    #[test]
    fn batches_under_a_policy_match_the_reference(
        lengths in proptest::collection::vec(0usize..7, 1..16),
        batch in 1usize..5,
        seed in 0u64..1000,
    ) {
        let samples: Vec<Vec<i64>> = lengths.iter().enumerate()
            .map(|(i, &l)| (0..l).map(|t| ((i + 2 * t) % 9) as i64).collect()).collect();
        let n = samples.len();
        let batch = batch.min(n);
        let ds = Dataset::new(Seqs { x: Ragged::from_flat_samples(&samples).unwrap() }).unwrap();
        let schedule = Schedule::builder(n).batch_size(batch).shuffle(true).seed(seed)
            .last_batch(LastBatch::Short).build().unwrap();
        let mut epoch = schedule.epoch(0);
        let mut batches = vec![];
        while let Some(b) = epoch.next_batch() {
            batches.push(b.indices().to_vec());
        }
        let mut longest = Provider::<Seqs, Longest>::new(&ds, schedule.clone()).unwrap();
        let mut cut = Provider::<Seqs, Cut3>::new(&ds, schedule).unwrap();
        for rows in &batches {
            let b = longest.next_batch().unwrap().batch;
            let (x, len, mask) = reference(&samples, rows, rows.len(), 9, None);
            prop_assert_eq!(b.x.array(), &x);
            prop_assert_eq!(b.len.array(), &len);
            prop_assert_eq!(b.mask.array(), &mask);
            let b = cut.next_batch().unwrap().batch;
            let (x, len, mask) = reference(&samples, rows, rows.len(), 9, Some(3));
            prop_assert_eq!(b.x.array(), &x);
            prop_assert_eq!(b.len.array(), &len);
            prop_assert_eq!(b.mask.array(), &mask);
        }
    }
}
