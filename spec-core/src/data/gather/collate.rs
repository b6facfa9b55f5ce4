//! Collate policies: how the samples of a sequence field become a batch ([`Collate`]: the pad
//! value, `pad_to`, `truncate`), checked once for a whole source ([`check_fits`]), and the time
//! steps a batch takes under them.

use crate::data::error::DataError;
use crate::types::elem::Element;
use crate::types::ragged::{SequenceSpace, SourceView};
use crate::types::space::Space;

/// How the samples of a sequence field become a batch, declared on the request's field
/// (`#[spec(pad = -1, pad_to = 128, truncate)]`; the derive builds it). The default pads with
/// zeros to the longest sample of each batch and refuses nothing an owned buffer can hold.
///
/// `pad` alone goes on any batch field: the value of its padding rows, those after the real
/// samples of a batch padded to the full batch size
/// ([`LastBatch::Pad`](crate::iteration::LastBatch::Pad)), as MXNet's `data_padding` and
/// `label_padding`. In an index space it must be a label.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collate<E> {
    /// The value of every step that is not a sample's (padding), and of padding rows.
    pub pad: E,
    /// The time steps of every batch (`pad_to`); `None`: as many as the longest sample of the
    /// batch (for a borrowed buffer, its own steps).
    pub steps: Option<usize>,
    /// Cut the samples longer than the batch's steps (`truncate`) instead of refusing them
    /// ([`DataError::TimeSteps`]).
    pub truncate: bool,
}

impl<E: Element> Collate<E> {
    /// Zeros, to the longest sample, nothing cut.
    pub const DEFAULT: Self = Collate {
        pad: E::ZERO,
        steps: None,
        truncate: false,
    };

    /// The time steps of a batch whose longest sample has `need` steps: `pad_to`, else `need`.
    pub(super) fn steps(&self, need: usize, source: &'static str) -> Result<usize, DataError> {
        batch_steps(need, self.steps, self.truncate, source)
    }

    /// Checks that the pad value is a label of `S` when `S` is an index space.
    pub(super) fn check_pad<S: Space<Elem = E>>(
        &self,
        source: &'static str,
    ) -> Result<(), DataError> {
        match S::MAX_LABELS {
            Some(max) if !matches!(self.pad.to_label(), Some(l) if l < max) => {
                Err(DataError::PadLabel {
                    source_name: source,
                    value: self.pad.to_string(),
                    max_labels: max,
                })
            }
            _ => Ok(()),
        }
    }
}

impl<E: Element> Default for Collate<E> {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The number of steps of the longest of the samples `rows` of `from` (a dense source: its time
/// steps, `None` without a time axis).
pub(super) fn longest<From: Space>(from: &SourceView<'_, From>, rows: &[usize]) -> Option<usize> {
    match from {
        SourceView::Dense(view) => view.time_len(),
        SourceView::Ragged(r) => Some(rows.iter().map(|&i| r.length(i)).max().unwrap_or(0)),
    }
}

/// The number of steps of the longest sample of `from` (0 without a time axis).
pub(super) fn longest_of_all<From: Space>(from: &SourceView<'_, From>) -> usize {
    match from {
        SourceView::Dense(view) => view.time_len().unwrap_or(0),
        SourceView::Ragged(r) => r.max_len(),
    }
}

/// The time steps of a batch whose longest sample has `need` steps under the policy `steps`
/// (`pad_to`) / `truncate`: `pad_to`, else `need`; a longer sample without `truncate` is an
/// error.
pub(super) fn batch_steps(
    need: usize,
    steps: Option<usize>,
    truncate: bool,
    source: &'static str,
) -> Result<usize, DataError> {
    let target = steps.unwrap_or(need);
    if need > target && !truncate {
        return Err(DataError::TimeSteps {
            source_name: source,
            needed: need,
            room: target,
        });
    }
    Ok(target)
}

/// Checks, once for a whole source, that every sample of `from` can be gathered into a sequence
/// field of `To` under `collate` (no sample longer than `pad_to` without `truncate`, a pad
/// value that is a label): a provider checks this where it is made, so that its batches cannot
/// fail.
///
/// # Errors
/// [`DataError::TimeSteps`] naming the longest sample's steps, [`DataError::PadLabel`].
pub fn check_fits<From: Space, To: Space>(
    from: &SourceView<'_, From>,
    collate: &Collate<To::Elem>,
    source: &'static str,
) -> Result<(), DataError> {
    if collate.pad != To::Elem::ZERO {
        collate.check_pad::<To>(source)?;
    }
    if To::TIME_AXIS.is_some() {
        collate.steps(longest_of_all(from), source)?;
    }
    Ok(())
}

/// A space that `pad_to` and `truncate` apply to: one with a time axis.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no time axis: `pad_to` and `truncate` apply to sequence fields",
    label = "not a sequence space",
    note = "`pad_to` and `truncate` say how samples of different lengths become a batch: they go on `VectorSeq`, `IndexSeq` and `VolumeSeq` fields (`pad` alone, the value of padding, goes on any field)"
)]
pub trait Padded: Space {}

#[diagnostic::do_not_recommend]
impl<S: SequenceSpace> Padded for S {}

#[cfg(test)]
mod tests {
    use super::{Collate, check_fits};
    use crate::types::ragged::{Ragged, SourceView};
    use crate::types::space::{IndexSeq, Vector};

    #[test]
    fn a_pad_value_outside_the_labels_is_refused_at_run_time_too() {
        // The derive refuses a literal pad outside `0..M` when it sees `M`; a request written
        // with a type it cannot read (an alias, a generic) is checked when the provider is made.
        let r = Ragged::<IndexSeq<5>>::from_flat_samples([vec![1i64, 2]]).unwrap();
        let bad = Collate {
            pad: 5i64,
            steps: None,
            truncate: false,
        };
        let err = check_fits::<_, IndexSeq<5>>(&SourceView::Ragged(r.view()), &bad, "tokens")
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "source `tokens`: the pad value 5 is not a label in 0..5"
        );
        let good = Collate { pad: 4i64, ..bad };
        assert!(
            check_fits::<_, IndexSeq<5>>(&SourceView::Ragged(r.view()), &good, "tokens").is_ok()
        );
        // A space without a time axis has no policy to break.
        let v = crate::types::batch::Batch::<Vector<2>>::zeros(3, 0);
        let any = Collate {
            pad: 1.0f32,
            steps: Some(1),
            truncate: false,
        };
        assert!(check_fits::<_, Vector<2>>(&SourceView::Dense(v.view()), &any, "x").is_ok());
    }
}
