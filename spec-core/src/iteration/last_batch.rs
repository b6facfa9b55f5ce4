//! What an epoch does with the samples left over when the batch size does not divide them.

use core::fmt;

/// What an epoch does with its incomplete last batch.
///
/// With 10 samples and batch size 3, in [`Order::Sequential`](super::Order::Sequential):
///
/// | policy | batches | `count_samples` | `pad` |
/// | --- | --- | --- | --- |
/// | [`Short`](LastBatch::Short) | `0..3, 3..6, 6..9, 9..10` | 3, 3, 3, 1 | 0, 0, 0, 0 |
/// | [`Pad`](LastBatch::Pad) | `0..3, 3..6, 6..9, 9..10` | 3, 3, 3, 1 | 0, 0, 0, 2 |
/// | [`Drop`](LastBatch::Drop) | `0..3, 3..6, 6..9` | 3, 3, 3 | 0, 0, 0 |
/// | [`RollOver`](LastBatch::RollOver) | `0..3, 3..6, 6..9, [9, 0, 1]` | 3, 3, 3, 1 | 0, 0, 0, 2 |
///
/// and with `RollOver` the next epoch continues from sample 2.
///
/// A batch size larger than the number of samples is an error for every policy except
/// `Short` (MXNet asserts `batch_size <= n`; Pylearn2's `sequential` serves one short batch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LastBatch {
    /// The last batch is shorter (Pylearn2 `sequential`, Brainstorm).
    Short,
    /// The incomplete last batch is dropped; its samples are not visited this epoch
    /// (Pylearn2 `even_*` modes, MXNet `MNISTIter`).
    Drop,
    /// The last batch has the full batch size; its rows after the real samples are padding that
    /// the consumer fills with a value (MXNet `ArrayDataProvider` with `data_padding`).
    /// The batch's indices name only the real samples.
    Pad,
    /// The last batch is completed with the first samples of the next pass over the data, which
    /// it reports as padding, and the next epoch continues after them (libmxnet
    /// `round_batch=true`). Over `lcm(n, batch_size) / n` epochs every sample is served equally
    /// often.
    RollOver,
}

impl LastBatch {
    /// The lowercase name used in messages: `short`, `drop`, `pad` or `roll-over`.
    pub const fn as_str(self) -> &'static str {
        match self {
            LastBatch::Short => "short",
            LastBatch::Drop => "drop",
            LastBatch::Pad => "pad",
            LastBatch::RollOver => "roll-over",
        }
    }
}

impl fmt::Display for LastBatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
