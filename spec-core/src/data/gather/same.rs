//! A record gathered into a record of its own type, leaf by leaf in order ([`GatherSame`]):
//! what a dataset's selections, a stream's staging and a Parquet stream's windows do.

use crate::data::gather::leaf::{LeafMut, OwnedData, gather_leaf};
use crate::format::FormatAs;
use crate::types::batch::Batch;
use crate::types::elem::Element;
use crate::types::for_tuples;
use crate::types::ragged::Ragged;
use crate::types::space::{Null, Space, dim_of};
use ndarray::Axis;

/// A spec whose samples can be gathered into a spec of the same type, leaf by leaf in order (a
/// dataset's `select`, `slice`, `permuted`): no lookup, so nested records and records that hold
/// a source twice are gathered too. The derive implements it.
#[diagnostic::on_unimplemented(
    message = "the samples of `{Self}` cannot be copied into a new `{Self}`",
    label = "every batch field must own its data (`Batch`, `ArcBatch` or `Ragged`)"
)]
pub trait GatherSame {
    /// Writes the samples `rows` of `from` into the samples `at..at + rows.len()` of `out`
    /// (every row below `from`'s length and the range within `out`'s: the callers check). A
    /// sequence batch of `out` grows to the time steps of `from` if it has fewer, keeping its
    /// samples; a shorter `from` is written with zeros after its steps.
    fn gather_same(out: &mut Self, from: &Self, rows: &[usize], at: usize);
}

impl<S: Space + FormatAs<S>, D: OwnedData<Elem = S::Elem>> GatherSame for Batch<S, D> {
    fn gather_same(out: &mut Self, from: &Self, rows: &[usize], at: usize) {
        let Some(ta) = S::TIME_AXIS else {
            let target = out
                .leaf_mut()
                .slice_axis_move(Axis(S::BATCH_AXIS), (at..at + rows.len()).into());
            gather_leaf::<S, S>(from.view(), rows, 0..0, target);
            return;
        };
        let (have, need) = (out.shape()[ta], from.shape()[ta]);
        if need > have {
            // Grow, keeping the samples already there.
            let kept = out.array().to_owned();
            let batch = out.len();
            D::regrow(out.array_mut_unchecked(), dim_of::<S>(batch, need));
            out.array_mut_unchecked()
                .slice_axis_mut(Axis(ta), (0..have).into())
                .assign(&kept);
        }
        let mut target = out
            .leaf_mut()
            .slice_axis_move(Axis(S::BATCH_AXIS), (at..at + rows.len()).into());
        if need < target.shape()[ta] {
            target.fill(S::Elem::ZERO);
        }
        let steps = target.slice_axis_move(Axis(ta), (0..need).into());
        gather_leaf::<S, S>(from.view(), rows, 0..0, steps);
    }
}

impl<S: Space> GatherSame for Ragged<S> {
    fn gather_same(out: &mut Self, from: &Self, rows: &[usize], at: usize) {
        out.splice_rows(from.view(), rows, at);
    }
}

impl GatherSame for Null {
    fn gather_same(_: &mut Self, _: &Self, _: &[usize], _: usize) {}
}

macro_rules! same_tuples {
    ($($t:ident $i:tt),+) => {
        impl<$($t: GatherSame),+> GatherSame for ($($t,)+) {
            fn gather_same(out: &mut Self, from: &Self, rows: &[usize], at: usize) {
                $( $t::gather_same(&mut out.$i, &from.$i, rows, at); )+
            }
        }
    };
}
for_tuples!(same_tuples);
