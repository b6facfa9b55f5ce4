//! The Parquet reader on files written by pyarrow (`tests/data/parquet/make_fixtures.py` wrote
//! them; the values are stated there): each accepted encoding, a Spark-style directory, and one
//! file per mistake, each refused with the file, the column, the row and the reason.
#![cfg(feature = "parquet")]

use batchspec::data::Dataset;
use batchspec::load::{LoadError, LoadReason, LocalRank, ParquetFiles, Place};
use batchspec::prelude::*;
use std::path::PathBuf;

mod damaged_state;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/parquet")
        .join(name)
}

/// Sample `i`, pixel `p` (row-major over 2x2) is `4i + p + 0.5`; the label is `i % 3`.
fn pixel(i: usize, p: usize) -> f64 {
    (4 * i + p) as f64 + 0.5
}

#[derive(DataSpec)]
struct Grey {
    #[spec(source = "features")]
    image: Batch<image![2, 2, 1; BHWC]>,
    #[spec(source = "targets")]
    label: Batch<Labels<3>>,
}

fn check_grey(ds: &Dataset<Grey>) {
    assert_eq!(ds.len(), 10);
    let image = ds.fields().image.array();
    let label = ds.fields().label.array();
    for i in 0..10 {
        for p in 0..4 {
            assert_eq!(f64::from(image[[i, p / 2, p % 2, 0]]), pixel(i, p));
        }
        assert_eq!(label[i], (i % 3) as i64);
    }
}

#[test]
fn a_fixed_shape_tensor_column_fills_an_image() {
    let ds =
        Dataset::<Grey>::load(&mut ParquetFiles::open(data("tensor.parquet")).unwrap()).unwrap();
    check_grey(&ds);
}

#[test]
fn a_spark_directory_reads_its_part_files_in_order_and_skips_the_rest() {
    let files = ParquetFiles::open(data("spark_dir")).unwrap();
    assert_eq!(
        files.files().len(),
        3,
        "_SUCCESS and .crc files are not read"
    );
    let ds = Dataset::<Grey>::load(&mut files.clone()).unwrap();
    check_grey(&ds);
}

#[derive(DataSpec)]
struct Doubles {
    #[spec(source = "features")]
    x: Batch<Vector<4, f64>>,
    #[spec(source = "targets")]
    y: Batch<Index<3>>,
}

#[test]
fn a_fixed_size_list_of_doubles_fills_an_f64_vector_and_int32_labels_an_index() {
    let ds =
        Dataset::<Doubles>::load(&mut ParquetFiles::open(data("fixed_size_list.parquet")).unwrap())
            .unwrap();
    for i in 0..10 {
        for p in 0..4 {
            assert_eq!(ds.fields().x.array()[[i, p]], pixel(i, p));
        }
        assert_eq!(ds.fields().y.array()[[i, 0]], (i % 3) as i64);
    }
}

#[derive(DataSpec)]
struct Floats {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
    #[spec(source = "targets")]
    y: Batch<Labels<3, u8>>,
}

#[test]
fn a_large_list_of_uniform_rows_fills_a_vector_as_ray_writes_tensors() {
    let ds = Dataset::<Floats>::load(&mut ParquetFiles::open(data("large_list.parquet")).unwrap())
        .unwrap();
    for i in 0..10 {
        for p in 0..4 {
            assert_eq!(f64::from(ds.fields().x.array()[[i, p]]), pixel(i, p));
        }
        assert_eq!(ds.fields().y.array()[i], (i % 3) as u8);
    }
}

#[test]
fn exact_doubles_fill_an_f32_space() {
    // Every value is k + 0.5, which an f32 holds exactly.
    let mut files = ParquetFiles::open(data("fixed_size_list.parquet")).unwrap();
    let ds = Dataset::<Floats>::load(&mut files).unwrap();
    assert_eq!(ds.fields().x.array()[[9, 3]], 39.5);
}

#[derive(DataSpec)]
struct Channels {
    #[spec(source = "features")]
    x: Batch<image![2, 2, 2; BCHW]>,
}

#[derive(DataSpec)]
struct ChannelsLast {
    #[spec(source = "features")]
    x: Batch<image![2, 2, 2; BHWC]>,
}

#[test]
fn tensor_axis_names_must_follow_the_spaces_memory_order() {
    let ds =
        Dataset::<Channels>::load(&mut ParquetFiles::open(data("tensor_chw.parquet")).unwrap())
            .unwrap();
    // Sample i holds 8i..8i+8 in C, H, W order.
    assert_eq!(ds.fields().x.array()[[3, 1, 0, 1]], (8 * 3 + 4 + 1) as f32);
    let err =
        Dataset::<ChannelsLast>::load(&mut ParquetFiles::open(data("tensor_chw.parquet")).unwrap())
            .map(|_| ())
            .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("tensor_chw.parquet column `features`"),
        "{text}"
    );
    assert!(text.contains("dim_names [C, H, W]"), "{text}");
    assert!(text.contains("layout!(bchw)"), "{text}");
}

/// The place and reason of a load that must fail.
fn refusal<R: batchspec::load::LoadRecord>(file: &str) -> (Place, LoadReason, String) {
    let err = Dataset::<R>::load(&mut ParquetFiles::open(data(file)).unwrap())
        .map(|_| ())
        .unwrap_err();
    let text = err.to_string();
    match err {
        LoadError::File {
            file: path,
            place,
            reason,
            ..
        } => {
            assert!(path.ends_with(file), "{text}");
            (place, *reason, text)
        }
        other => panic!("not a file error: {other}"),
    }
}

fn column(name: &str, row: Option<u64>) -> Place {
    Place::Column {
        name: name.into(),
        row,
    }
}

#[test]
fn a_label_of_minus_one_is_refused_at_its_row() {
    let (place, reason, text) = refusal::<Grey>("label_minus_one.parquet");
    assert_eq!(place, column("targets", Some(7)));
    assert!(matches!(reason, LoadReason::Label { ref value, max_labels: 3 } if value == "-1"));
    assert!(text.contains("(source `targets`)"), "{text}");
}

#[test]
fn a_null_is_refused_at_its_row() {
    let (place, reason, _) = refusal::<Grey>("null_label.parquet");
    assert_eq!(place, column("targets", Some(5)));
    assert_eq!(reason, LoadReason::Null);
}

#[test]
fn a_row_of_another_length_is_refused_at_its_row() {
    let (place, reason, _) = refusal::<Floats>("ragged.parquet");
    assert_eq!(place, column("features", Some(4)));
    assert!(matches!(
        reason,
        LoadReason::RowLength {
            found: 3,
            expected: 4,
            ..
        }
    ));
}

#[test]
fn a_text_column_is_refused_before_any_value_is_read() {
    let (place, reason, text) = refusal::<Grey>("strings.parquet");
    assert_eq!(place, column("targets", None));
    assert!(matches!(reason, LoadReason::ColumnType { .. }), "{text}");
}

