//! Per-sample stages as properties: a filter serves exactly the source's samples that pass, in
//! the source's order, in batches of the source's size (a plain loop over the source is the
//! reference); a map makes each sample one of another spec; an error of the stage's function
//! reaches the consumer at its batch; and a stage resumed from its state at any boundary serves
//! the uninterrupted run's batches, in that epoch and the next.

use batchspec::data::{BatchSource, DataError, Dataset, Mix, Provider, SourceState, Stopping};
use batchspec::iteration::{LastBatch, Order, Schedule};
use batchspec::prelude::*;
use proptest::prelude::*;
use std::sync::Arc;

#[derive(DataSpec)]
struct Ids {
    #[spec(source = "id")]
    id: Batch<Vector<1>>,
}

#[derive(DataSpec)]
struct Pairs {
    #[spec(source = "pair")]
    pair: Batch<Vector<2, f64>>,
}

fn provider(n: usize, bs: usize, seed: u64, last: LastBatch) -> Provider<'static, Ids, Ids> {
    let x = ndarray::Array2::from_shape_fn((n, 1), |(i, _)| i as f32);
    let ds = Arc::new(
        Dataset::new(Ids {
            id: Batch::new(x).unwrap(),
        })
        .unwrap(),
    );
    let schedule = Schedule::builder(n)
        .batch_size(bs)
        .order(Order::Shuffled)
        .last_batch(last)
        .seed(seed)
        .build()
        .unwrap();
    Provider::shared(ds, schedule).unwrap()
}

fn ids(batch: &Ids, n: usize) -> Vec<usize> {
    batch
        .id
        .array()
        .column(0)
        .iter()
        .take(n)
        .map(|&v| v as usize)
        .collect()
}

/// The epoch's batches as ids.
fn epoch<S: BatchSource<Ids>>(s: &mut S) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    while let Some(b) = s.next_batch() {
        let (batch, info) = b.unwrap();
        out.push(ids(&batch, info.count_samples));
    }
    out
}

#[test]
fn a_filter_serves_the_samples_that_pass_in_order_in_batches_of_the_source_size() {
    for seed in 0..10 {
        let reference: Vec<usize> = epoch(&mut provider(37, 5, seed, LastBatch::Short))
            .into_iter()
            .flatten()
            .filter(|i| i % 3 != 0)
            .collect();
        let mut kept = provider(37, 5, seed, LastBatch::Short)
            .filter_samples(|s: &Ids| !(s.id.array()[[0, 0]] as usize).is_multiple_of(3));
        let batches = epoch(&mut kept);
        assert!(batches[..batches.len() - 1].iter().all(|b| b.len() == 5));
        assert_eq!(batches.concat(), reference, "seed {seed}");
        // The next epoch: the source's next epoch, filtered.
        kept.start_epoch(1);
        let mut source = provider(37, 5, seed, LastBatch::Short);
        source.start_epoch(1);
        let reference: Vec<usize> = epoch(&mut source)
            .into_iter()
            .flatten()
            .filter(|i| i % 3 != 0)
            .collect();
        assert_eq!(epoch(&mut kept).concat(), reference);
    }
}

#[test]
fn padding_of_the_source_is_not_a_sample() {
    // The source pads its last batch (37 = 7 × 5 + 2): the stage sees 37 samples, not 40.
    let mut all = provider(37, 5, 1, LastBatch::Pad).filter_samples(|_: &Ids| true);
    let served: usize = epoch(&mut all).iter().map(Vec::len).sum();
    assert_eq!(served, 37);
}

#[test]
fn a_map_makes_each_sample_one_of_another_spec() {
    let mut pairs = provider(10, 4, 2, LastBatch::Short).map_samples(|s: Ids| {
        let v = f64::from(s.id.array()[[0, 0]]);
        Ok(Pairs {
            pair: Batch::new(ndarray::array![[v, v * v]])?,
        })
    });
    let mut seen = Vec::new();
    while let Some(b) = pairs.next_owned() {
        let (batch, info) = b.unwrap();
        for row in batch
            .pair
            .array()
            .rows()
            .into_iter()
            .take(info.count_samples)
        {
            assert_eq!(row[1], row[0] * row[0]);
            seen.push(row[0] as usize);
        }
    }
    seen.sort_unstable();
    assert_eq!(seen, (0..10).collect::<Vec<_>>());
}

