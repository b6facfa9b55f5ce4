//! The direct path's pages without their levels: each data page's repetition and definition
//! levels are checked where they lie in the page, still encoded (every value defined, every row
//! `per` values), and the page goes on to the value decoder with its values alone, for a column
//! read as required (no levels). The `parquet` crate's column reader decoded two levels per
//! value into buffers of `i16` and counted the rows through them, and the direct path then
//! checked those buffers: a third of a window's decode, for levels that say nothing when every
//! value is there. A page whose levels are anything else is an error here, and the direct path
//! reads the column again with its levels (and the Arrow path after it names what is wrong).
//! The runs are walked by the hostile-file checks' walker (`levels.rs`).

use crate::load::parquet::levels::{Run, bit_width, packed_level, walk_runs};
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

fn refused(what: &str) -> ParquetError {
    ParquetError::General(format!("levels not of whole defined rows ({what})"))
}

impl Unleveled {
    /// Checks one page's levels (`rep` and `def`, RLE-encoded, for `n` values) and moves `at`.
    fn check(&mut self, rep: &[u8], def: &[u8], n: usize) -> Result<()> {
        if self.max_def > 0 {
            let (max, width) = (self.max_def as u64, bit_width(self.max_def));
            let mut defined = true;
            walk_runs(def, width, n, |run| {
                defined &= match run {
                    Run::Same { value, .. } => value == max,
                    Run::Packed { bytes, n } => packed_all(bytes, n, width, max),
                }
            })
            .map_err(|_| refused("definition levels cut short"))?;
            if !defined {
                return Err(refused("a value not defined"));
            }
        }
        if self.max_rep > 0 {
            let (per, width) = (self.per, bit_width(self.max_rep));
            let mut at = self.at;
            let mut whole = true;
            walk_runs(rep, width, n, |run| match run {
                // A row starts at each level 0, and at no other.
                Run::Same { value: 0, n } => {
                    whole &= per == 1 || (n == 1 && at == 0);
                    at = (at + n) % per;
                }
                Run::Same { value: 1, n } => {
                    whole &= at >= 1 && at + n <= per;
                    at = (at + n) % per;
                }
                Run::Same { n, .. } => {
                    whole = false;
                    at = (at + n) % per;
                }
                Run::Packed { bytes, n } => {
                    for k in 0..n {
                        whole &= packed_level(bytes, k, width) == u64::from(at != 0);
                        at += 1;
                        if at == per {
                            at = 0;
                        }
                    }
                }
            })
            .map_err(|_| refused("repetition levels cut short"))?;
            if !whole {
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

/// Whether the first `n` levels packed in `bytes` (`width` bits each) are all `value`.
fn packed_all(bytes: &[u8], n: usize, width: usize, value: u64) -> bool {
    if width == 1 && value == 1 {
        // All ones: whole bytes of 0xff, then the low bits of the last.
        let (full, bits) = (n / 8, n % 8);
        return bytes[..full].iter().all(|&b| b == 0xff)
            && (bits == 0 || bytes[full] & ((1u8 << bits) - 1) == (1u8 << bits) - 1);
    }
    (0..n).all(|k| packed_level(bytes, k, width) == value)
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
