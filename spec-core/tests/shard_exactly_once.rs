//! Exactly-once as a property: for random row group sizes (row groups of no rows included) over
//! one to a few files, 1 to 8 ranks, windows of 1 to 4 row groups, batch sizes, seeds,
//! read-ahead (on a thread per window, or on fewer threads with the serving thread reading the
//! windows they have not started), prefetch and resumes, in every epoch, each tail policy keeps
//! its promise, read in memory (`ShardPlan::load`) and streamed (`ParquetStream`):
//!
//! - `Uneven` serves every row of the files exactly once across the ranks;
//! - `Pad` serves every row of a rank's share at least once, repeats only to reach the count of
//!   the fullest rank, and serves nothing of another rank's share;
//! - `Drop` serves a subset of the share, each row at most once, as many as the emptiest rank;
//! - under `Pad` and `Drop` every rank serves the same number of rows and of batches;
//! - no rank is left without rows: a plan that would leave one without is refused in words.
//!
//! The files are written here by the `parquet` crate's `ArrowWriter`, one row group at a time
//! (so that a row group may hold no rows), each row holding its own id.
#![cfg(feature = "parquet")]

use arrow_array::{ArrayRef, Int64Array};
use arrow_schema::{DataType, Field, Schema};
use batchspec::data::{BatchSource, SourceState};
use batchspec::iteration::LastBatch;
use batchspec::load::{LoadError, ParquetFiles, ParquetStream, Rank, ShardPlan, Tail};
use batchspec::prelude::*;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::compute_leaves;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(DataSpec)]
struct Ids {
    #[spec(source = "id")]
    id: Batch<Index<1_000_000>>,
}

/// Writes one Parquet file whose row groups hold the ids `first..first + rows`, one row group
/// per entry (a row group of 0 rows included: `ArrowWriter::write` would skip it, so each row
/// group is written through the writer's column writers).
fn write_file(path: &Path, groups: &[(i64, usize)]) {
    let schema = Arc::new(Schema::new(vec![Field::new("id", DataType::Int64, false)]));
    let file = std::fs::File::create(path).unwrap();
    let writer = ArrowWriter::try_new(file, schema.clone(), None).unwrap();
    let (mut file_writer, factory) = writer.into_serialized_writer().unwrap();
    for (i, &(first, rows)) in groups.iter().enumerate() {
        let mut columns = factory.create_column_writers(i).unwrap();
        let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(first..first + rows as i64));
        for leaf in compute_leaves(schema.field(0), &ids).unwrap() {
            columns[0].write(&leaf).unwrap();
        }
        let mut group = file_writer.next_row_group().unwrap();
        for column in columns {
            column
                .close()
                .unwrap()
                .append_to_row_group(&mut group)
                .unwrap();
        }
        group.close().unwrap();
    }
    file_writer.close().unwrap();
}

/// A directory of its own for one case, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "batchspec-exactly-once-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// The row groups `sizes`, a new file after each row group whose `cut` is set, written as
/// `part-00000.parquet`, ... into `dir`; the ids run 0.. across the files in order.
fn write_parts(dir: &Path, sizes: &[usize], cuts: &[bool]) -> usize {
    let mut files: Vec<Vec<(i64, usize)>> = vec![Vec::new()];
    let mut next = 0i64;
    for (i, &rows) in sizes.iter().enumerate() {
        files.last_mut().unwrap().push((next, rows));
        next += rows as i64;
        if cuts[i] && i + 1 < sizes.len() {
            files.push(Vec::new());
        }
    }
    for (f, groups) in files.iter().enumerate() {
        write_file(&dir.join(format!("part-{f:05}.parquet")), groups);
    }
    next as usize
}

/// How one case streams.
#[derive(Clone, Copy, Debug)]
struct Streaming {
    batch: usize,
    window: usize,
    /// Windows read ahead at once (0: none).
    read_ahead: usize,
    /// The threads reading them (`None`: the default, one per window up to one fewer than the
    /// cores), the serving thread reading the windows none has started when the one it needs
    /// is not read yet.
    reading_threads: Option<usize>,
    prefetch: Option<usize>,
    drop_last: bool,
    /// Resume after this fraction (in 1/16ths) of the batches and compare with the rest.
    resume_at: usize,
}

