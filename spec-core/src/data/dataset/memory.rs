//! A dataset's memory: leaves of 4 MB or more on 2 MB pages ([`Dataset::huge_pages`],
//! [`HUGE_PAGE_LEAF`]), through the leaves of a record as memory ([`LeafMemory`]).

use crate::data::dataset::Dataset;
use crate::types::batch::Batch;
use crate::types::hlist::{HNil, Pair};
use crate::types::ragged::Ragged;
use crate::types::space::Space;
use crate::types::spec::DataSpec;

/// Leaves of at least this many bytes are backed by 2 MB pages where the system allows
/// ([`batchspec_kernel::advise_huge_pages`]; NumPy's threshold for the same advice).
pub const HUGE_PAGE_LEAF: usize = 4 << 20;

/// The leaves of a record, as memory ([`Dataset::huge_pages`]): implemented for the flat forms
/// of references to batches and ragged leaves.
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

impl<R: DataSpec> Dataset<R> {
    /// Moves every leaf of 4 MB or more ([`HUGE_PAGE_LEAF`]) onto 2 MB pages, where the system
    /// allows (Linux with transparent huge pages `madvise` or `always`; `MADV_HUGEPAGE` then
    /// `MADV_COLLAPSE`), and returns the bytes advised (0 elsewhere). A shuffled gather reads
    /// rows at random places; on 2 MB pages a leaf of hundreds of megabytes fits the processor's
    /// address-translation cache, and a shuffled epoch ran about 20 % faster here
    /// (`benches/src/gather.rs`). The kernel copies the pages once, about a millisecond or two
    /// per megabyte on the machine measured; no value changes. Leaves the library allocates
    /// (selections, permutations, a provider's and a stream's batches) are advised when they
    /// are made, before anything is written to them, and need no collapse.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::data::Dataset;
    ///
    /// #[derive(DataSpec)]
    /// struct Record {
    ///     #[spec(source = "features")]
    ///     x: Batch<Vector<784>>,
    /// }
    /// let ds = Dataset::new(Record { x: Batch::new(ndarray::Array2::ones((4096, 784)))? })?;
    /// let advised = ds.huge_pages(); // 12.8 MB of features: at least 10 MB advised on Linux
    /// assert_eq!(ds.fields().x.array()[[4095, 783]], 1.0);
    /// # let _ = advised;
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    pub fn huge_pages(&self) -> usize
    where
        for<'a> <R as crate::types::spec::Node<()>>::FlatRef<'a>: LeafMemory,
    {
        self.record
            .flatten_ref()
            .advise_leaves(HUGE_PAGE_LEAF, true)
    }
}
