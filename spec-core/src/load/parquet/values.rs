//! The direct path's values decoded from its pages (their levels checked and taken off by
//! `unleveled.rs`): plain values copied out of the page, and dictionary indices (the RLE /
//! bit-packed hybrid) looked up in the dictionary as they are unpacked, each value written
//! once into the leaf's memory. The `parquet` crate's column reader unpacked the indices into a
//! buffer of its own, then looked each up with a bounds check into a value buffer it had first
//! filled with zeros: over half of a one-thread stream's time. Values of another type than the
//! leaf's are converted as they are written (a dictionary's entries once each), exactly or not
//! at all. Any other encoding, a value the leaf's type does not hold, an index past the
//! dictionary or a page that holds fewer values than it says, and the direct path leaves the
//! chunk to the crate's readers (whose errors, and the Arrow path's after them, are the ones
//! the user sees).

use crate::load::convert::Scalar;
use crate::load::parquet::unleveled::{Run, runs, value_at};
use parquet::basic::Encoding;
use parquet::column::page::{Page, PageReader};

/// Why [`decode`] stopped.
#[derive(Debug, PartialEq)]
pub(super) enum Stop<T> {
    /// A page it does not decode, or one that is not what it claims: the crate's readers
    /// read the chunk instead.
    Unread,
    /// The value stored `raw`, the `at`th of the chunk, is one `convert` refused.
    Refused { at: usize, raw: T },
}

/// A chunk's dictionary, converted: its values, and a table of 256 of them (zeros past its
/// end) that an index of one byte reads without a bounds check once the run's largest index is
/// checked; the entries `convert` refused, when it refused any (as stored, and a zero in their
/// place among the values), for an index that reads one to be named.
struct Dictionary<T, E> {
    values: Vec<E>,
    table: Box<[E; 256]>,
    refused: Option<(Vec<T>, Vec<bool>)>,
}

impl<T: Scalar, E: Copy + Default> Dictionary<T, E> {
    fn new(raw: Vec<T>, convert: impl Fn(T) -> Option<E>) -> Self {
        let converted: Vec<Option<E>> = raw.iter().map(|&v| convert(v)).collect();
        let refused = converted
            .iter()
            .any(Option::is_none)
            .then(|| (raw, converted.iter().map(Option::is_none).collect()));
        let values: Vec<E> = converted.iter().map(|v| v.unwrap_or_default()).collect();
        let mut table = Box::new([E::default(); 256]);
        let n = values.len().min(256);
        table[..n].copy_from_slice(&values[..n]);
        Dictionary {
            values,
            table,
            refused,
        }
    }
}

impl<T: Copy, E> Dictionary<T, E> {
    /// The first of `indices` that reads an entry `convert` refused: its place among them and
    /// the entry as stored.
    fn first_refused(&self, indices: impl Iterator<Item = usize>) -> Option<(usize, T)> {
        let (raw, refused) = self.refused.as_ref()?;
        indices
            .enumerate()
            .find(|&(_, i)| refused[i])
            .map(|(k, i)| (k, raw[i]))
    }
}

