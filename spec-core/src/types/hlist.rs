//! The flat form of a spec: its leaf values in order, as a balanced tree of pairs.
//!
//! A leaf is its batch itself, a spec without leaves is [`HNil`], and a spec of several leaves
//! is a [`Pair`] of the flat forms of its two halves of fields (of its fields' flat forms, for a
//! struct; of its elements', for a tuple), so that every leaf is a few steps deep: the compiler
//! proves a property of a 256-leaf record's flat form (that its leaves can be allocated, or
//! written in place) in about 8 nested steps where a linear list took 256, beyond the 128 it
//! allows by default. Building and taking apart the tree are plain moves.

/// The flat form of a spec without leaves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HNil;

/// The leaves of `first`, then those of `second`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pair<A, B> {
    /// The first half.
    pub first: A,
    /// The second half.
    pub second: B,
}
