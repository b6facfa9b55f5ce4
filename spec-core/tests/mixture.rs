//! Mixtures of sources as properties: the proportions each source serves are within binomial
//! bounds of the weights; the draws are exact functions of (seed, epoch, position) (two runs and
//! a prefetched run serve the same batches); each stopping strategy ends where it says (the first
//! source to run out, every source run out once, never); every source's samples come in the
//! source's own order; and a mixture resumed from its state at any batch boundary (through JSON)
//! serves exactly the uninterrupted run's batches, in that epoch and the next, with the weights
//! it had.

use batchspec::data::{
    BatchInfo, BatchSource, Dataset, Generator, Mix, Position, Provider, SourceState, Stopping,
    Stream,
};
use batchspec::iteration::{LastBatch, Order, Schedule};
use batchspec::prelude::*;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

mod damaged_state;
use damaged_state::{edited, position};

#[derive(DataSpec)]
struct Ids {
    #[spec(source = "id")]
    id: Batch<Vector<1>>,
}

/// Sample `i` of source `s` holds `s * 1000 + i`.
fn dataset(s: usize, n: usize) -> Arc<Dataset<Ids>> {
    let x = ndarray::Array2::from_shape_fn((n, 1), |(i, _)| (s * 1000 + i) as f32);
    Arc::new(
        Dataset::new(Ids {
            id: Batch::new(x).unwrap(),
        })
        .unwrap(),
    )
}

fn provider(s: usize, n: usize, bs: usize, seed: u64) -> Provider<'static, Ids, Ids> {
    let schedule = Schedule::builder(n)
        .batch_size(bs)
        .order(Order::Shuffled)
        .seed(seed)
        .build()
        .unwrap();
    Provider::shared(dataset(s, n), schedule).unwrap()
}

/// A stream of source `s`'s `n` samples through a shuffle buffer of 3.
fn stream(s: usize, n: usize, bs: usize, seed: u64) -> Stream<Ids, Ids> {
    Stream::<Ids, Ids>::new(
        move |_| {
            (0..n).map(move |i| Ids {
                id: Batch::new(ndarray::array![[(s * 1000 + i) as f32]]).unwrap(),
            })
        },
        bs,
    )
    .shuffle(3, seed)
}

/// A batch's ids and what the mixture said of it.
type Served = (Vec<usize>, BatchInfo, Vec<usize>);

fn served<S: BatchSource<Ids>>(source: &mut S, counts: impl Fn(&S) -> Vec<usize>) -> Vec<Served> {
    let mut out = Vec::new();
    while let Some(b) = source.next_owned() {
        let (batch, info) = b.unwrap();
        let ids = batch
            .id
            .array()
            .column(0)
            .iter()
            .take(info.count_samples)
            .map(|&v| v as usize)
            .collect();
        out.push((ids, info, counts(source)));
    }
    out
}

/// Every batch of the epoch with the counts the lent batch gives.
fn lent(mix: &mut Mix<'_, Ids>) -> Vec<Served> {
    let mut out = Vec::new();
    while let Some(b) = mix.next_batch() {
        let (batch, info) = b.unwrap();
        let ids: Vec<usize> = batch
            .id
            .array()
            .column(0)
            .iter()
            .take(info.count_samples)
            .map(|&v| v as usize)
            .collect();
        out.push((ids, info, batch.counts().to_vec()));
    }
    out
}

fn by_source(ids: &[usize]) -> BTreeMap<usize, Vec<usize>> {
    let mut m: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &id in ids {
        m.entry(id / 1000).or_default().push(id % 1000);
    }
    m
}

/// An endless source of samples `s * 1000 + k` for k = 0, 1, 2, ... (a generator).
fn endless(s: usize, bs: usize) -> impl BatchSource<Ids> + Send + 'static {
    Generator::<Ids, _>::by_position(bs, move |out: &mut Ids, at: Position| {
        for r in 0..bs {
            out.id.array_mut()[[r, 0]] = (s * 1000 + (at.batch as usize * bs + r) % 1000) as f32;
        }
        Some(Ok(BatchInfo {
            count_samples: bs,
            pad: 0,
        }))
    })
}

