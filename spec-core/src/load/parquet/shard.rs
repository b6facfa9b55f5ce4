//! Sharding Parquet data across the ranks of a multi-process job (feature `parquet`): each rank
//! reads only its row groups, every row group that holds rows is dealt to exactly one rank per
//! epoch, and the order is a pure function of `(seed, epoch)`, the same on every machine.

use crate::data::dataset::LoadRecord;
use crate::data::dataset::{AllocFlat, Dataset};
use crate::data::gather::GatherSame;
use crate::iteration::permutation;
use crate::load::error::{LoadError, LoadReason, Place};
use crate::load::parquet::files::ParquetFiles;
use crate::load::parquet::row_group::RowGroup;
use crate::types::spec::FlatOf;
use std::path::PathBuf;

/// This process's place in a job: rank `rank` of `world`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rank {
    rank: usize,
    world: usize,
}

impl Rank {
    /// Rank `rank` of `world`.
    ///
    /// # Errors
    /// [`LoadError::Shard`] when `world` is 0 or `rank` is not below it.
    pub fn new(rank: usize, world: usize) -> Result<Self, LoadError> {
        if rank >= world {
            return Err(LoadError::Shard {
                reason: format!("rank {rank} is not below the world size {world}"),
            });
        }
        Ok(Rank { rank, world })
    }

    /// The rank the launcher that started this process gave it: torchrun (`RANK`,
    /// `WORLD_SIZE`), OpenMPI's `mpirun` (`OMPI_COMM_WORLD_RANK`, `OMPI_COMM_WORLD_SIZE`) or
    /// Slurm's `srun` (`SLURM_PROCID`, `SLURM_NTASKS`), in that order of preference (`mpirun`
    /// inside a Slurm allocation started the process: its variables win over Slurm's).
    ///
    /// # Errors
    /// [`LoadError::Env`] naming the variable that is missing or malformed.
    pub fn from_env() -> Result<Self, LoadError> {
        Self::from_vars(|name| std::env::var(name).ok())
    }

    /// As [`Rank::from_env`], with the variables read by `var`.
    ///
    /// # Errors
    /// As [`Rank::from_env`].
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Self, LoadError> {
        let (rank_var, world_var) = if var("RANK").is_some() || var("WORLD_SIZE").is_some() {
            ("RANK", "WORLD_SIZE")
        } else if var("OMPI_COMM_WORLD_RANK").is_some() || var("OMPI_COMM_WORLD_SIZE").is_some() {
            ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE")
        } else if var("SLURM_PROCID").is_some() || var("SLURM_NTASKS").is_some() {
            ("SLURM_PROCID", "SLURM_NTASKS")
        } else {
            ("RANK", "WORLD_SIZE")
        };
        let read = |name: &'static str| env_usize(&var, name);
        let (rank, world) = (read(rank_var)?, read(world_var)?);
        if rank >= world {
            return Err(LoadError::Env {
                variable: rank_var,
                value: Some(rank.to_string()),
            });
        }
        Ok(Rank { rank, world })
    }

    /// This rank, from 0.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The number of ranks.
    pub fn world(&self) -> usize {
        self.world
    }
}

/// This process's place among the processes of its node: local rank `index` of `size` (which of
/// the node's devices it takes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LocalRank {
    index: usize,
    size: usize,
}

impl LocalRank {
    /// The local rank the launcher that started this process gave it: torchrun (`LOCAL_RANK`,
    /// `LOCAL_WORLD_SIZE`), OpenMPI's `mpirun` (`OMPI_COMM_WORLD_LOCAL_RANK`,
    /// `OMPI_COMM_WORLD_LOCAL_SIZE`) or Slurm's `srun` (`SLURM_LOCALID`, and the node's share of
    /// `SLURM_TASKS_PER_NODE`, such as `2(x3),1`, at `SLURM_NODEID`), in the order of
    /// [`Rank::from_env`].
    ///
    /// # Errors
    /// [`LoadError::Env`] naming the variable that is missing or malformed.
    pub fn from_env() -> Result<Self, LoadError> {
        Self::from_vars(|name| std::env::var(name).ok())
    }

    /// As [`LocalRank::from_env`], with the variables read by `var`.
    ///
    /// # Errors
    /// As [`LocalRank::from_env`].
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Self, LoadError> {
        let read = |name: &'static str| env_usize(&var, name);
        let (index_var, index, size) = if var("LOCAL_RANK").is_some() {
            ("LOCAL_RANK", read("LOCAL_RANK")?, read("LOCAL_WORLD_SIZE")?)
        } else if var("OMPI_COMM_WORLD_LOCAL_RANK").is_some() {
            (
                "OMPI_COMM_WORLD_LOCAL_RANK",
                read("OMPI_COMM_WORLD_LOCAL_RANK")?,
                read("OMPI_COMM_WORLD_LOCAL_SIZE")?,
            )
        } else if var("SLURM_LOCALID").is_some() {
            let node = match var("SLURM_NODEID") {
                Some(_) => read("SLURM_NODEID")?,
                None => 0,
            };
            let tasks = var("SLURM_TASKS_PER_NODE");
            let size = tasks
                .as_deref()
                .and_then(|t| tasks_on_node(t, node))
                .ok_or(LoadError::Env {
                    variable: "SLURM_TASKS_PER_NODE",
                    value: tasks,
                })?;
            ("SLURM_LOCALID", read("SLURM_LOCALID")?, size)
        } else {
            ("LOCAL_RANK", read("LOCAL_RANK")?, 0)
        };
        if index >= size {
            return Err(LoadError::Env {
                variable: index_var,
                value: Some(index.to_string()),
            });
        }
        Ok(LocalRank { index, size })
    }

