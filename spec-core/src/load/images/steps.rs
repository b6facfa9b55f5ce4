//! What happens to an encoded image on its way into a field of a fixed size: how it is brought
//! to the field's rows and columns (stretched, resized by its shorter side and cropped, or a
//! random-resized crop, as torchvision and MXNet's `ImageRecordIter` do), the interpolation,
//! the flip, the contrast and illumination jitter, and the normalization. Every random choice is
//! a pure function of `(seed, epoch, sample, step)`.

use crate::augment::Draws;
use crate::augment::draw::{below, uniform};

/// How an image of any size becomes the field's `rows × columns`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Geometry {
    /// The whole image resized to the field's size (its aspect ratio not kept).
    Stretch,
    /// The image resized so that its shorter side is `shorter` pixels (its aspect ratio kept),
    /// then a crop of the field's size: from the center, or at a random place
    /// (torchvision's `Resize(256)` then `CenterCrop(224)` / `RandomCrop(224)`; MXNet's
    /// `resize` then `rand_crop`). A side shorter than the field is padded with the fill value.
    ShorterThenCrop {
        /// The shorter side after resizing; 0: not resized (crop the image as it is).
        shorter: usize,
        /// A random place for the crop, else the center.
        random: bool,
    },
    /// torchvision's `RandomResizedCrop`: a crop of a random area (a share in `scale` of the
    /// image's) and aspect ratio (in `ratio`, drawn log-uniformly), ten tries, else the center
    /// crop of the largest part within the ratios, resized to the field's size. Evaluation
    /// uses [`ImageSteps::eval`].
    RandomResizedCrop {
        /// The range of the crop's area as a share of the image's.
        scale: (f64, f64),
        /// The range of the crop's width / height.
        ratio: (f64, f64),
    },
}

/// The interpolation of resizing (MXNet's `inter_method`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Interpolation {
    /// The nearest pixel.
    Nearest,
    /// Bilinear; when shrinking, over every source pixel under the output pixel (antialiased,
    /// as Pillow's `BILINEAR` and torchvision on PIL images). The default.
    #[default]
    Bilinear,
    /// Bicubic (Catmull-Rom), antialiased when shrinking, as Pillow's `BICUBIC`.
    Bicubic,
    /// The mean of the source pixels under each output pixel (OpenCV's `INTER_AREA`, Pillow's
    /// `BOX`).
    Area,
    /// Lanczos with three lobes, as Pillow's `LANCZOS`.
    Lanczos,
}

/// The steps that take an encoded image (any size, grey, RGB or RGBA) into an image field of
/// the spec: [`Geometry`], [`Interpolation`], a horizontal flip, contrast and illumination
/// jitter (MXNet's `max_random_contrast`, `max_random_illumination`), a scale, per-channel mean
/// and standard deviation or a mean image, and the decoder's pixel budget.
///
/// For a value `x` (0..=255) of channel `c` at row `y`, column `x` of the resized image, the
/// field receives `((x · contrast + illumination) · scale − mean[c] − mean_image[y, x, c]) /
/// std[c]`, converted to the field's element type (with no step computing a fraction, a `u8`
/// field receives the pixels as decoded).
///
/// ```
/// use batchspec::load::images::ImageSteps;
/// // torchvision's ImageNet training transform.
/// let train = ImageSteps::random_resized_crop((0.08, 1.0), (3.0 / 4.0, 4.0 / 3.0))
///     .flip_h(0.5)
///     .scale(1.0 / 255.0)
///     .normalize(&[0.485, 0.456, 0.406], &[0.229, 0.224, 0.225]);
/// // Its evaluation transform: Resize(256), CenterCrop(224).
/// let eval = ImageSteps::resize_shorter(256)
///     .scale(1.0 / 255.0)
///     .normalize(&[0.485, 0.456, 0.406], &[0.229, 0.224, 0.225]);
/// assert_eq!(train.eval(256).geometry(), eval.geometry());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ImageSteps {
    geometry: Geometry,
    interpolation: Interpolation,
    flip: f64,
    contrast: f32,
    illumination: f32,
    scale: f32,
    mean: Vec<f32>,
    std: Vec<f32>,
    mean_image: Option<Vec<f32>>,
    fill: u8,
    max_pixels: Option<u64>,
    affine: Affine,
    hls: [i32; 3],
}