fn ids(batch: &Ids) -> Vec<i64> {
    batch.id.array().iter().copied().collect()
}

/// The rows a rank serves in memory.
fn loaded(files: &ParquetFiles, plan: &ShardPlan, epoch: u64) -> Vec<i64> {
    ids(&plan.load::<Ids>(files, epoch).unwrap().into_fields())
}

fn stream(
    files: &ParquetFiles,
    plan: &ShardPlan,
    epoch: u64,
    how: Streaming,
) -> ParquetStream<Ids> {
    let s = ParquetStream::<Ids>::new(files, plan, epoch, how.batch, how.window);
    let s = s.read_ahead_windows(how.read_ahead);
    let s = match how.reading_threads {
        Some(threads) => s.reading_threads(threads),
        None => s,
    };
    if how.drop_last {
        s.last_batch(LastBatch::Drop).unwrap()
    } else {
        s
    }
}

/// The batches a rank's stream serves, plain, then checked against read-ahead, prefetch and a
/// resumed stream as the case asks.
fn streamed(
    files: &ParquetFiles,
    plan: &ShardPlan,
    epoch: u64,
    how: Streaming,
) -> Result<Vec<Vec<i64>>, TestCaseError> {
    let plain = Streaming {
        read_ahead: 0,
        ..how
    };
    let mut s = stream(files, plan, epoch, plain);
    let batches: Vec<Vec<i64>> = std::iter::from_fn(|| s.next_batch())
        .map(|b| ids(&b.unwrap()))
        .collect();
    if how.read_ahead > 0 {
        let mut s = stream(files, plan, epoch, how);
        let ahead: Vec<Vec<i64>> = std::iter::from_fn(|| s.next_batch())
            .map(|b| ids(&b.unwrap()))
            .collect();
        prop_assert_eq!(&ahead, &batches, "read ahead");
    }
    if let Some(ahead) = how.prefetch {
        let batch = how.batch;
        let mut p = stream(files, plan, epoch, how).prefetch(ahead, move || Ids {
            id: Batch::zeros(batch, 0),
        });
        let mut fetched = Vec::new();
        while let Some(b) = p.next_batch() {
            let b = b.unwrap();
            let n = b.info.count_samples;
            fetched.push(ids(&b)[..n].to_vec());
        }
        prop_assert_eq!(&fetched, &batches, "prefetched");
    }
    let k = batches.len() * how.resume_at / 16;
    let mut s = stream(files, plan, epoch, how);
    s.seek(k).unwrap();
    let rest: Vec<Vec<i64>> = std::iter::from_fn(|| s.next_batch())
        .map(|b| ids(&b.unwrap()))
        .collect();
    prop_assert_eq!(&rest[..], &batches[k..], "resumed at batch {}", k);
    // The position as a value: the state after `k` batches, through JSON, resumed by a stream
    // made for another epoch (and behind a prefetch thread), serves the same rest.
    let mut s = stream(files, plan, epoch, how);
    for _ in 0..k {
        s.next_batch();
    }
    let state: SourceState =
        serde_json::from_str(&serde_json::to_string(&s.state()).unwrap()).unwrap();
    prop_assert_eq!(state.batches() as usize, k);
    let mut other = stream(files, plan, epoch + 1, how);
    other.resume(&state).unwrap();
    let rest: Vec<Vec<i64>> = std::iter::from_fn(|| other.next_batch())
        .map(|b| ids(&b.unwrap()))
        .collect();
    prop_assert_eq!(
        &rest[..],
        &batches[k..],
        "resumed from its state at batch {}",
        k
    );
    let mut fetched = stream(files, plan, epoch + 2, how).prefetched(1);
    fetched.resume(&state).unwrap();
    let rest: Vec<Vec<i64>> = std::iter::from_fn(|| fetched.next_owned())
        .map(|b| ids(&b.unwrap().0))
        .collect();
    prop_assert_eq!(
        &rest[..],
        &batches[k..],
        "prefetched, resumed from its state at batch {}",
        k
    );
    Ok(batches)
}