    /// This process's index on its node, from 0.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The processes on this node.
    pub fn size(&self) -> usize {
        self.size
    }
}

/// The variable `name` read by `var` as a count; an error naming it when it is missing or not a
/// number.
fn env_usize(
    var: &impl Fn(&str) -> Option<String>,
    name: &'static str,
) -> Result<usize, LoadError> {
    let value = var(name).ok_or(LoadError::Env {
        variable: name,
        value: None,
    })?;
    value.trim().parse().map_err(|_| LoadError::Env {
        variable: name,
        value: Some(value),
    })
}

/// The tasks of node `node` in Slurm's `SLURM_TASKS_PER_NODE` (`4`, or `2(x3),1`: 2 tasks on
/// each of 3 nodes, then 1).
fn tasks_on_node(list: &str, node: usize) -> Option<usize> {
    let mut seen = 0usize;
    for entry in list.split(',') {
        let (tasks, repeat) = match entry.trim().split_once("(x") {
            Some((t, r)) => (
                t.parse::<usize>().ok()?,
                r.strip_suffix(')')?.parse::<usize>().ok()?,
            ),
            None => (entry.trim().parse::<usize>().ok()?, 1),
        };
        seen = seen.checked_add(repeat)?;
        if node < seen {
            return Some(tasks);
        }
    }
    None
}

/// What ranks do with the samples left when the row groups do not split evenly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Tail {
    /// Every rank serves as many samples as the rank with the most, repeating its own from its
    /// first (torch's `DistributedSampler` pads so too): equal batch counts on every rank, a few
    /// samples seen twice.
    #[default]
    Pad,
    /// Every rank serves as many samples as the rank with the fewest: equal batch counts, a few
    /// samples left out of the epoch.
    Drop,
    /// Every rank serves its own samples: every sample exactly once, batch counts may differ.
    Uneven,
}

/// The row groups to deal: those that hold rows, once their claimed rows are known to add up
/// (so that every sum of rows a plan or a stream makes fits a `usize`).
fn dealt(files: &[PathBuf], all: Vec<RowGroup>) -> Result<Vec<RowGroup>, LoadError> {
    let mut total = 0usize;
    for g in &all {
        total = total.checked_add(g.rows).ok_or_else(|| LoadError::File {
            file: files.get(g.file).cloned().unwrap_or_default(),
            place: Place::File,
            source_name: "",
            reason: Box::new(LoadReason::Parquet {
                message: format!(
                    "row group {} claims {} rows, which with the {total} rows before it overflow a count of rows",
                    g.index, g.rows
                ),
            }),
        })?;
    }
    Ok(all.into_iter().filter(|g| g.rows > 0).collect())
}

/// Which row groups a rank reads in each epoch: the row groups of all files, in a global order
/// (shuffled by `(seed, epoch)` when asked), dealt to the ranks in turn (row group `i` of the
/// order to rank `i % world`). Row groups of no rows are not dealt, so every rank has rows.
///
/// What a rank serves in an epoch, through [`ShardPlan::load`] or a
/// [`ParquetStream`](crate::load::ParquetStream) (property-tested over random row group sizes,
/// 0-row groups included, 1 to 8 ranks, windows, batch sizes, seeds, read-ahead and prefetch):
///
/// - [`Tail::Uneven`]: its own rows, each exactly once; across the ranks, every row of the
///   files exactly once. Ranks may serve different numbers of rows, and of batches.
/// - [`Tail::Pad`]: every row of its own share at least once, then rows of its share again
///   until it reaches the count of the rank with the most rows; nothing of another rank's.
/// - [`Tail::Drop`]: a subset of its own rows, each at most once, as many as the rank with the
///   fewest rows serves.
///
/// Under `Pad` and `Drop` every rank serves the same number of rows ([`ShardPlan::samples`]),
/// so the same number of batches of a given size.
///
/// ```
/// use batchspec::load::{ParquetFiles, Rank, ShardPlan, Tail};
///
/// let files = ParquetFiles::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/parquet/uneven.parquet"))?;
/// let plans: Vec<ShardPlan> = (0..3)
///     .map(|r| ShardPlan::new(&files, Rank::new(r, 3)?).map(|p| p.shuffle(7).tail(Tail::Pad)))
///     .collect::<Result<_, _>>()?;
/// // 33 rows in 9 row groups: every rank serves the same number of samples.
/// let counts: Vec<usize> = plans.iter().map(|p| p.samples(0)).collect();
/// assert!(counts.iter().all(|&c| c == counts[0]));
/// # Ok::<(), batchspec::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ShardPlan {
    groups: Vec<RowGroup>,
    rank: Rank,
    seed: Option<u64>,
    tail: Tail,
}

