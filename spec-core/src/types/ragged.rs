//! Ragged leaves: samples of a sequence space that have different lengths, stored as Arrow
//! stores a `List` column: every sample's steps one after the other in one vector of values, and
//! an offsets vector saying where each sample starts.
//!
//! A [`Ragged<S>`] is a record field like a [`Batch<S>`]: a dataset holds it, selections and
//! permutations gather it into a new ragged leaf, and a provider serves it into a request's
//! `Batch<S>` padded to the longest sample of each batch (or into a `Ragged<S>` as it is).
//! It is checked once, where it is built; after that every sample's shape is a fact.

use crate::types::batch::{Batch, BatchView};
use crate::types::elem::Element;
use crate::types::error::{Position, Shape, SpecError};
use crate::types::space::{IndexSeq, Space, VectorSeq, VolumeSeq};
use core::fmt;
use core::marker::PhantomData;
use ndarray::{ArrayBase, ArrayView, ArrayViewMut, Data, Dimension, IxDyn, ShapeBuilder};

/// A space with a time axis, whose samples can have different lengths: [`VectorSeq`],
/// [`IndexSeq`] and [`VolumeSeq`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no time axis: a `Ragged` leaf holds sequences of different lengths",
    label = "not a sequence space",
    note = "a ragged leaf is a `VectorSeq<D>`, an `IndexSeq<M>` or a `VolumeSeq<..>`; samples of one fixed shape are a `Batch`"
)]
pub trait SequenceSpace: Space {}

#[diagnostic::do_not_recommend]
impl<const D: usize, L: crate::types::space::VectorSeqLayout, E: crate::types::elem::Element>
    SequenceSpace for VectorSeq<D, L, E>
{
}
#[diagnostic::do_not_recommend]
impl<const M: usize, L: crate::types::space::IndexSeqLayout, E: crate::types::elem::IndexElement>
    SequenceSpace for IndexSeq<M, L, E>
{
}
#[diagnostic::do_not_recommend]
impl<
    const D: usize,
    const H: usize,
    const W: usize,
    const C: usize,
    L: crate::types::space::VolumeSeqLayout,
    E: crate::types::elem::Element,
> SequenceSpace for VolumeSeq<D, H, W, C, L, E>
{
}

/// The axes of one step of `S` (every axis but the batch and time axes) in memory order: their
/// letters' positions and sizes.
fn step_axes<S: Space>() -> impl Iterator<Item = (usize, usize)> {
    S::SHAPE
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|n| (i, n)))
}

/// The number of values of one step of `S`.
pub(crate) fn step_len<S: Space>() -> usize {
    step_axes::<S>().map(|(_, n)| n).product()
}

/// The shape and strides of one sample of `t` steps stored as a ragged leaf stores it (steps one
/// after the other, each step's axes in `S`'s memory order), seen as a batch of one sample of `S`.
/// Built without allocating: a gather computes it for every sample.
fn sample_layout<S: Space>(t: usize) -> (S::Dim, S::Dim) {
    let shape = crate::types::space::dim_of::<S>(1, t);
    let mut strides = S::Dim::zeros(S::SHAPE.len());
    let mut stride = 1;
    for (i, s) in S::SHAPE.iter().enumerate().rev() {
        if let Some(n) = s {
            strides[i] = stride;
            stride *= n;
        }
    }
    if let Some(ta) = S::TIME_AXIS {
        strides[ta] = stride;
    }
    (shape, strides)
}

/// Views `values` (one sample of `t` steps) as a batch of one sample of `S`.
pub(crate) fn sample_view<S: Space>(
    values: &[S::Elem],
    t: usize,
) -> ArrayView<'_, S::Elem, S::Dim> {
    let (shape, strides) = sample_layout::<S>(t);
    // ndarray refuses custom strides over an empty slice; an empty sample needs none.
    let shaped = if t == 0 {
        ArrayView::from_shape(shape, values)
    } else {
        ArrayView::from_shape(shape.strides(strides), values)
    };
    shaped.unwrap_or_else(|_| unreachable!("a sample holds t steps of the step's size"))
}

