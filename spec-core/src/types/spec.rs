//! Specs: trees of (space, source) leaves, the [`DataSpec`] trait the derive implements, and the
//! run-time description (`describe`) and validation (`validate`) of a spec.
//!
//! A spec is a struct with `#[derive(DataSpec)]` whose fields are batches ([`Batch<S>`]), nested
//! specs, tuples of those, or [`Null`]. Its structure is known to the compiler three ways: the
//! tree of spaces ([`SpacesOf`]), the tree of sources ([`SourcesOf`]) and its leaves in order
//! ([`LeavesOf`]), which de-duplication compares.

use crate::types::batch::Batch;
use crate::types::error::SpecError;
use crate::types::source::Source;
use crate::types::space::{Null, Space};
use core::fmt;
use core::marker::PhantomData;
use ndarray::Data;

pub use crate::types::hlist::{HNil, Pair};

/// One leaf of a spec at the type level: the space `S` read from the source `Src`.
pub struct Leaf<Src, S>(PhantomData<fn() -> (Src, S)>);

/// The leaf types of a spec ([`Leaf`]`<Src, S>`) in order, with their identities at run time.
///
/// The leaves are kept as a balanced tree ([`HNil`], a [`Leaf`], or [`LeafPair`] of two
/// lists), not as a linear list: proving that a 256-leaf record's leaves form a list then takes
/// about 8 nested steps, not 256 (the compiler gives up at 128 by default).
pub trait LeafList {
    /// The number of leaves.
    const LEN: usize;
    /// `Self` followed by the leaves `R`.
    type Join<R: LeafList>: LeafList;
    /// Appends the identity of each leaf in order: its source name, its space in words and the
    /// type id of the (source, space) pair, which is what de-duplication compares.
    fn leaf_ids(out: &mut Vec<LeafId>);
}
impl LeafList for HNil {
    const LEN: usize = 0;
    type Join<R: LeafList> = R;
    fn leaf_ids(_: &mut Vec<LeafId>) {}
}
impl<Src: Source, S: Space> LeafList for Leaf<Src, S> {
    const LEN: usize = 1;
    type Join<R: LeafList> = LeafPair<Self, R>;
    fn leaf_ids(out: &mut Vec<LeafId>) {
        out.push(LeafId {
            id: core::any::TypeId::of::<(Src, S)>(),
            source: Src::NAME,
            space: S::describe(),
        });
    }
}

/// The leaves `A` followed by the leaves `B`: a node of the tree of a [`LeafList`].
pub struct LeafPair<A, B>(PhantomData<fn() -> (A, B)>);

impl<A: LeafList, B: LeafList> LeafList for LeafPair<A, B> {
    const LEN: usize = A::LEN + B::LEN;
    type Join<R: LeafList> = LeafPair<Self, R>;
    fn leaf_ids(out: &mut Vec<LeafId>) {
        A::leaf_ids(out);
        B::leaf_ids(out);
    }
}

/// The identity of a leaf: two leaves are the same when their source and space are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeafId {
    /// The type id of `(Src, S)`.
    pub id: core::any::TypeId,
    /// The source name.
    pub source: &'static str,
    /// The space in words.
    pub space: String,
}

/// The path of a field inside a spec (`inner.image`, `views.0`), built without allocating.
#[derive(Clone, Copy)]
pub enum Path<'a> {
    /// The spec itself.
    Root,
    /// A named field of the spec at `.0`.
    Field(&'a Path<'a>, &'static str),
    /// An element of a tuple at `.0`.
    Elem(&'a Path<'a>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Field(Path::Root, name) => f.write_str(name),
            Path::Elem(Path::Root, i) => write!(f, "{i}"),
            Path::Field(p, name) => write!(f, "{p}.{name}"),
            Path::Elem(p, i) => write!(f, "{p}.{i}"),
        }
    }
}

