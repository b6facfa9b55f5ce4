//! The fused gather: each sample read once from the record and written once into the batch,
//! cropped, flipped, padded, noised, normalized and cast on the way, in the batch's layout; then
//! the batch-level mixing in place.

use super::draw::Draws;
use super::steps::{Augmentation, ImageSpace, SampleChoices, Steps, for_each_pair};
use crate::types::elem::{Element, LosslessCast};
use crate::types::ragged::SourceView;
use crate::types::space::{OneHot, Space};
use ndarray::{ArrayView, ArrayView3, ArrayViewMut, ArrayViewMut3, Axis, Ix4};
use std::ops::Range;

/// A one-hot field of floats: the labels a mixing step can mix.
#[diagnostic::on_unimplemented(
    message = "labels mixed by mixup or CutMix are one-hot floats, but this field asks for `{Self}`",
    label = "a mixture of two labels is not a label: it is a one-hot row weighted by λ and 1-λ",
    note = "ask for the labels as `OneHot<M>` (f32 or f64): a record's `Index<M>` converts to it"
)]
pub trait MixLabels: Space {}
#[diagnostic::do_not_recommend]
impl<const M: usize, const DIM: usize> MixLabels for OneHot<M, DIM, f32> {}
#[diagnostic::do_not_recommend]
impl<const M: usize, const DIM: usize> MixLabels for OneHot<M, DIM, f64> {}

/// Reads a sample's value at `(y, x, c)`.
trait Read3<E> {
    fn at(&self, y: usize, x: usize, c: usize) -> E;
}

/// Writes a sample's value at `(y, x, c)`.
trait Write3<E> {
    fn put(&mut self, y: usize, x: usize, c: usize, v: E);
}

/// A sample in one slice of memory with non-negative strides: the fast path.
struct Flat<'a, T> {
    data: T,
    strides: [usize; 3],
    _p: core::marker::PhantomData<&'a ()>,
}

impl<E: Copy> Read3<E> for Flat<'_, &[E]> {
    #[inline(always)]
    fn at(&self, y: usize, x: usize, c: usize) -> E {
        self.data[y * self.strides[0] + x * self.strides[1] + c * self.strides[2]]
    }
}

impl<E> Write3<E> for Flat<'_, &mut [E]> {
    #[inline(always)]
    fn put(&mut self, y: usize, x: usize, c: usize, v: E) {
        self.data[y * self.strides[0] + x * self.strides[1] + c * self.strides[2]] = v;
    }
}

impl<E: Copy> Read3<E> for ArrayView3<'_, E> {
    #[inline]
    fn at(&self, y: usize, x: usize, c: usize) -> E {
        self[[y, x, c]]
    }
}

impl<E> Write3<E> for ArrayViewMut3<'_, E> {
    #[inline]
    fn put(&mut self, y: usize, x: usize, c: usize, v: E) {
        self[[y, x, c]] = v;
    }
}

/// A view of a sample in `(h, w, c)` order whose memory is one slice, with its strides; `None`
/// for other views (negative or overlapping strides, gaps).
fn flat_strides<E>(v: &ArrayView3<'_, E>) -> Option<[usize; 3]> {
    let s = v.strides();
    if s.iter().any(|&x| x < 0) {
        return None;
    }
    v.as_slice_memory_order()?;
    Some([s[0] as usize, s[1] as usize, s[2] as usize])
}

/// What is done to each value.
trait Values<Ei, Eo> {
    /// The value read at output index `at` of channel `c`.
    fn value(&self, v: Ei, c: usize, at: usize, ch: &SampleChoices) -> Eo;
    /// The same without noise, for the values of channel `c`: its constants taken once.
    fn channel(&self, c: usize) -> impl Fn(Ei) -> Eo + Copy;
    /// The `(mean, std)` of channel `c`: `(v as f32 - mean) / std` is what [`Values::channel`]
    /// gives when the values are `u8` made `f32` (for the SIMD rows).
    fn affine(&self, c: usize) -> (f32, f32);
}

/// Values cast, nothing computed.
struct Cast;
impl<Ei: LosslessCast<Eo>, Eo: Element> Values<Ei, Eo> for Cast {
    #[inline(always)]
    fn value(&self, v: Ei, _: usize, _: usize, _: &SampleChoices) -> Eo {
        v.cast()
    }
    #[inline(always)]
    fn channel(&self, _: usize) -> impl Fn(Ei) -> Eo + Copy {
        |v: Ei| v.cast()
    }
    fn affine(&self, _: usize) -> (f32, f32) {
        (0.0, 1.0)
    }
}