#[derive(DataSpec)]
struct Wider {
    #[spec(source = "features")]
    x: Batch<Vector<5>>,
}

#[test]
fn a_fixed_size_list_of_another_length_is_refused_when_the_file_opens() {
    let (place, reason, _) = refusal::<Wider>("fixed_size_list.parquet");
    assert_eq!(place, column("features", None));
    assert!(matches!(
        reason,
        LoadReason::RowLength {
            found: 4,
            expected: 5,
            ..
        }
    ));
}

#[derive(DataSpec)]
struct Masked {
    #[spec(source = "mask")]
    m: Batch<Vector<4>>,
}

#[test]
fn a_missing_column_lists_the_columns_there_are() {
    let (place, reason, _) = refusal::<Masked>("tensor.parquet");
    assert_eq!(place, Place::File);
    assert_eq!(
        reason,
        LoadReason::NoColumn {
            columns: vec!["features".into(), "targets".into()]
        }
    );
    // Another column can be named for the source.
    let mut files = ParquetFiles::open(data("large_list.parquet"))
        .unwrap()
        .column("mask", "features");
    assert_eq!(Dataset::<Masked>::load(&mut files).unwrap().len(), 10);
}

/// zstd (written by pyarrow) with the `parquet-zstd` feature reads as the other codecs do;
/// without it, the error names the feature. Both branches are compiled in every build (`cfg!`,
/// not `#[cfg]`), so that clippy's pass with every feature lints the one it does not run.
#[test]
fn zstd_reads_with_its_feature_and_names_it_without() {
    if cfg!(feature = "parquet-zstd") {
        let mut files = ParquetFiles::open(data("zstd.parquet")).unwrap();
        check_grey(&Dataset::<Grey>::load(&mut files).unwrap());
    } else {
        let (_, reason, text) = refusal::<Grey>("zstd.parquet");
        assert!(matches!(reason, LoadReason::Parquet { .. }), "{text}");
        assert!(text.contains("parquet-zstd"), "{text}");
    }
}

