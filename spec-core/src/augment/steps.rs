//! The steps of an augmentation, their order, and the checks of a pipeline against the images
//! it reads and the field it fills, made when the program is compiled.

use super::draw::{Draws, below, beta, gauss, uniform};
use crate::types::axis::{Axis, C, H, W, position};
use crate::types::elem::Element;
use crate::types::space::{Image, ImageLayout, Space};
use core::marker::PhantomData;

/// An image space that augmentations read or write: its rows, columns and channels and where
/// they are in memory.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an image: augmentations move the pixels of images",
    label = "pad, crop, flip, noise, normalize, cutout and mixup apply to an image space (`Image<H, W, C, N, L, E>`)",
    note = "a vector or a sequence has no rows and columns to crop or flip: ask for the source as an image, or leave the field unaugmented"
)]
pub trait ImageSpace: Space {
    /// Rows, columns, channels.
    const HWC: [usize; 3];
    /// The memory positions of the axes `b`, `h`, `w`, `c`.
    const AXES: [usize; 4];
}

const fn pos(letters: &[char], l: char) -> usize {
    match position(letters, l) {
        Some(p) => p,
        None => 0,
    }
}

#[diagnostic::do_not_recommend]
impl<const H_: usize, const W_: usize, const C_: usize, const N: usize, L, E> ImageSpace
    for Image<H_, W_, C_, N, L, E>
where
    L: ImageLayout,
    E: Element,
{
    const HWC: [usize; 3] = [H_, W_, C_];
    const AXES: [usize; 4] = [
        pos(L::LETTERS, crate::types::axis::B::LETTER),
        pos(L::LETTERS, H::LETTER),
        pos(L::LETTERS, W::LETTER),
        pos(L::LETTERS, C::LETTER),
    ];
}

/// Mixing of pairs of samples within a batch, with their labels (see [`Steps::mixup`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mix {
    /// mixup (Zhang et al., 2018): `λ·x_i + (1-λ)·x_j`, `λ ~ Beta(α, α)`.
    Mixup(f32),
    /// CutMix (Yun et al., 2019): a box of area `(1-λ)` of the image taken from the partner.
    CutMix(f32),
}

/// The steps of an augmentation, built in `const` and run fused, in this order (as DALI's
/// `crop_mirror_normalize` fuses its own):
///
/// 1. [`pad`](Steps::pad) with zeros or [`reflect_pad`](Steps::reflect_pad) by `p` pixels on
///    every side;
/// 2. [`random_crop`](Steps::random_crop) or [`center_crop`](Steps::center_crop) to `h × w`
///    (of the padded image);
/// 3. [`flip_h`](Steps::flip_h) (mirror left-right) and [`flip_v`](Steps::flip_v) (upside down)
///    with a probability;
/// 4. [`noise`](Steps::noise): additive Gaussian noise, in the input's units;
/// 5. [`normalize`](Steps::normalize): `(x - mean[c]) / std[c]` per channel, computed in `f32`;
/// 6. [`cutout`](Steps::cutout): a square set to 0 (DeVries and Taylor, 2017);
/// 7. [`mixup`](Steps::mixup) or [`cutmix`](Steps::cutmix): pairs within the batch, labels mixed
///    as one-hot.
///
/// Calling a step after one that comes later in this order, or twice, is refused when the
/// constant is evaluated, that is by `cargo check`, in words.
///
/// ```
/// use batchspec::augment::Steps;
/// const TRAIN: Steps = Steps::new()
///     .pad(4)
///     .random_crop(32, 32)
///     .flip_h(0.5)
///     .normalize(&[125.3, 123.0, 113.9], &[63.0, 62.1, 66.7]);
/// assert_eq!(TRAIN.output_size(32, 32), (32, 32));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Steps {
    pub(super) stage: u8,
    pub(super) pad: usize,
    pub(super) reflect: bool,
    pub(super) crop: Option<(usize, usize)>,
    pub(super) random_crop: bool,
    pub(super) flip_h: f32,
    pub(super) flip_v: f32,
    pub(super) noise: f32,
    pub(super) normalize: Option<(&'static [f32], &'static [f32])>,
    pub(super) cutout: Option<(usize, f32)>,
    pub(super) mix: Option<Mix>,
}

