//! Ranks as separate processes started by real launchers: OpenMPI's `mpirun`, and Slurm's `srun`
//! on a one-node cluster (`.ci/slurm up`), start four copies of this test binary (the ignored
//! `shard_child` below); each takes its rank from the variables its launcher sets
//! (`Rank::from_env`), streams its share of a pyarrow-written file of 33 rows in 9
//! uneven row groups for two shuffled epochs, and writes the ids it served. The parent checks
//! the tail policies' promises across the processes: `Uneven` serves every row exactly once per
//! epoch, `Pad` and `Drop` give every rank the same number of batches (at least once / at most
//! once each).
//!
//! The same again with the file in a bucket (moto's S3 server on loopback, `support/`): a
//! prefix holding the part file and Spark's `_SUCCESS`, read by every process through
//! `ParquetFiles::open("s3://...")` with the endpoint and credentials from the standard `AWS_*`
//! variables the launcher passes on.
//!
//! A launcher that cannot start processes here is skipped with a message, unless
//! `BATCHSPEC_REQUIRE_LAUNCHERS` names it (`.ci/run` installs OpenMPI, starts the Slurm cluster,
//! and names those that came up); the bucket's runs likewise with `BATCHSPEC_REQUIRE_S3`.
#![cfg(feature = "parquet")]

#[cfg(feature = "s3")]
mod support;

use batchspec::data::BatchSource;
use batchspec::load::{LocalRank, ParquetFiles, ParquetStream, Rank, ShardPlan, Tail};
use batchspec::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

#[derive(DataSpec)]
struct Ids {
    #[spec(source = "id")]
    id: Batch<Index<1000>>,
}

const ROWS: usize = 33;
const EPOCHS: u64 = 2;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/parquet/uneven.parquet")
}

fn tail_of(name: &str) -> Tail {
    match name {
        "uneven" => Tail::Uneven,
        "pad" => Tail::Pad,
        _ => Tail::Drop,
    }
}

/// What one process served: its rank and world as the launcher gave them, its local rank and
/// the node's processes, and per epoch its batches' ids.
type Served = (usize, usize, (usize, usize), Vec<Vec<Vec<usize>>>);

/// Whether `launcher` can start processes here; if not, the test says it is skipped, unless
/// `BATCHSPEC_REQUIRE_LAUNCHERS` (a list: `mpirun slurm`) names it.
fn available(launcher: &str, probe: &mut Command) -> bool {
    let ok = probe.output().is_ok_and(|o| {
        o.status.success() && (launcher != "slurm" || o.stdout.starts_with(b"idle"))
    });
    if !ok {
        let required = std::env::var("BATCHSPEC_REQUIRE_LAUNCHERS").unwrap_or_default();
        assert!(
            !required.split_whitespace().any(|l| l == launcher),
            "BATCHSPEC_REQUIRE_LAUNCHERS names {launcher}, and it cannot start processes here"
        );
        eprintln!(
            "skipped: {launcher} cannot start processes here (OpenMPI: `apt-get install openmpi-bin openssh-client`; Slurm: `.ci/slurm up`)"
        );
    }
    ok
}

/// Four processes started by `launch` (a launcher and its arguments), each one rank of
/// `shard_child`, under each tail policy: the promises checked across the processes.
fn four_ranks(launch: &[&str]) {
    four_ranks_reading(launch, &fixture().display().to_string(), &[]);
    #[cfg(feature = "s3")]
    four_ranks_from_a_bucket(launch);
}

/// [`four_ranks`] with the file in a bucket of moto's S3 server.
#[cfg(feature = "s3")]
fn four_ranks_from_a_bucket(launch: &[&str]) {
    let Some(s3) = support::s3() else { return };
    let endpoint = s3.endpoint();
    support::upload(
        &endpoint,
        "train",
        &[
            ("ids/part-00000.parquet", &fixture()),
            (
                "ids/_SUCCESS",
                &fixture().with_file_name("spark_dir/_SUCCESS"),
            ),
        ],
    );
    let env = [
        ("AWS_ENDPOINT_URL", endpoint.as_str()),
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", "testing"),
        ("AWS_REGION", "us-east-1"),
        ("AWS_ALLOW_HTTP", "true"),
    ];
    four_ranks_reading(launch, "s3://train/ids/", &env);
}