/// Values in `f32`: noise added, then normalized.
struct Affine {
    noise: bool,
    normalize: Option<(&'static [f32], &'static [f32])>,
}
impl<Ei: Element, Eo: Element> Values<Ei, Eo> for Affine {
    #[inline(always)]
    fn value(&self, v: Ei, c: usize, at: usize, ch: &SampleChoices) -> Eo {
        let mut f = v.to_f64() as f32;
        if self.noise {
            f += ch.noise(at);
        }
        if let Some((mean, std)) = self.normalize {
            f = (f - mean[c]) / std[c];
        }
        Eo::cast_from_f64(f64::from(f))
    }
    #[inline(always)]
    fn channel(&self, c: usize) -> impl Fn(Ei) -> Eo + Copy {
        let (m, sd) = match self.normalize {
            Some((mean, std)) => (mean[c], std[c]),
            None => (0.0, 1.0),
        };
        move |v: Ei| Eo::cast_from_f64(f64::from((v.to_f64() as f32 - m) / sd))
    }
    fn affine(&self, c: usize) -> (f32, f32) {
        match self.normalize {
            Some((mean, std)) => (mean[c], std[c]),
            None => (0.0, 1.0),
        }
    }
}

/// Where output coordinate `i` of `n` (flipped or not) reads in an input of `len` padded by
/// `pad` and cropped at `offset`: `None` in a constant padding.
#[inline(always)]
fn source_index(
    i: usize,
    n: usize,
    flip: bool,
    offset: usize,
    pad: usize,
    len: usize,
    reflect: bool,
) -> Option<usize> {
    let k = if flip { n - 1 - i } else { i } + offset;
    if k >= pad && k - pad < len {
        Some(k - pad)
    } else if reflect {
        // Mirror about the edge, the edge not repeated; pad < len (checked), so once is enough.
        Some(if k < pad {
            pad - k
        } else {
            2 * (len - 1) + pad - k
        })
    } else {
        None
    }
}

/// One sample: read through `src`, written through `dst`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn one_sample<Ei: Element, Eo: Element, V: Values<Ei, Eo>>(
    src: &impl Read3<Ei>,
    dst: &mut impl Write3<Eo>,
    steps: &Steps,
    hwc: [usize; 3],
    out_hw: (usize, usize),
    ch: &SampleChoices,
    values: &V,
) {
    let [h, w, c] = hwc;
    let (ho, wo) = out_hw;
    for y in 0..ho {
        let sy = source_index(y, ho, ch.flip_v, ch.crop_y, steps.pad, h, steps.reflect);
        for x in 0..wo {
            let at = (y * wo + x) * c;
            let sx = source_index(x, wo, ch.flip_h, ch.crop_x, steps.pad, w, steps.reflect);
            match (sy, sx) {
                (Some(sy), Some(sx)) => {
                    for k in 0..c {
                        dst.put(y, x, k, values.value(src.at(sy, sx, k), k, at + k, ch));
                    }
                }
                _ => {
                    for k in 0..c {
                        dst.put(y, x, k, values.value(Ei::ZERO, k, at + k, ch));
                    }
                }
            }
        }
    }
    if let Some((ys, xs)) = &ch.cutout {
        for y in ys.clone() {
            for x in xs.clone() {
                for k in 0..c {
                    dst.put(y, x, k, Eo::ZERO);
                }
            }
        }
    }
}

/// The output columns `[xa, xb)` that read inside the image, and the source columns
/// `[lo, hi]` they read (read backwards when flipped); `None` when no column does.
fn interior(
    wo: usize,
    flip: bool,
    offset: usize,
    pad: usize,
    w: usize,
) -> Option<(usize, usize, usize, usize)> {
    // Unflipped output column x reads x + offset - pad.
    let a = pad.saturating_sub(offset).min(wo);
    let b = (pad + w).saturating_sub(offset).min(wo);
    if a >= b {
        return None;
    }
    let (xa, xb) = if flip { (wo - b, wo - a) } else { (a, b) };
    let lo = a + offset - pad;
    let hi = b - 1 + offset - pad;
    Some((xa, xb, lo, hi))
}

