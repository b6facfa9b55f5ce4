//! Mapping: how specs meet. Flatten and nest with de-duplication (Pylearn2's
//! `DataSpecsMapping`), request matching by source, serving each unique leaf once, and the
//! consumers of a training loop.
//!
//! - de-duplication: [`Mapping`], a spec's leaves de-duplicated into a flat list and nested back;
//! - matching: [`Serves`], whether a record can serve a request, decided at compile time;
//! - serving: [`serve()`] and [`Server`], each unique leaf converted once;
//! - consumers: the [`Model`], [`Cost`] and [`Channel`] traits.
#![doc = include_str!("../../doc/mapping.md")]

pub(crate) mod consumer;
pub(crate) mod dedup;
pub(crate) mod error;
pub(crate) mod matching;
pub(crate) mod serve;

pub use consumer::*;
pub use dedup::*;
pub use error::*;
pub use matching::*;
pub use serve::*;
