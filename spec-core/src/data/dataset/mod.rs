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
//!
//! Every method of the dataset is here, by concept: reads, selections, writes, projections,
//! memory and loading (a compile error names a method's bound as `Dataset::<R>::project` only
//! when the method is in the type's own module; elsewhere rustc names the file's path). What
//! each concept needs besides is in its file: the minibatches (`select.rs`), the writes' guard
//! and arithmetic (`write.rs`), the projection (`project.rs`), the allocation of leaves
//! (`alloc.rs`) and their pages (`memory.rs`), and the loading traits ([`LeafSource`],
//! [`LoadRecord`], in `source.rs`, which the `load` part's loaders implement).

mod alloc;
mod memory;
mod project;
mod select;
mod source;
mod write;

pub(crate) use alloc::gather_owned;
pub use alloc::{AllocFlat, SpareBuffers};
pub use memory::{HUGE_PAGE_LEAF, LeafMemory};
pub use project::Projection;
pub use select::Minibatches;
pub use source::{
    BorrowedBatch, LeafSource, LoadField, LoadRecord, LoadableBatch, LoadedFromFile, SharedBatch,
};
pub use write::{ApplyLeaves, ApplyRecord, FieldsMut};

use crate::data::error::DataError;
use crate::data::gather::GatherSame;
use crate::mapping::matching::Reads;
use crate::types::elem::Arith;
use crate::types::error::SpecError;
use crate::types::spec::{DataSpec, Described, FlatOf, NodeMut};
use std::ops::Range;

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
    /// A [`FieldsMut`] guard was made and has not been dropped: it was leaked, since it borrows
    /// the dataset while it lives. Every row operation refuses until a guard is dropped.
    unchecked: bool,
}

impl<R> Dataset<R> {
    /// The record, giving up the dataset.
    pub fn into_record(self) -> R {
        self.record
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
            unchecked: false,
        })
    }

    /// The number of samples, or why the fields do not form a dataset (after a write through
    /// [`Dataset::fields_mut`] that left them holding different numbers of samples, or whose
    /// guard was leaked).
    ///
    /// # Errors
    /// [`DataError::Invalidated`], [`DataError::FieldsUnchecked`].
    pub fn check(&self) -> Result<usize, DataError> {
        if self.unchecked {
            return Err(DataError::FieldsUnchecked);
        }
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

    /// The samples in `range` as views, without copying: the record's fields by name (its
    /// generated `<Record>Mapped` struct, and each nested spec's), a
    /// [`BatchView`](crate::types::batch::BatchView) (or a [`RaggedView`](crate::types::RaggedView)) at
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
}

// Selections: the samples gathered into a new record (the minibatches in `select.rs`).
impl<R: DataSpec> Dataset<R> {
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

// Writes (the guard and the arithmetic in `write.rs`).
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
    /// [`Batch::set_label`](crate::types::Batch::set_label),
    /// [`Batch::update`](crate::types::Batch::update) or
    /// [`Batch::assign`](crate::types::Batch::assign), all checked) and cannot change the number
    /// of samples or a sample's length.
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
    /// any is written; see [`Batch::apply`](crate::types::Batch::apply) for the rules (no other
    /// broadcast, labels refused, integers never wrapped).
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

// Projections (the `Projection` in `project.rs`).
impl<R: DataSpec> Dataset<R> {
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
    pub fn project<Q: Reads<R>>(&self) -> Projection<'_, R, Q> {
        Projection {
            dataset: self,
            request: core::marker::PhantomData,
        }
    }
}

// Memory: leaves on 2 MB pages (`memory.rs`).
impl<R: DataSpec> Dataset<R> {
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
}

// Loading from a source (the loading traits in `source.rs`).
impl<R: DataSpec> Dataset<R> {
    /// Reads a dataset from `source`, leaf by leaf, and checks that the leaves agree on the
    /// number of samples. Every leaf of `R` must be an owned [`Batch`](crate::types::Batch).
    ///
    /// # Errors
    /// The first error of the source, or [`SpecError::BatchSize`] naming two fields that differ.
    pub fn load<L: LeafSource>(source: &mut L) -> Result<Self, L::Error>
    where
        R: LoadRecord,
    {
        let leaves = R::describe(0);
        source.prepare(&leaves)?;
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
