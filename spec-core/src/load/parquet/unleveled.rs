//! The direct path's pages without their levels: each data page's repetition and definition
//! levels are checked where they lie in the page, still encoded (every value defined, every row
//! `per` values), and the page goes on to the value decoder with its values alone, for a column
//! read as required (no levels). The `parquet` crate's column reader decoded two levels per
//! value into buffers of `i16` and counted the rows through them, and the direct path then
//! checked those buffers: a third of a window's decode, for levels that say nothing when every
//! value is there. A page whose levels are anything else is an error here, and the direct path
//! reads the column again with its levels (and the Arrow path after it names what is wrong).

use bytes::Bytes;
use parquet::basic::Encoding;
use parquet::column::page::{Page, PageMetadata, PageReader};
use parquet::errors::{ParquetError, Result};

/// The pages of `pages`, their levels checked and taken off.
pub(super) struct Unleveled {
    pub pages: Box<dyn PageReader>,
    /// Values per row (1: a column of one value per row, no repetition levels).
    pub per: usize,
    pub max_def: i16,
    pub max_rep: i16,
    /// Where the levels read so far stand in a row: `levels % per`.
    pub at: usize,
}

/// Bits per level of levels up to `max` (as Parquet encodes them).
fn bit_width(max: i16) -> u32 {
    u16::BITS - (max.max(0) as u16).leading_zeros()
}

fn refused(what: &str) -> ParquetError {
    ParquetError::General(format!("levels not of whole defined rows ({what})"))
}

impl Unleveled {
    /// Checks one page's levels (`rep` and `def`, RLE-encoded, for `n` values) and moves `at`.
    fn check(&mut self, rep: &[u8], def: &[u8], n: usize) -> Result<()> {
        if self.max_def > 0 {
            let max = self.max_def as u16;
            runs(def, bit_width(self.max_def), n, |run| match run {
                Run::Same { value, .. } => value == max,
                Run::Packed { bytes, n, width } => packed_all(bytes, n, width, max),
            })
            .then_some(())
            .ok_or_else(|| refused("a value not defined"))?;
        }
        if self.max_rep > 0 {
            let per = self.per;
            let mut at = self.at;
            let ok = runs(rep, bit_width(self.max_rep), n, |run| match run {
                // A row starts at each level 0, and at no other.
                Run::Same { value: 0, n } => {
                    let fits = per == 1 || (n == 1 && at == 0);
                    at = (at + n) % per;
                    fits
                }
                Run::Same { value: 1, n } => {
                    let fits = at >= 1 && at + n <= per;
                    at = (at + n) % per;
                    fits
                }
                Run::Same { .. } => false,
                Run::Packed { bytes, n, width } => {
                    let mut fits = true;
                    for k in 0..n {
                        let want = u16::from(at != 0);
                        fits &= value_at(bytes, k, width) == want;
                        at += 1;
                        if at == per {
                            at = 0;
                        }
                    }
                    fits
                }
            });
            if !ok {
                return Err(refused("a row not of its length"));
            }
            self.at = at;
        } else if self.per != 1 {
            return Err(refused("no repetition levels"));
        }
        Ok(())
    }

    /// The page with its levels checked and taken off.
    fn unlevel(&mut self, page: Page) -> Result<Page> {
        match page {
            Page::DataPage {
                buf,
                num_values,
                encoding,
                def_level_encoding,
                rep_level_encoding,
                statistics,
            } => {
                let n = num_values as usize;
                let mut rest = buf.clone();
                let mut take = |present: bool, encoding: Encoding| -> Result<Bytes> {
                    if !present {
                        return Ok(Bytes::new());
                    }
                    if encoding != Encoding::RLE || rest.len() < 4 {
                        return Err(refused("levels not RLE-encoded"));
                    }
                    let len = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
                    if rest.len() - 4 < len {
                        return Err(refused("levels past the page"));
                    }
                    let levels = rest.slice(4..4 + len);
                    rest = rest.slice(4 + len..);
                    Ok(levels)
                };
                let rep = take(self.max_rep > 0, rep_level_encoding)?;
                let def = take(self.max_def > 0, def_level_encoding)?;
                self.check(&rep, &def, n)?;
                Ok(Page::DataPage {
                    buf: rest,
                    num_values,
                    encoding,
                    def_level_encoding,
                    rep_level_encoding,
                    statistics,
                })
            }
            Page::DataPageV2 {
                buf,
                num_values,
                encoding,
                num_nulls,
                num_rows,
                def_levels_byte_len,
                rep_levels_byte_len,
                is_compressed,
                statistics,
            } => {
                let (r, d) = (rep_levels_byte_len as usize, def_levels_byte_len as usize);
                if num_nulls != 0 || buf.len() < r.saturating_add(d) {
                    return Err(refused("nulls, or levels past the page"));
                }
                // A version 2 page starts a row.
                if self.at != 0 {
                    return Err(refused("a row across a version 2 page"));
                }
                self.check(&buf[..r], &buf[r..r + d], num_values as usize)?;
                // The reader of a column without levels skips none: the values alone.
                Ok(Page::DataPageV2 {
                    buf: buf.slice(r + d..),
                    num_values,
                    encoding,
                    num_nulls,
                    num_rows,
                    def_levels_byte_len: 0,
                    rep_levels_byte_len: 0,
                    is_compressed,
                    statistics,
                })
            }
            dictionary @ Page::DictionaryPage { .. } => Ok(dictionary),
        }
    }
}

