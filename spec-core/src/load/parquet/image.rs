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
    let decoded = image::load_from_memory_with_format(bytes, format)
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
    if [h, w, channels] != dims {
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