/// MXNet `ImageRecordIter`'s affine augmentation: a rotation, a shear, an aspect ratio and a
/// scale drawn per sample, the image warped by them (bilinear, the fill value outside) to a new
/// size clamped to `img_size`, before the crop.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Affine {
    rotate: u32,
    shear: f32,
    aspect: f32,
    scale: (f32, f32),
    img_size: (f32, f32),
}

impl Affine {
    const NONE: Affine = Affine {
        rotate: 0,
        shear: 0.0,
        aspect: 0.0,
        scale: (1.0, 1.0),
        img_size: (0.0, 1e10),
    };
}

/// The choices of one sample: the part of the image read (left, top, width, height, in the
/// source's pixels, or in the resized image's for [`Geometry::ShorterThenCrop`]), the flip and
/// the jitter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Choice {
    pub(crate) flip: bool,
    pub(crate) contrast: f32,
    pub(crate) illumination: f32,
}

/// The draw streams of the steps (each its own `step` word of the key).
const DRAW_CROP: u64 = 1;
const DRAW_FLIP: u64 = 2;
const DRAW_CONTRAST: u64 = 3;
const DRAW_ILLUMINATION: u64 = 4;
const DRAW_AFFINE: u64 = 5;
const DRAW_HLS: u64 = 6;

impl ImageSteps {
    fn with(geometry: Geometry) -> Self {
        ImageSteps {
            geometry,
            interpolation: Interpolation::Bilinear,
            flip: 0.0,
            contrast: 0.0,
            illumination: 0.0,
            scale: 1.0,
            mean: Vec::new(),
            std: Vec::new(),
            mean_image: None,
            fill: 0,
            max_pixels: None,
            affine: Affine::NONE,
            hls: [0; 3],
        }
    }

    /// The whole image resized to the field's size ([`Geometry::Stretch`]).
    pub fn stretch() -> Self {
        Self::with(Geometry::Stretch)
    }

    /// Resized by its shorter side to `shorter` pixels, then the center crop of the field's
    /// size; 0 keeps the image's size (a center crop alone). See [`Geometry::ShorterThenCrop`].
    pub fn resize_shorter(shorter: usize) -> Self {
        Self::with(Geometry::ShorterThenCrop {
            shorter,
            random: false,
        })
    }

    /// A crop of the field's size at the center of the image as it is (padded where the image
    /// is smaller).
    pub fn center_crop() -> Self {
        Self::resize_shorter(0)
    }

    /// torchvision's `RandomResizedCrop(size, scale, ratio)`, the size being the field's. See
    /// [`Geometry::RandomResizedCrop`].
    pub fn random_resized_crop(scale: (f64, f64), ratio: (f64, f64)) -> Self {
        Self::with(Geometry::RandomResizedCrop { scale, ratio })
    }

    /// The crop of [`resize_shorter`](Self::resize_shorter) or
    /// [`center_crop`](Self::center_crop) taken at a random place (MXNet's `rand_crop`).
    pub fn random_crop(mut self) -> Self {
        if let Geometry::ShorterThenCrop { random, .. } = &mut self.geometry {
            *random = true;
        }
        self
    }

    /// The interpolation of resizing (default [`Interpolation::Bilinear`]).
    pub fn interpolation(mut self, interpolation: Interpolation) -> Self {
        self.interpolation = interpolation;
        self
    }

    /// Flips the image left to right with probability `p` (MXNet's `rand_mirror` is 0.5).
    pub fn flip_h(mut self, p: f64) -> Self {
        self.flip = p;
        self
    }

    /// Multiplies each value by a contrast drawn uniformly in `1 ± max` (MXNet's
    /// `max_random_contrast`).
    pub fn random_contrast(mut self, max: f32) -> Self {
        self.contrast = max;
        self
    }

    /// Adds an illumination drawn uniformly in `± max` to each value, on the 0..=255 scale
    /// (MXNet's `max_random_illumination`).
    pub fn random_illumination(mut self, max: f32) -> Self {
        self.illumination = max;
        self
    }

    /// Multiplies each value by `scale` before the mean is subtracted (`1.0 / 255.0` for
    /// torchvision's `ToTensor`; MXNet's `scale`).
    pub fn scale(mut self, scale: f32) -> Self {
        self.scale = scale;
        self
    }