/// The ids of the steps in the random draws (their keys).
pub(super) const STEP_CROP: u64 = 1;
pub(super) const STEP_FLIP_H: u64 = 2;
pub(super) const STEP_FLIP_V: u64 = 3;
pub(super) const STEP_NOISE: u64 = 4;
pub(super) const STEP_CUTOUT: u64 = 5;
pub(super) const STEP_MIX: u64 = 6;

/// `self` with its stage moved to `stage`; a step out of order stops the evaluation of the
/// constant here, in the step the user called.
macro_rules! in_order {
    ($self:ident, $stage:literal, $what:literal) => {{
        if $self.stage >= $stage {
            panic!("{}", order_message($what).as_str());
        }
        let mut s = $self;
        s.stage = $stage;
        s
    }};
}

const fn probability(p: f32) -> bool {
    p >= 0.0 && p <= 1.0
}

impl Steps {
    /// No step: the images as they are (cast and laid out as the field asks).
    pub const fn new() -> Self {
        Steps {
            stage: 0,
            pad: 0,
            reflect: false,
            crop: None,
            random_crop: false,
            flip_h: 0.0,
            flip_v: 0.0,
            noise: 0.0,
            normalize: None,
            cutout: None,
            mix: None,
        }
    }

    /// Pads every side with `p` pixels of value 0 (torchvision's `RandomCrop(padding=p)`).
    pub const fn pad(self, p: usize) -> Self {
        let mut s = in_order!(self, 1, "pad");
        s.pad = p;
        s
    }

    /// Pads every side with `p` pixels mirrored from the image, the edge not repeated (NumPy's
    /// and torchvision's `reflect`); `p` must be smaller than the image's rows and columns.
    pub const fn reflect_pad(self, p: usize) -> Self {
        let mut s = in_order!(self, 1, "reflect_pad");
        s.pad = p;
        s.reflect = true;
        s
    }

    /// Crops `h × w` at a place drawn uniformly for each sample (a validation request's
    /// [`Eval`] crops the center).
    pub const fn random_crop(self, h: usize, w: usize) -> Self {
        if h == 0 || w == 0 {
            panic!(
                "a crop of no rows or no columns leaves no image: give `random_crop(h, w)` sizes of at least 1"
            );
        }
        let mut s = in_order!(self, 2, "random_crop");
        s.crop = Some((h, w));
        s.random_crop = true;
        s
    }

    /// Crops the `h × w` center (rounded toward the top left).
    pub const fn center_crop(self, h: usize, w: usize) -> Self {
        if h == 0 || w == 0 {
            panic!(
                "a crop of no rows or no columns leaves no image: give `center_crop(h, w)` sizes of at least 1"
            );
        }
        let mut s = in_order!(self, 2, "center_crop");
        s.crop = Some((h, w));
        s.random_crop = false;
        s
    }

    /// Mirrors the image left-right with probability `p` (a horizontal flip, as the format
    /// step [`FlipLeftRight`](crate::format::FlipLeftRight) does).
    pub const fn flip_h(self, p: f32) -> Self {
        if !probability(p) {
            panic!("`flip_h(p)` takes a probability: `p` must be in 0.0..=1.0");
        }
        let mut s = in_order!(self, 3, "flip_h");
        s.flip_h = p;
        s
    }

    /// Turns the image upside down with probability `p` (a vertical flip, as the format step
    /// [`FlipUpDown`](crate::format::FlipUpDown) does).
    pub const fn flip_v(self, p: f32) -> Self {
        if !probability(p) {
            panic!("`flip_v(p)` takes a probability: `p` must be in 0.0..=1.0");
        }
        let mut s = in_order!(self, 4, "flip_v");
        s.flip_v = p;
        s
    }

