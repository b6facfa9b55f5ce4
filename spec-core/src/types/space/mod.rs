//! Spaces: the format of one leaf of a batch, as a type.
//!
//! A space says how a batch of one source is laid out: its rank, the static size of every axis
//! but the batch axis (and the time axis of sequences), the memory order of the axes and the
//! element type. The spaces of Pylearn2 are here: [`Vector`], [`Image`] (Pylearn2's
//! `Conv2DSpace`), [`Index`], [`VectorSeq`], [`IndexSeq`] and [`Null`], plus [`Labels`] for
//! one class label per sample (dp's class view `b`, MXNet's `softmax_label`), [`Scalar`] for one
//! real value per sample (dp's `b`), and [`Window`] for sequences of a static length (dp's
//! `SequenceView`: `bwc`, `bcw`, and `bf` through a vector).
//!
//! Sizes are const generics, so a user writes any integer and the compiler prints it as written:
//! `Vector<3072>`, `Image<32, 32, 3, 3072, BHWC, u8>`. An image also carries its total size
//! (rows × columns × channels): stable Rust cannot multiply const generics in a type, and the total
//! is what lets a `Vector<3072>` and a 32×32×3 image be matched at compile time. Write images
//! with [`image!`](crate::image), which computes the total, or write it yourself: the derive
//! checks it.

mod image;
mod index;
mod packed;
mod sequence;
mod vector;
mod volume;
mod window;

pub use image::{Image, ImageLayout};
pub use index::{Index, Labels, OneHot};
pub use packed::{Attention, CuSeqlens, Positions, Segments};
pub use sequence::{IndexSeq, IndexSeqLayout, Lengths, Mask, VectorSeq, VectorSeqLayout};
pub use vector::{Scalar, Vector};
pub use volume::{BCDHW, BDHWC, BTDHWC, Volume, VolumeLayout, VolumeSeq, VolumeSeqLayout};
pub use window::{Window, WindowLayout};

/// The families of spaces, each space's [`Space::Form`]: one marker per space type, whatever its
/// sizes, layout and element type.
///
/// They decide which field serves a request's leaf when a record holds one source in fields of
/// different families (an image and a vector of the same pixels): the field of the leaf's
/// family. A source held by one field serves a leaf of any family it formats as.
pub mod form {
    macro_rules! forms {
        ($($space:ident => $name:ident: $what:literal),* $(,)?) => {$(
            #[doc = concat!("The family of ", $what, ".")]
            pub struct $name;
        )*
        /// The spaces' names, as `batchspec_facts::SPACE_FAMILIES` lists them for the derive.
        #[cfg(test)]
        pub(crate) const NAMES: &[&str] = &[$(stringify!($space)),*];
        };
    }
    // Named apart from the spaces (`ImageForm`, not `Image`): rustc writes a type by its full
    // path in its messages when two types share a name.
    forms! {
        Vector => VectorForm: "vectors", Scalar => ScalarForm: "scalars",
        Index => IndexForm: "index spaces", Labels => LabelsForm: "label spaces",
        OneHot => OneHotForm: "one-hot spaces", Image => ImageForm: "images",
        Volume => VolumeForm: "volumes", VolumeSeq => VolumeSeqForm: "volume sequences",
        Window => WindowForm: "windows", VectorSeq => VectorSeqForm: "vector sequences",
        IndexSeq => IndexSeqForm: "index sequences", Lengths => LengthsForm: "lengths",
        Mask => MaskForm: "masks", Segments => SegmentsForm: "segment ids",
        Positions => PositionsForm: "positions", Attention => AttentionForm: "attention masks",
        CuSeqlens => CuSeqlensForm: "cumulative lengths",
    }
}

use crate::types::axis::Layout;
use crate::types::elem::Element;
use crate::types::error::{Position, SpecError};
use ndarray::{ArrayView, Dimension, IntoDimension};

