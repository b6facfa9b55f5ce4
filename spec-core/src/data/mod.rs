//! Data: datasets held in memory, the schedules that order their samples into batches, and the
//! providers that gather, convert and prefetch those batches.
//!
//! - [`dataset`]: [`Dataset`], the struct-of-arrays storage of a record spec;
//! - [`gather`]: [`GatherFrom`](gather::GatherFrom) and [`GatherSame`](gather::GatherSame), rows
//!   of a record into a request or into a record of its own type;
//! - [`iteration`]: [`Schedule`](iteration::Schedule), which samples each batch holds;
//! - [`provider`]: [`Provider`], [`Prefetch`] and [`Generator`], batches of a request;
//! - [`stream`]: [`Stream`](stream::Stream), batches from an iterator without a length, and
//!   [`BatchSource`](stream::BatchSource), the trait every source of batches implements;
//! - [`training`]: [`Trainer`](training::Trainer), a training loop's data side: a model, its
//!   costs and channels served from each batch's unique leaves.

pub(crate) mod dataset;
pub(crate) mod error;
pub(crate) mod gather;

pub(crate) mod provider;
pub(crate) mod stream;
pub(crate) mod training;

pub use dataset::*;
pub use error::*;
pub use gather::*;
pub use provider::*;
pub use stream::*;
pub use training::*;