#[test]
fn proportions_are_within_binomial_bounds_of_the_weights() {
    for (weights, batch_level) in [
        (vec![0.7, 0.3], false),
        (vec![0.5, 0.25, 0.25], false),
        (vec![0.1, 0.9], true),
    ] {
        let mut mix = if batch_level {
            Mix::of_batches()
        } else {
            Mix::of_samples(16)
        };
        for (s, &w) in weights.iter().enumerate() {
            mix = mix.source(endless(s, 4), w).unwrap();
        }
        let mut mix = mix.stopping(Stopping::Endless).seed(11).take_batches(1000);
        let mut counts = vec![0usize; weights.len()];
        let mut total = 0;
        while let Some(b) = mix.next_batch() {
            let (batch, info) = b.unwrap();
            for (c, n) in counts.iter_mut().zip(batch.counts()) {
                *c += n;
            }
            total += info.count_samples;
        }
        // Each source's share of draws (samples, or batches of 4): within 5 standard deviations
        // of the binomial mean.
        let unit = if batch_level { 4 } else { 1 };
        let draws = (total / unit) as f64;
        let sum: f64 = weights.iter().sum();
        for (c, w) in counts.iter().zip(&weights) {
            let p = w / sum;
            let mean = draws * p;
            let sd = (draws * p * (1.0 - p)).sqrt();
            let seen = (*c / unit) as f64;
            assert!(
                (seen - mean).abs() < 5.0 * sd,
                "weights {weights:?}: {seen} draws of one source, expected {mean} ± {sd}"
            );
        }
    }
}

#[test]
fn a_mixture_is_a_function_of_its_seed_and_epoch() {
    let make = |seed| {
        Mix::of_samples(5)
            .source(provider(0, 23, 4, 1), 2.0)
            .unwrap()
            .source(stream(1, 17, 3, 2), 1.0)
            .unwrap()
            .stopping(Stopping::AllExhausted)
            .seed(seed)
    };
    let mut a = make(9);
    let mut b = make(9);
    let first = lent(&mut a);
    assert_eq!(first, lent(&mut b));
    a.start_epoch(1);
    b.start_epoch(1);
    let second = lent(&mut a);
    assert_eq!(second, lent(&mut b));
    assert_ne!(first, second, "another epoch draws again");
    // Prefetched: the same batches.
    let mut pre = make(9).prefetched(2);
    let ids: Vec<Vec<usize>> = served(&mut pre, |_| Vec::new())
        .into_iter()
        .map(|s| s.0)
        .collect();
    assert_eq!(ids, first.iter().map(|s| s.0.clone()).collect::<Vec<_>>());
    // Another seed: other draws.
    assert_ne!(lent(&mut make(10)), first);
}

#[test]
fn first_exhausted_ends_when_the_source_drawn_runs_out() {
    for seed in 0..20 {
        let mut mix = Mix::of_samples(4)
            .source(provider(0, 10, 3, seed), 0.5)
            .unwrap()
            .source(provider(1, 40, 5, seed), 0.5)
            .unwrap()
            .seed(seed);
        let batches = lent(&mut mix);
        let all: Vec<usize> = batches.iter().flat_map(|b| b.0.clone()).collect();
        let per = by_source(&all);
        // No sample twice; the first source (10 samples, half the draws) runs out first, and the
        // epoch ends there: all of it served, part of the other.
        let mut unique = all.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), all.len(), "seed {seed}: a sample twice");
        assert_eq!(per[&0].len(), 10, "seed {seed}");
        assert!(per.get(&1).map_or(0, Vec::len) < 40, "seed {seed}");
        assert_eq!(
            mix.served(),
            vec![10, per.get(&1).map_or(0, Vec::len) as u64]
        );
        for (ids, info, counts) in &batches {
            assert_eq!(ids.len(), info.count_samples);
            assert_eq!(counts.iter().sum::<usize>(), ids.len());
            let here = by_source(ids);
            for (s, c) in counts.iter().enumerate() {
                assert_eq!(*c, here.get(&s).map_or(0, Vec::len));
            }
        }
        // Each source's samples in its own order: the provider's shuffled epoch.
        let own = served(&mut provider(0, 10, 3, seed), |_| Vec::new());
        let own: Vec<usize> = own
            .iter()
            .flat_map(|b| b.0.iter().map(|i| i % 1000))
            .collect();
        assert_eq!(per[&0], own);
    }
}

