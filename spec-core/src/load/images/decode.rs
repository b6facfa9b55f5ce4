//! Encoded images to pixels: the format from the first bytes, the size from the header before
//! any pixel is decoded, and the decoder limited to that size, itself checked against a budget.
//! JPEG through `zune-jpeg` (the decoder the `image` crate uses, called directly so that a
//! worker decodes into memory it keeps), PNG and WebP through the `image` crate.

use image::{DynamicImage, ImageFormat};
use zune_core::bytestream::ZCursor;
use zune_core::colorspace::ColorSpace;
use zune_core::options::DecoderOptions;
use zune_jpeg::JpegDecoder;

/// A decoded image: its pixels row by row with the channels interleaved (`height × width ×
/// channels` bytes). A stream's worker keeps one and decodes every image into its memory.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct Pixels {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Channels: 1 (grey), 3 (RGB) or 4 (RGBA).
    pub channels: usize,
    /// The values.
    pub data: Vec<u8>,
}

/// Decodes a JPEG, PNG or WebP image as a stream does, into `channels` channels (1, 3 or 4; see
/// the conversions below), refusing an image whose header claims more than `max_pixels`
/// pixels before decoding it.
///
/// # Errors
/// [`LoadReason::Decode`] naming what is wrong (not an image, a header over the budget, data
/// the decoder refuses).
///
/// [`LoadReason::Decode`]: crate::load::LoadReason::Decode
pub fn decode_image(
    bytes: &[u8],
    channels: usize,
    max_pixels: u64,
) -> Result<Pixels, crate::load::LoadReason> {
    let mut out = Pixels::default();
    if !matches!(channels, 1 | 3 | 4) {
        return Err(crate::load::images::bad(format!(
            "{channels} channels: images decode to 1 (grey), 3 (RGB) or 4 (RGBA)"
        )));
    }
    decode(bytes, channels, max_pixels, &mut out).map_err(crate::load::images::bad)?;
    Ok(out)
}

/// The formats read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Jpeg,
    Png,
    WebP,
}

impl Format {
    /// The format of `bytes` from its signature.
    pub(crate) fn sniff(bytes: &[u8]) -> Option<Format> {
        if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
            Some(Format::Jpeg)
        } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(Format::Png)
        } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Some(Format::WebP)
        } else {
            None
        }
    }

    /// The most pixels a file of `len` bytes of this format can hold: a JPEG codes at least one
    /// bit for each 8×8 block's DC value (a progressive scan's end-of-band runs code the rest in
    /// next to nothing), so at most 512 pixels a byte; a PNG's rows take at least an eighth of a
    /// byte a pixel (1-bit grey) before deflate, which shrinks at most 1032 times.
    fn most_pixels(self, len: usize) -> u64 {
        (len as u64).saturating_mul(self.pixels_per_byte())
    }

    fn pixels_per_byte(self) -> u64 {
        match self {
            Format::Jpeg => 512,
            Format::Png => 8 * 1032,
            // Lossless WebP's colour cache and back references have no such bound: its
            // header's 14-bit sides (at most 16384 × 16384) and the pixel budget are the check.
            Format::WebP => u64::MAX,
        }
    }

    fn why(self) -> &'static str {
        match self {
            Format::Jpeg => "a JPEG codes at least a bit for each 8×8 block",
            Format::Png => "1-bit rows deflated at deflate's largest ratio",
            Format::WebP => "",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Format::Jpeg => "JPEG",
            Format::Png => "PNG",
            Format::WebP => "WebP",
        }
    }
}

