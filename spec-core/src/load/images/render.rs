//! One sample's way from encoded bytes to a field's values, on a worker: decode (into the
//! worker's memory), resize the region the steps chose (fast_image_resize), then one pass that
//! flips, jitters, normalizes, converts and writes each value once, in the field's layout.

use crate::augment::Draws;
use crate::load::images::decode::{Pixels, decode};
use crate::load::images::steps::{AffineDraw, ImageSteps, Interpolation, Region, field_to_source};
use crate::types::elem::Element;
use fast_image_resize::images::{Image, ImageRef};
use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer};

/// A field's image: its rows, columns and channels, and the strides of its axes within a
/// sample (in values).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field {
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) channels: usize,
    pub(crate) stride_y: usize,
    pub(crate) stride_x: usize,
    pub(crate) stride_c: usize,
}

impl Field {
    /// The field of an image space laid out by `letters` (its axes in memory order, `b` among
    /// them) with the sizes `sizes` (the same order, the batch axis' ignored).
    pub(crate) fn new(letters: &[char], sizes: &[Option<usize>]) -> Option<Field> {
        let size = |axis| {
            letters
                .iter()
                .position(|&l| l == axis)
                .and_then(|i| sizes.get(i).copied().flatten())
        };
        let (rows, cols, channels) = (size('h')?, size('w')?, size('c')?);
        // The strides within a sample: the product of the sizes of the axes after each.
        let stride = |axis: char| {
            let at = letters.iter().position(|&l| l == axis).unwrap_or(0);
            letters[at + 1..]
                .iter()
                .filter(|&&l| l != 'b')
                .map(|&l| match l {
                    'h' => rows,
                    'w' => cols,
                    _ => channels,
                })
                .product()
        };
        Some(Field {
            rows,
            cols,
            channels,
            stride_y: stride('h'),
            stride_x: stride('w'),
            stride_c: stride('c'),
        })
    }

    pub(crate) fn values(&self) -> usize {
        self.rows * self.cols * self.channels
    }
}

/// Where a sample's values go: memory already written (a vector the caller grew), or a part of
/// a batch whose memory nothing has written yet, which the render writes whole.
pub(crate) enum Out<'a, E> {
    Written(&'a mut [E]),
    Unwritten(batchspec_kernel::Part<'a, E>),
}

/// What a worker keeps between samples: the decoded image, the resized one, the resizer's
/// buffers and the encoded bytes it read.
#[derive(Default)]
pub(crate) struct Worker {
    pixels: Pixels,
    resized: Vec<u8>,
    resizer: Resizer,
    table: Vec<f64>,
    pub(crate) bytes: Vec<u8>,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker").finish_non_exhaustive()
    }
}

fn algorithm(interpolation: Interpolation) -> ResizeAlg {
    match interpolation {
        Interpolation::Nearest => ResizeAlg::Nearest,
        Interpolation::Bilinear => ResizeAlg::Convolution(FilterType::Bilinear),
        Interpolation::Bicubic => ResizeAlg::Convolution(FilterType::CatmullRom),
        Interpolation::Area => ResizeAlg::Convolution(FilterType::Box),
        Interpolation::Lanczos => ResizeAlg::Convolution(FilterType::Lanczos3),
    }
}

