//! Sequence leaves, fixed-length (`Batch<VectorSeq<..>>`) and ragged (`Ragged<..>`), through
//! every dataset and provider path, checked against plain reference implementations written
//! here over `Vec`s (padding to the longest sample of each batch, as tf.data's `padded_batch`).

use batchspec::data::Dataset;
use batchspec::data::{Prefetch, Provider};
use batchspec::iteration::{LastBatch, Schedule};
use batchspec::mapping::{ServeCache, serve};
use batchspec::prelude::*;
use batchspec::types::Ragged;
use ndarray::{Array2, Array3, Axis};
use proptest::prelude::*;

#[derive(DataSpec)]
struct Record {
    /// Fixed-length frames: every sample has 3 steps of 2 features.
    #[spec(source = "frames")]
    frames: Batch<VectorSeq<2>>,
    /// Token ids of different lengths.
    #[spec(source = "tokens")]
    tokens: Ragged<IndexSeq<50>>,
    /// Feature vectors of different lengths (2 features per step).
    #[spec(source = "audio")]
    audio: Ragged<VectorSeq<2>>,
    #[spec(source = "targets")]
    label: Batch<Labels<4>>,
}

/// What a model asks for: tokens padded per batch (batch-major), audio time-major and in f64,
/// frames as stored.
#[derive(DataSpec)]
struct Model {
    #[spec(source = "tokens")]
    tokens: Batch<IndexSeq<50>>,
    #[spec(source = "audio")]
    audio: Batch<VectorSeq<2, TBF, f64>>,
    #[spec(source = "frames")]
    frames: Batch<VectorSeq<2>>,
    #[spec(source = "targets")]
    label: Batch<Labels<4>>,
}

/// The ragged leaves kept ragged by the request.
#[derive(DataSpec)]
struct KeepRagged {
    #[spec(source = "tokens")]
    tokens: Ragged<IndexSeq<50>>,
    #[spec(source = "audio")]
    audio: Ragged<VectorSeq<2, TBF, f64>>,
}

/// The plain data the record is built from.
#[derive(Clone, Debug)]
struct Plain {
    frames: Vec<[[f32; 2]; 3]>,
    tokens: Vec<Vec<i64>>,
    audio: Vec<Vec<[f32; 2]>>,
    label: Vec<i64>,
}

fn plain(lengths: &[(usize, usize)]) -> Plain {
    let n = lengths.len();
    Plain {
        frames: (0..n)
            .map(|i| {
                let mut f = [[0.0; 2]; 3];
                for (t, step) in f.iter_mut().enumerate() {
                    *step = [(i * 10 + t) as f32, -((i * 10 + t) as f32)];
                }
                f
            })
            .collect(),
        tokens: lengths
            .iter()
            .enumerate()
            .map(|(i, &(l, _))| (0..l).map(|t| ((i * 7 + t) % 49 + 1) as i64).collect())
            .collect(),
        audio: lengths
            .iter()
            .enumerate()
            .map(|(i, &(_, l))| {
                (0..l)
                    .map(|t| [(i * 100 + t) as f32 + 0.5, (i + t) as f32])
                    .collect()
            })
            .collect(),
        label: (0..n as i64).map(|i| i % 4).collect(),
    }
}

fn record(p: &Plain) -> Record {
    let n = p.label.len();
    Record {
        frames: Batch::new(Array3::from_shape_fn((n, 3, 2), |(i, t, f)| {
            p.frames[i][t][f]
        }))
        .unwrap(),
        tokens: Ragged::from_flat_samples(&p.tokens).unwrap(),
        audio: Ragged::from_samples(
            p.audio
                .iter()
                .map(|s| Array2::from_shape_fn((s.len(), 2), |(t, f)| s[t][f])),
        )
        .unwrap(),
        label: Batch::new(ndarray::Array1::from(p.label.clone())).unwrap(),
    }
}