/// Views `values` (room for one sample of `t` steps) mutably as a batch of one sample of `S`.
pub(crate) fn sample_view_mut<S: Space>(
    values: &mut [S::Elem],
    t: usize,
) -> ArrayViewMut<'_, S::Elem, S::Dim> {
    let (shape, strides) = sample_layout::<S>(t);
    let shaped = if t == 0 {
        ArrayViewMut::from_shape(shape, values)
    } else {
        ArrayViewMut::from_shape(shape.strides(strides), values)
    };
    shaped.unwrap_or_else(|_| unreachable!("a sample holds t steps of the step's size"))
}

/// Samples of the sequence space `S` with different numbers of steps: values and offsets, as
/// Arrow's `List`.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::types::Ragged;
///
/// // Three sentences of token ids, of 3, 1 and 2 tokens.
/// let tokens = Ragged::<IndexSeq<100>>::from_flat_samples([vec![5i64, 7, 9], vec![2], vec![4, 4]])?;
/// assert_eq!(tokens.len(), 3);
/// assert_eq!(tokens.lengths().collect::<Vec<_>>(), [3, 1, 2]);
/// assert_eq!(tokens.max_len(), 3);
/// // Padded to the longest, in the space's own layout (`bt`):
/// assert_eq!(tokens.to_padded().array(), &ndarray::array![[5i64, 7, 9], [2, 0, 0], [4, 4, 0]]);
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct Ragged<S: Space> {
    values: Vec<S::Elem>,
    // In steps: sample `i` is the steps `offsets[i]..offsets[i + 1]`; `offsets[0] == 0`.
    offsets: Vec<usize>,
    space: PhantomData<fn() -> S>,
}

/// Some samples of a [`Ragged`] leaf, borrowed.
pub struct RaggedView<'a, S: Space> {
    values: &'a [S::Elem],
    // Into `values` (in steps), one more than the samples; not rebased.
    offsets: &'a [usize],
    space: PhantomData<fn() -> S>,
}

/// Some samples of a [`Ragged`] leaf, borrowed mutably (from [`Dataset::rows_mut`]): the
/// values of each sample can be written in place, its length cannot change.
///
/// [`Dataset::rows_mut`]: crate::data::Dataset::rows_mut
pub struct RaggedViewMut<'a, S: Space> {
    values: &'a mut [S::Elem],
    // Into `values` (in steps), one more than the samples; not rebased.
    offsets: &'a [usize],
    space: PhantomData<fn() -> S>,
}

impl<S: Space> Clone for RaggedView<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Space> Copy for RaggedView<'_, S> {}

impl<S: Space> Clone for Ragged<S> {
    fn clone(&self) -> Self {
        Ragged {
            values: self.values.clone(),
            offsets: self.offsets.clone(),
            space: PhantomData,
        }
    }
}

impl<S: Space> fmt::Debug for Ragged<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ragged")
            .field("space", &S::describe())
            .field("lengths", &self.view().lengths().collect::<Vec<_>>())
            .field("values", &self.values)
            .finish()
    }
}

impl<S: Space> PartialEq for Ragged<S> {
    fn eq(&self, other: &Self) -> bool {
        self.offsets == other.offsets && self.values == other.values
    }
}

fn offsets_error<S: Space>(reason: String) -> SpecError {
    SpecError::Offsets {
        space: S::describe(),
        reason,
    }
}

/// The shape of one step of `S`, in memory order.
fn step_shape<S: Space>() -> Vec<usize> {
    step_axes::<S>().map(|(_, n)| n).collect()
}