    /// Adds Gaussian noise of standard deviation `std` (in the units of the input: pixel values
    /// for `u8` images) to every value, padding included; the field must hold floats.
    pub const fn noise(self, std: f32) -> Self {
        if !(std >= 0.0 && std < f32::INFINITY) {
            panic!("`noise(std)` takes a standard deviation: a finite number of at least 0");
        }
        let mut s = in_order!(self, 5, "noise");
        s.noise = std;
        s
    }

    /// `(x - mean[c]) / std[c]` for channel `c`, in `f32` (torchvision's `Normalize`); one mean
    /// and one positive std per channel of the image; the field must hold floats.
    pub const fn normalize(self, mean: &'static [f32], std: &'static [f32]) -> Self {
        if mean.len() != std.len() {
            panic!(
                "`normalize(mean, std)` takes one mean and one std per channel: the two lists differ in length"
            );
        }
        let mut i = 0;
        while i < std.len() {
            if !(std[i] > 0.0 && std[i] < f32::INFINITY && mean[i].is_finite()) {
                panic!(
                    "`normalize(mean, std)`: every std must be positive and finite, every mean finite"
                );
            }
            i += 1;
        }
        let mut s = in_order!(self, 6, "normalize");
        s.normalize = Some((mean, std));
        s
    }

    /// With probability `p`, sets a `size × size` square (centered at a uniform pixel, clipped
    /// to the image) to 0, after normalization.
    pub const fn cutout(self, size: usize, p: f32) -> Self {
        if size == 0 || !probability(p) {
            panic!(
                "`cutout(size, p)` takes a square of at least 1 pixel and a probability in 0.0..=1.0"
            );
        }
        let mut s = in_order!(self, 7, "cutout");
        s.cutout = Some((size, p));
        s
    }

    /// mixup within each batch: the samples are paired, each pair mixed as `λ·x_i + (1-λ)·x_j`
    /// with `λ ~ Beta(alpha, alpha)`; a field of labels declared `mixed_with` the source is
    /// mixed with the same pairs and weights. Pairs are taken in place (a reflection of the
    /// batch's positions), so no sample is copied aside; the field must hold floats.
    pub const fn mixup(self, alpha: f32) -> Self {
        if !(alpha > 0.0 && alpha < f32::INFINITY) {
            panic!("`mixup(alpha)` takes a positive, finite alpha");
        }
        let mut s = in_order!(self, 8, "mixup");
        s.mix = Some(Mix::Mixup(alpha));
        s
    }

    /// CutMix within each batch: each pair swaps a box of area about `(1-λ)` of the image,
    /// `λ ~ Beta(alpha, alpha)`, and their labels are mixed by the area kept.
    pub const fn cutmix(self, alpha: f32) -> Self {
        if !(alpha > 0.0 && alpha < f32::INFINITY) {
            panic!("`cutmix(alpha)` takes a positive, finite alpha");
        }
        let mut s = in_order!(self, 8, "cutmix");
        s.mix = Some(Mix::CutMix(alpha));
        s
    }

    /// The deterministic version for evaluation: a random crop becomes the center crop, and
    /// flips, noise, cutout and mixing are dropped; padding and normalization stay.
    pub const fn eval(mut self) -> Self {
        self.random_crop = false;
        self.flip_h = 0.0;
        self.flip_v = 0.0;
        self.noise = 0.0;
        self.cutout = None;
        self.mix = None;
        self
    }

    /// The rows and columns of the output for an input of `h × w`.
    pub const fn output_size(&self, h: usize, w: usize) -> (usize, usize) {
        match self.crop {
            Some(hw) => hw,
            None => (h + 2 * self.pad, w + 2 * self.pad),
        }
    }

    /// `true` when the values are computed in `f32` (noise or normalization), so that the
    /// field must hold floats.
    pub const fn computes_floats(&self) -> bool {
        self.noise > 0.0 || self.normalize.is_some() || self.mix.is_some()
    }

    /// The mixing step, if any.
    pub const fn mix(&self) -> Option<Mix> {
        self.mix
    }