/// How often each id is served.
fn multiplicity(served: &[i64]) -> BTreeMap<i64, usize> {
    let mut m = BTreeMap::new();
    for &id in served {
        *m.entry(id).or_insert(0) += 1;
    }
    m
}

/// What a rank serves under `tail`, given its own share (sorted) and the count it must reach;
/// `whole` is false for a stream that dropped its short last batch.
fn check_share(
    tail: Tail,
    own: &[i64],
    served: &[i64],
    count: usize,
    whole: bool,
) -> Result<(), TestCaseError> {
    let times = multiplicity(served);
    prop_assert!(
        times.keys().all(|id| own.binary_search(id).is_ok()),
        "{:?} serves rows of another rank's share",
        tail
    );
    prop_assert_eq!(served.len(), count);
    let most = times.values().copied().max().unwrap_or(0);
    match tail {
        Tail::Uneven | Tail::Drop => prop_assert!(most <= 1, "{:?} repeats a row", tail),
        // Repeats only to reach the count: no row is served more often than an even spread of
        // the count over the share needs.
        Tail::Pad => prop_assert!(
            most <= count.div_ceil(own.len().max(1)),
            "Pad serves a row {} times for {} rows over a share of {}",
            most,
            count,
            own.len()
        ),
    }
    if whole && tail != Tail::Drop {
        let missing: Vec<i64> = own
            .iter()
            .copied()
            .filter(|id| !times.contains_key(id))
            .collect();
        prop_assert!(
            missing.is_empty(),
            "{:?} never serves rows {:?} of the share",
            tail,
            missing
        );
    }
    Ok(())
}

fn exactly_once(
    sizes: &[usize],
    cuts: &[bool],
    world: usize,
    seed: Option<u64>,
    how: Streaming,
) -> Result<(), TestCaseError> {
    let dir = TempDir::new();
    let total = write_parts(&dir.0, sizes, cuts);
    let files = ParquetFiles::open(&dir.0).unwrap();
    let with_rows = sizes.iter().filter(|&&n| n > 0).count();
    let made: Vec<Result<ShardPlan, LoadError>> = (0..world)
        .map(|r| ShardPlan::new(&files, Rank::new(r, world).unwrap()))
        .collect();
    if with_rows < world {
        // A rank would get no rows: refused, in words.
        for plan in made {
            let err = plan.unwrap_err();
            prop_assert!(
                matches!(err, LoadError::Shard { .. })
                    && err
                        .to_string()
                        .contains(&format!("{with_rows} row groups for {world} ranks")),
                "{}",
                err
            );
        }
        return Ok(());
    }
    let plans: Vec<ShardPlan> = made
        .into_iter()
        .map(|p| {
            let p = p.unwrap();
            match seed {
                Some(s) => p.shuffle(s),
                None => p,
            }
        })
        .collect();
    for epoch in 0..3 {
        // Each rank's own share, in memory: every row of the files exactly once across ranks.
        let own: Vec<Vec<i64>> = plans
            .iter()
            .map(|p| {
                let mut own = loaded(&files, &p.clone().tail(Tail::Uneven), epoch);
                own.sort_unstable();
                own
            })
            .collect();
        let mut union = own.concat();
        union.sort_unstable();
        prop_assert_eq!(
            union,
            (0..total as i64).collect::<Vec<_>>(),
            "epoch {}",
            epoch
        );
        prop_assert!(own.iter().all(|o| !o.is_empty()), "a rank has no rows");
        let most = own.iter().map(Vec::len).max().unwrap();
        let fewest = own.iter().map(Vec::len).min().unwrap();
        for tail in [Tail::Uneven, Tail::Pad, Tail::Drop] {
            let mut batch_counts = Vec::new();
            let mut streamed_union = Vec::new();
            for (r, plan) in plans.iter().enumerate() {
                let plan = plan.clone().tail(tail);
                let count = match tail {
                    Tail::Uneven => own[r].len(),
                    Tail::Pad => most,
                    Tail::Drop => fewest,
                };
                prop_assert_eq!(plan.samples(epoch), count);
                // In memory.
                check_share(tail, &own[r], &loaded(&files, &plan, epoch), count, true)?;
                // Streamed.
                let batches = streamed(&files, &plan, epoch, how)?;
                let full = batches.iter().all(|b| b.len() == how.batch);
                let short = batches[..batches.len().saturating_sub(1)]
                    .iter()
                    .all(|b| b.len() == how.batch);
                let sizes_fit = if how.drop_last { full } else { short };
                prop_assert!(
                    sizes_fit,
                    "batch sizes {:?}",
                    batches.iter().map(Vec::len).collect::<Vec<_>>()
                );
                let served = batches.concat();
                let served_count = if how.drop_last {
                    count - count % how.batch
                } else {
                    count
                };
                check_share(tail, &own[r], &served, served_count, !how.drop_last)?;
                batch_counts.push(batches.len());
                streamed_union.extend(served);
            }
            if tail != Tail::Uneven {
                prop_assert!(
                    batch_counts.windows(2).all(|w| w[0] == w[1]),
                    "{:?}: batches per rank {:?}",
                    tail,
                    batch_counts
                );
            } else if !how.drop_last {
                streamed_union.sort_unstable();
                prop_assert_eq!(streamed_union, (0..total as i64).collect::<Vec<_>>());
            }
        }
    }
    Ok(())
}

