//! Ragged leaves: samples of a sequence space that have different lengths, stored as Arrow
//! stores a `List` column: every sample's steps one after the other in one vector of values, and
//! an offsets vector saying where each sample starts.
//!
//! A [`Ragged<S>`] is a record field like a [`Batch<S>`]: a dataset holds it, selections and
//! permutations gather it into a new ragged leaf, and a provider serves it into a request's
//! `Batch<S>` padded to the longest sample of each batch (or into a `Ragged<S>` as it is).
//! It is checked once, where it is built; after that every sample's shape is a fact.
//!
//! Here the parts of a ragged leaf: the spaces it holds (`sequence_space`), the memory layout of
//! its samples' steps (`steps`), the leaf itself (`leaf`) and its borrowed views (`views`).
//!
//! [`Batch<S>`]: crate::types::Batch

mod leaf;
mod sequence_space;
pub(crate) mod steps;
mod views;

pub use leaf::*;
pub use sequence_space::*;
pub use views::*;
