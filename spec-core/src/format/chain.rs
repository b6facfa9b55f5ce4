//! Conversions composed: a batch taken through a chain of spaces is planned as one conversion.
//!
//! Each conversion between spaces of one kind, and between an image or a volume and its vector,
//! is a strided view of the source followed by one copy (a [`Plan::Permute`]). A chain of them
//! ([`Batch::format_through`]) composes the views first: a chain of transposes is one
//! transpose, a transpose followed by a cast is one pass (the casts are composed into one
//! function), and a round trip (`bhwc → bchw → bhwc`) is the identity, which
//! [`Batch::view_through`] gives without a copy. A step that a view cannot express (flattening
//! data that a transpose before it left strided) is where the one physical transpose happens:
//! the data is copied there once, cast to the result's element type on the way, and the rest
//! of the chain stays views of that copy (which is the result when they end in memory order;
//! one more pass otherwise). A chain with a step that is not a permutation (one-hot labels, a [`Step`]) runs step
//! by step.
//!
//! [`moved`] counts, per thread, the passes over the data that conversions made and the bytes
//! they wrote, so a test (or a user) can check what a pipeline costs.
//!
//! [`Step`]: super::Step
//!
//! ```
//! use batchspec::prelude::*;
//! use batchspec::format::moved;
//!
//! let x = Batch::<image![4, 4, 3; BHWC, u8]>::new(ndarray::Array4::from_elem((2, 4, 4, 3), 7u8))?;
//! // A round trip: no copy.
//! let same = x.view_through::<(image![4, 4, 3; BCHW, u8], image![4, 4, 3; BHWC, u8])>().unwrap();
//! assert_eq!(same.array().as_ptr(), x.array().as_ptr());
//! // Two transposes and a cast: one pass.
//! let before = moved();
//! let y = x.format_through::<(image![4, 4, 3; BCHW, u8], image![4, 4, 3; CHWB, f32])>();
//! assert_eq!(moved().since(before).passes, 1);
//! assert_eq!(y.shape(), [3, 4, 4, 2]);
//! # Ok::<(), batchspec::Error>(())
//! ```

use super::FormatAs;
use crate::types::batch::{Batch, BatchView};
use crate::types::elem::{Element, LosslessCast};
use crate::types::plan::{Plan, pre_flatten, step_view};
use crate::types::space::Space;
use ndarray::{ArrayViewD, Data, Dimension, IxDyn};

/// A chain of spaces a batch of `S` goes through, each formatting as the next: a tuple
/// `(B, C, ..)` of up to four spaces, ending in [`Chain::Out`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a chain of conversions from `{S}`",
    label = "each space of the chain must format as the next, starting from the batch's own",
    note = "write the spaces the batch goes through as a tuple: `(image![..; BCHW], Vector<..>)`"
)]
pub trait Chain<S: Space> {
    /// The last space.
    type Out: Space;
    /// The plan of each step and the shape of its output for `batch` samples and `time` steps.
    fn steps(batch: usize, time: usize) -> Vec<(Plan, Vec<usize>)>;
    /// The element casts of the steps, composed.
    fn cast(x: S::Elem) -> <Self::Out as Space>::Elem;
    /// `true` when every step keeps the element type (the chain can be a view).
    fn same_elem() -> bool;
    /// The chain run step by step (for chains with a step that is not a permutation).
    fn stepwise<R: Data<Elem = S::Elem>>(batch: &Batch<S, R>) -> Batch<Self::Out>;
}

/// `Chain` for a tuple of spaces: `$out` is the last, `$from => $to` each step (the first from
/// `S`, the batch's own space).
macro_rules! chain {
    ($out:ident: $($t:ident),+; $first:ident $(, $from:ident => $to:ident)*) => {
        impl<S: Space, $($t: Space),+> Chain<S> for ($($t,)+)
        where
            S: FormatAs<$first>,
            S::Elem: LosslessCast<$first::Elem>,
            $($from: FormatAs<$to>, $from::Elem: LosslessCast<$to::Elem>,)*
        {
            type Out = $out;
            fn steps(batch: usize, time: usize) -> Vec<(Plan, Vec<usize>)> {
                vec![
                    (<S as FormatAs<$first>>::PLAN, $first::shape(batch, time)),
                    $((<$from as FormatAs<$to>>::PLAN, $to::shape(batch, time)),)*
                ]
            }
            #[inline]
            fn cast(x: S::Elem) -> $out::Elem {
                let x = <S::Elem as LosslessCast<$first::Elem>>::cast(x);
                $(let x = <$from::Elem as LosslessCast<$to::Elem>>::cast(x);)*
                x
            }
            fn same_elem() -> bool {
                same_elem::<S::Elem, $first::Elem>() $(&& same_elem::<$from::Elem, $to::Elem>())*
            }
            fn stepwise<R: Data<Elem = S::Elem>>(batch: &Batch<S, R>) -> Batch<$out> {
                let out = batch.format_as::<$first>();
                $(let out = out.format_as::<$to>();)*
                out
            }
        }
    };
}

chain!(B: B; B);
chain!(C: B, C; B, B => C);
chain!(D: B, C, D; B, B => C, C => D);
chain!(E: B, C, D, E; B, B => C, C => D, D => E);

/// Whether two element types are the same.
fn same_elem<A: Element, B: Element>() -> bool {
    core::any::TypeId::of::<A>() == core::any::TypeId::of::<B>()
}

