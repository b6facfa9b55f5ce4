//! Sequence minibatches: batches of whole sequences, their time axis cut to the longest one.
//!
//! Brainstorm's `Minibatches` with `shuffle=False`: items are named `(T, B, ...)` arrays; batch
//! i holds sequences `i * batch_size ..` (the last batch may be smaller), and its time axis is
//! cut to the longest sequence in the batch, lengths coming from a mask item, an explicit list,
//! or the full T. Batches are views of the stored arrays: nothing is copied and nothing stored
//! is ever changed, so iterating twice gives the same batches.

use std::ops::Range;

use ndarray::{ArrayD, ArrayViewD, Axis, Slice};

use super::error::BufferError;

/// Where sequence lengths come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SequenceLengths {
    /// Every sequence is T steps long.
    Full,
    /// From the item with this name: a sequence's length is one past its last time step with
    /// any element different from `E::default()` (0 for an all-zero sequence).
    Mask(String),
    /// One length per sequence, each at most T.
    List(Vec<usize>),
}

/// Named `(T, B, ...)` arrays holding B sequences of up to T steps, with each sequence's length.
///
/// ```
/// use batchspec_core::buffer::{SequenceData, SequenceLengths};
/// use ndarray::{Array, Array3};
///
/// // Brainstorm's test mask: T = 4, B = 5, lengths [2, 3, 3, 1, 2].
/// let lengths = [2usize, 3, 3, 1, 2];
/// let mask = Array3::from_shape_fn((4, 5, 1), |(t, b, _)| f32::from(u8::from(t < lengths[b])));
/// let x = Array::from_shape_fn((4, 5, 2), |(t, b, f)| (100 * t + 10 * b + f) as f32);
/// let data = SequenceData::new(
///     [("default", x.into_dyn()), ("mask", mask.into_dyn())],
///     SequenceLengths::Mask("mask".into()),
/// )?;
/// assert_eq!(data.lengths(), &lengths);
/// let shapes: Vec<(usize, usize)> = data
///     .minibatches(3)?
///     .map(|batch| (batch.time_steps(), batch.batch_size()))
///     .collect();
/// assert_eq!(shapes, vec![(3, 3), (2, 2)]);
/// # Ok::<(), batchspec_core::buffer::BufferError>(())
/// ```
#[derive(Debug, Clone)]
pub struct SequenceData<E> {
    names: Vec<String>,
    items: Vec<ArrayD<E>>,
    lengths: Vec<usize>,
    time_steps: usize,
}

impl<E: Clone + PartialEq + Default> SequenceData<E> {
    /// Stores `items` (at least one; each with a time axis and a batch axis, all with equal T and
    /// B) and computes the sequence lengths.
    ///
    /// # Errors
    /// [`BufferError::NoItems`], [`BufferError::ItemRank`], [`BufferError::ItemMismatch`] naming
    /// the items that disagree, [`BufferError::Duplicate`] for a repeated name,
    /// [`BufferError::UnknownItem`] for a missing mask, and [`BufferError::LengthsCount`] or
    /// [`BufferError::LengthTooLong`] for a bad lengths list.
    pub fn new<I, S>(items: I, lengths: SequenceLengths) -> Result<Self, BufferError>
    where
        I: IntoIterator<Item = (S, ArrayD<E>)>,
        S: Into<String>,
    {
        let mut names = Vec::new();
        let mut arrays: Vec<ArrayD<E>> = Vec::new();
        for (name, array) in items {
            let name = name.into();
            if array.ndim() < 2 {
                return Err(BufferError::ItemRank {
                    name,
                    shape: array.shape().to_vec(),
                });
            }
            if names.contains(&name) {
                return Err(BufferError::Duplicate {
                    what: "sequence item",
                    path: name,
                });
            }
            if let Some(first) = arrays.first() {
                for (axis, label) in [(0, "time steps"), (1, "sequences")] {
                    if array.shape()[axis] != first.shape()[axis] {
                        return Err(BufferError::ItemMismatch {
                            name,
                            first: names[0].clone(),
                            axis: label,
                            expected: first.shape()[axis],
                            actual: array.shape()[axis],
                        });
                    }
                }
            }
            names.push(name);
            arrays.push(array);
        }
        let Some(first) = arrays.first() else {
            return Err(BufferError::NoItems);
        };
        let (time_steps, sequences) = (first.shape()[0], first.shape()[1]);
        let lengths = match lengths {
            SequenceLengths::Full => vec![time_steps; sequences],
            SequenceLengths::List(list) => {
                if list.len() != sequences {
                    return Err(BufferError::LengthsCount {
                        expected: sequences,
                        actual: list.len(),
                    });
                }
                if let Some((index, &length)) =
                    list.iter().enumerate().find(|&(_, &l)| l > time_steps)
                {
                    return Err(BufferError::LengthTooLong {
                        index,
                        length,
                        time_steps,
                    });
                }
                list
            }
            SequenceLengths::Mask(mask) => {
                let Some(m) = names.iter().position(|n| *n == mask) else {
                    return Err(BufferError::UnknownItem {
                        name: mask,
                        available: names,
                    });
                };
                lengths_from_mask(&arrays[m])
            }
        };
        Ok(SequenceData {
            names,
            items: arrays,
            lengths,
            time_steps,
        })
    }
}