    /// The random choices for the sample of global index `row` of an `h × w` input: where it is
    /// cropped, whether it is flipped, where its cutout is. What the fused gather does, exposed
    /// for logging and for tests against plain implementations.
    pub fn choices(&self, h: usize, w: usize, draws: Draws<'_>, row: usize) -> SampleChoices {
        let row = row as u64;
        let (ph, pw) = (h + 2 * self.pad, w + 2 * self.pad);
        let (ho, wo) = self.output_size(h, w);
        let (crop_y, crop_x) = match self.crop {
            Some((ch, cw)) if self.random_crop => {
                let key = draws.key(row, STEP_CROP);
                (
                    below(key, 0, ph.saturating_sub(ch) + 1),
                    below(key, 1, pw.saturating_sub(cw) + 1),
                )
            }
            Some((ch, cw)) => (ph.saturating_sub(ch) / 2, pw.saturating_sub(cw) / 2),
            None => (0, 0),
        };
        let flip_h =
            self.flip_h > 0.0 && uniform(draws.key(row, STEP_FLIP_H), 0) < f64::from(self.flip_h);
        let flip_v =
            self.flip_v > 0.0 && uniform(draws.key(row, STEP_FLIP_V), 0) < f64::from(self.flip_v);
        let cutout = match self.cutout {
            Some((size, p)) => {
                let key = draws.key(row, STEP_CUTOUT);
                if uniform(key, 0) < f64::from(p) {
                    let cy = below(key, 1, ho);
                    let cx = below(key, 2, wo);
                    let half = size / 2;
                    Some((
                        cy.saturating_sub(half)..(cy + size - half).min(ho),
                        cx.saturating_sub(half)..(cx + size - half).min(wo),
                    ))
                } else {
                    None
                }
            }
            None => None,
        };
        SampleChoices {
            crop_y,
            crop_x,
            flip_h,
            flip_v,
            cutout,
            noise_key: if self.noise > 0.0 {
                draws.key(row, STEP_NOISE)
            } else {
                0
            },
            noise: self.noise,
        }
    }

    /// The pairs of a batch of `rows` (global sample indices, in batch order) and their mixing,
    /// for images of `h × w`: what [`mixup`](Steps::mixup) and [`cutmix`](Steps::cutmix) do.
    /// Exposed for tests and logging; the gather computes the same without allocating.
    pub fn pairs(&self, h: usize, w: usize, draws: Draws<'_>, rows: &[usize]) -> Vec<MixPair> {
        let mut out = Vec::new();
        for_each_pair(self, h, w, draws, rows, |p| out.push(p));
        out
    }
}

impl Default for Steps {
    fn default() -> Self {
        Self::new()
    }
}

/// The random choices of one sample (see [`Steps::choices`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SampleChoices {
    /// The top row of the crop in the padded image.
    pub crop_y: usize,
    /// The left column of the crop in the padded image.
    pub crop_x: usize,
    /// Mirrored left-right.
    pub flip_h: bool,
    /// Turned upside down.
    pub flip_v: bool,
    /// The rows and columns of the output set to 0, if cut.
    pub cutout: Option<(core::ops::Range<usize>, core::ops::Range<usize>)>,
    noise_key: u64,
    noise: f32,
}

impl SampleChoices {
    /// The noise added to the value at `index` of the sample's output in row-major `h, w, c`
    /// order (`(y · w + x) · channels + c`), in the input's units; 0 without noise.
    #[inline]
    pub fn noise(&self, index: usize) -> f32 {
        if self.noise > 0.0 {
            self.noise * gauss(self.noise_key, index as u64) as f32
        } else {
            0.0
        }
    }
}

/// A pair of samples mixed together (see [`Steps::pairs`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MixPair {
    /// The positions of the two samples in the batch (`i < j`).
    pub i: usize,
    /// The partner.
    pub j: usize,
    /// The weight of each sample's own label (and, for mixup, of its own values).
    pub lambda: f64,
    /// For CutMix, the rows and columns swapped between the two.
    pub cut: Option<(core::ops::Range<usize>, core::ops::Range<usize>)>,
}

