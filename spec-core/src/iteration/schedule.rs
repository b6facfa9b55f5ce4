//! The plan of an iteration: sizes, order, last-batch policy, seed and shard, checked once.

use std::ops::Range;

use super::{IterationError, IterationMode, LastBatch, Order, Shard};

/// Stream purposes within one `(seed, epoch)`; see [`epoch_rng`](super::epoch_rng).
pub(crate) const STREAM_SAMPLES: u64 = 0;
pub(crate) const STREAM_BATCHES: u64 = 1;
pub(crate) const STREAM_DRAWS: u64 = 2;

/// Which sample indices make up each batch of each epoch: a checked plan with no data.
///
/// Build one with [`Schedule::builder`]; every bad combination of numbers is an
/// [`IterationError`] there, and after that nothing fails. [`Schedule::epoch`] gives the
/// batches of any epoch, the same on every platform and in any order of calls.
///
/// # Sizes
///
/// Let `n` be the number of samples of the [`Shard`] (all samples by default). A batch size of
/// 0 means `n` (one batch of everything, as in MXNet).
///
/// * [`Order::Sequential`], [`Order::Shuffled`] and [`Order::BatchwiseShuffled`] need a batch
///   size or a number of batches (Pylearn2's rules):
///   * [`LastBatch::Short`] and [`LastBatch::Pad`]: the batch size defaults to
///     `ceil(n / num_batches)`, the number of batches to `ceil(n / batch_size)`; asking for
///     more is an error, asking for fewer serves the first ones. `Short` allows a batch size
///     above `n` (one short batch); `Pad` does not (MXNet).
///   * [`LastBatch::Drop`]: the batch size defaults to `floor(n / num_batches)`, the number of
///     batches to `floor(n / batch_size)`; asking for more is an error, and so is a batch size
///     above `n`.
///   * [`LastBatch::RollOver`]: needs a batch size of at most `n` and no number of batches
///     (epochs differ in length); not with [`Order::BatchwiseShuffled`].
/// * [`Order::RandomSlice`] and [`Order::RandomUniform`] need both; a random slice must fit in
///   the data. They ignore the last-batch policy: every batch is full.
///
/// # Randomness
///
/// The seed (0 by default) has no effect on [`Order::Sequential`]. Epoch `e` of part `i`
/// shuffles with [`epoch_rng`](super::epoch_rng)`(seed, e, 4 * i + purpose)`: purpose 0
/// permutes the shard's samples, 1 permutes the batch order, 2 drives with-replacement draws.
/// With [`LastBatch::RollOver`], pass `p` over the data (most of epoch `p`) uses the
/// permutation of epoch `p`.
///
/// # Example
///
/// ```
/// use batchspec_core::iteration::{IterationMode, LastBatch, Schedule, Shard};
///
/// // Pylearn2: sequential over 10 examples with batch size 3.
/// let pylearn2 = Schedule::builder(10)
///     .mode(IterationMode::Sequential)
///     .batch_size(3)
///     .build()?;
/// let ranges: Vec<_> = pylearn2.epoch(0).map(|b| b.indices().as_range().unwrap()).collect();
/// assert_eq!(ranges, [0..3, 3..6, 6..9, 9..10]);
/// assert_eq!(pylearn2.num_batches(), Some(4));
/// assert_eq!(pylearn2.num_examples(), Some(10));
/// assert!(pylearn2.uneven());
///
/// // A shuffled, padded schedule for worker 1 of 4, reusing one buffer for every batch.
/// let schedule = Schedule::builder(1000)
///     .batch_size(32)
///     .shuffle(true)
///     .last_batch(LastBatch::Pad)
///     .seed(42)
///     .shard(Shard::new(1, 4)?)
///     .build()?;
/// let mut rows = Vec::with_capacity(32);
/// for e in 0..2 {
///     let mut epoch = schedule.epoch(e);
///     while let Some(batch) = epoch.next_into(&mut rows) {
///         assert!(batch.indices().iter().all(|i| (250..500).contains(&i)));
///         assert_eq!(batch.size(), 32);
///     }
/// }
///
/// // Errors say what is wrong with the numbers.
/// let err = Schedule::builder(10).batch_size(3).num_batches(5).build().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "10 samples can only provide 4 batches of size 3, but 5 were requested"
/// );
/// # Ok::<(), batchspec_core::iteration::IterationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    num_samples: usize,
    shard: Shard,
    /// The first global index of the shard.
    pub(crate) offset: usize,
    /// The number of samples of the shard.
    pub(crate) n: usize,
    pub(crate) order: Order,
    pub(crate) last_batch: LastBatch,
    pub(crate) batch_size: usize,
    /// Batches per epoch; unused by [`LastBatch::RollOver`].
    pub(crate) num_batches: usize,
    pub(crate) seed: u64,
}