#[test]
fn all_exhausted_serves_every_sample_and_ends_when_the_last_source_runs_out() {
    for seed in 0..20 {
        let mut mix = Mix::of_samples(4)
            .source(provider(0, 5, 2, seed), 0.5)
            .unwrap()
            .source(stream(1, 30, 4, seed), 0.5)
            .unwrap()
            .source(provider(2, 7, 3, seed), 0.0)
            .unwrap()
            .stopping(Stopping::AllExhausted)
            .seed(seed);
        let all: Vec<usize> = lent(&mut mix).into_iter().flat_map(|b| b.0).collect();
        let per = by_source(&all);
        // Every sample of the sources with a weight at least once; the last to run out (the
        // stream, 30 samples at half the draws) exactly once; the small one oversampled. A
        // source of weight 0 is never drawn and does not hold the epoch open.
        let mut stream_ids = per[&1].clone();
        stream_ids.sort_unstable();
        assert_eq!(stream_ids, (0..30).collect::<Vec<_>>(), "seed {seed}");
        let small = &per[&0];
        assert!(small.len() > 5, "seed {seed}: oversampled");
        for i in 0..5 {
            assert!(
                small.contains(&i),
                "seed {seed}: sample {i} of the small source"
            );
        }
        // Its passes: each pass a permutation of its 5 samples (the last pass may be cut).
        for pass in small.chunks(5) {
            let mut p = pass.to_vec();
            p.sort_unstable();
            p.dedup();
            assert_eq!(
                p.len(),
                pass.len(),
                "seed {seed}: a sample twice in one pass"
            );
        }
        assert!(!per.contains_key(&2));
    }
}

#[test]
fn endless_never_ends_and_batches_of_one_source_stay_whole() {
    let mut mix = Mix::of_batches()
        .source(provider(0, 6, 3, 1), 1.0)
        .unwrap()
        .source(provider(1, 4, 2, 1), 1.0)
        .unwrap()
        .stopping(Stopping::Endless)
        .seed(3)
        .take_batches(200);
    let batches = served(&mut mix, |_| Vec::new());
    assert_eq!(batches.len(), 200);
    for (ids, info, _) in &batches {
        let per = by_source(ids);
        assert_eq!(per.len(), 1, "a batch of one source");
        let s = *per.keys().next().unwrap();
        assert_eq!(info.count_samples, if s == 0 { 3 } else { 2 });
    }
}

#[test]
fn weights_change_between_epochs_and_bad_weights_are_refused() {
    let mut mix = Mix::of_samples(10)
        .source(endless(0, 5), 1.0)
        .unwrap()
        .source(endless(1, 5), 0.0)
        .unwrap()
        .stopping(Stopping::Endless)
        .take_batches(3);
    let first: Vec<usize> = served(&mut mix, |_| Vec::new())
        .into_iter()
        .flat_map(|b| b.0)
        .collect();
    assert!(first.iter().all(|i| i / 1000 == 0));
    let mut mix = mix;
    mix.start_epoch(1);
    // Through the take: the mixture is inside. Build again to set weights.
    let mut mix = Mix::of_samples(10)
        .source(endless(0, 5), 1.0)
        .unwrap()
        .source(endless(1, 5), 0.0)
        .unwrap()
        .stopping(Stopping::Endless);
    mix.set_weights(&[0.0, 1.0]).unwrap();
    let b = mix.next_owned().unwrap().unwrap();
    assert!(b.0.id.array().iter().all(|&v| v >= 1000.0));
    assert_eq!(mix.weights(), vec![0.0, 1.0]);
    for (weights, words) in [
        (vec![1.0], "1 weights given for 2 sources"),
        (vec![-1.0, 1.0], "the weight of source 0 is -1"),
        (vec![f64::NAN, 1.0], "is NaN"),
        (vec![0.0, 0.0], "sum to 0"),
    ] {
        let e = mix.set_weights(&weights).unwrap_err().to_string();
        assert!(e.contains(words), "{e}");
    }
    let e = Mix::<Ids>::of_samples(2)
        .last_batch(LastBatch::Pad)
        .err()
        .unwrap();
    assert!(e.to_string().contains("short or dropped, not `pad`"), "{e}");
}