impl fmt::Debug for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{self}`")
    }
}

/// One leaf of a spec as `describe` lists it: MXNet's `(name, shape)` pair, with the field and
/// the space in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Described {
    /// The field path (`"inner.image"`).
    pub field: String,
    /// The source (`"features"`).
    pub source: &'static str,
    /// The space in words (`"image 32×32×3 bhwc u8"`).
    pub space: String,
    /// The shape in memory order; `None` for a time axis, whose size is dynamic.
    pub shape: Vec<Option<usize>>,
}

impl Described {
    /// The shape, if no axis is dynamic.
    pub fn dims(&self) -> Option<Vec<usize>> {
        self.shape.iter().copied().collect()
    }
}

impl fmt::Display for Described {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} <- {}: (", self.field, self.source)?;
        for (i, s) in self.shape.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            match s {
                Some(n) => write!(f, "{n}")?,
                None => f.write_str("T")?,
            }
        }
        write!(f, ") {}", self.space)
    }
}

/// Collects the batch sizes of the leaves of a spec and reports the first that differs.
pub struct SizeCheck {
    // The first size seen, and the path of its leaf when paths are kept.
    first: Option<(usize, Option<String>)>,
    paths: bool,
}

impl Default for SizeCheck {
    fn default() -> Self {
        SizeCheck {
            first: None,
            paths: true,
        }
    }
}

impl SizeCheck {
    /// A check that keeps no path: it allocates nothing, and its error names no field (run
    /// a [`SizeCheck::default`] again for the message).
    pub fn quiet() -> Self {
        SizeCheck {
            first: None,
            paths: false,
        }
    }

    /// Records that the leaf at `path` holds `n` samples.
    ///
    /// # Errors
    /// [`SpecError::BatchSize`] when an earlier leaf holds another number.
    pub fn see(&mut self, path: &Path<'_>, n: usize) -> Result<(), SpecError> {
        match &self.first {
            None => {
                self.first = Some((n, self.paths.then(|| path.to_string())));
                Ok(())
            }
            Some((m, _)) if *m == n => Ok(()),
            Some((m, field)) => Err(SpecError::BatchSize {
                first_field: field.clone().unwrap_or_default(),
                first: *m,
                field: if self.paths {
                    path.to_string()
                } else {
                    String::new()
                },
                actual: n,
            }),
        }
    }

    /// The common batch size, or `None` if no leaf was seen.
    pub fn size(&self) -> Option<usize> {
        self.first.as_ref().map(|(n, _)| *n)
    }
}

const fn add_features(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a + b),
        _ => None,
    }
}

/// A node of a spec tree, as a field of a struct whose source is `Src`.
///
/// Implemented by batches (a leaf read from `Src`), by [`Null`] (no leaf), by tuples of nodes,
/// and by every derived spec (which ignores `Src`: its fields name their own sources). A spec
/// ([`DataSpec`]) is a node that needs no source from outside: `Node<()>`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of a spec",
    label = "not a batch, a spec or a tuple of them",
    note = "a field of a `#[derive(DataSpec)]` struct is a `Batch<S>` of a space `S`, another `#[derive(DataSpec)]` struct, a tuple of those, or `Null`"
)]
pub trait Node<Src> {
    /// The tree of spaces.
    type Spaces;
    /// The tree of sources.
    type Sources;
    /// The leaves, in order, as a type-level list of [`Leaf`].
    type Leaves: LeafList;
    /// The leaf values in order (the flat form, [`FlatOf`]): a leaf's value itself, [`HNil`] for
    /// a node without leaves, and for a struct or tuple a balanced tree of [`Pair`]s over its
    /// fields' flat forms.
    type Flat;
    /// References to the leaf values in order, in the same tree.
    type FlatRef<'a>
    where
        Self: 'a;
    /// Mutable references to the leaf values in order, in the same tree.
    type FlatMut<'a>
    where
        Self: 'a;
    /// The structure of the node with a `T` at each leaf (and `()` at each null leaf): what
    /// [`Mapping::nest`](crate::mapping::dedup::Mapping::nest) builds.
    type Mapped<T>;
    /// The structure of the node with a borrowed [`BatchView`](crate::types::BatchView) of some of its
    /// samples at each leaf (and [`Null`] at each null leaf): for a derived struct, its generated
    /// `<Name>Mapped` struct, by the struct's field names; for a tuple, a tuple.
    type Views<'a>
    where
        Self: 'a;
    /// The number of leaves.
    const LEAVES: usize;
    /// The sum of the features of the leaves (Pylearn2's total dimension); `None` if a leaf is a
    /// sequence.
    const TOTAL: Option<usize>;
    /// Appends the description of the leaves.
    fn describe_node(batch: usize, path: &Path<'_>, out: &mut Vec<Described>);
    /// Records the batch size of every leaf.
    fn check_node(&self, path: &Path<'_>, sizes: &mut SizeCheck) -> Result<(), SpecError>;
    /// The leaf values in order, by moves.
    fn node_flatten(self) -> Self::Flat;
    /// The node from its leaf values, by moves.
    fn node_nest(flat: Self::Flat) -> Self;
    /// References to the leaf values in order.
    fn node_flatten_ref(&self) -> Self::FlatRef<'_>;
    /// Mutable references to the leaf values in order.
    fn node_flatten_mut(&mut self) -> Self::FlatMut<'_>;
    /// Views of the samples `rows` of every leaf, without copying (`rows` is within the batch:
    /// the callers check it).
    fn node_views(&self, rows: core::ops::Range<usize>) -> Self::Views<'_>;
    /// Builds the structure, taking each leaf's value from `next` in order.
    fn node_nest_mapped<T, N: FnMut() -> T>(next: &mut N) -> Self::Mapped<T>;
    /// Visits the leaf values of `mapped` in order.
    fn node_flatten_mapped<T, V: FnMut(T)>(mapped: Self::Mapped<T>, visit: &mut V);
}

/// A type that can be a field of a `#[derive(DataSpec)]` struct: every [`Node`] (a batch, a
/// ragged leaf, a derived struct, a tuple of those, [`Null`]), whatever its source.
///
/// The derive asks it of each field whose type names no parameter of the struct, so that a field
/// that is not one is reported once, at the field, in words (`Node` itself carries the field's
/// source, which rustc's help line would print as a list of chars).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of a spec",
    label = "not a batch, a spec or a tuple of them",
    note = "a field of a `#[derive(DataSpec)]` struct is a `Batch<S>` of a space `S`, another `#[derive(DataSpec)]` struct, a tuple of those, or `Null`"
)]
pub trait SpecField {}

