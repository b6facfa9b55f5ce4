//! `FormatAs`: which spaces a batch can be formatted as, decided at compile time.
//!
//! Pylearn2's `np_format_as` decides at run time, and fails on the first batch; here a conversion
//! exists as a trait impl only where it is legal:
//!
//! | from | to | what happens |
//! | --- | --- | --- |
//! | `Vector<D>` | `Vector<D>` | element cast |
//! | `Image<H, W, C, N, L1>` | `Image<H, W, C, N, L2>` | transpose (any two of the 24 layouts) and cast |
//! | `Image<H, W, C, N, L>` | `Vector<N>` | transpose to `bhwc`, then flatten (Pylearn2's `b01c` order) |
//! | `Vector<N>` | `Image<H, W, C, N, L>` | the inverse |
//! | `Index<M, DIM>` | `Index<M, DIM>` | integer cast |
//! | `Index<M, DIM>` | `Vector<M>` | one-hot, merged (Pylearn2's merge mode) |
//! | `Index<M, DIM>` | `OneHot<M, DIM>` | one-hot, concatenated |
//! | `Index<M, DIM>` | `Labels<M>` | the first label of each sample (dp's `bt -> b`) |
//! | `Labels<M>` | `Index<M, 1>` / `Labels<M>` / `Vector<M>` | `b -> bt`, cast, one-hot |
//! | `VectorSeq<D, L1>` | `VectorSeq<D, L2>` | transpose and cast |
//! | `Volume<D, H, W, C, N, L1>` | `Volume<D, H, W, C, N, L2>` / `Vector<N>` (and back) | transpose (rank 5), flatten in `bdhwc` order |
//! | `VolumeSeq<D, H, W, C, L1>` | `VolumeSeq<D, H, W, C, L2>` | transpose (rank 6) |
//! | `IndexSeq<M, L1>` | `IndexSeq<M, L2>` / `VectorSeq<M, L2>` | transpose, cast, one-hot |
//!
//! Element casts are those of [`LosslessCast`](crate::types::elem::LosslessCast). Every other pair fails `cargo check`, and the first
//! line of the error says why in numbers: `a vector of 10 cannot hold an image of 32×32×3 = 3072`.
#![doc = include_str!("../../doc/format.md")]

pub(crate) mod chain;
pub(crate) mod exec;
mod flip;
mod rules;
mod step;

pub use chain::*;
pub use exec::{Moved, moved};
pub use flip::{FlipLeftRight, FlipUpDown};
pub use rules::{
    ImageFromVector, OneFeature, OneHotWidth, OneLabel, SameImage, SameIndexDim, SameLabels,
    SameVolume, SameWindow, VectorHoldsImage, VectorHoldsVolume, VectorHoldsWindow, VectorWidth,
    WindowFromVector,
};
pub use step::{Step, Through};

pub use crate::types::format_as::{FormatAs, FormatError};
pub use crate::types::plan::{Plan, Split};

use crate::types::space::Space;
use ndarray::{Array, ArrayView, ArrayViewMut};

/// The conversions themselves: one impl per legal pair of spaces, in `rules/` (and one per pair
/// of the library's spaces that does not convert, whose bound says so in words, so that rustc
/// does not list the conversions that exist under a refusal). [`FormatAs`] is implemented
/// through it, once, for every pair; a space of your own converts by implementing this trait.
///
/// `Self` can be formatted as `Target`: the conversion is legal, and [`Convert::PLAN`] says how.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be formatted as `{Target}`",
    label = "no conversion from `{Self}` to `{Target}`",
    note = "conversions exist between spaces of the same kind (another layout or element type), between an image and a vector of its total size, and from labels to one-hot vectors"
)]
pub trait Convert<Target: Space>: Space {
    /// How the data moves.
    const PLAN: Plan;

