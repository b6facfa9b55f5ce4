//! batchspec: the data specifications of machine-learning pipelines as types.
//!
//! A batch struct with `#[derive(DataSpec)]` is a (space, source) pair in Pylearn2's sense: the
//! compiler knows its structure, which source each leaf comes from, each leaf's axis layout and
//! its static sizes. A request that the data cannot serve does not compile, and the error says
//! why in words.
//!
//! ```
//! use batchspec::prelude::*;
//! use ndarray::{Array2, Array4};
//!
//! // What the dataset stores: CIFAR-like images as bytes, and class labels.
//! #[derive(DataSpec)]
//! struct Record {
//!     #[spec(source = "features")]
//!     image: Batch<image![32, 32, 3; BHWC, u8]>,
//!     #[spec(source = "targets")]
//!     label: Batch<Index<10>>,
//! }
//!
//! // What a model asks for: the same images as flat f32 vectors.
//! #[derive(DataSpec)]
//! struct ModelInput {
//!     #[spec(source = "features")]
//!     x: Batch<Vector<3072>>,
//! }
//!
//! // Checked by `cargo check`: every source of the request is in the record, in a space that
//! // converts (here a 32×32×3 image into a vector of 3072).
//! const _: () = batchspec::mapping::assert_serves::<Record, ModelInput>();
//!
//! let record = Record {
//!     image: Batch::new(Array4::zeros((128, 32, 32, 3)))?,
//!     label: Batch::new(Array2::zeros((128, 1)))?,
//! };
//! assert_eq!(record.validate()?, 128);
//! let shapes: Vec<_> = Record::describe(128).iter().map(|d| (d.source, d.dims().unwrap())).collect();
//! assert_eq!(shapes, [("features", vec![128, 32, 32, 3]), ("targets", vec![128, 1])]);
//! # Ok::<(), batchspec::Error>(())
//! ```
//!
//! # Concepts
//!
//! - **Spaces** ([`Vector`](types::Vector), [`Image`](types::Image), [`Index`](types::Index),
//!   [`Labels`](types::Labels), [`VectorSeq`](types::VectorSeq), [`IndexSeq`](types::IndexSeq),
//!   [`Null`](types::Null)) are types with const-generic sizes: `Vector<3072>`, `Index<10>`. An image also
//!   carries its total size, written for you by [`image!`]: `image![32, 32, 3; BCHW, u8]` is
//!   `Image<32, 32, 3, 3072, BCHW, u8>`.
//! - **Layouts** are tuples of axis markers in memory order: [`BHWC`](types::axis::BHWC) is `(B, H, W, C)`.
//!   [`layout!`] writes any other from its letters: `layout!(hwcb)`.
//! - **Sources** are types made from strings: `#[spec(source = "mask")]` and `source!("mask")`
//!   are the same type in every crate, with the name at run time as [`Source::NAME`](types::Source::NAME). A field
//!   without `#[spec]` reads the source named like the field. Compile errors never show a
//!   source as a type: they name the field that reads it (`the record \`Record\` does not serve
//!   the source of field \`ModelInput·mask\``) and quote its `#[spec(source = "..")]`.
//! - **Batches** ([`Batch`](types::Batch)) wrap ndarray arrays and are checked once, where data enters: the
//!   static sizes, and every label of an index space (a label of -1 is an error, never wrapped).
//! - **Specs** ([`DataSpec`](types::DataSpec)) are derived structs: the space tree, the source tree, the leaves,
//!   `describe(batch_size)` (MXNet's `provide_data`) and `validate()`.
//! - **Matching**: [`Serves`](mapping::Serves) holds when a record can serve a request, by source, with a
//!   [`FormatAs`](format::FormatAs) conversion for each leaf; a mismatch is one error in the words of the
//!   request's field, at the line that pairs the two (`Provider::new`, `serve`, `Server::get`,
//!   `assert_serves`, or a bound `R: Serves<Q>` in your code).
//!
//! # The parts
//!
//! Each item has one path, in the part that defines it; [`prelude`] gathers what most code
//! names. From the bottom up:
//!
//! - [`kernel`]: the layout-conversion kernels (the crate `batchspec-kernel`, the workspace's
//!   only `unsafe` code);
//! - [`iteration`]: which samples each batch holds: orders, shuffles, shards, last-batch
//!   policies, buckets;
//! - [`types`]: the vocabulary: axes ([`types::axis`]), element types, spaces, sources, specs,
//!   batches, ragged batches;
//! - [`format`](mod@format): the legal conversions between spaces and their plans;
//! - [`buffer`]: Brainstorm's buffer layouts and manager;
//! - [`mapping`]: flatten/nest with de-duplication, matching a request to a record, serving;
//! - [`view`]: dp's views with cached forms and gradients;
//! - [`augment`]: typed augmentations fused into the gather;
//! - [`data`]: datasets, gathers and collate policies, providers, prefetch, streams, training;
//! - [`load`]: file readers (CSV, IDX, npy/npz, Parquet) that check files against a spec;
//! - [`Error`]: the crate-wide error, one variant per part.
//!
//! # What does not compile
//!
//! A request for a 10-wide vector where the data is 3072 wide:
//!
//! ```compile_fail
//! use batchspec::prelude::*;
//! #[derive(DataSpec)]
//! struct Record { #[spec(source = "features")] x: Batch<Vector<3072>> }
//! #[derive(DataSpec)]
//! struct Request { #[spec(source = "features")] x: Batch<Vector<10>> }
//! const _: () = batchspec::mapping::assert_serves::<Record, Request>();
//! ```
//!
//! A source the record does not have (here a typo):
//!
//! ```compile_fail
//! use batchspec::prelude::*;
//! #[derive(DataSpec)]
//! struct Record { #[spec(source = "features")] x: Batch<Vector<3>> }
//! #[derive(DataSpec)]
//! struct Request { #[spec(source = "featurs")] x: Batch<Vector<3>> }
//! const _: () = batchspec::mapping::assert_serves::<Record, Request>();
//! ```
//!
//! An image whose declared total is not rows × columns × channels:
//!
//! ```compile_fail
//! use batchspec::prelude::*;
//! #[derive(DataSpec)]
//! struct Record { #[spec(source = "features")] x: Batch<Image<32, 32, 3, 3000>> }
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub use batchspec_core::*;
pub use batchspec_derive::{DataSpec, layout, source};

/// The names most code needs: `use batchspec::prelude::*;`.
///
/// The single-letter axis markers (`B`, `H`, `W`, ...) stay in [`types::axis`]: in a glob
/// import they would clash with const parameters named `D` or `K`. The prelude has the layout
/// aliases.
pub mod prelude {
    pub use batchspec_core::data::{BatchSource, IntoPrefetch, ProvidedBy, SampleStages};
    pub use batchspec_core::format::FormatAs;
    pub use batchspec_core::mapping::Serves;
    pub use batchspec_core::types::axis::{BCHW, BCW, BF, BHWC, BK, BT, BTF, BWC, CHWB, TB, TBF};
    pub use batchspec_core::types::{
        ArcBatch, Attention, BCDHW, BDHWC, BTDHWC, Batch, BatchView, CuSeqlens, DataSpec, Features,
        Image, Index, IndexSeq, Labels, Lengths, Mask, Null, OneHot, Positions, Ragged, Scalar,
        Segments, Source, Space, Targets, Vector, VectorSeq, Volume, VolumeSeq, Window,
    };
    pub use batchspec_core::{image, volume, window};
    pub use batchspec_derive::{DataSpec, layout, source};
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
