//! A data page's payload checked before the `parquet` crate decodes it, where the crate's
//! decoders trust it: definition and repetition levels (a bit-packed run claiming more values
//! than its bytes hold makes the crate's one-bit level decoder index past them, a panic inside
//! arrow-buffer), the deprecated `BIT_PACKED` level encoding (the crate slices the levels it
//! claims without a check), and `BYTE_STREAM_SPLIT` values (the decoder reads as many values as
//! the levels say are present, however few bytes the page has). The structure-aware fuzzer
//! found each of them; with `panic = "abort"` each was an abort.
//!
//! The pages are read through the crate's own page reader (which decompresses them, within the
//! sizes `footer.rs` has already checked against the budget); nothing here decodes a value.

use crate::load::error::LoadReason;
use crate::load::parquet::part::Part;
use parquet::basic::{Encoding, Type as PhysicalType};
use parquet::column::page::{Page, PageReader};
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::serialized_reader::SerializedPageReader;
use parquet::schema::types::ColumnDescriptor;
use std::sync::Arc;

/// Whether a column's pages must have their payload checked: its definition levels go through
/// the crate's one-bit decoder (a flat nullable column: the labels, scalar and image columns),
/// or its page headers name an encoding whose decoder trusts the payload (`check_pages` says).
pub(super) fn needs_payload_check(column: &ColumnDescriptor, risky_encoding: bool) -> bool {
    risky_encoding || (column.max_def_level() == 1 && column.max_rep_level() == 0)
}

/// Reads every data page of the chunk (decompressed by the crate's page reader) and checks its
/// levels and its values' bytes (see the module's documentation). `rows`: the row group's.
pub(super) fn check_payloads(
    file: &Part,
    chunk: &ColumnChunkMetaData,
    rows: usize,
    column: &ColumnDescriptor,
) -> Result<(), LoadReason> {
    let lie = |page: usize, message: String| LoadReason::Parquet {
        message: format!(
            "data page {page} of the column chunk at byte {}: {message}",
            chunk.byte_range().0
        ),
    };
    let decode = |e: parquet::errors::ParquetError| LoadReason::Parquet {
        message: e.to_string(),
    };
    let mut pages =
        SerializedPageReader::new(Arc::new(file.clone()), chunk, rows, None).map_err(decode)?;
    let value_size = match column.physical_type() {
        PhysicalType::INT32 | PhysicalType::FLOAT => Some(4),
        PhysicalType::INT64 | PhysicalType::DOUBLE => Some(8),
        PhysicalType::INT96 => Some(12),
        PhysicalType::FIXED_LEN_BYTE_ARRAY => usize::try_from(column.type_length()).ok(),
        PhysicalType::BOOLEAN | PhysicalType::BYTE_ARRAY => None,
    };
    let (max_def, max_rep) = (column.max_def_level(), column.max_rep_level());
    let mut index = 0usize;
    while let Some(page) = pages.get_next_page().map_err(decode)? {
        let checked = match &page {
            Page::DataPage {
                buf,
                num_values,
                encoding,
                def_level_encoding,
                rep_level_encoding,
                ..
            } => check_v1(
                buf,
                *num_values as usize,
                (max_rep, *rep_level_encoding),
                (max_def, *def_level_encoding),
            )
            .and_then(|(present, values_at)| {
                let claimed = *num_values as usize;
                check_values(
                    *encoding,
                    value_size,
                    (claimed, present),
                    buf.len() - values_at,
                )
            }),
            Page::DataPageV2 {
                buf,
                num_values,
                num_nulls,
                encoding,
                def_levels_byte_len,
                rep_levels_byte_len,
                ..
            } => check_v2(
                buf,
                *num_values as usize,
                (max_rep, *rep_levels_byte_len as usize),
                (max_def, *def_levels_byte_len as usize),
            )
            .and_then(|(present, values_at)| {
                let claimed = num_values.saturating_sub(*num_nulls) as usize;
                let present = present.min(claimed);
                check_values(
                    *encoding,
                    value_size,
                    (claimed, present),
                    buf.len() - values_at,
                )
            }),
            Page::DictionaryPage { .. } => continue,
        };
        checked.map_err(|m| lie(index, m))?;
        index += 1;
    }
    Ok(())
}