/// Calls `f` for each pair of a batch: positions `i` and `j = (r - i) mod n` (a reflection, so
/// each pair is met once and no sample is in two pairs; at most two positions are their own
/// partner and stay as they are), `r` drawn from the batch's first row, `λ` from the lower
/// global index of the pair.
pub(super) fn for_each_pair(
    steps: &Steps,
    h: usize,
    w: usize,
    draws: Draws<'_>,
    rows: &[usize],
    mut f: impl FnMut(MixPair),
) {
    let (Some(mix), Some(&first)) = (steps.mix, rows.first()) else {
        return;
    };
    let (ho, wo) = steps.output_size(h, w);
    let n = rows.len();
    let r = below(draws.key(first as u64, STEP_MIX), 0, n);
    for i in 0..n {
        let j = (r + n - i) % n;
        if j <= i {
            continue;
        }
        let key = draws.key_of(
            draws.global(rows[i]).min(draws.global(rows[j])),
            STEP_MIX + 1,
        );
        let (lambda, cut) = match mix {
            Mix::Mixup(alpha) => (beta(key, f64::from(alpha)), None),
            Mix::CutMix(alpha) => {
                let lam = beta(key, f64::from(alpha));
                let frac = (1.0 - lam).sqrt();
                let (bh, bw) = ((ho as f64 * frac) as usize, (wo as f64 * frac) as usize);
                let cy = below(mix_key(key), 0, ho);
                let cx = below(mix_key(key), 1, wo);
                let ys = cy.saturating_sub(bh / 2)..(cy + bh - bh / 2).min(ho);
                let xs = cx.saturating_sub(bw / 2)..(cx + bw - bw / 2).min(wo);
                let area = ys.len() * xs.len();
                let kept = 1.0 - area as f64 / (ho * wo) as f64;
                (kept, Some((ys, xs)))
            }
        };
        f(MixPair { i, j, lambda, cut });
    }
}

fn mix_key(key: u64) -> u64 {
    super::draw::mix64(key ^ 0xc2b2_ae3d_27d4_eb4f)
}

/// An augmentation: the images it reads and its steps. Implemented by the user for a type of
/// their own, named by a request's field (`#[spec(augment = Train)]`).
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::augment::{Augmentation, Steps};
///
/// /// CIFAR-style training: shifts of up to 4 pixels, mirrors, normalized.
/// struct Train;
/// impl Augmentation for Train {
///     type Input = image![32, 32, 3; BHWC, u8];
///     const STEPS: Steps = Steps::new()
///         .pad(4)
///         .random_crop(32, 32)
///         .flip_h(0.5)
///         .normalize(&[125.3, 123.0, 113.9], &[63.0, 62.1, 66.7]);
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an augmentation",
    label = "`augment = ..` names a type that implements `batchspec::augment::Augmentation`",
    note = "implement it for a type of your own: `impl Augmentation for Train {{ type Input = image![..]; const STEPS: Steps = Steps::new()...; }}`"
)]
pub trait Augmentation: 'static + Send + Sync {
    /// The images it reads, as the record holds them.
    type Input: ImageSpace;
    /// The steps.
    const STEPS: Steps;
}

/// The deterministic version of the augmentation `P`, for a validation request: the same
/// padding, center crop and normalization, no flip, noise, cutout or mixing ([`Steps::eval`]).
pub struct Eval<P>(PhantomData<fn() -> P>);

// Not recommended: a type that is not an augmentation is told so, not that `Eval<P>` is one (the
// only impl of the library, which rustc would show as the one to use).
#[diagnostic::do_not_recommend]
impl<P: Augmentation> Augmentation for Eval<P> {
    type Input = P::Input;
    const STEPS: Steps = P::STEPS.eval();
}

/// A message built in `const`: what a check refuses, with its numbers.
#[derive(Clone, Copy)]
pub struct Msg {
    buf: [u8; 400],
    len: usize,
}

impl Msg {
    const fn new() -> Self {
        Msg {
            buf: [0; 400],
            len: 0,
        }
    }

