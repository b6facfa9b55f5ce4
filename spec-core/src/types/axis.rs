//! Axes and layouts: which axis of a batch is which, in memory order.
//!
//! An axis is a zero-sized marker type (`B`, `H`, `W`, `C`, ...), named after the letters of dp's
//! views (`b f t c h w d`, plus `k` for the positions of an index space). A layout is a tuple of
//! axes in memory (row-major) order: `(B, H, W, C)` is a batch of images stored pixel by pixel,
//! `(B, C, H, W)` the same images stored channel plane by channel plane. The aliases below
//! (`BHWC`, `BCHW`, ...) name the usual ones.
//!
//! Memory order is not logical order: an `Image` space always has rows, columns and channels,
//! whatever its layout; the layout only says how they are laid out in memory.

use core::fmt;

/// An axis marker: a zero-sized type naming one axis of a batch.
pub trait Axis: 'static + Copy + Default + fmt::Debug + Send + Sync {
    /// The letter of the axis in layout strings (`'b'`, `'h'`, ...).
    const LETTER: char;
    /// The axis in words, for messages (`"batch"`, `"height"`, ...).
    const NAME: &'static str;
}

// The marker types are declared here; their letters and words come from `batchspec_facts::AXES`,
// which the derive's `layout!` reads too (a marker the facts do not list fails to compile).
macro_rules! axes {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
        pub struct $name;
        impl Axis for $name {
            const LETTER: char = batchspec_facts::axis(stringify!($name)).letter;
            const NAME: &'static str = batchspec_facts::axis(stringify!($name)).word;
        }
        const _: char = <$name as Axis>::LETTER;
    )*};
}

axes! {
    /// The batch axis (`b`): one entry per sample; its size is known only at run time.
    B;
    /// The feature axis (`f`) of a vector space.
    F;
    /// The time axis (`t`) of a sequence space; its size is known only at run time.
    T;
    /// The channel axis (`c`) of an image.
    C;
    /// The height (rows) axis (`h`) of an image.
    H;
    /// The width (columns) axis (`w`) of an image.
    W;
    /// The depth axis (`d`) of a volume.
    D;
    /// The axis (`k`) of the positions of an index space: `dim` labels per sample.
    K;
}

/// A layout: a tuple of distinct axes in memory order, rank 1 to 6.
///
/// Implemented for tuples of [`Axis`] types. Which layouts a space accepts is said by the space
/// (an image accepts the 24 orders of `b, h, w, c`); a layout a space does not accept is a
/// compile error naming the layout.
pub trait Layout: 'static + Copy + Default + fmt::Debug + Send + Sync {
    /// Number of axes.
    const RANK: usize;
    /// The axis letters in memory order, e.g. `['b', 'h', 'w', 'c']`.
    const LETTERS: &'static [char];
    /// The layout as a string, e.g. `"bhwc"`.
    const STR: &'static str;
    #[doc(hidden)]
    const __BYTES: ([u8; 6], usize);
}

/// What `layout!` stands for when its letters are not a layout, beside the one error it reports:
/// a layout every space accepts, so that the error is not repeated by every use of the type. Not
/// part of the public API.
#[doc(hidden)]
#[derive(Clone, Copy, Default, Debug)]
pub struct NotALayout<const ERROR: usize = 0>;

impl<const ERROR: usize> Layout for NotALayout<ERROR> {
    const RANK: usize = 0;
    const LETTERS: &'static [char] = &[];
    const STR: &'static str = "?";
    const __BYTES: ([u8; 6], usize) = ([0; 6], 0);
}

/// Position of `letter` in `letters`.
pub(crate) const fn position(letters: &[char], letter: char) -> Option<usize> {
    let mut i = 0;
    while i < letters.len() {
        if letters[i] == letter {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The permutation that takes a batch stored in layout `from` to layout `to`: axis `i` of the
/// result is axis `perm[i]` of the source. `None` if the two are not orders of the same axes.
pub const fn permutation(from: &[char], to: &[char]) -> Option<[usize; 6]> {
    if from.len() != to.len() || from.len() > 6 {
        return None;
    }
    let mut perm = [0usize; 6];
    let mut i = 0;
    while i < to.len() {
        match position(from, to[i]) {
            Some(p) => perm[i] = p,
            None => return None,
        }
        i += 1;
    }
    Some(perm)
}

const fn letters_str<const N: usize>(letters: [char; N]) -> ([u8; 6], usize) {
    let mut out = [0u8; 6];
    let mut i = 0;
    while i < N {
        out[i] = letters[i] as u8;
        i += 1;
    }
    (out, N)
}

macro_rules! layout_tuple {
    ($n:literal: $($a:ident),+) => {
        impl<$($a: Axis),+> Layout for ($($a,)+) {
            const RANK: usize = $n;
            const LETTERS: &'static [char] = &[$($a::LETTER),+];
            const STR: &'static str = {
                match core::str::from_utf8(Self::__BYTES.0.split_at(Self::__BYTES.1).0) {
                    Ok(s) => s,
                    Err(_) => "?",
                }
            };
            const __BYTES: ([u8; 6], usize) = letters_str([$($a::LETTER),+]);
        }
    };
}

layout_tuple!(1: A0);
layout_tuple!(2: A0, A1);
layout_tuple!(3: A0, A1, A2);
layout_tuple!(4: A0, A1, A2, A3);
layout_tuple!(5: A0, A1, A2, A3, A4);
layout_tuple!(6: A0, A1, A2, A3, A4, A5);

macro_rules! aliases {
    ($($name:ident = ($($a:ident),+);)*) => {$(
        #[doc = concat!("The layout `", $(stringify!($a),)+ "` (memory order), i.e. `(", stringify!($($a),+), ")`.")]
        pub type $name = ($($a,)+);
    )*};
}

aliases! {
    BF = (B, F);
    BT = (B, T);
    BK = (B, K);
    BHWC = (B, H, W, C);
    BCHW = (B, C, H, W);
    CHWB = (C, H, W, B);
    BWHC = (B, W, H, C);
    HWCB = (H, W, C, B);
    CBHW = (C, B, H, W);
    BTF = (B, T, F);
    TBF = (T, B, F);
    BFT = (B, F, T);
    TB = (T, B);
    BWC = (B, W, C);
    BCW = (B, C, W);
}
