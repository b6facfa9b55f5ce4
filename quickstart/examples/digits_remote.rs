//! The digits read from a bucket by several processes that a launcher started: each process takes
//! its rank from the launcher's variables (`Rank::from_env`: torchrun, OpenMPI, Slurm), opens the
//! same `s3://` prefix of part files (endpoint and credentials from the standard `AWS_*`
//! variables), streams its share of each shuffled epoch, and writes the ids it served; the check
//! then proves, across the processes, that every row was served exactly once per epoch.
//!
//! ```text
//! digits_remote write DIR                  # the digits as Spark-style part files (then upload DIR)
//! mpirun -n 4 digits_remote read s3://bucket/digits/ OUT   # or: srun -n 4 ..., torchrun ...
//! digits_remote check OUT 4                # every row once per epoch, across the 4 processes
//! ```
//!
//! `.ci/run` runs it against moto's S3 server on loopback with `mpirun` and `srun`.

use batchspec::data::BatchSource;
use batchspec::load::{LocalRank, ParquetFiles, ParquetStream, Rank, ShardPlan, Tail};
use batchspec::prelude::*;
use batchspec_quickstart::load_digits;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

#[path = "shared/parts.rs"]
mod parts;

const EPOCHS: u64 = 3;
const BATCH: usize = 32;

/// What each process reads: the row's id beside the image and label a model would take.
#[derive(DataSpec)]
struct Row {
    #[spec(source = "id")]
    id: Batch<Index<1797>>,
    #[spec(source = "features")]
    image: Batch<image![8, 8, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<10, 1, u8>>,
}

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn write(dir: &Path) -> Result<()> {
    let digits = load_digits()?;
    let rows: Vec<usize> = (0..digits.len()).collect();
    // 8 part files of row groups of 32 rows: 57 row groups to deal among the ranks.
    parts::write_parts(&digits, &rows, dir, 8, 32)?;
    println!("wrote {} rows to {}", rows.len(), dir.display());
    Ok(())
}

fn read(url: &str, out: &Path) -> Result<()> {
    let rank = Rank::from_env()?;
    let local = LocalRank::from_env()?;
    let files = ParquetFiles::open(url)?;
    let plan = ShardPlan::new(&files, rank)?.tail(Tail::Uneven).shuffle(11);
    let start = Instant::now();
    let mut epochs = Vec::new();
    let mut samples = 0usize;
    for epoch in 0..EPOCHS {
        let mut stream = ParquetStream::<Row>::new(&files, &plan, epoch, BATCH, 4).read_ahead();
        let mut ids = Vec::new();
        while let Some(batch) = BatchSource::next_batch(&mut stream) {
            let (batch, info) = batch?;
            ids.extend(batch.id.array().iter().take(info.count_samples).copied());
            samples += info.count_samples;
        }
        epochs.push(ids);
    }
    let seconds = start.elapsed().as_secs_f64();
    let stats = files.remote_stats();
    println!(
        "rank {}/{} (local {}/{}): {EPOCHS} epochs, {samples} samples in {seconds:.2} s ({:.0} samples/s), {} requests, {:.1} KB fetched",
        rank.rank(),
        rank.world(),
        local.index(),
        local.size(),
        samples as f64 / seconds,
        stats.requests,
        stats.bytes as f64 / 1e3
    );
    std::fs::create_dir_all(out)?;
    std::fs::write(
        out.join(format!("rank-{}.json", rank.rank())),
        serde_json::to_string(&(rank.world(), epochs))?,
    )?;
    Ok(())
}

fn check(out: &Path, world: usize) -> Result<()> {
    let mut by_rank = BTreeMap::new();
    for entry in std::fs::read_dir(out)? {
        let path = entry?.path();
        let (w, epochs): (usize, Vec<Vec<i64>>) =
            serde_json::from_str(&std::fs::read_to_string(&path)?)?;
        if w != world {
            return Err(format!("{} says the world is {w}, not {world}", path.display()).into());
        }
        by_rank.insert(path, epochs);
    }
    if by_rank.len() != world {
        return Err(format!("{} processes wrote their ids, not {world}", by_rank.len()).into());
    }
    for epoch in 0..EPOCHS as usize {
        let mut count = vec![0usize; 1797];
        for epochs in by_rank.values() {
            for &id in &epochs[epoch] {
                count[id as usize] += 1;
            }
        }
        if let Some(row) = count.iter().position(|&c| c != 1) {
            return Err(format!(
                "epoch {epoch}: row {row} was served {} times across the processes",
                count[row]
            )
            .into());
        }
    }
    println!(
        "{world} processes: every one of the 1797 rows served exactly once in each of {EPOCHS} epochs"
    );
    Ok(())
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["write", dir] => write(Path::new(dir)),
        ["read", url, out] => read(url, Path::new(out)),
        ["check", out, world] => check(Path::new(out), world.parse()?),
        _ => Err("usage: digits_remote write DIR | read URL OUT | check OUT WORLD".into()),
    }
}
