//! The pairs of the library's spaces that do not convert: one [`Convert`] impl each, bounded by
//! [`FormatsFrom`] (`Target: FormatsFrom<Source>`), which never holds. A refused pair is then reported in the words of that
//! bound ("`Vector<10>` cannot be formatted as `Index<10>`") with nothing listed under it, where
//! with no impl at all rustc would list every conversion the source space has. A new kind of
//! space brings a line here and an arm in `source_space!` and `target_space!`, and its pairs leave
//! the lines as their conversions are written.

use crate::format::{Convert, FormatsFrom};
use crate::types::plan::Plan;
use crate::types::space::{
    Attention, CuSeqlens, Image, Index, IndexSeq, Labels, Lengths, Mask, OneHot, Positions, Scalar,
    Segments, Space, Vector, VectorSeq, Volume, VolumeSeq, Window,
};
use ndarray::{ArrayView, ArrayViewMut};

/// A space of the library as the source of a pair, its parameters prefixed `S`, handed to `$cb`.
macro_rules! source_space {
    (Vector, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const SD: usize, SE] Vector<SD, SE>; } };
    (Scalar, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [SE] Scalar<SE>; } };
    (Image, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const SH: usize, const SW: usize, const SC: usize, const SN: usize, SL, SE] Image<SH, SW, SC, SN, SL, SE>; } };
    (Volume, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const SD: usize, const SH: usize, const SW: usize, const SC: usize, const SN: usize, SL, SE] Volume<SD, SH, SW, SC, SN, SL, SE>; } };
    (Window, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const SW: usize, const SC: usize, const SN: usize, SL, SE] Window<SW, SC, SN, SL, SE>; } };
    (Index, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const SM: usize, const SD: usize, SE] Index<SM, SD, SE>; } };
    (Labels, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const SM: usize, SE] Labels<SM, SE>; } };
    (OneHot, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const SM: usize, const SD: usize, SE] OneHot<SM, SD, SE>; } };
    (VectorSeq, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const SD: usize, SL, SE] VectorSeq<SD, SL, SE>; } };
    (IndexSeq, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const SM: usize, SL, SE] IndexSeq<SM, SL, SE>; } };
    (VolumeSeq, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const SD: usize, const SH: usize, const SW: usize, const SC: usize, SL, SE] VolumeSeq<SD, SH, SW, SC, SL, SE>; } };
    (Lengths, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [SE] Lengths<SE>; } };
    (Mask, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [SL, SE] Mask<SL, SE>; } };
    (Segments, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [SL, SE] Segments<SL, SE>; } };
    (Positions, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [SL, SE] Positions<SL, SE>; } };
    (Attention, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [SE] Attention<SE>; } };
    (CuSeqlens, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [SE] CuSeqlens<SE>; } };
}

/// A space of the library as the target of a pair, its parameters prefixed `T`, handed to `$cb`.
macro_rules! target_space {
    (Vector, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const TD: usize, TE] Vector<TD, TE> } };
    (Scalar, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [TE] Scalar<TE> } };
    (Image, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Image<TH, TW, TC, TN, TL, TE> } };
    (Volume, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const TD: usize, const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Volume<TD, TH, TW, TC, TN, TL, TE> } };
    (Window, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const TW: usize, const TC: usize, const TN: usize, TL, TE] Window<TW, TC, TN, TL, TE> } };
    (Index, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const TM: usize, const TD: usize, TE] Index<TM, TD, TE> } };
    (Labels, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const TM: usize, TE] Labels<TM, TE> } };
    (OneHot, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const TM: usize, const TD: usize, TE] OneHot<TM, TD, TE> } };
    (VectorSeq, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const TD: usize, TL, TE] VectorSeq<TD, TL, TE> } };
    (IndexSeq, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const TM: usize, TL, TE] IndexSeq<TM, TL, TE> } };
    (VolumeSeq, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [const TD: usize, const TH: usize, const TW: usize, const TC: usize, TL, TE] VolumeSeq<TD, TH, TW, TC, TL, TE> } };
    (Lengths, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [TE] Lengths<TE> } };
    (Mask, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [TL, TE] Mask<TL, TE> } };
    (Segments, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [TL, TE] Segments<TL, TE> } };
    (Positions, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [TL, TE] Positions<TL, TE> } };
    (Attention, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [TE] Attention<TE> } };
    (CuSeqlens, $cb:ident!($($rest:tt)*)) => { $cb! { $($rest)* [TE] CuSeqlens<TE> } };
}

