//! batchspec: the data specifications of machine-learning pipelines as types.
#![warn(missing_docs)]

pub use batchspec_core::*;
pub use batchspec_derive::{DataSpec, layout, source};

/// The names most code needs: `use batchspec::prelude::*;`.
pub mod prelude {
    pub use batchspec_core::axis::{
        B, BCHW, BF, BHWC, BK, BT, BTF, C, CHWB, D, F, H, K, T, TBF, W,
    };
    pub use batchspec_core::image;
    pub use batchspec_core::{
        ArcBatch, Batch, BatchView, DataSpec, Features, Image, Index, IndexSeq, Labels, Null,
        Source, Space, Targets, Vector, VectorSeq,
    };
    pub use batchspec_derive::{DataSpec, layout, source};
}
