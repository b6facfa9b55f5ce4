//! The legal conversions, as `Convert` impls, one file per kind of source space; each file also
//! holds the check traits whose messages say, in numbers, why a pair of its spaces does not
//! convert. A new kind of space brings a file here and its line below.
//!
//! A check's self type is the conversion's target space (`Vector<D2, E2>: VectorWidth<D1, D2>`),
//! so that the help line rustc adds under the check's message names the space the user asked
//! for ("the trait `VectorWidth<3072, 10>` is not implemented for `Vector<10>`"), not `()`. Each
//! check trait is implemented for every type, not for the spaces alone: with an impl for one type
//! only, rustc followed each message with "but trait `VectorWidth<3072, 3072>` is implemented for
//! it" and quoted the library's impl line. `VectorHoldsImage` keeps its impl for the vectors
//! alone: for every type, a `format_through` chain that fails at that step got rustc's list of
//! the chain impls instead of the step's message.

/// The two methods of a `Convert` impl whose plan is `Permute`, for the target `$target`.
macro_rules! permute_methods {
    ($target:ty) => {
        fn format_view_into(
            src: ArrayView<'_, Self::Elem, Self::Dim>,
            dst: ArrayViewMut<'_, <$target as Space>::Elem, <$target as Space>::Dim>,
        ) {
            permute_cast(
                src,
                dst,
                <Self as Convert<$target>>::PLAN,
                LosslessCast::cast,
            )
        }

        fn gather_view_into(
            src: ArrayView<'_, Self::Elem, Self::Dim>,
            rows: &[usize],
            dst: ArrayViewMut<'_, <$target as Space>::Elem, <$target as Space>::Dim>,
        ) {
            gather_permute::<Self, $target, _>(
                src,
                rows,
                dst,
                <Self as Convert<$target>>::PLAN,
                LosslessCast::cast,
                LosslessCast::cast_slice,
            )
        }

        fn gather_new(
            src: ArrayView<'_, Self::Elem, Self::Dim>,
            rows: &[usize],
            pad_rows: usize,
            pad: <$target as Space>::Elem,
        ) -> Option<ndarray::Array<<$target as Space>::Elem, <$target as Space>::Dim>> {
            gather_permute_new::<Self, $target, _>(
                src,
                rows,
                pad_rows,
                pad,
                <Self as Convert<$target>>::PLAN,
                LosslessCast::cast,
            )
        }
    };
}

/// The methods of a one-hot conversion to `$target`: a batch through `one_hot`, a gather
/// through `gather_one_hot`.
macro_rules! one_hot_methods {
    ($target:ty) => {
        fn format_view_into(
            src: ArrayView<'_, Self::Elem, Self::Dim>,
            dst: ArrayViewMut<'_, <$target as Space>::Elem, <$target as Space>::Dim>,
        ) {
            one_hot::<Self, $target>(src, dst, <Self as Convert<$target>>::PLAN)
        }

        fn gather_view_into(
            src: ArrayView<'_, Self::Elem, Self::Dim>,
            rows: &[usize],
            dst: ArrayViewMut<'_, <$target as Space>::Elem, <$target as Space>::Dim>,
        ) {
            gather_one_hot::<Self, $target>(src, rows, dst, <Self as Convert<$target>>::PLAN)
        }
    };
}

pub(crate) const fn perm_of(from: &[char], to: &[char]) -> [usize; 6] {
    match crate::types::axis::permutation(from, to) {
        Some(p) => p,
        None => [0, 1, 2, 3, 4, 5],
    }
}

pub(crate) const BHWC_LETTERS: &[char] = &['b', 'h', 'w', 'c'];

pub(crate) const BDHWC_LETTERS: &[char] = &['b', 'd', 'h', 'w', 'c'];

pub(crate) const BWC_LETTERS: &[char] = &['b', 'w', 'c'];

mod image;
mod index;
mod none;
mod packed;
mod sequence;
mod vector;
mod volume;
mod window;

pub use image::{ImageFromVector, SameImage, VectorHoldsImage};
pub use index::{OneHotWidth, OneLabel, SameIndexDim, SameLabels};
pub use vector::VectorWidth;
pub use volume::{SameVolume, VectorHoldsVolume};
pub use window::{OneFeature, SameWindow, VectorHoldsWindow, WindowFromVector};
