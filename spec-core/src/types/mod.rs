//! The vocabulary: axes and layouts, element types, spaces, sources, the spec traits and
//! batches. Every other part is written in these words; this part imports none of them.
#![doc = include_str!("../../doc/types.md")]
#![doc = include_str!("../../doc/tensors.md")]
#![doc = include_str!("../../doc/compile-time.md")]

pub mod axis;
pub(crate) mod batch;
pub(crate) mod elem;
pub(crate) mod error;
pub(crate) mod format_as;
pub(crate) mod hlist;
pub(crate) mod plan;
pub(crate) mod ragged;
pub(crate) mod source;
pub(crate) mod space;
pub(crate) mod spec;
pub(crate) mod tensors;

pub use batch::*;
pub use elem::*;
pub use error::*;
pub use hlist::*;
pub use ragged::*;
pub use source::*;
pub use space::*;
pub use spec::*;
pub use tensors::*;

/// Invokes `$m!` once per tuple size from 1 to 8, with each element's type parameter and index:
/// `$m!(A 0); $m!(A 0, B 1); ...`. The impls of the spec traits for tuples are written once,
/// as a macro over one size, and this lists the sizes.
macro_rules! for_tuples {
    ($m:ident) => {
        $m!(A 0);
        $m!(A 0, B 1);
        $m!(A 0, B 1, C 2);
        $m!(A 0, B 1, C 2, D 3);
        $m!(A 0, B 1, C 2, D 3, E 4);
        $m!(A 0, B 1, C 2, D 3, E 4, F 5);
        $m!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
        $m!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
    };
}
pub(crate) use for_tuples;
