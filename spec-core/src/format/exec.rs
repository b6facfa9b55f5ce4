//! The run-time side of conversions: how each [`Plan`] moves the data, on top of the kernels.

use crate::types::axis::Layout;
use crate::types::elem::Element;
use crate::types::plan::Plan;
use crate::types::space::Space;
use core::cell::Cell;
use ndarray::{ArrayView, ArrayViewMut, Dimension, IntoDimension, IxDyn};

/// What the conversions of this thread have moved: passes over the data and bytes written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Moved {
    /// Passes over the data: each copy of a whole batch (a transpose, a cast, a materialized
    /// step of a chain). A gather's copies of its samples are not counted.
    pub passes: usize,
    /// Bytes written by those passes.
    pub bytes: usize,
}

impl Moved {
    /// What was moved between `earlier` and `self`.
    pub fn since(self, earlier: Moved) -> Moved {
        Moved {
            passes: self.passes - earlier.passes,
            bytes: self.bytes - earlier.bytes,
        }
    }
}

thread_local! {
    static MOVED: Cell<Moved> = const { Cell::new(Moved { passes: 0, bytes: 0 }) };
}

/// The passes and bytes the conversions of this thread have moved so far (a running count:
/// take the difference of two readings with [`Moved::since`]).
pub fn moved() -> Moved {
    MOVED.with(Cell::get)
}

/// Counts one pass that wrote `bytes`.
pub(crate) fn count_pass(bytes: usize) {
    MOVED.with(|m| {
        let now = m.get();
        m.set(Moved {
            passes: now.passes.saturating_add(1),
            bytes: now.bytes.saturating_add(bytes),
        });
    });
}

/// A `Permute` plan: split the source's feature axis (vector -> image), permute, cast, and
/// write into `dst` (flattening it for image -> vector).
/// One pass over a whole batch, counted in [`moved`] (a gather's per-sample calls go to
/// [`permute_cast_uncounted`]: they are not passes).
pub(crate) fn permute_cast<A: Element, B: Element, D1: Dimension, D2: Dimension, F>(
    src: ArrayView<'_, A, D1>,
    dst: ArrayViewMut<'_, B, D2>,
    plan: Plan,
    cast: F,
) where
    F: Fn(A) -> B + Copy + Sync,
{
    count_pass(dst.len().saturating_mul(core::mem::size_of::<B>()));
    permute_cast_uncounted(src, dst, plan, cast);
}

/// [`permute_cast`] without the count.
fn permute_cast_uncounted<A: Element, B: Element, D1: Dimension, D2: Dimension, F>(
    src: ArrayView<'_, A, D1>,
    dst: ArrayViewMut<'_, B, D2>,
    plan: Plan,
    cast: F,
) where
    F: Fn(A) -> B + Copy + Sync,
{
    let Plan::Permute {
        split,
        flatten,
        perm,
        rank,
    } = plan
    else {
        unreachable!("permute_cast runs Permute plans only");
    };
    let src = src.into_dyn();
    // The source as the rank-`rank` view the permutation applies to.
    let src = match split {
        Some(split) => {
            let shape = split.shape(src.shape()[0]);
            match src.clone().into_shape_with_order(shape.clone()) {
                Ok(v) => SplitSource::View(v),
                Err(_) => SplitSource::Owned(
                    src.as_standard_layout()
                        .into_owned()
                        .into_shape_with_order(shape)
                        .unwrap_or_else(|_| unreachable!("a standard-layout array reshapes")),
                ),
            }
        }
        None => SplitSource::View(src),
    };
    let src = src.view();
    let perm = &perm[..rank];
    let mut dst = dst.into_dyn();
    let contiguous = dst.is_standard_layout();
    match (flatten, contiguous, dst.as_slice_mut()) {
        (_, true, Some(slice)) => run_permute(src, perm, slice, cast),
        (false, _, _) => {
            // A strided destination of the permuted shape: an element-wise zip, no buffer.
            let permuted = src.permuted_axes(IxDyn(perm));
            dst.zip_mut_with(&permuted, |d, s| *d = cast(*s));
        }
        (true, _, _) => {
            // A strided flat destination: permute into a buffer, then assign.
            let out_shape: Vec<usize> = perm.iter().map(|&p| src.shape()[p]).collect();
            let mut tmp = vec![B::ZERO; out_shape.iter().product()];
            run_permute(src, perm, &mut tmp, cast);
            let tmp = ndarray::ArrayView::from_shape(IxDyn(&out_shape), &tmp)
                .unwrap_or_else(|_| unreachable!("the buffer has the permuted shape"));
            let tmp = tmp
                .into_shape_with_order(IxDyn(dst.shape()))
                .unwrap_or_else(|_| unreachable!("the permuted shape has the target's size"));
            dst.assign(&tmp);
        }
    }
}