impl Schedule {
    /// Starts a schedule over `num_samples` samples: sequential order, a short last batch,
    /// seed 0, the whole dataset. A batch size or a number of batches must still be given.
    pub fn builder(num_samples: usize) -> ScheduleBuilder {
        ScheduleBuilder {
            num_samples,
            batch_size: None,
            num_batches: None,
            order: Order::Sequential,
            last_batch: LastBatch::Short,
            seed: 0,
            shard: Shard::whole(),
        }
    }

    /// The same plan for another shard, rebuilt from the batch size (what elastic resume deals
    /// the rest of an epoch by); `None` when this schedule is not what its batch size alone
    /// rebuilds (a number of batches below the most its shard allows).
    pub(crate) fn for_shard(&self, shard: Shard) -> Option<Schedule> {
        let rebuild = |shard| {
            Schedule::builder(self.num_samples)
                .batch_size(self.batch_size)
                .order(self.order)
                .last_batch(self.last_batch)
                .seed(self.seed)
                .shard(shard)
                .build()
                .ok()
        };
        (rebuild(self.shard).as_ref() == Some(self)).then(|| rebuild(shard))?
    }

    /// The number of samples of the whole dataset.
    pub fn num_samples(&self) -> usize {
        self.num_samples
    }

    /// The shard this schedule iterates over.
    pub fn shard(&self) -> Shard {
        self.shard
    }

    /// The global indices of the samples this schedule draws from (the shard's samples).
    pub fn sample_range(&self) -> Range<usize> {
        self.offset..self.offset + self.n
    }

    /// The batch size, given or derived (Pylearn2 `batch_size`).
    pub fn batch_size(&self) -> usize {
        self.batch_size
    }

    /// The order in which epochs visit samples.
    pub fn order(&self) -> Order {
        self.order
    }

    /// The last-batch policy.
    pub fn last_batch(&self) -> LastBatch {
        self.last_batch
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The number of batches of every epoch (Pylearn2 `num_batches`), or `None` when epochs
    /// differ in length ([`LastBatch::RollOver`] with a batch size that does not divide the
    /// samples; see [`Schedule::batches_in_epoch`]).
    pub fn num_batches(&self) -> Option<usize> {
        if self.epochs_differ() {
            None
        } else if self.rolls_over() {
            Some(self.n / self.batch_size)
        } else {
            Some(self.num_batches)
        }
    }

    /// The number of samples every epoch serves (Pylearn2 `num_examples`), or `None` when
    /// epochs differ.
    ///
    /// Sequential-family orders with a short or padded last batch: `min(batch_size *
    /// num_batches, n)`, the real samples. Dropped last batch and random orders:
    /// `batch_size * num_batches` (random orders may exceed `n`). Roll-over: `n` if the batch
    /// size divides `n`, else `None`.
    pub fn num_examples(&self) -> Option<usize> {
        let product = self.batch_size as u128 * self.num_batches as u128;
        if self.order.is_with_replacement() {
            // Checked to fit when the schedule was built.
            return Some(product as usize);
        }
        match self.last_batch {
            LastBatch::Short | LastBatch::Pad | LastBatch::Drop => {
                Some(product.min(self.n as u128) as usize)
            }
            LastBatch::RollOver => (!self.epochs_differ()).then_some(self.n),
        }
    }

    /// Pylearn2 `uneven`: whether a batch may be smaller than the batch size, which happens
    /// only with a short last batch when `batch_size * num_batches > n`.
    pub fn uneven(&self) -> bool {
        !self.order.is_with_replacement()
            && self.last_batch == LastBatch::Short
            && self.batch_size as u128 * self.num_batches as u128 > self.n as u128
    }

    /// Pylearn2 `stochastic`: whether the batches depend on the seed.
    pub fn stochastic(&self) -> bool {
        self.order.is_stochastic()
    }

    /// Pylearn2 `fancy`: whether some batch is an index list rather than a range (shuffled and
    /// random-uniform orders, and the rolled-over batch of a sequential order).
    pub fn fancy(&self) -> bool {
        match self.order {
            Order::Shuffled | Order::RandomUniform => true,
            Order::Sequential => self.epochs_differ(),
            Order::BatchwiseShuffled | Order::RandomSlice => false,
        }
    }

    /// The number of batches of epoch `epoch` (the same for every epoch except with
    /// [`LastBatch::RollOver`], where epoch lengths cycle, e.g. 2, 1, 1 for 4 samples in
    /// batches of 3).
    pub fn batches_in_epoch(&self, epoch: u64) -> usize {
        if !self.rolls_over() {
            return self.num_batches;
        }
        let start = self.roll_start(u128::from(epoch)) as u128;
        let end = self.n as u128 + self.roll_start(u128::from(epoch) + 1) as u128;
        // `end - start` is a multiple of the batch size below `n + batch_size`.
        ((end - start) / self.batch_size as u128) as usize
    }

    /// Whether the last batch rolls over into the next pass.
    pub(crate) fn rolls_over(&self) -> bool {
        self.last_batch == LastBatch::RollOver && !self.order.is_with_replacement()
    }

    /// Whether epochs differ: roll-over with a batch size that does not divide the samples.
    fn epochs_differ(&self) -> bool {
        self.rolls_over() && !self.n.is_multiple_of(self.batch_size)
    }

    /// With roll-over: where epoch `epoch` starts within its pass over the data, the number of
    /// samples of pass `epoch` already served at the end of epoch `epoch - 1`:
    /// `(batch_size - (epoch * n) mod batch_size) mod batch_size`.
    pub(crate) fn roll_start(&self, epoch: u128) -> usize {
        let bs = self.batch_size as u128;
        let served = (epoch % bs) * (self.n as u128 % bs) % bs;
        // Below the batch size.
        ((bs - served) % bs) as usize
    }

    /// The stream of `purpose` for this schedule's shard.
    pub(crate) fn stream(&self, purpose: u64) -> u64 {
        (self.shard.part_index() as u64)
            .wrapping_mul(4)
            .wrapping_add(purpose)
    }
}

/// The settings of a [`Schedule`], checked by [`ScheduleBuilder::build`].
///
/// Calls later in a chain override earlier ones: [`mode`](ScheduleBuilder::mode) sets both the
/// order and the last-batch policy, [`shuffle`](ScheduleBuilder::shuffle) the order only.
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use = "a builder does nothing until `build` is called"]
pub struct ScheduleBuilder {
    num_samples: usize,
    batch_size: Option<usize>,
    num_batches: Option<usize>,
    order: Order,
    last_batch: LastBatch,
    seed: u64,
    shard: Shard,
}

