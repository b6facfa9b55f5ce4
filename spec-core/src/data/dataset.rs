//! Datasets: the struct-of-arrays storage of a record spec, after the Pylearn dataset proposal.
//!
//! A [`Dataset<R>`] is a record `R` whose leaves hold every sample (all leaves the same number:
//! a dataset here is a table; a sample's sequence may have its own length, in a
//! [`Ragged`] leaf).
//! Fields are the record's own fields, so access is typed and named by the struct:
//! `dataset.fields().image`. Selection by range or by an index list gathers the rows into a new
//! record. Writes need `&mut Dataset` (the Pylearn dataset proposal's writes): values through
//! [`Dataset::fields_mut`], rows in place through [`Dataset::rows_mut`] and
//! [`Dataset::sample_mut`], a selection through
//! [`Dataset::write_rows`], arithmetic with a sample or a record through [`Dataset::apply`].
//! A dataset shared (`&Dataset`, `Arc<Dataset>`: what providers and prefetching take) is
//! read-only by ownership: nobody holding it can write.

use crate::data::error::DataError;
use crate::data::gather::GatherSame;
use crate::types::batch::{ArcBatch, Batch};
use crate::types::elem::{Arith, Element};
use crate::types::error::SpecError;
use crate::types::for_tuples;
use crate::types::hlist::{HNil, Pair};
use crate::types::ragged::{Ragged, SequenceSpace};
use crate::types::space::{Null, Space};
use crate::types::spec::{DataSpec, Described, FlatOf, Node};
use std::ops::Range;

/// Flat forms of owned leaves ([`FlatOf`] of a record or request), allocated for a number of
/// samples: owned batches, shared batches and ragged leaves, and [`Pair`]s of them.
pub trait AllocFlat: Sized {
    /// Zero-filled leaves of `batch` samples (and `time` steps for sequence spaces).
    fn alloc(batch: usize, time: usize) -> Self;

    /// Gives the leaves' memory to `spare`, for the next leaves of their element types to be
    /// read into without asking the system for (and page-faulting) new memory; leaves that do
    /// not own their memory alone are dropped.
    fn recycle(self, spare: &mut SpareBuffers) {
        let _ = spare;
    }
}

/// Vectors of leaf values kept for reuse: a stream reading window after window into leaves of
/// the same sizes gives each window's memory back once it is served, so reading the next one
/// touches memory that is already mapped. At most `limit` vectors are kept (the largest).
pub struct SpareBuffers {
    kept: Vec<Box<dyn core::any::Any + Send>>,
    // The capacity of each kept vector, in bytes.
    bytes: Vec<usize>,
    limit: usize,
}

impl core::fmt::Debug for SpareBuffers {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "SpareBuffers({} of at most {})",
            self.kept.len(),
            self.limit
        )
    }
}

impl SpareBuffers {
    /// Keeps at most `limit` vectors.
    pub fn new(limit: usize) -> Self {
        SpareBuffers {
            kept: Vec::new(),
            bytes: Vec::new(),
            limit,
        }
    }

    /// Keeps `values`' memory (its contents are dropped); past the limit, the smallest vector
    /// kept is freed.
    pub fn put<E: Element>(&mut self, mut values: Vec<E>) {
        values.clear();
        if values.capacity() == 0 || self.limit == 0 {
            return;
        }
        self.bytes
            .push(values.capacity() * core::mem::size_of::<E>());
        self.kept.push(Box::new(values));
        if self.kept.len() > self.limit
            && let Some((smallest, _)) = self.bytes.iter().enumerate().min_by_key(|&(_, b)| *b)
        {
            self.kept.swap_remove(smallest);
            self.bytes.swap_remove(smallest);
        }
    }

    /// An empty vector of `E` with the largest capacity kept, if one is.
    pub fn take<E: Element>(&mut self) -> Option<Vec<E>> {
        let (at, _) = self
            .kept
            .iter()
            .enumerate()
            .filter_map(|(i, b)| b.downcast_ref::<Vec<E>>().map(|v| (i, v.capacity())))
            .max_by_key(|&(_, c)| c)?;
        self.bytes.swap_remove(at);
        self.kept
            .swap_remove(at)
            .downcast::<Vec<E>>()
            .ok()
            .map(|b| *b)
    }

    /// The bytes of memory kept.
    pub fn bytes(&self) -> usize {
        self.bytes.iter().sum()
    }
}

