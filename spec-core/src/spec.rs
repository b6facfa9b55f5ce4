//! Specs: trees of (space, source) leaves, the [`DataSpec`] trait the derive implements, and the
//! run-time description (`describe`) and validation (`validate`) of a spec.
//!
//! A spec is a struct with `#[derive(DataSpec)]` whose fields are batches ([`Batch<S>`]), nested
//! specs, tuples of those, or [`Null`]. Its structure is known to the compiler three ways: the
//! tree of spaces ([`DataSpec::Spaces`]), the tree of sources ([`DataSpec::Sources`]) and the flat
//! list of leaves ([`DataSpec::Leaves`]), which request matching walks.

use crate::batch::Batch;
use crate::error::Error;
use crate::source::Source;
use crate::space::{Null, Space};
use core::fmt;
use core::marker::PhantomData;
use ndarray::Data;

/// The empty type-level list of leaves.
pub struct HNil;
/// A type-level list of leaves: `H` then the list `T`.
pub struct HCons<H, T>(PhantomData<fn() -> (H, T)>);
/// One leaf of a spec: the space `S` read from the source `Src`.
pub struct Leaf<Src, S>(PhantomData<fn() -> (Src, S)>);

/// A type-level list of leaves: [`HNil`] or [`HCons`].
pub trait LeafList {
    /// The number of leaves.
    const LEN: usize;
    /// `Self` followed by `Rhs`.
    type Append<Rhs: LeafList>: LeafList;
}
impl LeafList for HNil {
    const LEN: usize = 0;
    type Append<Rhs: LeafList> = Rhs;
}
impl<H, T: LeafList> LeafList for HCons<H, T> {
    const LEN: usize = 1 + T::LEN;
    type Append<Rhs: LeafList> = HCons<H, T::Append<Rhs>>;
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
#[derive(Default)]
pub struct SizeCheck {
    first: Option<(String, usize)>,
}

impl SizeCheck {
    /// Records that the leaf at `path` holds `n` samples.
    ///
    /// # Errors
    /// [`Error::BatchSize`] when an earlier leaf holds another number.
    pub fn see(&mut self, path: &Path<'_>, n: usize) -> Result<(), Error> {
        match &self.first {
            None => {
                self.first = Some((path.to_string(), n));
                Ok(())
            }
            Some((_, m)) if *m == n => Ok(()),
            Some((field, m)) => Err(Error::BatchSize {
                first_field: field.clone(),
                first: *m,
                field: path.to_string(),
                actual: n,
            }),
        }
    }

