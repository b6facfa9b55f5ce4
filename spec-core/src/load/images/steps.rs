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

    /// The same steps for evaluation: no random choice. A random-resized crop becomes
    /// torchvision's evaluation transform, the shorter side resized to `shorter` then the center
    /// crop; a random crop becomes the center crop; no flip, no jitter; the same normalization.
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
            ..self.clone()
        }
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
                Region::ResizeThenCrop {
                    resized: (rw, rh),
                    at: (place(rw, cols, 0), place(rh, rows, 1)),
                }
            }
        }
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