/// A run of a level stream in Parquet's RLE / bit-packed hybrid: `n` times one value, or `n`
/// values packed `width` bits each, least significant bit first.
pub(super) enum Run<'a> {
    Same {
        value: u16,
        n: usize,
    },
    Packed {
        bytes: &'a [u8],
        n: usize,
        width: u32,
    },
}

/// Calls `each` with the runs of `bytes` (levels of `width` bits, at most 16) that hold the
/// first `count` values, while it returns `true`: `false` when one did not, or the runs end
/// before `count` values.
pub(super) fn runs(
    bytes: &[u8],
    width: u32,
    count: usize,
    mut each: impl FnMut(Run<'_>) -> bool,
) -> bool {
    if width == 0 || width > 16 {
        return false;
    }
    let value_bytes = width.div_ceil(8) as usize;
    let (mut at, mut seen) = (0usize, 0usize);
    while seen < count {
        let Some((header, used)) = uleb(&bytes[at..]) else {
            return false;
        };
        at += used;
        let left = count - seen;
        let run = if header & 1 == 1 {
            let groups = usize::try_from(header >> 1).unwrap_or(usize::MAX);
            let len = groups.saturating_mul(width as usize);
            if groups == 0 || bytes.len() - at < len {
                return false;
            }
            let n = groups.saturating_mul(8).min(left);
            let run = Run::Packed {
                bytes: &bytes[at..at + len],
                n,
                width,
            };
            at += len;
            seen += n;
            run
        } else {
            let n = usize::try_from(header >> 1).unwrap_or(usize::MAX);
            if n == 0 || bytes.len() - at < value_bytes {
                return false;
            }
            let value = bytes[at..at + value_bytes]
                .iter()
                .rev()
                .fold(0u32, |v, &b| v << 8 | u32::from(b));
            at += value_bytes;
            let Ok(value) = u16::try_from(value) else {
                return false;
            };
            let n = n.min(left);
            seen += n;
            Run::Same { value, n }
        };
        if !each(run) {
            return false;
        }
    }
    true
}

/// An unsigned LEB128 number at the start of `bytes`, and the bytes it took.
fn uleb(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        value |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// The `k`th value of `width` bits packed in `bytes`, least significant bit first.
pub(super) fn value_at(bytes: &[u8], k: usize, width: u32) -> u16 {
    let bit = k * width as usize;
    let (byte, shift) = (bit / 8, bit % 8);
    let mut word = 0u32;
    for (i, &b) in bytes[byte..].iter().take(3).enumerate() {
        word |= u32::from(b) << (8 * i);
    }
    ((word >> shift) & ((1u32 << width) - 1)) as u16
}

/// Whether the first `n` values packed in `bytes` are all `value`.
fn packed_all(bytes: &[u8], n: usize, width: u32, value: u16) -> bool {
    if width == 1 && value == 1 {
        // All ones: whole bytes of 0xff, then the low bits of the last.
        let (full, bits) = (n / 8, n % 8);
        return bytes[..full].iter().all(|&b| b == 0xff)
            && (bits == 0 || bytes[full] & ((1u8 << bits) - 1) == (1u8 << bits) - 1);
    }
    (0..n).all(|k| value_at(bytes, k, width) == value)
}

impl Iterator for Unleveled {
    type Item = Result<Page>;

    fn next(&mut self) -> Option<Result<Page>> {
        self.get_next_page().transpose()
    }
}

impl PageReader for Unleveled {
    fn get_next_page(&mut self) -> Result<Option<Page>> {
        match self.pages.get_next_page()? {
            Some(page) => self.unlevel(page).map(Some),
            None if self.at != 0 => Err(refused("a last row cut short")),
            None => Ok(None),
        }
    }

    fn peek_next_page(&mut self) -> Result<Option<PageMetadata>> {
        self.pages.peek_next_page()
    }

    fn skip_next_page(&mut self) -> Result<()> {
        self.pages.skip_next_page()
    }

    fn supports_deferred_dictionary(&self) -> bool {
        self.pages.supports_deferred_dictionary()
    }

    fn take_deferred_dictionary(&mut self) -> Result<Option<Page>> {
        self.pages.take_deferred_dictionary()
    }

    fn at_record_boundary(&mut self) -> Result<bool> {
        self.pages.at_record_boundary()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checker of a column of rows of `per` values, levels up to 1 (a list of required
    /// values, not null).
    fn rows_of(per: usize) -> Unleveled {
        Unleveled {
            pages: Box::new(NoPages),
            per,
            max_def: 1,
            max_rep: 1,
            at: 0,
        }
    }

    struct NoPages;
    impl Iterator for NoPages {
        type Item = Result<Page>;
        fn next(&mut self) -> Option<Result<Page>> {
            None
        }
    }
    impl PageReader for NoPages {
        fn get_next_page(&mut self) -> Result<Option<Page>> {
            Ok(None)
        }
        fn peek_next_page(&mut self) -> Result<Option<PageMetadata>> {
            Ok(None)
        }
        fn skip_next_page(&mut self) -> Result<()> {
            Ok(())
        }
    }

    // Level streams written by hand in the RLE / bit-packed hybrid: `0x14, 0x01` is a run of
    // 10 ones (header 10 << 1), `0x03, b` a group of 8 one-bit values packed in `b` (header
    // 1 << 1 | 1), least significant bit first.
    const ALL_DEFINED_10: &[u8] = &[0x14, 0x01];

    #[test]
    fn runs_are_read_as_written() {
        let bytes = [0x14, 0x01, 0x03, 0b1010_1010];
        let mut seen = Vec::new();
        assert!(runs(&bytes, 1, 18, |run| {
            seen.push(match run {
                Run::Same { value, n } => format!("same {value} x{n}"),
                Run::Packed { bytes, n, width } => {
                    let v: Vec<u16> = (0..n).map(|k| value_at(bytes, k, width)).collect();
                    format!("packed {v:?}")
                }
            });
            true
        }));
        assert_eq!(seen, ["same 1 x10", "packed [0, 1, 0, 1, 0, 1, 0, 1]"]);
        // Fewer values asked for: the packed group's first two only.
        assert!(runs(&bytes, 1, 12, |run| match run {
            Run::Packed { n, .. } => n == 2,
            Run::Same { n, .. } => n == 10,
        }));
        // Runs that end before the values do, a run of no values, a group past the bytes.
        assert!(!runs(&bytes, 1, 19, |_| true));
        assert!(!runs(&[0x00, 0x01], 1, 1, |_| true));
        assert!(!runs(&[0x05, 0xff], 1, 16, |_| true));
        // Levels of 2 and 9 bits: a run's value takes one byte, then two.
        assert!(runs(&[0x04, 0x02], 2, 2, |r| matches!(
            r,
            Run::Same { value: 2, n: 2 }
        )));
        assert!(runs(&[0x04, 0x01, 0x01], 9, 2, |r| matches!(
            r,
            Run::Same { value: 257, n: 2 }
        )));
    }

    #[test]
    fn rows_of_their_length_pass_and_others_do_not() {
        // Rows of 4 bit-packed: 0,1,1,1, 0,1,1,1.
        let two_rows = [0x03, 0b1110_1110];
        let defined = [0x10, 0x01];
        assert!(rows_of(4).check(&two_rows, &defined, 8).is_ok());
        // The same levels as rows of 3: a level 1 where a row starts.
        assert!(rows_of(3).check(&two_rows, &defined, 8).is_err());
        // A row of 10: a packed 0 and seven 1s, then a run of two 1s; one more 1 is a row
        // of 11.
        let mut ten = rows_of(10);
        assert!(
            ten.check(&[0x03, 0b1111_1110, 0x04, 0x01], ALL_DEFINED_10, 10)
                .is_ok()
        );
        assert_eq!(ten.at, 0);
        let eleven = [0x03, 0b1111_1110, 0x06, 0x01];
        assert!(rows_of(10).check(&eleven, &[0x16, 0x01], 11).is_err());
        // A row across two pages: its first 8 levels in one, its last 2 in the next.
        let mut across = rows_of(10);
        assert!(across.check(&[0x03, 0b1111_1110], &[0x10, 0x01], 8).is_ok());
        assert_eq!(across.at, 8);
        assert!(across.check(&[0x04, 0x01], &[0x04, 0x01], 2).is_ok());
        assert_eq!(across.at, 0);
        // A run of 0s: rows of one value each; in rows of 3, a row of one value.
        assert!(rows_of(1).check(&[0x0a, 0x00], &[0x0a, 0x01], 5).is_ok());
        assert!(rows_of(3).check(&[0x04, 0x00], &[0x04, 0x01], 2).is_err());
        // A value not defined (a level 0 in the definition levels), in a run or packed.
        assert!(
            rows_of(4)
                .check(&two_rows, &[0x0e, 0x01, 0x02, 0x00], 8)
                .is_err()
        );
        assert!(
            rows_of(4)
                .check(&two_rows, &[0x03, 0b1111_0111], 8)
                .is_err()
        );
        assert!(rows_of(4).check(&two_rows, &[0x03, 0b1111_1111], 8).is_ok());
    }
}