/// Appends the `want` values of the pages of `pages`, each passed through `convert`, to
/// `values`: [`Stop::Unread`] when a page is not one decoded here (an encoding other than
/// plain or dictionary, indices wider than 16 bits, a dictionary page that is not the first)
/// or is not what it claims (an index past the dictionary, fewer values or bytes than its
/// header says, more values than the chunk); [`Stop::Refused`] at the first value `convert`
/// refuses (of a dictionary, an entry an index reads). Whatever was appended before then is
/// left for the caller to take back.
pub(super) fn decode<T: Scalar, E: Copy + Default>(
    pages: &mut dyn PageReader,
    want: usize,
    values: &mut Vec<E>,
    convert: impl Fn(T) -> Option<E>,
) -> Result<(), Stop<T>> {
    let start = values.len();
    let mut dictionary: Option<Dictionary<T, E>> = None;
    while let Some(page) = pages.get_next_page().map_err(|_| Stop::Unread)? {
        let (buf, n, encoding) = match page {
            Page::DictionaryPage {
                buf,
                num_values,
                encoding,
                ..
            } => {
                let plain = matches!(encoding, Encoding::PLAIN | Encoding::PLAIN_DICTIONARY);
                if !plain || dictionary.is_some() || values.len() != start {
                    return Err(Stop::Unread);
                }
                // The values the page claims, checked against its bytes before any is kept.
                let size = (num_values as usize).checked_mul(T::SIZE);
                let bytes = size.and_then(|size| buf.get(..size)).ok_or(Stop::Unread)?;
                let raw = bytes.chunks_exact(T::SIZE).map(T::from_le).collect();
                dictionary = Some(Dictionary::new(raw, &convert));
                continue;
            }
            Page::DataPage {
                buf,
                num_values,
                encoding,
                ..
            }
            | Page::DataPageV2 {
                buf,
                num_values,
                encoding,
                ..
            } => (buf, num_values as usize, encoding),
        };
        if n > want - (values.len() - start) {
            return Err(Stop::Unread);
        }
        match encoding {
            Encoding::PLAIN => {
                let size = n.checked_mul(T::SIZE);
                let bytes = size.and_then(|size| buf.get(..size)).ok_or(Stop::Unread)?;
                let before = values.len();
                values.extend(
                    bytes
                        .chunks_exact(T::SIZE)
                        .map_while(|b| convert(T::from_le(b))),
                );
                let done = values.len() - before;
                if done != n {
                    let raw = T::from_le(&bytes[done * T::SIZE..]);
                    let at = values.len() - start;
                    return Err(Stop::Refused { at, raw });
                }
            }
            Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY => {
                let dictionary = dictionary.as_ref().ok_or(Stop::Unread)?;
                let (&width, indices) = buf.split_first().ok_or(Stop::Unread)?;
                look_up(dictionary, indices, u32::from(width), n, values).map_err(
                    |stop| match stop {
                        Stop::Refused { at, raw } => Stop::Refused {
                            at: at - start,
                            raw,
                        },
                        Stop::Unread => Stop::Unread,
                    },
                )?;
            }
            _ => return Err(Stop::Unread),
        }
    }
    if values.len() - start == want {
        Ok(())
    } else {
        Err(Stop::Unread)
    }
}