impl AllocFlat for HNil {
    fn alloc(_: usize, _: usize) -> Self {
        HNil
    }
}

/// Leaves of at least this many bytes are backed by 2 MB pages where the system allows
/// ([`batchspec_kernel::advise_huge_pages`]; NumPy's threshold for the same advice).
pub const HUGE_PAGE_LEAF: usize = 4 << 20;

/// A zero-filled batch, its memory advised for 2 MB pages before anything is written to it when
/// it is large: the zeros come from the system untouched, so the pages are 2 MB from the first
/// write on.
fn zeros_advised<S: Space>(batch: usize, time: usize) -> Batch<S> {
    let out = Batch::<S>::zeros(batch, time);
    if let Some(values) = out.array().as_slice_memory_order() {
        advise_values(values, HUGE_PAGE_LEAF, false);
    }
    out
}

impl<S: Space> AllocFlat for Batch<S> {
    fn alloc(batch: usize, time: usize) -> Self {
        zeros_advised(batch, time)
    }

    fn recycle(self, spare: &mut SpareBuffers) {
        let (values, _) = self.into_array().into_raw_vec_and_offset();
        spare.put(values);
    }
}

impl<S: Space> AllocFlat for ArcBatch<S> {
    fn alloc(batch: usize, time: usize) -> Self {
        ArcBatch::<S>::from_checked(zeros_advised::<S>(batch, time).into_array().into_shared())
    }
}

impl<S: Space> AllocFlat for Ragged<S> {
    fn alloc(batch: usize, _: usize) -> Self {
        Ragged::empty(batch)
    }

    fn recycle(self, spare: &mut SpareBuffers) {
        spare.put(self.into_values());
    }
}

impl<A: AllocFlat, B: AllocFlat> AllocFlat for Pair<A, B> {
    fn alloc(batch: usize, time: usize) -> Self {
        Pair {
            first: A::alloc(batch, time),
            second: B::alloc(batch, time),
        }
    }

    fn recycle(self, spare: &mut SpareBuffers) {
        self.first.recycle(spare);
        self.second.recycle(spare);
    }
}

/// The samples of a record spec, stored leaf by leaf.
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
/// assert_eq!(ds.len(), 3);
/// assert_eq!(ds.fields().y.array()[2], 2);
/// let picked = ds.select(&[2, 0])?;
/// assert_eq!(picked.x.array(), &ndarray::array![[4., 5.], [0., 1.]]);
/// ds.fields_mut().x.array_mut().mapv_inplace(|v| v * 2.0); // in-place arithmetic on a field
/// assert_eq!(ds.fields().x.array()[[2, 1]], 10.0);
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct Dataset<R> {
    record: R,
    len: usize,
    /// Why the fields do not form a dataset, when a write through [`Dataset::fields_mut`] left
    /// them holding different numbers of samples: every row operation refuses until they agree.
    invalid: Option<SpecError>,
}

/// The fields of a dataset, writable (from [`Dataset::fields_mut`]). When it is dropped, the
/// dataset checks its fields again: if a field was replaced by one of another number of
/// samples, every row operation of the dataset is refused with
/// [`DataError::Invalidated`] (naming the fields) until a later write makes them agree.
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
    }
}

/// The leaves of a record, as memory ([`Dataset::huge_pages`]): implemented for the flat forms
/// of references to batches and ragged leaves.
pub trait LeafMemory {
    /// Advises the memory of every leaf of at least `min_bytes` held in one block for 2 MB pages
    /// ([`batchspec_kernel::advise_huge_pages`]); returns the bytes advised.
    fn advise_leaves(&self, min_bytes: usize, collapse: bool) -> usize;
}

impl LeafMemory for HNil {
    fn advise_leaves(&self, _: usize, _: bool) -> usize {
        0
    }
}

fn advise_values<E>(values: &[E], min_bytes: usize, collapse: bool) -> usize {
    if core::mem::size_of_val(values) < min_bytes {
        return 0;
    }
    batchspec_kernel::advise_huge_pages(values, collapse)
}

impl<S: Space, D: ndarray::Data<Elem = S::Elem>> LeafMemory for &Batch<S, D> {
    fn advise_leaves(&self, min_bytes: usize, collapse: bool) -> usize {
        self.array()
            .as_slice_memory_order()
            .map_or(0, |v| advise_values(v, min_bytes, collapse))
    }
}