/// The reference: the samples `rows` padded to the longest of them, zeros for padding rows up
/// to `size` rows.
fn reference(p: &Plain, rows: &[usize], size: usize) -> (Array2<i64>, Array3<f64>, Array3<f32>) {
    let tt = rows.iter().map(|&i| p.tokens[i].len()).max().unwrap_or(0);
    let ta = rows.iter().map(|&i| p.audio[i].len()).max().unwrap_or(0);
    let mut tokens = Array2::zeros((size, tt));
    let mut audio = Array3::zeros((ta, size, 2)); // time-major
    let mut frames = Array3::zeros((size, 3, 2));
    for (j, &i) in rows.iter().enumerate() {
        for (t, &v) in p.tokens[i].iter().enumerate() {
            tokens[[j, t]] = v;
        }
        for (t, s) in p.audio[i].iter().enumerate() {
            audio[[t, j, 0]] = s[0] as f64;
            audio[[t, j, 1]] = s[1] as f64;
        }
        for t in 0..3 {
            for f in 0..2 {
                frames[[j, t, f]] = p.frames[i][t][f];
            }
        }
    }
    (tokens, audio, frames)
}

fn check_model(m: &Model, p: &Plain, rows: &[usize], size: usize) {
    let (tokens, audio, frames) = reference(p, rows, size);
    assert_eq!(m.tokens.array(), &tokens, "tokens of rows {rows:?}");
    assert_eq!(m.audio.array(), &audio, "audio of rows {rows:?}");
    assert_eq!(m.frames.array(), &frames, "frames of rows {rows:?}");
}

fn check_record(r: &Record, p: &Plain, rows: &[usize]) {
    assert_eq!(r.label.len(), rows.len());
    assert_eq!(r.tokens.len(), rows.len());
    assert_eq!(r.audio.len(), rows.len());
    for (j, &i) in rows.iter().enumerate() {
        let t: Vec<i64> = r.tokens.sample(j).unwrap().iter().copied().collect();
        assert_eq!(t, p.tokens[i]);
        let a: Vec<[f32; 2]> = r
            .audio
            .sample(j)
            .unwrap()
            .outer_iter()
            .map(|s| [s[0], s[1]])
            .collect();
        assert_eq!(a, p.audio[i]);
        let f = r.frames.array().index_axis(Axis(0), j).to_owned();
        let want = Array2::from_shape_fn((3, 2), |(t, k)| p.frames[i][t][k]);
        assert_eq!(f, want);
        assert_eq!(r.label.array()[j], p.label[i]);
    }
}

const LENGTHS: [(usize, usize); 7] = [(3, 1), (0, 4), (5, 2), (1, 0), (2, 2), (4, 3), (1, 5)];

#[test]
fn every_dataset_method_takes_sequence_leaves() {
    let p = plain(&LENGTHS);
    let ds = Dataset::new(record(&p)).unwrap();
    assert_eq!(ds.len(), 7);

    check_record(&ds.select(&[4, 0, 4, 6]).unwrap(), &p, &[4, 0, 4, 6]);
    check_record(&ds.slice(2..5).unwrap(), &p, &[2, 3, 4]);
    check_record(&ds.slice(3..3).unwrap(), &p, &[]);
    check_record(&ds.get(1).unwrap(), &p, &[1]);
    let perm = [6, 5, 4, 3, 2, 1, 0];
    check_record(ds.permuted(&perm).unwrap().fields(), &p, &perm);
    for (i, s) in ds.samples().enumerate() {
        check_record(&s.unwrap(), &p, &[i]);
    }
    let mut seen = vec![];
    for b in ds.minibatches(3) {
        let b = b.unwrap();
        let rows: Vec<usize> = (seen.len()..seen.len() + b.label.len()).collect();
        check_record(&b, &p, &rows);
        seen.extend(rows);
    }
    assert_eq!(seen, (0..7).collect::<Vec<_>>());

    // Views borrow: a ragged leaf's view sees the samples of the range.
    let v = ds.view(2..4).unwrap();
    assert_eq!(v.frames.len(), 2);
    assert_eq!(v.tokens.lengths().collect::<Vec<_>>(), [5, 1]);
    assert_eq!(v.audio.lengths().collect::<Vec<_>>(), [2, 0]);
    assert_eq!(v.label.len(), 2);
    assert_eq!(
        ds.sample(5)
            .unwrap()
            .tokens
            .sample(0)
            .unwrap()
            .iter()
            .copied()
            .collect::<Vec<_>>(),
        p.tokens[5]
    );
    assert!(ds.sample(7).is_err());
    assert!(ds.select(&[7]).is_err());

    // The shapes a provider would describe: the time axis is dynamic.
    let described = Model::describe(4);
    assert_eq!(described[0].shape, [Some(4), None]);
    assert_eq!(described[1].shape, [None, Some(4), Some(2)]);
}

