//! Generators: an iteration-only source of batches, a closure that fills a batch buffer,
//! served like a provider.

use crate::data::batch_source::{BatchInfo, BatchSource};
use crate::data::dataset::AllocFlat;
use crate::data::error::DataError;
use crate::data::provider::Provided;
use crate::types::spec::{DataSpec, FlatOf};

/// An iteration-only source: a closure that fills a batch buffer, `None` when it is exhausted
/// (never, for an endless source). It serves batches like a [`Provider`](crate::data::Provider).
pub struct Generator<Q, F> {
    buffer: Q,
    fill: F,
}

impl<Q: DataSpec, F: FnMut(&mut Q) -> Option<Result<BatchInfo, DataError>>> Generator<Q, F>
where
    FlatOf<Q>: AllocFlat,
{
    /// A source of batches of `batch_size` samples filled by `fill`.
    pub fn new(batch_size: usize, fill: F) -> Self {
        Generator {
            buffer: Q::nest(FlatOf::<Q>::alloc(batch_size, 0)),
            fill,
        }
    }

    /// Lends the next batch; `None` when the source is exhausted.
    ///
    /// # Errors
    /// The closure's error.
    pub fn next_batch(&mut self) -> Option<Result<Provided<'_, Q>, DataError>> {
        match (self.fill)(&mut self.buffer)? {
            Ok(info) => Some(Ok(Provided {
                batch: &self.buffer,
                info,
            })),
            Err(e) => Some(Err(e)),
        }
    }
}

impl<Q, F> BatchSource<Q> for Generator<Q, F>
where
    Q: DataSpec,
    F: FnMut(&mut Q) -> Option<Result<BatchInfo, DataError>>,
    FlatOf<Q>: AllocFlat,
{
    type Lent<'a>
        = &'a Q
    where
        Self: 'a;

    fn next_batch(&mut self) -> Option<Result<(&Q, BatchInfo), DataError>> {
        Generator::next_batch(self).map(|r| r.map(|p| (p.batch, p.info)))
    }
}
