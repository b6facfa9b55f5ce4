//! The run-time half of [batchspec](https://docs.rs/batchspec): axes, spaces, sources, typed
//! batches, specs and the errors of data that does not fit them.
//!
//! Use it through the `batchspec` crate, which adds `#[derive(DataSpec)]`.
#![warn(missing_docs)]

// The parts. From the bottom up they are types, kernel, format, buffer, mapping, view, augment,
// data and load; each imports only the parts before it in that order (the architecture test in
// `tests/architecture.rs` holds the code to that).
pub mod augment;
pub mod buffer;
pub mod data;
pub mod format;
pub mod kernel;
pub mod load;
pub mod mapping;
pub mod types;
pub mod view;
// The crate-wide error, above every part.
pub mod error;

// The paths of the modules inside the parts, as users have always written them
// (`batchspec::dataset::Dataset`, `batchspec::space::Vector`).
pub use data::{dataset, iteration, provider, stream, training};
pub use mapping::{consumer, matching, serve};
pub use types::{axis, batch, elem, hlist, ragged, source, space, spec, tensors};

pub use data::gather::Collate;
pub use error::{Error, Result};
pub use format::{FormatAs, assert_formats};
pub use mapping::matching::{Reads, Serves, assert_serves};
pub use types::axis::{
    Axis, B, BCHW, BCW, BF, BHWC, BK, BT, BTF, BWC, C, CHWB, D, F, H, K, Layout, T, TB, TBF, W,
};
pub use types::batch::{ArcBatch, Batch, BatchView, BatchViewMut};
pub use types::elem::{Arith, Element, IndexElement, LosslessCast, LossyCast};
pub use types::ragged::{Ragged, RaggedView, RaggedViewMut, SequenceSpace, SourceView};
pub use types::source::{Features, Source, Src, Targets};
pub use types::space::{
    FreeValues, Image, Index, IndexSeq, Labels, Lengths, Mask, Null, OneHot, Scalar, Space, Vector,
    VectorSeq, Volume, VolumeSeq, Window,
};
pub use types::spec::{
    DataSpec, Described, FlatOf, LeavesOf, MappedOf, Node, NodeMut, SourcesOf, SpacesOf,
    ViewsMutOf, ViewsOf,
};

/// What the derive's output names; not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::augment::{
        Augmentation, Draws, ImageSpace, MixLabels, check_augment, check_mixed, gather_augmented,
        mix_labels,
    };
    pub use crate::data::dataset::{LeafSource, LoadField, LoadRecord};
    pub use crate::data::error::DataError;
    pub use crate::data::gather::{
        Collate, GatherField, GatherFrom, GatherInto, GatherSame, GatherSteps, LeafConvert,
        LeafMut, LeafTarget, LeafVia, Padded, SourceOf, check_fits, gather_leaf,
    };
    pub use crate::format::FormatAs;
    pub use crate::mapping::matching::{
        HasSource, LeafField, LendsAs, ProjectAs, ProjectFrom, ReadField, Reads,
    };
    pub use crate::mapping::serve::{FromShared, ServeCache, ServeField, ServeFrom};
    pub use crate::types::axis::{B, C, D, F, H, K, NotALayout, T, W};
    pub use crate::types::batch::{ArcBatch, BatchView};
    pub use crate::types::elem::Element;
    pub use crate::types::elem::LosslessCast;
    pub use crate::types::error::SpecError;
    pub use crate::types::hlist::{HNil, Pair};
    pub use crate::types::ragged::{SequenceSpace, SourceView};
    pub use crate::types::source::{Features, Src, Targets};
    pub use crate::types::space::Null;
    pub use crate::types::space::Space;
    pub use crate::types::spec::{
        __add_features, Described, LeafList, LeafPair, Node, NodeMut, Path, SizeCheck, SpecField,
    };
    pub use crate::types::tensors::{LeafMapper, MapSpec};
    pub use crate::{DataSpec, Source};
    pub use core;
    pub use std::vec::Vec;
}