impl<S: SequenceSpace> Ragged<S> {
    /// The leaf of `values` split by `offsets` (in steps, as Arrow's `List` offsets count
    /// entries): sample `i` is the steps `offsets[i]..offsets[i + 1]`, each step the values of
    /// one time step in `S`'s memory order without the batch and time axes.
    ///
    /// # Errors
    /// [`SpecError::Offsets`] when the offsets are empty, do not start at 0, decrease, or do not
    /// end at the number of steps the values hold; [`SpecError::Label`] for a label of an index
    /// sequence outside `0..M` (its position is `[sample, step, ..]`).
    pub fn from_parts(values: Vec<S::Elem>, offsets: Vec<usize>) -> Result<Self, SpecError> {
        S::check_space().map_err(|reason| SpecError::Space {
            space: S::describe(),
            reason,
        })?;
        let step = step_len::<S>();
        match offsets.first() {
            None => {
                return Err(offsets_error::<S>(
                    "are empty: they need at least one (0)".into(),
                ));
            }
            Some(&first) if first != 0 => {
                return Err(offsets_error::<S>(format!("start at {first}, not at 0")));
            }
            _ => {}
        }
        if let Some(i) = offsets.windows(2).position(|w| w[1] < w[0]) {
            return Err(offsets_error::<S>(format!(
                "decrease at sample {i}: {} then {}",
                offsets[i],
                offsets[i + 1]
            )));
        }
        let last = offsets.last().copied().unwrap_or(0);
        if step == 0 || values.len() % step != 0 || last != values.len() / step {
            return Err(offsets_error::<S>(format!(
                "end at step {last}, but the {} values hold {} steps of {step}{}",
                values.len(),
                values.len() / step.max(1),
                if step > 0 && values.len() % step != 0 {
                    format!(" and {} values more", values.len() % step)
                } else {
                    String::new()
                }
            )));
        }
        let r = Ragged {
            values,
            offsets,
            space: PhantomData,
        };
        r.check_labels()?;
        Ok(r)
    }

    fn check_labels(&self) -> Result<(), SpecError> {
        let Some(max) = S::MAX_LABELS else {
            return Ok(());
        };
        let bad = self
            .values
            .iter()
            .position(|v| !matches!(v.to_label(), Some(l) if l < max));
        let Some(at) = bad else {
            return Ok(());
        };
        let step = step_len::<S>().max(1);
        let (global_step, within) = (at / step, at % step);
        let sample = self.offsets.partition_point(|&o| o <= global_step) - 1;
        let mut position = vec![sample, global_step - self.offsets[sample]];
        if step > 1 {
            position.push(within);
        }
        Err(SpecError::Label {
            space: S::describe(),
            position: Position(position),
            value: self.values[at].to_string(),
            max_labels: max,
        })
    }

    /// The leaf of `samples`, each an array of shape `(t, ..)`: its steps, each of the step's
    /// shape in `S`'s memory order (`(t, D)` for a `VectorSeq<D>`, `(t,)` for an `IndexSeq`).
    ///
    /// # Errors
    /// [`SpecError::Step`] naming the first sample of another shape, and the errors of
    /// [`Ragged::from_parts`].
    pub fn from_samples<T, D>(
        samples: impl IntoIterator<Item = ArrayBase<T, D>>,
    ) -> Result<Self, SpecError>
    where
        T: Data<Elem = S::Elem>,
        D: Dimension,
    {
        let step = step_shape::<S>();
        let mut values = Vec::new();
        let mut offsets = vec![0];
        for (i, a) in samples.into_iter().enumerate() {
            if a.ndim() != step.len() + 1 || a.shape()[1..] != step[..] {
                return Err(SpecError::Step {
                    space: S::describe(),
                    sample: i,
                    shape: Shape(a.shape().to_vec()),
                    step: Shape(step.clone()),
                });
            }
            values.extend(a.iter().copied());
            offsets.push(offsets[i] + a.shape()[0]);
        }
        Self::from_parts(values, offsets)
    }

    /// The leaf of `samples` given as flat values, each a whole number of steps (`t × D` values
    /// for a `VectorSeq<D>`, step by step; `t` labels for an `IndexSeq`).
    ///
    /// # Errors
    /// [`SpecError::Step`] naming the first sample that is not a whole number of steps, and the
    /// errors of [`Ragged::from_parts`].
    pub fn from_flat_samples<A: AsRef<[S::Elem]>>(
        samples: impl IntoIterator<Item = A>,
    ) -> Result<Self, SpecError> {
        let step = step_len::<S>();
        let mut values = Vec::new();
        let mut offsets = vec![0];
        for (i, a) in samples.into_iter().enumerate() {
            let a = a.as_ref();
            if step == 0 || a.len() % step != 0 {
                return Err(SpecError::Step {
                    space: S::describe(),
                    sample: i,
                    shape: Shape(vec![a.len()]),
                    step: Shape(step_shape::<S>()),
                });
            }
            values.extend_from_slice(a);
            offsets.push(offsets[i] + a.len() / step);
        }
        Self::from_parts(values, offsets)
    }

