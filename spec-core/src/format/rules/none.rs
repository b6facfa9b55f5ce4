//! The pairs of the library's spaces that do not convert: one [`Convert`] impl each, bounded by
//! [`NoConversion`], which never holds. A refused pair is then reported in the words of that
//! bound ("`Vector<10>` cannot be formatted as `Index<10>`") with nothing listed under it, where
//! with no impl at all rustc would list every conversion the source space has. A new kind of
//! space brings a line here, and its pairs leave it as their conversions are written.

use crate::format::plan::Plan;
use crate::format::{Convert, NoConversion};
use crate::types::space::{
    Image, Index, IndexSeq, Labels, Lengths, Mask, OneHot, Scalar, Space, Vector, VectorSeq,
    Volume, VolumeSeq, Window,
};
use ndarray::{ArrayView, ArrayViewMut};

/// `Convert` impls from `$from` to each `$to`, under the bound that never holds.
macro_rules! no_conversion {
    ($fp:tt $from:ty => $($tp:tt $to:ty),+ $(,)?) => {
        $( no_conversion!(@one $from, $fp, $to, $tp); )+
    };
    (@one $from:ty, [$($fp:tt)*], $to:ty, [$($tp:tt)*]) => {
        impl<$($fp)*, $($tp)*> Convert<$to> for $from
        where
            $from: Space,
            $to: Space,
            (): NoConversion<$from, $to>,
        {
            // Never read: the bound never holds.
            const PLAN: Plan = Plan::Step;
            fn format_view_into(
                _: ArrayView<'_, Self::Elem, Self::Dim>,
                _: ArrayViewMut<'_, <$to as Space>::Elem, <$to as Space>::Dim>,
            ) {
                unreachable!("`NoConversion` has no impl for a pair of spaces")
            }
        }
    };
}

no_conversion!([const SD: usize, SE] Vector<SD, SE> =>
    [const TM: usize, const TD: usize, TE] Index<TM, TD, TE>,
    [const TM: usize, TE] Labels<TM, TE>,
    [const TM: usize, const TD: usize, TE] OneHot<TM, TD, TE>,
    [const TD: usize, TL, TE] VectorSeq<TD, TL, TE>,
    [const TM: usize, TL, TE] IndexSeq<TM, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, TL, TE] VolumeSeq<TD, TH, TW, TC, TL, TE>,
    [TE] Lengths<TE>,
    [TL, TE] Mask<TL, TE>,
);

no_conversion!([SE] Scalar<SE> =>
    [const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Image<TH, TW, TC, TN, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Volume<TD, TH, TW, TC, TN, TL, TE>,
    [const TW: usize, const TC: usize, const TN: usize, TL, TE] Window<TW, TC, TN, TL, TE>,
    [const TM: usize, const TD: usize, TE] Index<TM, TD, TE>,
    [const TM: usize, TE] Labels<TM, TE>,
    [const TM: usize, const TD: usize, TE] OneHot<TM, TD, TE>,
    [const TD: usize, TL, TE] VectorSeq<TD, TL, TE>,
    [const TM: usize, TL, TE] IndexSeq<TM, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, TL, TE] VolumeSeq<TD, TH, TW, TC, TL, TE>,
    [TE] Lengths<TE>,
    [TL, TE] Mask<TL, TE>,
);

no_conversion!([const SH: usize, const SW: usize, const SC: usize, const SN: usize, SL, SE] Image<SH, SW, SC, SN, SL, SE> =>
    [TE] Scalar<TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Volume<TD, TH, TW, TC, TN, TL, TE>,
    [const TW: usize, const TC: usize, const TN: usize, TL, TE] Window<TW, TC, TN, TL, TE>,
    [const TM: usize, const TD: usize, TE] Index<TM, TD, TE>,
    [const TM: usize, TE] Labels<TM, TE>,
    [const TM: usize, const TD: usize, TE] OneHot<TM, TD, TE>,
    [const TD: usize, TL, TE] VectorSeq<TD, TL, TE>,
    [const TM: usize, TL, TE] IndexSeq<TM, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, TL, TE] VolumeSeq<TD, TH, TW, TC, TL, TE>,
    [TE] Lengths<TE>,
    [TL, TE] Mask<TL, TE>,
);