impl ShardPlan {
    /// The plan of `rank` over the row groups of `files` (their footers are read), in file
    /// order, padding the tail ([`Tail::Pad`]). Row groups of no rows are left out of the
    /// dealing: every rank gets at least one row group that holds rows.
    ///
    /// # Errors
    /// The footers' errors; a [`LoadError::File`] naming the file and the row group at which the
    /// rows the footers claim overflow a count; [`LoadError::Shard`] when fewer row groups hold
    /// rows than there are ranks (a rank would have no data).
    pub fn new(files: &ParquetFiles, rank: Rank) -> Result<Self, LoadError> {
        let all = files.row_groups()?;
        let empty = all.iter().filter(|g| g.rows == 0).count();
        let groups = dealt(files.files(), all)?;
        if groups.len() < rank.world {
            let not_counted = if empty == 0 {
                String::new()
            } else {
                format!(" ({empty} more hold no rows and are not dealt)")
            };
            return Err(LoadError::Shard {
                reason: format!(
                    "{} row groups for {} ranks{not_counted}: every rank needs at least one that holds rows (write smaller row groups, or use fewer ranks)",
                    groups.len(),
                    rank.world
                ),
            });
        }
        Ok(ShardPlan {
            groups,
            rank,
            seed: None,
            tail: Tail::Pad,
        })
    }

    /// The rank this plan is for.
    pub fn rank(&self) -> Rank {
        self.rank
    }

    /// The same plan for another rank (of any world).
    pub(crate) fn for_rank(&self, rank: Rank) -> ShardPlan {
        ShardPlan {
            rank,
            ..self.clone()
        }
    }

    /// The tail policy.
    pub fn tail_policy(&self) -> Tail {
        self.tail
    }

    /// Every row group dealt (those that hold rows), in file order.
    pub fn all_row_groups(&self) -> &[RowGroup] {
        &self.groups
    }

    /// Shuffles the order of the row groups in each epoch by `(seed, epoch)`.
    pub fn shuffle(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// The seed of the shuffle, if any.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// What to do with the samples left when the row groups do not split evenly.
    pub fn tail(mut self, tail: Tail) -> Self {
        self.tail = tail;
        self
    }

    fn order(&self, epoch: u64) -> Vec<usize> {
        match self.seed {
            Some(seed) => permutation(self.groups.len(), seed, epoch),
            None => (0..self.groups.len()).collect(),
        }
    }

    fn groups_of(&self, rank: usize, order: &[usize]) -> Vec<RowGroup> {
        order
            .iter()
            .skip(rank)
            .step_by(self.rank.world)
            .map(|&i| self.groups[i])
            .collect()
    }

    /// The row groups this rank reads in `epoch`, in the order it reads them.
    pub fn row_groups(&self, epoch: u64) -> Vec<RowGroup> {
        self.groups_of(self.rank.rank, &self.order(epoch))
    }

    /// The samples this rank serves in `epoch`, after the [`Tail`] policy.
    pub fn samples(&self, epoch: u64) -> usize {
        let order = self.order(epoch);
        let count = |r: usize| -> usize { self.groups_of(r, &order).iter().map(|g| g.rows).sum() };
        match self.tail {
            Tail::Uneven => count(self.rank.rank),
            Tail::Pad => (0..self.rank.world).map(count).max().unwrap_or(0),
            Tail::Drop => (0..self.rank.world).map(count).min().unwrap_or(0),
        }
    }

    /// This rank's samples of `epoch` as a dataset: its row groups read in order, then padded or
    /// cut to [`ShardPlan::samples`] (padding repeats the rank's samples from its first).
    ///
    /// # Errors
    /// The errors of [`Dataset::load`] (the schema is checked against `R` for every row group).
    pub fn load<R>(&self, files: &ParquetFiles, epoch: u64) -> Result<Dataset<R>, LoadError>
    where
        R: LoadRecord + GatherSame,
        FlatOf<R>: AllocFlat,
    {
        let mut selected = files.select_row_groups(&self.row_groups(epoch));
        let own = Dataset::<R>::load(&mut selected)?;
        let target = self.samples(epoch);
        if target == own.len() {
            return Ok(own);
        }
        let rows: Vec<usize> = (0..target).map(|i| i % own.len().max(1)).collect();
        let record = own.select(&rows)?;
        Ok(Dataset::new(record)?)
    }
}
