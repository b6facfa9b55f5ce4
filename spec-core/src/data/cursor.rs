//! A source of batches read one sample at a time: what a mixture draws from and what a
//! per-sample stage walks. It owns the batch it is reading, remembers the source's state from
//! before that batch was served, and how many of its samples were taken, so its position is a
//! value ([`Cursor::state`]) and resumes exactly.

use crate::data::batch_source::{BatchInfo, BatchSource};
use crate::data::error::DataError;
use crate::data::state::SourceState;

/// The part of [`BatchSource`] a cursor uses, without the lent batch's type: any source boxed.
#[doc(hidden)]
pub trait OwnedBatches<Q>: Send {
    fn next_owned(&mut self) -> Option<Result<(Q, BatchInfo), DataError>>;
    fn start_epoch(&mut self, epoch: u64);
    fn state(&self) -> SourceState;
    fn resume(&mut self, state: &SourceState) -> Result<(), DataError>;
}

/// A source a mixture or a trainer's monitor can take: a source of batches of `Q` that can move
/// between threads. (A trait of its own so that a source of another request is one error in
/// words, without the implementations rustc would otherwise list.)
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a source of batches of `{Q}`",
    label = "this serves no batches of `{Q}`",
    note = "a source of batches of a request is a `Provider` of it, a `Stream`, a `Generator`, a `ParquetStream`, `ImageStream` or `ShardStream` of it (a record), a `Mix` of sources of it, or one of these prefetched, taken, skipped, mapped or filtered; it must be `Send`"
)]
pub trait SourceOf<Q>: OwnedBatches<Q> {}

#[diagnostic::do_not_recommend]
impl<Q, S: BatchSource<Q> + Send> SourceOf<Q> for S {}

#[diagnostic::do_not_recommend]
impl<Q, S: BatchSource<Q> + Send> OwnedBatches<Q> for S {
    fn next_owned(&mut self) -> Option<Result<(Q, BatchInfo), DataError>> {
        BatchSource::next_owned(self)
    }
    fn start_epoch(&mut self, epoch: u64) {
        BatchSource::start_epoch(self, epoch);
    }
    fn state(&self) -> SourceState {
        BatchSource::state(self)
    }
    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        BatchSource::resume(self, state)
    }
}

/// A boxed source and the batch being read from it.
pub(crate) struct Cursor<'a, Q> {
    pub source: Box<dyn OwnedBatches<Q> + 'a>,
    /// The batch being read and its real samples.
    batch: Option<(Q, usize)>,
    /// The samples of `batch` taken.
    used: usize,
    /// The source's state before `batch` was served.
    before: Option<SourceState>,
    /// The rows (samples and padding) of the first batch the source served: its batch size.
    rows: Option<usize>,
}

/// What a cursor's next sample is.
pub(crate) enum Next {
    /// A sample at this row of [`Cursor::batch`].
    Row(usize),
    /// The source's epoch has ended.
    End,
}

impl<'a, Q> Cursor<'a, Q> {
    pub fn new(source: Box<dyn OwnedBatches<Q> + 'a>) -> Self {
        Cursor {
            source,
            batch: None,
            used: 0,
            before: None,
            rows: None,
        }
    }

    /// The rows of the first batch the source served (its samples and padding), once it served
    /// one.
    pub fn batch_rows(&self) -> Option<usize> {
        self.rows
    }

    /// When the last [`Next::Row`] was the first of a batch just served: the source's state
    /// before that batch and the batch's samples.
    pub fn fresh_batch(&self) -> Option<(&SourceState, usize)> {
        match (&self.before, &self.batch) {
            (Some(before), Some((_, n))) if self.used == 1 => Some((before, *n)),
            _ => None,
        }
    }

    /// The samples of the batch being read.
    pub fn batch_samples(&self) -> Option<usize> {
        self.batch.as_ref().map(|(_, n)| *n)
    }

    /// The batch the last [`Next::Row`] points into.
    pub fn batch(&self) -> Option<&Q> {
        self.batch.as_ref().map(|(q, _)| q)
    }

    /// Takes the next sample: its row in [`Cursor::batch`], the end of the source's epoch, or
    /// the source's error (the cursor then asks the source again on the next call).
    pub fn next(&mut self) -> Result<Next, DataError> {
        loop {
            if let Some((_, n)) = &self.batch
                && self.used < *n
            {
                self.used += 1;
                return Ok(Next::Row(self.used - 1));
            }
            self.batch = None;
            self.used = 0;
            let before = self.source.state();
            match self.source.next_owned() {
                None => {
                    self.before = None;
                    return Ok(Next::End);
                }
                Some(Err(e)) => return Err(e),
                Some(Ok((q, info))) => {
                    self.rows.get_or_insert(info.count_samples + info.pad);
                    self.before = Some(before);
                    self.batch = Some((q, info.count_samples));
                }
            }
        }
    }

    /// The whole next batch of the source, for a mixture of batches: `None` at the end of its
    /// epoch. The cursor holds no partial batch then.
    pub fn next_whole(&mut self) -> Option<Result<(Q, BatchInfo), DataError>> {
        self.batch = None;
        self.used = 0;
        self.before = None;
        self.source.next_owned()
    }

    /// Starts the source's epoch `epoch`, dropping the batch being read.
    pub fn start_epoch(&mut self, epoch: u64) {
        self.batch = None;
        self.used = 0;
        self.before = None;
        self.source.start_epoch(epoch);
    }

    /// The source's state at the batch being read, and the samples of it taken.
    pub fn state(&self) -> (SourceState, usize) {
        match (&self.before, &self.batch) {
            (Some(before), Some(_)) if self.used > 0 => (before.clone(), self.used),
            _ => (self.source.state(), 0),
        }
    }

    /// Resumes the source from `state` and takes `used` samples of its next batch again.
    pub fn resume(&mut self, state: &SourceState, used: usize) -> Result<(), DataError> {
        self.source.resume(state)?;
        self.batch = None;
        self.used = 0;
        self.before = None;
        if used == 0 {
            return Ok(());
        }
        let before = self.source.state();
        match self.source.next_owned() {
            Some(Ok((q, info))) if info.count_samples >= used => {
                self.rows.get_or_insert(info.count_samples + info.pad);
                self.before = Some(before);
                self.batch = Some((q, info.count_samples));
                self.used = used;
                Ok(())
            }
            Some(Err(e)) => Err(e),
            Some(Ok((_, info))) => Err(DataError::Resume(format!(
                "the state took {used} samples of a batch that now holds {}",
                info.count_samples
            ))),
            None => Err(DataError::Resume(format!(
                "the state took {used} samples of a batch the source no longer serves"
            ))),
        }
    }
}
