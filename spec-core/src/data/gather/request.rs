//! A request gathered from a record: every leaf of the request written, converted, from the
//! record's field of its source ([`GatherFrom`], field by field [`GatherField`]), what
//! providers do for every batch; the derive implements them.

use crate::augment::Draws;
use crate::data::error::DataError;
use crate::data::gather::collate::{Collate, check_fits};
use crate::data::gather::leaf::{GatherInto, Regrow};
use crate::format::FormatAs;
use crate::mapping::matching::{HasSource, HasSourceAs, ReadField, Reads};
use crate::mapping::serve::ServeCache;
use crate::types::batch::{ArcBatch, Batch};
use crate::types::for_tuples;
use crate::types::ragged::{Ragged, SourceView};
use crate::types::source::Source;
use crate::types::space::{Null, Space};
use ndarray::Data;
use std::ops::Range;

/// The conversion of a request's leaf of the source `K` from the record's space `From` to the
/// requested `To`: what a derived request's gather, fit check and serve call (`LeafVia<K>`),
/// rather than writing these methods out once per field.
#[doc(hidden)]
pub trait LeafConvert<From, To> {
    /// [`GatherInto::gather_into`] with the source's name.
    fn gather<T: GatherInto<To>>(
        from: SourceView<'_, From>,
        rows: &[usize],
        zero: Range<usize>,
        target: &mut T,
        collate: &Collate<<To as Space>::Elem>,
    ) -> Result<(), DataError>
    where
        From: Space,
        To: Space;
    /// [`check_fits`] with the source's name.
    fn fits(
        from: SourceView<'_, From>,
        collate: &Collate<<To as Space>::Elem>,
    ) -> Result<(), DataError>
    where
        From: Space,
        To: Space;
    /// [`ServeCache::get_or_convert`] for the source.
    fn serve<'c>(from: SourceView<'_, From>, cache: &'c mut ServeCache) -> &'c ArcBatch<To>
    where
        From: Space,
        To: Space;
}

/// The source `K`, read as the family `F` ([`HasSourceAs`]), as the way of a leaf's conversion
/// ([`LeafConvert`]) and of its read from the record ([`SourceOf`]).
#[doc(hidden)]
pub struct LeafVia<K, F = ()>(core::marker::PhantomData<fn() -> (K, F)>);

impl<K: Source, F, From: FormatAs<To>, To: Space> LeafConvert<From, To> for LeafVia<K, F> {
    #[inline]
    fn gather<T: GatherInto<To>>(
        from: SourceView<'_, From>,
        rows: &[usize],
        zero: Range<usize>,
        target: &mut T,
        collate: &Collate<To::Elem>,
    ) -> Result<(), DataError> {
        target.gather_into::<From>(from, rows, zero, collate, K::NAME)
    }
    #[inline]
    fn fits(from: SourceView<'_, From>, collate: &Collate<To::Elem>) -> Result<(), DataError> {
        check_fits::<From, To>(&from, collate, K::NAME)
    }
    #[inline]
    fn serve<'c>(from: SourceView<'_, From>, cache: &'c mut ServeCache) -> &'c ArcBatch<To> {
        cache.get_or_convert::<K, From, To>(from)
    }
}

/// The record `R`'s field of the source `K`, as a request's leaf of the family `F` reads it: what
/// [`SourceServedBy`] names (`type Via = LeafVia<K, F>`), rather than the derive writing the two
/// methods out once per field.
#[doc(hidden)]
pub trait SourceOf<R> {
    /// The record's space of the source.
    type Space: Space;
    /// The record's field that holds it.
    type Field;
    /// [`HasSourceAs::source_view_as`].
    fn view(record: &R) -> SourceView<'_, Self::Space>;
    /// [`HasSourceAs::source_field_as`].
    fn field(record: &R) -> &Self::Field;
}

impl<K: Source, F, R: HasSourceAs<K, F>> SourceOf<R> for LeafVia<K, F> {
    type Space = R::Space;
    type Field = R::Field;
    #[inline]
    fn view(record: &R) -> SourceView<'_, Self::Space> {
        record.source_view_as()
    }
    #[inline]
    fn field(record: &R) -> &Self::Field {
        record.source_field_as()
    }
}

/// A request's batch field, as the derive names it (`Request·mask`, a type of its own beside the
/// struct): the source `Key` it reads and the family `Family` it reads it as.
#[doc(hidden)]
pub trait FieldSource {
    /// The source.
    type Key: Source;
    /// The field's family ([`Space::Form`]), or `()` for a field whose type names the struct's
    /// generic parameters.
    type Family;
}

/// The source that the request's field `Self` reads is served by the record `R`, in the field's
/// family ([`Space::Form`]): the bound `#[derive(DataSpec)]` writes for each batch field of a
/// request. `Self` is a type the derive writes for the field and names after it, `Request·mask`
/// (the struct's and the field's names joined by a middle dot), so that a missing source reads
/// `the record `Dataset` does not serve the source of field `Request·mask``.
///
/// Implemented for every field whose source the record holds ([`HasSourceAs`]); for nothing
/// else.
#[diagnostic::on_unimplemented(
    message = "the record `{R}` does not serve the source of field `{Self}`",
    label = "field `{Self}` reads a source that `{R}` does not serve",
    note = "a record serves the sources of its own batch fields: it needs a batch field of the source the field names (in `#[spec(source = \"..\")]`, or by its own name without one); the sources of a struct nested in the record are that struct's (pair the request with it); a source held in two fields is served by kind (an image field to an image, a vector field to a vector), and to none when the two are of one kind; the record comes first, as in `assert_serves::<Record, Request>` and `Provider::<Record, Request>`"
)]
pub trait SourceServedBy<R> {
    /// The record's space of the source.
    type Space: Space;
    /// The record's field that holds it.
    type Field;
    /// The record's leaf of the source, as the field reads it.
    #[doc(hidden)]
    type Via: SourceOf<R, Space = Self::Space, Field = Self::Field>;
}