#[test]
fn a_source_of_one_epoch_cannot_be_oversampled() {
    let once = |s: usize, n: usize| {
        Stream::<Ids, Ids>::once(
            (0..n).map(move |i| Ids {
                id: Batch::new(ndarray::array![[(s * 1000 + i) as f32]]).unwrap(),
            }),
            2,
        )
    };
    let mut mix = Mix::of_samples(3)
        .source(once(0, 2), 1.0)
        .unwrap()
        .source(once(1, 50), 1.0)
        .unwrap()
        .stopping(Stopping::AllExhausted)
        .seed(1);
    let e = std::iter::from_fn(|| mix.next_owned())
        .find_map(Result::err)
        .expect("an error when the small source is started again");
    assert!(
        e.to_string()
            .contains("source 0 served no sample in a new pass"),
        "{e}"
    );
}

/// A mixture of the kind the property draws.
#[derive(Clone, Debug)]
struct Plan {
    sizes: Vec<(usize, usize, bool)>,
    weights: Vec<f64>,
    batch: Option<usize>,
    stopping: Stopping,
    drop_last: bool,
    seed: u64,
}

fn plans() -> impl Strategy<Value = Plan> {
    (
        proptest::collection::vec((1usize..20, 1usize..5, any::<bool>(), 0u32..4), 1..4),
        prop_oneof![Just(None), (1usize..7).prop_map(Some)],
        prop_oneof![
            Just(Stopping::FirstExhausted),
            Just(Stopping::AllExhausted),
            Just(Stopping::Endless)
        ],
        any::<bool>(),
        0u64..1000,
    )
        .prop_map(|(parts, batch, stopping, drop_last, seed)| {
            let mut weights: Vec<f64> = parts.iter().map(|p| f64::from(p.3)).collect();
            if weights.iter().all(|&w| w == 0.0) {
                weights[0] = 1.0;
            }
            Plan {
                sizes: parts.iter().map(|p| (p.0, p.1, p.2)).collect(),
                weights,
                batch,
                stopping,
                drop_last,
                seed,
            }
        })
}

fn build(plan: &Plan) -> Mix<'static, Ids> {
    let mut mix = match plan.batch {
        Some(bs) => Mix::of_samples(bs),
        None => Mix::of_batches(),
    };
    for (s, (&(n, bs, is_stream), &w)) in plan.sizes.iter().zip(&plan.weights).enumerate() {
        mix = if is_stream {
            mix.source(stream(s, n, bs, plan.seed + s as u64), w)
        } else {
            mix.source(provider(s, n, bs, plan.seed + s as u64), w)
        }
        .unwrap();
    }
    let last = if plan.drop_last {
        LastBatch::Drop
    } else {
        LastBatch::Short
    };
    mix.stopping(plan.stopping)
        .seed(plan.seed)
        .last_batch(last)
        .unwrap()
}

