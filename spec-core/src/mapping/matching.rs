//! Request matching: whether a record spec (what a dataset stores) can serve a request spec
//! (what a model, a cost or a monitor asks for), decided at compile time; and Pylearn2's
//! `(space, source)` pairs with their structure rules.
//!
//! Matching is by source: every leaf of the request names a source the record has, and the
//! record's space for that source formats as the requested space ([`FormatAs`]). The request's
//! structure does not matter (a nested request is served by a flat record); the record serves the
//! sources of its own batch fields, each found with one lookup ([`HasSource`], implemented by the
//! derive per source), so matching costs the same for any number of leaves. The derive writes the
//! request's side ([`Reads`]) with a check per batch field whose compile error names the field
//! and its source in words.

use crate::format::FormatAs;
use crate::types::batch::Batch;
use crate::types::for_tuples;
use crate::types::hlist::HNil;
use crate::types::ragged::{Ragged, SourceView};
use crate::types::source::Source;
use crate::types::space::{Null, Space};
use crate::types::spec::{DataSpec, Described, Leaf, LeafList, Path};
use ndarray::Data;

/// The record `Self` holds the source `K` in one of its own batch fields.
///
/// The derive implements it once per source of a struct's batch fields. A source held by two
/// fields of one struct gets no impl: such a struct serves that source to a request's leaf of
/// the family of one of the fields, from that field ([`HasSourceAs`]), when the fields are of
/// different families, and to no request otherwise (the request's error says so in its note).
/// The leaves of a nested struct are its own: a record serves the sources of its own fields.
#[diagnostic::on_unimplemented(
    message = "the record `{Self}` does not hold a source that the request reads",
    label = "a source of the request is not a batch field of this record",
    note = "a record serves the sources of its own batch fields, by the name in `#[spec(source = \"...\")]` (or the field name)"
)]
pub trait HasSource<K: Source> {
    /// The record's space for `K`.
    type Space: Space;
    /// The record's field of `K`, as declared (a batch of some storage, or a ragged leaf).
    type Field;
    /// The record's leaf of `K`, borrowed.
    fn source_view(&self) -> SourceView<'_, Self::Space>;
    /// The record's field of `K`.
    fn source_field(&self) -> &Self::Field;
}

/// The record `Self` holds the source `K` in a field that serves a request's leaf of the family
/// `F` ([`Space::Form`]).
///
/// Every record that holds `K` in one field ([`HasSource`]) serves it to a leaf of any family (the
/// derive writes that impl too).
/// A record that holds `K` in two or more fields of different families (an image and a vector,
/// say), each a space of the core written by its name, has one impl per field, written by the
/// derive: a leaf is served from the field of its family (a `Vector<3072>` from the vector, an
/// image in any layout from the image). A leaf of another family, or a field computed from the
/// source (`lengths_of`, `mask_of`), finds none.
#[diagnostic::on_unimplemented(
    message = "the record `{Self}` does not hold a source that the request reads, in one field or in the requested form",
    label = "a source of the request is not a batch field of this record",
    note = "a record serves the sources of its own batch fields, by the name in `#[spec(source = \"...\")]` (or the field name); a source held in fields of different kinds is served to each kind from its field"
)]
pub trait HasSourceAs<K: Source, F> {
    /// The record's space for `K`, read as `F`.
    type Space: Space;
    /// The record's field of `K` read as `F`, as declared.
    type Field;
    /// The record's leaf of `K` read as `F`, borrowed.
    fn source_view_as(&self) -> SourceView<'_, Self::Space>;
    /// The record's field of `K` read as `F`.
    fn source_field_as(&self) -> &Self::Field;
}

/// The family of the space of a leaf field `T` (a batch or a ragged leaf).
#[doc(hidden)]
pub type FamilyOf<T> = <<T as LeafField>::Space as Space>::Form;

