//! Writes into a dataset, which need `&mut Dataset` (the Pylearn dataset proposal's writes):
//! values through [`Dataset::fields_mut`] ([`FieldsMut`]), rows in place through
//! [`Dataset::rows_mut`] and [`Dataset::sample_mut`], a selection through
//! [`Dataset::write_rows`], and arithmetic with a sample or a record through [`Dataset::apply`]
//! ([`ApplyRecord`], [`ApplyLeaves`]).

use crate::data::dataset::Dataset;
use crate::types::batch::Batch;
use crate::types::elem::Arith;
use crate::types::error::SpecError;
use crate::types::hlist::{HNil, Pair};
use crate::types::space::Space;
use crate::types::spec::{DataSpec, Node};

/// The fields of a dataset, writable (from [`Dataset::fields_mut`]). When it is dropped, the
/// dataset checks its fields again: if a field was replaced by one of another number of
/// samples, every row operation of the dataset is refused with
/// [`DataError::Invalidated`](crate::data::DataError::Invalidated) (naming the fields) until a
/// later write makes them agree.
///
/// The guard marks the dataset unchecked when it is made, and only its drop (after the check)
/// clears the mark: a guard leaked with `std::mem::forget` leaves the dataset refusing every row
/// operation with [`DataError::FieldsUnchecked`](crate::data::DataError::FieldsUnchecked), never
/// serving rows some field lacks.
pub struct FieldsMut<'a, R: DataSpec> {
    pub(super) dataset: &'a mut Dataset<R>,
}

impl<R: DataSpec> core::ops::Deref for FieldsMut<'_, R> {
    type Target = R;
    fn deref(&self) -> &R {
        &self.dataset.record
    }
}

impl<R: DataSpec> core::ops::DerefMut for FieldsMut<'_, R> {
    fn deref_mut(&mut self) -> &mut R {
        &mut self.dataset.record
    }
}

impl<R: DataSpec> Drop for FieldsMut<'_, R> {
    fn drop(&mut self) {
        match self.dataset.record.validate() {
            Ok(len) => {
                self.dataset.len = len;
                self.dataset.invalid = None;
            }
            Err(e) => self.dataset.invalid = Some(e),
        }
        // Checked: the mark made with the guard goes only now.
        self.dataset.unchecked = false;
    }
}

/// A record whose every field takes arithmetic with the same field of another record
/// ([`Dataset::apply`]): every record whose fields are batches (not ragged).
#[diagnostic::on_unimplemented(
    message = "arithmetic across a dataset of `{Self}` needs fields that are all batches",
    label = "a ragged field has no arithmetic",
    note = "change a ragged field through `fields_mut`, or apply arithmetic field by field with `Batch::apply`"
)]
pub trait ApplyRecord: DataSpec {
    /// Checks every field against `other`'s, then writes every field.
    ///
    /// # Errors
    /// As [`Batch::apply`], before anything is written.
    fn apply_record(&mut self, op: Arith, other: &Self) -> Result<(), SpecError>;
}

#[diagnostic::do_not_recommend]
impl<R: DataSpec> ApplyRecord for R
where
    for<'a, 'b> <R as Node<()>>::FlatMut<'a>: ApplyLeaves<<R as Node<()>>::FlatRef<'b>>,
{
    fn apply_record(&mut self, op: Arith, other: &Self) -> Result<(), SpecError> {
        let mut leaves = self.flatten_mut();
        let others = other.flatten_ref();
        leaves.check_leaves(op, &others)?;
        leaves.apply_leaves(op, &others)
    }
}

/// The leaves of a record, written by arithmetic with another's leaves ([`ApplyRecord`]):
/// implemented for the flat forms of batches.
pub trait ApplyLeaves<Other> {
    /// Checks every leaf against `other`'s (shapes, labels, integer results) without writing.
    ///
    /// # Errors
    /// The first leaf's error.
    fn check_leaves(&self, op: Arith, other: &Other) -> Result<(), SpecError>;
    /// Writes every leaf (after [`ApplyLeaves::check_leaves`]).
    ///
    /// # Errors
    /// As [`ApplyLeaves::check_leaves`].
    fn apply_leaves(&mut self, op: Arith, other: &Other) -> Result<(), SpecError>;
}

impl ApplyLeaves<HNil> for HNil {
    fn check_leaves(&self, _: Arith, _: &HNil) -> Result<(), SpecError> {
        Ok(())
    }
    fn apply_leaves(&mut self, _: Arith, _: &HNil) -> Result<(), SpecError> {
        Ok(())
    }
}

impl<'b, S, D, D2> ApplyLeaves<&'b Batch<S, D2>> for &mut Batch<S, D>
where
    S: Space,
    D: ndarray::DataMut<Elem = S::Elem>,
    D2: ndarray::Data<Elem = S::Elem>,
{
    fn check_leaves(&self, op: Arith, other: &&'b Batch<S, D2>) -> Result<(), SpecError> {
        self.check_apply(op, other).map(|_| ())
    }
    fn apply_leaves(&mut self, op: Arith, other: &&'b Batch<S, D2>) -> Result<(), SpecError> {
        self.apply(op, other)
    }
}

impl<A: ApplyLeaves<C>, B: ApplyLeaves<D>, C, D> ApplyLeaves<Pair<C, D>> for Pair<A, B> {
    fn check_leaves(&self, op: Arith, other: &Pair<C, D>) -> Result<(), SpecError> {
        self.first.check_leaves(op, &other.first)?;
        self.second.check_leaves(op, &other.second)
    }
    fn apply_leaves(&mut self, op: Arith, other: &Pair<C, D>) -> Result<(), SpecError> {
        self.first.apply_leaves(op, &other.first)?;
        self.second.apply_leaves(op, &other.second)
    }
}