/// One past the last time step of each sequence (axis 1) holding a non-default element.
fn lengths_from_mask<E: PartialEq + Default>(mask: &ArrayD<E>) -> Vec<usize> {
    let zero = E::default();
    mask.axis_iter(Axis(1))
        .map(|sequence| {
            sequence
                .axis_iter(Axis(0))
                .enumerate()
                .filter(|(_, step)| step.iter().any(|x| *x != zero))
                .map(|(t, _)| t + 1)
                .last()
                .unwrap_or(0)
        })
        .collect()
}

impl<E> SequenceData<E> {
    /// The length of each sequence.
    pub fn lengths(&self) -> &[usize] {
        &self.lengths
    }

    /// T, the stored time steps.
    pub fn time_steps(&self) -> usize {
        self.time_steps
    }

    /// B, the number of sequences.
    pub fn num_sequences(&self) -> usize {
        self.lengths.len()
    }

    /// The item names, in order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// The stored item `name`, uncut.
    pub fn item(&self, name: &str) -> Option<ArrayViewD<'_, E>> {
        let i = self.names.iter().position(|n| n == name)?;
        Some(self.items[i].view())
    }

    /// Batches of `batch_size` sequences in order, each cut to its longest sequence.
    ///
    /// # Errors
    /// [`BufferError::ZeroBatchSize`].
    pub fn minibatches(
        &self,
        batch_size: usize,
    ) -> Result<SequenceMinibatches<'_, E>, BufferError> {
        if batch_size == 0 {
            return Err(BufferError::ZeroBatchSize);
        }
        Ok(SequenceMinibatches {
            data: self,
            batch_size,
            next: 0,
        })
    }
}

/// The iterator of [`SequenceData::minibatches`]; `ceil(B / batch_size)` batches.
#[derive(Debug, Clone)]
pub struct SequenceMinibatches<'a, E> {
    data: &'a SequenceData<E>,
    batch_size: usize,
    next: usize,
}

impl<'a, E> Iterator for SequenceMinibatches<'a, E> {
    type Item = Minibatch<'a, E>;

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.data.num_sequences();
        if self.next >= b {
            return None;
        }
        let start = self.next;
        let stop = start.saturating_add(self.batch_size).min(b);
        self.next = stop;
        let time_steps = self.data.lengths[start..stop]
            .iter()
            .copied()
            .max()
            .unwrap_or(0);
        Some(Minibatch {
            data: self.data,
            time_steps,
            sequences: start..stop,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.data.num_sequences().saturating_sub(self.next);
        let n = left.div_ceil(self.batch_size);
        (n, Some(n))
    }
}

impl<E> ExactSizeIterator for SequenceMinibatches<'_, E> {}

/// One batch: a range of sequences and the time steps kept; items are views of the stored data.
#[derive(Debug, Clone)]
pub struct Minibatch<'a, E> {
    data: &'a SequenceData<E>,
    time_steps: usize,
    sequences: Range<usize>,
}

impl<'a, E> Minibatch<'a, E> {
    /// The time steps kept: the longest sequence in the batch.
    pub fn time_steps(&self) -> usize {
        self.time_steps
    }

    /// The number of sequences in the batch.
    pub fn batch_size(&self) -> usize {
        self.sequences.len()
    }

    /// Which stored sequences the batch holds.
    pub fn sequences(&self) -> Range<usize> {
        self.sequences.clone()
    }

    /// The length of each sequence in the batch.
    pub fn lengths(&self) -> &'a [usize] {
        &self.data.lengths[self.sequences.clone()]
    }

    /// The item `name`, shape `(time_steps, batch_size, ...)`, a view of the stored array.
    pub fn item(&self, name: &str) -> Option<ArrayViewD<'a, E>> {
        let i = self.data.names.iter().position(|n| n == name)?;
        Some(self.cut(&self.data.items[i]))
    }

    /// Every item with its name, in storage order.
    pub fn items(&self) -> impl ExactSizeIterator<Item = (&'a str, ArrayViewD<'a, E>)> + '_ {
        self.data
            .names
            .iter()
            .zip(&self.data.items)
            .map(|(name, item)| (name.as_str(), self.cut(item)))
    }

    fn cut(&self, item: &'a ArrayD<E>) -> ArrayViewD<'a, E> {
        let mut view = item.view();
        view.slice_axis_inplace(Axis(0), Slice::from(0..self.time_steps));
        view.slice_axis_inplace(Axis(1), Slice::from(self.sequences.clone()));
        view
    }
}