impl Worker {
    /// Resizes the region's part of the decoded image into `self.resized`: the part of the
    /// field the image covers, `(left, top, width, height)`, the rest being the fill value.
    fn resize(
        &mut self,
        region: Region,
        (w, h): (usize, usize),
        (rows, cols): (usize, usize),
        steps: &ImageSteps,
    ) -> Result<(usize, usize, usize, usize), String> {
        let ch = self.pixels.channels;
        let (crop, inner) = match region {
            Region::Resize { crop } => (crop, (0, 0, cols, rows)),
            Region::Warp { .. } => return Ok((0, 0, cols, rows)),
            Region::ResizeThenCrop {
                resized: (rw, rh),
                at: (ax, ay),
            } => {
                let span = |at: i64, size: usize, resized: usize| {
                    let first = (-at).max(0) as usize;
                    let end = (resized as i64 - at).clamp(0, size as i64) as usize;
                    (first.min(end), end)
                };
                let ((x0, x1), (y0, y1)) = (span(ax, cols, rw), span(ay, rows, rh));
                let (sx, sy) = (w as f64 / rw as f64, h as f64 / rh as f64);
                let crop = (
                    (ax + x0 as i64) as f64 * sx,
                    (ay + y0 as i64) as f64 * sy,
                    (x1 - x0) as f64 * sx,
                    (y1 - y0) as f64 * sy,
                );
                (crop, (x0, y0, x1 - x0, y1 - y0))
            }
        };
        let (_, _, iw, ih) = inner;
        // Every value is the resizer's: no fill of a buffer kept from the last sample.
        self.resized.truncate(iw * ih * ch);
        self.resized.resize(iw * ih * ch, 0);
        if iw > 0 && ih > 0 {
            let kind = match ch {
                1 => PixelType::U8,
                2 => PixelType::U8x2,
                3 => PixelType::U8x3,
                _ => PixelType::U8x4,
            };
            let src = ImageRef::new(w as u32, h as u32, &self.pixels.data, kind)
                .map_err(|e| format!("the decoded image does not fit its size: {e}"))?;
            let mut dst = Image::from_slice_u8(iw as u32, ih as u32, &mut self.resized, kind)
                .map_err(|e| format!("cannot resize into {iw}×{ih}: {e}"))?;
            let options = ResizeOptions::new()
                .resize_alg(algorithm(steps.interpolation_of()))
                .crop(crop.0, crop.1, crop.2, crop.3);
            self.resizer
                .resize(&src, &mut dst, &options)
                .map_err(|e| format!("cannot resize the {w}×{h} image: {e}"))?;
        }
        Ok(inner)
    }

    /// Samples the decoded image at `map`'s place for each pixel of the field into
    /// `self.resized`.
    fn warp(&mut self, map: [f64; 6], (rows, cols): (usize, usize), steps: &ImageSteps) {
        let nearest = steps.interpolation_of() == Interpolation::Nearest;
        sample_affine(
            &self.pixels,
            map,
            (rows, cols),
            steps.fill_value(),
            nearest,
            &mut self.resized,
        );
    }