#[test]
fn every_provider_path_pads_each_batch_to_its_longest_sample() {
    let p = plain(&LENGTHS);
    let ds = Dataset::new(record(&p)).unwrap();
    for last in [LastBatch::Pad, LastBatch::Short, LastBatch::RollOver] {
        let schedule = Schedule::builder(7)
            .batch_size(3)
            .shuffle(true)
            .seed(11)
            .last_batch(last)
            .build()
            .unwrap();
        // The rows of each batch (with MXNet's padding, wrapped-around rows), its size and its
        // real samples, from the schedule itself.
        let mut epoch = schedule.epoch(0);
        let mut batches = vec![];
        let mut counts = vec![];
        while let Some(b) = epoch.next_batch() {
            batches.push((b.indices().to_vec(), b.size()));
            counts.push(b.count_samples());
        }

        let mut provider = Provider::<Record, Model>::new(&ds, schedule.clone()).unwrap();
        let mut k = 0;
        while let Some(b) = provider.next_batch() {
            let (rows, size) = &batches[k];
            check_model(b.batch, &p, rows, *size);
            k += 1;
        }
        assert_eq!(k, batches.len());

        let mut provider = Provider::<Record, Model>::new(&ds, schedule.clone()).unwrap();
        for ((rows, size), count) in batches.iter().zip(&counts) {
            let (m, info) = provider.next_owned().unwrap();
            check_model(&m, &p, rows, *size);
            assert_eq!(info.count_samples, *count);
        }
        assert!(provider.next_owned().is_none());

        // Into a buffer the caller owns, of the batch size.
        let mut provider = Provider::<Record, Model>::unbuffered(&ds, schedule.clone()).unwrap();
        let mut out = Model {
            tokens: Batch::zeros(3, 0),
            audio: Batch::zeros(3, 0),
            frames: Batch::zeros(3, 0),
            label: Batch::zeros(3, 0),
        };
        for (rows, _) in &batches {
            provider.fill_next(&mut out).unwrap().unwrap();
            check_model(&out, &p, rows, 3);
        }
        assert!(provider.fill_next(&mut out).is_none());

        // On a thread, a few batches ahead.
        let mut pre = Prefetch::<Model>::provider(
            std::sync::Arc::new(Dataset::new(record(&p)).unwrap()),
            schedule.clone(),
            0..1,
            2,
        );
        for (rows, _) in &batches {
            let b = pre.next_batch().unwrap().unwrap();
            check_model(&b, &p, rows, 3);
        }
        assert!(pre.next_batch().is_none());

        // Kept ragged, in another element type and layout.
        let mut provider = Provider::<Record, KeepRagged>::new(&ds, schedule.clone()).unwrap();
        for (rows, size) in &batches {
            let b = provider.next_batch().unwrap();
            assert_eq!(b.batch.tokens.len(), *size);
            for (j, &i) in rows.iter().enumerate() {
                let t: Vec<i64> = b.batch.tokens.sample(j).unwrap().iter().copied().collect();
                assert_eq!(t, p.tokens[i]);
                let a: Vec<f64> = b.batch.audio.sample(j).unwrap().iter().copied().collect();
                let want: Vec<f64> = p.audio[i].iter().flatten().map(|&v| v as f64).collect();
                assert_eq!(a, want);
            }
            // Padding rows are samples of no steps.
            for j in rows.len()..*size {
                assert_eq!(b.batch.tokens.sample(j).unwrap().len(), 0);
            }
        }
    }
}