    /// Subtracts `mean[c]` from channel `c` and divides by `std[c]` (after the scale): one value
    /// per channel of the field (MXNet's `mean_r/g/b`, `std_r/g/b`).
    pub fn normalize(mut self, mean: &[f32], std: &[f32]) -> Self {
        self.mean = mean.to_vec();
        self.std = std.to_vec();
        self
    }

    /// Subtracts a mean image (MXNet's `mean_img`): `rows × columns × channels` values, row by
    /// row with the channels interleaved, after the scale and before the division by `std`.
    pub fn mean_image(mut self, mean: Vec<f32>) -> Self {
        self.mean_image = Some(mean);
        self
    }

    /// The value of the pixels a crop takes outside the image (MXNet's `fill_value`; default 0).
    pub fn fill(mut self, value: u8) -> Self {
        self.fill = value;
        self
    }

    /// The largest image decoded, in pixels; a header that claims more is an error and nothing
    /// is decoded (default: 64 × the field's pixels, and at least 4096 × 4096).
    pub fn max_pixels(mut self, pixels: u64) -> Self {
        self.max_pixels = Some(pixels);
        self
    }

    /// Rotates by a whole number of degrees drawn uniformly in `-max..=max` (MXNet's
    /// `max_rotate_angle`). Like the other affine steps (shear, aspect, scale, image size), it
    /// warps the image after [`resize_shorter`](Self::resize_shorter) and before the crop, as
    /// `ImageRecordIter` does, with bilinear (or nearest) sampling and the fill value outside.
    pub fn random_rotate(mut self, max_degrees: u32) -> Self {
        self.affine.rotate = max_degrees;
        self
    }

    /// Shears by a ratio drawn uniformly in `±max` (MXNet's `max_shear_ratio`).
    pub fn random_shear(mut self, max: f32) -> Self {
        self.affine.shear = max;
        self
    }

    /// Stretches by an aspect ratio drawn uniformly in `1 ± max` (MXNet's `max_aspect_ratio`),
    /// the area kept.
    pub fn random_aspect(mut self, max: f32) -> Self {
        self.affine.aspect = max;
        self
    }

    /// Scales by a factor drawn uniformly in `min..=max` (MXNet's `min_random_scale`,
    /// `max_random_scale`).
    pub fn random_scale(mut self, min: f32, max: f32) -> Self {
        self.affine.scale = (min, max);
        self
    }

    /// Clamps the warped image's sides to `min..=max` pixels (MXNet's `min_img_size`,
    /// `max_img_size`).
    pub fn img_size(mut self, min: f32, max: f32) -> Self {
        self.affine.img_size = (min, max);
        self
    }

    /// Shifts hue, saturation and lightness by whole amounts drawn uniformly in `±h`, `±s`,
    /// `±l` on OpenCV's 8-bit HLS scale (hue 0..180, the others 0..255), clamped there (MXNet's
    /// `random_h`, `random_s`, `random_l`). For RGB fields.
    pub fn random_hsl(mut self, h: u8, s: u8, l: u8) -> Self {
        self.hls = [i32::from(h), i32::from(l), i32::from(s)];
        self
    }

    /// The same steps for evaluation: no random choice. A random-resized crop becomes
    /// torchvision's evaluation transform, the shorter side resized to `shorter` then the center
    /// crop; a random crop becomes the center crop; no flip, no jitter, no affine warp; the same
    /// normalization.
    pub fn eval(&self, shorter: usize) -> Self {
        let geometry = match self.geometry {
            Geometry::RandomResizedCrop { .. } => Geometry::ShorterThenCrop {
                shorter,
                random: false,
            },
            Geometry::ShorterThenCrop { shorter, .. } => Geometry::ShorterThenCrop {
                shorter,
                random: false,
            },
            Geometry::Stretch => Geometry::Stretch,
        };
        ImageSteps {
            geometry,
            flip: 0.0,
            contrast: 0.0,
            illumination: 0.0,
            affine: Affine::NONE,
            hls: [0; 3],
            ..self.clone()
        }
    }

