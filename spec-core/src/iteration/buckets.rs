//! Batches of samples of similar lengths: tf.data's `bucket_by_sequence_length`.
//!
//! Each sample goes to the bucket of its length (bucket `i` holds the lengths
//! `boundaries[i - 1]..boundaries[i]`, the first from 0, the last without end). The samples are
//! taken in order (or in the epoch's seeded permutation); a bucket that reaches its batch size
//! gives a batch, and at the end of the epoch the buckets not yet full give their last, shorter
//! batches, in bucket order (unless they are dropped). Padding each batch to its own longest
//! sample then wastes few steps. The batches are index lists for
//! [`Provider::batch_of`](crate::data::Provider::batch_of) or
//! [`Dataset::select`](crate::data::Dataset::select).

use super::{IterationError, permutation};

/// Bucketing of samples by length, planned for any epoch.
///
/// The example of tf.data's documentation: lengths 1, 4, 3, 5, 6, 2 with boundaries `[3, 5]`
/// and batches of 2 in every bucket give the samples `[1, 2]`, `[3, 4]`, `[0, 5]`.
///
/// ```
/// use batchspec_core::iteration::Buckets;
///
/// let buckets = Buckets::new([1, 4, 3, 5, 6, 2], &[3, 5], &[2, 2, 2])?;
/// assert_eq!(buckets.epoch(0), [vec![1, 2], vec![3, 4], vec![0, 5]]);
/// # Ok::<(), batchspec_core::iteration::IterationError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Buckets {
    bucket: Vec<usize>,
    boundaries: Vec<usize>,
    batch_sizes: Vec<usize>,
    seed: Option<u64>,
    drop_remainder: bool,
}

impl Buckets {
    /// Buckets for samples of the given `lengths`: `boundaries` strictly increasing, and one
    /// batch size per bucket (one more than the boundaries).
    ///
    /// # Errors
    /// [`IterationError::BucketSizes`] when the batch sizes are not one more than the
    /// boundaries, a batch size is 0 or the boundaries do not increase;
    /// [`IterationError::NoSamples`] for no lengths.
    pub fn new(
        lengths: impl IntoIterator<Item = usize>,
        boundaries: &[usize],
        batch_sizes: &[usize],
    ) -> Result<Self, IterationError> {
        let bad = |reason: String| Err(IterationError::BucketSizes { reason });
        if batch_sizes.len() != boundaries.len() + 1 {
            return bad(format!(
                "{} boundaries make {} buckets, but {} batch sizes are given",
                boundaries.len(),
                boundaries.len() + 1,
                batch_sizes.len()
            ));
        }
        if let Some(i) = batch_sizes.iter().position(|&b| b == 0) {
            return bad(format!("the batch size of bucket {i} is 0"));
        }
        if let Some(i) = boundaries.windows(2).position(|w| w[1] <= w[0]) {
            return bad(format!(
                "the boundaries must increase, but {} is followed by {}",
                boundaries[i],
                boundaries[i + 1]
            ));
        }
        let bucket: Vec<usize> = lengths
            .into_iter()
            .map(|l| boundaries.partition_point(|&b| b <= l))
            .collect();
        if bucket.is_empty() {
            return Err(IterationError::NoSamples);
        }
        Ok(Buckets {
            bucket,
            boundaries: boundaries.to_vec(),
            batch_sizes: batch_sizes.to_vec(),
            seed: None,
            drop_remainder: false,
        })
    }

    /// Takes the samples of epoch `e` in the permutation [`permutation`]`(n, seed, e)` (the
    /// order of a shuffled [`Schedule`](super::Schedule) of the same seed) instead of in order.
    pub fn shuffled(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// Drops the last batch of each bucket when it is short (tf.data's `drop_remainder`).
    pub fn drop_remainder(mut self, drop: bool) -> Self {
        self.drop_remainder = drop;
        self
    }

    /// The number of samples.
    pub fn num_samples(&self) -> usize {
        self.bucket.len()
    }

    /// The bucket of a sample of `length` steps.
    pub fn bucket_of(&self, length: usize) -> usize {
        self.boundaries.partition_point(|&b| b <= length)
    }

    /// The batch size of each bucket.
    pub fn batch_sizes(&self) -> &[usize] {
        &self.batch_sizes
    }

    /// The batches of epoch `epoch`, as sample indices, in the order they are served.
    pub fn epoch(&self, epoch: u64) -> Vec<Vec<usize>> {
        let n = self.bucket.len();
        let order: Vec<usize> = match self.seed {
            Some(seed) => permutation(n, seed, epoch),
            None => (0..n).collect(),
        };
        let mut open: Vec<Vec<usize>> = vec![Vec::new(); self.batch_sizes.len()];
        let mut out = Vec::new();
        for i in order {
            let b = self.bucket[i];
            open[b].push(i);
            if open[b].len() == self.batch_sizes[b] {
                out.push(std::mem::take(&mut open[b]));
            }
        }
        if !self.drop_remainder {
            out.extend(open.into_iter().filter(|b| !b.is_empty()));
        }
        out
    }
}
