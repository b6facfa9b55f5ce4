//! What a batch's conversions ask of its space: [`FormatAs`], the bound of
//! [`Batch::format_as`](crate::types::batch::Batch::format_as) and of every other conversion of
//! the library, and [`FormatError`], the errors of the conversions at run time (an output buffer
//! of the wrong shape, or kernel arguments refused). The conversions themselves are the `format`
//! part's (`Convert` and its rules), which implements `FormatAs` once for every pair that
//! converts; the trait is here, beside [`Batch`](crate::types::batch::Batch), so that the
//! batch's own methods can ask for it.

use crate::types::error::{Shape, SpecError};
use crate::types::plan::Plan;
use crate::types::space::Space;
use batchspec_kernel::KernelError;
use ndarray::{Array, ArrayView, ArrayViewMut};

/// `Self` can be formatted as `Target`: the bound of the conversions
/// ([`Batch::format_as`](crate::types::Batch::format_as), providers, servers, views).
///
/// Implemented once, for every pair whose [`Convert`](crate::format::Convert) impl holds (a
/// space of your own converts by implementing that trait): a refused pair is reported in the
/// words of the rule that refuses it, with no list of other impls under it. Its items are
/// `Convert`'s, for the library's own code.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be formatted as `{Target}`",
    label = "no conversion from `{Self}` to `{Target}`",
    note = "conversions exist between spaces of the same kind (another layout or element type), between an image and a vector of its total size, and from labels to one-hot vectors"
)]
pub trait FormatAs<Target: Space>: Space {
    /// [`Convert::PLAN`](crate::format::Convert::PLAN).
    #[doc(hidden)]
    const PLAN: Plan;

    /// [`Convert::format_view_into`](crate::format::Convert::format_view_into).
    #[doc(hidden)]
    fn format_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        dst: ArrayViewMut<'_, Target::Elem, Target::Dim>,
    );

    /// [`Convert::gather_view_into`](crate::format::Convert::gather_view_into).
    #[doc(hidden)]
    fn gather_view_into(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        rows: &[usize],
        dst: ArrayViewMut<'_, Target::Elem, Target::Dim>,
    );

    /// `Convert::gather_new`.
    #[doc(hidden)]
    fn gather_new(
        src: ArrayView<'_, Self::Elem, Self::Dim>,
        rows: &[usize],
        pad_rows: usize,
        pad: Target::Elem,
    ) -> Option<Array<Target::Elem, Target::Dim>>;
}

/// A conversion that cannot be run with the buffers given.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FormatError {
    /// An output buffer has another shape than the formatted batch.
    #[error("{space}: the output has shape {actual}, the formatted batch {expected}")]
    OutputShape {
        /// The target space, in words.
        space: String,
        /// The shape of the formatted batch.
        expected: Shape,
        /// The shape of the output.
        actual: Shape,
    },

    /// A row past the end of the batch gathered from.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A layout conversion kernel refused its arguments.
    #[error(transparent)]
    Kernel(#[from] KernelError),
}