    /// `true` when the steps make a random choice (a random crop, a flip, a jitter, an affine
    /// warp): a sample's values then depend on the seed and the epoch.
    pub fn draws(&self) -> bool {
        matches!(
            self.geometry,
            Geometry::RandomResizedCrop { .. } | Geometry::ShorterThenCrop { random: true, .. }
        ) || self.flip > 0.0
            || self.contrast != 0.0
            || self.illumination != 0.0
            || self.affine != Affine::NONE
            || self.hls != [0; 3]
    }

    /// How the image becomes the field's size.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    pub(crate) fn interpolation_of(&self) -> Interpolation {
        self.interpolation
    }

    pub(crate) fn fill_value(&self) -> u8 {
        self.fill
    }

    /// The decoder's budget for a field of `pixels` pixels.
    pub(crate) fn budget(&self, pixels: usize) -> u64 {
        self.max_pixels
            .unwrap_or_else(|| (64 * pixels as u64).max(4096 * 4096))
    }

    /// `true` when a value can be a fraction (so the field must be of a float type).
    pub(crate) fn computes(&self) -> bool {
        self.contrast != 0.0
            || self.illumination != 0.0
            || self.scale != 1.0
            || !self.mean.is_empty()
            || self.mean_image.is_some()
    }

    /// Checks the steps against a field of `rows × cols × channels` of a float type or not.
    pub(crate) fn check(
        &self,
        rows: usize,
        cols: usize,
        channels: usize,
        float: bool,
    ) -> Result<(), String> {
        let positive = |name: &str, (a, b): (f64, f64)| {
            if a.is_finite() && b.is_finite() && 0.0 < a && a <= b {
                Ok(())
            } else {
                Err(format!(
                    "the random-resized crop's {name} range is {a}..{b}: it must be positive and ordered"
                ))
            }
        };
        if let Geometry::RandomResizedCrop { scale, ratio } = self.geometry {
            positive("scale", scale)?;
            positive("ratio", ratio)?;
        }
        let a = self.affine;
        if a != Affine::NONE {
            if !matches!(self.geometry, Geometry::ShorterThenCrop { .. }) {
                return Err("the affine steps (rotate, shear, aspect, scale, image size) warp the image before the crop, as MXNet's ImageRecordIter does: use them with `resize_shorter` or `center_crop`".to_owned());
            }
            let (lo, hi) = a.scale;
            if !(lo.is_finite() && hi.is_finite() && 0.0 < lo && lo <= hi) {
                return Err(format!(
                    "the random scale's range is {lo}..{hi}: it must be positive and ordered"
                ));
            }
            if !(a.shear.is_finite()
                && a.shear >= 0.0
                && a.aspect.is_finite()
                && (0.0..1.0).contains(&a.aspect))
            {
                return Err(format!(
                    "the shear ({}) must be a finite ratio ≥ 0 and the aspect ratio's jitter ({}) in 0..1",
                    a.shear, a.aspect
                ));
            }
            if !(a.img_size.0 >= 0.0 && a.img_size.0 <= a.img_size.1) || a.rotate > 360 {
                return Err(format!(
                    "the image size's range is {}..{} and the rotation ±{}°: the range must be ordered, the rotation at most 360°",
                    a.img_size.0, a.img_size.1, a.rotate
                ));
            }
        }
        if self.hls != [0; 3] && channels != 3 {
            return Err(format!(
                "the hue, saturation and lightness jitter is for RGB images; the field has {channels} channel{}",
                if channels == 1 { "" } else { "s" }
            ));
        }
        if !(0.0..=1.0).contains(&self.flip) {
            return Err(format!(
                "the flip's probability is {}: it must be in 0..=1",
                self.flip
            ));
        }
        if self.mean.len() != self.std.len()
            || (!self.mean.is_empty() && self.mean.len() != channels)
        {
            return Err(format!(
                "the normalization has {} means and {} standard deviations; the field has {channels} channels",
                self.mean.len(),
                self.std.len()
            ));
        }
        if let Some(m) = &self.mean_image
            && m.len() != rows * cols * channels
        {
            return Err(format!(
                "the mean image has {} values; the field's images have {rows}×{cols}×{channels} = {}",
                m.len(),
                rows * cols * channels
            ));
        }
        if self.computes() && !float {
            return Err(
                "the steps compute fractions (scale, normalization or jitter): the field must be of a float type (f32, f64)".to_owned(),
            );
        }
        Ok(())
    }

    /// The random choices of a sample (none for steps without them).
    pub(crate) fn choose(&self, draws: &Draws<'_>, sample: u64) -> Choice {
        let key = |step| draws.key(sample, step);
        let flip = self.flip > 0.0 && uniform(key(DRAW_FLIP), 0) < self.flip;
        let jitter = |max: f32, step| {
            if max == 0.0 {
                0.0
            } else {
                (uniform(key(step), 0) * 2.0 - 1.0) as f32 * max
            }
        };
        Choice {
            flip,
            contrast: 1.0 + jitter(self.contrast, DRAW_CONTRAST),
            illumination: jitter(self.illumination, DRAW_ILLUMINATION),
        }
    }

    /// The part of a `width × height` image read into a field of `rows × cols`: `(left, top,
    /// width, height)` of the source, and the size it is resized to before the field's part of
    /// it is taken (`None`: resized straight to the field's size).
    pub(crate) fn region(
        &self,
        draws: &Draws<'_>,
        sample: u64,
        (width, height): (usize, usize),
        (rows, cols): (usize, usize),
    ) -> Region {
        let key = draws.key(sample, DRAW_CROP);
        match self.geometry {
            Geometry::Stretch => Region::Resize {
                crop: (0.0, 0.0, width as f64, height as f64),
            },
            Geometry::RandomResizedCrop { scale, ratio } => {
                let (left, top, w, h) = rrc_params(key, width, height, scale, ratio);
                Region::Resize {
                    crop: (left as f64, top as f64, w as f64, h as f64),
                }
            }
            Geometry::ShorterThenCrop { shorter, random } => {
                // The size after resizing by the shorter side (torchvision's `Resize(int)`:
                // the longer side truncated).
                let (rw, rh) = if shorter == 0 {
                    (width, height)
                } else if width <= height {
                    (
                        shorter,
                        (shorter as u64 * height as u64 / width as u64) as usize,
                    )
                } else {
                    (
                        (shorter as u64 * width as u64 / height as u64) as usize,
                        shorter,
                    )
                };
                // The crop's place in the resized image: torchvision's center crop rounds
                // `(size - crop) / 2`; a crop larger than the image hangs over it equally.
                let place = |size: usize, crop: usize, k: u64| -> i64 {
                    if random && size > crop {
                        below(key, k, size - crop + 1) as i64
                    } else {
                        ((size as f64 - crop as f64) / 2.0).round() as i64
                    }
                };
                if self.affine != Affine::NONE {
                    return self.warp(
                        draws,
                        sample,
                        (width, height),
                        (rw, rh),
                        (rows, cols),
                        place,
                    );
                }
                Region::ResizeThenCrop {
                    resized: (rw, rh),
                    at: (place(rw, cols, 0), place(rh, rows, 1)),
                }
            }
        }
    }

    /// The affine warp of `ImageRecordIter` (`image_aug_default.cc`): the matrix of the drawn
    /// shear `s`, angle, scale and aspect ratio, centred in the new size, mapping the resized
    /// image to the warped one; composed with the crop (placed by `place` in the warped image)
    /// and the resize, as the map from a field pixel to the source pixel sampled.
    fn warp(
        &self,
        draws: &Draws<'_>,
        sample: u64,
        (width, height): (usize, usize),
        (rw, rh): (usize, usize),
        (rows, cols): (usize, usize),
        place: impl Fn(usize, usize, u64) -> i64,
    ) -> Region {
        let a = self.affine;
        let key = draws.key(sample, DRAW_AFFINE);
        let (lo, hi) = (f64::from(a.scale.0), f64::from(a.scale.1));
        let drawn = AffineDraw {
            shear: f64::from(a.shear) * (uniform(key, 0) * 2.0 - 1.0),
            angle: below(key, 1, 2 * a.rotate as usize + 1) as f64 - f64::from(a.rotate),
            scale: lo + (hi - lo) * uniform(key, 2),
            ratio: 1.0 + f64::from(a.aspect) * (uniform(key, 3) * 2.0 - 1.0),
        };
        let img_size = (f64::from(a.img_size.0), f64::from(a.img_size.1));
        let (m, (nw, nh)) = drawn.matrix((rw, rh), img_size);
        let at = (place(nw, cols, 0) as f64, place(nh, rows, 1) as f64);
        Region::Warp {
            map: field_to_source(m, at, (width, height), (rw, rh)),
        }
    }

    /// The sample's hue, lightness and saturation shifts (OpenCV's 8-bit HLS order), if any.
    pub(crate) fn hls_shift(&self, draws: &Draws<'_>, sample: u64) -> Option<[i32; 3]> {
        if self.hls == [0; 3] {
            return None;
        }
        let key = draws.key(sample, DRAW_HLS);
        // MXNet: `int h = rand * random_h * 2 - random_h` (truncated toward zero).
        Some(std::array::from_fn(|i| {
            let max = f64::from(self.hls[i]);
            (uniform(key, i as u64) * max * 2.0 - max) as i32
        }))
    }

    /// The normalization as per-channel `(multiplier, offset)` for a sample's jitter: a value `x`
    /// becomes `x · mul[c] + add[c]` (before a mean image).
    pub(crate) fn affine(&self, choice: &Choice, channels: usize) -> Vec<(f32, f32)> {
        (0..channels)
            .map(|c| {
                let (mean, std) = match (self.mean.get(c), self.std.get(c)) {
                    (Some(m), Some(s)) => (*m, *s),
                    _ => (0.0, 1.0),
                };
                // ((x·k + i)·s − m) / d = x · (k·s/d) + (i·s − m)/d
                let mul = choice.contrast * self.scale / std;
                let add = (choice.illumination * self.scale - mean) / std;
                (mul, add)
            })
            .collect()
    }

    /// The mean image and the channels' standard deviations, when a mean image is subtracted.
    pub(crate) fn mean_image_of(&self) -> Option<(&[f32], &[f32])> {
        self.mean_image.as_deref().map(|m| (m, self.std.as_slice()))
    }
}