impl<S: Space> LeafMemory for &Ragged<S> {
    fn advise_leaves(&self, min_bytes: usize, collapse: bool) -> usize {
        advise_values(self.values(), min_bytes, collapse)
    }
}

impl<A: LeafMemory, B: LeafMemory> LeafMemory for Pair<A, B> {
    fn advise_leaves(&self, min_bytes: usize, collapse: bool) -> usize {
        self.first.advise_leaves(min_bytes, collapse)
            + self.second.advise_leaves(min_bytes, collapse)
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

/// A dataset seen through a sub-spec of its fields (the proposal's `d[:, something]`, from
/// [`Dataset::project`]). Nothing is copied when it is made. [`Projection::view`] and
/// [`Projection::sample`] lend the record's own leaves, field by field in `Q`'s structure (no
/// copy; `Q` must ask for each source in the space the record holds it in,
/// [`ProjectFrom`](crate::matching::ProjectFrom)); [`Projection::get`], [`Projection::select`]
/// and [`Projection::slice`] gather only `Q`'s sources, each (source, space) once, converted in
/// the same pass, so that `d.project::<Q>().get(i)` is `d[i]` seen as `Q`.
pub struct Projection<'d, R, Q> {
    dataset: &'d Dataset<R>,
    request: core::marker::PhantomData<fn() -> Q>,
}

impl<'d, R: DataSpec, Q> Projection<'d, R, Q> {
    /// The samples in `range`, lent without a copy: `Q`'s structure (its generated
    /// `<Q>Mapped` struct, by `Q`'s field names) with a view of the record's leaf of each
    /// field's source at each leaf.
    ///
    /// # Errors
    /// [`SpecError::Row`] for a range past the end; [`SpecError::Reversed`];
    /// [`DataError::Invalidated`].
    // The views' type is a parameter fixed by the bound, so that a request that cannot be lent
    // is reported in the words of `ProjectFrom` at the call (see `Dataset::rows_mut`).
    pub fn view<V>(&self, range: Range<usize>) -> Result<V, DataError>
    where
        Q: crate::mapping::matching::ProjectFrom<R, Views<'d> = V>,
    {
        self.dataset.check_range(&range)?;
        Ok(Q::project_rows(&self.dataset.record, range))
    }

    /// Sample `i`, lent without a copy (see [`Projection::view`]).
    ///
    /// # Errors
    /// As [`Projection::view`].
    pub fn sample<V>(&self, i: usize) -> Result<V, DataError>
    where
        Q: crate::mapping::matching::ProjectFrom<R, Views<'d> = V>,
    {
        self.view(i..i.saturating_add(1))
    }
}

impl<R: DataSpec, Q: crate::mapping::serve::ServeFrom<R>> Projection<'_, R, Q> {
    /// The number of samples (the dataset's).
    pub fn len(&self) -> usize {
        self.dataset.len
    }

    /// `true` when the dataset has no samples.
    pub fn is_empty(&self) -> bool {
        self.dataset.len == 0
    }

    /// The samples `rows` seen as `Q`.
    ///
    /// # Errors
    /// [`SpecError::Row`] for a row not below [`Projection::len`]; [`DataError::Invalidated`].
    pub fn select(&self, rows: &[usize]) -> Result<Q, DataError> {
        self.dataset.check_rows(rows)?;
        let mut cache = crate::mapping::serve::ServeCache::new();
        cache.serve_rows(rows);
        Ok(Q::serve_from(&self.dataset.record, &mut cache))
    }

    /// Sample `i` seen as `Q` (the proposal's `d[i, something]`).
    ///
    /// # Errors
    /// As [`Projection::select`].
    pub fn get(&self, i: usize) -> Result<Q, DataError> {
        self.select(&[i])
    }

    /// The samples in `range` seen as `Q`.
    ///
    /// # Errors
    /// As [`Projection::select`]; [`SpecError::Reversed`].
    pub fn slice(&self, range: Range<usize>) -> Result<Q, DataError> {
        if range.start > range.end {
            return Err(SpecError::Reversed {
                start: range.start,
                end: range.end,
            }
            .into());
        }
        let rows: Vec<usize> = range.collect();
        self.select(&rows)
    }
}

