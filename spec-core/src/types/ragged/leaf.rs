//! The ragged leaf: [`Ragged<S>`], its checked constructors, reading and the library's own
//! writes, and its place in a spec as a node.

use super::sequence_space::SequenceSpace;
use super::steps::{sample_view_mut, step_len, step_shape};
use super::views::{RaggedView, RaggedViewMut};
use crate::types::batch::Batch;
use crate::types::elem::Element;
use crate::types::error::{Position, Shape, SpecError};
use crate::types::space::Space;
use core::fmt;
use core::marker::PhantomData;
use ndarray::{ArrayBase, ArrayView, ArrayViewMut, Data, Dimension, IxDyn};

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
