//! What every source of batches serves: [`BatchInfo`], a batch's real samples and padding, and
//! [`BatchSource`], the one trait generic training code takes. Providers, streams, prefetched
//! producers, generators and Parquet streams implement it, each beside its own type.

use crate::data::error::DataError;

/// What a step of a provider served besides the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchInfo {
    /// The number of real samples at the start of the batch (MXNet's `count_samples`).
    pub count_samples: usize,
    /// The number of rows after them: padding or rolled-over samples (MXNet's `pad`).
    pub pad: usize,
}

/// A source of batches of the request `Q`, whatever stands behind it: a dataset with a schedule
/// ([`Provider`](crate::data::Provider)), a stream ([`Stream`](crate::data::Stream)), a
/// producer on another thread ([`Prefetch`](crate::data::Prefetch)), a closure
/// ([`Generator`](crate::data::Generator)) or, with the feature `parquet`, a rank's share of
/// Parquet files (`batchspec::load::ParquetStream`). Training code written over it takes any of
/// them.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::BatchSource;
///
/// #[derive(DataSpec)]
/// struct Input {
///     #[spec(source = "x")]
///     x: Batch<Vector<2>>,
/// }
///
/// /// Sums the first feature of every batch, from anything that serves batches.
/// fn first_features<B: BatchSource<Input>>(batches: &mut B) -> Result<f32, batchspec::Error> {
///     let mut sum = 0.0;
///     while let Some(b) = batches.next_batch() {
///         let (batch, info) = b?;
///         sum += batch.x.array().column(0).iter().take(info.count_samples).sum::<f32>();
///     }
///     Ok(sum)
/// }
/// # use batchspec::data::Dataset;
/// # use batchspec::iteration::Schedule;
/// # use batchspec::data::Provider;
/// # use batchspec::data::Stream;
/// let ds = Dataset::new(Input { x: Batch::new(ndarray::array![[1.0f32, 0.], [2., 0.], [3., 0.]])? })?;
/// let mut provider = Provider::<Input, Input>::new(&ds, Schedule::builder(3).batch_size(2).build()?)?;
/// assert_eq!(first_features(&mut provider)?, 6.0);
/// let samples = (1..=3).map(|i| Input { x: Batch::new(ndarray::array![[i as f32, 0.]]).unwrap() });
/// let mut stream = Stream::<Input, Input>::once(samples, 2);
/// assert_eq!(first_features(&mut stream)?, 6.0);
/// # Ok::<(), batchspec::Error>(())
/// ```
// Not `Batches`: `batchspec_candle::Batches` is another item of the crate graph, and rustc
// would then print both with their whole paths in compile errors.
pub trait BatchSource<Q> {
    /// A batch lent until the next call.
    type Lent<'a>: core::ops::Deref<Target = Q>
    where
        Self: 'a;

    /// The next batch and what it holds; `None` at the end.
    ///
    /// # Errors
    /// The source's errors; a stream may go on after one, a provider's batches do not fail.
    fn next_batch(&mut self) -> Option<Result<(Self::Lent<'_>, BatchInfo), DataError>>;
}