fn streaming() -> impl Strategy<Value = Streaming> {
    (
        1usize..=6,
        1usize..=4,
        (0usize..=4, prop::option::of(1usize..=2)),
        prop::option::of(0usize..=2),
        prop::bool::weighted(0.25),
        0usize..=16,
    )
        .prop_map(
            |(batch, window, (read_ahead, reading_threads), prefetch, drop_last, resume_at)| {
                Streaming {
                    batch,
                    window,
                    read_ahead,
                    reading_threads,
                    prefetch,
                    drop_last,
                    resume_at,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_tail_policy_keeps_its_promise_in_memory_and_streamed(
        (sizes, cuts) in (1usize..=14).prop_flat_map(|n| (
            prop::collection::vec(prop_oneof![1 => Just(0usize), 4 => 1usize..=7], n),
            prop::collection::vec(prop::bool::weighted(0.3), n),
        )),
        world in 1usize..=8,
        seed in prop::option::of(any::<u64>()),
        how in streaming(),
    ) {
        exactly_once(&sizes, &cuts, world, seed, how)?;
    }
}

/// One step of a stream kept from epoch to epoch: the epoch started (`None`: the one after the
/// step before, as a training loop goes), how many of its first batches are skipped by `seek`
/// (`None`: none), how many are then served (`None`: all), and where, if anywhere, the stream
/// is resumed from its own state on the way.
#[derive(Clone, Debug)]
struct Step {
    jump: Option<u64>,
    skip: Option<usize>,
    take: Option<usize>,
    resume_at: Option<usize>,
}

fn step() -> impl Strategy<Value = Step> {
    (
        prop::option::weighted(0.25, 0u64..5),
        prop::option::weighted(0.4, 0usize..8),
        prop::option::weighted(0.2, 0usize..12),
        prop::option::weighted(0.2, 0usize..12),
    )
        .prop_map(|(jump, skip, take, resume_at)| Step {
            jump,
            skip,
            take,
            resume_at,
        })
}

/// A stream kept from epoch to epoch, which reads the next epoch's first windows while an
/// epoch's last ones are served when epochs follow each other, against a fresh stream of each
/// epoch that reads nothing ahead.
fn kept_across_epochs(
    sizes: &[usize],
    cuts: &[bool],
    world: usize,
    seed: Option<u64>,
    how: Streaming,
    steps: &[Step],
) -> Result<(), TestCaseError> {
    let dir = TempDir::new();
    write_parts(&dir.0, sizes, cuts);
    let files = ParquetFiles::open(&dir.0).unwrap();
    if sizes.iter().filter(|&&n| n > 0).count() < world {
        return Ok(());
    }
    let plan = ShardPlan::new(&files, Rank::new(world - 1, world).unwrap()).unwrap();
    let plan = match seed {
        Some(s) => plan.shuffle(s),
        None => plan,
    };
    let fresh = |epoch: u64| -> Vec<Vec<i64>> {
        let plain = Streaming {
            read_ahead: 0,
            ..how
        };
        let mut s = stream(&files, &plan, epoch, plain);
        std::iter::from_fn(|| s.next_batch())
            .map(|b| ids(&b.unwrap()))
            .collect()
    };
    let mut kept = stream(&files, &plan, 0, how);
    let mut epoch = 0u64;
    for (k, step) in steps.iter().enumerate() {
        if k > 0 {
            epoch = step.jump.unwrap_or(epoch + 1);
        }
        kept.start_epoch(epoch);
        let mut want = fresh(epoch);
        if let Some(skip) = step.skip {
            kept.seek(skip).unwrap();
            want.drain(..skip.min(want.len()));
        }
        let take = step.take.map_or(want.len(), |t| t.min(want.len()));
        let mut got = Vec::new();
        while got.len() < take {
            if Some(got.len()) == step.resume_at {
                let state = kept.state();
                kept.resume(&state).unwrap();
            }
            got.push(ids(&kept.next_batch().unwrap().unwrap()));
        }
        if take == want.len() {
            prop_assert!(kept.next_batch().is_none(), "epoch {} ends", epoch);
        }
        prop_assert_eq!(&got[..], &want[..take], "step {} (epoch {})", k, epoch);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_stream_kept_from_epoch_to_epoch_serves_each_epoch_as_a_fresh_one(
        (sizes, cuts) in (1usize..=10).prop_flat_map(|n| (
            prop::collection::vec(prop_oneof![1 => Just(0usize), 4 => 1usize..=7], n),
            prop::collection::vec(prop::bool::weighted(0.3), n),
        )),
        world in 1usize..=3,
        seed in prop::option::of(any::<u64>()),
        how in streaming(),
        steps in prop::collection::vec(step(), 1..=6),
    ) {
        kept_across_epochs(&sizes, &cuts, world, seed, how, &steps)?;
    }
}

#[test]
fn an_epoch_read_ahead_then_sought_into_serves_from_where_it_was_sought() {
    // Epoch 1 follows epoch 0, so epoch 2's first windows are read while epoch 1 ends; epoch 2
    // then skips its first window and more by `seek`: what was read ahead is not served.
    let step = |jump, skip| Step {
        jump,
        skip,
        take: None,
        resume_at: None,
    };
    let how = Streaming {
        batch: 1,
        window: 1,
        read_ahead: 2,
        reading_threads: None,
        prefetch: None,
        drop_last: false,
        resume_at: 0,
    };
    let steps = [step(None, None), step(None, None), step(None, Some(4))];
    kept_across_epochs(&[3, 3, 3], &[false; 3], 1, Some(5), how, &steps).unwrap();
    let steps = [step(None, None), step(None, None), step(Some(2), Some(7))];
    kept_across_epochs(
        &[2, 0, 5, 1],
        &[false, true, false, false],
        1,
        None,
        how,
        &steps,
    )
    .unwrap();
}

/// Elastic resume of Parquet streams: a job of `w` ranks steps `k` batches together, its state
/// (of a rank still serving, through JSON) is resumed by a job of `w2` ranks, which steps `k2`
/// batches, whose state is resumed by a job of `w3` ranks, which ends the epoch. Across all of
/// them, under `Uneven` every row of the files is served exactly once; under `Pad` every row at
/// least once; under `Drop` (and a dropped last batch) at most once. The next epoch of the last
/// job is a fresh stream's.
fn elastic(
    sizes: &[usize],
    cuts: &[bool],
    worlds: [usize; 3],
    steps: [usize; 2],
    seed: Option<u64>,
    tail: Tail,
    how: Streaming,
) -> Result<(), TestCaseError> {
    let dir = TempDir::new();
    let rows = write_parts(&dir.0, sizes, cuts);
    let files = ParquetFiles::open(&dir.0).unwrap();
    let plan = |r, w| -> Option<ShardPlan> {
        let p = ShardPlan::new(&files, Rank::new(r, w).unwrap())
            .ok()?
            .tail(tail);
        Some(match seed {
            Some(s) => p.shuffle(s),
            None => p,
        })
    };
    let job = |w| (0..w).map(|r| plan(r, w)).collect::<Option<Vec<_>>>();
    let (Some(first), Some(second), Some(third)) = (job(worlds[0]), job(worlds[1]), job(worlds[2]))
    else {
        return Ok(());
    };
    let epoch = 1;
    let mut served: Vec<i64> = Vec::new();
    // Steps every rank of `streams` together, `k` batches (all for `None`); the state of a rank
    // that served the most.
    let mut step = |streams: &mut Vec<ParquetStream<Ids>>, k: Option<usize>| {
        let mut state: Option<SourceState> = None;
        for s in streams.iter_mut() {
            for _ in 0..k.unwrap_or(usize::MAX) {
                let Some(b) = s.next_batch() else { break };
                served.extend(ids(&b.unwrap()));
            }
            let here = s.state();
            if state
                .as_ref()
                .is_none_or(|st| here.batches() > st.batches())
            {
                state = Some(here);
            }
        }
        let state = state.unwrap();
        serde_json::from_str::<SourceState>(&serde_json::to_string(&state).unwrap()).unwrap()
    };
    let mut a: Vec<_> = first
        .iter()
        .map(|p| stream(&files, p, epoch, how))
        .collect();
    let state = step(&mut a, Some(steps[0]));
    let resumed = |plans: &[ShardPlan], state: &SourceState| -> Vec<ParquetStream<Ids>> {
        plans
            .iter()
            .map(|p| {
                let mut s = stream(&files, p, 0, how);
                s.resume(state).unwrap();
                s
            })
            .collect()
    };
    let mut b = resumed(&second, &state);
    let state = step(&mut b, Some(steps[1]));
    let mut c = resumed(&third, &state);
    step(&mut c, None);
    let counts = multiplicity(&served);
    prop_assert!(counts.keys().all(|&id| (0..rows as i64).contains(&id)));
    match tail {
        Tail::Uneven if !how.drop_last => {
            prop_assert_eq!(counts.len(), rows, "every row served");
            prop_assert!(
                counts.values().all(|&n| n == 1),
                "a row served twice: {:?}",
                counts
            );
        }
        Tail::Pad if !how.drop_last => prop_assert_eq!(counts.len(), rows, "every row served"),
        Tail::Drop | Tail::Uneven => {
            prop_assert!(
                counts.values().all(|&n| n == 1),
                "a row served twice: {:?}",
                counts
            );
        }
        Tail::Pad => {}
    }
    // The next epoch is a fresh run's.
    for (s, p) in c.iter_mut().zip(&third) {
        s.start_epoch(epoch + 1);
        let mut fresh = stream(&files, p, epoch + 1, how);
        let mine: Vec<Vec<i64>> = std::iter::from_fn(|| s.next_batch())
            .map(|b| ids(&b.unwrap()))
            .collect();
        let theirs: Vec<Vec<i64>> = std::iter::from_fn(|| fresh.next_batch())
            .map(|b| ids(&b.unwrap()))
            .collect();
        prop_assert_eq!(mine, theirs);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn an_elastic_resume_serves_the_rest_of_the_epoch_across_the_new_ranks(
        (sizes, cuts) in (1usize..=12).prop_flat_map(|n| (
            prop::collection::vec(prop_oneof![1 => Just(0usize), 4 => 1usize..=7], n),
            prop::collection::vec(prop::bool::weighted(0.3), n),
        )),
        worlds in [1usize..=4, 1usize..=4, 1usize..=4],
        steps in [0usize..=4, 0usize..=3],
        seed in prop::option::of(any::<u64>()),
        tail in prop_oneof![Just(Tail::Uneven), Just(Tail::Pad), Just(Tail::Drop)],
        how in streaming(),
    ) {
        elastic(&sizes, &cuts, worlds, steps, seed, tail, how)?;
    }
}

/// The two bugs the property found, as examples. Pad: five ranks, one row group each, so every
/// rank pads to 4 rows; the rank of the 3-row group (ids 7, 8, 9) read its share twice over in
/// one window of 2 row groups (6 rows, shuffled) and served 4 of them, never row 7. A row group
/// of no rows: rank 1 of 2 was dealt row groups of no rows only, served an empty epoch under
/// `Uneven` and failed under `Pad` (row 0 of an empty dataset) while rank 0 served its row.
#[test]
fn found_by_the_property() {
    let how = Streaming {
        batch: 1,
        window: 2,
        read_ahead: 0,
        reading_threads: None,
        prefetch: None,
        drop_last: false,
        resume_at: 0,
    };
    exactly_once(
        &[1, 4, 1, 1, 3],
        &[false; 5],
        5,
        Some(15228284303486961697),
        how,
    )
    .unwrap();
    exactly_once(&[0, 0, 0, 1, 0], &[false; 5], 2, None, how).unwrap();
    exactly_once(&[0, 4, 0, 3], &[true, false, false, false], 2, Some(1), how).unwrap();
}

/// `file` with every row group's footer row count replaced by `rows` (the pages are kept): a
/// footer that lies consistently, re-encoded by the `parquet` crate's own metadata writer.
fn claim_rows(file: &Path, rows: i64) {
    use parquet::file::metadata::{ParquetMetaDataReader, ParquetMetaDataWriter};
    let bytes = std::fs::read(file).unwrap();
    let footer = ParquetMetaDataReader::new()
        .parse_and_finish(&std::fs::File::open(file).unwrap())
        .unwrap();
    let n = bytes.len();
    let footer_len = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
    let mut builder = footer.into_builder();
    let groups = builder
        .take_row_groups()
        .into_iter()
        .map(|g| g.into_builder().set_num_rows(rows).build().unwrap())
        .collect();
    let lying = builder.set_row_groups(groups).build();
    let mut out = bytes[..n - 8 - footer_len].to_vec();
    ParquetMetaDataWriter::new(&mut out, &lying)
        .finish()
        .unwrap();
    std::fs::write(file, out).unwrap();
}

/// Three files of a row group claiming `i64::MAX` rows each (the `parquet` crate's own footer
/// writer sums a file's row groups in an `i64`, so one file cannot hold them): together they
/// overflow a count of rows. The plan refuses them with an error naming the file and the row
/// group, never a panic (with overflow checks) or a wrapped count (without).
#[test]
fn claimed_rows_that_overflow_a_count_are_an_error_naming_the_row_group() {
    let dir = TempDir::new();
    write_parts(&dir.0, &[1, 1, 1], &[true; 3]);
    for f in 0..3 {
        claim_rows(&dir.0.join(format!("part-{f:05}.parquet")), i64::MAX);
    }
    let part = dir.0.join("part-00002.parquet");
    let files = ParquetFiles::open(&dir.0).unwrap();
    let err = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(&err, LoadError::File { file, .. } if file == &part),
        "{text}"
    );
    // The reader may refuse the claim itself (more rows than the file's bytes can hold); if
    // not, the plan's sum names the row group at which it overflows.
    assert!(text.contains("row group"), "{text}");
}