/// A v1 page: `[repetition levels][definition levels][values]`, each level run length-encoded
/// after a 4-byte length (or bit-packed, the deprecated encoding, with no length). The values
/// present (at the maximum definition level) and where the values start.
fn check_v1(
    buf: &[u8],
    levels: usize,
    rep: (i16, Encoding),
    def: (i16, Encoding),
) -> Result<(usize, usize), String> {
    let mut at = 0;
    let mut present = levels;
    for (what, (max, encoding)) in [("repetition", rep), ("definition", def)] {
        if max == 0 {
            continue;
        }
        let width = bit_width(max);
        let rest = &buf[at..];
        let (data, used) = match encoding {
            Encoding::RLE => {
                let Some(len) = rest.get(..4) else {
                    return Err(format!("its {what} levels' length is cut off"));
                };
                let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
                let Some(data) = rest.get(4..4usize.saturating_add(len)) else {
                    return Err(format!(
                        "its {what} levels claim {len} bytes; the page has {} left",
                        rest.len().saturating_sub(4)
                    ));
                };
                let counted = run_lengths(data, width, levels, max).map_err(|m| {
                    format!("its {what} levels (run-length encoded, {len} bytes) {m}")
                })?;
                (counted, 4 + len)
            }
            #[allow(deprecated)]
            Encoding::BIT_PACKED => {
                let len = levels.saturating_mul(width).div_ceil(8);
                let Some(data) = rest.get(..len) else {
                    return Err(format!(
                        "its {levels} {what} levels, bit-packed, take {len} bytes; the page has {} left",
                        rest.len()
                    ));
                };
                (count_packed_msb(data, width, levels, max), len)
            }
            other => return Err(format!("its {what} levels are in the encoding {other}")),
        };
        if what == "definition" {
            present = data;
        }
        at += used;
    }
    Ok((present, at))
}

/// A v2 page: levels (no length prefix, lengths in the header, never compressed), then values.
fn check_v2(
    buf: &[u8],
    levels: usize,
    rep: (i16, usize),
    def: (i16, usize),
) -> Result<(usize, usize), String> {
    let end = rep.1.saturating_add(def.1);
    if end > buf.len() {
        return Err(format!(
            "its levels claim {} + {} bytes; the page has {}",
            rep.1,
            def.1,
            buf.len()
        ));
    }
    let mut present = levels;
    let mut at = 0;
    for (what, (max, len)) in [("repetition", rep), ("definition", def)] {
        let data = &buf[at..at + len];
        at += len;
        if max == 0 {
            continue;
        }
        let counted = run_lengths(data, bit_width(max), levels, max)
            .map_err(|m| format!("its {what} levels ({len} bytes) {m}"))?;
        if what == "definition" {
            present = counted;
        }
    }
    Ok((present, at))
}

/// The values' bytes against what their decoder will read: none where a `PLAIN` page claims no
/// values (`claimed`, the header's count that is not null: the byte-array decoder divides by it;
/// other encodings hold a header even for no values, as the dictionary indices' bit width that
/// the `parquet` crate writes for a page of nulls only); for `BYTE_STREAM_SPLIT`, `present`
/// values of `size` bytes each (the decoder takes the stream's stride from the bytes and the
/// count from the levels).
fn check_values(
    encoding: Encoding,
    size: Option<usize>,
    (claimed, present): (usize, usize),
    bytes: usize,
) -> Result<(), String> {
    if claimed == 0 && bytes > 0 && encoding == Encoding::PLAIN {
        return Err(format!(
            "it claims no values (that are not null) and holds {bytes} bytes of values"
        ));
    }
    if encoding != Encoding::BYTE_STREAM_SPLIT {
        return Ok(());
    }
    let Some(size) = size else {
        return Err("its values are BYTE_STREAM_SPLIT in a column of no fixed width".into());
    };
    let need = present.saturating_mul(size);
    if need > bytes {
        return Err(format!(
            "its levels say {present} values of {size} bytes are present (BYTE_STREAM_SPLIT, {need} bytes); the page holds {bytes} bytes of values"
        ));
    }
    Ok(())
}

