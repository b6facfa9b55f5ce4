//! Image columns of encoded PNG or JPEG files, as Hugging Face `datasets` stores its `Image`
//! feature in Parquet (a struct of `bytes` and `path`), decoded with the `image` crate (feature
//! `parquet-image`) into the samples of an image space.

use crate::load::convert::convert_append;
use crate::load::error::LoadReason;
use crate::types::space::Space;
use image::{DynamicImage, ImageFormat};

/// Decodes one encoded image and appends its pixels, row by row with the channels interleaved
/// (the memory order of a `bhwc` image), converted to the element type of `S`, to `out`; `dims`
/// is the sample's shape `[h, w, c]`.
pub(crate) fn decode_into<S: Space>(
    bytes: &[u8],
    dims: &[usize],
    out: &mut Vec<S::Elem>,
) -> Result<(), LoadReason> {
    let fail = |message: String| LoadReason::Decode { message };
    let format = image::guess_format(bytes)
        .ok()
        .filter(|f| matches!(f, ImageFormat::Png | ImageFormat::Jpeg))
        .ok_or_else(|| {
            fail(format!(
                "the bytes are not a PNG or JPEG file (they start with {:02x?})",
                &bytes[..bytes.len().min(4)]
            ))
        })?;
    // The header first: an image of another size is refused before anything is decoded or
    // allocated for it (a header can claim 12000×12000 pixels in a few hundred bytes).
    let reader = || image::ImageReader::with_format(std::io::Cursor::new(bytes), format);
    let (w, h) = reader()
        .into_dimensions()
        .map_err(|e| fail(format!("cannot read the {format:?} image's header: {e}")))?;
    let (w, h) = (w as usize, h as usize);
    if let [dh, dw, _] = *dims
        && [h, w] != [dh, dw]
    {
        return Err(fail(format!(
            "the image is {h}×{w} pixels (as its header says: it was not decoded); a sample of {} is {}",
            S::describe(),
            dims.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join("×")
        )));
    }
    // Then the decoder, limited to the spec's size: at most 4 channels of 2 bytes, and its own
    // buffers bounded by the same.
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(w as u32);
    limits.max_image_height = Some(h as u32);
    limits.max_alloc = Some((w as u64 * h as u64 * 8).saturating_add(1 << 20));
    let mut decoder = reader();
    decoder.limits(limits);
    let decoded = decoder
        .decode()
        .map_err(|e| fail(format!("cannot decode the {format:?} image: {e}")))?;
    let channels = match &decoded {
        DynamicImage::ImageLuma8(_) => 1,
        DynamicImage::ImageLumaA8(_) => 2,
        DynamicImage::ImageRgb8(_) => 3,
        DynamicImage::ImageRgba8(_) => 4,
        other => {
            return Err(fail(format!(
                "the image has {:?} pixels; the reader decodes 8-bit images (grey, grey+alpha, RGB, RGBA)",
                other.color()
            )));
        }
    };
    let (w, h) = (decoded.width() as usize, decoded.height() as usize);
    if [h, w, channels] != *dims {
        return Err(fail(format!(
            "the image is {h}×{w} pixels of {channels} channel{} ({:?}); a sample of {} is {}",
            if channels == 1 { "" } else { "s" },
            decoded.color(),
            S::describe(),
            dims.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join("×")
        )));
    }
    match convert_append::<S, u8>(decoded.as_bytes(), out)? {
        Ok(()) => Ok(()),
        Err((_, reason)) => Err(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::decode_into;
    use crate::load::error::LoadReason;
    use crate::types::axis::BHWC;
    use crate::types::space::Image;
    use proptest::prelude::*;

    type Rgb = Image<3, 5, 3, 45, BHWC, u8>;

    fn png() -> Vec<u8> {
        let pixels: Vec<u8> = (0..45).map(|v| v * 5).collect();
        let img = image::RgbImage::from_raw(5, 3, pixels).unwrap();
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn a_png_decodes_row_by_row_with_channels_interleaved() {
        let mut out = Vec::new();
        decode_into::<Rgb>(&png(), &[3, 5, 3], &mut out).unwrap();
        assert_eq!(out, (0..45).map(|v| v * 5).collect::<Vec<u8>>());
        let err = decode_into::<Rgb>(b"GIF89a....", &[3, 5, 3], &mut out).unwrap_err();
        assert!(matches!(err, LoadReason::Decode { .. }));
        assert!(err.to_string().contains("not a PNG or JPEG"), "{err}");
    }

    /// CRC-32 as PNG's chunks carry it.
    fn crc32(bytes: &[u8]) -> u32 {
        let mut c = !0u32;
        for &b in bytes {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = if c & 1 == 1 {
                    0xedb8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }

    /// A PNG file of a few dozen bytes whose header claims `w`×`h` grey pixels.
    fn png_claiming(w: u32, h: u32) -> Vec<u8> {
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut chunk = |kind: &[u8], data: &[u8]| {
            out.extend_from_slice(&(data.len() as u32).to_be_bytes());
            let mut body = kind.to_vec();
            body.extend_from_slice(data);
            out.extend_from_slice(&body);
            out.extend_from_slice(&crc32(&body).to_be_bytes());
        };
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&w.to_be_bytes());
        ihdr.extend_from_slice(&h.to_be_bytes());
        ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
        chunk(b"IHDR", &ihdr);
        chunk(b"IDAT", &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
        chunk(b"IEND", &[]);
        out
    }

    /// A baseline JPEG header (quantization and Huffman tables left out) claiming `w`×`h`.
    fn jpeg_claiming(w: u16, h: u16) -> Vec<u8> {
        let mut out = vec![0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08];
        out.extend_from_slice(&h.to_be_bytes());
        out.extend_from_slice(&w.to_be_bytes());
        out.extend_from_slice(&[3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]);
        // The start of the scan, then the end of the image.
        out.extend_from_slice(&[
            0xff, 0xda, 0x00, 0x0c, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0,
        ]);
        out.extend_from_slice(&[0x00, 0xff, 0xd9]);
        out
    }

    type Grey2 = Image<2, 2, 1, 4, BHWC, u8>;

    #[test]
    fn a_png_header_claiming_12000_by_12000_pixels_is_refused_before_decoding() {
        let bytes = png_claiming(12000, 12000);
        assert!(bytes.len() < 100);
        let mut out = Vec::new();
        let err = decode_into::<Grey2>(&bytes, &[2, 2, 1], &mut out).unwrap_err();
        assert!(
            err.to_string().contains(
                "the image is 12000×12000 pixels (as its header says: it was not decoded)"
            ),
            "{err}"
        );
        assert!(out.is_empty() && out.capacity() == 0);
        // The same header claiming the spec's size gets as far as the decoder, which finds
        // the pixels missing.
        let err = decode_into::<Grey2>(&png_claiming(2, 2), &[2, 2, 1], &mut out).unwrap_err();
        assert!(err.to_string().contains("cannot decode"), "{err}");
    }

    #[test]
    fn a_jpeg_header_claiming_11585_by_11585_pixels_is_refused_before_decoding() {
        let mut out = Vec::new();
        let err =
            decode_into::<Grey2>(&jpeg_claiming(11585, 11585), &[2, 2, 1], &mut out).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("11585×11585 pixels (as its header says"),
            "{text}"
        );
        assert!(out.is_empty());
    }

    proptest! {
        // Damaged files are errors (or, when the damage misses the pixels' checks, images of
        // the right size), never panics.
        #[test]
        fn damaged_images_are_errors_not_panics(
            flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
            cut in any::<prop::sample::Index>(),
        ) {
            let mut bytes = png();
            for (at, v) in flips {
                let i = at.index(bytes.len());
                bytes[i] ^= v;
            }
            bytes.truncate(cut.index(bytes.len() + 1).max(1));
            let mut out = Vec::new();
            if decode_into::<Rgb>(&bytes, &[3, 5, 3], &mut out).is_ok() {
                prop_assert_eq!(out.len(), 45);
            }
        }
    }
}
