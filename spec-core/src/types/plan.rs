//! How a conversion moves the data: the [`Plan`] each `Convert` impl computes from its two
//! types, read by the executor (`format/exec.rs`), by the chains (`format/chain.rs`) and by
//! [`Batch::view_as`](crate::types::batch::Batch::view_as) (a step seen through strides,
//! [`step_view`]).

use ndarray::{ArrayViewD, IxDyn};

/// How a conversion moves the data; computed from the two types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Plan {
    /// A strided copy: view the source with its feature axis split into `split` (the target's
    /// static sizes in `bhwc` order, or nothing), permute the axes by `perm`, cast each element.
    Permute {
        /// The sizes the source's last axis is split into before permuting (vector -> image or
        /// volume).
        split: Option<Split>,
        /// Whether the target is the flat form of the permuted view (image -> vector).
        flatten: bool,
        /// Axis `i` of the (split) source view that becomes axis `i` of the target.
        perm: [usize; 6],
        /// The rank of the permuted view.
        rank: usize,
    },
    /// One-hot encoding of labels into `width` columns per sample: `concat` puts one block of
    /// `max_labels` per label, otherwise the labels of a sample are merged into one block.
    OneHot {
        /// Whether each label gets its own block.
        concat: bool,
    },
    /// The first label of each sample.
    FirstLabel,
    /// One label per sample as a column of one.
    LabelColumn,
    /// A [`Step`](crate::format::Step): the step's own code moves the data (a crop, a flip, a
    /// normalization); never a view.
    Step,
}

/// The static sizes a vector's feature axis is split into (at most 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    sizes: [usize; 5],
    len: usize,
}

impl Split {
    /// The split into `sizes` (at most 5; more is a bug in a `FormatAs` impl).
    pub const fn new(sizes: &[usize]) -> Self {
        let mut out = [0; 5];
        let mut i = 0;
        while i < sizes.len() && i < 5 {
            out[i] = sizes[i];
            i += 1;
        }
        Split { sizes: out, len: i }
    }

    /// The sizes.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes[..self.len]
    }

    /// The shape of `n` samples split: `[n, sizes...]`.
    pub fn shape(&self, n: usize) -> ndarray::IxDyn {
        let mut shape = [0usize; 6];
        shape[0] = n;
        shape[1..=self.len].copy_from_slice(self.sizes());
        ndarray::IxDyn(&shape[..=self.len])
    }
}

/// One `Permute` step applied to a view: `None` where strides cannot express it (or the plan
/// is not a permutation). [`Batch::view_as`](crate::types::batch::Batch::view_as) is one step.
pub(crate) fn step_view<'a, A>(
    v: ArrayViewD<'a, A>,
    plan: Plan,
    out_shape: &[usize],
) -> Option<ArrayViewD<'a, A>> {
    let Plan::Permute { flatten, .. } = plan else {
        return None;
    };
    let v = pre_flatten(v, plan)?;
    if flatten {
        if !v.is_standard_layout() {
            return None;
        }
        return v.into_shape_with_order(IxDyn(out_shape)).ok();
    }
    (v.shape() == out_shape).then_some(v)
}

/// The split and the permutation of a `Permute` step, without its flatten: `None` where the
/// split cannot be a view.
pub(crate) fn pre_flatten<'a, A>(v: ArrayViewD<'a, A>, plan: Plan) -> Option<ArrayViewD<'a, A>> {
    let Plan::Permute {
        split, perm, rank, ..
    } = plan
    else {
        return None;
    };
    let mut v = v;
    if let Some(split) = split {
        let shape = split.shape(v.shape()[0]);
        v = v.into_shape_with_order(shape).ok()?;
    }
    Some(v.permuted_axes(IxDyn(&perm[..rank])))
}
