//! The run-time half of [batchspec](https://docs.rs/batchspec): axes, spaces, sources, typed
//! batches, specs and the errors of data that does not fit them.
//!
//! Use it through the `batchspec` crate, which adds `#[derive(DataSpec)]`.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

// The parts. From the bottom up they are iteration, types, format, buffer, mapping, view,
// augment, data and load; each imports only the parts before it in that order (the architecture
// test in `tests/architecture.rs` holds the code to that). The layout kernels, the only `unsafe`
// code, are a crate of their own below them all (`batchspec-kernel`), re-exported as `kernel`.
// Inside each part the files are one concept each, private to the crate; a part's items have
// one public path, the part's (`batchspec::data::Dataset`, `batchspec::types::Vector`).
pub mod augment;
pub mod buffer;
pub mod data;
pub mod format;
pub mod iteration;
pub mod load;
pub mod mapping;
pub mod types;
pub mod view;
// The crate-wide error, above every part.
mod error;

pub use batchspec_kernel as kernel;
pub use error::{Error, Result};

/// What the derive's output names; not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::augment::{
        Augmentation, AugmentsFrom, Draws, ImageSpace, MixLabels, MixesLabels, check_augment,
        check_mixed, gather_augmented, mix_labels,
    };
    pub use crate::data::dataset::AllocFlat;
    pub use crate::data::dataset::{
        BorrowedBatch, LeafSource, LoadField, LoadRecord, LoadableBatch, LoadedFromFile,
        SharedBatch,
    };
    pub use crate::data::error::DataError;
    pub use crate::data::gather::{
        Collate, FieldSource, GatherField, GatherFrom, GatherInto, GatherSame, GatherSteps,
        LeafConvert, LeafMut, LeafTarget, LeafVia, Padded, SourceOf, SourceServedBy,
        StepsOfSequences, check_fits, gather_leaf,
    };
    pub use crate::data::provider::ProvidedBy;
    pub use crate::format::FormatAs;
    pub use crate::mapping::matching::{
        FamilyOf, HasSource, HasSourceAs, LeafField, LendsAs, LentByProjection, ProjectAs,
        ProjectFrom, ReadField, Reads,
    };
    pub use crate::mapping::serve::{FromShared, ServeCache, ServeField, ServeFrom, ServedWhole};
    pub use crate::types::axis::{B, C, D, F, H, K, NotALayout, T, W};
    pub use crate::types::batch::{ArcBatch, BatchView};
    pub use crate::types::elem::Element;
    pub use crate::types::elem::LosslessCast;
    pub use crate::types::error::SpecError;
    pub use crate::types::hlist::{HNil, Pair};
    pub use crate::types::ragged::{SequenceSpace, SourceView};
    pub use crate::types::source::Source;
    pub use crate::types::source::{Features, Src, Targets};
    pub use crate::types::space::Space;
    pub use crate::types::space::{Null, form};
    pub use crate::types::spec::DataSpec;
    pub use crate::types::spec::{
        __add_features, Described, LeafList, LeafPair, Node, NodeMut, Path, SizeCheck, SpecField,
    };
    pub use crate::types::tensors::{LeafMapper, MapSpec};
    pub use core;
    pub use std::vec::Vec;
}
