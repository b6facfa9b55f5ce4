//! Request matching: whether a record spec (what a dataset stores) can serve a request spec
//! (what a model, a cost or a monitor asks for), decided at compile time; and Pylearn2's
//! `(space, source)` pairs with their structure rules.
//!
//! Matching is by source: every leaf of the request names a source the record has, and the
//! record's space for that source formats as the requested space ([`FormatAs`]). The structure
//! of the two specs does not matter: a nested request can be served by a flat record.

use crate::format::FormatAs;
use crate::types::hlist::{HCons, HNil};
use crate::types::source::Source;
use crate::types::space::{Null, Space};
use crate::types::spec::{DataSpec, Described, Leaf, LeafList, LeavesOf, Path};
use core::marker::PhantomData;

/// Index of a lookup: the leaf is the head of the list.
pub struct Here;
/// Index of a lookup: the leaf is in the tail of the list, at `I`.
pub struct There<I>(PhantomData<fn() -> I>);

/// The record's leaves have the source `Src`; [`HasSource::Space`] is its space. The index `I`
/// is inferred (it is where the source sits).
#[diagnostic::on_unimplemented(
    message = "the record has no source `{Src}`",
    label = "this request reads a source the record does not have",
    note = "a request is served by source name: check the spelling in `#[spec(source = \"...\")]` on both structs"
)]
pub trait HasSource<Src, I> {
    /// The record's space for `Src`.
    type Space: Space;
}

impl<Src, S: Space, T> HasSource<Src, Here> for HCons<Leaf<Src, S>, T> {
    type Space = S;
}

impl<Src, H, T, I> HasSource<Src, There<I>> for HCons<H, T>
where
    T: HasSource<Src, I>,
{
    type Space = T::Space;
}

/// The source `Self` holds `From` in the record, and `To` is requested.
#[diagnostic::on_unimplemented(
    message = "source `{Self}` holds `{From}`, which cannot be formatted as the requested `{To}`",
    label = "the record's space for this source does not convert to the requested one",
    note = "see `batchspec::format` for the conversions that exist"
)]
pub trait SourceFormats<From, To> {}

#[diagnostic::do_not_recommend]
impl<Src: Source, From: FormatAs<To>, To: Space> SourceFormats<From, To> for Src {}

/// The record leaves `Self` serve the request leaves `Q`, at the inferred indices `I`.
pub trait ServeLeaves<Q, I> {}

impl<RL> ServeLeaves<HNil, HNil> for RL {}

impl<RL, Src, S, QT, I, IT> ServeLeaves<HCons<Leaf<Src, S>, QT>, HCons<I, IT>> for RL
where
    RL: HasSource<Src, I> + ServeLeaves<QT, IT>,
    Src: SourceFormats<<RL as HasSource<Src, I>>::Space, S>,
    S: Space,
{
}

/// The record spec `Self` can serve the request spec `Q`: every leaf of `Q` names a source of
/// `Self` whose space formats as the leaf's space. `I` is inferred; write bounds as
/// `R: Serves<Q, I>` with `I` a generic parameter.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::Serves;
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "features")]
///     image: Batch<image![32, 32, 3; BHWC, u8]>,
///     #[spec(source = "targets")]
///     label: Batch<Index<10>>,
/// }
///
/// #[derive(DataSpec)]
/// struct ModelInput {
///     #[spec(source = "features")]
///     x: Batch<Vector<3072>>,
/// }
///
/// fn check<R: Serves<Q, I>, Q: DataSpec, I>() {}
/// check::<Record, ModelInput, _>();
/// ```
#[diagnostic::on_unimplemented(
    message = "the record `{Self}` cannot serve the request `{Q}`",
    label = "every source of the request must be in the record, in a space that formats as the requested one"
)]
pub trait Serves<Q: DataSpec, I>: DataSpec {}

impl<R: DataSpec, Q: DataSpec, I> Serves<Q, I> for R where LeavesOf<R>: ServeLeaves<LeavesOf<Q>, I> {}

/// A Pylearn2 data specification: a tree of spaces `Sp` paired with a tree of sources `So` of
/// the same structure.
///
/// An elementary space pairs with one source; a tuple of spaces with a tuple of as many sources,
/// each pair again of the same structure; [`Null`] with `()`. Any other pairing does not compile.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::Specs;
///
/// type Vec3072 = Vector<3072>;
/// type Conv = image![32, 32, 3; BCHW];
/// type Spec = Specs<((Vec3072, Vec3072, Vec3072), Vector<10>), ((Features, Features, Features), Targets)>;
/// assert_eq!(Spec::LEAVES, 4);
/// let _ = (Conv::describe(), Spec::describe(8));
/// ```
pub struct Specs<Sp: Structure<So>, So>(PhantomData<fn() -> (Sp, So)>);

