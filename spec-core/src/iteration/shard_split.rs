//! How the samples are cut into the parts of a shard: [`ShardSplit`].

use core::fmt;

/// How `n` samples are cut into `num_parts` contiguous parts. Either way the parts are disjoint,
/// in order, and together cover `0..n`.
///
/// For 10 samples in 3 parts:
///
/// | split | parts |
/// | --- | --- |
/// | [`Floor`](ShardSplit::Floor) | `0..3, 3..6, 6..10` |
/// | [`CeilStep`](ShardSplit::CeilStep) | `0..4, 4..8, 8..10` |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum ShardSplit {
    /// Part `i` is `floor(n * i / k)..floor(n * (i + 1) / k)` (MXNet `MNISTIter`): sizes differ
    /// by at most one, and no part is empty when `n >= k`. The default.
    #[default]
    Floor,
    /// Part `i` is `min(i * s, n)..min((i + 1) * s, n)` with step `s = ceil(n / k)` (MXNet
    /// `ImageRecordIter` with an index file): every part but the last has `s` samples, and the
    /// last parts may be short or empty (9 samples in 4 parts: `0..3, 3..6, 6..9, 9..9`).
    CeilStep,
}

impl ShardSplit {
    /// The lowercase name used in messages: `floor` or `ceil-step`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ShardSplit::Floor => "floor",
            ShardSplit::CeilStep => "ceil-step",
        }
    }
}

impl fmt::Display for ShardSplit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
