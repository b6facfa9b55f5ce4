//! The loading traits: a [`LeafSource`] is a place leaves are read from (a file, a set of
//! files), a [`LoadRecord`] a record that reads itself from one, field by field
//! ([`LoadField`]), and [`Dataset::load`](crate::data::Dataset::load) reads a dataset from a
//! source and checks that its leaves agree on the number of samples. The loaders that
//! implement [`LeafSource`] are the `load` part's (which names these traits too); the traits
//! are the dataset's, below them, since `load` is a method of the dataset.

use crate::data::error::DataError;
use crate::types::batch::Batch;
use crate::types::for_tuples;
use crate::types::ragged::{Ragged, SequenceSpace};
use crate::types::space::{Null, Space};
use crate::types::spec::{DataSpec, Described};

/// A place leaves are read from (a file, a set of files): asked for one leaf at a time, by the
/// leaf's description (field path, source name, space), in the record's order.
pub trait LeafSource {
    /// Reads the leaf `leaf` as a batch of the space `S`, checking it against `S` as it reads.
    ///
    /// # Errors
    /// An error naming the file, the place in it (line, offset or member) and the source.
    fn read_leaf<S: Space>(&mut self, leaf: &Described) -> Result<Batch<S>, Self::Error>;

    /// Reads the leaf `leaf` as ragged samples of the sequence space `S` (a `Ragged<S>` field).
    /// By default an error: only formats with lists of different lengths (Parquet) hold them.
    ///
    /// # Errors
    /// [`DataError::NotRagged`] by default; a reader's own errors otherwise.
    fn read_ragged<S: SequenceSpace>(
        &mut self,
        leaf: &Described,
    ) -> Result<Ragged<S>, Self::Error> {
        Err(DataError::NotRagged {
            source_name: leaf.source,
        }
        .into())
    }

    /// Called once before the leaves of a record are read, with all of them: a reader of remote
    /// data fetches what they need here, several requests in flight, instead of one leaf at a
    /// time. By default nothing.
    ///
    /// # Errors
    /// A reader's own errors (a fetch that failed).
    fn prepare(&mut self, leaves: &[Described]) -> Result<(), Self::Error> {
        let _ = leaves;
        Ok(())
    }

    /// Where `leaf` is read from, in words (`file images.idx`), for the error that names two
    /// leaves holding different numbers of samples; `None` (the default) when every leaf comes
    /// from the same place, so that only the fields are named.
    fn origin(&self, leaf: &Described) -> Option<String> {
        let _ = leaf;
        None
    }

    /// The error of a read, which also carries the dataset's own errors (leaves that hold
    /// different numbers of samples).
    type Error: std::error::Error + From<DataError>;
}

/// A field a dataset loads from a file. The derive writes it as a bound on [`LoadRecord`] for
/// each field computed from a sequence field (`lengths_of`, `mask_of`), naming the field by its
/// type beside the struct (`Request·len`); nothing implements it, so the bound is the
/// refusal, reported where the struct is loaded.
#[diagnostic::on_unimplemented(
    message = "field `{Self}` is computed from a sequence field (`lengths_of` or `mask_of`): a dataset cannot load it from a file",
    label = "a request: `Dataset::load` reads every field of a record from the file",
    note = "load a record without the computed field (its source as a `Ragged` field), and ask for `lengths_of` or `mask_of` in the request a provider, stream or loader serves from it"
)]
pub trait LoadedFromFile {}

// Never used: it only keeps rustc from calling the trait one without implementations.
#[diagnostic::do_not_recommend]
impl LoadedFromFile for Null {}

/// A record that can be read from a [`LeafSource`], field by field in the order of
/// [`DataSpec::describe`]. The derive implements it for every struct whose leaves are owned
/// batches.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be loaded from a file",
    label = "a dataset reads every leaf as an owned `Batch<S>`"
)]
pub trait LoadRecord: DataSpec {
    /// Reads every leaf; `leaves` yields their descriptions in order.
    ///
    /// # Errors
    /// The first error of the source.
    fn load_record<L: LeafSource>(
        source: &mut L,
        leaves: &mut core::slice::Iter<'_, Described>,
    ) -> Result<Self, L::Error>;
}

