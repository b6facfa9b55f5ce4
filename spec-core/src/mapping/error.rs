//! The errors of mapping: flat lists that do not fit a mapping.

/// A flat list that a [`Mapping`](super::Mapping) cannot nest.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MappingError {
    /// A flat list given to a mapping has another length than the mapping's unique leaves.
    #[error(
        "a flat list of {actual} values cannot be nested: the mapping has {expected} unique leaves"
    )]
    FlatLength {
        /// The number of unique leaves.
        expected: usize,
        /// The number of values given.
        actual: usize,
    },

    /// Two places of one shared leaf hold different values when flattened.
    #[error(
        "leaf {leaf} (source `{source_name}`, {space}) is shared but holds a value different from its first place"
    )]
    SharedLeafDiffers {
        /// The source of the leaf.
        source_name: &'static str,
        /// The space, in words.
        space: String,
        /// The leaf that differs, in order.
        leaf: usize,
    },
}