    /// The common batch size, or `None` if no leaf was seen.
    pub fn size(&self) -> Option<usize> {
        self.first.as_ref().map(|(_, n)| *n)
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
/// and by every derived spec (which ignores `Src`: its fields name their own sources).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of a spec",
    label = "not a batch, a spec or a tuple of them",
    note = "a field of a `#[derive(DataSpec)]` struct is a `Batch<S>` of a space `S`, another `#[derive(DataSpec)]` struct, a tuple of those, or `Null`"
)]
pub trait Node<Src: Source> {
    /// The tree of spaces.
    type Spaces;
    /// The tree of sources.
    type Sources;
    /// The leaves, in order, as a type-level list of [`Leaf`].
    type Leaves: LeafList;
    /// The number of leaves.
    const LEAVES: usize;
    /// The sum of the features of the leaves (Pylearn2's total dimension); `None` if a leaf is a
    /// sequence.
    const TOTAL: Option<usize>;
    /// Appends the description of the leaves.
    fn describe_node(batch: usize, path: &Path<'_>, out: &mut Vec<Described>);
    /// Records the batch size of every leaf.
    fn check_node(&self, path: &Path<'_>, sizes: &mut SizeCheck) -> Result<(), Error>;
}

impl<Src: Source, S: Space, R: Data<Elem = S::Elem>> Node<Src> for Batch<S, R> {
    type Spaces = S;
    type Sources = Src;
    type Leaves = HCons<Leaf<Src, S>, HNil>;
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
    fn check_node(&self, path: &Path<'_>, sizes: &mut SizeCheck) -> Result<(), Error> {
        sizes.see(path, self.len())
    }
}

impl<Src: Source> Node<Src> for Null {
    type Spaces = Null;
    type Sources = ();
    type Leaves = HNil;
    const LEAVES: usize = 0;
    const TOTAL: Option<usize> = Some(0);
    fn describe_node(_: usize, _: &Path<'_>, _: &mut Vec<Described>) {}
    fn check_node(&self, _: &Path<'_>, _: &mut SizeCheck) -> Result<(), Error> {
        Ok(())
    }
}

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
pub trait DataSpec: Sized {
    /// The tree of spaces: a tuple with one entry per field, nested like the struct.
    type Spaces;
    /// The tree of sources, shaped like [`DataSpec::Spaces`].
    type Sources;
    /// The leaves in order, as a type-level list of [`Leaf`]`<Source, Space>`.
    type Leaves: LeafList;
    /// The number of leaves (null leaves do not count).
    const LEAVES: usize;
    /// The sum of the features of all leaves (Pylearn2's `get_total_dimension`); `None` if a
    /// leaf is a sequence, whose size is dynamic.
    const TOTAL: Option<usize>;

    /// Appends the description of every leaf under `path`.
    fn describe_into(batch: usize, path: &Path<'_>, out: &mut Vec<Described>);
    /// Records the batch size of every leaf under `path`.
    ///
    /// # Errors
    /// [`Error::BatchSize`] naming the two fields that differ.
    fn check_sizes(&self, path: &Path<'_>, sizes: &mut SizeCheck) -> Result<(), Error>;

    /// Every leaf in order with its source and its shape for `batch_size` samples (MXNet's
    /// `provide_data`).
    fn describe(batch_size: usize) -> Vec<Described> {
        let mut out = Vec::with_capacity(Self::LEAVES);
        Self::describe_into(batch_size, &Path::Root, &mut out);
        out
    }

    /// Checks that every leaf holds the same number of samples, and returns it (`0` for a spec
    /// with no leaves).
    ///
    /// # Errors
    /// [`Error::BatchSize`] naming the first field and the field that differs.
    fn validate(&self) -> Result<usize, Error> {
        let mut sizes = SizeCheck::default();
        self.check_sizes(&Path::Root, &mut sizes)?;
        Ok(sizes.size().unwrap_or(0))
    }
}

macro_rules! tuples {
    ($($n:literal: $($t:ident . $i:tt),+;)*) => {$(
        impl<Src: Source, $($t: Node<Src>),+> Node<Src> for ($($t,)+)
        {
            type Spaces = ($($t::Spaces,)+);
            type Sources = ($($t::Sources,)+);
            type Leaves = tuples!(@concat Src; $($t),+);
            const LEAVES: usize = 0 $(+ $t::LEAVES)+;
            const TOTAL: Option<usize> = tuples!(@total $($t),+);
            fn describe_node(batch: usize, path: &Path<'_>, out: &mut Vec<Described>) {
                $( $t::describe_node(batch, &Path::Elem(path, $i), out); )+
            }
            fn check_node(&self, path: &Path<'_>, sizes: &mut SizeCheck) -> Result<(), Error> {
                $( self.$i.check_node(&Path::Elem(path, $i), sizes)?; )+
                Ok(())
            }
        }

        impl<$($t: DataSpec),+> DataSpec for ($($t,)+)
        {
            type Spaces = ($($t::Spaces,)+);
            type Sources = ($($t::Sources,)+);
            type Leaves = tuples!(@concat_spec $($t),+);
            const LEAVES: usize = 0 $(+ $t::LEAVES)+;
            const TOTAL: Option<usize> = tuples!(@total_spec $($t),+);
            fn describe_into(batch: usize, path: &Path<'_>, out: &mut Vec<Described>) {
                $( $t::describe_into(batch, &Path::Elem(path, $i), out); )+
            }
            fn check_sizes(&self, path: &Path<'_>, sizes: &mut SizeCheck) -> Result<(), Error> {
                $( self.$i.check_sizes(&Path::Elem(path, $i), sizes)?; )+
                Ok(())
            }
        }
    )*};
    (@concat $src:ident; $t:ident) => { <$t as Node<$src>>::Leaves };
    (@concat $src:ident; $t:ident, $($rest:ident),+) => {
        <<$t as Node<$src>>::Leaves as LeafList>::Append<tuples!(@concat $src; $($rest),+)>
    };
    (@concat_spec $t:ident) => { <$t as DataSpec>::Leaves };
    (@concat_spec $t:ident, $($rest:ident),+) => {
        <<$t as DataSpec>::Leaves as LeafList>::Append<tuples!(@concat_spec $($rest),+)>
    };
    (@total $t:ident) => { <$t as Node<Src>>::TOTAL };
    (@total $t:ident, $($rest:ident),+) => { add_features(<$t as Node<Src>>::TOTAL, tuples!(@total $($rest),+)) };
    (@total_spec $t:ident) => { <$t as DataSpec>::TOTAL };
    (@total_spec $t:ident, $($rest:ident),+) => { add_features(<$t as DataSpec>::TOTAL, tuples!(@total_spec $($rest),+)) };
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