/// A field of a record that a [`LeafSource`] fills: an owned [`Batch`], a [`Ragged`] leaf,
/// [`Null`], or a tuple of them (a nested record is a [`LoadRecord`]).
#[diagnostic::on_unimplemented(
    // Not `{Self}`: the type is a `Batch` with ndarray's storage spelled out
    // (`OwnedArcRepr`), which says less to the reader than the words do.
    message = "a field that shares or borrows its batch (`ArcBatch`, `BatchView`) cannot be loaded from a file",
    label = "a dataset or a stream reads every leaf as an owned `Batch<S>`",
    note = "`ArcBatch` and `BatchView` fields are for requests; a record that is loaded holds `Batch<S>` fields"
)]
pub trait LoadField: Sized {
    /// Reads the field's leaves; `leaves` yields their descriptions in order.
    ///
    /// # Errors
    /// The first error of the source.
    fn load_field<L: LeafSource>(
        source: &mut L,
        leaves: &mut core::slice::Iter<'_, Described>,
    ) -> Result<Self, L::Error>;
}

/// A batch field as a dataset or a stream loads it: an owned [`Batch<S>`] ([`LoadField`]).
///
/// The derive asks it, when a record is loaded, of the stand-in of each field written as
/// `ArcBatch<..>` or `BatchView<..>` ([`SharedBatch`], [`BorrowedBatch`]), which has no impl:
/// loading such a record is a compile error in words whose help line names the stand-in, where a
/// bound on the field's own type would spell out the batch's ndarray storage
/// (`Batch<Vector<4>, OwnedArcRepr<f32>>`).
#[diagnostic::on_unimplemented(
    message = "a field that shares or borrows its batch (`ArcBatch`, `BatchView`) cannot be loaded from a file",
    label = "a dataset or a stream reads every leaf as an owned `Batch<S>`",
    note = "`ArcBatch` and `BatchView` fields are for requests; a record that is loaded holds `Batch<S>` fields"
)]
pub trait LoadableBatch: LoadField {}

impl<S: Space> LoadableBatch for Batch<S> {}

/// A record's `ArcBatch<S>` field, as a dataset or a stream would load it: never, since they read
/// every leaf as an owned `Batch<S>` ([`LoadableBatch`]). It has no values.
#[derive(Debug)]
pub enum SharedBatch {}

/// A record's `BatchView<'a, S>` field, as a dataset or a stream would load it: never (see
/// [`SharedBatch`]).
#[derive(Debug)]
pub enum BorrowedBatch {}

impl<S: Space> LoadField for Batch<S> {
    fn load_field<L: LeafSource>(
        source: &mut L,
        leaves: &mut core::slice::Iter<'_, Described>,
    ) -> Result<Self, L::Error> {
        let leaf = leaves
            .next()
            .unwrap_or_else(|| unreachable!("describe lists one entry per leaf"));
        source.read_leaf::<S>(leaf)
    }
}

impl<S: SequenceSpace> LoadField for Ragged<S> {
    fn load_field<L: LeafSource>(
        source: &mut L,
        leaves: &mut core::slice::Iter<'_, Described>,
    ) -> Result<Self, L::Error> {
        let leaf = leaves
            .next()
            .unwrap_or_else(|| unreachable!("describe lists one entry per leaf"));
        source.read_ragged::<S>(leaf)
    }
}

impl LoadField for Null {
    fn load_field<L: LeafSource>(
        _: &mut L,
        _: &mut core::slice::Iter<'_, Described>,
    ) -> Result<Self, L::Error> {
        Ok(Null)
    }
}

macro_rules! load_tuples {
    ($($t:ident $i:tt),+) => {
        impl<$($t: LoadField),+> LoadField for ($($t,)+) {
            fn load_field<L: LeafSource>(
                source: &mut L,
                leaves: &mut core::slice::Iter<'_, Described>,
            ) -> Result<Self, L::Error> {
                Ok(($($t::load_field(source, leaves)?,)+))
            }
        }
        impl<$($t: LoadRecord),+> LoadRecord for ($($t,)+) {
            fn load_record<L: LeafSource>(
                source: &mut L,
                leaves: &mut core::slice::Iter<'_, Described>,
            ) -> Result<Self, L::Error> {
                Ok(($($t::load_record(source, leaves)?,)+))
            }
        }
    };
}
for_tuples!(load_tuples);
