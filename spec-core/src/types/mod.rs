//! The vocabulary: axes and layouts, element types, spaces, sources, the spec traits and
//! batches. Every other part is written in these words; this part imports none of them.

pub mod axis;
pub mod batch;
pub mod elem;
pub mod error;
pub mod hlist;
pub mod source;
pub mod space;
pub mod spec;