/// The bits a level up to `max` takes.
fn bit_width(max: i16) -> usize {
    (16 - (max as u16).leading_zeros()) as usize
}

/// Walks the run-length / bit-packed hybrid runs that hold the first `levels` levels of
/// `width` bits, each run's bytes within `data`, and counts the levels equal to `max`. A run
/// that needs more bytes than are left, a header that does not end, or runs that end before
/// `levels` levels are an error (the decoder would index past the bytes, or stop short).
fn run_lengths(data: &[u8], width: usize, levels: usize, max: i16) -> Result<usize, String> {
    let mut at = 0usize;
    let mut seen = 0usize;
    let mut count = 0usize;
    let value_bytes = width.div_ceil(8);
    while seen < levels {
        let header_at = at;
        let mut header: u64 = 0;
        let mut shift = 0;
        loop {
            let Some(&byte) = data.get(at) else {
                return Err(format!(
                    "end after {seen} of the page's {levels} levels (byte {header_at})"
                ));
            };
            at += 1;
            if shift >= 64 {
                return Err(format!(
                    "have a run header that does not end (byte {header_at})"
                ));
            }
            header |= u64::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                break;
            }
        }
        let wanted = levels - seen;
        if header & 1 == 1 {
            // Bit-packed: groups of 8 levels, `width` bytes per group.
            let groups = header >> 1;
            let run = usize::try_from(groups.saturating_mul(8)).unwrap_or(usize::MAX);
            let take = run.min(wanted);
            let need = take.saturating_mul(width).div_ceil(8);
            let left = data.len() - at;
            if need > left {
                return Err(format!(
                    "have a bit-packed run at byte {header_at} of {run} levels whose {take} used need {need} bytes; {left} are left"
                ));
            }
            count += count_packed_lsb(&data[at..at + need], width, take, max);
            at = at.saturating_add(
                usize::try_from(groups)
                    .unwrap_or(usize::MAX)
                    .saturating_mul(width),
            );
            at = at.min(data.len());
            seen += take;
        } else {
            let run = usize::try_from(header >> 1).unwrap_or(usize::MAX);
            let Some(value) = data.get(at..at + value_bytes) else {
                return Err(format!(
                    "have a run at byte {header_at} whose value is cut off"
                ));
            };
            at += value_bytes;
            let value = value
                .iter()
                .rev()
                .fold(0u64, |v, &b| (v << 8) | u64::from(b));
            let take = run.min(wanted);
            if value == max as u64 {
                count += take;
            }
            seen += take;
        }
    }
    Ok(count)
}

/// The levels equal to `max` among the first `n` of `width` bits packed least significant bit
/// first (the hybrid encoding's bit-packed runs).
fn count_packed_lsb(data: &[u8], width: usize, n: usize, max: i16) -> usize {
    let mut count = 0;
    for i in 0..n {
        let mut v = 0u64;
        for b in 0..width {
            let bit = i * width + b;
            v |= u64::from((data[bit / 8] >> (bit % 8)) & 1) << b;
        }
        count += usize::from(v == max as u64);
    }
    count
}