    /// The leaf of a dense batch: every sample keeps all its time steps.
    pub fn from_batch<R: Data<Elem = S::Elem>>(batch: &Batch<S, R>) -> Self {
        let n = batch.len();
        let t = batch.time_len().unwrap_or(0);
        let step = step_len::<S>();
        let mut values = vec![<S::Elem as crate::types::elem::Element>::ZERO; n * t * step];
        for (i, chunk) in values.chunks_mut((t * step).max(1)).enumerate().take(n) {
            let one = batch
                .array()
                .slice_axis(ndarray::Axis(S::BATCH_AXIS), (i..i + 1).into());
            sample_view_mut::<S>(chunk, t).assign(&one);
        }
        Ragged {
            values,
            offsets: (0..=n).map(|i| i * t).collect(),
            space: PhantomData,
        }
    }
}

/// Reading and the library's own writes work for any space (a ragged leaf of a space without a
/// time axis cannot be built: its constructors ask for a [`SequenceSpace`]).
impl<S: Space> Ragged<S> {
    /// `samples` samples of no steps.
    pub fn empty(samples: usize) -> Self {
        Ragged {
            values: Vec::new(),
            offsets: vec![0; samples + 1],
            space: PhantomData,
        }
    }

    /// All the samples, borrowed.
    pub fn view(&self) -> RaggedView<'_, S> {
        RaggedView {
            values: &self.values,
            offsets: &self.offsets,
            space: PhantomData,
        }
    }

    /// The samples `rows` (within the leaf: the callers check), borrowed.
    pub(crate) fn view_rows(&self, rows: core::ops::Range<usize>) -> RaggedView<'_, S> {
        RaggedView {
            values: &self.values,
            offsets: &self.offsets[rows.start..=rows.end],
            space: PhantomData,
        }
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// `true` for a leaf of no samples.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of steps of every sample.
    pub fn lengths(&self) -> impl Iterator<Item = usize> + '_ {
        self.offsets.windows(2).map(|w| w[1] - w[0])
    }

    /// The number of steps of the longest sample (0 for a leaf of no samples).
    pub fn max_len(&self) -> usize {
        self.view().max_len()
    }

    /// Sample `i` as an array of shape `(t, ..)` (steps, then the step's axes in memory order);
    /// `None` past the end.
    pub fn sample(&self, i: usize) -> Option<ArrayView<'_, S::Elem, IxDyn>> {
        self.view().sample(i)
    }

    /// The samples padded with zeros to the longest, as a dense batch of `S`.
    pub fn to_padded(&self) -> Batch<S> {
        self.view().to_padded()
    }

    /// The values and the offsets (in steps), giving up the leaf.
    pub fn into_parts(self) -> (Vec<S::Elem>, Vec<usize>) {
        (self.values, self.offsets)
    }

    /// The values of every step, one after the other.
    pub fn values(&self) -> &[S::Elem] {
        &self.values
    }

    /// Where each sample starts, in steps, and the end (one more than the samples).
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// Replaces the samples `at..at + rows.len()` (within the leaf: the callers check) with the
    /// samples `rows` of `from` (each below its length: the callers check).
    pub(crate) fn splice_rows(&mut self, from: RaggedView<'_, S>, rows: &[usize], at: usize) {
        let step = step_len::<S>();
        let end = at + rows.len();
        let (head, tail) = (self.offsets[at], self.offsets[end]);
        let new: usize = rows.iter().map(|&r| from.length(r)).sum();
        let mut values = Vec::with_capacity(self.values.len() - (tail - head) * step + new * step);
        values.extend_from_slice(&self.values[..head * step]);
        let mut offsets = Vec::with_capacity(self.offsets.len());
        offsets.extend_from_slice(&self.offsets[..=at]);
        for &r in rows {
            values.extend_from_slice(from.sample_values(r));
            offsets.push(values.len() / step.max(1));
        }
        values.extend_from_slice(&self.values[tail * step..]);
        let shift = head + new;
        offsets.extend(self.offsets[end + 1..].iter().map(|&o| o - tail + shift));
        self.values = values;
        self.offsets = offsets;
    }

    /// Empties the leaf and makes it `samples` samples long, each filled by `fill` with the
    /// values of its `t` steps: `fill(i, t)` gives sample `i`'s length, then `write(i, view)`
    /// writes them. Keeps the memory of the values.
    pub(crate) fn refill(
        &mut self,
        samples: usize,
        mut length: impl FnMut(usize) -> usize,
        mut write: impl FnMut(usize, ArrayViewMut<'_, S::Elem, S::Dim>),
    ) {
        let step = step_len::<S>();
        self.values.clear();
        self.offsets.clear();
        self.offsets.push(0);
        for i in 0..samples {
            let t = length(i);
            let start = self.values.len();
            self.values.resize(
                start + t * step,
                <S::Elem as crate::types::elem::Element>::ZERO,
            );
            write(i, sample_view_mut::<S>(&mut self.values[start..], t));
            self.offsets.push(self.offsets[i] + t);
        }
    }

    /// The memory of the values, given up (for reuse).
    pub(crate) fn into_values(self) -> Vec<S::Elem> {
        self.values
    }
}