    /// Writes `src` formatted as `Target` into `dst`, whose shape is the target shape of the same
    /// batch (checked by the callers in [`Batch`](crate::types::Batch)).
    fn format_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        dst: ArrayViewMut<'_, Target::Elem, Target::Dim>,
    );

    /// Writes the samples `rows` of `src`, formatted as `Target`, into the samples `0..rows.len()`
    /// of `dst` (a gather fused with the conversion). Every row is in `0..src`'s batch size and
    /// `dst` holds `rows.len()` samples (checked by the callers).
    fn gather_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        rows: &[usize],
        mut dst: ArrayViewMut<'_, Target::Elem, Target::Dim>,
    ) {
        for (j, &i) in rows.iter().enumerate() {
            let one = src.slice_axis(ndarray::Axis(Self::BATCH_AXIS), (i..i + 1).into());
            let out = dst.slice_axis_mut(ndarray::Axis(Target::BATCH_AXIS), (j..j + 1).into());
            Self::format_view_into(one, out);
        }
    }

    /// The samples `rows` of `src`, formatted as `Target`, then `pad_rows` samples of `pad`, as a
    /// new batch of memory written once (never zero-filled first), or `None` where the
    /// conversion cannot make one so (then the caller gathers into zeros with
    /// [`Convert::gather_view_into`]). Asked for batches of spaces without a time axis only, whose
    /// rows are all in `src` (checked by the callers). The permutations and casts of the
    /// library's spaces with the batch axis first make one: a row copy where the samples are
    /// contiguous runs in both spaces (a cast of the same layout, of layouts that differ only in
    /// where an axis of one value sits, such as one channel's `bhwc` and `bchw`, a vector split
    /// into a `bhwc` image, a `bhwc` image flattened), a transpose of each sample otherwise
    /// (`bhwc` as `bchw`, a vector split into a `bchw` image, a `bchw` image flattened). One-hot
    /// encodings and labels give `None`.
    #[doc(hidden)]
    fn gather_new(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        rows: &[usize],
        pad_rows: usize,
        pad: Target::Elem,
    ) -> Option<Array<Target::Elem, Target::Dim>> {
        let _ = (src, rows, pad_rows, pad);
        None
    }
}

/// [`FormatAs`], the bound the conversions ask for (defined beside the batch, in `types`), for
/// every pair whose [`Convert`] impl holds: its items are `Convert`'s.
impl<A: Convert<T>, T: Space> FormatAs<T> for A {
    const PLAN: Plan = <A as Convert<T>>::PLAN;

    #[inline]
    fn format_view_into(
        src: ArrayView<'_, A::Elem, A::Dim>,
        dst: ArrayViewMut<'_, T::Elem, T::Dim>,
    ) {
        <A as Convert<T>>::format_view_into(src, dst);
    }

    #[inline]
    fn gather_view_into(
        src: ArrayView<'_, A::Elem, A::Dim>,
        rows: &[usize],
        dst: ArrayViewMut<'_, T::Elem, T::Dim>,
    ) {
        <A as Convert<T>>::gather_view_into(src, rows, dst);
    }

    #[inline]
    fn gather_new(
        src: ArrayView<'_, A::Elem, A::Dim>,
        rows: &[usize],
        pad_rows: usize,
        pad: T::Elem,
    ) -> Option<Array<T::Elem, T::Dim>> {
        <A as Convert<T>>::gather_new(src, rows, pad_rows, pad)
    }
}

/// The check of a pair of the library's spaces with no conversion between them: the bound of
/// the [`Convert`] impl of such a pair, `Target: FormatsFrom<Source>`, which never holds, so that
/// the refusal is worded and rustc lists nothing under it. Its self type is the target, so that
/// the refusal's last line reads "the trait `FormatsFrom<Index<10>>` is not implemented for
/// `Image<8, 8, 1, 64>`".
#[diagnostic::on_unimplemented(
    message = "`{A}` cannot be formatted as `{Self}`",
    label = "no conversion from `{A}` to `{Self}`",
    note = "conversions exist between spaces of the same kind (another layout or element type), between an image and a vector of its total size, and from labels to one-hot vectors"
)]
pub trait FormatsFrom<A> {}

/// The one impl: without any, rustc would call the trait one without implementations.
#[doc(hidden)]
pub enum Never {}

#[diagnostic::do_not_recommend]
impl FormatsFrom<Never> for Never {}

/// A compile-time check that `A` formats as `B`:
/// `const _: () = batchspec::format::assert_formats::<Image<32, 32, 3, 3072>, Vector<3072>>();`
pub const fn assert_formats<A: FormatAs<B>, B: Space>() {}
