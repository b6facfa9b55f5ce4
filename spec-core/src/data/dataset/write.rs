//! Writes into a dataset, which need `&mut Dataset` (the Pylearn dataset proposal's writes):
//! values through [`Dataset::fields_mut`] ([`FieldsMut`]), rows in place through
//! [`Dataset::rows_mut`] and [`Dataset::sample_mut`], a selection through
//! [`Dataset::write_rows`], and arithmetic with a sample or a record through [`Dataset::apply`]
//! ([`ApplyRecord`], [`ApplyLeaves`]).

use crate::data::dataset::Dataset;
use crate::data::error::DataError;
use crate::data::gather::GatherSame;
use crate::types::batch::Batch;
use crate::types::elem::Arith;
use crate::types::error::SpecError;
use crate::types::hlist::{HNil, Pair};
use crate::types::space::Space;
use crate::types::spec::{DataSpec, Node, NodeMut};
use std::ops::Range;

/// The fields of a dataset, writable (from [`Dataset::fields_mut`]). When it is dropped, the
/// dataset checks its fields again: if a field was replaced by one of another number of
/// samples, every row operation of the dataset is refused with
/// [`DataError::Invalidated`] (naming the fields) until a later write makes them agree.
///
/// The guard marks the dataset unchecked when it is made, and only its drop (after the check)
/// clears the mark: a guard leaked with `std::mem::forget` leaves the dataset refusing every row
/// operation with [`DataError::FieldsUnchecked`], never serving rows some field lacks.
pub struct FieldsMut<'a, R: DataSpec> {
    dataset: &'a mut Dataset<R>,
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