/// Sets columns `cols` of an output row whose columns are `stride` values apart to `v`.
#[inline(always)]
fn fill_columns<E: Copy>(row: &mut [E], stride: usize, cols: Range<usize>, v: E) {
    if stride == 1 {
        row[cols].fill(v);
    } else {
        for x in cols {
            row[x * stride] = v;
        }
    }
}

/// Writes the edge columns of an output row (those before `xa` and from `xb` on; its columns
/// `stride` values apart): the pad value where the padding is constant, else each column's
/// mirrored source, `edge(x)`.
#[inline(always)]
fn write_edges<E: Copy>(
    row: &mut [E],
    stride: usize,
    (xa, xb): (usize, usize),
    reflect: bool,
    pad_value: E,
    edge: impl Fn(usize) -> E,
) {
    let wo = (row.len() - 1) / stride + 1;
    if reflect {
        for x in (0..xa).chain(xb..wo) {
            row[x * stride] = edge(x);
        }
    } else {
        fill_columns(row, stride, 0..xa, pad_value);
        fill_columns(row, stride, xb..wo, pad_value);
    }
}

/// One sample of one slice each, without noise: each output row of each channel is a run of
/// the source row read with a stride (backwards when flipped), its edges padded.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn fast_sample<Ei: Element, Eo: Element, V: Values<Ei, Eo>>(
    src: &[Ei],
    ss: [usize; 3],
    dst: &mut [Eo],
    ds: [usize; 3],
    steps: &Steps,
    hwc: [usize; 3],
    out_hw: (usize, usize),
    ch: &SampleChoices,
    values: &V,
) {
    let [h, w, c] = hwc;
    let (ho, wo) = out_hw;
    let inner = interior(wo, ch.flip_h, ch.crop_x, steps.pad, w);
    // Three channels interleaved in the source and planar in the batch (`bhwc -> bchw`, the
    // usual case): the three rows of a pixel run are written together, one read of each pixel.
    let three = c == 3 && ss[2] == 1 && ss[1] == 3 && ds[1] == 1 && ds[2] >= wo;
    for y in 0..ho {
        let sy = source_index(y, ho, ch.flip_v, ch.crop_y, steps.pad, h, steps.reflect);
        if three && let (Some(sy), Some((xa, xb, lo, hi))) = (sy, inner) {
            let s0 = sy * ss[0];
            let run = &src[s0 + lo * 3..s0 + hi * 3 + 3];
            let base = y * ds[0];
            let (r0, rest) = dst[base..].split_at_mut(ds[2]);
            let (r1, r2) = rest.split_at_mut(ds[2]);
            let (r0, r1, r2) = (&mut r0[xa..xb], &mut r1[xa..xb], &mut r2[xa..xb]);
            let (f0, f1, f2) = (values.channel(0), values.channel(1), values.channel(2));
            let [a0, a1, a2] = [0, 1, 2].map(|k| values.affine(k));
            let done = batchspec_kernel::deinterleave3_affine(
                run,
                [&mut *r0, &mut *r1, &mut *r2],
                [a0.0, a1.0, a2.0],
                [a0.1, a1.1, a2.1],
                ch.flip_h,
            );
            // The pixels the SIMD rows left: the last of the run, written at the end of the
            // rows, or at their start when flipped.
            let n = r0.len();
            let (r0, r1, r2) = if ch.flip_h {
                (
                    &mut r0[..n - done],
                    &mut r1[..n - done],
                    &mut r2[..n - done],
                )
            } else {
                (&mut r0[done..], &mut r1[done..], &mut r2[done..])
            };
            let px = run[3 * done..].chunks_exact(3);
            let rows = r0.iter_mut().zip(r1.iter_mut()).zip(r2.iter_mut());
            if ch.flip_h {
                for (((a, b), d), p) in rows.zip(px.rev()) {
                    *a = f0(p[0]);
                    *b = f1(p[1]);
                    *d = f2(p[2]);
                }
            } else {
                for (((a, b), d), p) in rows.zip(px) {
                    *a = f0(p[0]);
                    *b = f1(p[1]);
                    *d = f2(p[2]);
                }
            }
            // The edges, channel by channel.
            for k in 0..3 {
                let value = values.channel(k);
                let pad_value = value(Ei::ZERO);
                let row = &mut dst[base + k * ds[2]..base + k * ds[2] + wo];
                write_edges(
                    row,
                    1,
                    (xa, xb),
                    steps.reflect,
                    pad_value,
                    |x| match source_index(x, wo, ch.flip_h, ch.crop_x, steps.pad, w, steps.reflect)
                    {
                        Some(sx) => value(src[s0 + sx * 3 + k]),
                        None => pad_value,
                    },
                );
            }
            continue;
        }
        for k in 0..c {
            let value = values.channel(k);
            let pad_value = value(Ei::ZERO);
            let base = y * ds[0] + k * ds[2];
            let row = &mut dst[base..base + (wo - 1) * ds[1] + 1];
            let Some(sy) = sy else {
                fill_columns(row, ds[1], 0..wo, pad_value);
                continue;
            };
            let s0 = sy * ss[0] + k * ss[2];
            let edge = |x: usize| match source_index(
                x,
                wo,
                ch.flip_h,
                ch.crop_x,
                steps.pad,
                w,
                steps.reflect,
            ) {
                Some(sx) => value(src[s0 + sx * ss[1]]),
                None => pad_value,
            };
            let Some((xa, xb, lo, hi)) = inner else {
                // No column reads inside the image: the whole row is its edges.
                write_edges(row, ds[1], (0, 0), steps.reflect, pad_value, edge);
                continue;
            };
            write_edges(row, ds[1], (xa, xb), steps.reflect, pad_value, edge);
            let run = &src[s0 + lo * ss[1]..=s0 + hi * ss[1]];
            let n = xb - xa;
            let (st, dt) = (ss[1], ds[1]);
            match (dt == 1, ch.flip_h) {
                (true, false) => {
                    for (i, o) in row[xa..xb].iter_mut().enumerate() {
                        *o = value(run[i * st]);
                    }
                }
                (true, true) => {
                    for (i, o) in row[xa..xb].iter_mut().enumerate() {
                        *o = value(run[(n - 1 - i) * st]);
                    }
                }
                (false, flip) => {
                    for i in 0..n {
                        let from = if flip { n - 1 - i } else { i };
                        row[(xa + i) * dt] = value(run[from * st]);
                    }
                }
            }
        }
    }
    if let Some((ys, xs)) = &ch.cutout {
        for y in ys.clone() {
            for x in xs.clone() {
                for k in 0..c {
                    dst[y * ds[0] + x * ds[1] + k * ds[2]] = Eo::ZERO;
                }
            }
        }
    }
}

