//! Mapping: how specs meet. Flatten and nest with de-duplication (Pylearn2's
//! `DataSpecsMapping`), request matching by source, serving each unique leaf once, and the
//! consumers of a training loop.
//!
//! - [`dedup`]: [`Mapping`], a spec's leaves de-duplicated into a flat list and nested back;
//! - [`matching`]: [`Serves`], whether a record can serve a request, decided at compile time;
//! - [`serve`]: [`serve`](serve::serve) and [`Server`], each unique leaf converted once;
//! - [`consumer`]: the [`Model`], [`Cost`] and [`Channel`] traits.

pub mod consumer;
pub mod dedup;
pub mod error;
pub mod matching;
pub mod serve;

pub use consumer::{Channel, Cost, Model};
pub use dedup::Mapping;
pub use error::MappingError;
pub use matching::{Reads, Serves, assert_serves};
pub use serve::Server;