/// [`four_ranks`] with the data at `data` (a path or a URL), the processes given `env`.
fn four_ranks_reading(launch: &[&str], data: &str, env: &[(&str, &str)]) {
    for tail in ["uneven", "pad", "drop"] {
        let dir = std::env::temp_dir().join(format!(
            "batchspec-{}-{}-{tail}",
            launch[0],
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let out = Command::new(launch[0])
            .args(&launch[1..])
            .arg(std::env::current_exe().unwrap())
            .args(["shard_child", "--exact", "--ignored", "--nocapture"])
            .env("BATCHSPEC_CHILD_OUT", &dir)
            .env("BATCHSPEC_CHILD_TAIL", tail)
            .env("BATCHSPEC_CHILD_DATA", data)
            .envs(env.iter().copied())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{} failed: {}\n{}",
            launch[0],
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let mut by_rank = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let (rank, world, local, epochs): Served =
                serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap())
                    .unwrap();
            assert_eq!(world, 4, "the world {} gave", launch[0]);
            // One node: the local rank is the rank, and the node holds the world.
            assert_eq!(local, (rank, 4), "the local rank {} gave", launch[0]);
            assert!(by_rank.insert(rank, epochs).is_none(), "rank {rank} twice");
        }
        assert_eq!(
            by_rank.keys().copied().collect::<Vec<_>>(),
            vec![0, 1, 2, 3]
        );
        for epoch in 0..EPOCHS as usize {
            let mut count = vec![0usize; ROWS];
            for batches in by_rank.values() {
                for &id in batches[epoch].iter().flatten() {
                    count[id] += 1;
                }
            }
            let batches: Vec<usize> = by_rank.values().map(|b| b[epoch].len()).collect();
            match tail_of(tail) {
                Tail::Uneven => assert!(count.iter().all(|&c| c == 1), "{tail} {count:?}"),
                Tail::Pad => {
                    assert!(count.iter().all(|&c| c >= 1), "{tail} {count:?}");
                    assert!(batches.iter().all(|&b| b == batches[0]), "{batches:?}");
                }
                Tail::Drop => {
                    assert!(count.iter().all(|&c| c <= 1), "{tail} {count:?}");
                    assert!(batches.iter().all(|&b| b == batches[0]), "{batches:?}");
                }
            }
        }
        // Shuffled: the two epochs serve other orders.
        assert_ne!(by_rank[&0][0], by_rank[&0][1]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn four_processes_started_by_mpirun_keep_each_tail_policy_across_processes() {
    if available("mpirun", Command::new("mpirun").arg("--version")) {
        four_ranks(&[
            "mpirun",
            "--allow-run-as-root",
            "--oversubscribe",
            "-n",
            "4",
        ]);
    }
}

#[test]
fn four_processes_started_by_slurm_keep_each_tail_policy_across_processes() {
    if available("slurm", Command::new("sinfo").args(["-h", "-o", "%t"])) {
        four_ranks(&["srun", "-n", "4"]);
    }
}

/// One rank of the tests above, started by a launcher.
#[test]
#[ignore = "run by mpirun or srun from the tests above"]
fn shard_child() {
    let (Ok(out), Ok(tail), Ok(data)) = (
        std::env::var("BATCHSPEC_CHILD_OUT"),
        std::env::var("BATCHSPEC_CHILD_TAIL"),
        std::env::var("BATCHSPEC_CHILD_DATA"),
    ) else {
        return;
    };
    let rank = Rank::from_env().unwrap();
    let files = ParquetFiles::open(&data).unwrap();
    if data.starts_with("s3://") {
        assert_eq!(files.files().len(), 1, "the part file, not `_SUCCESS`");
    }
    let plan = ShardPlan::new(&files, rank)
        .unwrap()
        .tail(tail_of(&tail))
        .shuffle(5);
    let mut epochs = Vec::new();
    for epoch in 0..EPOCHS {
        let mut stream = ParquetStream::<Ids>::new(&files, &plan, epoch, 2, 2);
        let mut batches = Vec::new();
        while let Some(b) = BatchSource::next_batch(&mut stream) {
            let (batch, info) = b.unwrap();
            batches.push(
                batch
                    .id
                    .array()
                    .iter()
                    .take(info.count_samples)
                    .map(|&i| i as usize)
                    .collect::<Vec<_>>(),
            );
        }
        epochs.push(batches);
    }
    let local = LocalRank::from_env().unwrap();
    let served: Served = (
        rank.rank(),
        rank.world(),
        (local.index(), local.size()),
        epochs,
    );
    std::fs::write(
        PathBuf::from(out).join(format!("rank-{}.json", rank.rank())),
        serde_json::to_string(&served).unwrap(),
    )
    .unwrap();
}