/// Where a sample's field values come from in its image.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Region {
    /// `(left, top, width, height)` of the source resized to the field's size.
    Resize { crop: (f64, f64, f64, f64) },
    /// The whole source resized to `resized`, then the field's size taken at `at` (which may
    /// hang over the resized image: filled there).
    ResizeThenCrop {
        resized: (usize, usize),
        at: (i64, i64),
    },
    /// Each field pixel `(x, y)` samples the source at `(m0·x + m1·y + m2, m3·x + m4·y + m5)`.
    Warp { map: [f64; 6] },
}

/// One sample's draws of `ImageRecordIter`'s affine augmentation: shear ratio, angle in degrees,
/// scale and aspect ratio.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct AffineDraw {
    pub(crate) shear: f64,
    pub(crate) angle: f64,
    pub(crate) scale: f64,
    pub(crate) ratio: f64,
}

impl AffineDraw {
    /// MXNet's matrix (`image_aug_default.cc`) for an image of `(w, h)`: the 2×3 map from the
    /// image to the warped one, centred in the warped size, which is the scaled size clamped to
    /// `img_size` (truncated to whole pixels, as `cv::Size` does).
    pub(crate) fn matrix(
        &self,
        (w, h): (usize, usize),
        img_size: (f64, f64),
    ) -> ([f64; 6], (usize, usize)) {
        let hs = 2.0 * self.scale / (1.0 + self.ratio);
        let ws = self.ratio * hs;
        let (cos, sin) = (self.angle.to_radians().cos(), self.angle.to_radians().sin());
        let size = |side: usize| {
            ((self.scale * side as f64).clamp(img_size.0, img_size.1) as usize).max(1)
        };
        let (nw, nh) = (size(w), size(h));
        let (m0, m1) = (
            hs * cos - self.shear * sin * ws,
            hs * sin + self.shear * cos * ws,
        );
        let (m3, m4) = (-sin * ws, cos * ws);
        let m2 = (nw as f64 - (m0 * w as f64 + m1 * h as f64)) / 2.0;
        let m5 = (nh as f64 - (m3 * w as f64 + m4 * h as f64)) / 2.0;
        ([m0, m1, m2, m3, m4, m5], (nw, nh))
    }
}