impl<R: DataSpec> Dataset<R> {
    /// The fields, to write into or to change in place (the proposal's `d.input = val`). A field
    /// replaced by one of another number of samples makes the dataset refuse every row
    /// operation, naming the fields, until they agree again ([`FieldsMut`]); it never serves
    /// rows that some field lacks, even when the guard is leaked.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::data::Dataset;
    ///
    /// #[derive(DataSpec)]
    /// struct Record {
    ///     #[spec(source = "features")]
    ///     x: Batch<Vector<2>>,
    ///     #[spec(source = "targets")]
    ///     y: Batch<Labels<3>>,
    /// }
    /// let mut ds = Dataset::new(Record {
    ///     x: Batch::new(ndarray::array![[0., 1.], [2., 3.], [4., 5.]])?,
    ///     y: Batch::new(ndarray::array![0i64, 1, 2])?,
    /// })?;
    /// ds.fields_mut().x = Batch::new(ndarray::array![[9., 9.]])?; // 1 sample where 3 were
    /// assert!(ds.select(&[2]).is_err());
    /// ds.fields_mut().y = Batch::new(ndarray::array![2i64])?; // they agree again
    /// assert_eq!(ds.len(), 1);
    /// assert_eq!(ds.select(&[0])?.y.array(), &ndarray::array![2i64]);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    pub fn fields_mut(&mut self) -> FieldsMut<'_, R> {
        // Until the guard's drop checks the fields (a leaked guard never does).
        self.unchecked = true;
        FieldsMut { dataset: self }
    }

    /// The samples in `range`, to write in place (the proposal's writable views): the record's
    /// fields by name, each a mutable view of those rows of the dataset's own memory
    /// ([`BatchViewMut`](crate::types::BatchViewMut), [`RaggedViewMut`](crate::types::RaggedViewMut), the
    /// generated `<Record>Mapped` struct for the record and each nested spec). Writes go straight
    /// into the dataset; a view keeps its space's rules (labels are written through
    /// [`Batch::set_label`], [`Batch::update`] or [`Batch::assign`], all checked) and cannot
    /// change the number of samples or a sample's length.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::data::Dataset;
    ///
    /// #[derive(DataSpec)]
    /// struct Record {
    ///     #[spec(source = "features")]
    ///     x: Batch<Vector<2>>,
    ///     #[spec(source = "targets")]
    ///     y: Batch<Labels<3>>,
    /// }
    /// let mut ds = Dataset::new(Record {
    ///     x: Batch::new(ndarray::array![[0., 1.], [2., 3.], [4., 5.]])?,
    ///     y: Batch::new(ndarray::array![0i64, 1, 2])?,
    /// })?;
    /// let mut rows = ds.rows_mut(1..3)?;
    /// rows.x.array_mut().fill(-1.0);
    /// rows.y.assign(&Batch::new(ndarray::array![2i64, 0])?)?;
    /// assert!(rows.y.set_label(0, 3).is_err()); // 3 is not a label of `Labels<3>`
    /// assert_eq!(ds.fields().x.array(), &ndarray::array![[0., 1.], [-1., -1.], [-1., -1.]]);
    /// assert_eq!(ds.fields().y.array(), &ndarray::array![0i64, 2, 0]);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`SpecError::Row`] for a range past the end; [`SpecError::Reversed`];
    /// [`DataError::Invalidated`].
    // The views' type is a parameter fixed by the bound (not `ViewsMutOf<'_, R>` in the
    // signature): a record that cannot lend its rows is then reported in the words of
    // `NodeMut`, at the call, rather than as a method that "exists but its trait bounds were
    // not satisfied".
    pub fn rows_mut<'s, V>(&'s mut self, range: Range<usize>) -> Result<V, DataError>
    where
        R: NodeMut<ViewsMut<'s> = V>,
    {
        self.check_range(&range)?;
        Ok(self.record.node_views_mut(range))
    }

    /// Sample `i`, to write in place (the proposal's `s = d[i]` then `s.input = val` or
    /// `s *= val`): [`Dataset::rows_mut`] of the one row.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::data::Dataset;
    /// use batchspec::types::Arith;
    ///
    /// #[derive(DataSpec)]
    /// struct Record {
    ///     #[spec(source = "features")]
    ///     x: Batch<Vector<2>>,
    /// }
    /// let mut ds = Dataset::new(Record { x: Batch::new(ndarray::array![[0., 1.], [2., 3.]])? })?;
    /// let mut s = ds.sample_mut(1)?;
    /// s.x.apply_scalar(Arith::Mul, 10.0)?; // the proposal's `s *= val`, on a field
    /// assert_eq!(ds.fields().x.array(), &ndarray::array![[0., 1.], [20., 30.]]);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`SpecError::Row`] for `i` not below [`Dataset::len`]; [`DataError::Invalidated`].
    pub fn sample_mut<'s, V>(&'s mut self, i: usize) -> Result<V, DataError>
    where
        R: NodeMut<ViewsMut<'s> = V>,
    {
        self.rows_mut(i..i.saturating_add(1))
    }

    /// Writes the samples of `values` into the rows `rows` (the proposal's writes into a
    /// selection, `d[rows] = values`): sample `j` of `values` into row `rows[j]`, in order (a
    /// row named twice keeps the last). A sequence field takes the time steps of what is
    /// written, as a selection does.
    ///
    /// # Errors
    /// [`SpecError::Row`] for a row not below [`Dataset::len`]; [`DataError::WriteRows`] when
    /// `values` holds another number of samples than `rows`; [`DataError::Invalidated`].
    /// Nothing is written then.
    pub fn write_rows(&mut self, rows: &[usize], values: &R) -> Result<(), DataError>
    where
        R: GatherSame,
    {
        self.check_rows(rows)?;
        let given = values.validate()?;
        if given != rows.len() {
            return Err(DataError::WriteRows {
                rows: rows.len(),
                samples: given,
            });
        }
        for (j, &row) in rows.iter().enumerate() {
            R::gather_same(&mut self.record, values, &[j], row);
        }
        Ok(())
    }

    /// `op` applied to every field with the same field of `other` (the proposal's
    /// `d -= numpy.mean(d())`): sample by sample when `other` holds as many samples as the
    /// dataset, or `other`'s one sample applied to every sample. Every field is checked before
    /// any is written; see [`Batch::apply`] for the rules (no other broadcast, labels refused,
    /// integers never wrapped).
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::data::Dataset;
    /// use batchspec::types::Arith;
    ///
    /// #[derive(DataSpec)]
    /// struct Record {
    ///     #[spec(source = "features")]
    ///     x: Batch<Vector<2>>,
    ///     #[spec(source = "context")]
    ///     c: Batch<Vector<1, f64>>,
    /// }
    /// let mut ds = Dataset::new(Record {
    ///     x: Batch::new(ndarray::array![[1., 2.], [3., 6.]])?,
    ///     c: Batch::new(ndarray::array![[10.0], [20.0]])?,
    /// })?;
    /// let mean = Record {
    ///     x: Batch::new(ds.fields().x.array().mean_axis(ndarray::Axis(0)).unwrap().insert_axis(ndarray::Axis(0)))?,
    ///     c: Batch::new(ds.fields().c.array().mean_axis(ndarray::Axis(0)).unwrap().insert_axis(ndarray::Axis(0)))?,
    /// };
    /// ds.apply(Arith::Sub, &mean)?; // centered
    /// assert_eq!(ds.fields().x.array(), &ndarray::array![[-1., -2.], [1., 2.]]);
    /// assert_eq!(ds.fields().c.array(), &ndarray::array![[-5.0], [5.0]]);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`SpecError::Broadcast`], [`SpecError::Arithmetic`] (naming the space and the value);
    /// [`DataError::Invalidated`]. Nothing is written then.
    pub fn apply(&mut self, op: Arith, other: &R) -> Result<(), DataError>
    where
        R: ApplyRecord,
    {
        self.check()?;
        other.validate()?;
        self.record.apply_record(op, other)?;
        Ok(())
    }
}