/// Copies `src` into `dst` (of the same shape, in memory order), casting each element, with
/// the kernels: one pass, counted in [`moved`].
pub(crate) fn copy_cast<A: Element, B: Element, F>(
    src: ArrayView<'_, A, IxDyn>,
    mut dst: ndarray::ArrayViewMut<'_, B, IxDyn>,
    cast: F,
) where
    F: Fn(A) -> B + Sync,
{
    let perm: Vec<usize> = (0..src.ndim()).collect();
    match dst.as_slice_mut() {
        Some(slice) => {
            count_pass(core::mem::size_of_val(slice));
            run_permute(src, &perm, slice, cast);
        }
        None => unreachable!("the chain's copies are made in memory order"),
    }
}

/// The source of a permutation: a view of the batch, or a standard-layout copy where a view
/// with the split axis cannot be made.
enum SplitSource<'a, A> {
    View(ArrayView<'a, A, IxDyn>),
    Owned(ndarray::ArrayD<A>),
}

impl<A> SplitSource<'_, A> {
    fn view(&self) -> ArrayView<'_, A, IxDyn> {
        match self {
            SplitSource::View(v) => v.view(),
            SplitSource::Owned(a) => a.view(),
        }
    }
}

/// Copies `src` permuted by `perm` into the C-order slice `dst`, casting each element, with the
/// kernels of [`crate::kernel`].
fn run_permute<A: Element, B: Element, F>(
    src: ArrayView<'_, A, IxDyn>,
    perm: &[usize],
    dst: &mut [B],
    cast: F,
) where
    F: Fn(A) -> B + Sync,
{
    // The plan's permutation and the destination's size come from the types: an error here is a
    // bug in this crate, never a property of the user's data.
    if let Err(e) =
        batchspec_kernel::permute_into(src, perm, dst, cast, batchspec_kernel::Threads::All)
    {
        unreachable!("a conversion plan produced invalid kernel arguments: {e}");
    }
}

fn axis_of(letters: &[char], c: char) -> Option<usize> {
    letters.iter().position(|&l| l == c)
}

/// One-hot encoding: every label of the source sets one column of the target's feature axis;
/// `concat` gives each label position (`k`) its own block of `max_labels` columns.
pub(crate) fn one_hot<S: Space, T: Space>(
    src: ArrayView<'_, S::Elem, S::Dim>,
    dst: ArrayViewMut<'_, T::Elem, T::Dim>,
    plan: Plan,
) {
    let Plan::OneHot { concat } = plan else {
        unreachable!("one_hot runs OneHot plans only");
    };
    let max = S::MAX_LABELS.unwrap_or(0);
    let from = <S::Layout as Layout>::LETTERS;
    let to = <T::Layout as Layout>::LETTERS;
    let mut dst = dst.into_dyn();
    dst.fill(T::Elem::ZERO);
    let mut index = [0usize; 6];
    let index = &mut index[..to.len()];
    for (idx, label) in src.indexed_iter() {
        let idx = idx.into_dimension();
        let idx = idx.as_array_view();
        // Labels were checked when the batch was built; a label that is not one is skipped.
        let Some(label) = label.to_label().filter(|&l| l < max) else {
            continue;
        };
        for (a, slot) in to.iter().zip(index.iter_mut()) {
            *slot = match a {
                'f' => match (concat, axis_of(from, 'k')) {
                    (true, Some(k)) => idx[k] * max + label,
                    _ => label,
                },
                other => axis_of(from, *other).map_or(0, |p| idx[p]),
            };
        }
        if let Some(v) = dst.get_mut(IxDyn(index)) {
            *v = T::Elem::ONE;
        }
    }
}

