//! How a conversion moves the data: the [`Plan`] each `FormatAs` impl computes from its two
//! types, read by the executor (`exec.rs`) and by [`Batch::view_as`](crate::types::batch::Batch::view_as).

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
    /// A [`Step`](super::Step): the step's own code moves the data (a crop, a flip, a
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