/// The format of one leaf of a batch.
///
/// Implemented by the space types of this module. The batch axis, and the time axis of sequence
/// spaces, have sizes known only at run time; every other axis has a static size.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a space",
    label = "expected a space such as `Vector<10>`, `Image<32, 32, 3, 3072>` or `Index<10>`"
)]
pub trait Space: 'static + Send + Sync + Sized {
    /// The element type.
    type Elem: Element;
    /// The ndarray dimension of a batch (`Ix2` for a vector space).
    type Dim: Dimension;
    /// The axes in memory order.
    type Layout: Layout;
    /// The space's family ([`form::ImageForm`] for every image, whatever its sizes, layout and
    /// element type): a record that holds a source in fields of different families serves a
    /// request's leaf from the field of the leaf's family.
    type Form: 'static;
    /// The static size of each axis in memory order; `None` for the batch and time axes.
    const SHAPE: &'static [Option<usize>];
    /// The position of the batch axis in memory order.
    const BATCH_AXIS: usize;
    /// The position of the time axis in memory order, for sequence spaces.
    const TIME_AXIS: Option<usize> = None;
    /// The number of values per sample when it is static (Pylearn2's total dimension: for an
    /// index space the number of labels per sample, not the one-hot width).
    const FEATURES: Option<usize>;
    /// The largest label plus one, for index spaces.
    const MAX_LABELS: Option<usize> = None;
    /// The kind of space in words (`"image"`).
    const KIND: &'static str;

    /// Checks the space type itself: `Err` with the reason for an image whose declared total is
    /// not rows × columns × channels. Every other space is always well formed.
    fn check_space() -> Result<(), String> {
        Ok(())
    }

    /// The space in words, as printed in errors: `"image 32×32×3 bhwc u8"`.
    fn describe() -> String {
        let sizes: Vec<String> = Self::SHAPE
            .iter()
            .flatten()
            .map(|n| n.to_string())
            .collect();
        let mut s = String::from(Self::KIND);
        if let Some(m) = Self::MAX_LABELS {
            s.push_str(&format!(" of {m} labels"));
        }
        if !sizes.is_empty() {
            s.push(' ');
            s.push_str(&sizes.join("×"));
        }
        s.push(' ');
        s.push_str(<Self::Layout as Layout>::STR);
        s.push(' ');
        s.push_str(<Self::Elem as Element>::NAME);
        s
    }

    /// The shape of a batch of `batch` samples (and `time` steps for sequence spaces).
    fn shape(batch: usize, time: usize) -> Vec<usize> {
        Self::SHAPE
            .iter()
            .enumerate()
            .map(|(i, s)| match s {
                Some(n) => *n,
                None if i == Self::BATCH_AXIS => batch,
                None => time,
            })
            .collect()
    }

    /// Checks what the shape cannot: the labels of an index space are in `0..max_labels`.
    fn check_values(data: &ArrayView<'_, Self::Elem, Self::Dim>) -> Result<(), SpecError> {
        let Some(max) = Self::MAX_LABELS else {
            return Ok(());
        };
        // Fast path: a plain scan; the position is worked out only for the error.
        let bad = data
            .iter()
            .position(|v| !matches!(v.to_label(), Some(l) if l < max));
        let Some(flat) = bad else {
            return Ok(());
        };
        let (idx, v) = data
            .indexed_iter()
            .nth(flat)
            .unwrap_or_else(|| unreachable!("the position came from the same iteration"));
        Err(SpecError::Label {
            space: Self::describe(),
            position: Position(idx.into_dimension().as_array_view().to_vec()),
            value: v.to_string(),
            max_labels: max,
        })
    }
}

/// The dimension of a batch of `S` of `batch` samples and `time` steps, built without
/// allocating (for the fixed-rank dimensions of every space).
pub fn dim_of<S: Space>(batch: usize, time: usize) -> S::Dim {
    use ndarray::Dimension;
    let mut dim = S::Dim::zeros(S::SHAPE.len());
    for (i, (d, s)) in dim.slice_mut().iter_mut().zip(S::SHAPE).enumerate() {
        *d = match s {
            Some(n) => *n,
            None if i == S::BATCH_AXIS => batch,
            None => time,
        };
    }
    dim
}

/// The same space with another element type, for [`Batch::cast_lossy`](crate::types::Batch::cast_lossy).
pub trait Recast<E2: Element>: Space {
    /// `Self` with elements `E2`.
    type With: Space<Elem = E2, Dim = Self::Dim>;
}