#[diagnostic::do_not_recommend]
impl<F: FieldSource, R: HasSourceAs<F::Key, F::Family>> SourceServedBy<R> for F {
    type Space = <R as HasSourceAs<F::Key, F::Family>>::Space;
    type Field = <R as HasSourceAs<F::Key, F::Family>>::Field;
    type Via = LeafVia<F::Key, F::Family>;
}

/// A request `Self` whose every leaf can be gathered, converted, from the record `R`: the one
/// bound that providers name. The derive implements it for every struct whose batch fields own
/// or mutably borrow their data; its bounds are those of [`Reads`], so a mismatch is reported in
/// the words of the field.
#[diagnostic::on_unimplemented(
    message = "the request `{Self}` cannot be gathered from the record `{R}`",
    label = "every source of the request must be a field of the record, in a space that formats as the requested one; every batch field writable"
)]
pub trait GatherFrom<R>: Reads<R> {
    /// Writes the samples `rows` of `record` into the samples `0..rows.len()` of `out`, after
    /// zeroing the samples `zero` of `out` (padding rows).
    ///
    /// The random choices of augmented fields ([`augment`](crate::augment)) are drawn from
    /// `draws` and each sample's row in `record` (its global index).
    ///
    /// # Errors
    /// [`DataError::TimeSteps`] when a borrowed sequence batch of `out` is too short for a
    /// sample; never for owned leaves (they take the length they need).
    fn gather_from(
        out: &mut Self,
        record: &R,
        rows: &[usize],
        zero: Range<usize>,
        draws: Draws<'_>,
    ) -> Result<(), DataError>;

    /// Checks once that every sample of `record` can be gathered under the request's collate
    /// policies ([`check_fits`]): after it, gathers into owned leaves cannot fail.
    ///
    /// # Errors
    /// The first policy a sample breaks.
    fn check_fits(record: &R) -> Result<(), DataError>;
}

/// A field of a request gathered from the source `K` of the record `R` (see
/// [`ReadField`]).
#[diagnostic::on_unimplemented(
    message = "the record `{R}` cannot fill a field of type `{Self}`",
    label = "the record has no such source, or holds it in a space that does not format as this one"
)]
pub trait GatherField<R, K>: ReadField<R, K> {
    /// Writes the rows into the field.
    ///
    /// # Errors
    /// As [`GatherFrom::gather_from`].
    fn gather_field(
        &mut self,
        record: &R,
        rows: &[usize],
        zero: Range<usize>,
        draws: Draws<'_>,
    ) -> Result<(), DataError>;

    /// As [`GatherFrom::check_fits`] (a leaf of a tuple field has the default policy, which
    /// every owned leaf fits).
    ///
    /// # Errors
    /// As [`GatherFrom::check_fits`].
    fn check_field(record: &R) -> Result<(), DataError> {
        let _ = record;
        Ok(())
    }
}

impl<R, K, S, D> GatherField<R, K> for Batch<S, D>
where
    R: HasSource<K>,
    K: Source,
    S: Space,
    D: Regrow<Elem = S::Elem> + Data,
    R::Space: FormatAs<S>,
{
    fn gather_field(
        &mut self,
        record: &R,
        rows: &[usize],
        zero: Range<usize>,
        _: Draws<'_>,
    ) -> Result<(), DataError> {
        self.gather_into::<R::Space>(record.source_view(), rows, zero, &Collate::DEFAULT, K::NAME)
    }
}

impl<R, K, S> GatherField<R, K> for Ragged<S>
where
    R: HasSource<K>,
    K: Source,
    S: Space,
    R::Space: FormatAs<S>,
{
    fn gather_field(
        &mut self,
        record: &R,
        rows: &[usize],
        zero: Range<usize>,
        _: Draws<'_>,
    ) -> Result<(), DataError> {
        self.gather_into::<R::Space>(record.source_view(), rows, zero, &Collate::DEFAULT, K::NAME)
    }
}

impl<R, K> GatherField<R, K> for Null {
    fn gather_field(
        &mut self,
        _: &R,
        _: &[usize],
        _: Range<usize>,
        _: Draws<'_>,
    ) -> Result<(), DataError> {
        Ok(())
    }
}

macro_rules! request_tuples {
    ($($t:ident $i:tt),+) => {
        impl<R, $($t: GatherFrom<R>),+> GatherFrom<R> for ($($t,)+) {
            fn gather_from(
                out: &mut Self,
                record: &R,
                rows: &[usize],
                zero: Range<usize>,
                draws: Draws<'_>,
            ) -> Result<(), DataError> {
                $( $t::gather_from(&mut out.$i, record, rows, zero.clone(), draws)?; )+
                Ok(())
            }
            fn check_fits(record: &R) -> Result<(), DataError> {
                $( $t::check_fits(record)?; )+
                Ok(())
            }
        }
        impl<R, K, $($t: GatherField<R, K>),+> GatherField<R, K> for ($($t,)+) {
            fn gather_field(
                &mut self,
                record: &R,
                rows: &[usize],
                zero: Range<usize>,
                draws: Draws<'_>,
            ) -> Result<(), DataError> {
                $( self.$i.gather_field(record, rows, zero.clone(), draws)?; )+
                Ok(())
            }
            fn check_field(record: &R) -> Result<(), DataError> {
                $( $t::check_field(record)?; )+
                Ok(())
            }
        }
    };
}
for_tuples!(request_tuples);
