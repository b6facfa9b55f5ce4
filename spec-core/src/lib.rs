//! The run-time half of [batchspec](https://docs.rs/batchspec): axes, spaces, sources, typed
//! batches, specs and the errors of data that does not fit them.
//!
//! Use it through the `batchspec` crate, which adds `#[derive(DataSpec)]`.
#![warn(missing_docs)]

pub mod axis;
pub mod batch;
pub mod buffer;
pub mod consumer;
pub mod dataset;
pub mod elem;
pub mod error;
pub mod format;
pub mod hlist;
pub mod iteration;
pub mod kernel;
mod kernel_glue;
pub mod load;
pub mod mapping;
pub mod matching;
pub mod provider;
pub mod serve;
pub mod source;
pub mod space;
pub mod spec;
pub mod view;

pub use axis::{Axis, B, BCHW, BF, BHWC, BK, BT, BTF, C, CHWB, D, F, H, K, Layout, T, TBF, W};
pub use batch::{ArcBatch, Batch, BatchView};
pub use elem::{CastInto, Element, IndexElement, LossyCast};
pub use error::{Error, Result};
pub use format::{FormatAs, assert_formats};
pub use matching::{Serves, Specs, assert_serves};
pub use source::{Features, Source, Src, Targets};
pub use space::{
    Image, Index, IndexSeq, Labels, Null, OneHot, Space, Vector, VectorSeq, Volume, VolumeSeq,
};
pub use spec::{
    DataSpec, Described, FlatOf, LeavesOf, MappedOf, Node, SourcesOf, SpacesOf, ViewsOf,
};

/// What the derive's output names; not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::hlist::{HCons, HList, HNil};
    pub use crate::source::Src;
    pub use crate::spec::{__add_features, Described, FlatRest, LeafList, Node, Path, SizeCheck};
    pub use crate::{DataSpec, Error, Source};
    pub use core;
    pub use std::vec::Vec;
}