/// The space tree `Self` and the source tree `So` have the same structure.
#[diagnostic::on_unimplemented(
    message = "the space tree `{Self}` and the source tree `{So}` have different structures",
    label = "a single space pairs with a single source, a tuple of spaces with a tuple of as many sources",
    note = "in Pylearn2's words: `(CompositeSpace((a, b)), \"features\")` must be written `(CompositeSpace((a, b)), (\"features\", \"features\"))`"
)]
pub trait Structure<So> {
    /// The leaves in order.
    type Leaves: LeafList;
    /// The number of leaves.
    const LEAVES: usize;
    /// Appends the description of each leaf.
    fn describe_into(batch: usize, path: &Path<'_>, out: &mut Vec<Described>);
}

#[diagnostic::do_not_recommend]
impl<S: Space, Src: Source> Structure<Src> for S {
    type Leaves = HCons<Leaf<Src, S>, HNil>;
    const LEAVES: usize = 1;
    fn describe_into(batch: usize, path: &Path<'_>, out: &mut Vec<Described>) {
        <crate::types::batch::Batch<S> as crate::types::spec::Node<Src>>::describe_node(
            batch, path, out,
        );
    }
}

impl Structure<()> for Null {
    type Leaves = HNil;
    const LEAVES: usize = 0;
    fn describe_into(_: usize, _: &Path<'_>, _: &mut Vec<Described>) {}
}

macro_rules! structure_tuples {
    ($($a:ident $s:ident $i:tt),+) => {
        impl<$($a: Structure<$s>, $s),+> Structure<($($s,)+)> for ($($a,)+) {
            type Leaves = structure_tuples!(@concat $($a $s),+);
            const LEAVES: usize = 0 $(+ $a::LEAVES)+;
            fn describe_into(batch: usize, path: &Path<'_>, out: &mut Vec<Described>) {
                $( $a::describe_into(batch, &Path::Elem(path, $i), out); )+
            }
        }
    };
    (@concat $a:ident $s:ident) => { <$a as Structure<$s>>::Leaves };
    (@concat $a:ident $s:ident, $($rest:ident $rs:ident),+) => {
        <<$a as Structure<$s>>::Leaves as LeafList>::Join<structure_tuples!(@concat $($rest $rs),+)>
    };
}
structure_tuples!(A0 S0 0);
structure_tuples!(A0 S0 0, A1 S1 1);
structure_tuples!(A0 S0 0, A1 S1 1, A2 S2 2);
structure_tuples!(A0 S0 0, A1 S1 1, A2 S2 2, A3 S3 3);
structure_tuples!(A0 S0 0, A1 S1 1, A2 S2 2, A3 S3 3, A4 S4 4);
structure_tuples!(A0 S0 0, A1 S1 1, A2 S2 2, A3 S3 3, A4 S4 4, A5 S5 5);
structure_tuples!(A0 S0 0, A1 S1 1, A2 S2 2, A3 S3 3, A4 S4 4, A5 S5 5, A6 S6 6);
structure_tuples!(A0 S0 0, A1 S1 1, A2 S2 2, A3 S3 3, A4 S4 4, A5 S5 5, A6 S6 6, A7 S7 7);

impl<Sp: Structure<So>, So> Specs<Sp, So> {
    /// The number of leaves.
    pub const LEAVES: usize = Sp::LEAVES;

    /// Every leaf with its source and shape for `batch` samples.
    pub fn describe(batch: usize) -> Vec<Described> {
        let mut out = Vec::new();
        Sp::describe_into(batch, &Path::Root, &mut out);
        out
    }
}

/// `DataSpec` as a pair: a derived struct is the pair of its space tree and source tree.
impl<Sp: Structure<So>, So> Specs<Sp, So> {
    /// `true` when the derived spec `D` has exactly this space tree and source tree.
    pub fn is<D: DataSpec + 'static>() -> bool
    where
        Sp: 'static,
        So: 'static,
    {
        use core::any::TypeId;
        TypeId::of::<D::Spaces>() == TypeId::of::<Sp>()
            && TypeId::of::<D::Sources>() == TypeId::of::<So>()
    }
}

/// A compile-time check that the record `R` can serve the request `Q`:
/// `const _: () = batchspec::assert_serves::<Record, Request, _>();` fails `cargo check` with
/// the missing source or the conversion that does not exist.
pub const fn assert_serves<R: Serves<Q, I>, Q: DataSpec, I>() {}
