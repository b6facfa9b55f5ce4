//! Pylearn2's `DataSpecsMapping`: a spec's leaves de-duplicated into a flat list, and values
//! nested back along the spec's structure.
//!
//! Two leaves are the same when their source and their space are the same; the same source in
//! two spaces stays twice. [`DataSpec::flatten`] and [`DataSpec::nest`] move the leaf values of a
//! spec without de-duplication; a [`Mapping`] works on any per-leaf values (names, shapes,
//! handles, shared batches) and shares one flat value between every place that asks for it.

use super::error::MappingError;
use crate::types::spec::{DataSpec, LeafId, LeafList, LeavesOf, MappedOf, Node};
use core::marker::PhantomData;

/// The de-duplicating mapping of the spec `S`.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::mapping::Mapping;
///
/// #[derive(DataSpec)]
/// struct Pair {
///     #[spec(source = "features")]
///     x: Batch<Vector<3072>>,
///     #[spec(source = "targets")]
///     y: Batch<Vector<10>>,
/// }
///
/// // Pylearn2: (("features", "targets"), ("features", "targets")) flattens to two leaves.
/// let mapping = Mapping::<(Pair, Pair)>::new();
/// assert_eq!(mapping.flat_sources(), ["features", "targets"]);
/// assert_eq!(mapping.nest(&[1, 2]).unwrap(), ((1, 2), (1, 2)));
/// ```
pub struct Mapping<S> {
    ids: Vec<LeafId>,
    /// For each leaf of the spec in order, its index in the flat list.
    positions: Vec<usize>,
    /// For each flat index, the first leaf that has it.
    firsts: Vec<usize>,
    spec: PhantomData<fn() -> S>,
}

impl<S: DataSpec> Default for Mapping<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: DataSpec> Mapping<S> {
    /// Builds the mapping: each leaf gets the next flat index unless an equal (source, space)
    /// leaf came before it.
    pub fn new() -> Self {
        let mut ids = Vec::with_capacity(<S as Node<()>>::LEAVES);
        <LeavesOf<S> as LeafList>::leaf_ids(&mut ids);
        let mut positions = Vec::with_capacity(ids.len());
        let mut firsts: Vec<usize> = Vec::new();
        for (i, id) in ids.iter().enumerate() {
            match firsts.iter().position(|&f| ids[f].id == id.id) {
                Some(flat) => positions.push(flat),
                None => {
                    positions.push(firsts.len());
                    firsts.push(i);
                }
            }
        }
        Mapping {
            ids,
            positions,
            firsts,
            spec: PhantomData,
        }
    }

    /// The number of unique leaves (Pylearn2's `n_unique_specs`).
    pub fn len(&self) -> usize {
        self.firsts.len()
    }

    /// `true` for a spec with no leaves.
    pub fn is_empty(&self) -> bool {
        self.firsts.is_empty()
    }

    /// For each leaf of the spec in order, its index in the flat list (Pylearn2's
    /// `spec_mapping`, flattened; null leaves have no entry).
    pub fn positions(&self) -> &[usize] {
        &self.positions
    }

    /// The sources of the flat list.
    pub fn flat_sources(&self) -> Vec<&'static str> {
        self.firsts.iter().map(|&f| self.ids[f].source).collect()
    }

    /// The spaces of the flat list, in words.
    pub fn flat_spaces(&self) -> Vec<&str> {
        self.firsts
            .iter()
            .map(|&f| self.ids[f].space.as_str())
            .collect()
    }

    /// Nests flat values along the spec: each leaf gets the value of its flat index (cloned
    /// where a value is shared), each null leaf `()`.
    ///
    /// # Errors
    /// [`MappingError::FlatLength`] when `flat` does not hold one value per unique leaf.
    pub fn nest<T: Clone>(&self, flat: &[T]) -> Result<MappedOf<S, T>, MappingError> {
        if flat.len() != self.len() {
            return Err(MappingError::FlatLength {
                expected: self.len(),
                actual: flat.len(),
            });
        }
        let mut leaf = 0;
        Ok(S::node_nest_mapped(&mut || {
            let v = flat[self.positions[leaf]].clone();
            leaf += 1;
            v
        }))
    }

    /// Flattens nested values: one value per unique leaf, taken from its first place.
    ///
    /// # Errors
    /// [`MappingError::SharedLeafDiffers`] when two places of one shared leaf hold different values
    /// (Pylearn2 asserts they are equal).
    pub fn flatten<T: PartialEq>(&self, nested: MappedOf<S, T>) -> Result<Vec<T>, MappingError> {
        let mut out: Vec<Option<T>> = Vec::with_capacity(self.len());
        out.resize_with(self.len(), || None);
        let mut leaf = 0;
        let mut err = None;
        S::node_flatten_mapped(nested, &mut |v: T| {
            let flat = self.positions[leaf];
            match &out[flat] {
                None => out[flat] = Some(v),
                Some(first) if *first == v => {}
                Some(_) if err.is_none() => {
                    err = Some(MappingError::SharedLeafDiffers {
                        source_name: self.ids[leaf].source,
                        space: self.ids[leaf].space.clone(),
                        leaf,
                    });
                }
                Some(_) => {}
            }
            leaf += 1;
        });
        if let Some(e) = err {
            return Err(e);
        }
        Ok(out
            .into_iter()
            .map(|v| v.unwrap_or_else(|| unreachable!("every flat index has a first leaf")))
            .collect())
    }
}