/// The map from a field pixel `(x, y)` to the source pixel sampled: the field is the warped
/// image from `at`; the warped image is `m` of the resized image (OpenCV's `warpAffine` samples
/// the inverse of `m` at whole pixel positions); the resized image of `(rw, rh)` is the source
/// of `(w, h)` with pixel centres mapped as a resize maps them, `(p + ½)·(w / rw) − ½`.
pub(crate) fn field_to_source(
    m: [f64; 6],
    (ax, ay): (f64, f64),
    (w, h): (usize, usize),
    (rw, rh): (usize, usize),
) -> [f64; 6] {
    let det = m[0] * m[4] - m[1] * m[3];
    let inv = [m[4] / det, -m[1] / det, -m[3] / det, m[0] / det];
    let (sx, sy) = (w as f64 / rw as f64, h as f64 / rh as f64);
    let (u0, v0) = (ax - m[2], ay - m[5]);
    [
        sx * inv[0],
        sx * inv[1],
        sx * (inv[0] * u0 + inv[1] * v0 + 0.5) - 0.5,
        sy * inv[2],
        sy * inv[3],
        sy * (inv[2] * u0 + inv[3] * v0 + 0.5) - 0.5,
    ]
}

/// torchvision's `RandomResizedCrop.get_params`: `(left, top, width, height)`.
fn rrc_params(
    key: u64,
    width: usize,
    height: usize,
    scale: (f64, f64),
    ratio: (f64, f64),
) -> (usize, usize, usize, usize) {
    let area = (width * height) as f64;
    let (log_lo, log_hi) = (ratio.0.ln(), ratio.1.ln());
    for attempt in 0..10u64 {
        let target = area * (scale.0 + (scale.1 - scale.0) * uniform(key, 4 * attempt));
        let aspect = (log_lo + (log_hi - log_lo) * uniform(key, 4 * attempt + 1)).exp();
        let w = (target * aspect).sqrt().round();
        let h = (target / aspect).sqrt().round();
        if w > 0.0 && h > 0.0 && w <= width as f64 && h <= height as f64 {
            let (w, h) = (w as usize, h as usize);
            let top = below(key, 4 * attempt + 2, height - h + 1);
            let left = below(key, 4 * attempt + 3, width - w + 1);
            return (left, top, w, h);
        }
    }
    // The fallback: the center crop of the largest part within the ratios.
    let in_ratio = width as f64 / height as f64;
    let (w, h) = if in_ratio < ratio.0 {
        (width, ((width as f64 / ratio.0).round() as usize).max(1))
    } else if in_ratio > ratio.1 {
        (((height as f64 * ratio.1).round() as usize).max(1), height)
    } else {
        (width, height)
    };
    (
        (width - w.min(width)) / 2,
        (height - h.min(height)) / 2,
        w.min(width),
        h.min(height),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_resized_crop_stays_inside_the_image_and_within_its_ranges() {
        for sample in 0..2000u64 {
            let draws = Draws::new(7, 1);
            let key = draws.key(sample, DRAW_CROP);
            let (w, h) = (50 + (sample % 300) as usize, 40 + (sample % 170) as usize);
            let (l, t, cw, ch) = rrc_params(key, w, h, (0.08, 1.0), (0.75, 4.0 / 3.0));
            assert!(
                cw >= 1 && ch >= 1 && l + cw <= w && t + ch <= h,
                "{w}×{h}: {l} {t} {cw} {ch}"
            );
        }
        // An image too thin for the ratios: the fallback, the center part of ratio 4/3.
        let key = Draws::new(0, 0).key(0, DRAW_CROP);
        assert_eq!(
            rrc_params(key, 400, 10, (0.9, 1.0), (0.75, 4.0 / 3.0)),
            (193, 0, 13, 10)
        );
    }

    #[test]
    fn choices_are_a_function_of_the_sample() {
        let steps = ImageSteps::random_resized_crop((0.08, 1.0), (0.75, 1.33))
            .flip_h(0.5)
            .random_contrast(0.2);
        let d = Draws::new(3, 2);
        let a: Vec<_> = (0..100).map(|s| steps.choose(&d, s)).collect();
        let b: Vec<_> = (0..100).rev().map(|s| steps.choose(&d, s)).collect();
        assert!(a.iter().eq(b.iter().rev()));
        let flips = a.iter().filter(|c| c.flip).count();
        assert!((30..70).contains(&flips), "{flips}");
        assert!(a.iter().all(|c| (0.8..=1.2).contains(&c.contrast)));
    }
}