#[diagnostic::do_not_recommend]
impl<T: Node<crate::types::source::Features>> SpecField for T {}

#[diagnostic::do_not_recommend]
impl<Src: Source, S: Space, R: Data<Elem = S::Elem>> Node<Src> for Batch<S, R> {
    type Spaces = S;
    type Sources = Src;
    type Leaves = Leaf<Src, S>;
    type Flat = Self;
    type FlatRef<'a>
        = &'a Self
    where
        Self: 'a;
    type FlatMut<'a>
        = &'a mut Self
    where
        Self: 'a;
    type Mapped<T> = T;
    type Views<'a>
        = crate::types::batch::BatchView<'a, S>
    where
        Self: 'a;
    const LEAVES: usize = 1;
    const TOTAL: Option<usize> = S::FEATURES;
    fn describe_node(batch: usize, path: &Path<'_>, out: &mut Vec<Described>) {
        out.push(Described {
            field: path.to_string(),
            source: Src::NAME,
            space: S::describe(),
            shape: S::SHAPE
                .iter()
                .enumerate()
                .map(|(i, s)| if i == S::BATCH_AXIS { Some(batch) } else { *s })
                .collect(),
        });
    }
    fn check_node(&self, path: &Path<'_>, sizes: &mut SizeCheck) -> Result<(), SpecError> {
        sizes.see(path, self.len())
    }
    #[inline(always)]
    fn node_flatten(self) -> Self {
        self
    }
    #[inline(always)]
    fn node_nest(flat: Self) -> Self {
        flat
    }
    #[inline(always)]
    fn node_flatten_ref(&self) -> &Self {
        self
    }
    #[inline(always)]
    fn node_flatten_mut(&mut self) -> &mut Self {
        self
    }
    fn node_views(&self, rows: core::ops::Range<usize>) -> Self::Views<'_> {
        crate::types::batch::BatchView::<S>::from_checked(
            self.array()
                .slice_axis(ndarray::Axis(S::BATCH_AXIS), rows.into()),
        )
    }
    fn node_nest_mapped<T, N: FnMut() -> T>(next: &mut N) -> T {
        next()
    }
    fn node_flatten_mapped<T, V: FnMut(T)>(mapped: T, visit: &mut V) {
        visit(mapped)
    }
}