no_conversion!([const SD: usize, const SH: usize, const SW: usize, const SC: usize, const SN: usize, SL, SE] Volume<SD, SH, SW, SC, SN, SL, SE> =>
    [TE] Scalar<TE>,
    [const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Image<TH, TW, TC, TN, TL, TE>,
    [const TW: usize, const TC: usize, const TN: usize, TL, TE] Window<TW, TC, TN, TL, TE>,
    [const TM: usize, const TD: usize, TE] Index<TM, TD, TE>,
    [const TM: usize, TE] Labels<TM, TE>,
    [const TM: usize, const TD: usize, TE] OneHot<TM, TD, TE>,
    [const TD: usize, TL, TE] VectorSeq<TD, TL, TE>,
    [const TM: usize, TL, TE] IndexSeq<TM, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, TL, TE] VolumeSeq<TD, TH, TW, TC, TL, TE>,
    [TE] Lengths<TE>,
    [TL, TE] Mask<TL, TE>,
);

no_conversion!([const SW: usize, const SC: usize, const SN: usize, SL, SE] Window<SW, SC, SN, SL, SE> =>
    [TE] Scalar<TE>,
    [const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Image<TH, TW, TC, TN, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Volume<TD, TH, TW, TC, TN, TL, TE>,
    [const TM: usize, const TD: usize, TE] Index<TM, TD, TE>,
    [const TM: usize, TE] Labels<TM, TE>,
    [const TM: usize, const TD: usize, TE] OneHot<TM, TD, TE>,
    [const TD: usize, TL, TE] VectorSeq<TD, TL, TE>,
    [const TM: usize, TL, TE] IndexSeq<TM, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, TL, TE] VolumeSeq<TD, TH, TW, TC, TL, TE>,
    [TE] Lengths<TE>,
    [TL, TE] Mask<TL, TE>,
);

no_conversion!([const SM: usize, const SD: usize, SE] Index<SM, SD, SE> =>
    [TE] Scalar<TE>,
    [const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Image<TH, TW, TC, TN, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Volume<TD, TH, TW, TC, TN, TL, TE>,
    [const TW: usize, const TC: usize, const TN: usize, TL, TE] Window<TW, TC, TN, TL, TE>,
    [const TD: usize, TL, TE] VectorSeq<TD, TL, TE>,
    [const TM: usize, TL, TE] IndexSeq<TM, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, TL, TE] VolumeSeq<TD, TH, TW, TC, TL, TE>,
    [TE] Lengths<TE>,
    [TL, TE] Mask<TL, TE>,
);

no_conversion!([const SM: usize, SE] Labels<SM, SE> =>
    [TE] Scalar<TE>,
    [const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Image<TH, TW, TC, TN, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Volume<TD, TH, TW, TC, TN, TL, TE>,
    [const TW: usize, const TC: usize, const TN: usize, TL, TE] Window<TW, TC, TN, TL, TE>,
    [const TD: usize, TL, TE] VectorSeq<TD, TL, TE>,
    [const TM: usize, TL, TE] IndexSeq<TM, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, TL, TE] VolumeSeq<TD, TH, TW, TC, TL, TE>,
    [TE] Lengths<TE>,
    [TL, TE] Mask<TL, TE>,
);

no_conversion!([const SM: usize, const SD: usize, SE] OneHot<SM, SD, SE> =>
    [const TD: usize, TE] Vector<TD, TE>,
    [TE] Scalar<TE>,
    [const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Image<TH, TW, TC, TN, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Volume<TD, TH, TW, TC, TN, TL, TE>,
    [const TW: usize, const TC: usize, const TN: usize, TL, TE] Window<TW, TC, TN, TL, TE>,
    [const TM: usize, const TD: usize, TE] Index<TM, TD, TE>,
    [const TM: usize, TE] Labels<TM, TE>,
    [const TM: usize, const TD: usize, TE] OneHot<TM, TD, TE>,
    [const TD: usize, TL, TE] VectorSeq<TD, TL, TE>,
    [const TM: usize, TL, TE] IndexSeq<TM, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, TL, TE] VolumeSeq<TD, TH, TW, TC, TL, TE>,
    [TE] Lengths<TE>,
    [TL, TE] Mask<TL, TE>,
);

