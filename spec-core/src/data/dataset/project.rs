//! Projections: a dataset seen through a sub-spec of its fields ([`Dataset::project`], the
//! Pylearn dataset proposal's `d[:, something]`), lent without a copy or gathered, converted.

use crate::data::dataset::Dataset;
use crate::data::error::DataError;
use crate::mapping::matching::ProjectFrom;
use crate::types::error::SpecError;
use crate::types::spec::DataSpec;
use std::ops::Range;

/// A dataset seen through a sub-spec of its fields (the proposal's `d[:, something]`, from
/// [`Dataset::project`]). Nothing is copied when it is made. [`Projection::view`] and
/// [`Projection::sample`] lend the record's own leaves, field by field in `Q`'s structure (no
/// copy; `Q` must ask for each source in the space the record holds it in,
/// [`ProjectFrom`](crate::mapping::ProjectFrom)); [`Projection::get`], [`Projection::select`]
/// and [`Projection::slice`] gather only `Q`'s sources, each (source, space) once, converted in
/// the same pass, so that `d.project::<Q>().get(i)` is `d[i]` seen as `Q`.
pub struct Projection<'d, R, Q> {
    pub(super) dataset: &'d Dataset<R>,
    pub(super) request: core::marker::PhantomData<fn() -> Q>,
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
        Q: ProjectFrom<R, Views<'d> = V>,
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
        Q: ProjectFrom<R, Views<'d> = V>,
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