/// Up to 40 batches of the epoch, with the state before each and after the last.
fn epoch_with_states(mix: &mut Mix<'static, Ids>) -> (Vec<Served>, Vec<SourceState>) {
    let mut states = vec![mix.state()];
    let mut batches = Vec::new();
    while batches.len() < 40 {
        let Some(b) = mix.next_batch() else { break };
        let (batch, info) = b.unwrap();
        let ids = batch
            .id
            .array()
            .column(0)
            .iter()
            .take(info.count_samples)
            .map(|&v| v as usize)
            .collect();
        batches.push((ids, info, batch.counts().to_vec()));
        states.push(mix.state());
    }
    (batches, states)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// For random mixtures (1-3 providers or streams of random sizes and batch sizes, weights
    /// 0-3, by samples or batches, each stopping strategy, short or dropped last batches,
    /// seeds): resumed from a JSON state at any boundary of epoch 0 or 1, a new mixture serves
    /// exactly the batches the uninterrupted run served, then the next epoch as it did; weights
    /// set before the epoch come back from the state.
    #[test]
    fn a_mixture_resumes_at_every_boundary(plan in plans(), at in 0usize..41, epoch in 0u64..2, reweight in any::<bool>()) {
        let mut run = build(&plan);
        let weights: Vec<f64> = if reweight {
            plan.weights.iter().rev().map(|w| w + 0.5).collect()
        } else {
            plan.weights.clone()
        };
        run.start_epoch(epoch);
        run.set_weights(&weights).unwrap();
        let (batches, states) = epoch_with_states(&mut run);
        let at = at.min(batches.len());
        run.start_epoch(epoch + 1);
        let (next, _) = epoch_with_states(&mut run);

        let saved: SourceState = serde_json::from_str(&serde_json::to_string(&states[at]).unwrap()).unwrap();
        let mut resumed = build(&plan);
        resumed.resume(&saved).unwrap();
        prop_assert_eq!(resumed.weights(), weights);
        let (rest, _) = epoch_with_states(&mut resumed);
        let expected: Vec<Served> = batches[at..].to_vec();
        prop_assert_eq!(&rest[..expected.len().min(rest.len())], &expected[..]);
        if batches.len() < 40 {
            prop_assert_eq!(rest.len(), expected.len());
            resumed.start_epoch(epoch + 1);
            let (again, _) = epoch_with_states(&mut resumed);
            prop_assert_eq!(again, next);
        }
    }
}

#[test]
fn a_state_of_another_mixture_is_refused_in_words() {
    let plan = Plan {
        sizes: vec![(5, 2, false), (6, 3, true)],
        weights: vec![1.0, 1.0],
        batch: Some(4),
        stopping: Stopping::FirstExhausted,
        drop_last: false,
        seed: 1,
    };
    let state = build(&plan).state();
    let other = Plan {
        stopping: Stopping::AllExhausted,
        ..plan.clone()
    };
    let e = build(&other).resume(&state).unwrap_err().to_string();
    assert!(e.contains("plan") && e.contains("all exhausted"), "{e}");
    let other = Plan {
        seed: 2,
        ..plan.clone()
    };
    let e = build(&other).resume(&state).unwrap_err().to_string();
    assert!(e.contains("seed"), "{e}");
    let three = Plan {
        sizes: vec![(5, 2, false), (6, 3, true), (4, 1, false)],
        weights: vec![1.0, 1.0, 1.0],
        ..plan
    };
    let e = build(&three).resume(&state).unwrap_err().to_string();
    assert!(e.contains("mixture of 3 sources"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A mixture's saved state with a damaged position (its epoch, batch or sample count
    /// edited, up to `u64::MAX`) resumes or is refused in words, promptly; never a panic or a
    /// hang.
    #[test]
    fn a_damaged_position_resumes_or_is_refused(
        plan in plans(), at in 0usize..10, edits in [position(), position(), position()],
    ) {
        let mut run = build(&plan);
        for _ in 0..at {
            let _ = run.next_owned();
        }
        let state = edited(&run.state(), edits);
        let t = std::time::Instant::now();
        let mut resumed = build(&plan);
        if resumed.resume(&state).is_ok() {
            let served = std::iter::from_fn(|| resumed.next_owned()).take(1000).count();
            // An endless mixture never ends its epoch.
            prop_assert!(served < 1000 || plan.stopping == Stopping::Endless, "served {served} batches");
        }
        prop_assert!(t.elapsed().as_secs() < 5, "took {:?}", t.elapsed());
    }
}