/// The record's space `Self` of a source lent to a request's field of the space `To`, without
/// a copy: only the same space ([`ProjectFrom`]).
#[diagnostic::on_unimplemented(
    message = "a projection lends the record's leaves as they are stored: the record holds a source as `{Self}`, the request asks for it as `{To}`",
    label = "a projection copies and converts nothing",
    note = "ask for the record's own space, or get converted copies from `Projection::get`, `select` or a `Provider`"
)]
pub trait LendsAs<To> {}

impl<S: Space> LendsAs<S> for S {}

/// A request's field that a zero-copy projection ([`ProjectFrom`]) lends from the record `R`.
/// The derive writes it as a bound for each field with nothing of the record's to lend (a
/// tuple, a computed, augmented or mixed field), naming the field by its type beside the struct
/// (`Request·lengths`); nothing implements it for those, so the bound is the refusal.
#[diagnostic::on_unimplemented(
    message = "a projection has nothing of the record's to lend for field `{Self}`",
    label = "nothing to lend for this field",
    note = "a projection lends the record's batch fields as they are stored; a tuple field, a computed one (`lengths_of`, `mask_of`), an augmented or a mixed one is built: `Projection::get` and `select` build every field, as a provider does"
)]
pub trait LentByProjection<R> {
    /// Never built: the view of the refused field.
    #[doc(hidden)]
    type View;
    /// Never called.
    #[doc(hidden)]
    fn lend() -> Self::View;
}

// Never used: it only keeps rustc from calling the trait one without implementations.
#[diagnostic::do_not_recommend]
impl<R> LentByProjection<R> for Null {
    type View = Null;
    fn lend() -> Null {
        Null
    }
}

/// The record's field `Self` lent, as it is stored, for a request's field of type `T`: a batch
/// for a batch (whatever either's storage), a ragged leaf for a ragged leaf; the spaces are
/// checked by [`LendsAs`]. What a zero-copy projection ([`ProjectFrom`]) takes from each leaf.
#[diagnostic::on_unimplemented(
    message = "a projection lends a batch field as a batch and a ragged field as a `Ragged`: the record's field is `{Self}`, the request's is `{T}`",
    label = "a projection copies and pads nothing",
    note = "declare the request's field as the record's is (`Batch<..>` or `Ragged<..>`), or get padded copies from `Projection::get`, `select` or a `Provider`"
)]
pub trait ProjectAs<'a, T> {
    /// The view of the record's rows.
    type View;
    /// The rows `rows` (within the leaf: the callers check), borrowed.
    fn project(&'a self, rows: core::ops::Range<usize>) -> Self::View;
}

impl<'a, S: Space, D: Data<Elem = S::Elem>, S2: Space, D2: ndarray::RawData<Elem = S2::Elem>>
    ProjectAs<'a, Batch<S2, D2>> for Batch<S, D>
{
    type View = crate::types::batch::BatchView<'a, S>;
    fn project(&'a self, rows: core::ops::Range<usize>) -> Self::View {
        crate::types::batch::BatchView::<S>::from_checked(
            self.array()
                .slice_axis(ndarray::Axis(S::BATCH_AXIS), rows.into()),
        )
    }
}

impl<'a, S: Space, S2: Space> ProjectAs<'a, Ragged<S2>> for Ragged<S> {
    type View = crate::types::ragged::RaggedView<'a, S>;
    fn project(&'a self, rows: core::ops::Range<usize>) -> Self::View {
        self.view_rows(rows)
    }
}

