//! Gathers: rows of a record written, converted, into a request's buffers (what providers do
//! for every batch), and rows of a record into a record of the same type (what a dataset's
//! selections do).
//!
//! [`GatherFrom`] and [`GatherSame`] are implemented by the derive, field by field: a request's
//! batch field reads its source from the record with one lookup (no search through a list), so
//! a request of hundreds of leaves costs no deeper trait solving than one of two.
//!
//! One concept per file: a leaf written by a gather (`leaf.rs`), the collate policies of a
//! sequence field (`collate.rs`) and the lengths and masks they leave (`steps.rs`), a request
//! gathered from a record (`request.rs`), and a record gathered into its own type (`same.rs`).

mod collate;
mod leaf;
mod request;
mod same;
mod steps;

pub use collate::{Collate, Padded, check_fits};
pub use leaf::{GatherInto, LeafMut, LeafTarget, OwnedData, Regrow, gather_leaf};
pub use request::{
    FieldSource, GatherField, GatherFrom, LeafConvert, LeafVia, SourceOf, SourceServedBy,
};
pub use same::GatherSame;
pub use steps::{GatherSteps, StepsOfSequences};