/// Decodes `bytes` into `out` as `channels` channels (1: grey, 3: RGB, 4: RGBA), converting as
/// Pillow's `convert` does (grey to RGB repeats the value, RGB to grey is ITU-R 601-2 luma,
/// alpha is dropped or made opaque). An image whose header claims more than `max_pixels` pixels
/// is refused before anything is decoded or allocated for it.
pub(crate) fn decode(
    bytes: &[u8],
    channels: usize,
    max_pixels: u64,
    out: &mut Pixels,
) -> Result<(), String> {
    let format = Format::sniff(bytes).ok_or_else(|| {
        format!(
            "the bytes are not a JPEG, PNG or WebP file (they start with {:02x?})",
            &bytes[..bytes.len().min(4)]
        )
    })?;
    let budget = |w: usize, h: usize| {
        let pixels = w as u64 * h as u64;
        if w == 0 || h == 0 {
            Err(format!(
                "the {} header claims {w}×{h} pixels",
                format.name()
            ))
        } else if pixels > format.most_pixels(bytes.len()) {
            Err(format!(
                "the {} header claims {w}×{h} pixels, more than a file of {} bytes can hold (at most {} pixels a byte: {}); it was not decoded",
                format.name(),
                bytes.len(),
                format.pixels_per_byte(),
                format.why()
            ))
        } else if pixels > max_pixels {
            Err(format!(
                "the {} header claims {w}×{h} pixels ({pixels}), more than the budget of {max_pixels} (it was not decoded; `ImageSteps::max_pixels` sets the budget)",
                format.name()
            ))
        } else {
            Ok(())
        }
    };
    match format {
        Format::Jpeg => {
            let space = match channels {
                1 => ColorSpace::Luma,
                3 => ColorSpace::RGB,
                _ => ColorSpace::RGBA,
            };
            // The decoder's own limits are the budget's sides; the header is read first and its
            // size checked before the pixels' memory is sized.
            let side = max_pixels.min(u64::from(u16::MAX)) as usize;
            let options = DecoderOptions::default()
                .set_max_width(side)
                .set_max_height(side)
                .jpeg_set_out_colorspace(space);
            let mut decoder = JpegDecoder::new_with_options(ZCursor::new(bytes), options);
            decoder
                .decode_headers()
                .map_err(|e| format!("cannot read the JPEG header: {e:?}"))?;
            let (w, h) = decoder
                .dimensions()
                .ok_or("the JPEG header gives no size")?;
            budget(w, h)?;
            let size = decoder
                .output_buffer_size()
                .ok_or("the JPEG header's size overflows")?;
            if size != w * h * channels {
                return Err(format!(
                    "the JPEG decoder would write {size} bytes for {w}×{h} pixels of {channels} channels"
                ));
            }
            out.data.resize(size, 0);
            decoder
                .decode_into(&mut out.data)
                .map_err(|e| format!("cannot decode the JPEG image ({w}×{h}): {e:?}"))?;
            (out.width, out.height, out.channels) = (w, h, channels);
        }
        Format::Png | Format::WebP => {
            let name = format.name();
            let kind = match format {
                Format::Png => ImageFormat::Png,
                _ => ImageFormat::WebP,
            };
            let reader = || image::ImageReader::with_format(std::io::Cursor::new(bytes), kind);
            let (w, h) = reader()
                .into_dimensions()
                .map_err(|e| format!("cannot read the {name} header: {e}"))?;
            let (w, h) = (w as usize, h as usize);
            budget(w, h)?;
            let mut limits = image::Limits::default();
            limits.max_image_width = Some(w as u32);
            limits.max_image_height = Some(h as u32);
            // 16-bit RGBA is the widest PNG: 8 bytes a pixel, plus the decoder's own rows (and
            // a WebP's, at most 4 bytes a pixel).
            limits.max_alloc = Some((w as u64 * h as u64 * 8).saturating_add(1 << 20));
            let mut decoder = reader();
            decoder.limits(limits);
            let decoded = decoder
                .decode()
                .map_err(|e| format!("cannot decode the {name} image ({w}×{h}): {e}"))?;
            out.data.clear();
            match channels {
                1 => out.data.extend_from_slice(decoded.to_luma8().as_raw()),
                3 => match decoded {
                    DynamicImage::ImageRgb8(rgb) => out.data.extend_from_slice(rgb.as_raw()),
                    other => out.data.extend_from_slice(other.to_rgb8().as_raw()),
                },
                _ => out.data.extend_from_slice(decoded.to_rgba8().as_raw()),
            }
            (out.width, out.height, out.channels) = (w, h, channels);
        }
    }
    Ok(())
}