impl ScheduleBuilder {
    /// The number of samples per batch; 0 means all samples in one batch.
    pub fn batch_size(mut self, batch_size: usize) -> Self {
        self.batch_size = Some(batch_size);
        self
    }

    /// The number of batches per epoch.
    pub fn num_batches(mut self, num_batches: usize) -> Self {
        self.num_batches = Some(num_batches);
        self
    }

    /// A Pylearn2 mode: sets the order and the last-batch policy.
    pub fn mode(mut self, mode: IterationMode) -> Self {
        self.order = mode.order();
        self.last_batch = mode.last_batch();
        self
    }

    /// The order in which epochs visit samples.
    pub fn order(mut self, order: Order) -> Self {
        self.order = order;
        self
    }

    /// MXNet's `shuffle` flag: [`Order::Shuffled`] if `true`, [`Order::Sequential`] if `false`.
    pub fn shuffle(self, shuffle: bool) -> Self {
        self.order(if shuffle {
            Order::Shuffled
        } else {
            Order::Sequential
        })
    }

    /// What happens to the incomplete last batch.
    pub fn last_batch(mut self, last_batch: LastBatch) -> Self {
        self.last_batch = last_batch;
        self
    }

    /// The seed of every random choice (0 by default).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Iterate over one part of the samples only.
    pub fn shard(mut self, shard: Shard) -> Self {
        self.shard = shard;
        self
    }

    /// Checks the settings and resolves the sizes.
    ///
    /// # Errors
    ///
    /// Every combination the [`Schedule`] documentation rules out, as the matching
    /// [`IterationError`]: no samples or an empty shard, missing sizes, 0 batches, more batches
    /// than the samples fill, a batch size above the samples where the policy needs a full
    /// batch, roll-over with a number of batches or with batchwise shuffling, and random
    /// orders whose `batch_size * num_batches` overflows.
    pub fn build(self) -> Result<Schedule, IterationError> {
        if self.num_samples == 0 {
            return Err(IterationError::NoSamples);
        }
        let range = self.shard.range(self.num_samples);
        if range.is_empty() {
            return Err(IterationError::EmptyShard {
                num_samples: self.num_samples,
                part_index: self.shard.part_index(),
                num_parts: self.shard.num_parts(),
                split: self.shard.split(),
            });
        }
        let n = range.len();
        if self.num_batches == Some(0) {
            return Err(IterationError::ZeroBatches);
        }
        let batch_size = self.batch_size.map(|bs| if bs == 0 { n } else { bs });
        let (batch_size, num_batches) = if self.order.is_with_replacement() {
            self.random_sizes(n, batch_size)?
        } else {
            match self.last_batch {
                LastBatch::Short | LastBatch::Pad => self.ceil_sizes(n, batch_size)?,
                LastBatch::Drop => self.floor_sizes(n, batch_size)?,
                LastBatch::RollOver => self.roll_over_sizes(n, batch_size)?,
            }
        };
        Ok(Schedule {
            num_samples: self.num_samples,
            shard: self.shard,
            offset: range.start,
            n,
            order: self.order,
            last_batch: self.last_batch,
            batch_size,
            num_batches,
            seed: self.seed,
        })
    }