impl<const D: usize, E: Element, E2: Element> Recast<E2> for Vector<D, E> {
    type With = Vector<D, E2>;
}
impl<
    const H: usize,
    const W: usize,
    const C: usize,
    const N: usize,
    L: ImageLayout,
    E: Element,
    E2: Element,
> Recast<E2> for Image<H, W, C, N, L, E>
{
    type With = Image<H, W, C, N, L, E2>;
}
impl<const D: usize, L: VectorSeqLayout, E: Element, E2: Element> Recast<E2>
    for VectorSeq<D, L, E>
{
    type With = VectorSeq<D, L, E2>;
}
impl<
    const D: usize,
    const H: usize,
    const W: usize,
    const C: usize,
    const N: usize,
    L: VolumeLayout,
    E: Element,
    E2: Element,
> Recast<E2> for Volume<D, H, W, C, N, L, E>
{
    type With = Volume<D, H, W, C, N, L, E2>;
}
impl<
    const D: usize,
    const H: usize,
    const W: usize,
    const C: usize,
    L: VolumeSeqLayout,
    E: Element,
    E2: Element,
> Recast<E2> for VolumeSeq<D, H, W, C, L, E>
{
    type With = VolumeSeq<D, H, W, C, L, E2>;
}
impl<const M: usize, const DIM: usize, E: Element, E2: Element> Recast<E2> for OneHot<M, DIM, E> {
    type With = OneHot<M, DIM, E2>;
}
impl<const W: usize, const C: usize, const N: usize, L: WindowLayout, E: Element, E2: Element>
    Recast<E2> for Window<W, C, N, L, E>
{
    type With = Window<W, C, N, L, E2>;
}
impl<E: Element, E2: Element> Recast<E2> for Scalar<E> {
    type With = Scalar<E2>;
}

/// A space every value of whose element type is a value of the space: every space but the label
/// spaces ([`Index`], [`Labels`], [`IndexSeq`]), whose values must stay below their number of
/// labels. [`Batch::array_mut`](crate::types::Batch::array_mut) asks for it: a label batch is written
/// through [`Batch::set_label`](crate::types::Batch::set_label) or
/// [`Batch::update`](crate::types::Batch::update), which check what they write.
#[diagnostic::on_unimplemented(
    message = "`{Self}` holds labels: its data cannot be written unchecked",
    label = "a label written here could be outside the space's labels",
    note = "write one label with `Batch::set_label`, or change many with `Batch::update`: both refuse a label that is not below the number of labels"
)]
pub trait FreeValues: Space {}

#[diagnostic::do_not_recommend]
impl<const D: usize, E: Element> FreeValues for Vector<D, E> {}
#[diagnostic::do_not_recommend]
impl<E: Element> FreeValues for Scalar<E> {}
#[diagnostic::do_not_recommend]
impl<const H: usize, const W: usize, const C: usize, const N: usize, L: ImageLayout, E: Element>
    FreeValues for Image<H, W, C, N, L, E>
{
}
#[diagnostic::do_not_recommend]
impl<
    const D: usize,
    const H: usize,
    const W: usize,
    const C: usize,
    const N: usize,
    L: VolumeLayout,
    E: Element,
> FreeValues for Volume<D, H, W, C, N, L, E>
{
}
#[diagnostic::do_not_recommend]
impl<const D: usize, const H: usize, const W: usize, const C: usize, L: VolumeSeqLayout, E: Element>
    FreeValues for VolumeSeq<D, H, W, C, L, E>
{
}
#[diagnostic::do_not_recommend]
impl<const W: usize, const C: usize, const N: usize, L: WindowLayout, E: Element> FreeValues
    for Window<W, C, N, L, E>
{
}
#[diagnostic::do_not_recommend]
impl<const D: usize, L: VectorSeqLayout, E: Element> FreeValues for VectorSeq<D, L, E> {}
#[diagnostic::do_not_recommend]
impl<const M: usize, const DIM: usize, E: Element> FreeValues for OneHot<M, DIM, E> {}
#[diagnostic::do_not_recommend]
impl<L: IndexSeqLayout, E: Element> FreeValues for Mask<L, E> {}
#[diagnostic::do_not_recommend]
impl<E: crate::types::elem::IndexElement> FreeValues for Lengths<E> {}
#[diagnostic::do_not_recommend]
impl<L: IndexSeqLayout, E: crate::types::elem::IndexElement> FreeValues for Segments<L, E> {}
#[diagnostic::do_not_recommend]
impl<L: IndexSeqLayout, E: crate::types::elem::IndexElement> FreeValues for Positions<L, E> {}
#[diagnostic::do_not_recommend]
impl<E: Element> FreeValues for Attention<E> {}
#[diagnostic::do_not_recommend]
impl<E: crate::types::elem::IndexElement> FreeValues for CuSeqlens<E> {}