#[diagnostic::do_not_recommend]
impl<Src> Node<Src> for Null {
    type Spaces = Null;
    type Sources = ();
    type Leaves = HNil;
    type Flat = HNil;
    type FlatRef<'a> = HNil;
    type FlatMut<'a> = HNil;
    type Mapped<T> = ();
    type Views<'a> = Null;
    const LEAVES: usize = 0;
    const TOTAL: Option<usize> = Some(0);
    fn describe_node(_: usize, _: &Path<'_>, _: &mut Vec<Described>) {}
    fn check_node(&self, _: &Path<'_>, _: &mut SizeCheck) -> Result<(), SpecError> {
        Ok(())
    }
    #[inline(always)]
    fn node_flatten(self) -> HNil {
        HNil
    }
    #[inline(always)]
    fn node_nest(_: HNil) -> Self {
        Null
    }
    fn node_flatten_ref(&self) -> HNil {
        HNil
    }
    fn node_flatten_mut(&mut self) -> HNil {
        HNil
    }
    fn node_views(&self, _: core::ops::Range<usize>) -> Null {
        Null
    }
    fn node_nest_mapped<T, N: FnMut() -> T>(_: &mut N) {}
    fn node_flatten_mapped<T, V: FnMut(T)>(_: (), _: &mut V) {}
}

/// A node whose leaves lend some of their samples mutably, in place: the structure of the node
/// with a [`BatchViewMut`](crate::types::BatchViewMut) (or a [`RaggedViewMut`](crate::types::RaggedViewMut))
/// at each leaf. What [`Dataset::rows_mut`](crate::data::Dataset::rows_mut) and
/// [`Dataset::sample_mut`](crate::data::Dataset::sample_mut) give.
///
/// The derive implements it for every struct whose fields all lend mutably (owned batches,
/// ragged leaves, nested specs, tuples of them): the views come as the struct's generated
/// `<Name>Mapped` struct, field by field, so that a view's fields have the record's names.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot lend its samples to be written in place",
    label = "it does not own its data, or has a field that does not",
    note = "a record lends rows in place when its fields are owned batches (`Batch<S>`, `ArcBatch<S>`), `Ragged<S>` leaves, or specs and tuples of them"
)]
pub trait NodeMut {
    /// The structure of the node with a mutable view of some samples at each leaf.
    type ViewsMut<'a>
    where
        Self: 'a;
    /// Mutable views of the samples `rows` of every leaf, without copying (`rows` is within the
    /// batch: the callers check it).
    fn node_views_mut(&mut self, rows: core::ops::Range<usize>) -> Self::ViewsMut<'_>;
}

/// The structure of a spec with a mutable view at each leaf.
pub type ViewsMutOf<'a, S> = <S as NodeMut>::ViewsMut<'a>;

#[diagnostic::do_not_recommend]
impl<S: Space, R: ndarray::DataMut<Elem = S::Elem>> NodeMut for Batch<S, R> {
    type ViewsMut<'a>
        = crate::types::batch::BatchViewMut<'a, S>
    where
        Self: 'a;
    fn node_views_mut(&mut self, rows: core::ops::Range<usize>) -> Self::ViewsMut<'_> {
        crate::types::batch::BatchViewMut::<S>::from_checked(
            self.array_mut_unchecked()
                .slice_axis_mut(ndarray::Axis(S::BATCH_AXIS), rows.into()),
        )
    }
}

#[diagnostic::do_not_recommend]
impl NodeMut for Null {
    type ViewsMut<'a> = Null;
    fn node_views_mut(&mut self, _: core::ops::Range<usize>) -> Null {
        Null
    }
}

macro_rules! tuples_mut {
    ($($t:ident $i:tt),+) => {
        #[diagnostic::do_not_recommend]
        impl<$($t: NodeMut),+> NodeMut for ($($t,)+) {
            type ViewsMut<'a> = ($($t::ViewsMut<'a>,)+) where Self: 'a;
            fn node_views_mut(&mut self, rows: core::ops::Range<usize>) -> Self::ViewsMut<'_> {
                ($(self.$i.node_views_mut(rows.clone()),)+)
            }
        }
    };
}
crate::types::for_tuples!(tuples_mut);

/// The spec with no leaves: Pylearn2's `(NullSpace(), '')`, what a cost that needs no data (an
/// L1 penalty) reads.
impl DataSpec for Null {}