    /// Pylearn2 `random_slice` / `random_uniform`: both sizes required.
    fn random_sizes(
        &self,
        n: usize,
        batch_size: Option<usize>,
    ) -> Result<(usize, usize), IterationError> {
        let order = self.order;
        let batch_size = batch_size.ok_or(IterationError::MissingBatchSize { order })?;
        let num_batches = self
            .num_batches
            .ok_or(IterationError::MissingNumBatches { order })?;
        if order == Order::RandomSlice && batch_size > n {
            return Err(IterationError::SliceLargerThanData {
                batch_size,
                num_samples: n,
            });
        }
        if batch_size.checked_mul(num_batches).is_none() {
            return Err(IterationError::Overflow {
                batch_size,
                num_batches,
            });
        }
        Ok((batch_size, num_batches))
    }

    /// Pylearn2 `sequential` (short last batch) and MXNet padding: ceil rules.
    fn ceil_sizes(
        &self,
        n: usize,
        batch_size: Option<usize>,
    ) -> Result<(usize, usize), IterationError> {
        let batch_size = match (batch_size, self.num_batches) {
            (Some(bs), _) => bs,
            (None, Some(nb)) => n.div_ceil(nb),
            (None, None) => return Err(IterationError::MissingSize { order: self.order }),
        };
        if self.last_batch == LastBatch::Pad && batch_size > n {
            return Err(IterationError::BatchLargerThanData {
                batch_size,
                num_samples: n,
                last_batch: self.last_batch,
            });
        }
        let max = n.div_ceil(batch_size);
        match self.num_batches {
            Some(requested) if requested > max => Err(IterationError::TooManyBatches {
                num_samples: n,
                batch_size,
                max,
                requested,
            }),
            Some(requested) => Ok((batch_size, requested)),
            None => Ok((batch_size, max)),
        }
    }

    /// Pylearn2 `even_*` modes (`ForcedEvenIterator`) and MXNet `MNISTIter`: floor rules.
    fn floor_sizes(
        &self,
        n: usize,
        batch_size: Option<usize>,
    ) -> Result<(usize, usize), IterationError> {
        let batch_size = match (batch_size, self.num_batches) {
            (Some(bs), _) => bs,
            (None, Some(nb)) if n / nb == 0 => {
                return Err(IterationError::TooManyEvenBatches {
                    num_samples: n,
                    batch_size: 1,
                    max: n,
                    requested: nb,
                });
            }
            (None, Some(nb)) => n / nb,
            (None, None) => return Err(IterationError::MissingSize { order: self.order }),
        };
        if batch_size > n {
            return Err(IterationError::BatchLargerThanData {
                batch_size,
                num_samples: n,
                last_batch: self.last_batch,
            });
        }
        let max = n / batch_size;
        match self.num_batches {
            Some(requested) if requested > max => Err(IterationError::TooManyEvenBatches {
                num_samples: n,
                batch_size,
                max,
                requested,
            }),
            Some(requested) => Ok((batch_size, requested)),
            None => Ok((batch_size, max)),
        }
    }

    /// libmxnet `round_batch`: a batch size of at most `n`, no number of batches.
    fn roll_over_sizes(
        &self,
        n: usize,
        batch_size: Option<usize>,
    ) -> Result<(usize, usize), IterationError> {
        if self.order == Order::BatchwiseShuffled {
            return Err(IterationError::Incompatible {
                order: self.order,
                last_batch: self.last_batch,
            });
        }
        if let Some(num_batches) = self.num_batches {
            return Err(IterationError::NumBatchesWithRollOver { num_batches });
        }
        let batch_size = batch_size.ok_or(IterationError::RollOverWithoutBatchSize)?;
        if batch_size > n {
            return Err(IterationError::BatchLargerThanData {
                batch_size,
                num_samples: n,
                last_batch: self.last_batch,
            });
        }
        Ok((batch_size, n.div_ceil(batch_size)))
    }
}