impl<S: Space> RaggedViewMut<'_, S> {
    /// The samples, borrowed (for reading).
    pub fn view(&self) -> RaggedView<'_, S> {
        RaggedView {
            values: self.values,
            offsets: self.offsets,
            space: PhantomData,
        }
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.view().len()
    }

    /// `true` for no samples.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of steps of every sample.
    pub fn lengths(&self) -> impl Iterator<Item = usize> + '_ {
        self.view().lengths()
    }

    fn sample_range(&self, i: usize) -> Result<core::ops::Range<usize>, SpecError> {
        if i >= self.len() {
            return Err(SpecError::Row {
                row: i,
                position: 0,
                len: self.len(),
            });
        }
        let step = step_len::<S>();
        Ok(self.offsets[i] * step..self.offsets[i + 1] * step)
    }

    /// Sample `i` as a batch of one sample of `S`, mutably, for a space whose every value is
    /// valid ([`FreeValues`](crate::types::FreeValues)); a sequence of labels is written through
    /// [`RaggedViewMut::update`].
    ///
    /// # Errors
    /// [`SpecError::Row`] for `i` not below [`RaggedViewMut::len`].
    pub fn sample_mut(&mut self, i: usize) -> Result<ArrayViewMut<'_, S::Elem, S::Dim>, SpecError>
    where
        S: crate::types::space::FreeValues,
    {
        let range = self.sample_range(i)?;
        let t = self.offsets[i + 1] - self.offsets[i];
        Ok(sample_view_mut::<S>(&mut self.values[range], t))
    }

    /// Changes sample `i` with `edit` (on a copy of it, as a batch of one sample of `S`) and
    /// keeps the change only if it is a sample of `S` of the same length (for a label space,
    /// every label below the number of labels).
    ///
    /// # Errors
    /// [`SpecError::Row`] for `i` not below [`RaggedViewMut::len`]; as [`Batch::update`]
    /// otherwise, and the sample is unchanged.
    pub fn update<F>(&mut self, i: usize, edit: F) -> Result<(), SpecError>
    where
        F: FnOnce(&mut ndarray::Array<S::Elem, S::Dim>),
    {
        let range = self.sample_range(i)?;
        let t = self.offsets[i + 1] - self.offsets[i];
        let mut sample =
            Batch::<S, _>::from_checked(sample_view_mut::<S>(&mut self.values[range], t));
        sample.update(edit)
    }
}

impl<'a, S: Space> RaggedView<'a, S> {
    /// The number of samples.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// `true` for no samples.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of steps of sample `i` (below [`RaggedView::len`]: the callers check).
    pub fn length(&self, i: usize) -> usize {
        self.offsets[i + 1] - self.offsets[i]
    }