/// The request `Self` lent from the record `R` without a copy (the Pylearn dataset proposal's
/// `d[:, something]`, from [`Projection::view`](crate::data::Projection::view)): each batch
/// field of `Self` is a view of the record's leaf of its source, which must hold it in the same
/// space. The derive implements it for every struct of batch fields, ragged fields, nested
/// specs and `Null`s, as the struct's generated `<Name>Mapped` struct of views; a field that is
/// computed (`lengths_of`, `mask_of`), augmented or mixed, or a tuple field, has nothing to lend.
#[diagnostic::on_unimplemented(
    message = "the request `{Self}` cannot be lent from the record `{R}` without a copy",
    label = "not a `#[derive(DataSpec)]` request",
    note = "a projection lends the record's leaves as they are stored; `Projection::get` and `select` serve any request the record can serve, converted"
)]
pub trait ProjectFrom<R> {
    /// The request's structure with a view at each leaf.
    type Views<'a>
    where
        R: 'a;
    /// Views of the rows `rows` of the record's leaves (within the record: the callers check).
    fn project_rows(record: &R, rows: core::ops::Range<usize>) -> Self::Views<'_>;
}

#[diagnostic::do_not_recommend]
impl<R> ProjectFrom<R> for Null {
    type Views<'a>
        = Null
    where
        R: 'a;
    fn project_rows(_: &R, _: core::ops::Range<usize>) -> Null {
        Null
    }
}

/// A field type that is one leaf: a batch of a space whatever its storage, or a ragged leaf.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a batch",
    label = "a record's source is held by a batch field"
)]
pub trait LeafField {
    /// The space of the batch.
    type Space: Space;
    /// The leaf, borrowed.
    fn leaf_field_view(&self) -> SourceView<'_, Self::Space>;
}

impl<S: Space, D: Data<Elem = S::Elem>> LeafField for Batch<S, D> {
    type Space = S;
    #[inline]
    fn leaf_field_view(&self) -> SourceView<'_, S> {
        SourceView::Dense(self.view())
    }
}

impl<S: Space> LeafField for Ragged<S> {
    type Space = S;
    #[inline]
    fn leaf_field_view(&self) -> SourceView<'_, S> {
        SourceView::Ragged(self.view())
    }
}

/// The request `Self` can be served from the record `R`: every leaf of `Self` names a source of
/// `R` whose space formats as the leaf's. The derive implements it for every struct (with one
/// bound per field, so that a mismatch is reported in the words of the field: its name, its
/// source, both spaces); tuples of requests are requests.
#[diagnostic::on_unimplemented(
    message = "the record `{R}` cannot serve the request `{Self}`",
    label = "every source of the request must be a field of the record, in a space that formats as the requested one"
)]
pub trait Reads<R>: DataSpec {}

/// A field of a request read from the source `K` of the record `R`: a batch, a tuple of
/// batches, [`Null`], or a nested request (which ignores `K`).
#[diagnostic::on_unimplemented(
    message = "the record `{R}` cannot fill a field of type `{Self}`",
    label = "the record has no such source, or holds it in a space that does not format as this one"
)]
pub trait ReadField<R, K> {}

impl<R: HasSource<K>, K: Source, S: Space, D: Data<Elem = S::Elem>> ReadField<R, K> for Batch<S, D> where
    R::Space: FormatAs<S>
{
}

impl<R: HasSource<K>, K: Source, S: Space> ReadField<R, K> for Ragged<S> where R::Space: FormatAs<S> {}

impl<R, K> ReadField<R, K> for Null {}

/// The record spec `Self` can serve the request spec `Q`: every leaf of `Q` names a source of
/// `Self` whose space formats as the leaf's space.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::mapping::Serves;
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
/// fn check<R: Serves<Q>, Q: DataSpec>() {}
/// check::<Record, ModelInput>();
/// ```
pub trait Serves<Q: DataSpec>: DataSpec {}

impl<R: DataSpec, Q: Reads<R>> Serves<Q> for R {}

/// [`Null`] reads nothing, from any record.
impl<R> Reads<R> for Null {}

macro_rules! read_tuples {
    ($($t:ident $i:tt),+) => {
        impl<R, $($t: Reads<R>),+> Reads<R> for ($($t,)+) {}
        impl<R, K, $($t: ReadField<R, K>),+> ReadField<R, K> for ($($t,)+) {}
    };
}
for_tuples!(read_tuples);