/// As [`count_packed_lsb`] for the deprecated `BIT_PACKED` encoding, packed most significant
/// bit first.
fn count_packed_msb(data: &[u8], width: usize, n: usize, max: i16) -> usize {
    let mut count = 0;
    for i in 0..n {
        let mut v = 0u64;
        for b in 0..width {
            let bit = i * width + b;
            v = (v << 1) | u64::from((data[bit / 8] >> (7 - bit % 8)) & 1);
        }
        count += usize::from(v == max as u64);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_counted_as_the_encoding_defines_them() {
        // Parquet's Encodings.md example: values 0..7 bit-packed at width 3 = one group,
        // header (1 << 1) | 1, bytes 10001000 11000110 11111010.
        let data = [0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010];
        assert_eq!(run_lengths(&data, 3, 8, 7), Ok(1));
        assert_eq!(run_lengths(&data, 3, 8, 0), Ok(1));
        // An RLE run of 5 ones, then 3 zeros.
        let data = [5 << 1, 1, 3 << 1, 0];
        assert_eq!(run_lengths(&data, 1, 8, 1), Ok(5));
        // Only the levels of the page are read: the rest of a run is not asked for.
        assert_eq!(run_lengths(&data, 1, 4, 1), Ok(4));
    }

    #[test]
    fn a_bit_packed_run_claiming_more_than_its_bytes_is_refused() {
        // One group of 8 one-bit levels claimed; no byte follows.
        let e = run_lengths(&[0x03], 1, 3, 1).unwrap_err();
        assert!(e.contains("need 1 bytes; 0 are left"), "{e}");
        // 63 groups claimed, only the 3 levels asked for need their byte: fine.
        assert_eq!(run_lengths(&[0x7f, 0b101], 1, 3, 1), Ok(2));
    }

    #[test]
    fn runs_that_end_early_or_never_are_refused() {
        assert!(
            run_lengths(&[2 << 1, 1], 1, 3, 1)
                .unwrap_err()
                .contains("after 2 of")
        );
        assert!(
            run_lengths(&[0xff; 12], 1, 3, 1)
                .unwrap_err()
                .contains("does not end")
        );
        // Empty runs take no level (the crate's decoders skip them).
        assert_eq!(run_lengths(&[0, 1, 3 << 1, 1], 1, 3, 1), Ok(3));
        assert!(
            run_lengths(&[3 << 1], 1, 3, 1)
                .unwrap_err()
                .contains("cut off")
        );
    }

    #[test]
    fn deprecated_bit_packing_is_most_significant_bit_first() {
        // Encodings.md: 0..7 at width 3 → 00000101 00111001 01110111.
        let data = [0b0000_0101, 0b0011_1001, 0b0111_0111];
        assert_eq!(count_packed_msb(&data, 3, 8, 7), 1);
        assert_eq!(count_packed_msb(&data, 3, 8, 5), 1);
        assert_eq!(count_packed_lsb(&data, 3, 8, 7), 0);
    }

    #[test]
    #[allow(deprecated)]
    fn levels_in_the_deprecated_bit_packing_longer_than_the_page_are_refused() {
        // 12 levels of 2 bits take 3 bytes (the crate slices them without a check).
        let e = check_v1(&[0; 2], 12, (0, Encoding::RLE), (2, Encoding::BIT_PACKED)).unwrap_err();
        assert!(e.contains("take 3 bytes; the page has 2 left"), "{e}");
        // Within the page: 12 levels, those at 2 present (pairs `10`, most significant first).
        let page = [0b1010_1010, 0b0000_0000, 0b0000_0010, 7, 7];
        assert_eq!(
            check_v1(&page, 12, (0, Encoding::RLE), (2, Encoding::BIT_PACKED)),
            Ok((5, 3))
        );
        // Run-length levels whose length claims more than the page.
        let e = check_v1(&[9, 0, 0, 0, 2], 1, (0, Encoding::RLE), (1, Encoding::RLE)).unwrap_err();
        assert!(e.contains("claim 9 bytes; the page has 1 left"), "{e}");
    }

    #[test]
    fn byte_stream_split_needs_the_bytes_of_its_present_values() {
        assert!(check_values(Encoding::BYTE_STREAM_SPLIT, Some(4), (3, 3), 12).is_ok());
        let e = check_values(Encoding::BYTE_STREAM_SPLIT, Some(4), (3, 3), 8).unwrap_err();
        assert!(e.contains("3 values of 4 bytes"), "{e}");
        assert!(check_values(Encoding::PLAIN, Some(4), (3, 3), 0).is_ok());
        // A page of nulls only: PLAIN holds no bytes of values, a dictionary page's indices
        // their bit width (what the `parquet` crate writes).
        assert!(check_values(Encoding::PLAIN, None, (0, 0), 3).is_err());
        assert!(check_values(Encoding::RLE_DICTIONARY, Some(4), (0, 0), 1).is_ok());
    }
}