/// Dispatches one sample to the fast (one slice each) or the general path.
fn sample_into<Ei: Element, Eo: Element, V: Values<Ei, Eo>>(
    src: ArrayView3<'_, Ei>,
    mut dst: ArrayViewMut3<'_, Eo>,
    steps: &Steps,
    hwc: [usize; 3],
    ch: &SampleChoices,
    values: &V,
) {
    let out_hw = (dst.shape()[0], dst.shape()[1]);
    let dst_strides = flat_strides(&dst.view());
    match (flat_strides(&src), dst_strides) {
        (Some(ss), Some(ds)) if steps.noise == 0.0 && out_hw.0 > 0 && out_hw.1 > 0 => {
            let src = src
                .to_slice_memory_order()
                .unwrap_or_else(|| unreachable!("checked to be one slice"));
            let dst = dst
                .as_slice_memory_order_mut()
                .unwrap_or_else(|| unreachable!("checked to be one slice"));
            fast_sample(src, ss, dst, ds, steps, hwc, out_hw, ch, values);
        }
        (Some(ss), Some(ds)) => {
            let src_flat = Flat {
                data: src
                    .to_slice_memory_order()
                    .unwrap_or_else(|| unreachable!("checked to be one slice")),
                strides: ss,
                _p: core::marker::PhantomData,
            };
            let mut dst_flat = Flat {
                data: dst
                    .as_slice_memory_order_mut()
                    .unwrap_or_else(|| unreachable!("checked to be one slice")),
                strides: ds,
                _p: core::marker::PhantomData,
            };
            one_sample(&src_flat, &mut dst_flat, steps, hwc, out_hw, ch, values);
        }
        _ => one_sample(&src, &mut dst, steps, hwc, out_hw, ch, values),
    }
}