/// Appends the values of the `n` dictionary indices of `width` bits encoded in `bytes`
/// ([`Stop::Refused`] at the place in `values` of the first that reads a refused entry).
fn look_up<T: Scalar, E: Copy>(
    dictionary: &Dictionary<T, E>,
    bytes: &[u8],
    width: u32,
    n: usize,
    values: &mut Vec<E>,
) -> Result<(), Stop<T>> {
    let entries = &dictionary.values[..];
    let table = &*dictionary.table;
    let mut refused = None;
    if width == 0 {
        // Indices of no bits: every one is 0 (a dictionary of one value).
        let first = *entries.first().ok_or(Stop::Unread)?;
        if let Some((_, raw)) = dictionary
            .first_refused(core::iter::once(0))
            .filter(|_| n > 0)
        {
            return Err(Stop::Refused {
                at: values.len(),
                raw,
            });
        }
        values.extend(core::iter::repeat_n(first, n));
        return Ok(());
    }
    let ok = runs(bytes, width, n, |run| match run {
        Run::Same { value, n } => match entries.get(usize::from(value)) {
            Some(&v) => {
                let index = core::iter::once(usize::from(value));
                if let Some((_, raw)) = dictionary.first_refused(index) {
                    refused = Some((values.len(), raw));
                    return false;
                }
                values.extend(core::iter::repeat_n(v, n));
                true
            }
            None => false,
        },
        // Indices of a byte each: the bytes themselves.
        Run::Packed { bytes, n, width: 8 } => {
            let indices = &bytes[..n];
            let largest = indices.iter().fold(0u8, |m, &i| m.max(i));
            if usize::from(largest) >= entries.len() {
                return false;
            }
            let each = indices.iter().map(|&i| usize::from(i));
            if let Some((k, raw)) = dictionary.first_refused(each) {
                refused = Some((values.len() + k, raw));
                return false;
            }
            values.extend(indices.iter().map(|&i| table[usize::from(i)]));
            true
        }
        Run::Packed { bytes, n, width } => {
            // Unpacked a few hundred at a time, checked, then looked up.
            let mut unpacked = [0u16; 256];
            let mut k = 0;
            while k < n {
                let m = (n - k).min(unpacked.len());
                for (j, index) in unpacked[..m].iter_mut().enumerate() {
                    *index = value_at(bytes, k + j, width);
                }
                let largest = unpacked[..m].iter().fold(0u16, |a, &i| a.max(i));
                if usize::from(largest) >= entries.len() {
                    return false;
                }
                let each = unpacked[..m].iter().map(|&i| usize::from(i));
                if let Some((j, raw)) = dictionary.first_refused(each) {
                    refused = Some((values.len() + j, raw));
                    return false;
                }
                values.extend(unpacked[..m].iter().map(|&i| entries[usize::from(i)]));
                k += m;
            }
            true
        }
    });
    match (ok, refused) {
        (true, _) => Ok(()),
        (false, Some((at, raw))) => Err(Stop::Refused { at, raw }),
        (false, None) => Err(Stop::Unread),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use parquet::column::page::PageMetadata;
    use parquet::errors::Result;

    /// Pages written by hand.
    struct Pages(std::vec::IntoIter<Page>);
    impl Iterator for Pages {
        type Item = Result<Page>;
        fn next(&mut self) -> Option<Result<Page>> {
            self.0.next().map(Ok)
        }
    }
    impl PageReader for Pages {
        fn get_next_page(&mut self) -> Result<Option<Page>> {
            Ok(self.0.next())
        }
        fn peek_next_page(&mut self) -> Result<Option<PageMetadata>> {
            Ok(None)
        }
        fn skip_next_page(&mut self) -> Result<()> {
            Ok(())
        }
    }

    fn le(values: &[f32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    fn dictionary(values: &[f32], claimed: usize) -> Page {
        Page::DictionaryPage {
            buf: Bytes::from(le(values)),
            num_values: claimed as u32,
            encoding: Encoding::PLAIN,
            is_sorted: false,
        }
    }

    fn data(encoding: Encoding, buf: Vec<u8>, n: usize) -> Page {
        Page::DataPage {
            buf: Bytes::from(buf),
            num_values: n as u32,
            encoding,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        }
    }

    /// A page of `indices` of `width` bits: the width's byte, then `runs` of the hybrid
    /// encoding as given.
    fn indexed(width: u8, runs: &[&[u8]], n: usize) -> Page {
        let mut buf = vec![width];
        for run in runs {
            buf.extend_from_slice(run);
        }
        data(Encoding::RLE_DICTIONARY, buf, n)
    }

    /// A bit-packed run of `values` (a multiple of 8 of them) of `width` bits, least
    /// significant bit first, written bit by bit.
    fn packed(values: &[u16], width: u32) -> Vec<u8> {
        let mut bytes = vec![0u8; values.len() * width as usize / 8];
        for (k, &v) in values.iter().enumerate() {
            for b in 0..width as usize {
                if v >> b & 1 == 1 {
                    let bit = k * width as usize + b;
                    bytes[bit / 8] |= 1 << (bit % 8);
                }
            }
        }
        let mut run = vec![((values.len() / 8) << 1 | 1) as u8];
        run.extend(bytes);
        run
    }

    fn decoded(pages: Vec<Page>, want: usize) -> Option<Vec<f32>> {
        let mut values = Vec::new();
        decode(
            &mut Pages(pages.into_iter()),
            want,
            &mut values,
            Some::<f32>,
        )
        .ok()
        .map(|()| values)
    }

    #[test]
    fn indices_in_runs_and_packed_are_looked_up() {
        let three = [10.0, 20.0, 30.0];
        // A run of five 0s (header 5 << 1, one byte of value), then eight indices of 2 bits.
        let indices = [1, 2, 0, 1, 2, 0, 1, 2];
        let pages = vec![
            dictionary(&three, 3),
            indexed(2, &[&[0x0a, 0x00], &packed(&indices, 2)], 13),
        ];
        let mut want = vec![10.0; 5];
        want.extend(indices.iter().map(|&i| three[usize::from(i)]));
        assert_eq!(decoded(pages, 13), Some(want));

        // Indices of a byte (every one of 256) and of 9 bits (a run of two bytes' value).
        let wide: Vec<f32> = (0..300).map(|i| i as f32 * 0.5).collect();
        let bytes: Vec<u16> = (0..256).rev().collect();
        let nine: Vec<u16> = vec![299, 0, 256, 1, 298, 128, 7, 3];
        let pages = vec![
            dictionary(&wide, 300),
            indexed(8, &[&packed(&bytes, 8)], 256),
            indexed(9, &[&[0x06, 0x2b, 0x01], &packed(&nine, 9)], 11),
        ];
        let mut want: Vec<f32> = bytes.iter().map(|&i| wide[usize::from(i)]).collect();
        want.extend([149.5; 3]);
        want.extend(nine.iter().map(|&i| wide[usize::from(i)]));
        assert_eq!(decoded(pages, 256 + 11), Some(want));

        // A packed run longer than the indices unpacked at a time.
        let long: Vec<u16> = (0..304).map(|k| (k * 7 % 300) as u16).collect();
        let pages = vec![
            dictionary(&wide, 300),
            indexed(9, &[&packed(&long, 9)], 304),
        ];
        let want: Vec<f32> = long.iter().map(|&i| wide[usize::from(i)]).collect();
        assert_eq!(decoded(pages, 304), Some(want));

        // A packed run asked for fewer values than it holds (the page's last): the first ones.
        let pages = vec![
            dictionary(&three, 3),
            indexed(2, &[&packed(&indices, 2)], 3),
        ];
        assert_eq!(decoded(pages, 3), Some(vec![20.0, 30.0, 10.0]));
        // Indices of no bits: a dictionary of one value.
        let pages = vec![dictionary(&[4.0], 1), indexed(0, &[], 4)];
        assert_eq!(decoded(pages, 4), Some(vec![4.0; 4]));
    }

    #[test]
    fn plain_pages_and_a_dictionary_outgrown() {
        let pages = vec![data(Encoding::PLAIN, le(&[1.5, -2.5]), 2)];
        assert_eq!(decoded(pages, 2), Some(vec![1.5, -2.5]));
        // Dictionary pages, then plain ones (the writer's fallback when the dictionary grew).
        let pages = vec![
            dictionary(&[7.0, 8.0], 2),
            indexed(1, &[&packed(&[1, 0, 1, 1, 0, 0, 0, 1], 1)], 8),
            data(Encoding::PLAIN, le(&[9.0, 10.0, 11.0]), 3),
        ];
        let want = [8.0, 7.0, 8.0, 8.0, 7.0, 7.0, 7.0, 8.0, 9.0, 10.0, 11.0];
        assert_eq!(decoded(pages, 11), Some(want.to_vec()));
    }

    #[test]
    fn values_are_converted_as_they_are_written_or_refused_where_they_lie() {
        // Into integers: a dictionary's entries converted once, a plain page's values each.
        let whole = |v: f32| (v.fract() == 0.0).then_some(v as i64);
        let run = |pages: Vec<Page>, want: usize| {
            let mut values = Vec::new();
            decode(&mut Pages(pages.into_iter()), want, &mut values, whole).map(|()| values)
        };
        let pages = vec![
            dictionary(&[3.0, -4.0], 2),
            indexed(1, &[&packed(&[1, 0, 0, 1, 1, 1, 0, 0], 1)], 8),
            data(Encoding::PLAIN, le(&[5.0, 6.0]), 2),
        ];
        assert_eq!(run(pages, 10), Ok(vec![-4, 3, 3, -4, -4, -4, 3, 3, 5, 6]));
        // An entry that is not whole: refused where an index first reads it, in a run, packed
        // in bits or in bytes, in a page after another; an entry no index reads is no matter.
        let dict = || dictionary(&[3.0, 0.5, 7.0], 3);
        let half = |at| Err(Stop::Refused { at, raw: 0.5 });
        let bits = packed(&[0, 2, 1, 0, 0, 0, 0, 0], 2);
        assert_eq!(
            run(vec![dict(), indexed(2, &[&[0x08, 0x00], &bits], 12)], 12),
            half(6)
        );
        let same = indexed(2, &[&[0x04, 0x00], &[0x06, 0x01]], 5);
        assert_eq!(run(vec![dict(), same], 5), half(2));
        let bytes = packed(&[2, 2, 2, 1, 0, 0, 0, 0], 8);
        assert_eq!(run(vec![dict(), indexed(8, &[&bytes], 8)], 8), half(3));
        let second = indexed(2, &[&[0x04, 0x01]], 2);
        let pages = vec![dict(), indexed(2, &[&[0x06, 0x00]], 3), second];
        assert_eq!(run(pages, 5), half(3));
        let unread = packed(&[0, 2, 0, 2, 0, 2, 0, 2], 2);
        let pages = vec![dict(), indexed(2, &[&unread], 8)];
        assert_eq!(run(pages, 8), Ok(vec![3, 7, 3, 7, 3, 7, 3, 7]));
        // A plain value, after a page of indices.
        let pages = vec![
            dict(),
            indexed(2, &[&[0x06, 0x00]], 3),
            data(Encoding::PLAIN, le(&[5.0, 6.5, 7.0]), 3),
        ];
        assert_eq!(run(pages, 6), Err(Stop::Refused { at: 4, raw: 6.5 }));
    }

    #[test]
    fn pages_not_as_they_claim_are_left_to_the_crate() {
        let three = [10.0, 20.0, 30.0];
        let dict = || dictionary(&three, 3);
        // An index past the dictionary: in a run, packed in bits, packed in bytes.
        assert_eq!(
            decoded(vec![dict(), indexed(2, &[&[0x02, 0x03]], 1)], 1),
            None
        );
        let past = packed(&[0, 1, 2, 3, 0, 0, 0, 0], 2);
        assert_eq!(decoded(vec![dict(), indexed(2, &[&past], 8)], 8), None);
        let past = packed(&[0, 1, 2, 0, 0, 0, 3, 0], 8);
        assert_eq!(decoded(vec![dict(), indexed(8, &[&past], 8)], 8), None);
        // Indices with no dictionary, or two dictionaries.
        assert_eq!(decoded(vec![indexed(2, &[&[0x02, 0x00]], 1)], 1), None);
        let twice = vec![dict(), dict(), indexed(2, &[&[0x02, 0x00]], 1)];
        assert_eq!(decoded(twice, 1), None);
        // Runs that end before the page's values; bytes fewer than the values claimed.
        assert_eq!(
            decoded(vec![dict(), indexed(2, &[&[0x04, 0x00]], 3)], 3),
            None
        );
        let short = data(Encoding::PLAIN, le(&[1.0, 2.0]), 3);
        assert_eq!(decoded(vec![short], 3), None);
        assert_eq!(decoded(vec![dictionary(&three, 4)], 0), None);
        // More values than the chunk holds, or fewer.
        let two = || data(Encoding::PLAIN, le(&[1.0, 2.0]), 2);
        assert_eq!(decoded(vec![two()], 1), None);
        assert_eq!(decoded(vec![two()], 3), None);
        // A run that claims a million values in a chunk of one: refused before any is written.
        let mut values: Vec<f32> = Vec::new();
        let million = indexed(2, &[&[0x80, 0x80, 0x80, 0x01, 0x00]], 1 << 20);
        let mut pages = Pages(vec![dict(), million].into_iter());
        assert_eq!(
            decode(&mut pages, 1, &mut values, Some::<f32>),
            Err(Stop::Unread)
        );
        assert!(values.capacity() < 1 << 10);
        // Another encoding; indices wider than 16 bits.
        let delta = data(Encoding::DELTA_BINARY_PACKED, vec![0; 16], 1);
        assert_eq!(decoded(vec![delta], 1), None);
        assert_eq!(
            decoded(vec![dict(), indexed(17, &[&[0x02, 0, 0, 0]], 1)], 1),
            None
        );
    }
}