/// A dataset's minibatches (the proposal's `d._minibatches(batch_size=5)`): consecutive
/// samples, the last minibatch shorter; an iterator, and indexable (`mb.get(0)` is
/// `d.slice(0..5)`).
pub struct Minibatches<'d, R> {
    dataset: &'d Dataset<R>,
    size: usize,
    next: usize,
    /// A size of 0 is reported once by the iterator.
    refused: bool,
}

impl<R: DataSpec + GatherSame> Minibatches<'_, R>
where
    FlatOf<R>: AllocFlat,
{
    /// The number of minibatches (0 for a size of 0).
    pub fn len(&self) -> usize {
        if self.size == 0 {
            0
        } else {
            self.dataset.len.div_ceil(self.size)
        }
    }

    /// `true` when there is no minibatch.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Minibatch `i`, as a new record.
    ///
    /// # Errors
    /// [`DataError::MinibatchSize`] for a size of 0; [`SpecError::Row`] for `i` not below
    /// [`Minibatches::len`].
    pub fn get(&self, i: usize) -> Result<R, DataError> {
        if self.size == 0 {
            return Err(DataError::MinibatchSize);
        }
        let start = i.saturating_mul(self.size);
        if i >= self.len() {
            return Err(SpecError::Row {
                row: i,
                position: 0,
                len: self.len(),
            }
            .into());
        }
        self.dataset
            .slice(start..start.saturating_add(self.size).min(self.dataset.len))
    }
}

impl<R: DataSpec + GatherSame> Iterator for Minibatches<'_, R>
where
    FlatOf<R>: AllocFlat,
{
    type Item = Result<R, DataError>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.size == 0 {
            return (!std::mem::replace(&mut self.refused, true))
                .then_some(Err(DataError::MinibatchSize));
        }
        if self.next >= self.len() {
            return None;
        }
        self.next += 1;
        Some(self.get(self.next - 1))
    }
}

impl<R: DataSpec> Dataset<R> {
    /// A dataset of the samples of `record`.
    ///
    /// # Errors
    /// [`SpecError::BatchSize`] when the leaves hold different numbers of samples.
    pub fn new(record: R) -> Result<Self, DataError> {
        let len = record.validate()?;
        Ok(Dataset {
            record,
            len,
            invalid: None,
        })
    }

    /// The number of samples, or why the fields do not form a dataset (after a write through
    /// [`Dataset::fields_mut`] that left them holding different numbers of samples).
    ///
    /// # Errors
    /// [`DataError::Invalidated`].
    pub fn check(&self) -> Result<usize, DataError> {
        match &self.invalid {
            Some(e) => Err(DataError::Invalidated(e.clone())),
            None => Ok(self.len),
        }
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when the dataset has no samples.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The fields, typed and named by the record struct.
    pub fn fields(&self) -> &R {
        &self.record
    }

    /// The record, taken out of the dataset (its leaves hold every sample).
    pub fn into_fields(self) -> R {
        self.record
    }

    /// The fields, to write into or to change in place (the proposal's `d.input = val`). A field
    /// replaced by one of another number of samples makes the dataset refuse every row
    /// operation, naming the fields, until they agree again ([`FieldsMut`]); it never serves
    /// rows that some field lacks.
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
        FieldsMut { dataset: self }
    }

    /// The samples in `range`, to write in place (the proposal's writable views): the record's
    /// fields by name, each a mutable view of those rows of the dataset's own memory
    /// ([`BatchViewMut`](crate::BatchViewMut), [`RaggedViewMut`](crate::RaggedViewMut), the
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
        R: crate::types::spec::NodeMut<ViewsMut<'s> = V>,
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
        R: crate::types::spec::NodeMut<ViewsMut<'s> = V>,
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

    /// The record, giving up the dataset.
    pub fn into_record(self) -> R {
        self.record
    }