/// `Convert` impls from the space `$from` to each space `$to`, under the bound that never holds.
macro_rules! no_conversion {
    ($from:ident => $($to:ident),+ $(,)?) => {
        $( source_space!($from, no_conversion!(@to $to)); )+
    };
    (@to $to:ident [$($fp:tt)*] $from:ty;) => {
        target_space!($to, no_conversion!(@impl [$($fp)*] $from;));
    };
    (@impl [$($fp:tt)*] $from:ty; [$($tp:tt)*] $to:ty) => {
        impl<$($fp)*, $($tp)*> Convert<$to> for $from
        where
            $from: Space,
            $to: Space,
            $to: FormatsFrom<$from>,
        {
            // Never read: the bound never holds.
            const PLAN: Plan = Plan::Step;
            fn format_view_into(
                _: ArrayView<'_, Self::Elem, Self::Dim>,
                _: ArrayViewMut<'_, <$to as Space>::Elem, <$to as Space>::Dim>,
            ) {
                unreachable!("`FormatsFrom` has no impl for a pair of spaces")
            }
        }
    };
}

no_conversion!(Vector => Index, Labels, OneHot, VectorSeq, IndexSeq, VolumeSeq, Lengths, Mask, Segments, Positions, Attention, CuSeqlens);
no_conversion!(Scalar => Image, Volume, Window, Index, Labels, OneHot, VectorSeq, IndexSeq, VolumeSeq, Lengths, Mask, Segments, Positions, Attention, CuSeqlens);
no_conversion!(Image => Scalar, Volume, Window, Index, Labels, OneHot, VectorSeq, IndexSeq, VolumeSeq, Lengths, Mask, Segments, Positions, Attention, CuSeqlens);
no_conversion!(Volume => Scalar, Image, Window, Index, Labels, OneHot, VectorSeq, IndexSeq, VolumeSeq, Lengths, Mask, Segments, Positions, Attention, CuSeqlens);
no_conversion!(Window => Scalar, Image, Volume, Index, Labels, OneHot, VectorSeq, IndexSeq, VolumeSeq, Lengths, Mask, Segments, Positions, Attention, CuSeqlens);
no_conversion!(Index => Scalar, Image, Volume, Window, VectorSeq, IndexSeq, VolumeSeq, Lengths, Mask, Segments, Positions, Attention, CuSeqlens);
no_conversion!(Labels => Scalar, Image, Volume, Window, VectorSeq, IndexSeq, VolumeSeq, Lengths, Mask, Segments, Positions, Attention, CuSeqlens);
no_conversion!(OneHot => Vector, Scalar, Image, Volume, Window, Index, Labels, OneHot, VectorSeq, IndexSeq, VolumeSeq, Lengths, Mask, Segments, Positions, Attention, CuSeqlens);
no_conversion!(VectorSeq => Vector, Scalar, Image, Volume, Window, Index, Labels, OneHot, IndexSeq, VolumeSeq, Lengths, Mask, Segments, Positions, Attention, CuSeqlens);
no_conversion!(IndexSeq => Vector, Scalar, Image, Volume, Window, Index, Labels, OneHot, VolumeSeq, Lengths, Mask, Segments, Positions, Attention, CuSeqlens);
no_conversion!(VolumeSeq => Vector, Scalar, Image, Volume, Window, Index, Labels, OneHot, VectorSeq, IndexSeq, Lengths, Mask, Segments, Positions, Attention, CuSeqlens);
no_conversion!(Lengths => Vector, Scalar, Image, Volume, Window, Index, Labels, OneHot, VectorSeq, IndexSeq, VolumeSeq, Lengths, Mask, Segments, Positions, Attention, CuSeqlens);
no_conversion!(Mask => Vector, Scalar, Image, Volume, Window, Index, Labels, OneHot, VectorSeq, IndexSeq, VolumeSeq, Lengths, Segments, Positions, Attention, CuSeqlens);
no_conversion!(Segments => Vector, Scalar, Image, Volume, Window, Index, Labels, OneHot, VectorSeq, IndexSeq, VolumeSeq, Lengths, Mask, Positions, Attention, CuSeqlens);
no_conversion!(Positions => Vector, Scalar, Image, Volume, Window, Index, Labels, OneHot, VectorSeq, IndexSeq, VolumeSeq, Lengths, Mask, Segments, Attention, CuSeqlens);
no_conversion!(Attention => Vector, Scalar, Image, Volume, Window, Index, Labels, OneHot, VectorSeq, IndexSeq, VolumeSeq, Lengths, Mask, Segments, Positions, CuSeqlens);
no_conversion!(CuSeqlens => Vector, Scalar, Image, Volume, Window, Index, Labels, OneHot, VectorSeq, IndexSeq, VolumeSeq, Lengths, Mask, Segments, Positions, Attention);