no_conversion!([const SD: usize, SL, SE] VectorSeq<SD, SL, SE> =>
    [const TD: usize, TE] Vector<TD, TE>,
    [TE] Scalar<TE>,
    [const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Image<TH, TW, TC, TN, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Volume<TD, TH, TW, TC, TN, TL, TE>,
    [const TW: usize, const TC: usize, const TN: usize, TL, TE] Window<TW, TC, TN, TL, TE>,
    [const TM: usize, const TD: usize, TE] Index<TM, TD, TE>,
    [const TM: usize, TE] Labels<TM, TE>,
    [const TM: usize, const TD: usize, TE] OneHot<TM, TD, TE>,
    [const TM: usize, TL, TE] IndexSeq<TM, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, TL, TE] VolumeSeq<TD, TH, TW, TC, TL, TE>,
    [TE] Lengths<TE>,
    [TL, TE] Mask<TL, TE>,
);

no_conversion!([const SM: usize, SL, SE] IndexSeq<SM, SL, SE> =>
    [const TD: usize, TE] Vector<TD, TE>,
    [TE] Scalar<TE>,
    [const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Image<TH, TW, TC, TN, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Volume<TD, TH, TW, TC, TN, TL, TE>,
    [const TW: usize, const TC: usize, const TN: usize, TL, TE] Window<TW, TC, TN, TL, TE>,
    [const TM: usize, const TD: usize, TE] Index<TM, TD, TE>,
    [const TM: usize, TE] Labels<TM, TE>,
    [const TM: usize, const TD: usize, TE] OneHot<TM, TD, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, TL, TE] VolumeSeq<TD, TH, TW, TC, TL, TE>,
    [TE] Lengths<TE>,
    [TL, TE] Mask<TL, TE>,
);

no_conversion!([const SD: usize, const SH: usize, const SW: usize, const SC: usize, SL, SE] VolumeSeq<SD, SH, SW, SC, SL, SE> =>
    [const TD: usize, TE] Vector<TD, TE>,
    [TE] Scalar<TE>,
    [const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Image<TH, TW, TC, TN, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Volume<TD, TH, TW, TC, TN, TL, TE>,
    [const TW: usize, const TC: usize, const TN: usize, TL, TE] Window<TW, TC, TN, TL, TE>,
    [const TM: usize, const TD: usize, TE] Index<TM, TD, TE>,
    [const TM: usize, TE] Labels<TM, TE>,
    [const TM: usize, const TD: usize, TE] OneHot<TM, TD, TE>,
    [const TD: usize, TL, TE] VectorSeq<TD, TL, TE>,
    [const TM: usize, TL, TE] IndexSeq<TM, TL, TE>,
    [TE] Lengths<TE>,
    [TL, TE] Mask<TL, TE>,
);

no_conversion!([SE] Lengths<SE> =>
    [const TD: usize, TE] Vector<TD, TE>,
    [TE] Scalar<TE>,
    [const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Image<TH, TW, TC, TN, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Volume<TD, TH, TW, TC, TN, TL, TE>,
    [const TW: usize, const TC: usize, const TN: usize, TL, TE] Window<TW, TC, TN, TL, TE>,
    [const TM: usize, const TD: usize, TE] Index<TM, TD, TE>,
    [const TM: usize, TE] Labels<TM, TE>,
    [const TM: usize, const TD: usize, TE] OneHot<TM, TD, TE>,
    [const TD: usize, TL, TE] VectorSeq<TD, TL, TE>,
    [const TM: usize, TL, TE] IndexSeq<TM, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, TL, TE] VolumeSeq<TD, TH, TW, TC, TL, TE>,
    [TE] Lengths<TE>,
    [TL, TE] Mask<TL, TE>,
);

no_conversion!([SL, SE] Mask<SL, SE> =>
    [const TD: usize, TE] Vector<TD, TE>,
    [TE] Scalar<TE>,
    [const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Image<TH, TW, TC, TN, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, const TN: usize, TL, TE] Volume<TD, TH, TW, TC, TN, TL, TE>,
    [const TW: usize, const TC: usize, const TN: usize, TL, TE] Window<TW, TC, TN, TL, TE>,
    [const TM: usize, const TD: usize, TE] Index<TM, TD, TE>,
    [const TM: usize, TE] Labels<TM, TE>,
    [const TM: usize, const TD: usize, TE] OneHot<TM, TD, TE>,
    [const TD: usize, TL, TE] VectorSeq<TD, TL, TE>,
    [const TM: usize, TL, TE] IndexSeq<TM, TL, TE>,
    [const TD: usize, const TH: usize, const TW: usize, const TC: usize, TL, TE] VolumeSeq<TD, TH, TW, TC, TL, TE>,
    [TE] Lengths<TE>,
    [TL, TE] Mask<TL, TE>,
);