    /// Decodes `self.bytes` and writes the sample `sample`'s values into `out` (one sample of
    /// the field, in its memory order).
    pub(crate) fn render<E: Element>(
        &mut self,
        steps: &ImageSteps,
        field: &Field,
        draws: &Draws<'_>,
        sample: u64,
        out: Out<'_, E>,
    ) -> Result<(), String> {
        let budget = steps.budget(field.rows * field.cols);
        decode(&self.bytes, field.channels, budget, &mut self.pixels)?;
        let (w, h) = (self.pixels.width, self.pixels.height);
        let (rows, cols, ch) = (field.rows, field.cols, field.channels);
        // The resized part: `inner` (left, top, width, height) of the field is covered by the
        // image, the rest is the fill value.
        let region = steps.region(draws, sample, (w, h), (rows, cols));
        let (ix, iy, iw, ih) = match region {
            Region::Warp { map } => {
                self.warp(map, (rows, cols), steps);
                (0, 0, cols, rows)
            }
            _ => self.resize(region, (w, h), (rows, cols), steps)?,
        };
        if let Some(shift) = steps.hls_shift(draws, sample) {
            for px in self.resized.chunks_exact_mut(3) {
                hls_shift(px, shift);
            }
        }
        let choice = steps.choose(draws, sample);
        let fill = usize::from(steps.fill_value());
        let flip = choice.flip;
        let resized = &self.resized;
        let (sy, sx, sc) = (field.stride_y, field.stride_x, field.stride_c);
        // Each channel's `v * mul + add` (the jitter is the sample's), and, for three channels,
        // the same constants as the kernel's rows take them.
        let affine = if steps.computes() {
            steps.affine(&choice, ch)
        } else {
            vec![(1.0, 0.0); ch]
        };
        let rgb = (ch == 3).then(|| {
            (
                [0, 1, 2].map(|c| affine[c].0),
                [0, 1, 2].map(|c| affine[c].1),
            )
        });
        let out = match out {
            Out::Written(out) => out,
            Out::Unwritten(part) => {
                // Three channels into `f32` planes (`bchw`, the usual case), the image covering
                // the field whole, no mean image: the kernel writes the sample whole, each
                // value once, with the values of the pass below (`v * mul + add` in `f32`).
                let planes = (sy, sx, sc) == (cols, 1, rows * cols)
                    && (ix, iy, iw, ih) == (0, 0, cols, rows)
                    && steps.mean_image_of().is_none();
                let part = match rgb {
                    Some((mul, add)) if planes => {
                        match part.planes3_mul_add(resized, cols, mul, add, flip) {
                            Ok(_) => return Ok(()),
                            Err(part) => part,
                        }
                    }
                    _ => part,
                };
                // Any other field, type or region: the pass below, over values written first.
                part.fill(E::ZERO)
            }
        };
        if let Some((mean, std)) = steps.mean_image_of() {
            // A mean image: a value per pixel, computed as it is written (with the constants
            // above: a mean image makes the steps compute).
            for y in 0..rows {
                for x in 0..cols {
                    let xs = if flip { cols - 1 - x } else { x };
                    for (c, &(mul, add)) in affine.iter().enumerate() {
                        let inside = (iy..iy + ih).contains(&y) && (ix..ix + iw).contains(&xs);
                        let v = if inside {
                            resized[((y - iy) * iw + (xs - ix)) * ch + c]
                        } else {
                            fill as u8
                        };
                        let d = std.get(c).copied().unwrap_or(1.0);
                        let f = f32::from(v) * mul + add - mean[(y * cols + x) * ch + c] / d;
                        out[y * sy + x * sx + c * sc] = E::cast_from_f64(f64::from(f));
                    }
                }
            }
            return Ok(());
        }
        // Each channel's 256 values, computed once per sample: the pass below is a table lookup
        // per value, written once where the field keeps it.
        self.table.clear();
        for &(mul, add) in &affine {
            self.table
                .extend((0..256u16).map(|v| f64::from(f32::from(v) * mul + add)));
        }
        let table: Vec<E> = self.table.iter().map(|&v| E::cast_from_f64(v)).collect();
        // Three channels into `f32` rows of adjacent columns, each channel's row apart from the
        // others' (`bchw`, the usual case): a row the image covers whole is written by the
        // kernel's SIMD rows, its three channels from one read of its pixels, with the values
        // the table holds (`v * mul + add` in `f32`, rounded as here).
        let simd = rgb.filter(|_| sx == 1 && sc >= cols && ix == 0 && iw == cols);
        for y in 0..rows {
            let at = y * sy;
            let src = (iy..iy + ih)
                .contains(&y)
                .then(|| &resized[(y - iy) * iw * ch..(y - iy + 1) * iw * ch]);
            if let (Some(src), Some((mul, add))) = (src, simd)
                && at + 2 * sc + cols <= out.len()
            {
                let (r0, rest) = out[at..].split_at_mut(sc);
                let (r1, r2) = rest.split_at_mut(sc);
                let rows = [&mut r0[..cols], &mut r1[..cols], &mut r2[..cols]];
                if batchspec_kernel::deinterleave3_mul_add(src, rows, mul, add, flip) == cols {
                    continue;
                }
            }
            for c in 0..ch {
                let t = &table[c * 256..(c + 1) * 256];
                let at = at + c * sc;
                match src {
                    // The whole row from the image, the field's columns adjacent.
                    Some(src) if ix == 0 && iw == cols && sx == 1 => {
                        let row = &mut out[at..at + cols];
                        if flip {
                            for (o, px) in row.iter_mut().zip(src.chunks_exact(ch).rev()) {
                                *o = t[usize::from(px[c])];
                            }
                        } else {
                            for (o, px) in row.iter_mut().zip(src.chunks_exact(ch)) {
                                *o = t[usize::from(px[c])];
                            }
                        }
                    }
                    _ => {
                        for x in 0..cols {
                            let xs = if flip { cols - 1 - x } else { x };
                            let v = match src {
                                Some(src) if (ix..ix + iw).contains(&xs) => {
                                    usize::from(src[(xs - ix) * ch + c])
                                }
                                _ => fill,
                            };
                            out[at + x * sx] = t[v];
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// A field's images made from encoded bytes by steps that draw nothing, one after another: the
/// Parquet reader's image columns of any size.
#[cfg_attr(not(feature = "parquet-image"), allow(dead_code))]
pub(crate) struct StepsImage<'a> {
    steps: &'a ImageSteps,
    field: Field,
    worker: Worker,
}

#[cfg_attr(not(feature = "parquet-image"), allow(dead_code))]
impl<'a> StepsImage<'a> {
    /// The images of the space `S` by `steps`, or why `S` cannot take them.
    pub(crate) fn new<S: crate::types::space::Space>(
        steps: &'a ImageSteps,
    ) -> Result<Self, crate::load::LoadReason> {
        use crate::types::axis::Layout;
        let field = Field::new(<S::Layout as Layout>::LETTERS, S::SHAPE)
            .filter(|f| S::TIME_AXIS.is_none() && matches!(f.channels, 1 | 3 | 4))
            .ok_or_else(|| {
                crate::load::images::bad(format!(
                    "encoded images fill an image of rows, columns and 1, 3 or 4 channels; the field is {}",
                    S::describe()
                ))
            })?;
        steps
            .check(field.rows, field.cols, field.channels, S::Elem::FLOAT)
            .map_err(crate::load::images::bad)?;
        Ok(StepsImage {
            steps,
            field,
            worker: Worker::default(),
        })
    }

    /// Decodes `bytes` and appends the field's values of it to `out`.
    pub(crate) fn append<S: crate::types::space::Space>(
        &mut self,
        bytes: &[u8],
        out: &mut Vec<S::Elem>,
    ) -> Result<(), crate::load::LoadReason> {
        self.worker.bytes.clear();
        self.worker.bytes.extend_from_slice(bytes);
        let before = out.len();
        out.resize(before + self.field.values(), S::Elem::ZERO);
        let done = self.worker.render(
            self.steps,
            &self.field,
            &Draws::default(),
            0,
            Out::Written(&mut out[before..]),
        );
        if done.is_err() {
            out.truncate(before);
        }
        done.map_err(crate::load::images::bad)
    }
}

/// Samples `src` at `map`'s place, `(m0·x + m1·y + m2, m3·x + m4·y + m5)`, for each pixel of a
/// `rows × cols` image into `out` (bilinear, or the nearest pixel; `fill` outside the image,
/// blended at its edges as OpenCV's constant border is).
pub(crate) fn sample_affine(
    src: &Pixels,
    map: [f64; 6],
    (rows, cols): (usize, usize),
    fill: u8,
    nearest: bool,
    out: &mut Vec<u8>,
) {
    let (w, h, ch) = (src.width, src.height, src.channels);
    let fill = f64::from(fill);
    out.clear();
    out.reserve(rows * cols * ch);
    let at = |x: i64, y: i64, c: usize| -> f64 {
        if x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
            fill
        } else {
            f64::from(src.data[(y as usize * w + x as usize) * ch + c])
        }
    };
    for y in 0..rows {
        for x in 0..cols {
            let (fx, fy) = (x as f64, y as f64);
            let sx = map[0] * fx + map[1] * fy + map[2];
            let sy = map[3] * fx + map[4] * fy + map[5];
            for c in 0..ch {
                let v = if nearest {
                    at(sx.round() as i64, sy.round() as i64, c)
                } else {
                    let (x0, y0) = (sx.floor(), sy.floor());
                    let (ax, ay) = (sx - x0, sy - y0);
                    let (x0, y0) = (x0 as i64, y0 as i64);
                    let top = at(x0, y0, c) * (1.0 - ax) + at(x0 + 1, y0, c) * ax;
                    let bottom = at(x0, y0 + 1, c) * (1.0 - ax) + at(x0 + 1, y0 + 1, c) * ax;
                    top * (1.0 - ay) + bottom * ay
                };
                out.push(v.round().clamp(0.0, 255.0) as u8);
            }
        }
    }
}

/// MXNet's affine warp of a whole image as `ImageRecordIter` makes it (`image_aug_default.cc`):
/// the matrix of `shear`, `angle` (degrees), `scale` and `ratio`, the warped size clamped to
/// `img_size`, bilinear sampling, `fill` outside. For tests against OpenCV's `warpAffine`.
#[doc(hidden)]
pub fn mxnet_warp(
    src: &Pixels,
    [shear, angle, scale, ratio]: [f64; 4],
    img_size: (f64, f64),
    fill: u8,
) -> Pixels {
    let draw = AffineDraw {
        shear,
        angle,
        scale,
        ratio,
    };
    let (m, (nw, nh)) = draw.matrix((src.width, src.height), img_size);
    let map = field_to_source(
        m,
        (0.0, 0.0),
        (src.width, src.height),
        (src.width, src.height),
    );
    let mut data = Vec::new();
    sample_affine(src, map, (nh, nw), fill, false, &mut data);
    Pixels {
        width: nw,
        height: nh,
        channels: src.channels,
        data,
    }
}

/// Shifts an RGB pixel's hue, lightness and saturation by `[h, l, s]` on OpenCV's 8-bit HLS
/// scale (`COLOR_RGB2HLS`: hue 0..180, lightness and saturation 0..255), clamped there, and
/// converts it back (`COLOR_HLS2RGB`), as MXNet's `random_h/s/l` do.
#[doc(hidden)]
pub fn hls_shift(px: &mut [u8], [dh, dl, ds]: [i32; 3]) {
    // OpenCV's float path, to the bit: values times the reciprocal of 255, hue in sixths of
    // its 180, rounding half to even.
    const INV: f32 = 1.0 / 255.0;
    let [r, g, b] = [px[0], px[1], px[2]].map(|v| f32::from(v) * INV);
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let diff = max - min;
    let l = (max + min) * 0.5;
    let (mut h, mut s) = (0.0f32, 0.0f32);
    if diff > f32::EPSILON {
        s = if l < 0.5 {
            diff / (max + min)
        } else {
            diff / (2.0 - max - min)
        };
        let k = 60.0 / diff;
        h = if max == r {
            (g - b) * k
        } else if max == g {
            (b - r) * k + 120.0
        } else {
            (r - g) * k + 240.0
        };
        if h < 0.0 {
            h += 360.0;
        }
    }
    let byte = |v: f32| v.round_ties_even().clamp(0.0, 255.0) as i32;
    let hh = (byte(h * 0.5) + dh).clamp(0, 180);
    let ll = (byte(l * 255.0) + dl).clamp(0, 255);
    let ss = (byte(s * 255.0) + ds).clamp(0, 255);
    let (h, l, s) = (hh as f32, ll as f32 * INV, ss as f32 * INV);
    let (r, g, b) = if s == 0.0 {
        (l, l, l)
    } else {
        let p2 = if l <= 0.5 {
            l * (1.0 + s)
        } else {
            l + s - l * s
        };
        let p1 = 2.0 * l - p2;
        let mut h = h * (6.0 / 180.0);
        if h < 0.0 {
            h += 6.0;
        } else if h >= 6.0 {
            h -= 6.0;
        }
        let sector = h.floor();
        let f = h - sector;
        let tab = [p2, p1, p1 + (p2 - p1) * (1.0 - f), p1 + (p2 - p1) * f];
        // OpenCV's sector table gives (b, g, r) indices into `tab`.
        const SECTORS: [[usize; 3]; 6] = [
            [1, 3, 0],
            [1, 0, 2],
            [3, 0, 1],
            [0, 2, 1],
            [0, 1, 3],
            [2, 1, 0],
        ];
        let [bi, gi, ri] = SECTORS[(sector as usize).min(5)];
        (tab[ri], tab[gi], tab[bi])
    };
    px[0] = byte(r * 255.0) as u8;
    px[1] = byte(g * 255.0) as u8;
    px[2] = byte(b * 255.0) as u8;
}
