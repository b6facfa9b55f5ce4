//! Resume as a property: for random datasets, schedules (every order and last-batch policy),
//! shards, epochs and resume points, a source resumed from its state (in memory, through JSON
//! and CBOR, after two resumes in a row, behind a prefetch thread, in a new process) serves
//! exactly the batches the uninterrupted run served after that point; elastic resume (a state
//! of W ranks resumed by W' ranks, twice in a row) serves the rest of the epoch exactly once
//! across the new ranks, and the next epoch as a fresh run of W' ranks; a state of another
//! source is refused in words.

use batchspec::data::{
    BatchInfo, BatchSource, Dataset, Generator, Position, Provider, SourceState, Stream,
};
use batchspec::iteration::{LastBatch, Order, Schedule, Shard};
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

/// A dataset whose sample `i` holds `i`.
fn dataset(n: usize) -> Arc<Dataset<Ids>> {
    let x = ndarray::Array2::from_shape_fn((n, 1), |(i, _)| i as f32);
    Arc::new(
        Dataset::new(Ids {
            id: Batch::new(x).unwrap(),
        })
        .unwrap(),
    )
}

/// A batch as its real samples' ids and its info.
type Served = (Vec<usize>, BatchInfo);

fn ids(batch: &Ids, info: BatchInfo) -> Served {
    let ids = batch
        .id
        .array()
        .column(0)
        .into_iter()
        .take(info.count_samples);
    (ids.map(|&v| v as usize).collect(), info)
}

/// The rest of the source's epoch.
fn drain<S: BatchSource<Ids>>(source: &mut S) -> Vec<Served> {
    std::iter::from_fn(|| source.next_owned())
        .map(|b| {
            let (batch, info) = b.unwrap();
            ids(&batch, info)
        })
        .collect()
}

fn orders() -> impl Strategy<Value = (Order, LastBatch)> {
    prop_oneof![
        Just((Order::Sequential, LastBatch::Short)),
        Just((Order::Sequential, LastBatch::Pad)),
        Just((Order::Sequential, LastBatch::Drop)),
        Just((Order::Sequential, LastBatch::RollOver)),
        Just((Order::Shuffled, LastBatch::Short)),
        Just((Order::Shuffled, LastBatch::Pad)),
        Just((Order::Shuffled, LastBatch::Drop)),
        Just((Order::Shuffled, LastBatch::RollOver)),
        Just((Order::BatchwiseShuffled, LastBatch::Short)),
        Just((Order::BatchwiseShuffled, LastBatch::Drop)),
        Just((Order::RandomUniform, LastBatch::Short)),
        Just((Order::RandomSlice, LastBatch::Short)),
    ]
}

fn schedule(
    n: usize,
    bs: usize,
    (order, last): (Order, LastBatch),
    seed: u64,
    shard: Shard,
) -> Option<Schedule> {
    let b = Schedule::builder(n)
        .batch_size(bs)
        .order(order)
        .last_batch(last)
        .seed(seed)
        .shard(shard);
    let b = if order.is_with_replacement() {
        b.num_batches(3)
    } else {
        b
    };
    b.build().ok()
}