#[test]
fn serving_a_whole_record_pads_ragged_sources_to_their_longest_sample() {
    let p = plain(&LENGTHS);
    let r = record(&p);
    let m: Model = serve(&r, &mut ServeCache::new());
    check_model(&m, &p, &(0..7).collect::<Vec<_>>(), 7);
}

/// tf.data's `padded_batch` documentation example, by hand: the samples `[1]`, `[2, 2]`,
/// `[3, 3, 3]`, `[4, 4, 4, 4]` in batches of 2 give `[[1, 0], [2, 2]]` and
/// `[[3, 3, 3, 0], [4, 4, 4, 4]]`: each batch is as long as its own longest sample.
#[test]
fn padded_batches_are_those_of_tf_data() {
    #[derive(DataSpec)]
    struct Seqs {
        #[spec(source = "x")]
        x: Ragged<IndexSeq<10>>,
    }
    #[derive(DataSpec)]
    struct Padded {
        #[spec(source = "x")]
        x: Batch<IndexSeq<10>>,
    }
    let ds = Dataset::new(Seqs {
        x: Ragged::from_flat_samples([vec![1i64], vec![2, 2], vec![3, 3, 3], vec![4, 4, 4, 4]])
            .unwrap(),
    })
    .unwrap();
    let schedule = Schedule::builder(4).batch_size(2).build().unwrap();
    let mut provider = Provider::<Seqs, Padded>::new(&ds, schedule).unwrap();
    let first = provider.next_batch().unwrap().batch.x.array().clone();
    assert_eq!(first, ndarray::array![[1i64, 0], [2, 2]]);
    let second = provider.next_batch().unwrap().batch.x.array().clone();
    assert_eq!(second, ndarray::array![[3i64, 3, 3, 0], [4, 4, 4, 4]]);
    assert!(provider.next_batch().is_none());
}

#[test]
fn a_borrowed_buffer_too_short_for_a_sample_is_an_error_naming_the_source() {
    #[derive(DataSpec)]
    struct Seqs {
        #[spec(source = "tokens")]
        x: Ragged<IndexSeq<10>>,
    }
    #[derive(DataSpec)]
    struct Borrowed<'a> {
        #[spec(source = "tokens")]
        x: Batch<IndexSeq<10>, ndarray::ViewRepr<&'a mut i64>>,
    }
    let ds = Dataset::new(Seqs {
        x: Ragged::from_flat_samples([vec![1i64], vec![2, 2, 2]]).unwrap(),
    })
    .unwrap();
    let schedule = Schedule::builder(2).batch_size(1).build().unwrap();
    let mut provider = Provider::<Seqs, Borrowed<'_>>::unbuffered(&ds, schedule).unwrap();
    let mut buffer = Batch::<IndexSeq<10>>::zeros(1, 2);
    {
        let mut out = Borrowed {
            x: buffer.view_mut(),
        };
        provider.fill_next(&mut out).unwrap().unwrap();
        // A sample shorter than the buffer: zeros after it.
        assert_eq!(out.x.array(), &ndarray::array![[1i64, 0]]);
        let err = provider.fill_next(&mut out).unwrap().unwrap_err();
        assert_eq!(
            err.to_string(),
            "source `tokens`: 3 time steps do not fit the 2 time steps of the batch (give the field `truncate` to cut longer samples)"
        );
    }
}