/// The null space: a leaf that needs no data (Pylearn2's `NullSpace`), for example the data of an
/// L1 penalty. A field of type `Null` takes no source and no slot in the flat form of a spec.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Null;

/// `Some(n)` as a const, for the `SHAPE` tables.
pub(crate) const fn letters_shape<const R: usize>(
    letters: &[char],
    sizes: &[(char, usize)],
) -> [Option<usize>; R] {
    let mut out = [None; R];
    let mut i = 0;
    while i < R {
        let mut j = 0;
        while j < sizes.len() {
            if sizes[j].0 == letters[i] {
                out[i] = Some(sizes[j].1);
            }
            j += 1;
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod family_tests {
    use super::*;
    use crate::types::axis::{BCHW, BHWC, BT, BTF};
    use core::any::type_name;

    /// The last segment of the name of `S`'s family.
    fn family<S: Space>() -> &'static str {
        let name = type_name::<S::Form>();
        let name = name.rsplit("::").next().unwrap_or(name);
        name.strip_suffix("Form").unwrap_or(name)
    }

    #[test]
    fn the_derive_knows_every_family_by_its_name() {
        assert_eq!(form::NAMES, batchspec_facts::SPACE_FAMILIES);
    }

    #[test]
    fn each_space_is_the_family_of_its_name_whatever_its_sizes_layout_and_element() {
        let cases = [
            ("Vector", family::<Vector<3>>(), family::<Vector<7, u8>>()),
            ("Scalar", family::<Scalar>(), family::<Scalar<i64>>()),
            ("Index", family::<Index<10>>(), family::<Index<4, 2, u8>>()),
            ("Labels", family::<Labels<10>>(), family::<Labels<3, u16>>()),
            (
                "OneHot",
                family::<OneHot<10>>(),
                family::<OneHot<3, 2, u8>>(),
            ),
            (
                "Image",
                family::<Image<2, 2, 3, 12, BHWC, u8>>(),
                family::<Image<4, 1, 1, 4, BCHW, f32>>(),
            ),
            (
                "Volume",
                family::<Volume<1, 2, 2, 3, 12, BDHWC, u8>>(),
                family::<Volume<2, 1, 1, 1, 2, BCDHW>>(),
            ),
            (
                "VolumeSeq",
                family::<VolumeSeq<1, 2, 2, 3>>(),
                family::<VolumeSeq<2, 1, 1, 1>>(),
            ),
            (
                "Window",
                family::<Window<4, 2, 8>>(),
                family::<Window<2, 1, 2>>(),
            ),
            (
                "VectorSeq",
                family::<VectorSeq<3>>(),
                family::<VectorSeq<5, BTF, u8>>(),
            ),
            (
                "IndexSeq",
                family::<IndexSeq<10>>(),
                family::<IndexSeq<4, BT, u8>>(),
            ),
            ("Lengths", family::<Lengths>(), family::<Lengths<u64>>()),
            ("Mask", family::<Mask>(), family::<Mask<BT, u8>>()),
            (
                "Segments",
                family::<Segments>(),
                family::<Segments<BT, i64>>(),
            ),
            (
                "Positions",
                family::<Positions>(),
                family::<Positions<BT, i64>>(),
            ),
            (
                "Attention",
                family::<Attention>(),
                family::<Attention<u8>>(),
            ),
            (
                "CuSeqlens",
                family::<CuSeqlens>(),
                family::<CuSeqlens<i64>>(),
            ),
        ];
        let names: Vec<_> = cases.iter().map(|c| c.0).collect();
        assert_eq!(names, batchspec_facts::SPACE_FAMILIES);
        for (name, a, b) in cases {
            assert_eq!((a, b), (name, name));
        }
    }
}