fn round_trip(state: &SourceState, how: u8) -> SourceState {
    match how % 3 {
        0 => state.clone(),
        1 => serde_json::from_str(&serde_json::to_string(state).unwrap()).unwrap(),
        _ => {
            let mut bytes = Vec::new();
            ciborium::into_writer(state, &mut bytes).unwrap();
            ciborium::from_reader(bytes.as_slice()).unwrap()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// A provider (and the same provider prefetched) resumed at every batch boundary of an
    /// epoch, through a serialized state, then resumed again later in the same epoch, serves
    /// exactly the uninterrupted run's batches; so does the next epoch.
    #[test]
    fn provider_resumes_at_every_boundary(
        n in 1usize..40, bs in 1usize..7, plan in orders(), seed in 0u64..1000,
        parts in 1usize..4, part in 0usize..4, epoch in 0u64..3, how in 0u8..3, prefetch in any::<bool>(),
    ) {
        let shard = Shard::new(part % parts, parts).unwrap();
        let Some(schedule) = schedule(n, bs, plan, seed, shard) else { return Ok(()) };
        let ds = dataset(n);
        let fresh = || Provider::<Ids, Ids>::shared(ds.clone(), schedule.clone()).unwrap();
        let mut run = fresh();
        run.start_epoch(epoch);
        let mut states = vec![run.state()];
        let mut full = Vec::new();
        while let Some((b, info)) = run.next_owned() {
            full.push(ids(&b, info));
            states.push(run.state());
        }
        run.start_epoch(epoch + 1);
        let next_epoch = drain(&mut run);
        for (k, state) in states.iter().enumerate() {
            prop_assert_eq!(state.batches() as usize, k);
            let state = round_trip(state, how);
            let mut resumed = fresh();
            resumed.resume(&state).unwrap();
            let rest = if prefetch {
                let mut p = resumed.prefetched(1);
                prop_assert_eq!(p.state().batches() as usize, k);
                drain(&mut p)
            } else {
                drain(&mut resumed)
            };
            prop_assert_eq!(&rest[..], &full[k..], "resumed at batch {}", k);
            // Two resumes in a row: from the middle of the rest.
            let mid = k + (full.len() - k) / 2;
            let mut again = fresh();
            again.resume(&state).unwrap();
            for _ in k..mid { again.next_owned(); }
            let mut third = fresh();
            third.resume(&round_trip(&again.state(), how)).unwrap();
            prop_assert_eq!(&drain(&mut third)[..], &full[mid..], "resumed at {} then {}", k, mid);
            third.start_epoch(epoch + 1);
            prop_assert_eq!(&drain(&mut third), &next_epoch);
        }
    }

    /// Elastic resume: a job of `w` ranks saves its state after `k` steps and a job of `w2`
    /// ranks resumes it (and, after `k2` more steps, a job of `w3`): across all ranks, the
    /// samples served before and after are the uninterrupted epoch's, each exactly once
    /// (`Short`, `Pad`) or at most once (`Drop`); the epoch after is a fresh run's.
    #[test]
    fn elastic_resume_serves_the_rest_exactly_once(
        n in 1usize..60, bs in 1usize..6, seed in 0u64..1000, epoch in 0u64..3,
        w in 1usize..5, w2 in 1usize..6, w3 in 1usize..6, k in 0usize..8, k2 in 0usize..5,
        shuffled in any::<bool>(), last in prop_oneof![Just(LastBatch::Short), Just(LastBatch::Pad), Just(LastBatch::Drop)],
        how in 0u8..3,
    ) {
        let order = if shuffled { Order::Shuffled } else { Order::Sequential };
        let ds = dataset(n);
        let sched = |r, world| schedule(n, bs, (order, last), seed, Shard::new(r, world).unwrap());
        let Some(scheds) = (0..w).map(|r| sched(r, w)).collect::<Option<Vec<_>>>() else { return Ok(()) };
        let Some(scheds2) = (0..w2).map(|r| sched(r, w2)).collect::<Option<Vec<_>>>() else { return Ok(()) };
        let Some(scheds3) = (0..w3).map(|r| sched(r, w3)).collect::<Option<Vec<_>>>() else { return Ok(()) };
        let provider = |s: &Schedule| Provider::<Ids, Ids>::shared(ds.clone(), s.clone()).unwrap();
        // The uninterrupted epoch, over all ranks of the first job.
        let mut whole: BTreeMap<usize, usize> = BTreeMap::new();
        for s in &scheds {
            let mut p = provider(s);
            p.start_epoch(epoch);
            for (b, _) in drain(&mut p) { for i in b { *whole.entry(i).or_default() += 1; } }
        }
        // The first job: every rank takes (up to) `k` steps; the state of a rank still serving.
        let mut seen: BTreeMap<usize, usize> = BTreeMap::new();
        let step = |sources: &mut Vec<Provider<'static, Ids, Ids>>, steps: usize, seen: &mut BTreeMap<usize, usize>| {
            let mut state = sources[0].state();
            for p in sources.iter_mut() {
                for _ in 0..steps {
                    let Some((b, info)) = p.next_owned() else { break };
                    for i in ids(&b, info).0 { *seen.entry(i).or_default() += 1; }
                }
                if p.state().batches() > state.batches() { state = p.state(); }
            }
            state
        };
        let mut first: Vec<_> = scheds.iter().map(|s| { let mut p = provider(s); p.start_epoch(epoch); p }).collect();
        let state = round_trip(&step(&mut first, k, &mut seen), how);
        // The second job resumes it, takes `k2` steps; the third resumes that and ends the epoch.
        let mut second: Vec<_> = scheds2.iter().map(|s| { let mut p = provider(s); p.resume(&state).unwrap(); p }).collect();
        let state2 = round_trip(&step(&mut second, k2, &mut seen), how);
        let mut third: Vec<_> = scheds3.iter().map(|s| { let mut p = provider(s); p.resume(&state2).unwrap(); p }).collect();
        step(&mut third, usize::MAX, &mut seen);
        match last {
            LastBatch::Drop => {
                prop_assert!(seen.values().all(|&c| c == 1), "a sample served twice under Drop");
                prop_assert!(seen.keys().all(|i| i < &n));
            }
            _ => prop_assert_eq!(&seen, &whole, "not the uninterrupted epoch's samples, once each"),
        }
        // The next epoch is a fresh run's of the third job.
        for (p, s) in third.iter_mut().zip(&scheds3) {
            p.start_epoch(epoch + 1);
            let mut fresh = provider(s);
            fresh.start_epoch(epoch + 1);
            prop_assert_eq!(drain(p), drain(&mut fresh));
        }
    }

    /// A stream (shuffle buffer, shard, each last-batch policy) and a generator by position
    /// resume at every batch boundary; so do take, skip and map around a provider.
    #[test]
    fn streams_generators_and_combinators_resume(
        n in 1usize..40, bs in 1usize..6, buffer in 1usize..9, seed in 0u64..100,
        ranks in 1usize..3, rank in 0usize..3, epoch in 0u64..3,
        last in prop_oneof![Just(LastBatch::Short), Just(LastBatch::Pad), Just(LastBatch::Drop)],
        take in 0usize..6, skip in 0usize..6, how in 0u8..3,
    ) {
        let make = move || {
            Stream::<Ids, Ids>::new(
                move |e| (0..n).map(move |i| Ids { id: Batch::new(ndarray::array![[(i as u64 + e) as f32]]).unwrap() }),
                bs,
            )
            .shuffle(buffer, seed)
            .shard(rank % ranks, ranks)
            .unwrap()
            .last_batch(last)
            .unwrap()
        };
        check_every_boundary(make, epoch, how)?;
        let gen_make = move || {
            Generator::<Ids, _>::by_position(bs, move |q: &mut Ids, at: Position| {
                (at.batch < n as u64).then(|| {
                    q.id.array_mut().fill((at.epoch * 1000 + at.batch) as f32);
                    Ok(BatchInfo { count_samples: bs, pad: 0 })
                })
            })
        };
        check_every_boundary(gen_make, epoch, how)?;
        let ds = dataset(n);
        let Some(s) = schedule(n, bs, (Order::Shuffled, last), seed, Shard::whole()) else { return Ok(()) };
        let combined = move || {
            Provider::<Ids, Ids>::shared(ds.clone(), s.clone())
                .unwrap()
                .skip_batches(skip)
                .take_batches(take)
                .map_batches(|mut q: Ids, _| {
                    q.id.array_mut().mapv_inplace(|v| v * 2.0);
                    Ok(q)
                })
        };
        check_every_boundary(combined, epoch, how)?;
    }
}

/// The source made by `make`, resumed at every batch boundary of `epoch` (and prefetched),
/// serves the uninterrupted run's batches.
fn check_every_boundary<S, F>(make: F, epoch: u64, how: u8) -> Result<(), TestCaseError>
where
    S: BatchSource<Ids> + Send + 'static,
    F: Fn() -> S,
{
    let mut run = make();
    run.start_epoch(epoch);
    let mut states = vec![run.state()];
    let mut full = Vec::new();
    while let Some(b) = run.next_owned() {
        let (b, info) = b.unwrap();
        full.push(ids(&b, info));
        states.push(run.state());
    }
    for (k, state) in states.iter().enumerate() {
        let mut resumed = make();
        resumed.resume(&round_trip(state, how)).unwrap();
        prop_assert_eq!(
            &drain(&mut resumed)[..],
            &full[k..],
            "resumed at batch {}",
            k
        );
        let mut prefetched = make().prefetched(1);
        prefetched.resume(&round_trip(state, how)).unwrap();
        prop_assert_eq!(
            &drain(&mut prefetched)[..],
            &full[k..],
            "prefetched, resumed at {}",
            k
        );
        // Two resumes in a row: from the middle of the rest, by a third source.
        let mid = k + (full.len() - k) / 2;
        let mut again = make();
        again.resume(&round_trip(state, how)).unwrap();
        for _ in k..mid {
            again.next_owned();
        }
        let mut third = make();
        third.resume(&round_trip(&again.state(), how)).unwrap();
        prop_assert_eq!(
            &drain(&mut third)[..],
            &full[mid..],
            "resumed at {} then {}",
            k,
            mid
        );
    }
    Ok(())
}

#[derive(DataSpec)]
struct Other {
    #[spec(source = "other")]
    id: Batch<Vector<1>>,
}

/// A state of another dataset, request, seed, plan or number of ranks is refused, naming the
/// part that differs; never a silent restart from zero.
#[test]
fn a_state_of_another_source_is_refused_in_words() {
    let ds = dataset(10);
    let sched = |seed, bs, shard| {
        Schedule::builder(10)
            .batch_size(bs)
            .shuffle(true)
            .seed(seed)
            .shard(shard)
            .build()
            .unwrap()
    };
    let mut p = Provider::<Ids, Ids>::shared(ds.clone(), sched(1, 3, Shard::whole())).unwrap();
    p.next_owned();
    let state = p.state();
    let refused = |mut q: Provider<'static, Ids, Ids>| q.resume(&state).unwrap_err().to_string();
    let seed = refused(Provider::shared(ds.clone(), sched(2, 3, Shard::whole())).unwrap());
    assert_eq!(
        seed,
        "the saved state belongs to another source: its seed is 1, but this source's is 2"
    );
    let plan = refused(Provider::shared(ds.clone(), sched(1, 4, Shard::whole())).unwrap());
    assert!(
        plan.contains("its plan is 10 samples, batch 3,") && plan.contains("batch 4"),
        "{plan}"
    );
    let data = refused(
        Provider::shared(
            dataset(11),
            Schedule::builder(11)
                .batch_size(3)
                .shuffle(true)
                .seed(1)
                .build()
                .unwrap(),
        )
        .unwrap(),
    );
    assert!(data.contains("its data"), "{data}");
    // Another request over the same data.
    let mut other = Provider::<Ids, Ids>::shared(ds.clone(), sched(1, 3, Shard::whole())).unwrap();
    other.next_owned();
    let stream_state = Stream::<Ids, Ids>::once(vec![], 2).state();
    let kind = other.resume(&stream_state).unwrap_err().to_string();
    assert!(
        kind.contains("its kind of source is stream, but this source's is provider"),
        "{kind}"
    );
    let mut s = Stream::<Other, Other>::once(vec![], 2);
    let request = s
        .resume(&Stream::<Ids, Ids>::once(vec![], 2).state())
        .unwrap_err()
        .to_string();
    assert!(request.contains("its request"), "{request}");
    // A stream cannot resume with another number of ranks.
    let mut sharded = Stream::<Ids, Ids>::once(vec![], 2).shard(0, 2).unwrap();
    let ranks = sharded
        .resume(&Stream::<Ids, Ids>::once(vec![], 2).state())
        .unwrap_err()
        .to_string();
    assert!(
        ranks.contains("its number of ranks is 1, but this source's is 2"),
        "{ranks}"
    );
    // Elastic resume of an order with replacement is refused in words.
    let uniform = |shard| {
        Schedule::builder(10)
            .batch_size(2)
            .num_batches(3)
            .order(Order::RandomUniform)
            .shard(shard)
            .build()
            .unwrap()
    };
    let mut one = Provider::<Ids, Ids>::shared(ds.clone(), uniform(Shard::whole())).unwrap();
    one.next_owned();
    let mut two = Provider::<Ids, Ids>::shared(ds, uniform(Shard::new(0, 2).unwrap())).unwrap();
    let elastic = two.resume(&one.state()).unwrap_err().to_string();
    assert!(elastic.contains("elastic resume deals the samples left in the epoch, which needs an order without replacement"), "{elastic}");
    // A generator of a plain closure cannot go back.
    let mut g = Generator::<Ids, _>::new(2, |_: &mut Ids| {
        Some(Ok(BatchInfo {
            count_samples: 2,
            pad: 0,
        }))
    });
    let start = BatchSource::state(&g);
    g.next_owned();
    let back = g.resume(&start).unwrap_err().to_string();
    assert!(back.contains("cannot go back"), "{back}");
}

/// A state written to disk by one process is resumed by another: the child (this test binary
/// run again, for the ignored test below) serves the rest of the epoch, which equals the
/// parent's.
#[test]
fn a_state_on_disk_resumes_in_a_new_process() {
    let dir = std::env::temp_dir().join(format!("batchspec-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (state_file, out_file) = (dir.join("state.json"), dir.join("rest.json"));
    let mut run = Provider::<Ids, Ids>::shared(dataset(50), child_schedule()).unwrap();
    run.start_epoch(3);
    for _ in 0..4 {
        run.next_owned();
    }
    std::fs::write(&state_file, serde_json::to_string(&run.state()).unwrap()).unwrap();
    let rest: Vec<Vec<usize>> = drain(&mut run).into_iter().map(|(b, _)| b).collect();
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["resume_in_child", "--exact", "--ignored", "--nocapture"])
        .env("BATCHSPEC_STATE", &state_file)
        .env("BATCHSPEC_REST", &out_file)
        .status()
        .unwrap();
    assert!(status.success());
    let child: Vec<Vec<usize>> =
        serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(child, rest);
    assert!(!rest.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

fn child_schedule() -> Schedule {
    Schedule::builder(50)
        .batch_size(4)
        .shuffle(true)
        .seed(11)
        .build()
        .unwrap()
}

/// The child of [`a_state_on_disk_resumes_in_a_new_process`].
#[test]
#[ignore = "run by a_state_on_disk_resumes_in_a_new_process in a process of its own"]
fn resume_in_child() {
    let (Ok(state), Ok(out)) = (
        std::env::var("BATCHSPEC_STATE"),
        std::env::var("BATCHSPEC_REST"),
    ) else {
        return;
    };
    let state: SourceState =
        serde_json::from_str(&std::fs::read_to_string(state).unwrap()).unwrap();
    let mut resumed = Provider::<Ids, Ids>::shared(dataset(50), child_schedule()).unwrap();
    resumed.resume(&state).unwrap();
    let rest: Vec<Vec<usize>> = drain(&mut resumed).into_iter().map(|(b, _)| b).collect();
    std::fs::write(out, serde_json::to_string(&rest).unwrap()).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A saved state whose position was damaged (an epoch, a batch count or a sample count
    /// edited, up to `u64::MAX`) resumes or is refused in words, promptly; never a panic or a
    /// hang. A provider and a stream.
    #[test]
    fn a_damaged_position_resumes_or_is_refused(
        n in 1usize..30, bs in 1usize..8, o in orders(), seed in any::<u64>(),
        at in 0usize..6, epoch in 0u64..3,
        edits in [position(), position(), position()],
    ) {
        let Some(sched) = schedule(n, bs, o, seed, Shard::whole()) else { return Ok(()) };
        let ds = dataset(n);
        let mut p = Provider::<Ids, Ids>::shared(ds.clone(), sched.clone()).unwrap();
        p.start_epoch(epoch);
        for _ in 0..at { p.next_owned(); }
        let state = edited(&p.state(), edits);
        let t = std::time::Instant::now();
        let mut q = Provider::<Ids, Ids>::shared(ds.clone(), sched.clone()).unwrap();
        if q.resume(&state).is_ok() {
            let served = std::iter::from_fn(|| q.next_owned()).take(1000).count();
            prop_assert!(served < 1000, "served {served} batches");
        }
        let one = |i: usize| Ids { id: Batch::new(ndarray::Array2::from_elem((1, 1), i as f32)).unwrap() };
        let mut s = Stream::<Ids, Ids>::once((0..n).map(one).collect::<Vec<_>>(), bs);
        for _ in 0..at { s.next_owned(); }
        let state = edited(&s.state(), edits);
        let mut r = Stream::<Ids, Ids>::once((0..n).map(one).collect::<Vec<_>>(), bs);
        if r.resume(&state).is_ok() {
            let served = std::iter::from_fn(|| r.next_owned()).take(1000).count();
            prop_assert!(served < 1000, "served {served} batches");
        }
        prop_assert!(t.elapsed().as_secs() < 5, "took {:?}", t.elapsed());
    }
}
