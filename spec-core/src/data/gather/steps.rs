//! The fields a gather fills with what a collate policy did to a sequence source's samples:
//! their lengths ([`Lengths`]) or which of their steps are data ([`Mask`]).

use crate::data::error::DataError;
use crate::data::gather::collate::{batch_steps, longest, longest_of_all};
use crate::data::gather::leaf::{LeafMut, Regrow, fill_unfilled};
use crate::types::batch::Batch;
use crate::types::elem::{Element, IndexElement};
use crate::types::ragged::{SequenceSpace, SourceView};
use crate::types::space::{IndexSeqLayout, Lengths, Mask, Space, dim_of};
use ndarray::Axis;

/// A request's field that a gather fills with what a collate policy did to the samples of a
/// sequence source: their lengths ([`Lengths`],
/// `#[spec(lengths_of = "..")]`) or which steps are data
/// ([`Mask`], `#[spec(mask_of = "..")]`).
#[diagnostic::on_unimplemented(
    message = "`lengths_of` and `mask_of` fill a `Batch<Lengths>` or a `Batch<Mask>` field, not a `{Self}`",
    label = "not a batch of lengths or of a mask"
)]
pub trait GatherSteps {
    /// Writes the steps of the samples `rows` of `from` under the policy `steps`/`truncate` of
    /// the sequence field they describe (`pad_to`, `truncate`); padding rows have no steps. An
    /// unfilled owned field ([`AllocFlat::unfilled`](crate::data::AllocFlat::unfilled)) takes
    /// `batch` samples.
    ///
    /// # Errors
    /// [`DataError::TimeSteps`] as the sequence field would have it; [`DataError::LengthRange`]
    /// for a length the element type cannot hold.
    fn gather_steps<From: Space>(
        &mut self,
        from: SourceView<'_, From>,
        rows: &[usize],
        batch: usize,
        steps: Option<usize>,
        truncate: bool,
        source: &'static str,
    ) -> Result<(), DataError>;

    /// Checks, once for a whole source, that every batch of it can be described (see
    /// [`check_fits`](crate::data::check_fits)).
    ///
    /// # Errors
    /// As [`GatherSteps::gather_steps`].
    fn steps_fit<From: Space>(
        from: &SourceView<'_, From>,
        steps: Option<usize>,
        truncate: bool,
        source: &'static str,
    ) -> Result<(), DataError>;
}

/// The request's field `Self` (`lengths_of`, `mask_of`, named by its type beside the struct,
/// `Request·len`) describes the samples of its source, which the record `R` holds as `From`:
/// a space of sequences. The derive writes it as a bound for each such field.
#[diagnostic::on_unimplemented(
    message = "field `{Self}` asks for the lengths or the mask of its source, but the record `{R}` holds it as `{From}`, which has no time axis",
    label = "a source of sequences (`VectorSeq`, `IndexSeq`, `VolumeSeq`, or a `Ragged` of them) has lengths"
)]
pub trait StepsOfSequences<R, From> {}

#[diagnostic::do_not_recommend]
impl<F, R, From: SequenceSpace> StepsOfSequences<R, From> for F {}

/// The steps sample `i` of `from` keeps under the policy.
fn kept_steps<From: Space>(from: &SourceView<'_, From>, i: usize, cap: usize) -> usize {
    match from {
        SourceView::Dense(view) => view.time_len().unwrap_or(0),
        SourceView::Ragged(r) => r.length(i),
    }
    .min(cap)
}

/// The policy's steps for the samples `rows` of `from`: checks it as the sequence field does.
fn policy_steps<From: Space>(
    from: &SourceView<'_, From>,
    rows: &[usize],
    steps: Option<usize>,
    truncate: bool,
    source: &'static str,
) -> Result<usize, DataError> {
    batch_steps(longest(from, rows).unwrap_or(0), steps, truncate, source)
}

impl<E: IndexElement, D: Regrow<Elem = E>> GatherSteps for Batch<Lengths<E>, D> {
    fn steps_fit<From: Space>(
        from: &SourceView<'_, From>,
        steps: Option<usize>,
        truncate: bool,
        source: &'static str,
    ) -> Result<(), DataError> {
        let need = longest_of_all(from);
        let target = batch_steps(need, steps, truncate, source)?;
        let longest = need.min(target);
        match E::from_label(longest) {
            Some(_) => Ok(()),
            None => Err(DataError::LengthRange {
                source_name: source,
                length: longest,
                element: E::NAME,
            }),
        }
    }

    fn gather_steps<From: Space>(
        &mut self,
        from: SourceView<'_, From>,
        rows: &[usize],
        batch: usize,
        steps: Option<usize>,
        truncate: bool,
        source: &'static str,
    ) -> Result<(), DataError> {
        let target = policy_steps(&from, rows, steps, truncate, source)?;
        fill_unfilled(self, batch);
        let mut out = self.leaf_mut();
        out.fill(E::ZERO);
        for (j, &i) in rows.iter().enumerate().take(out.len()) {
            let t = kept_steps(&from, i, target);
            out[j] = E::from_label(t).ok_or_else(|| DataError::LengthRange {
                source_name: source,
                length: t,
                element: E::NAME,
            })?;
        }
        Ok(())
    }
}

impl<L: IndexSeqLayout, E: Element, D: Regrow<Elem = E>> GatherSteps for Batch<Mask<L, E>, D> {
    fn steps_fit<From: Space>(
        from: &SourceView<'_, From>,
        steps: Option<usize>,
        truncate: bool,
        source: &'static str,
    ) -> Result<(), DataError> {
        batch_steps(longest_of_all(from), steps, truncate, source).map(drop)
    }

    fn gather_steps<From: Space>(
        &mut self,
        from: SourceView<'_, From>,
        rows: &[usize],
        batch: usize,
        steps: Option<usize>,
        truncate: bool,
        source: &'static str,
    ) -> Result<(), DataError> {
        let target = policy_steps(&from, rows, steps, truncate, source)?;
        let ta = <Mask<L, E> as Space>::TIME_AXIS.unwrap_or(1);
        fill_unfilled(self, batch);
        let batch = self.len();
        if self.shape()[ta] != target
            && !D::regrow(self.array_mut(), dim_of::<Mask<L, E>>(batch, target))
            && self.shape()[ta] < target
        {
            return Err(DataError::TimeSteps {
                source_name: source,
                needed: target,
                room: self.shape()[ta],
            });
        }
        let mut out = self.leaf_mut();
        out.fill(E::ZERO);
        let ba = <Mask<L, E> as Space>::BATCH_AXIS;
        for (j, &i) in rows.iter().enumerate().take(batch) {
            let t = kept_steps(&from, i, target);
            out.index_axis_mut(Axis(ba), j)
                .slice_axis_mut(Axis(0), (0..t).into())
                .fill(E::ONE);
        }
        Ok(())
    }
}
