//! Per-sample stages on worker threads: at 1, 2 and 8 workers, with a function whose time per
//! sample varies (so workers finish out of order), the batches are exactly those of the same
//! stage on the caller's thread; an error or a panic of the function reaches the consumer at its
//! sample's batch and the stage goes on; a state taken at any boundary resumes with any number
//! of workers, or on one thread, and the reverse; dropping a stage mid-epoch stops its threads.

use batchspec::data::{BatchSource, DataError, Dataset, Provider, SourceState};
use batchspec::iteration::{Order, Schedule};
use batchspec::prelude::*;
use proptest::prelude::*;
use std::sync::Arc;

#[derive(DataSpec)]
struct Ids {
    #[spec(source = "id")]
    id: Batch<Vector<1>>,
}

#[derive(DataSpec)]
struct Squares {
    #[spec(source = "square")]
    sq: Batch<Vector<2, f64>>,
}

fn provider(n: usize, bs: usize, seed: u64) -> Provider<'static, Ids, Ids> {
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
        .seed(seed)
        .build()
        .unwrap();
    Provider::shared(ds, schedule).unwrap()
}

fn id(s: &Ids) -> usize {
    s.id.array()[[0, 0]] as usize
}

/// Keeps the ids not divisible by 3, as (id, id²); sleeps up to 0.3 ms, more for small ids.
#[allow(clippy::type_complexity)]
fn square(s: Ids) -> Result<Option<Squares>, DataError> {
    let i = id(&s);
    std::thread::sleep(std::time::Duration::from_micros(
        ((37 * i) % 11 * 30) as u64,
    ));
    if i.is_multiple_of(3) {
        return Ok(None);
    }
    let v = i as f64;
    Ok(Some(Squares {
        sq: Batch::new(ndarray::array![[v, v * v]])?,
    }))
}

fn rows<S: BatchSource<Squares>>(s: &mut S) -> Vec<Result<Vec<usize>, String>> {
    let mut out = Vec::new();
    while let Some(b) = s.next_batch() {
        out.push(
            b.map(|(batch, info)| {
                batch
                    .sq
                    .array()
                    .rows()
                    .into_iter()
                    .take(info.count_samples)
                    .map(|r| {
                        assert_eq!(r[1], r[0] * r[0]);
                        r[0] as usize
                    })
                    .collect()
            })
            .map_err(|e| e.to_string()),
        );
    }
    out
}

#[test]
fn any_number_of_workers_serves_the_batches_of_one_thread() {
    for seed in 0..3 {
        let serial = rows(&mut provider(100, 7, seed).filter_map_samples(square));
        assert!(serial.len() > 5);
        for workers in [1, 2, 8] {
            let mut stage = provider(100, 7, seed)
                .filter_map_samples(square)
                .workers(workers);
            assert_eq!(rows(&mut stage), serial, "{workers} workers, seed {seed}");
            // The next epoch too.
            stage.start_epoch(1);
            let mut one = provider(100, 7, seed).filter_map_samples(square);
            one.start_epoch(1);
            assert_eq!(rows(&mut stage), rows(&mut one));
        }
    }
}

#[test]
fn an_error_or_a_panic_reaches_its_batch_and_the_stage_goes_on() {
    let f = |s: Ids| -> Result<Option<Ids>, DataError> {
        match id(&s) {
            7 => Err(DataError::Mixture("sample 7 is bad".into())),
            11 => panic!("sample 11 broke the function"),
            _ => Ok(Some(s)),
        }
    };
    let mut stage = provider(20, 4, 0).filter_map_samples(f).workers(4);
    let mut served = Vec::new();
    let mut errors = Vec::new();
    while let Some(b) = stage.next_batch() {
        match b {
            Ok((batch, info)) => served.extend(
                batch
                    .id
                    .array()
                    .iter()
                    .take(info.count_samples)
                    .map(|&v| v as usize),
            ),
            Err(e) => errors.push(e.to_string()),
        }
    }
    served.sort_unstable();
    assert_eq!(
        served,
        (0..20).filter(|&i| i != 7 && i != 11).collect::<Vec<_>>()
    );
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("sample 7 is bad")));
    assert!(
        errors
            .iter()
            .any(|e| e.contains("panicked on a sample: sample 11 broke the function"))
    );
}

#[test]
fn dropping_a_stage_mid_epoch_stops_its_threads() {
    let mut stage = provider(1000, 10, 1).filter_map_samples(square).workers(8);
    stage.next_batch().unwrap().unwrap();
    drop(stage);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// A state taken at any boundary by a stage on `a` workers (0: on the caller's thread),
    /// through JSON, resumes a stage on `b` workers with exactly the rest of the epoch; a state
    /// of that resumed stage, a few batches on, resumes another on `a` workers.
    #[test]
    fn a_state_resumes_with_any_number_of_workers(
        n in 1usize..60, bs in 1usize..6, seed in 0u64..50, at in 0usize..30,
        a in 0usize..4, b in 0usize..4, more in 0usize..3,
    ) {
        let run = |workers: usize| -> Box<dyn Served> {
            let stage = provider(n, bs, seed).filter_map_samples(square);
            if workers == 0 { Box::new(stage) } else { Box::new(stage.workers(workers)) }
        };
        let mut first = run(a);
        let mut states = vec![first.save()];
        let mut batches = Vec::new();
        while let Some(b) = first.next() {
            batches.push(b);
            states.push(first.save());
        }
        let at = at.min(batches.len());
        let saved: SourceState = serde_json::from_str(&serde_json::to_string(&states[at]).unwrap()).unwrap();
        let mut second = run(b);
        second.load(&saved);
        // A few batches, then a state of the resumed stage, resumed again on `a` workers.
        let mut rest: Vec<_> = std::iter::from_fn(|| second.next()).take(more).collect();
        let again = second.save();
        let mut third = run(a);
        third.load(&again);
        rest.extend(std::iter::from_fn(|| third.next()));
        prop_assert_eq!(&rest[..], &batches[at..]);
    }
}

trait Served {
    fn next(&mut self) -> Option<Vec<usize>>;
    fn save(&self) -> SourceState;
    fn load(&mut self, state: &SourceState);
}

impl<S: BatchSource<Squares>> Served for S {
    fn next(&mut self) -> Option<Vec<usize>> {
        self.next_batch().map(|b| {
            let (batch, info) = b.unwrap();
            batch
                .sq
                .array()
                .column(0)
                .iter()
                .take(info.count_samples)
                .map(|&v| v as usize)
                .collect()
        })
    }
    fn save(&self) -> SourceState {
        self.state()
    }
    fn load(&mut self, state: &SourceState) {
        self.resume(state).unwrap();
    }
}