/// The space tree of a spec.
pub type SpacesOf<S> = <S as Node<()>>::Spaces;
/// The source tree of a spec.
pub type SourcesOf<S> = <S as Node<()>>::Sources;
/// The leaves of a spec, as a type-level list of [`Leaf`]`<Source, Space>`.
pub type LeavesOf<S> = <S as Node<()>>::Leaves;
/// The flat form of a spec: its leaf values in order.
pub type FlatOf<S> = <S as Node<()>>::Flat;
/// The structure of a spec with a `T` at each leaf.
pub type MappedOf<S, T> = <S as Node<()>>::Mapped<T>;
/// The structure of a spec with a borrowed view at each leaf.
pub type ViewsOf<'a, S> = <S as Node<()>>::Views<'a>;

/// A spec: a struct with `#[derive(DataSpec)]`, or a tuple of specs.
///
/// ```
/// use batchspec::prelude::*;
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "features")]
///     image: Batch<image![32, 32, 3; BHWC, u8]>,
///     #[spec(source = "targets")]
///     label: Batch<Index<10>>,
/// }
///
/// let shapes: Vec<_> = Record::describe(128).into_iter().map(|d| (d.source, d.dims().unwrap())).collect();
/// assert_eq!(shapes, [("features", vec![128, 32, 32, 3]), ("targets", vec![128, 1])]);
/// assert_eq!(Record::LEAVES, 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a spec",
    label = "expected a `#[derive(DataSpec)]` struct or a tuple of them",
    note = "add `#[derive(DataSpec)]` to the struct"
)]
pub trait DataSpec: Node<()> + Sized {
    /// The number of leaves (null leaves do not count).
    const LEAVES: usize = <Self as Node<()>>::LEAVES;
    /// The sum of the features of all leaves (Pylearn2's `get_total_dimension`); `None` if a
    /// leaf is a sequence, whose size is dynamic.
    const TOTAL: Option<usize> = <Self as Node<()>>::TOTAL;

    /// Every leaf in order with its source and its shape for `batch_size` samples (MXNet's
    /// `provide_data`).
    fn describe(batch_size: usize) -> Vec<Described> {
        let mut out = Vec::with_capacity(<Self as Node<()>>::LEAVES);
        Self::describe_node(batch_size, &Path::Root, &mut out);
        out
    }

    /// Checks that every leaf holds the same number of samples, and returns it (`0` for a spec
    /// with no leaves).
    ///
    /// # Errors
    /// [`SpecError::BatchSize`] naming the first field and the field that differs.
    fn validate(&self) -> Result<usize, SpecError> {
        // Without paths first, so that checking a batch allocates nothing (providers and streams
        // check every output buffer); again with them for the message when sizes differ.
        let mut sizes = SizeCheck::quiet();
        if self.check_node(&Path::Root, &mut sizes).is_err() {
            let mut named = SizeCheck::default();
            self.check_node(&Path::Root, &mut named)?;
        }
        Ok(sizes.size().unwrap_or(0))
    }

    /// The leaf values in order, as a balanced tree of [`Pair`]s (a leaf's value itself for a
    /// spec of one leaf): plain moves, no allocation.
    #[inline(always)]
    fn flatten(self) -> FlatOf<Self> {
        self.node_flatten()
    }

    /// The spec from its leaf values in order: the inverse of [`DataSpec::flatten`].
    #[inline(always)]
    fn nest(flat: FlatOf<Self>) -> Self {
        Self::node_nest(flat)
    }

    /// References to the leaf values in order.
    #[inline(always)]
    fn flatten_ref(&self) -> <Self as Node<()>>::FlatRef<'_> {
        self.node_flatten_ref()
    }

    /// Mutable references to the leaf values in order.
    #[inline(always)]
    fn flatten_mut(&mut self) -> <Self as Node<()>>::FlatMut<'_> {
        self.node_flatten_mut()
    }
}