/// The samples `rows` of `src` as one-hot samples `0..rows.len()` of `dst`: the gather fused
/// with [`one_hot`]. One label per sample into a row per sample (`Labels<M>` or `Index<M>` ->
/// `Vector<M>` or `OneHot<M>`, the common case), both in memory order, is written row by row;
/// any other a sample at a time through [`one_hot`], whose views (per sample) and index of the
/// axes' letters (per label) took a twentieth of a one-thread Parquet stream's time (measured).
pub(crate) fn gather_one_hot<S: Space, T: Space>(
    src: ArrayView<'_, S::Elem, S::Dim>,
    rows: &[usize],
    mut dst: ArrayViewMut<'_, T::Elem, T::Dim>,
    plan: Plan,
) {
    let max = S::MAX_LABELS.unwrap_or(0);
    let width = dst.shape().last().copied().unwrap_or(0);
    // With one label per sample, a label's column is the label, merged or concatenated.
    if S::FEATURES == Some(1)
        && <T::Layout as Layout>::LETTERS == ['b', 'f']
        && width > 0
        && let (Some(labels), Some(out)) = (src.as_slice(), dst.as_slice_mut())
    {
        for (row, &i) in out.chunks_exact_mut(width).zip(rows) {
            row.fill(T::Elem::ZERO);
            // As in `one_hot`: a label that is not one is skipped.
            if let Some(one) = labels
                .get(i)
                .and_then(|l| l.to_label())
                .filter(|&l| l < max)
                .and_then(|l| row.get_mut(l))
            {
                *one = T::Elem::ONE;
            }
        }
        return;
    }
    for (j, &i) in rows.iter().enumerate() {
        let one = src.slice_axis(ndarray::Axis(S::BATCH_AXIS), (i..i + 1).into());
        let out = dst.slice_axis_mut(ndarray::Axis(T::BATCH_AXIS), (j..j + 1).into());
        one_hot::<S, T>(one, out, plan);
    }
}

/// The first label of each sample (`Index<M, DIM>` -> `Labels<M>`).
pub(crate) fn first_label<A: Element, B: Element, D1: Dimension, D2: Dimension>(
    src: ArrayView<'_, A, D1>,
    dst: ArrayViewMut<'_, B, D2>,
    cast: impl Fn(A) -> B,
) {
    let src = src.into_dyn();
    let mut dst = dst.into_dyn();
    for (i, out) in dst.iter_mut().enumerate() {
        if let Some(v) = src.get(IxDyn(&[i, 0])) {
            *out = cast(*v);
        }
    }
}

/// One label per sample as a column of one (`Labels<M>` -> `Index<M, 1>`).
pub(crate) fn label_column<A: Element, B: Element, D1: Dimension, D2: Dimension>(
    src: ArrayView<'_, A, D1>,
    dst: ArrayViewMut<'_, B, D2>,
    cast: impl Fn(A) -> B,
) {
    let mut dst = dst.into_dyn();
    for (out, v) in dst.iter_mut().zip(src.iter()) {
        *out = cast(*v);
    }
}

/// A gather fused with a `Permute` plan. Where every sample is one contiguous run in both the
/// source and the target (the batch axis first, the permutation keeping the order of the axes
/// of more than one value, both in standard layout), rows are copied as runs with the cast
/// inlined; otherwise each sample is formatted on its own.
pub(crate) fn gather_permute<S: Space, T: Space, F>(
    src: ArrayView<'_, S::Elem, S::Dim>,
    rows: &[usize],
    mut dst: ArrayViewMut<'_, T::Elem, T::Dim>,
    plan: Plan,
    cast: F,
    slice: fn(&[S::Elem], &mut [T::Elem]),
) where
    F: Fn(S::Elem) -> T::Elem + Copy + Sync,
{
    let Plan::Permute { perm, rank, .. } = plan else {
        unreachable!("gather_permute runs Permute plans only");
    };
    let identity = perm[..rank].iter().enumerate().all(|(i, &p)| i == p);
    let batch_first = S::BATCH_AXIS == 0 && T::BATCH_AXIS == 0;
    if batch_first
        && src.is_standard_layout()
        && dst.is_standard_layout()
        && same_runs(&src, &perm[..rank])
    {
        let n_src = src.shape()[0];
        let run = src.len().checked_div(n_src).unwrap_or(0);
        if let (Some(s), Some(d)) = (src.as_slice(), dst.as_slice_mut())
            && let Some(d) = d.get_mut(..rows.len() * run)
            && batchspec_kernel::gather_rows_into(s, run, rows, d, cast).is_ok()
        {
            // The kernel's gather of rows (the loop of owned batches' `gather_rows`): a source
            // larger than the caches is read at random places, so the row some rows ahead is
            // prefetched while this one is copied (the distance and the size from which it is
            // done are the machine's tuning).
            return;
        }
    }
    if identity && batch_first {
        // Each sample a contiguous run, the batch axis strided (a leaf of a shared arena hub):
        // copy run by run, or element by element where a sample is strided too.
        let src = src.into_dyn();
        let mut dst = dst.into_dyn();
        if src.ndim() == dst.ndim() {
            for (j, &i) in rows.iter().enumerate() {
                let from = src.index_axis(ndarray::Axis(0), i);
                let mut to = dst.index_axis_mut(ndarray::Axis(0), j);
                match (from.as_slice(), to.as_slice_mut()) {
                    (Some(f), Some(t)) => slice(f, t),
                    _ => to.zip_mut_with(&from, |o, v| *o = cast(*v)),
                }
            }
            return;
        }
        let (src, dst) = (
            src.into_dimensionality::<S::Dim>()
                .unwrap_or_else(|_| unreachable!("same rank")),
            dst.into_dimensionality::<T::Dim>()
                .unwrap_or_else(|_| unreachable!("same rank")),
        );
        return per_sample::<S, T, F>(src, rows, dst, plan, cast);
    }
    per_sample::<S, T, F>(src, rows, dst, plan, cast)
}