#[test]
fn ragged_leaves_are_checked_where_they_are_built() {
    let e = Ragged::<IndexSeq<5>>::from_parts(vec![1, 2, 3], vec![0, 2, 1]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "ragged index sequence of 5 labels bt i64: the offsets decrease at sample 1: 2 then 1"
    );
    let e = Ragged::<IndexSeq<5>>::from_parts(vec![1, 2, 3], vec![0, 2]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "ragged index sequence of 5 labels bt i64: the offsets end at step 2, but the 3 values hold 3 steps of 1"
    );
    let e = Ragged::<IndexSeq<5>>::from_parts(vec![], vec![]).unwrap_err();
    assert!(e.to_string().contains("the offsets are empty"), "{e}");
    let e = Ragged::<IndexSeq<5>>::from_parts(vec![1, 2], vec![1, 2]).unwrap_err();
    assert!(e.to_string().contains("start at 1, not at 0"), "{e}");
    // A label out of range, at [sample, step].
    let e = Ragged::<IndexSeq<5>>::from_flat_samples([vec![1i64, 2], vec![3, 9, 4]]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "index sequence of 5 labels bt i64: label 9 at [1, 1] is not in 0..5"
    );
    // A step of the wrong shape.
    let e =
        Ragged::<VectorSeq<3>>::from_samples([Array2::<f32>::zeros((2, 3)), Array2::zeros((4, 2))])
            .unwrap_err();
    assert_eq!(
        e.to_string(),
        "vector sequence 3 btf f32: sample 1 has shape (4, 2), but every step must have shape (3,)"
    );
    let e = Ragged::<VectorSeq<3>>::from_flat_samples([vec![0.0f32; 6], vec![0.0; 7]]).unwrap_err();
    assert!(e.to_string().contains("sample 1 has shape (7,)"), "{e}");
}