/// A batch of images in memory order seen as `(b, h, w, c)`.
fn logical<S: ImageSpace>(
    a: ArrayView<'_, S::Elem, S::Dim>,
) -> Option<ArrayView<'_, S::Elem, Ix4>> {
    let a = a.into_dimensionality::<Ix4>().ok()?;
    Some(a.permuted_axes(S::AXES))
}

fn logical_mut<S: ImageSpace>(
    a: ArrayViewMut<'_, S::Elem, S::Dim>,
) -> Option<ArrayViewMut<'_, S::Elem, Ix4>> {
    let a = a.into_dimensionality::<Ix4>().ok()?;
    Some(a.permuted_axes(S::AXES))
}

/// The request's field `Self` (named by its type beside the struct, `Request·image`) is
/// gathered through the augmentation `A` from its source, which the record `R` holds as `From`
/// (the images `A` reads), into the field's space `To`. The derive writes it as a bound for
/// each augmented field, and gathers the field through it.
#[diagnostic::on_unimplemented(
    message = "field `{Self}` augments its source with `{A}`, but the record `{R}` holds it as `{From}`, not as the images `{A}` reads",
    label = "`{A}` reads the images of its `Augmentation::Input`",
    note = "an augmentation reads its source exactly as the record holds it: make `type Input` the record's space of the source"
)]
pub trait AugmentsFrom<R, A, From, To> {
    /// [`gather_augmented`] with `A`.
    #[doc(hidden)]
    fn gather(
        from: SourceView<'_, From>,
        rows: &[usize],
        zero: Range<usize>,
        target: ArrayViewMut<'_, <To as Space>::Elem, <To as Space>::Dim>,
        draws: Draws<'_>,
    ) where
        From: Space,
        To: Space;
}

// The record's space is matched in a bound, not in the impl's trait (`A::Input` there would make
// a mismatch rustc's "type mismatch resolving" rather than the trait's message).
#[diagnostic::do_not_recommend]
impl<F, R, A, From, To> AugmentsFrom<R, A, From, To> for F
where
    A: Augmentation<Input = From>,
    From: Space,
    To: ImageSpace,
    From::Elem: LosslessCast<To::Elem>,
{
    #[inline]
    fn gather(
        from: SourceView<'_, From>,
        rows: &[usize],
        zero: Range<usize>,
        target: ArrayViewMut<'_, To::Elem, To::Dim>,
        draws: Draws<'_>,
    ) {
        gather_augmented::<A, To>(from, rows, zero, target, draws)
    }
}

/// Writes the samples `rows` of `from` through the augmentation `P` into the samples
/// `0..rows.len()` of `out`, zeroes the samples `zero` (padding rows), then mixes the pairs of
/// the batch if `P` mixes. Every random choice is drawn from `draws` and the sample's global
/// index (its row in `from`).
///
/// The shapes are those the provider made (`out` holds the batch, every row is in `from`);
/// a view that is not of images of the augmentation's sizes is left untouched (the derive's
/// checks make that impossible).
#[doc(hidden)]
pub fn gather_augmented<P: Augmentation, To: ImageSpace>(
    from: SourceView<'_, P::Input>,
    rows: &[usize],
    zero: Range<usize>,
    out: ArrayViewMut<'_, To::Elem, To::Dim>,
    draws: Draws<'_>,
) where
    <P::Input as Space>::Elem: LosslessCast<To::Elem>,
{
    let steps = P::STEPS;
    let hwc = <P::Input as ImageSpace>::HWC;
    let SourceView::Dense(from) = from else {
        return;
    };
    let (Some(src), Some(mut dst)) = (
        logical::<P::Input>(from.array_view()),
        logical_mut::<To>(out),
    ) else {
        return;
    };
    let (ho, wo) = steps.output_size(hwc[0], hwc[1]);
    if dst.shape()[1..] != [ho, wo, hwc[2]] {
        return;
    }
    if zero.start < zero.end && zero.end <= dst.shape()[0] {
        dst.slice_axis_mut(Axis(0), zero.into())
            .fill(To::Elem::ZERO);
    }
    let affine = Affine {
        noise: steps.noise > 0.0,
        normalize: steps.normalize,
    };
    for (j, &i) in rows.iter().enumerate() {
        let ch = steps.choices(hwc[0], hwc[1], draws, i);
        let s = src.index_axis(Axis(0), i);
        let d = dst.index_axis_mut(Axis(0), j);
        if steps.noise > 0.0 || steps.normalize.is_some() {
            sample_into(s, d, &steps, hwc, &ch, &affine);
        } else {
            sample_into(s, d, &steps, hwc, &ch, &Cast);
        }
    }
    if steps.mix.is_some() {
        mix_images(&steps, hwc, draws, rows, dst);
    }
}

