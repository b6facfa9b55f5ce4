//! Data: datasets held in memory, the schedules that order their samples into batches, and the
//! providers that gather, convert and prefetch those batches.
//!
//! - `dataset`: [`Dataset`], the struct-of-arrays storage of a record spec, its selections,
//!   writes, projections and memory;
//! - `gather`: [`GatherFrom`] and [`GatherSame`], rows of a record into a request or into a
//!   record of its own type, under the [`Collate`] policies of sequence fields;
//! - `batch_source`: [`BatchSource`], the trait every source of batches implements, its
//!   combinators, and [`BatchInfo`], what a batch holds besides its data;
//! - `state`: [`SourceState`], a source's position as a serializable value, to resume from;
//! - `provider`: [`Provider`], batches of a request from a dataset by a
//!   [`Schedule`](crate::iteration::Schedule);
//! - `devices`: a batch split across devices ([`split_across`], [`device_views`],
//!   [`load_into_devices`]);
//! - `prefetch`: [`Prefetch`], a producer of batches on a thread of its own;
//! - `generator`: [`Generator`], batches filled by a closure;
//! - `stream`: [`Stream`], batches from an iterator without a length;
//! - `mixture`: [`Mix`], weighted mixtures of sources of one request (`cursor`: a source read a
//!   sample at a time);
//! - `stages`: [`SampleStages`], per-sample filters and maps on any source (`stages/workers`:
//!   the same stages on a pool of threads, [`ParallelStage`]);
//! - `training`: [`Trainer`], a training loop's data side: a model, its costs and channels
//!   served from each batch's unique leaves;
//! - `hooks`: what a trainer runs on a timescale: monitoring sources ([`MonitorReport`]) and
//!   [`Hook`]s ([`CsvLog`], [`EarlyStopping`], closures), and its reports.
//!
//! Reading datasets from files is the `load` part's ([`Dataset::load`]).
#![doc = include_str!("../../doc/data.md")]

pub(crate) mod batch_source;
pub(crate) mod cursor;
pub(crate) mod dataset;
pub(crate) mod devices;
pub(crate) mod elastic;
pub(crate) mod error;
pub(crate) mod gather;
pub(crate) mod generator;
pub(crate) mod hooks;
pub(crate) mod mixture;
pub(crate) mod prefetch;
pub(crate) mod provider;
pub(crate) mod stages;
pub(crate) mod state;
pub(crate) mod stream;
pub(crate) mod training;

pub use batch_source::*;
pub use cursor::{OwnedBatches, SourceOf};
pub use dataset::*;
pub use devices::*;
pub use error::*;
pub use gather::*;
pub use generator::*;
pub use hooks::*;
pub use mixture::*;
pub use prefetch::*;
pub use provider::*;
pub use stages::*;
pub use state::*;
pub use stream::*;
pub use training::*;