#[test]
fn empty_datasets_and_empty_samples_do_not_panic() {
    let p = plain(&[]);
    let ds = Dataset::new(record(&p)).unwrap();
    assert!(ds.is_empty());
    check_record(&ds.select(&[]).unwrap(), &p, &[]);
    assert_eq!(ds.minibatches(2).count(), 0);
    let p = plain(&[(0, 0), (0, 0), (0, 0)]);
    let ds = Dataset::new(record(&p)).unwrap();
    let schedule = Schedule::builder(3).batch_size(2).build().unwrap();
    let mut provider = Provider::<Record, Model>::new(&ds, schedule).unwrap();
    let b = provider.next_batch().unwrap();
    assert_eq!(b.batch.tokens.shape(), [2, 0]);
    assert_eq!(b.batch.audio.shape(), [0, 2, 2]);
    check_model(b.batch, &p, &[0, 1], 2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any lengths, any rows: a selection keeps every sample, and a provider's batches are the
    /// reference's padded batches.
    #[test]
    fn selections_and_batches_match_the_reference(
        lengths in proptest::collection::vec((0usize..9, 0usize..9), 1..20),
        picks in proptest::collection::vec(0usize..1000, 0..12),
        batch in 1usize..6,
        seed in 0u64..1000,
    ) {
        let p = plain(&lengths);
        let n = lengths.len();
        let batch = batch.min(n);
        let ds = Dataset::new(record(&p)).unwrap();
        let rows: Vec<usize> = picks.iter().map(|&r| r % n).collect();
        check_record(&ds.select(&rows).unwrap(), &p, &rows);

        let schedule = Schedule::builder(n).batch_size(batch).shuffle(true).seed(seed)
            .last_batch(LastBatch::Pad).build().unwrap();
        let mut epoch = schedule.epoch(0);
        let mut batches = vec![];
        while let Some(b) = epoch.next_batch() {
            batches.push(b.indices().to_vec());
        }
        let mut provider = Provider::<Record, Model>::new(&ds, schedule).unwrap();
        for rows in &batches {
            let b = provider.next_batch().unwrap();
            check_model(b.batch, &p, rows, batch);
        }
        prop_assert!(provider.next_batch().is_none());
    }

    /// Ragged leaves round-trip through their parts and through a dense batch.
    #[test]
    fn parts_and_padding_round_trip(lengths in proptest::collection::vec(0usize..7, 0..10)) {
        let samples: Vec<Vec<i64>> = lengths.iter().enumerate()
            .map(|(i, &l)| (0..l).map(|t| ((i + t) % 10) as i64).collect()).collect();
        let r = Ragged::<IndexSeq<10>>::from_flat_samples(&samples).unwrap();
        let (values, offsets) = r.clone().into_parts();
        prop_assert_eq!(&Ragged::<IndexSeq<10>>::from_parts(values, offsets).unwrap(), &r);
        let padded = r.to_padded();
        let longest = lengths.iter().copied().max().unwrap_or(0);
        prop_assert_eq!(padded.shape(), &[lengths.len(), longest][..]);
        for (i, s) in samples.iter().enumerate() {
            for t in 0..longest {
                prop_assert_eq!(padded.array()[[i, t]], s.get(t).copied().unwrap_or(0));
            }
        }
        // A dense batch as ragged keeps every step of every sample.
        let back = Ragged::from_batch(&padded);
        prop_assert_eq!(back.lengths().collect::<Vec<_>>(), vec![longest; lengths.len()]);
        prop_assert_eq!(back.to_padded(), padded);
    }
}

/// tf.data's `bucket_by_sequence_length` documentation example: boundaries `[3, 5]`, batches of
/// 2, each batch padded to its own longest sample. tf.data prints `[[1 2 3 4] [5 6 7 0]]`,
/// `[[7 8 9 10 11 0] [13 14 15 16 19 20]]`, `[[0 0] [21 22]]`.
#[test]
fn bucketed_batches_are_those_of_tf_data() {
    use batchspec::iteration::Buckets;
    #[derive(DataSpec)]
    struct Text {
        #[spec(source = "tokens")]
        tokens: Ragged<IndexSeq<30>>,
    }
    #[derive(DataSpec)]
    struct Padded {
        #[spec(source = "tokens")]
        tokens: Batch<IndexSeq<30>>,
    }
    let samples = [
        vec![0i64],
        vec![1, 2, 3, 4],
        vec![5, 6, 7],
        vec![7, 8, 9, 10, 11],
        vec![13, 14, 15, 16, 19, 20],
        vec![21, 22],
    ];
    let ds = Dataset::new(Text {
        tokens: Ragged::from_flat_samples(&samples).unwrap(),
    })
    .unwrap();
    let buckets = Buckets::new(ds.fields().tokens.lengths(), &[3, 5], &[2, 2, 2]).unwrap();
    let schedule = Schedule::builder(6).batch_size(2).build().unwrap();
    let mut provider = Provider::<Text, Padded>::new(&ds, schedule).unwrap();
    let got: Vec<Array2<i64>> = buckets
        .epoch(0)
        .iter()
        .map(|rows| {
            provider
                .batch_of(rows)
                .unwrap()
                .batch
                .tokens
                .array()
                .clone()
        })
        .collect();
    assert_eq!(
        got,
        [
            ndarray::array![[1i64, 2, 3, 4], [5, 6, 7, 0]],
            ndarray::array![[7i64, 8, 9, 10, 11, 0], [13, 14, 15, 16, 19, 20]],
            ndarray::array![[0i64, 0], [21, 22]],
        ]
    );
    assert!(provider.batch_of(&[6]).is_err());
}

proptest! {
    /// Every sample is in exactly one batch of an epoch; a batch holds samples of one bucket; in
    /// each bucket every batch but the last is full; a shuffled epoch is a pure function of the
    /// seed and the epoch.
    #[test]
    fn buckets_cover_every_sample_once(
        lengths in proptest::collection::vec(0usize..20, 1..60),
        sizes in proptest::collection::vec(1usize..5, 3),
        seed in 0u64..100,
    ) {
        use batchspec::iteration::Buckets;
        let buckets = Buckets::new(lengths.iter().copied(), &[4, 9], &sizes).unwrap().shuffled(seed);
        let epoch = buckets.epoch(3);
        prop_assert_eq!(&epoch, &buckets.epoch(3));
        let mut seen: Vec<usize> = epoch.iter().flatten().copied().collect();
        seen.sort();
        prop_assert_eq!(seen, (0..lengths.len()).collect::<Vec<_>>());
        let mut short = [false; 3];
        for batch in &epoch {
            let b = buckets.bucket_of(lengths[batch[0]]);
            prop_assert!(batch.iter().all(|&i| buckets.bucket_of(lengths[i]) == b));
            prop_assert!(batch.len() <= sizes[b]);
            // A short batch is the last of its bucket.
            prop_assert!(!short[b]);
            short[b] = batch.len() < sizes[b];
        }
    }
}

/// Brainstorm's `Minibatches` cut each time-major batch to its longest sequence: lengths
/// `[2, 3, 3, 1, 2]` in batches of 3 give shapes `(3, 3, F)` then `(2, 2, F)`, and lengths
/// `[2, 3, 4, 1, 2]` give `(4, 3, F)` then `(2, 2, F)` (the seed's iterator case, here from
/// ragged sequences rather than a masked `(T, B, F)` array).
#[test]
fn brainstorm_time_major_minibatches_cut_to_the_longest() {
    #[derive(DataSpec)]
    struct Seqs {
        #[spec(source = "default")]
        x: Ragged<VectorSeq<2>>,
    }
    #[derive(DataSpec)]
    struct TimeMajor {
        #[spec(source = "default")]
        x: Batch<VectorSeq<2, TBF>>,
    }
    for (lengths, shapes) in [
        ([2, 3, 3, 1, 2], [[3, 3, 2], [2, 2, 2]]),
        ([2, 3, 4, 1, 2], [[4, 3, 2], [2, 2, 2]]),
    ] {
        let samples: Vec<Vec<f32>> = lengths
            .iter()
            .enumerate()
            .map(|(i, &l)| (0..2 * l).map(|v| (i * 100 + v) as f32).collect())
            .collect();
        let ds = Dataset::new(Seqs {
            x: Ragged::from_flat_samples(&samples).unwrap(),
        })
        .unwrap();
        let schedule = Schedule::builder(5)
            .batch_size(3)
            .last_batch(LastBatch::Short)
            .build()
            .unwrap();
        let mut p = Provider::<Seqs, TimeMajor>::new(&ds, schedule).unwrap();
        for (k, shape) in shapes.iter().enumerate() {
            let b = p.next_batch().unwrap();
            assert_eq!(b.batch.x.shape(), shape);
            // Step t of sequence j is at [t, j, ..]: its values, or zeros past its end.
            for j in 0..shape[1] {
                let i = 3 * k + j;
                for t in 0..shape[0] {
                    for f in 0..2 {
                        let want = if t < lengths[i] {
                            samples[i][2 * t + f]
                        } else {
                            0.0
                        };
                        assert_eq!(b.batch.x.array()[[t, j, f]], want);
                    }
                }
            }
        }
        assert!(p.next_batch().is_none());
    }
}

/// dp's `SequenceView`: 8 sequences of width (`w`, the time axis) 2 and 5 channels, asked for
/// as `bwc` and `bcw`; here the sequences are ragged (widths 0 to 2) and each view is padded.
#[test]
fn dp_sequence_view_bwc_and_bcw_from_ragged_sequences() {
    use batchspec::mapping::{ServeCache, serve};
    use batchspec::types::VectorSeqLayout;
    #[derive(DataSpec)]
    struct Seqs {
        #[spec(source = "input")]
        x: Ragged<VectorSeq<5, BTF, f64>>,
    }
    #[derive(DataSpec)]
    struct View<L: VectorSeqLayout> {
        #[spec(source = "input")]
        x: Batch<VectorSeq<5, L, f64>>,
    }
    let widths = [2usize, 1, 2, 0, 2, 2, 1, 2];
    let samples: Vec<Vec<f64>> = widths
        .iter()
        .enumerate()
        .map(|(i, &w)| (0..5 * w).map(|v| (i * 10 + v) as f64 / 100.0).collect())
        .collect();
    let record = Seqs {
        x: Ragged::from_flat_samples(&samples).unwrap(),
    };
    let bwc: View<BTF> = serve(&record, &mut ServeCache::new());
    let bcw: View<batchspec::layout!(bft)> = serve(&record, &mut ServeCache::new());
    assert_eq!(bwc.x.shape(), [8, 2, 5]);
    assert_eq!(bcw.x.shape(), [8, 5, 2]);
    for (b, &w) in widths.iter().enumerate() {
        for t in 0..2 {
            for c in 0..5 {
                let want = if t < w { samples[b][5 * t + c] } else { 0.0 };
                assert_eq!(bwc.x.array()[[b, t, c]], want);
                assert_eq!(bcw.x.array()[[b, c, t]], want);
            }
        }
    }
}