/// Runs the steps on `v` into a new array of the last space's elements: the steps composed as
/// views, and one pass, the cast copy, made where it must be. Where strides cannot express a
/// flatten, the copy is made there, into the result's element type, in the order the flatten
/// needs; the rest of the chain is composed on it, and it is the result itself when that ends
/// in memory order (else one more pass). `None` for a step that is not a permutation.
fn run_chain<A: Element, B: Element>(
    v: ArrayViewD<'_, A>,
    steps: &[(Plan, Vec<usize>)],
    out_shape: &[usize],
    cast: &(dyn Fn(A) -> B + Sync),
) -> Option<ndarray::ArrayD<B>> {
    let mut v = v;
    let mut k = 0;
    while k < steps.len() {
        let (plan, shape) = &steps[k];
        if !matches!(plan, Plan::Permute { .. }) {
            return None;
        }
        // A flatten followed by the split that undoes it (image -> vector -> image) cancels:
        // the two steps are one permutation.
        if let Some(next) = steps.get(k + 1).and_then(|(p, _)| unflatten(&v, *plan, *p)) {
            v = next;
            k += 2;
            continue;
        }
        if let Some(next) = step_view(v.clone(), *plan, shape) {
            v = next;
            k += 1;
            continue;
        }
        return match pre_flatten(v.clone(), *plan) {
            // The flatten needs the permuted data in memory order: the physical transpose,
            // cast on the way.
            Some(permuted) => {
                let copy = copy_into(&permuted, cast)
                    .into_shape_with_order(IxDyn(shape))
                    .unwrap_or_else(|_| unreachable!("a copy in memory order flattens"));
                let rest = &steps[k + 1..];
                match compose_view(copy.view(), rest) {
                    Some(end) if end.is_standard_layout() && end.shape() == out_shape => {
                        // The rest are views in memory order of the copy: it is the result.
                        Some(
                            copy.into_shape_with_order(IxDyn(out_shape))
                                .unwrap_or_else(|_| unreachable!("same size, memory order")),
                        )
                    }
                    _ => run_chain(copy.view(), rest, out_shape, &|x| x),
                }
            }
            // The split needs its input in memory order.
            None => {
                let copy = copy_into(&v, &|x| x);
                run_chain(copy.view(), &steps[k..], out_shape, cast)
            }
        };
    }
    Some(copy_into(&v, cast))
}

/// A copy of `v` in memory order, cast: one pass.
fn copy_into<A: Element, B: Element>(
    v: &ArrayViewD<'_, A>,
    cast: &(dyn Fn(A) -> B + Sync),
) -> ndarray::ArrayD<B> {
    let mut out = ndarray::ArrayD::from_elem(IxDyn(v.shape()), B::ZERO);
    super::exec::copy_cast(v.view(), out.view_mut(), cast);
    out
}

/// The steps composed as views only: `None` where one needs a copy or is not a permutation.
fn compose_view<'a, A>(
    v: ArrayViewD<'a, A>,
    steps: &[(Plan, Vec<usize>)],
) -> Option<ArrayViewD<'a, A>> {
    let mut v = v;
    let mut k = 0;
    while k < steps.len() {
        let (plan, shape) = &steps[k];
        if let Some(next) = steps.get(k + 1).and_then(|(p, _)| unflatten(&v, *plan, *p)) {
            v = next;
            k += 2;
        } else {
            v = step_view(v, *plan, shape)?;
            k += 1;
        }
    }
    Some(v)
}

/// `v` through `first` (which flattens) and then `second` (which splits back into the same
/// sizes) as one permutation, without the flatten; `None` when the pair is not of that form.
fn unflatten<'a, A>(v: &ArrayViewD<'a, A>, first: Plan, second: Plan) -> Option<ArrayViewD<'a, A>> {
    let (
        Plan::Permute { flatten: true, .. },
        Plan::Permute {
            split: Some(split),
            flatten: false,
            perm,
            rank,
        },
    ) = (first, second)
    else {
        return None;
    };
    let permuted = pre_flatten(v.clone(), first)?;
    (permuted.shape() == split.shape(permuted.shape()[0]).slice() && rank == permuted.ndim())
        .then(|| permuted.permuted_axes(IxDyn(&perm[..rank])))
}

impl<S: Space, R: Data<Elem = S::Elem>> Batch<S, R> {
    /// The batch taken through the chain of spaces `C` (`(B, C, ..)`, each formatting as the
    /// next), planned as one conversion: the steps' views composed, the casts composed, and
    /// one pass into the result where the chain is permutations (two where a flatten needs the
    /// data in another order first). See [`Chain`](crate::format::Chain).
    pub fn format_through<C: Chain<S>>(&self) -> Batch<C::Out> {
        let (n, t) = (self.len(), self.time_len().unwrap_or(0));
        let steps = C::steps(n, t);
        let shape = <C::Out as Space>::shape(n, t);
        let Some(out) = run_chain(self.array_view().into_dyn(), &steps, &shape, &C::cast) else {
            return C::stepwise(self);
        };
        let out = out
            .into_dimensionality::<<C::Out as Space>::Dim>()
            .unwrap_or_else(|_| unreachable!("the result has the last space's rank"));
        Batch::from_checked(out)
    }

    /// The batch seen through the chain of spaces `C` without a copy, where the chain keeps the
    /// element type and strides can express it (a round trip is the batch itself); `None`
    /// otherwise ([`Batch::format_through`] then).
    pub fn view_through<C: Chain<S>>(&self) -> Option<BatchView<'_, C::Out>>
    where
        C::Out: Space<Elem = S::Elem>,
    {
        if !C::same_elem() {
            return None;
        }
        let (n, t) = (self.len(), self.time_len().unwrap_or(0));
        let v = compose_view(self.array_view().into_dyn(), &C::steps(n, t))?;
        let v = v.into_dimensionality::<<C::Out as Space>::Dim>().ok()?;
        Some(Batch::from_checked(v))
    }
}