/// Mixes the pairs of the batch in place.
fn mix_images<E: Element>(
    steps: &Steps,
    hwc: [usize; 3],
    draws: Draws<'_>,
    rows: &[usize],
    mut dst: ArrayViewMut<'_, E, Ix4>,
) {
    for_each_pair(steps, hwc[0], hwc[1], draws, rows, |pair| {
        let (mut left, mut right) = dst.view_mut().split_at(Axis(0), pair.j);
        let mut a = left.index_axis_mut(Axis(0), pair.i);
        let mut b = right.index_axis_mut(Axis(0), 0);
        match pair.cut {
            None => {
                let lam = pair.lambda;
                ndarray::Zip::from(&mut a).and(&mut b).for_each(|x, y| {
                    let (xa, ya) = (x.to_f64(), y.to_f64());
                    *x = E::cast_from_f64(lam * xa + (1.0 - lam) * ya);
                    *y = E::cast_from_f64(lam * ya + (1.0 - lam) * xa);
                });
            }
            Some((ys, xs)) => {
                // The cut's rectangle of both images (no `s!`: its expansion allows `unsafe`,
                // which this crate forbids).
                for v in [&mut a, &mut b] {
                    v.slice_axis_inplace(Axis(0), ndarray::Slice::from(ys.start..ys.end));
                    v.slice_axis_inplace(Axis(1), ndarray::Slice::from(xs.start..xs.end));
                }
                ndarray::Zip::from(&mut a)
                    .and(&mut b)
                    .for_each(core::mem::swap);
            }
        }
    });
}

/// The request's field `Self` (labels, `mixed_with`, named by its type beside the struct,
/// `Request·label`) takes the mixing of the pairs that the augmentation `A` mixes, as the labels
/// `L`. The derive writes it as a bound for each such field, and mixes the field through it.
#[diagnostic::on_unimplemented(
    message = "field `{Self}` mixes its labels as `{A}` mixes its images' pairs, but `{L}` is not a batch of one-hot labels",
    label = "`mixed_with` mixes one-hot labels (`OneHot`)"
)]
pub trait MixesLabels<R, A, L: Space> {
    /// [`mix_labels`] with `A`.
    #[doc(hidden)]
    fn mix(labels: ArrayViewMut<'_, L::Elem, L::Dim>, rows: &[usize], draws: Draws<'_>);
}

#[diagnostic::do_not_recommend]
impl<F, R, A: Augmentation, L: MixLabels> MixesLabels<R, A, L> for F {
    #[inline]
    fn mix(labels: ArrayViewMut<'_, L::Elem, L::Dim>, rows: &[usize], draws: Draws<'_>) {
        mix_labels::<A, L>(labels, rows, draws)
    }
}

/// Mixes the one-hot labels of the batch's pairs as the images were mixed: each row becomes
/// `λ · own + (1 - λ) · partner`.
#[doc(hidden)]
pub fn mix_labels<P: Augmentation, L: MixLabels>(
    labels: ArrayViewMut<'_, L::Elem, L::Dim>,
    rows: &[usize],
    draws: Draws<'_>,
) {
    let [h, w, _] = <P::Input as ImageSpace>::HWC;
    let batch = Axis(L::BATCH_AXIS);
    let Ok(mut labels) = labels.into_dimensionality::<ndarray::Ix2>() else {
        return;
    };
    for_each_pair(&P::STEPS, h, w, draws, rows, |pair| {
        let (mut left, mut right) = labels.view_mut().split_at(batch, pair.j);
        let mut a = left.index_axis_mut(batch, pair.i);
        let mut b = right.index_axis_mut(batch, 0);
        let lam = pair.lambda;
        ndarray::Zip::from(&mut a).and(&mut b).for_each(|x, y| {
            let (xa, ya) = (x.to_f64(), y.to_f64());
            *x = <L::Elem as Element>::cast_from_f64(lam * xa + (1.0 - lam) * ya);
            *y = <L::Elem as Element>::cast_from_f64(lam * ya + (1.0 - lam) * xa);
        });
    });
}
