//! Index planning for data providers: which sample indices make up each batch of each epoch.
//!
//! Nothing here touches data. A [`Schedule`] answers, for a dataset of `n` samples, "which
//! samples does batch `k` of epoch `e` gather, how many of them are real, and how many rows are
//! padding?" A provider gathers the rows those indices name; a model trims its output to
//! [`IndexBatch::count_samples`].
//!
//! ```
//! use batchspec_core::iteration::{LastBatch, Schedule};
//!
//! // MXNet's ArrayDataProvider: 10 samples, batch 3, the last batch padded.
//! let schedule = Schedule::builder(10)
//!     .batch_size(3)
//!     .last_batch(LastBatch::Pad)
//!     .build()?;
//! let counts: Vec<_> = schedule
//!     .epoch(0)
//!     .map(|b| (b.indices().as_range(), b.count_samples(), b.pad()))
//!     .collect();
//! assert_eq!(
//!     counts,
//!     [(Some(0..3), 3, 0), (Some(3..6), 3, 0), (Some(6..9), 3, 0), (Some(9..10), 1, 2)]
//! );
//! # Ok::<(), batchspec_core::iteration::IterationError>(())
//! ```
//!
//! # Concepts
//!
//! A schedule is the product of independent choices, each its own small type:
//!
//! | choice | type | from |
//! | --- | --- | --- |
//! | order of the samples within an epoch | [`Order`] | Pylearn2 iteration modes, MXNet `shuffle` |
//! | what happens to the incomplete last batch | [`LastBatch`] | MXNet `round_batch` / padding, Pylearn2 `even_*` |
//! | both at once, by a Pylearn2 mode name | [`IterationMode`] | Pylearn2 `iterator(mode=...)` |
//! | which part of the data this worker sees | [`Shard`], [`ShardSplit`] | MXNet `part_index` / `num_parts` |
//! | the randomness | a `u64` seed and the epoch number, see [`epoch_rng`] | |
//! | batches of samples of similar lengths | [`Buckets`] | tf.data `bucket_by_sequence_length` |
//!
//! An [`Epoch`] walks the batches of one epoch. Each [`IndexBatch`] holds its [`Indices`]
//! (a contiguous range, or a list of indices), its count of real samples and its padding.
//! [`DeviceSplit`] cuts one batch into contiguous parts for data-parallel devices.
//!
//! # Reproducibility
//!
//! Every random choice is a pure function of `(seed, epoch, shard)`: `schedule.epoch(e)` gives
//! the same batches on every platform, in every run, in any order of calls. The generator is
//! xoshiro256++ (a named, portable generator), seeded by a documented SplitMix64 mixing
//! ([`epoch_rng`]); shuffles are a hand-written Fisher–Yates ([`shuffle`]) over unbiased bounded
//! draws ([`below`]), so a new release of `rand` cannot change them.
//!
//! # Allocation
//!
//! [`Epoch::next_batch`] lends batches that borrow the epoch's own buffers, and
//! [`Epoch::restart`] reuses those buffers for another epoch: after the first epoch, iteration
//! allocates nothing. [`Epoch::next_into`] fills a caller's `Vec<usize>` instead. The
//! [`Iterator`] implementation of [`Epoch`] is the convenient form; it allocates for each batch
//! that is an index list.
//!
//! # Departures from the source systems
//!
//! * A seed given to a deterministic order is accepted and has no effect (Pylearn2 raises
//!   `ValueError` for an rng given to `sequential`; MXNet accepts `seed` with `shuffle=false`).
//!   A schedule's seed is part of its configuration, so switching a mode does not require
//!   removing it.
//! * `num_batches` is the number of batches actually served. Pylearn2's `sequential` with only
//!   `num_batches` reports the requested count even when `ceil(n / batch_size)` is smaller
//!   (n = 10, num_batches = 6 gives batch size 2 and five batches); here that request is an
//!   error, like every other request for more batches than the data can fill.
//! * `uneven` is `false` for the random and `even_*` modes (Pylearn2 raises
//!   `NotImplementedError`): their batches all have the batch size.
//! * No samples, an empty shard, a batch size above `n` with a `Drop` last batch
//!   (`even_*` modes), and an explicit `num_batches` of 0 are errors; Pylearn2 serves an empty
//!   iteration or divides by zero.
//! * A batch size of 0 means "all samples in one batch" everywhere (MXNet's convention).
#![doc = include_str!("../../doc/iteration.md")]

mod buckets;
mod device_split;
mod epoch;
mod error;
mod indices;
mod last_batch;
mod mode;
mod order;
mod schedule;
mod shard;
mod shard_split;
mod shuffle;

pub use buckets::Buckets;
pub use device_split::DeviceSplit;
pub use epoch::Epoch;
pub use error::IterationError;
pub use indices::{IndexBatch, Indices, IndicesIter};
pub use last_batch::LastBatch;
pub use mode::IterationMode;
pub use order::Order;
pub use schedule::{Schedule, ScheduleBuilder};
pub use shard::Shard;
pub use shard_split::ShardSplit;
pub use shuffle::{below, epoch_rng, permutation, permutation_into, shuffle};