/// Whether `src` read in the target's axis order (`perm`: the source axis of each target axis)
/// is in standard layout, so that every sample is the same run of values in both spaces:
/// ndarray's own test, which ignores the strides of axes of one value (a single channel moves,
/// `bhwc` of one channel as `bchw`, without moving any value).
fn same_runs<E, D: Dimension>(src: &ArrayView<'_, E, D>, perm: &[usize]) -> bool {
    let (shape, strides) = (src.shape(), src.strides());
    if perm.len() != shape.len() {
        return false;
    }
    // ndarray's `is_standard_layout` of the view with its axes permuted, without making that
    // view (this runs for every leaf of every batch): an empty array is; else, from the last
    // axis on, each axis of more than one value has the stride of the values after it.
    if shape.contains(&0) {
        return true;
    }
    let mut want = 1isize;
    for &p in perm.iter().rev() {
        let (Some(&n), Some(&s)) = (shape.get(p), strides.get(p)) else {
            return false;
        };
        if n != 1 && s != want {
            return false;
        }
        want = want.wrapping_mul(n as isize);
    }
    true
}

/// [`Convert::gather_new`](super::Convert::gather_new) of a `Permute` plan, the batch axis
/// first in both spaces and no time axis. The source is seen as the view the permutation
/// applies to (a vector split into an image's axes, without a copy); where every sample is then
/// one contiguous run in both spaces (the permutation keeping the order of the axes of more than
/// one value, the source in standard layout: a cast, a vector split into a `bhwc` image, a `bhwc`
/// image flattened), the rows cast into new memory by [`batchspec_kernel::gather_rows`]; where
/// each sample is transposed (`bhwc` as `bchw`, a vector split into a `bchw` image, a `bchw`
/// image flattened in `hwc` order), each permuted into its part of new memory, in the order of
/// the target's values, by [`batchspec_kernel::gather_permuted`]: each value written once
/// either way. `None` where the source cannot be split without a copy (gathered into zeros).
pub(crate) fn gather_permute_new<S: Space, T: Space, F>(
    src: ArrayView<'_, S::Elem, S::Dim>,
    rows: &[usize],
    pad_rows: usize,
    pad: T::Elem,
    plan: Plan,
    cast: F,
) -> Option<ndarray::Array<T::Elem, T::Dim>>
where
    F: Fn(S::Elem) -> T::Elem + Copy + Sync,
{
    let Plan::Permute {
        perm, rank, split, ..
    } = plan
    else {
        return None;
    };
    if S::BATCH_AXIS != 0 || T::BATCH_AXIS != 0 || T::TIME_AXIS.is_some() {
        return None;
    }
    let dim = crate::types::space::dim_of::<T>(rows.len() + pad_rows, 0);
    let src = src.into_dyn();
    // The source as the rank-`rank` view the permutation applies to. A flatten needs nothing
    // more: the permuted values of each sample, in memory order, are its flat row.
    let src = match split {
        Some(split) => {
            let shape = split.shape(*src.shape().first()?);
            src.into_shape_with_order(shape).ok()?
        }
        None => src,
    };
    let perm = &perm[..rank];
    if src.ndim() != rank {
        return None;
    }
    let out = if same_runs(&src, perm) {
        let values = src.as_slice()?;
        let run = src.len().checked_div(src.shape()[0])?;
        batchspec_kernel::gather_rows(values, run, rows, pad_rows, pad, cast).ok()?
    } else {
        batchspec_kernel::gather_permuted(src, rows, pad_rows, pad, perm, cast).ok()?
    };
    ndarray::Array::from_shape_vec(dim, out).ok()
}