    /// The number of steps of every sample.
    pub fn lengths(&self) -> impl Iterator<Item = usize> + use<'a, S> {
        self.offsets.windows(2).map(|w| w[1] - w[0])
    }

    /// The number of steps of the longest sample (0 for no samples).
    pub fn max_len(&self) -> usize {
        self.lengths().max().unwrap_or(0)
    }

    /// The values of sample `i` (below [`RaggedView::len`]: the callers check).
    pub(crate) fn sample_values(&self, i: usize) -> &'a [S::Elem] {
        let step = step_len::<S>();
        &self.values[self.offsets[i] * step..self.offsets[i + 1] * step]
    }

    /// Sample `i` as a batch of one sample of `S`, in `S`'s layout (below [`RaggedView::len`]:
    /// the callers check).
    pub fn sample_batch(&self, i: usize) -> ArrayView<'a, S::Elem, S::Dim> {
        sample_view::<S>(self.sample_values(i), self.length(i))
    }

    /// Sample `i` as an array of shape `(t, ..)`; `None` past the end.
    pub fn sample(&self, i: usize) -> Option<ArrayView<'a, S::Elem, IxDyn>> {
        if i >= self.len() {
            return None;
        }
        let mut shape = vec![self.length(i)];
        shape.extend(step_shape::<S>());
        ArrayView::from_shape(IxDyn(&shape), self.sample_values(i)).ok()
    }

    /// The samples padded with zeros to the longest, as a dense batch of `S`.
    pub fn to_padded(&self) -> Batch<S> {
        let t = self.max_len();
        let mut out = Batch::<S>::zeros(self.len(), t);
        if let Some(ta) = S::TIME_AXIS {
            for i in 0..self.len() {
                let mut dst = out
                    .array_mut_unchecked()
                    .slice_axis_mut(ndarray::Axis(S::BATCH_AXIS), (i..i + 1).into())
                    .slice_axis_move(ndarray::Axis(ta), (0..self.length(i)).into());
                dst.assign(&self.sample_batch(i));
            }
        }
        out
    }
}

/// Where a record keeps a source: a dense batch, or ragged samples.
pub enum SourceView<'a, S: Space> {
    /// A batch of samples of one shape.
    Dense(BatchView<'a, S>),
    /// Samples of different lengths.
    Ragged(RaggedView<'a, S>),
}

impl<'a, S: Space> SourceView<'a, S> {
    /// The number of samples.
    pub fn len(&self) -> usize {
        match self {
            SourceView::Dense(b) => b.len(),
            SourceView::Ragged(r) => r.len(),
        }
    }

    /// `true` for no samples.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[diagnostic::do_not_recommend]
impl<S: Space> crate::types::spec::NodeMut for Ragged<S> {
    type ViewsMut<'a>
        = RaggedViewMut<'a, S>
    where
        Self: 'a;
    fn node_views_mut(&mut self, rows: core::ops::Range<usize>) -> Self::ViewsMut<'_> {
        RaggedViewMut {
            values: &mut self.values,
            offsets: &self.offsets[rows.start..=rows.end],
            space: PhantomData,
        }
    }
}

#[diagnostic::do_not_recommend]
impl<Src: crate::types::source::Source, S: Space> crate::types::spec::Node<Src> for Ragged<S> {
    type Spaces = S;
    type Sources = Src;
    type Leaves = crate::types::spec::Leaf<Src, S>;
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
        = RaggedView<'a, S>
    where
        Self: 'a;
    const LEAVES: usize = 1;
    const TOTAL: Option<usize> = None;
    fn describe_node(
        batch: usize,
        path: &crate::types::spec::Path<'_>,
        out: &mut Vec<crate::types::spec::Described>,
    ) {
        <Batch<S> as crate::types::spec::Node<Src>>::describe_node(batch, path, out);
    }
    fn check_node(
        &self,
        path: &crate::types::spec::Path<'_>,
        sizes: &mut crate::types::spec::SizeCheck,
    ) -> Result<(), SpecError> {
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
        self.view_rows(rows)
    }
    fn node_nest_mapped<T, N: FnMut() -> T>(next: &mut N) -> T {
        next()
    }
    fn node_flatten_mapped<T, V: FnMut(T)>(mapped: T, visit: &mut V) {
        visit(mapped)
    }
}
