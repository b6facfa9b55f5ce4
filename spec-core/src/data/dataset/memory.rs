//! A dataset's memory: leaves of 4 MB or more on 2 MB pages ([`Dataset::huge_pages`],
//! [`HUGE_PAGE_LEAF`]), through the leaves of a record as memory ([`LeafMemory`]).

use crate::types::batch::Batch;
use crate::types::hlist::{HNil, Pair};
use crate::types::ragged::Ragged;
use crate::types::space::Space;

/// Leaves of at least this many bytes are backed by 2 MB pages where the system allows
/// ([`batchspec_kernel::advise_huge_pages`]; NumPy's threshold for the same advice).
pub const HUGE_PAGE_LEAF: usize = batchspec_kernel::HUGE_PAGE_MIN_BYTES;

/// The leaves of a record, as memory ([`Dataset::huge_pages`](super::Dataset::huge_pages)):
/// implemented for the flat forms of references to batches and ragged leaves.
pub trait LeafMemory {
    /// Advises the memory of every leaf of at least `min_bytes` held in one block for 2 MB pages
    /// ([`batchspec_kernel::advise_huge_pages`]); returns the bytes advised.
    fn advise_leaves(&self, min_bytes: usize, collapse: bool) -> usize;
}

impl LeafMemory for HNil {
    fn advise_leaves(&self, _: usize, _: bool) -> usize {
        0
    }
}

pub(crate) fn advise_values<E>(values: &[E], min_bytes: usize, collapse: bool) -> usize {
    if core::mem::size_of_val(values) < min_bytes {
        return 0;
    }
    batchspec_kernel::advise_huge_pages(values, collapse)
}

impl<S: Space, D: ndarray::Data<Elem = S::Elem>> LeafMemory for &Batch<S, D> {
    fn advise_leaves(&self, min_bytes: usize, collapse: bool) -> usize {
        self.array()
            .as_slice_memory_order()
            .map_or(0, |v| advise_values(v, min_bytes, collapse))
    }
}

impl<S: Space> LeafMemory for &Ragged<S> {
    fn advise_leaves(&self, min_bytes: usize, collapse: bool) -> usize {
        advise_values(self.values(), min_bytes, collapse)
    }
}

impl<A: LeafMemory, B: LeafMemory> LeafMemory for Pair<A, B> {
    fn advise_leaves(&self, min_bytes: usize, collapse: bool) -> usize {
        self.first.advise_leaves(min_bytes, collapse)
            + self.second.advise_leaves(min_bytes, collapse)
    }
}
