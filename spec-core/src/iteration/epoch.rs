//! One epoch of a schedule: its batches in order, lent without allocating or iterated owned.

use std::borrow::Cow;
use std::iter::FusedIterator;
use std::mem;
use std::ops::Range;

use rand::rngs::Xoshiro256PlusPlus;

use super::schedule::{STREAM_BATCHES, STREAM_DRAWS, STREAM_SAMPLES};
use super::shuffle::fill_shuffled;
use super::{IndexBatch, Indices, LastBatch, Order, Schedule, below, epoch_rng};

/// The batches of one epoch of a [`Schedule`], in order.
///
/// Three ways to take them:
///
/// * [`Epoch::next_batch`] lends each batch, borrowing the epoch's own buffers: no allocation
///   once the buffers exist, and [`Epoch::restart`] reuses them for the next epoch;
/// * [`Epoch::next_into`] writes each batch's indices into a caller's `Vec<usize>`;
/// * as an [`Iterator`] of owned batches, which allocates for each index list.
///
/// ```
/// use batchspec_core::iteration::{LastBatch, Schedule};
///
/// // libmxnet round_batch: 4 rows, batch 3.
/// let schedule = Schedule::builder(4).batch_size(3).last_batch(LastBatch::RollOver).build()?;
/// let mut epoch = schedule.epoch(0);
/// let mut seen = Vec::new();
/// for e in 0..4 {
///     epoch.restart(e);
///     let mut batches = Vec::new();
///     while let Some(batch) = epoch.next_batch() {
///         batches.push((batch.indices().to_vec(), batch.pad()));
///     }
///     seen.push(batches);
/// }
/// assert_eq!(seen[0], [(vec![0, 1, 2], 0), (vec![3, 0, 1], 2)]);
/// assert_eq!(seen[1], [(vec![2, 3, 0], 1)]);
/// assert_eq!(seen[2], [(vec![1, 2, 3], 0)]);
/// assert_eq!(seen[3], seen[0]);
/// # Ok::<(), batchspec_core::iteration::IterationError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Epoch {
    schedule: Schedule,
    index: u64,
    /// The next batch to serve.
    next: usize,
    /// The number of batches of this epoch.
    len: usize,
    /// Roll-over: the position within pass `index` at which this epoch starts.
    start: usize,
    /// Shuffled: the global sample order of pass `order_pass`. Batchwise shuffled: the order of
    /// the slices.
    order: Vec<usize>,
    order_pass: Option<u64>,
    /// Shuffled roll-over: the global sample order of pass `next_order_pass`.
    next_order: Vec<usize>,
    next_order_pass: Option<u64>,
    /// Shuffled and batchwise shuffled: the order of epoch `index` is still to be made (by the
    /// first batch asked for), so that an epoch made and restarted at once shuffles once.
    unordered: bool,
    /// With-replacement draws.
    rng: Xoshiro256PlusPlus,
    /// Lists built for one batch (draws, rolled-over batches).
    buf: Vec<usize>,
}

/// Where [`Epoch::advance`] put a batch's indices.
enum Step {
    /// A range of global indices.
    Range(Range<usize>),
    /// A range of positions in `Epoch::order`.
    Order(Range<usize>),
    /// The whole buffer passed to `advance`.
    Buf,
}

impl Schedule {
    /// The batches of epoch `epoch`, as an iterator that can also lend them without allocating.
    pub fn epoch(&self, epoch: u64) -> Epoch {
        Epoch::new(self.clone(), epoch)
    }
}

impl Epoch {
    pub(crate) fn new(schedule: Schedule, index: u64) -> Self {
        let rng = epoch_rng(schedule.seed, index, schedule.stream(STREAM_DRAWS));
        let mut epoch = Epoch {
            schedule,
            index,
            next: 0,
            len: 0,
            start: 0,
            order: Vec::new(),
            order_pass: None,
            next_order: Vec::new(),
            next_order_pass: None,
            unordered: false,
            rng,
            buf: Vec::new(),
        };
        epoch.restart(index);
        epoch
    }

    /// Makes this the start of epoch `index` (any epoch, earlier or later), keeping the
    /// buffers: after the first epoch, restarting and iterating allocate nothing. A shuffled
    /// order is made when the epoch's first batch is asked for.
    pub fn restart(&mut self, index: u64) {
        let s = &self.schedule;
        self.index = index;
        self.next = 0;
        self.len = s.batches_in_epoch(index);
        self.start = if s.rolls_over() {
            s.roll_start(u128::from(index))
        } else {
            0
        };
        match s.order {
            Order::Sequential => {}
            Order::Shuffled | Order::BatchwiseShuffled => self.unordered = true,
            Order::RandomSlice | Order::RandomUniform => {
                self.rng = epoch_rng(s.seed, index, s.stream(STREAM_DRAWS));
            }
        }
    }

    /// Makes the order of epoch `self.index` (see `unordered`).
    fn make_order(&mut self) {
        self.unordered = false;
        let s = &self.schedule;
        match s.order {
            Order::Shuffled => self.ensure_order(self.index),
            Order::BatchwiseShuffled => {
                let mut rng = epoch_rng(s.seed, self.index, s.stream(STREAM_BATCHES));
                fill_shuffled(&mut self.order, 0, s.num_batches, &mut rng);
            }
            _ => {}
        }
    }

    /// The schedule this epoch belongs to.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The epoch number.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The number of batches of this epoch, served or not.
    pub fn num_batches(&self) -> usize {
        self.len
    }