macro_rules! tuples {
    ($($n:literal: $($t:ident . $i:tt),+;)*) => {$(
        #[diagnostic::do_not_recommend]
        impl<Src, $($t: Node<Src>),+> Node<Src> for ($($t,)+) {
            type Spaces = ($($t::Spaces,)+);
            type Sources = ($($t::Sources,)+);
            type Leaves = tuples!(@join $($t),+);
            type Flat = tuples!(@tree [Flat]; $($t),+);
            type FlatRef<'a> = tuples!(@tree [FlatRef<'a>]; $($t),+) where Self: 'a;
            type FlatMut<'a> = tuples!(@tree [FlatMut<'a>]; $($t),+) where Self: 'a;
            type Mapped<T> = ($($t::Mapped<T>,)+);
            type Views<'a> = ($($t::Views<'a>,)+) where Self: 'a;
            const LEAVES: usize = 0 $(+ $t::LEAVES)+;
            const TOTAL: Option<usize> = tuples!(@total $($t),+);
            fn describe_node(batch: usize, path: &Path<'_>, out: &mut Vec<Described>) {
                $( $t::describe_node(batch, &Path::Elem(path, $i), out); )+
            }
            fn check_node(&self, path: &Path<'_>, sizes: &mut SizeCheck) -> Result<(), SpecError> {
                $( self.$i.check_node(&Path::Elem(path, $i), sizes)?; )+
                Ok(())
            }
            #[inline(always)]
            fn node_flatten(self) -> Self::Flat {
                tuples!(@values self node_flatten; $($t . $i),+)
            }
            #[inline(always)]
            fn node_nest(flat: Self::Flat) -> Self {
                tuples!(@nest flat; (); $($t),+)
            }
            #[inline(always)]
            fn node_flatten_ref(&self) -> Self::FlatRef<'_> {
                tuples!(@values self node_flatten_ref; $($t . $i),+)
            }
            #[inline(always)]
            fn node_flatten_mut(&mut self) -> Self::FlatMut<'_> {
                tuples!(@values self node_flatten_mut; $($t . $i),+)
            }
            fn node_views(&self, rows: core::ops::Range<usize>) -> Self::Views<'_> {
                ($(self.$i.node_views(rows.clone()),)+)
            }
            fn node_nest_mapped<T, N: FnMut() -> T>(next: &mut N) -> Self::Mapped<T> {
                ($($t::node_nest_mapped(next),)+)
            }
            fn node_flatten_mapped<T, V: FnMut(T)>(mapped: Self::Mapped<T>, visit: &mut V) {
                $( $t::node_flatten_mapped(mapped.$i, visit); )+
            }
        }

        impl<$($t: DataSpec),+> DataSpec for ($($t,)+) {}
    )*};
    (@join $t:ident) => { <$t as Node<Src>>::Leaves };
    (@join $t:ident, $($rest:ident),+) => {
        LeafPair<<$t as Node<Src>>::Leaves, tuples!(@join $($rest),+)>
    };
    // The elements' flat forms as a chain of pairs (at most 8 deep).
    (@tree [$($a:tt)*]; $t:ident) => { <$t as Node<Src>>::$($a)* };
    (@tree [$($a:tt)*]; $t:ident, $($rest:ident),+) => {
        Pair<<$t as Node<Src>>::$($a)*, tuples!(@tree [$($a)*]; $($rest),+)>
    };
    (@values $s:ident $m:ident; $t:ident . $i:tt) => { $s.$i.$m() };
    (@values $s:ident $m:ident; $t:ident . $i:tt, $($rt:ident . $ri:tt),+) => {
        Pair {
            first: $s.$i.$m(),
            second: tuples!(@values $s $m; $($rt . $ri),+),
        }
    };
    (@nest $flat:ident; ($($done:expr,)*); $t:ident) => {
        ($($done,)* $t::node_nest($flat),)
    };
    (@nest $flat:ident; ($($done:expr,)*); $t:ident, $($rest:ident),+) => {{
        let Pair { first, second } = $flat;
        tuples!(@nest second; ($($done,)* $t::node_nest(first),); $($rest),+)
    }};
    (@total $t:ident) => { <$t as Node<Src>>::TOTAL };
    (@total $t:ident, $($rest:ident),+) => { add_features(<$t as Node<Src>>::TOTAL, tuples!(@total $($rest),+)) };
}

tuples! {
    1: A.0;
    2: A.0, B.1;
    3: A.0, B.1, C.2;
    4: A.0, B.1, C.2, D.3;
    5: A.0, B.1, C.2, D.3, E.4;
    6: A.0, B.1, C.2, D.3, E.4, F.5;
    7: A.0, B.1, C.2, D.3, E.4, F.5, G.6;
    8: A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7;
}

#[doc(hidden)]
pub const fn __add_features(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    add_features(a, b)
}