fn per_sample<S: Space, T: Space, F>(
    src: ArrayView<'_, S::Elem, S::Dim>,
    rows: &[usize],
    mut dst: ArrayViewMut<'_, T::Elem, T::Dim>,
    plan: Plan,
    cast: F,
) where
    F: Fn(S::Elem) -> T::Elem + Copy + Sync,
{
    for (j, &i) in rows.iter().enumerate() {
        let one = src.slice_axis(ndarray::Axis(S::BATCH_AXIS), (i..i + 1).into());
        let out = dst.slice_axis_mut(ndarray::Axis(T::BATCH_AXIS), (j..j + 1).into());
        permute_cast_uncounted(one, out, plan, cast);
    }
}

/// The samples `rows` of a ragged leaf, formatted as `T`, into the samples `0..rows.len()` of
/// `dst`, each cut at `limit` steps; the steps of `dst` after a sample's are left as they are.
/// `dst`'s time axis holds at least `limit` steps or the longest sample (the callers size it).
pub(crate) fn ragged_rows_into<S: super::FormatAs<T>, T: Space>(
    r: &crate::types::ragged::RaggedView<'_, S>,
    rows: &[usize],
    mut dst: ArrayViewMut<'_, T::Elem, T::Dim>,
    limit: usize,
) {
    let (Some(from_t), Some(to_t)) = (S::TIME_AXIS, T::TIME_AXIS) else {
        unreachable!("a ragged leaf is of a sequence space, which formats only as one")
    };
    for (j, &i) in rows.iter().enumerate() {
        let t = r.length(i).min(limit);
        if t == 0 {
            continue;
        }
        let out = dst
            .view_mut()
            .slice_axis_move(ndarray::Axis(T::BATCH_AXIS), (j..j + 1).into())
            .slice_axis_move(ndarray::Axis(to_t), (0..t).into());
        let one = r
            .sample_batch(i)
            .slice_axis_move(ndarray::Axis(from_t), (0..t).into());
        S::gather_view_into(one, &[0], out);
    }
}

#[cfg(test)]
mod tests {
    use super::same_runs;
    use ndarray::{ArrayD, IxDyn, Slice};

    /// Every permutation of `0..n`.
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in permutations(n - 1) {
            for k in 0..=p.len() {
                let mut q = p.clone();
                q.insert(k, n - 1);
                out.push(q);
            }
        }
        out
    }

    #[test]
    fn same_runs_is_ndarrays_standard_layout_of_the_permuted_view() {
        let shapes: [&[usize]; 6] = [
            &[4, 3, 2],
            &[4, 1, 5],
            &[1, 1, 3],
            &[3, 0, 2],
            &[2, 3, 1, 4],
            &[5],
        ];
        let mut checked = 0;
        for shape in shapes {
            let a = ArrayD::<f32>::zeros(IxDyn(shape));
            let mut views = vec![a.view()];
            // Reversed, stepped, transposed and cut views.
            let mut rev = a.view();
            rev.invert_axis(ndarray::Axis(0));
            views.push(rev);
            let mut step = a.view();
            step.slice_axis_inplace(ndarray::Axis(shape.len() - 1), Slice::new(0, None, 2));
            views.push(step);
            views.push(a.view().reversed_axes());
            let mut cut = a.view();
            cut.slice_axis_inplace(ndarray::Axis(0), Slice::new(1, None, 1));
            views.push(cut);
            for v in views {
                for perm in permutations(shape.len()) {
                    let want = v.clone().permuted_axes(perm.clone()).is_standard_layout();
                    assert_eq!(
                        same_runs(&v, &perm),
                        want,
                        "shape {shape:?}, strides {:?}, perm {perm:?}",
                        v.strides()
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100);
        // A permutation of another rank is not one of the view's.
        let a = ArrayD::<f32>::zeros(IxDyn(&[2, 3]));
        assert!(!same_runs(&a.view(), &[0]));
    }
}