#[test]
fn an_error_of_the_function_reaches_the_consumer_at_its_batch_and_the_stage_goes_on() {
    let mut stage = provider(10, 4, 0, LastBatch::Short).filter_map_samples(|s: Ids| {
        if s.id.array()[[0, 0]] == 5.0 {
            Err(DataError::Mixture("sample 5 is bad".into()))
        } else {
            Ok(Some(s))
        }
    });
    let mut served = 0;
    let mut errors = 0;
    while let Some(b) = stage.next_batch() {
        match b {
            Ok((_, info)) => served += info.count_samples,
            Err(e) => {
                assert!(e.to_string().contains("sample 5 is bad"));
                errors += 1;
            }
        }
    }
    assert_eq!((served, errors), (9, 1));
}

#[test]
fn stages_and_mixtures_compose() {
    // A mixture of two filtered sources, filtered again: every sample passes both filters and
    // comes from one of the sources.
    let odd = provider(20, 3, 1, LastBatch::Short)
        .filter_samples(|s: &Ids| s.id.array()[[0, 0]] as usize % 2 == 1);
    let small =
        provider(20, 4, 2, LastBatch::Short).filter_samples(|s: &Ids| s.id.array()[[0, 0]] < 10.0);
    let mut mix = Mix::of_samples(6)
        .source(odd, 1.0)
        .unwrap()
        .source(small, 1.0)
        .unwrap()
        .stopping(Stopping::AllExhausted)
        .filter_samples(|s: &Ids| s.id.array()[[0, 0]] != 3.0);
    let all: Vec<usize> = epoch(&mut mix).concat();
    assert!(!all.is_empty());
    assert!(all.iter().all(|&i| i != 3 && (i % 2 == 1 || i < 10)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A filter (or a map after it) resumed from a JSON state at any batch boundary serves the
    /// uninterrupted run's batches, then the next epoch as it did.
    #[test]
    fn a_stage_resumes_at_every_boundary(
        n in 1usize..40, bs in 1usize..6, modulus in 1usize..5, seed in 0u64..100,
        at in 0usize..40, epoch_at in 0u64..2, map in any::<bool>(),
    ) {
        let make = || {
            let kept = provider(n, bs, seed, LastBatch::Short)
                .filter_samples(move |s: &Ids| (s.id.array()[[0, 0]] as usize).is_multiple_of(modulus));
            if map {
                Box::new(kept.map_samples(|s: Ids| Ok(Ids { id: Batch::new(s.id.array().mapv(|v| v + 100.0))? })))
                    as Box<dyn StageOfIds>
            } else {
                Box::new(kept) as Box<dyn StageOfIds>
            }
        };
        let mut run = make();
        run.start(epoch_at);
        let mut states = vec![run.save()];
        let mut batches = Vec::new();
        while let Some(b) = run.next() {
            batches.push(b);
            states.push(run.save());
        }
        run.start(epoch_at + 1);
        let next: Vec<_> = std::iter::from_fn(|| run.next()).collect();
        let at = at.min(batches.len());
        let saved: SourceState = serde_json::from_str(&serde_json::to_string(&states[at]).unwrap()).unwrap();
        let mut resumed = make();
        resumed.load(&saved);
        let rest: Vec<_> = std::iter::from_fn(|| resumed.next()).collect();
        prop_assert_eq!(&rest[..], &batches[at..]);
        resumed.start(epoch_at + 1);
        let again: Vec<_> = std::iter::from_fn(|| resumed.next()).collect();
        prop_assert_eq!(again, next);
    }
}

/// A stage of either kind, behind one type for the property.
trait StageOfIds {
    fn next(&mut self) -> Option<Vec<usize>>;
    fn start(&mut self, epoch: u64);
    fn save(&self) -> SourceState;
    fn load(&mut self, state: &SourceState);
}

impl<S: BatchSource<Ids>> StageOfIds for S {
    fn next(&mut self) -> Option<Vec<usize>> {
        self.next_batch().map(|b| {
            let (batch, info) = b.unwrap();
            ids(&batch, info.count_samples)
        })
    }
    fn start(&mut self, epoch: u64) {
        self.start_epoch(epoch);
    }
    fn save(&self) -> SourceState {
        self.state()
    }
    fn load(&mut self, state: &SourceState) {
        self.resume(state).unwrap();
    }
}