    /// The samples in `range` as views, without copying: the record's fields by name (its
    /// generated `<Record>Mapped` struct, and each nested spec's), a
    /// [`BatchView`](crate::types::batch::BatchView) (or a [`RaggedView`](crate::RaggedView)) at
    /// each leaf.
    ///
    /// # Errors
    /// [`SpecError::Row`] for a range past the end.
    pub fn view(
        &self,
        range: Range<usize>,
    ) -> Result<crate::types::spec::ViewsOf<'_, R>, DataError> {
        self.check_range(&range)?;
        Ok(self.record.node_views(range))
    }

    /// Sample `i` as views of one sample, without copying (see [`Dataset::view`]; [`Dataset::get`]
    /// gives it as a record of one sample instead).
    ///
    /// # Errors
    /// [`SpecError::Row`] for `i` not below [`Dataset::len`].
    pub fn sample(&self, i: usize) -> Result<crate::types::spec::ViewsOf<'_, R>, DataError> {
        // `usize::MAX..usize::MAX` is past the end like any other `i..i + 1` there.
        self.view(i..i.saturating_add(1))
    }

    /// Every leaf with its source and its shape for the whole dataset.
    pub fn describe(&self) -> Vec<Described> {
        R::describe(self.len)
    }

    /// Moves every leaf of 4 MB or more ([`HUGE_PAGE_LEAF`]) onto 2 MB pages, where the system
    /// allows (Linux with transparent huge pages `madvise` or `always`; `MADV_HUGEPAGE` then
    /// `MADV_COLLAPSE`), and returns the bytes advised (0 elsewhere). A shuffled gather reads
    /// rows at random places; on 2 MB pages a leaf of hundreds of megabytes fits the processor's
    /// address-translation cache, and a shuffled epoch ran about 20 % faster here
    /// (`benches/src/gather.rs`). The kernel copies the pages once, about a millisecond or two
    /// per megabyte on the machine measured; no value changes. Leaves the library allocates
    /// (selections, permutations, a provider's and a stream's batches) are advised when they
    /// are made, before anything is written to them, and need no collapse.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::data::Dataset;
    ///
    /// #[derive(DataSpec)]
    /// struct Record {
    ///     #[spec(source = "features")]
    ///     x: Batch<Vector<784>>,
    /// }
    /// let ds = Dataset::new(Record { x: Batch::new(ndarray::Array2::ones((4096, 784)))? })?;
    /// let advised = ds.huge_pages(); // 12.8 MB of features: at least 10 MB advised on Linux
    /// assert_eq!(ds.fields().x.array()[[4095, 783]], 1.0);
    /// # let _ = advised;
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    pub fn huge_pages(&self) -> usize
    where
        for<'a> <R as crate::types::spec::Node<()>>::FlatRef<'a>: LeafMemory,
    {
        self.record
            .flatten_ref()
            .advise_leaves(HUGE_PAGE_LEAF, true)
    }

    fn check_range(&self, range: &Range<usize>) -> Result<(), DataError> {
        self.check()?;
        if range.start > range.end {
            return Err(SpecError::Reversed {
                start: range.start,
                end: range.end,
            }
            .into());
        }
        if range.end > self.len {
            // The first row asked for that is not there.
            return Err(SpecError::Row {
                row: range.start.max(self.len),
                position: range.start.max(self.len) - range.start,
                len: self.len,
            }
            .into());
        }
        Ok(())
    }

    fn check_rows(&self, rows: &[usize]) -> Result<(), DataError> {
        self.check()?;
        match rows.iter().position(|&r| r >= self.len) {
            Some(p) => Err(SpecError::Row {
                row: rows[p],
                position: p,
                len: self.len,
            }
            .into()),
            None => Ok(()),
        }
    }

    /// The samples `rows` (any order, repeats allowed: fancy indexing) as a new record.
    ///
    /// # Errors
    /// [`SpecError::Row`] for a row not below [`Dataset::len`].
    pub fn select(&self, rows: &[usize]) -> Result<R, DataError>
    where
        FlatOf<R>: AllocFlat,
        R: GatherSame,
    {
        self.check_rows(rows)?;
        let mut out = R::nest(FlatOf::<R>::alloc(rows.len(), 0));
        R::gather_same(&mut out, &self.record, rows, 0);
        Ok(out)
    }

    /// The samples in `range` as a new record.
    ///
    /// # Errors
    /// [`SpecError::Row`] for a range past the end.
    pub fn slice(&self, range: Range<usize>) -> Result<R, DataError>
    where
        FlatOf<R>: AllocFlat,
        R: GatherSame,
    {
        self.check_range(&range)?;
        let rows: Vec<usize> = range.collect();
        self.select(&rows)
    }

    /// Sample `i` as a record of one sample (a copy; [`Dataset::sample`] borrows instead).
    ///
    /// # Errors
    /// [`SpecError::Row`] for `i` not below [`Dataset::len`].
    pub fn get(&self, i: usize) -> Result<R, DataError>
    where
        FlatOf<R>: AllocFlat,
        R: GatherSame,
    {
        self.select(&[i])
    }

    /// The dataset with its samples reordered: sample `j` of the result is sample
    /// `permutation[j]` (shuffling by an index permutation).
    ///
    /// # Errors
    /// [`DataError::NotAPermutation`] when `permutation` is not a permutation of `0..len`.
    pub fn permuted(&self, permutation: &[usize]) -> Result<Dataset<R>, DataError>
    where
        FlatOf<R>: AllocFlat,
        R: GatherSame,
    {
        self.check()?;
        let mut seen = vec![false; self.len];
        let ok = permutation.len() == self.len
            && permutation
                .iter()
                .all(|&p| p < self.len && !std::mem::replace(&mut seen[p], true));
        if !ok {
            return Err(DataError::NotAPermutation {
                len: self.len,
                given: permutation.len(),
            });
        }
        Dataset::new(self.select(permutation)?)
    }

    /// The samples one by one, each as a record of one sample (a copy: a sample of a
    /// struct-of-arrays record is a row of every leaf).
    pub fn samples<'r>(&'r self) -> impl Iterator<Item = Result<R, DataError>> + 'r
    where
        FlatOf<R>: AllocFlat,
        R: GatherSame,
    {
        (0..self.len).map(move |i| self.get(i))
    }

    /// The dataset seen through the sub-spec `Q` of its fields (the proposal's
    /// `d[:, something]`), without a copy: [`Projection::view`] lends the record's leaves of
    /// `Q`'s sources by `Q`'s field names; [`Projection::get`] and [`Projection::select`] gather
    /// `Q`'s sources only, converted. `Q` is checked against the record at compile time.
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
    /// #[derive(DataSpec)]
    /// struct Targets {
    ///     #[spec(source = "targets")]
    ///     y: Batch<Labels<3>>,
    /// }
    /// let ds = Dataset::new(Record {
    ///     x: Batch::new(ndarray::array![[0., 1.], [2., 3.], [4., 5.]])?,
    ///     y: Batch::new(ndarray::array![0i64, 1, 2])?,
    /// })?;
    /// let targets = ds.project::<Targets>();
    /// // Lent: the record's own memory, by the request's field names.
    /// let lent = targets.view(1..3)?;
    /// assert_eq!(lent.y.array(), &ndarray::array![1i64, 2]);
    /// assert_eq!(lent.y.array().as_ptr(), &ds.fields().y.array()[1] as *const i64);
    /// assert_eq!(targets.get(2)?.y.array(), ds.get(2)?.y.array()); // d[i, something] == d[i][something]
    /// assert_eq!(targets.slice(0..2)?.y.array(), &ndarray::array![0i64, 1]);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    pub fn project<Q: crate::mapping::matching::Reads<R>>(&self) -> Projection<'_, R, Q> {
        Projection {
            dataset: self,
            request: core::marker::PhantomData,
        }
    }

    /// Consecutive minibatches of `size` samples (the last one shorter), as new records: an
    /// iterator, and indexable ([`Minibatches::get`]; the proposal's
    /// `mb_dataset[0]() == d[0:5]()`). A size of 0 yields one error
    /// ([`DataError::MinibatchSize`]) and nothing else.
    pub fn minibatches(&self, size: usize) -> Minibatches<'_, R>
    where
        FlatOf<R>: AllocFlat,
        R: GatherSame,
    {
        Minibatches {
            dataset: self,
            size,
            next: 0,
            refused: false,
        }
    }
}

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
    message = "a field of type `{Self}` cannot be loaded from a file",
    label = "a dataset reads every leaf as an owned `Batch<S>`",
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

