//! Flips: an image mirrored left to right ([`FlipLeftRight`]) or top to bottom ([`FlipUpDown`]), in its own
//! layout and element type. The first [`Step`]s: this file, plus its `mod` and `pub use` lines
//! in `format/mod.rs`.
//!
//! ```
//! use batchspec::prelude::*;
//! use batchspec::format::{FlipLeftRight, Through};
//!
//! let img = Batch::<image![1, 3, 1; BHWC, u8]>::new(ndarray::array![[[[1u8], [2], [3]]]]).unwrap();
//! let flipped = img.format_as::<Through<FlipLeftRight, image![1, 3, 1; BHWC, u8]>>();
//! assert_eq!(flipped.array().iter().copied().collect::<Vec<_>>(), [3, 2, 1]);
//! ```

use super::step::Step;
use crate::types::axis::Layout;
use crate::types::elem::Element;
use crate::types::space::{Image, ImageLayout, Space};
use ndarray::{ArrayView, ArrayViewMut, Axis, Slice};

/// Mirrors each image left to right (NumPy's `fliplr`, torchvision's horizontal flip and the
/// augmentation step `Steps::flip_h`): column `w` becomes column `W - 1 - w`.
pub struct FlipLeftRight;

/// Mirrors each image top to bottom (NumPy's `flipud`, torchvision's vertical flip and the
/// augmentation step `Steps::flip_v`): row `h` becomes row `H - 1 - h`.
pub struct FlipUpDown;

/// Writes `src` reversed along the axis of letter `letter` into `dst` (same shape).
fn reversed<S: Space>(
    src: ArrayView<'_, S::Elem, S::Dim>,
    mut dst: ArrayViewMut<'_, S::Elem, S::Dim>,
    letter: char,
) {
    let axis = <S::Layout as Layout>::LETTERS
        .iter()
        .position(|&l| l == letter)
        .unwrap_or_else(|| unreachable!("an image layout has the axis `{letter}`"));
    dst.assign(&src.slice_axis(Axis(axis), Slice::new(0, None, -1)));
}

macro_rules! flip {
    ($step:ty, $letter:literal) => {
        impl<const H: usize, const W: usize, const C: usize, const N: usize, L, E>
            Step<Image<H, W, C, N, L, E>> for $step
        where
            L: ImageLayout,
            E: Element,
        {
            type Out = Image<H, W, C, N, L, E>;

            fn run(
                src: ArrayView<'_, E, <Self::Out as Space>::Dim>,
                dst: ArrayViewMut<'_, E, <Self::Out as Space>::Dim>,
            ) {
                reversed::<Self::Out>(src, dst, $letter)
            }
        }
    };
}

flip!(FlipLeftRight, 'w');
flip!(FlipUpDown, 'h');