/// The number of leaves of a Pylearn2 data specification: the space tree `Sp` paired with the
/// source tree `So`, which must have the same structure.
///
/// An elementary space pairs with one source; a tuple of spaces with a tuple of as many sources,
/// each pair again of the same structure; [`Null`] with `()`. Any other pairing does not compile,
/// with one error in Pylearn2's words ([`Structure`]). A `const` evaluates it, so a pairing can be
/// checked where it is written, as [`assert_serves`] checks a request:
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::mapping;
///
/// type Vec3072 = Vector<3072>;
/// type Conv = image![32, 32, 3; BCHW];
/// const N: usize = mapping::leaves::<
///     ((Vec3072, Vec3072, Vec3072), Vector<10>),
///     ((Features, Features, Features), Targets),
/// >();
/// assert_eq!(N, 4);
/// assert_eq!(mapping::leaves::<(Conv, Null), (Features, ())>(), 1);
/// ```
///
/// (These are functions, not items of a pair type: an item of a type whose parameters do not
/// pair would be a second error, rustc's "its trait bounds were not satisfied", under the first.)
pub const fn leaves<Sp: Structure<So>, So>() -> usize {
    Sp::LEAVES
}

/// Every leaf of the data specification `(Sp, So)` with its source and shape for `batch`
/// samples, in order.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::mapping;
///
/// let d = mapping::describe::<(Vector<3>, Index<4>), (Features, Targets)>(8);
/// let shapes: Vec<_> = d.iter().map(|d| (d.source, d.dims().unwrap())).collect();
/// assert_eq!(shapes, [("features", vec![8, 3]), ("targets", vec![8, 1])]);
/// ```
pub fn describe<Sp: Structure<So>, So>(batch: usize) -> Vec<Described> {
    let mut out = Vec::new();
    Sp::describe_into(batch, &Path::Root, &mut out);
    out
}

/// `true` when the derived spec `D` is exactly the data specification `(Sp, So)`: its space
/// tree is `Sp` and its source tree `So` (a derived struct is such a pair, one tuple element per
/// field).
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::mapping;
///
/// #[derive(DataSpec)]
/// struct Example {
///     #[spec(source = "features")]
///     x: Batch<Vector<3>>,
///     #[spec(source = "targets")]
///     y: Batch<Index<4>>,
/// }
/// assert!(mapping::is_pair_of::<Example, (Vector<3>, Index<4>), (Features, Targets)>());
/// assert!(!mapping::is_pair_of::<Example, (Vector<3>, Index<4>), (Targets, Features)>());
/// ```
pub fn is_pair_of<D: DataSpec + 'static, Sp: Structure<So> + 'static, So: 'static>() -> bool {
    use core::any::TypeId;
    TypeId::of::<D::Spaces>() == TypeId::of::<Sp>()
        && TypeId::of::<D::Sources>() == TypeId::of::<So>()
}

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
    type Leaves = Leaf<Src, S>;
    const LEAVES: usize = 1;
    fn describe_into(batch: usize, path: &Path<'_>, out: &mut Vec<Described>) {
        <crate::types::batch::Batch<S> as crate::types::spec::Node<Src>>::describe_node(
            batch, path, out,
        );
    }
}

#[diagnostic::do_not_recommend]
impl Structure<()> for Null {
    type Leaves = HNil;
    const LEAVES: usize = 0;
    fn describe_into(_: usize, _: &Path<'_>, _: &mut Vec<Described>) {}
}

macro_rules! structure_tuples {
    ($($a:ident $s:ident $i:tt),+) => {
        #[diagnostic::do_not_recommend]
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

/// A compile-time check that the record `R` can serve the request `Q`:
/// `const _: () = batchspec::mapping::assert_serves::<Record, Request>();` fails `cargo check` naming
/// the request's field, its source and, for a conversion that does not exist, both spaces.
pub const fn assert_serves<R: DataSpec, Q: Reads<R>>() {}