impl<R: DataSpec> Dataset<R> {
    /// Reads a dataset from `source`, leaf by leaf, and checks that the leaves agree on the
    /// number of samples. Every leaf of `R` must be an owned [`Batch`].
    ///
    /// # Errors
    /// The first error of the source, or [`SpecError::BatchSize`] naming two fields that differ.
    pub fn load<L: LeafSource>(source: &mut L) -> Result<Self, L::Error>
    where
        R: LoadRecord,
    {
        let leaves = R::describe(0);
        let record = R::load_record(source, &mut leaves.iter())?;
        match Dataset::new(record) {
            Err(DataError::Spec(SpecError::BatchSize {
                first_field,
                first,
                field,
                actual,
            })) => {
                // Two leaves disagree: name where each was read from, when the source knows.
                let at = |name: &str| leaves.iter().find(|d| d.field == name);
                let words = |name: &str| match at(name) {
                    Some(d) => match source.origin(d) {
                        Some(origin) => format!("field `{name}` (source `{}`, {origin})", d.source),
                        None => format!("field `{name}` (source `{}`)", d.source),
                    },
                    None => format!("field `{name}`"),
                };
                Err(DataError::SourcesDisagree {
                    first: words(&first_field),
                    first_samples: first,
                    other: words(&field),
                    other_samples: actual,
                }
                .into())
            }
            other => Ok(other?),
        }
    }
}