#[test]
fn truncated_and_corrupt_files_are_errors_not_panics() {
    let bytes = std::fs::read(data("tensor.parquet")).unwrap();
    let dir = std::env::temp_dir().join(format!("batchspec-parquet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cases = Vec::new();
    for cut in [0, 4, 8, bytes.len() / 2, bytes.len() - 9, bytes.len() - 1] {
        cases.push(bytes[..cut].to_vec());
    }
    let mut flipped = bytes.clone();
    for b in flipped.iter_mut().skip(4).step_by(97) {
        *b ^= 0x5a;
    }
    cases.push(flipped);
    for (k, case) in cases.iter().enumerate() {
        let path = dir.join(format!("case{k}.parquet"));
        std::fs::write(&path, case).unwrap();
        let result = std::panic::catch_unwind(|| {
            ParquetFiles::open(&path).and_then(|mut f| Dataset::<Grey>::load(&mut f).map(|_| ()))
        });
        let loaded = result.unwrap_or_else(|_| panic!("case {k} panicked"));
        // A flipped byte may land in the values (a different but valid file); a cut never does.
        if k < 6 {
            assert!(loaded.is_err(), "case {k} loaded");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Loads `bytes` as a Parquet file, whole and (for `Ids` files) streamed by row groups: an
/// error or a result, never a panic.
fn load_damaged(bytes: &[u8], path: &std::path::Path) -> bool {
    std::fs::write(path, bytes).unwrap();
    std::panic::catch_unwind(|| {
        let whole =
            ParquetFiles::open(path).and_then(|mut f| Dataset::<Ids>::load(&mut f).map(|_| ()));
        if let Ok(files) = ParquetFiles::open(path)
            && let Ok(plan) = ShardPlan::new(&files, Rank::new(0, 1).unwrap())
        {
            let mut stream = ParquetStream::<Ids>::new(&files, &plan, 0, 4, 2).read_ahead();
            while let Some(batch) = stream.next_batch() {
                if batch.is_err() {
                    break;
                }
            }
        }
        whole.is_ok()
    })
    .is_ok()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
    /// Lying metadata: bytes of the footer (row counts, offsets, sizes, types, the schema's key
    /// values) changed at random, and the length before the magic, are errors, never panics,
    /// whether the file is loaded whole or streamed by row groups.
    #[test]
    fn a_footer_that_lies_is_an_error_not_a_panic(
        flips in proptest::collection::vec((proptest::prelude::any::<proptest::sample::Index>(), 1u8..), 1..6),
        length in proptest::option::of(proptest::prelude::any::<u32>()),
    ) {
        let mut bytes = std::fs::read(data("uneven.parquet")).unwrap();
        let n = bytes.len();
        let footer = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
        let start = n - 8 - footer;
        for (at, v) in flips {
            bytes[start + at.index(footer)] ^= v;
        }
        if let Some(l) = length {
            bytes[n - 8..n - 4].copy_from_slice(&l.to_le_bytes());
        }
        let dir = tempfile::Builder::new().prefix("batchspec-footer-").tempdir().unwrap();
        let path = dir.path().join(format!("{}.parquet", bytes.iter().map(|&b| b as usize).sum::<usize>()));
        proptest::prop_assert!(load_damaged(&bytes, &path), "panicked");
    }
}

// Sharding: `uneven.parquet` holds ids 0..33 in 9 row groups of 5, 3, 7, 1, 4, 3, 2, 6, 2 rows.

use batchspec::load::{Rank, ShardPlan, Tail};

#[derive(DataSpec)]
struct Ids {
    #[spec(source = "id")]
    id: Batch<Index<100>>,
}

fn ids(plan: &ShardPlan, epoch: u64) -> Vec<i64> {
    let files = ParquetFiles::open(data("uneven.parquet")).unwrap();
    let ds = plan.load::<Ids>(&files, epoch).unwrap();
    ds.fields().id.array().iter().copied().collect()
}

fn plans(world: usize, tail: Tail, seed: Option<u64>) -> Vec<ShardPlan> {
    let files = ParquetFiles::open(data("uneven.parquet")).unwrap();
    (0..world)
        .map(|r| {
            let plan = ShardPlan::new(&files, Rank::new(r, world).unwrap())
                .unwrap()
                .tail(tail);
            match seed {
                Some(s) => plan.shuffle(s),
                None => plan,
            }
        })
        .collect()
}

#[test]
fn every_sample_is_served_exactly_once_per_epoch_across_ranks() {
    for world in [1, 2, 3, 8] {
        for epoch in 0..3 {
            // Ranks as threads, as in a job.
            let all = plans(world, Tail::Uneven, Some(11));
            let per_rank: Vec<Vec<i64>> = std::thread::scope(|s| {
                let handles: Vec<_> = all.iter().map(|p| s.spawn(move || ids(p, epoch))).collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            let mut union: Vec<i64> = per_rank.concat();
            union.sort_unstable();
            assert_eq!(
                union,
                (0..33).collect::<Vec<_>>(),
                "world {world}, epoch {epoch}"
            );
            for (r, rank_ids) in per_rank.iter().enumerate() {
                assert_eq!(rank_ids.len(), all[r].samples(epoch));
            }
        }
    }
}

#[test]
fn the_order_is_a_function_of_seed_and_epoch() {
    let a = plans(3, Tail::Uneven, Some(5));
    let b = plans(3, Tail::Uneven, Some(5));
    for epoch in 0..4 {
        for r in 0..3 {
            assert_eq!(a[r].row_groups(epoch), b[r].row_groups(epoch));
        }
    }
    let orders: Vec<Vec<_>> = (0..4).map(|e| a[0].row_groups(e)).collect();
    assert!(orders.windows(2).any(|w| w[0] != w[1]), "epochs reshuffle");
    // Without a seed: file order, dealt in turn.
    let plain = plans(3, Tail::Uneven, None);
    let firsts: Vec<usize> = plain[1].row_groups(0).iter().map(|g| g.index).collect();
    assert_eq!(firsts, [1, 4, 7]);
}

#[test]
fn pad_and_drop_give_every_rank_the_same_number_of_samples() {
    for world in [2, 3, 8] {
        for epoch in 0..3 {
            let own: Vec<usize> = plans(world, Tail::Uneven, Some(3))
                .iter()
                .map(|p| p.samples(epoch))
                .collect();
            let (max, min) = (*own.iter().max().unwrap(), *own.iter().min().unwrap());
            let padded = plans(world, Tail::Pad, Some(3));
            let dropped = plans(world, Tail::Drop, Some(3));
            let mut seen = Vec::new();
            for r in 0..world {
                let p = ids(&padded[r], epoch);
                assert_eq!(p.len(), max);
                // Padding repeats the rank's own samples from its first.
                assert_eq!(p[own[r]..], p[..max - own[r]]);
                seen.extend_from_slice(&p);
                assert_eq!(ids(&dropped[r], epoch).len(), min);
            }
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen, (0..33).collect::<Vec<_>>(), "padding loses nothing");
        }
    }
}

#[test]
fn a_rank_comes_from_torchrun_mpirun_or_slurm_variables_and_errors_name_the_variable() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    };
    let r = Rank::from_vars(env(&[("RANK", "2"), ("WORLD_SIZE", "8")])).unwrap();
    assert_eq!((r.rank(), r.world()), (2, 8));
    let r = Rank::from_vars(env(&[("SLURM_PROCID", "1"), ("SLURM_NTASKS", "4")])).unwrap();
    assert_eq!((r.rank(), r.world()), (1, 4));
    // OpenMPI's mpirun, inside a Slurm allocation: mpirun started the process.
    let r = Rank::from_vars(env(&[
        ("OMPI_COMM_WORLD_RANK", "3"),
        ("OMPI_COMM_WORLD_SIZE", "5"),
        ("SLURM_PROCID", "0"),
        ("SLURM_NTASKS", "1"),
    ]))
    .unwrap();
    assert_eq!((r.rank(), r.world()), (3, 5));
    let cut = Rank::from_vars(env(&[("OMPI_COMM_WORLD_RANK", "3")])).unwrap_err();
    assert!(
        cut.to_string()
            .contains("`OMPI_COMM_WORLD_SIZE` is not set"),
        "{cut}"
    );
    let missing = Rank::from_vars(env(&[("RANK", "0")])).unwrap_err();
    assert!(
        missing.to_string().contains("`WORLD_SIZE` is not set"),
        "{missing}"
    );
    let bad = Rank::from_vars(env(&[("RANK", "two"), ("WORLD_SIZE", "8")])).unwrap_err();
    assert!(bad.to_string().contains("`RANK` is `two`"), "{bad}");
    let past = Rank::from_vars(env(&[("SLURM_PROCID", "4"), ("SLURM_NTASKS", "4")])).unwrap_err();
    assert!(past.to_string().contains("`SLURM_PROCID` is `4`"), "{past}");
    let none = Rank::from_vars(env(&[])).unwrap_err();
    assert!(none.to_string().contains("`RANK` is not set"), "{none}");
}

#[test]
fn a_local_rank_comes_from_each_launchers_variables() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    };
    let local = |pairs| {
        let l = LocalRank::from_vars(env(pairs)).unwrap();
        (l.index(), l.size())
    };
    assert_eq!(
        local(&[("LOCAL_RANK", "1"), ("LOCAL_WORLD_SIZE", "8")]),
        (1, 8)
    );
    assert_eq!(
        local(&[
            ("OMPI_COMM_WORLD_LOCAL_RANK", "2"),
            ("OMPI_COMM_WORLD_LOCAL_SIZE", "4")
        ]),
        (2, 4)
    );
    // Slurm: 2 tasks on each of 3 nodes, then 1; node 3 holds 1, node 1 holds 2.
    assert_eq!(
        local(&[
            ("SLURM_LOCALID", "0"),
            ("SLURM_NODEID", "3"),
            ("SLURM_TASKS_PER_NODE", "2(x3),1"),
        ]),
        (0, 1)
    );
    assert_eq!(
        local(&[
            ("SLURM_LOCALID", "1"),
            ("SLURM_NODEID", "1"),
            ("SLURM_TASKS_PER_NODE", "2(x3),1")
        ]),
        (1, 2)
    );
    assert_eq!(
        local(&[("SLURM_LOCALID", "3"), ("SLURM_TASKS_PER_NODE", "4")]),
        (3, 4)
    );
    let bad = LocalRank::from_vars(env(&[
        ("SLURM_LOCALID", "0"),
        ("SLURM_TASKS_PER_NODE", "2(x"),
    ]))
    .unwrap_err();
    assert!(
        bad.to_string().contains("`SLURM_TASKS_PER_NODE` is `2(x`"),
        "{bad}"
    );
    let past =
        LocalRank::from_vars(env(&[("LOCAL_RANK", "4"), ("LOCAL_WORLD_SIZE", "4")])).unwrap_err();
    assert!(past.to_string().contains("`LOCAL_RANK` is `4`"), "{past}");
    let none = LocalRank::from_vars(env(&[])).unwrap_err();
    assert!(
        none.to_string().contains("`LOCAL_RANK` is not set"),
        "{none}"
    );
}

#[test]
fn more_ranks_than_row_groups_is_refused() {
    let files = ParquetFiles::open(data("uneven.parquet")).unwrap();
    let err = ShardPlan::new(&files, Rank::new(0, 10).unwrap()).unwrap_err();
    assert!(
        err.to_string().contains("9 row groups for 10 ranks"),
        "{err}"
    );
}

#[test]
fn errors_in_a_row_group_name_the_row_of_the_file() {
    // Row group 2 of `label_minus_one.parquet` (rows of 3) holds row 7, the -1.
    let files = ParquetFiles::open(data("label_minus_one.parquet")).unwrap();
    let groups = files.row_groups().unwrap();
    assert_eq!(groups.len(), 4);
    assert_eq!((groups[2].first_row, groups[2].rows), (6, 3));
    let err = Dataset::<Grey>::load(&mut files.select_row_groups(&groups[2..3]))
        .map(|_| ())
        .unwrap_err();
    assert!(err.to_string().contains("column `targets`, row 7"), "{err}");
    // The other row groups load, in the order asked.
    let ds = Dataset::<Grey>::load(&mut files.select_row_groups(&[groups[3], groups[0]])).unwrap();
    assert_eq!(ds.len(), 4);
    assert_eq!(ds.fields().label.array()[0], 0, "row 9 first (9 % 3)");
}

// Streaming a rank's share a window of row groups at a time.

use batchspec::load::ParquetStream;

fn stream_ids(plan: &ShardPlan, epoch: u64, batch: usize, window: usize) -> (Vec<i64>, usize) {
    let files = ParquetFiles::open(data("uneven.parquet")).unwrap();
    let mut stream = ParquetStream::<Ids>::new(&files, plan, epoch, batch, window);
    let (mut out, mut peak) = (Vec::new(), 0);
    while let Some(b) = stream.next_batch() {
        let b = b.unwrap();
        assert!(b.id.len() <= batch);
        out.extend(b.id.array().iter().copied());
        peak = peak.max(stream.buffered());
    }
    (out, peak)
}

#[test]
fn a_stream_serves_the_share_of_its_plan_with_bounded_memory() {
    for world in [1, 2, 3] {
        for tail in [Tail::Uneven, Tail::Pad, Tail::Drop] {
            let all = plans(world, tail, Some(21));
            let mut union = Vec::new();
            for plan in &all {
                let (got, peak) = stream_ids(plan, 1, 4, 2);
                assert_eq!(got.len(), plan.samples(1), "world {world}, {tail:?}");
                // A window of 2 row groups (at most 7 rows each) and less than a batch left over.
                assert!(peak < 4 + 14, "peak {peak}");
                // The rank's own samples (every one of them unless the tail drops some), in
                // another (shuffled) order; which repeat or drop follows the stream's order.
                let own_plan = plan.clone().tail(Tail::Uneven);
                let mut own = ids(&own_plan, 1);
                own.sort_unstable();
                let mut distinct = got.clone();
                distinct.sort_unstable();
                distinct.dedup();
                if tail == Tail::Drop {
                    assert!(distinct.iter().all(|i| own.binary_search(i).is_ok()));
                    assert_eq!(distinct.len(), got.len(), "nothing repeats when dropping");
                } else {
                    assert_eq!(distinct, own, "world {world}, {tail:?}");
                }
                union.extend(got);
            }
            if tail == Tail::Uneven {
                union.sort_unstable();
                assert_eq!(union, (0..33).collect::<Vec<_>>());
            }
        }
    }
}

#[test]
fn a_stream_shuffles_within_windows_deterministically() {
    let plan = &plans(1, Tail::Uneven, Some(9))[0];
    let (a, _) = stream_ids(plan, 0, 5, 3);
    let (b, _) = stream_ids(plan, 0, 5, 3);
    assert_eq!(a, b);
    let (c, _) = stream_ids(plan, 1, 5, 3);
    assert_ne!(a, c, "another epoch, another order");
    let plain = &plans(1, Tail::Uneven, None)[0];
    let (d, _) = stream_ids(plain, 0, 5, 3);
    assert_eq!(d, (0..33).collect::<Vec<_>>(), "no seed: file order");
}

#[derive(DataSpec)]
struct AsOneHot {
    #[spec(source = "id")]
    id: Batch<Vector<100>>,
}

#[test]
fn a_stream_fills_a_request_and_zeroes_the_rows_past_a_short_batch() {
    let plan = &plans(1, Tail::Uneven, None)[0];
    let files = ParquetFiles::open(data("uneven.parquet")).unwrap();
    let mut stream = ParquetStream::<Ids>::new(&files, plan, 0, 10, 4);
    let mut out = AsOneHot {
        id: Batch::zeros(10, 0),
    };
    let mut sizes = Vec::new();
    let mut next_id = 0;
    while let Some(n) = stream.fill_next(&mut out) {
        let n = n.unwrap();
        for row in 0..10 {
            let hot: Vec<usize> = (0..100)
                .filter(|&k| out.id.array()[[row, k]] == 1.0)
                .collect();
            if row < n {
                assert_eq!(hot, [next_id + row]);
            } else {
                assert!(hot.is_empty(), "row {row} past the batch is zero");
            }
        }
        next_id += n;
        sizes.push(n);
    }
    assert_eq!(sizes, [10, 10, 10, 3]);
}

#[test]
fn a_stream_resumes_at_a_batch_without_replaying_the_epoch() {
    let files = ParquetFiles::open(data("uneven.parquet")).unwrap();
    for tail in [Tail::Uneven, Tail::Pad] {
        let plan = &plans(2, tail, Some(4))[1];
        let full: Vec<Vec<i64>> = {
            let mut s = ParquetStream::<Ids>::new(&files, plan, 2, 3, 2);
            std::iter::from_fn(|| s.next_batch())
                .map(|b| b.unwrap().id.array().iter().copied().collect())
                .collect()
        };
        for k in 0..=full.len() {
            let mut s = ParquetStream::<Ids>::new(&files, plan, 2, 3, 2);
            s.seek(k).unwrap();
            let rest: Vec<Vec<i64>> = std::iter::from_fn(|| s.next_batch())
                .map(|b| b.unwrap().id.array().iter().copied().collect())
                .collect();
            assert_eq!(rest, full[k..], "{tail:?}, resumed at batch {k}");
        }
    }
}

#[test]
fn reading_ahead_on_another_thread_serves_the_same_batches() {
    let files = ParquetFiles::open(data("uneven.parquet")).unwrap();
    let batches = |s: &mut ParquetStream<Ids>, peak: &mut usize| {
        let mut out = Vec::new();
        while let Some(b) = s.next_batch() {
            out.push(b.unwrap().id.array().iter().copied().collect::<Vec<i64>>());
            *peak = (*peak).max(s.buffered());
        }
        out
    };
    for world in [1, 2, 3] {
        for tail in [Tail::Uneven, Tail::Pad, Tail::Drop] {
            for plan in &plans(world, tail, Some(5)) {
                for (batch, window) in [(1, 1), (4, 2), (5, 3), (40, 1)] {
                    let (mut a, mut b) = (0, 0);
                    let plain = batches(
                        &mut ParquetStream::<Ids>::new(&files, plan, 3, batch, window),
                        &mut a,
                    );
                    let ahead = batches(
                        &mut ParquetStream::<Ids>::new(&files, plan, 3, batch, window).read_ahead(),
                        &mut b,
                    );
                    assert_eq!(
                        plain, ahead,
                        "world {world}, {tail:?}, batch {batch}, window {window}"
                    );
                    // Two windows (at most 7 rows a row group) and less than a batch.
                    assert!(b < batch + 2 * 7 * window, "peak {b}");
                    // The window in flight counts: never less than without it, more when there is
                    // a window after the first.
                    assert!(b >= a);
                    if plan.row_groups(3).len() > window && batch < 7 {
                        assert!(b > a, "a window is read ahead");
                    }
                }
                let full = batches(
                    &mut ParquetStream::<Ids>::new(&files, plan, 1, 3, 2),
                    &mut 0,
                );
                for k in 0..=full.len() {
                    let mut s = ParquetStream::<Ids>::new(&files, plan, 1, 3, 2).read_ahead();
                    s.seek(k).unwrap();
                    assert_eq!(batches(&mut s, &mut 0), full[k..], "resumed at {k}");
                }
            }
        }
    }
}

#[test]
fn a_reading_error_arrives_in_its_place_whichever_thread_read_the_window() {
    // Row groups of 3, 3, 3 and 1 rows; row 7 (in the third) holds the label -1. In file order,
    // batches of 2 from windows of one row group: three batches (rows 0 to 5), then the error.
    let files = ParquetFiles::open(data("label_minus_one.parquet")).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap();
    let served = |mut s: ParquetStream<Grey>| {
        let mut labels = Vec::new();
        while let Some(b) = s.next_batch() {
            match b {
                Ok(b) => labels.push(b.label.array().iter().copied().collect::<Vec<_>>()),
                Err(e) => return (labels, Some(e), s.next_batch().is_none()),
            }
        }
        (labels, None, true)
    };
    let (plain, err, ended) = served(ParquetStream::<Grey>::new(&files, &plan, 0, 2, 1));
    assert_eq!(plain.len(), 3);
    assert!(ended, "the error ends the epoch");
    let at_row_7 = |e: &Option<LoadError>| matches!(e, Some(LoadError::File { place, .. }) if place == &column("targets", Some(7)));
    assert!(at_row_7(&err), "{err:?}");
    // Read ahead on a thread per window, or on fewer threads with the serving thread reading
    // the windows they have not started: the same batches, then the same error, then the end.
    for (windows, threads) in [(1, 1), (2, 1), (3, 1), (3, 2), (4, 4)] {
        let stream = ParquetStream::<Grey>::new(&files, &plan, 0, 2, 1)
            .read_ahead_windows(windows)
            .reading_threads(threads);
        let (labels, err, ended) = served(stream);
        assert_eq!(labels, plain, "{windows} windows on {threads} threads");
        assert!(
            at_row_7(&err),
            "{windows} windows on {threads} threads: {err:?}"
        );
        assert!(ended);
    }
}

#[test]
fn a_stream_drops_its_short_last_batch_when_asked_and_refuses_roll_over() {
    use batchspec::iteration::LastBatch;
    let files = ParquetFiles::open(data("uneven.parquet")).unwrap();
    for world in [1, 2, 3] {
        let all = plans(world, Tail::Drop, Some(3));
        let counts: Vec<Vec<usize>> = all
            .iter()
            .map(|plan| {
                let mut s = ParquetStream::<Ids>::new(&files, plan, 0, 4, 2)
                    .last_batch(LastBatch::Drop)
                    .unwrap();
                std::iter::from_fn(|| s.next_batch())
                    .map(|b| b.unwrap().id.len())
                    .collect()
            })
            .collect();
        for (plan, sizes) in all.iter().zip(&counts) {
            assert!(sizes.iter().all(|&n| n == 4), "{sizes:?}");
            assert_eq!(sizes.len(), plan.samples(0) / 4);
        }
        assert!(
            counts.windows(2).all(|w| w[0].len() == w[1].len()),
            "same batch count on every rank"
        );
    }
    let plan = &plans(1, Tail::Uneven, None)[0];
    let err = ParquetStream::<Ids>::new(&files, plan, 0, 4, 2)
        .last_batch(LastBatch::RollOver)
        .map(|_| ())
        .unwrap_err();
    assert!(err.to_string().contains("cannot roll-over"), "{err}");
}

#[test]
fn a_prefetched_stream_serves_what_fill_next_serves_and_passes_errors_on() {
    let files = ParquetFiles::open(data("uneven.parquet")).unwrap();
    let plan = &plans(2, Tail::Pad, Some(8))[1];
    let direct: Vec<(usize, Vec<f32>)> = {
        let mut s = ParquetStream::<Ids>::new(&files, plan, 1, 4, 2);
        let mut out = AsOneHot {
            id: Batch::zeros(4, 0),
        };
        let mut all = Vec::new();
        while let Some(n) = s.fill_next(&mut out) {
            all.push((n.unwrap(), out.id.array().iter().copied().collect()));
        }
        all
    };
    let mut prefetch = ParquetStream::<Ids>::new(&files, plan, 1, 4, 2)
        .read_ahead()
        .prefetch(2, || AsOneHot {
            id: Batch::zeros(4, 0),
        });
    let mut fetched = Vec::new();
    while let Some(b) = prefetch.next_batch() {
        let b = b.unwrap();
        assert_eq!(b.info.count_samples + b.info.pad, 4);
        fetched.push((b.info.count_samples, b.id.array().iter().copied().collect()));
    }
    assert_eq!(fetched, direct);

    // The reader's error, whole, behind the provider's error.
    let files = ParquetFiles::open(data("label_minus_one.parquet")).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap();
    let mut prefetch = ParquetStream::<Grey>::new(&files, &plan, 0, 2, 1).prefetch(1, || Grey {
        image: Batch::zeros(2, 0),
        label: Batch::zeros(2, 0),
    });
    let err = std::iter::from_fn(|| prefetch.next_batch().map(|b| b.map(|_| ())))
        .find_map(Result::err)
        .expect("row 7 holds -1");
    let batchspec::data::DataError::Read(source) = &err else {
        panic!("{err:?}")
    };
    let load = source
        .get()
        .downcast_ref::<LoadError>()
        .expect("a LoadError");
    assert!(
        matches!(load, LoadError::File { place, .. } if place == &column("targets", Some(7))),
        "{load}"
    );
}

#[test]
fn a_stream_is_a_batch_source_of_its_records() {
    use batchspec::data::BatchSource;
    // Through the trait, the batches `next_batch` gives, each lent with its rows as samples; a
    // short last batch short.
    let files = ParquetFiles::open(data("uneven.parquet")).unwrap();
    let plan = &plans(2, Tail::Pad, Some(8))[1];
    let direct: Vec<Vec<i64>> = {
        let mut s = ParquetStream::<Ids>::new(&files, plan, 1, 4, 2);
        std::iter::from_fn(|| s.next_batch())
            .map(|b| b.unwrap().id.array().iter().copied().collect())
            .collect()
    };
    let mut s = ParquetStream::<Ids>::new(&files, plan, 1, 4, 2).read_ahead();
    let mut lent: Vec<Vec<i64>> = Vec::new();
    while let Some(b) = BatchSource::next_batch(&mut s) {
        let (batch, info) = b.unwrap();
        assert_eq!((info.count_samples, info.pad), (batch.id.len(), 0));
        lent.push(batch.id.array().iter().copied().collect());
    }
    assert_eq!(lent, direct);
    assert!(lent.last().unwrap().len() < 4, "{lent:?}");

    // The reader's error arrives as `DataError::Read`, and ends the epoch.
    let files = ParquetFiles::open(data("label_minus_one.parquet")).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap();
    let mut s = ParquetStream::<Grey>::new(&files, &plan, 0, 2, 1);
    let err = std::iter::from_fn(|| BatchSource::next_batch(&mut s).map(|b| b.map(|_| ())))
        .find_map(Result::err)
        .expect("row 7 holds -1");
    assert!(
        matches!(err, batchspec::data::DataError::Read(_)),
        "{err:?}"
    );
    assert!(BatchSource::next_batch(&mut s).is_none());
}

#[test]
fn a_directory_written_by_spark_itself_reads_in_order() {
    // `make_spark_fixtures.py`: Spark 4.3 (parquet-mr 1.17) in local mode, `df.write.parquet`, 3 partitions;
    // `array<double>` columns (three-level LIST) and `bigint` labels, snappy.
    let files = ParquetFiles::open(data("spark")).unwrap();
    assert_eq!(files.files().len(), 3);
    let doubles = Dataset::<Doubles>::load(&mut files.clone()).unwrap();
    for i in 0..10 {
        for p in 0..4 {
            assert_eq!(doubles.fields().x.array()[[i, p]], pixel(i, p));
        }
        assert_eq!(doubles.fields().y.array()[[i, 0]], (i % 3) as i64);
    }
    // Exact doubles fill f32 spaces too.
    check_grey(&Dataset::<Grey>::load(&mut files.clone()).unwrap());
    // One row group per part file: three ranks read one file each.
    let shares: Vec<usize> = (0..3)
        .map(|r| {
            ShardPlan::new(&files, Rank::new(r, 3).unwrap())
                .unwrap()
                .tail(Tail::Uneven)
                .samples(0)
        })
        .collect();
    assert_eq!(shares, [3, 3, 4]);
}

// Written by Hugging Face `datasets` 5.2 (`make_hf_fixtures.py`).

#[test]
fn a_hugging_face_array3d_column_of_nested_lists_fills_an_image() {
    let mut files = ParquetFiles::open(data("hf_array3d.parquet")).unwrap();
    check_grey(&Dataset::<Grey>::load(&mut files).unwrap());
    // The rows' nested shape (2, 2, 1) must fit the space, as a .npy file's would.
    #[derive(DataSpec)]
    struct Wide {
        #[spec(source = "features")]
        x: Batch<image![1, 4, 1; BHWC]>,
    }
    let (place, reason, text) = refusal::<Wide>("hf_array3d.parquet");
    assert_eq!(place, column("features", Some(0)));
    assert!(matches!(reason, LoadReason::Tensor(_)), "{text}");
    assert!(text.contains("shape (2, 2, 1)"), "{text}");
}

// Hugging Face `Image` columns: structs of encoded PNG/JPEG bytes (`make_hf_fixtures.py`),
// decoded with the `parquet-image` feature (on for the workspace's tests).

#[cfg(feature = "parquet-image")]
#[derive(DataSpec)]
struct GreyU8 {
    #[spec(source = "features")]
    image: Batch<image![2, 2, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<3>>,
}

#[test]
#[cfg(feature = "parquet-image")]
fn a_hugging_face_image_column_of_pngs_decodes_into_an_image_space() {
    // Image i is 2×2 grey, every pixel of value i; into u8 and (exactly) into f32.
    let file = || ParquetFiles::open(data("hf_image.parquet")).unwrap();
    let u8s = Dataset::<GreyU8>::load(&mut file()).unwrap();
    let floats = Dataset::<Grey>::load(&mut file()).unwrap();
    assert_eq!(u8s.len(), 3);
    for i in 0..3 {
        for (y, x) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            assert_eq!(u8s.fields().image.array()[[i, y, x, 0]], i as u8);
            assert_eq!(floats.fields().image.array()[[i, y, x, 0]], i as f32);
        }
        assert_eq!(u8s.fields().label.array()[[i, 0]], i as i64);
    }
}

#[cfg(feature = "parquet-image")]
#[derive(DataSpec)]
struct Colour {
    #[spec(source = "image")]
    image: Batch<image![4, 4, 3; BHWC, u8]>,
    #[spec(source = "label")]
    label: Batch<Labels<3>>,
}

#[test]
#[cfg(feature = "parquet-image")]
fn a_hugging_face_image_column_of_jpegs_decodes_rgb() {
    // Image i is 4×4 of the colour (40i, 80, 200 - 40i), saved as JPEG (quality 95): a flat
    // colour comes back within a few levels.
    let ds =
        Dataset::<Colour>::load(&mut ParquetFiles::open(data("hf_image_jpeg.parquet")).unwrap())
            .unwrap();
    let image = ds.fields().image.array();
    for i in 0..3 {
        let colour = [40 * i as i32, 80, 200 - 40 * i as i32];
        for y in 0..4 {
            for x in 0..4 {
                for c in 0..3 {
                    let v = i32::from(image[[i, y, x, c]]);
                    assert!(
                        (v - colour[c]).abs() <= 3,
                        "image {i} ({y}, {x}, {c}): {v} vs {}",
                        colour[c]
                    );
                }
            }
        }
    }
    assert_eq!(ds.fields().label.array().as_slice().unwrap(), [0, 1, 2]);
}

#[test]
#[cfg(feature = "parquet-image")]
fn an_image_of_another_size_or_channel_count_is_refused_at_its_row() {
    let (place, reason, text) = refusal::<GreyU8>("hf_image_sizes.parquet");
    assert_eq!(place, column("features", Some(1)));
    assert!(matches!(reason, LoadReason::Decode { .. }), "{text}");
    assert!(
        text.contains("the image is 2×3 pixels (as its header says: it was not decoded)"),
        "{text}"
    );
    assert!(text.contains("is 2×2×1"), "{text}");

    #[derive(DataSpec)]
    struct Grey4 {
        #[spec(source = "image")]
        image: Batch<image![4, 4, 1; BHWC, u8]>,
    }
    let (place, _, text) = refusal::<Grey4>("hf_image_jpeg.parquet");
    assert_eq!(place, column("image", Some(0)));
    assert!(text.contains("4×4 pixels of 3 channels (Rgb8)"), "{text}");
}

#[test]
#[cfg(feature = "parquet-image")]
fn encoded_images_fill_bhwc_spaces_only_and_say_so_when_the_file_opens() {
    #[derive(DataSpec)]
    struct Planar {
        #[spec(source = "features")]
        image: Batch<image![2, 2, 1; BCHW, u8]>,
    }
    let (place, reason, text) = refusal::<Planar>("hf_image.parquet");
    assert_eq!(place, column("features", None));
    assert!(matches!(reason, LoadReason::ColumnType { .. }), "{text}");
    assert!(text.contains("ask for an image in layout bhwc"), "{text}");
}

#[test]
fn nested_lists_of_another_shape_in_a_row_are_refused_at_the_row() {
    let (place, reason, text) = refusal::<Floats>("ragged_nested.parquet");
    assert_eq!(place, column("features", Some(6)));
    assert!(
        matches!(
            reason,
            LoadReason::RowLength {
                found: 1,
                expected: 2,
                ..
            }
        ),
        "{text}"
    );
}

#[test]
fn a_directory_written_by_ray_data_itself_fills_an_image() {
    // `make_ray_fixtures.py`: Ray 2.60 `write_parquet`; the tensor column is Ray's
    // `arrow_tensor_v2` over a LargeList<float32>.
    let mut files = ParquetFiles::open(data("ray")).unwrap();
    assert_eq!(files.files().len(), 1);
    check_grey(&Dataset::<Grey>::load(&mut files).unwrap());
}

#[test]
fn a_ray_tensors_shape_must_fit_the_space() {
    #[derive(DataSpec)]
    struct Row {
        #[spec(source = "features")]
        x: Batch<image![1, 4, 1; BHWC]>,
    }
    let dir = std::fs::read_dir(data("ray")).unwrap();
    let file = dir
        .map(|e| e.unwrap().file_name())
        .find(|n| n.to_string_lossy().ends_with(".parquet"))
        .unwrap();
    let (place, reason, text) = refusal::<Row>(&format!("ray/{}", file.to_string_lossy()));
    assert_eq!(place, column("features", None));
    assert!(matches!(reason, LoadReason::Tensor(_)), "{text}");
    assert!(text.contains("shape (2, 2)"), "{text}");
}

// Augmentations on a stream draw by each row's file and place in it, so a sample gets the same
// choices on any rank of any number of ranks, with any window and batch size.

mod augmented {
    use super::*;
    use batchspec::augment::{Augmentation, Steps};
    use batchspec::load::ParquetStream;
    use std::collections::BTreeMap;

    /// The id column read as a 1×1 grey image.
    #[derive(DataSpec)]
    pub struct IdImage {
        #[spec(source = "id")]
        pub id: Batch<image![1, 1, 1; BHWC, i64]>,
    }

    pub struct Noisy;
    impl Augmentation for Noisy {
        type Input = image![1, 1, 1; BHWC, i64];
        const STEPS: Steps = Steps::new().noise(10.0);
    }

    #[derive(DataSpec)]
    pub struct Request {
        #[spec(source = "id", augment = Noisy)]
        pub noisy: Batch<image![1, 1, 1; BHWC, f64]>,
        #[spec(source = "id")]
        pub id: Batch<image![1, 1, 1; BHWC, i64]>,
    }

    /// Each id served with the noise it got, over all ranks of `world`.
    fn noise_by_id(world: usize, batch: usize, window: usize) -> BTreeMap<i64, f64> {
        let files = ParquetFiles::open(data("uneven.parquet")).unwrap();
        let mut out = BTreeMap::new();
        for plan in plans(world, Tail::Uneven, Some(5)) {
            let mut s = ParquetStream::<IdImage>::new(&files, &plan, 1, batch, window);
            let mut req = Request {
                noisy: Batch::zeros(batch, 0),
                id: Batch::zeros(batch, 0),
            };
            while let Some(n) = s.fill_next(&mut req) {
                let n = n.unwrap();
                for r in 0..n {
                    let id = req.id.array()[[r, 0, 0, 0]];
                    let noise = req.noisy.array()[[r, 0, 0, 0]] - id as f64;
                    assert!(out.insert(id, noise).is_none(), "id {id} twice");
                }
            }
        }
        out
    }

    #[test]
    fn a_sample_gets_the_same_noise_on_any_number_of_ranks() {
        let one = noise_by_id(1, 4, 2);
        assert!(one.len() > 10);
        // The noise is noise (not all equal, not zero).
        assert!(one.values().any(|&v| v.abs() > 1.0));
        assert!(one.values().any(|&v| (v - one[&0]).abs() > 1e-3));
        for (world, batch, window) in [(2, 3, 1), (3, 5, 2), (1, 7, 3)] {
            assert_eq!(
                noise_by_id(world, batch, window),
                one,
                "{world} ranks, batch {batch}, window {window}"
            );
        }
    }
}

/// NaN and infinities: kept by default, refused at their column and row with
/// `NonFinite::Refuse`, in fixed-length columns and in list columns read as ragged sequences
/// (`non_finite.parquet`, written by pyarrow: `make_non_finite_fixtures.py`; rows 4 and 5 are in
/// the file's second row group).
#[test]
fn non_finite_values_follow_the_policy_at_their_row() {
    use batchspec::load::NonFinite;
    #[derive(DataSpec)]
    struct Fixed {
        x: Batch<Vector<4>>,
        y: Batch<Labels<3>>,
    }
    #[derive(DataSpec)]
    struct Sequences {
        seq: Ragged<VectorSeq<1, BTF, f64>>,
    }
    let open = || ParquetFiles::open(data("non_finite.parquet")).unwrap();
    let ds = Dataset::<Fixed>::load(&mut open()).unwrap();
    assert!(ds.fields().x.array()[[4, 2]].is_nan());
    assert_eq!(ds.fields().x.array()[[5, 3]], 23.0);
    let ds = Dataset::<Sequences>::load(&mut open()).unwrap();
    assert_eq!(
        ds.fields().seq.sample(5).unwrap()[[5, 0]],
        f64::NEG_INFINITY
    );

    let err = Dataset::<Fixed>::load(&mut open().non_finite(NonFinite::Refuse))
        .map(|_| ())
        .unwrap_err();
    let LoadError::File { place, reason, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(place, &column("x", Some(4)));
    assert_eq!(
        **reason,
        LoadReason::NonFinite {
            value: "NaN".into()
        }
    );
    let err = Dataset::<Sequences>::load(&mut open().non_finite(NonFinite::Refuse))
        .map(|_| ())
        .unwrap_err();
    let LoadError::File { place, reason, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(place, &column("seq", Some(5)));
    assert_eq!(
        **reason,
        LoadReason::NonFinite {
            value: "-inf".into()
        }
    );
    // The row groups read one by one (as a rank of a sharded run does) name the same rows.
    let files = open().non_finite(NonFinite::Refuse);
    let second = files.row_groups().unwrap()[1];
    assert_eq!(second.first_row, 4);
    let err = Dataset::<Fixed>::load(&mut files.select_row_groups(&[second]))
        .map(|_| ())
        .unwrap_err();
    assert!(err.to_string().contains("column `x`, row 4"), "{err}");
    // A stream of these files refuses it as it reaches the row group, as its batch's error.
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap();
    let mut stream = ParquetStream::<Fixed>::new(&files, &plan, 0, 2, 1);
    let mut served = 0;
    let err = loop {
        match stream.next_batch() {
            Some(Ok(b)) => served += b.x.len(),
            Some(Err(e)) => break e,
            None => panic!("the NaN of row 4 was served"),
        }
    };
    assert!(served <= 4, "{served} rows before the refusal");
    assert!(err.to_string().contains("column `x`, row 4"), "{err}");
}

/// A Parquet stream's state is refused, in words, by a stream of other files, another window or
/// seed: never a silent restart from the epoch's start (another number of ranks resumes
/// elastically).
#[test]
fn a_parquet_state_of_other_files_or_plan_is_refused_in_words() {
    let files = ParquetFiles::open(data("uneven.parquet")).unwrap();
    let plan = |seed, world| {
        ShardPlan::new(&files, Rank::new(0, world).unwrap())
            .unwrap()
            .shuffle(seed)
    };
    let mut run = ParquetStream::<Ids>::new(&files, &plan(1, 1), 0, 4, 2);
    run.next_batch();
    let state = run.state();
    let refused = |mut s: ParquetStream<Ids>| s.resume(&state).unwrap_err().to_string();
    let window = refused(ParquetStream::<Ids>::new(&files, &plan(1, 1), 0, 4, 3));
    assert!(
        window.contains("its plan is batch 4, window 2 row groups"),
        "{window}"
    );
    let seed = refused(ParquetStream::<Ids>::new(&files, &plan(2, 1), 0, 4, 2));
    assert!(
        seed.contains("its seed is 1, but this source's is 2"),
        "{seed}"
    );
    // Another number of ranks is an elastic resume, not a refusal.
    let mut elastic = ParquetStream::<Ids>::new(&files, &plan(1, 2), 0, 4, 2);
    elastic.resume(&state).unwrap();
    assert_eq!(elastic.state().inner(), std::slice::from_ref(&state));
    // The same rows under another file name are other data.
    let dir = std::env::temp_dir().join(format!("batchspec-state-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(data("uneven.parquet"), dir.join("renamed.parquet")).unwrap();
    let other = ParquetFiles::open(dir.join("renamed.parquet")).unwrap();
    let other_plan = ShardPlan::new(&other, Rank::new(0, 1).unwrap())
        .unwrap()
        .shuffle(1);
    let data = refused(ParquetStream::<Ids>::new(&other, &other_plan, 0, 4, 2));
    assert!(
        data.contains("its data (its samples, files or row counts)"),
        "{data}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Hugging Face image columns of any size, with image steps: each image brought to the field's
/// size and layout (an image of the field's size as decoded), the row of another size resized
/// instead of refused; steps that draw at random refused where they are given.
#[test]
#[cfg(all(feature = "parquet-image", feature = "images"))]
fn image_columns_of_any_size_are_brought_to_the_field_by_steps() {
    use batchspec::load::images::ImageSteps;
    #[derive(DataSpec)]
    struct Planar {
        #[spec(source = "features")]
        image: Batch<image![2, 2, 1; BCHW, f32]>,
        #[spec(source = "targets")]
        label: Batch<Index<3>>,
    }
    let plain = Dataset::<GreyU8>::load(&mut ParquetFiles::open(data("hf_image.parquet")).unwrap())
        .unwrap();
    let mut files = ParquetFiles::open(data("hf_image.parquet"))
        .unwrap()
        .image_steps(ImageSteps::stretch())
        .unwrap();
    let resized = Dataset::<Planar>::load(&mut files).unwrap();
    let a: Vec<f32> = plain
        .fields()
        .image
        .array()
        .iter()
        .map(|&v| f32::from(v))
        .collect();
    let b: Vec<f32> = resized.fields().image.array().iter().copied().collect();
    assert_eq!(a, b, "images of the field's size come through as decoded");

    let mut sizes = ParquetFiles::open(data("hf_image_sizes.parquet"))
        .unwrap()
        .image_steps(ImageSteps::stretch())
        .unwrap();
    let ds = Dataset::<Planar>::load(&mut sizes).unwrap();
    assert_eq!(ds.fields().image.shape()[1..], [1, 2, 2]);

    let err = ParquetFiles::open(data("hf_image.parquet"))
        .unwrap()
        .image_steps(ImageSteps::stretch().flip_h(0.5))
        .err()
        .unwrap();
    assert!(err.to_string().contains("steps.eval"), "{err}");
}

/// A stream's saved state with a damaged position (its epoch, batch count or sample count
/// edited, up to `u64::MAX`) resumes or is refused in words, promptly; never a panic or a hang.
mod damaged_positions {
    use super::*;
    use crate::damaged_state::{edited, position};
    use batchspec::data::BatchSource;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn resumes_or_is_refused(
            world in 1usize..3, tail in 0u8..3, batch in 1usize..6, window in 1usize..3,
            epoch in 0u64..3, at in 0usize..5, ahead in any::<bool>(),
            edits in [position(), position(), position()],
        ) {
            let tail = [Tail::Uneven, Tail::Pad, Tail::Drop][tail as usize];
            let files = ParquetFiles::open(data("uneven.parquet")).unwrap();
            let plan = &plans(world, tail, Some(5))[0];
            let make = || {
                let s = ParquetStream::<Ids>::new(&files, plan, epoch, batch, window);
                if ahead { s.read_ahead() } else { s }
            };
            let mut s = make();
            for _ in 0..at {
                let _ = BatchSource::next_owned(&mut s);
            }
            let state = edited(&BatchSource::state(&s), edits);
            let t = std::time::Instant::now();
            let mut r = make();
            if BatchSource::resume(&mut r, &state).is_ok() {
                let served = std::iter::from_fn(|| BatchSource::next_owned(&mut r)).take(1000).count();
                prop_assert!(served < 1000, "served {served} batches");
            }
            prop_assert!(t.elapsed().as_secs() < 5, "took {:?}", t.elapsed());
        }
    }
}