    const fn s(mut self, s: &str) -> Self {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() && self.len < self.buf.len() {
            self.buf[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    const fn n(mut self, mut n: usize) -> Self {
        let mut digits = [0u8; 20];
        let mut k = 0;
        loop {
            digits[k] = b'0' + (n % 10) as u8;
            k += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        while k > 0 && self.len < self.buf.len() {
            k -= 1;
            self.buf[self.len] = digits[k];
            self.len += 1;
        }
        self
    }

    const fn size(self, h: usize, w: usize) -> Self {
        self.n(h).s("×").n(w)
    }

    /// The message.
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "an augmentation does not fit its images",
        }
    }
}

const fn order_message(what: &str) -> Msg {
    Msg::new()
        .s("`")
        .s(what)
        .s("` comes after a step that runs later, or is given twice: the steps run in the order pad or reflect_pad, random_crop or center_crop, flip_h, flip_v, noise, normalize, cutout, mixup or cutmix; write them in that order, each once")
}

/// Checks an augmentation against the field it fills, when the program is compiled (the derive
/// evaluates it in a constant): the crop fits the padded image, reflect padding is smaller than
/// the image, normalization has one mean per channel, the output has the field's rows, columns
/// and channels, and a field of integers is not given computed values.
#[doc(hidden)]
// Evaluated in a constant, where a message cannot be boxed.
#[allow(clippy::result_large_err)]
pub const fn check_augment<P: Augmentation, To: ImageSpace>(field: &str) -> Result<(), Msg> {
    let s = P::STEPS;
    let [h, w, c] = <P::Input as ImageSpace>::HWC;
    let (ph, pw) = (h + 2 * s.pad, w + 2 * s.pad);
    if s.reflect && (s.pad >= h || s.pad >= w) {
        return Err(Msg::new()
            .s("reflect padding by ")
            .n(s.pad)
            .s(" needs an image of more rows and columns than that, but the augmentation of field `")
            .s(field)
            .s("` reads ")
            .size(h, w)
            .s(" images"));
    }
    if let Some((ch, cw)) = s.crop
        && (ch > ph || cw > pw)
    {
        return Err(Msg::new()
            .s("the crop ")
            .size(ch, cw)
            .s(" of field `")
            .s(field)
            .s("` is larger than its ")
            .size(h, w)
            .s(" images padded by ")
            .n(s.pad)
            .s(" (")
            .size(ph, pw)
            .s(")"));
    }
    if let Some((mean, _)) = s.normalize
        && mean.len() != c
    {
        return Err(Msg::new()
            .s("the augmentation of field `")
            .s(field)
            .s("` normalizes ")
            .n(mean.len())
            .s(" channels, but its images have ")
            .n(c)
            .s(": give one mean and one std per channel"));
    }
    let (ho, wo) = s.output_size(h, w);
    let [th, tw, tc] = To::HWC;
    if ho != th || wo != tw || c != tc {
        return Err(Msg::new()
            .s("field `")
            .s(field)
            .s("` asks for ")
            .size(th, tw)
            .s("×")
            .n(tc)
            .s(" images, but its augmentation makes ")
            .size(ho, wo)
            .s("×")
            .n(c)
            .s(" from the ")
            .size(h, w)
            .s("×")
            .n(c)
            .s(" images of the record"));
    }
    if s.computes_floats() && !<To::Elem as Element>::FLOAT {
        return Err(Msg::new()
            .s("field `")
            .s(field)
            .s("` holds `")
            .s(<To::Elem as Element>::NAME)
            .s("`, but its augmentation computes fractional values (noise, normalize, mixup or cutmix): ask for `f32` or `f64` images"));
    }
    Ok(())
}

/// Checks that the augmentation `P` of the images mixes samples, for a field of labels declared
/// `mixed_with` their source.
#[doc(hidden)]
// Evaluated in a constant, where a message cannot be boxed.
#[allow(clippy::result_large_err)]
pub const fn check_mixed<P: Augmentation>(field: &str, source: &str) -> Result<(), Msg> {
    if P::STEPS.mix.is_none() {
        return Err(Msg::new()
            .s("field `")
            .s(field)
            .s("` is mixed with source \"")
            .s(source)
            .s("\", but the augmentation of that source mixes no samples: add `.mixup(alpha)` or `.cutmix(alpha)` to its steps"));
    }
    Ok(())
}