/// A [`SpecView`](crate::view::SpecView)'s rows (dp's `index` and `sub`): they gather with the
/// dataset's gathers, so they are written here.
impl<R: DataSpec + GatherSame, G: Element> crate::view::SpecView<R, G>
where
    FlatOf<R>: AllocFlat,
{
    /// A view of the samples `indices` of the record (any order, repeats allowed), put into
    /// `out` (dp's `index`).
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::view::SpecView;
    ///
    /// #[derive(DataSpec)]
    /// struct Pair {
    ///     #[spec(source = "x")]
    ///     x: Batch<Vector<2>>,
    ///     #[spec(source = "y")]
    ///     y: Batch<Labels<10>>,
    /// }
    /// let mut view = SpecView::<Pair>::new();
    /// view.put(Pair {
    ///     x: Batch::new(ndarray::array![[0f32, 1.], [2., 3.], [4., 5.]])?,
    ///     y: Batch::new(ndarray::array![7i64, 8, 9])?,
    /// });
    /// let mut picked = SpecView::<Pair>::new();
    /// view.index_into(&[2, 0], &mut picked)?;
    /// assert_eq!(picked.base()?.y.array(), &ndarray::array![9i64, 7]);
    /// view.sub_into(1, 3, &mut picked)?;
    /// assert_eq!(picked.base()?.x.array(), &ndarray::array![[2f32, 3.], [4., 5.]]);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`ViewError::ViewEmpty`](crate::view::ViewError::ViewEmpty) before the first put;
    /// [`SpecError::Row`] for an index past the end.
    pub fn index_into(
        &self,
        indices: &[usize],
        out: &mut crate::view::SpecView<R, G>,
    ) -> Result<(), crate::view::ViewError> {
        let base = self
            .base
            .as_ref()
            .ok_or(crate::view::ViewError::ViewEmpty)?;
        let len = base.validate()?;
        if let Some(p) = indices.iter().position(|&r| r >= len) {
            return Err(SpecError::Row {
                row: indices[p],
                position: p,
                len,
            }
            .into());
        }
        let mut record = R::nest(FlatOf::<R>::alloc(indices.len(), 0));
        R::gather_same(&mut record, base, indices, 0);
        out.put(record);
        Ok(())
    }

    /// A view of the samples `start..stop` of the record, put into `out` (dp's `sub`).
    ///
    /// # Errors
    /// As [`SpecView::index_into`](crate::view::SpecView::index_into); [`SpecError::Reversed`]
    /// when `start > stop`.
    pub fn sub_into(
        &self,
        start: usize,
        stop: usize,
        out: &mut crate::view::SpecView<R, G>,
    ) -> Result<(), crate::view::ViewError> {
        if start > stop {
            return Err(SpecError::Reversed { start, end: stop }.into());
        }
        let rows: Vec<usize> = (start..stop).collect();
        self.index_into(&rows, out)
    }
}

#[cfg(test)]
mod tests {
    use super::SpareBuffers;

    #[test]
    fn spare_buffers_keep_the_largest_up_to_their_limit_by_element_type() {
        let mut spare = SpareBuffers::new(2);
        spare.put(vec![1.0f32; 10]);
        spare.put(vec![1u8; 1000]);
        spare.put(vec![1.0f32; 100]);
        // Three put, two kept: the 40-byte f32 vector is the smallest and freed.
        assert_eq!(spare.bytes(), 1000 + 400);
        assert!(spare.take::<f64>().is_none());
        let v = spare.take::<f32>().unwrap();
        assert!(v.is_empty() && v.capacity() >= 100);
        assert!(spare.take::<f32>().is_none());
        assert_eq!(spare.take::<u8>().unwrap().capacity(), 1000);
        assert_eq!(spare.bytes(), 0);
        SpareBuffers::new(0).put(vec![1i64; 8]);
    }
}