    /// Lends the next batch, its list (if any) borrowed from the epoch's buffers.
    pub fn next_batch(&mut self) -> Option<IndexBatch<'_>> {
        let mut buf = mem::take(&mut self.buf);
        let step = self.advance(&mut buf);
        self.buf = buf;
        let (step, count, pad) = step?;
        let indices = match step {
            Step::Range(range) => Indices::Range(range),
            Step::Order(range) => Indices::List(Cow::Borrowed(&self.order[range])),
            Step::Buf => Indices::List(Cow::Borrowed(&self.buf)),
        };
        Some(IndexBatch {
            indices,
            count,
            pad,
        })
    }

    /// Writes the next batch's indices into `out` (replacing its contents, reusing its memory)
    /// and returns the batch, its indices borrowed from `out`.
    pub fn next_into<'b>(&mut self, out: &'b mut Vec<usize>) -> Option<IndexBatch<'b>> {
        let (step, count, pad) = self.advance(out)?;
        match step {
            Step::Range(range) => {
                out.clear();
                out.extend(range);
            }
            Step::Order(range) => {
                out.clear();
                out.extend_from_slice(&self.order[range]);
            }
            Step::Buf => {}
        }
        Some(IndexBatch {
            indices: Indices::List(Cow::Borrowed(out)),
            count,
            pad,
        })
    }

    /// Moves to the next batch: where its indices are, its real count and its padding. Lists
    /// that are not a piece of `self.order` are written into `buf`.
    fn advance(&mut self, buf: &mut Vec<usize>) -> Option<(Step, usize, usize)> {
        if self.next >= self.len {
            return None;
        }
        if self.unordered {
            self.make_order();
        }
        let k = self.next;
        self.next += 1;
        let (n, bs, offset) = (
            self.schedule.n,
            self.schedule.batch_size,
            self.schedule.offset,
        );
        match self.schedule.order {
            Order::RandomSlice => {
                // `bs <= n` was checked when the schedule was built.
                let start = below(&mut self.rng, (n - bs) as u64 + 1) as usize;
                Some((Step::Range(offset + start..offset + start + bs), bs, 0))
            }
            Order::RandomUniform => {
                buf.clear();
                for _ in 0..bs {
                    buf.push(offset + below(&mut self.rng, n as u64) as usize);
                }
                Some((Step::Buf, bs, 0))
            }
            _ if self.schedule.rolls_over() => Some(self.roll_over_batch(k, buf)),
            order => {
                let slice = if order == Order::BatchwiseShuffled {
                    self.order[k]
                } else {
                    k
                };
                // `slice < ceil(n / bs)`, so `start < n`.
                let start = slice * bs;
                let len = bs.min(n - start);
                let pad = match self.schedule.last_batch {
                    LastBatch::Pad => bs - len,
                    _ => 0,
                };
                let step = match order {
                    Order::Shuffled => Step::Order(start..start + len),
                    _ => Step::Range(offset + start..offset + start + len),
                };
                Some((step, len, pad))
            }
        }
    }

    /// Batch `k` of a roll-over epoch: positions `p..p + bs` of pass `index`, continuing into
    /// pass `index + 1` when `p + bs > n`.
    fn roll_over_batch(&mut self, k: usize, buf: &mut Vec<usize>) -> (Step, usize, usize) {
        let (n, bs, offset) = (
            self.schedule.n,
            self.schedule.batch_size,
            self.schedule.offset,
        );
        // Every batch of a roll-over epoch starts inside its pass: `p < n`.
        let p = self.start + k * bs;
        let real = n - p;
        if bs <= real {
            let step = match self.schedule.order {
                Order::Shuffled => Step::Order(p..p + bs),
                _ => Step::Range(offset + p..offset + p + bs),
            };
            return (step, bs, 0);
        }
        let wrapped = bs - real;
        buf.clear();
        match self.schedule.order {
            Order::Shuffled => {
                buf.extend_from_slice(&self.order[p..]);
                self.ensure_next_order(self.index.wrapping_add(1));
                buf.extend_from_slice(&self.next_order[..wrapped]);
            }
            _ => {
                buf.extend(offset + p..offset + n);
                buf.extend(offset..offset + wrapped);
            }
        }
        (Step::Buf, real, wrapped)
    }

    /// Puts the sample order of pass `pass` in `self.order`, reusing a cached one.
    fn ensure_order(&mut self, pass: u64) {
        if self.order_pass == Some(pass) {
            return;
        }
        if self.next_order_pass == Some(pass) {
            mem::swap(&mut self.order, &mut self.next_order);
            mem::swap(&mut self.order_pass, &mut self.next_order_pass);
            return;
        }
        self.fill_order(pass, false);
    }

    /// Puts the sample order of pass `pass` in `self.next_order`, reusing a cached one.
    fn ensure_next_order(&mut self, pass: u64) {
        if self.next_order_pass != Some(pass) {
            self.fill_order(pass, true);
        }
    }

    fn fill_order(&mut self, pass: u64, next: bool) {
        let s = &self.schedule;
        let mut rng = epoch_rng(s.seed, pass, s.stream(STREAM_SAMPLES));
        let (out, tag) = if next {
            (&mut self.next_order, &mut self.next_order_pass)
        } else {
            (&mut self.order, &mut self.order_pass)
        };
        fill_shuffled(out, s.offset, s.n, &mut rng);
        *tag = Some(pass);
    }
}

impl Iterator for Epoch {
    type Item = IndexBatch<'static>;

    fn next(&mut self) -> Option<IndexBatch<'static>> {
        self.next_batch().map(IndexBatch::into_owned)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let remaining = self.len - self.next;
        (remaining, Some(remaining))
    }
}

impl ExactSizeIterator for Epoch {}

impl FusedIterator for Epoch {}
