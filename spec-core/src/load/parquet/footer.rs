//! A Parquet file's footer and page headers checked before the `parquet` crate reads them: the
//! crate reserves memory for the counts they claim (a schema element's children, rows, values)
//! and converts the schema recursively, so a footer of a few kilobytes that lies consistently
//! could make it ask for terabytes or overflow the stack. Everything here reads the compact
//! protocol itself (`thrift.rs`), with every claim bounded by the bytes that hold it.

use crate::load::error::LoadReason;
use crate::load::parquet::part::Part;
use crate::load::parquet::thrift::{Value, read_struct};

/// The deepest schema the reader accepts: a group inside a group, ... (Arrow C++ limits the
/// nesting of the schemas it converts likewise). Hugging Face's `Array5D` nests eleven deep.
pub const MAX_SCHEMA_DEPTH: usize = 64;

/// The largest footer read (the `parquet` crate's own readers take footers of any length up to
/// the file's; a footer of a table of 10,000 columns and 1,000 row groups is about 100 MB).
const MAX_FOOTER: u64 = 256 << 20;

fn lie(message: String) -> LoadReason {
    LoadReason::Parquet { message }
}

/// Reads and checks the footer of the Parquet file `file` of `len` bytes.
pub(super) fn check_footer(file: &Part, len: u64) -> Result<(), LoadReason> {
    if len < 12 {
        return Err(lie(format!(
            "the file has {len} bytes, fewer than the 12 of a Parquet file's magic and footer length"
        )));
    }
    let tail = file.read_at(len - 8, 8)?;
    if &tail[4..] != b"PAR1" {
        return Err(lie(format!(
            "the file does not end in the Parquet magic `PAR1` (it ends in {:02x?})",
            &tail[4..]
        )));
    }
    let footer_len = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
    if footer_len > len - 12 || footer_len > MAX_FOOTER {
        return Err(lie(format!(
            "the footer claims {footer_len} bytes; the file has {} bytes before it (and the reader takes footers of at most {MAX_FOOTER})",
            len - 12
        )));
    }
    // Bounded by the file's length and by MAX_FOOTER, checked above.
    let bytes = file.read_at(len - 8 - footer_len, footer_len as usize)?;
    let start = len - 8 - footer_len;
    let (meta, _) = read_struct(&bytes).map_err(|e| {
        lie(format!(
            "the footer is not Thrift's compact protocol: {} at byte {} of the file",
            e.what,
            start + e.offset as u64
        ))
    })?;
    check_schema(&meta)?;
    check_rows(&meta)
}

/// The schema: a list of elements in depth-first order, each group saying how many children
/// follow; each count must fit in the elements left, and the nesting must stay within
/// [`MAX_SCHEMA_DEPTH`].
fn check_schema(meta: &Value) -> Result<(), LoadReason> {
    let Some(elements) = meta.field(2).and_then(Value::list) else {
        return Err(lie("the footer has no schema".into()));
    };
    // Children still expected by each open group, from the root down.
    let mut open: Vec<i64> = Vec::new();
    for (i, element) in elements.iter().enumerate() {
        // This element takes a place in its parent.
        while let Some(top) = open.last_mut() {
            if *top > 0 {
                *top -= 1;
                break;
            }
            open.pop();
        }
        if i > 0 && open.is_empty() {
            return Err(lie(format!(
                "schema element {i} is outside the root's children (the schema lists {} elements)",
                elements.len()
            )));
        }
        let children = element.field(5).and_then(Value::int).unwrap_or(0);
        let left = (elements.len() - i - 1) as i64;
        if !(0..=left).contains(&children) {
            return Err(lie(format!(
                "schema element {i} claims {children} children; {left} elements follow it"
            )));
        }
        if children > 0 || i == 0 {
            open.push(children);
            if open.len() > MAX_SCHEMA_DEPTH {
                return Err(lie(format!(
                    "the schema nests deeper than {MAX_SCHEMA_DEPTH} levels (at element {i}); the reader refuses such schemas"
                )));
            }
        }
    }
    Ok(())
}

/// The rows: the file's count and each row group's, none below 0, and their sum without
/// overflow.
fn check_rows(meta: &Value) -> Result<(), LoadReason> {
    let total = meta.field(3).and_then(Value::int).unwrap_or(0);
    if total < 0 {
        return Err(lie(format!("the footer claims {total} rows")));
    }
    let groups = meta.field(4).and_then(Value::list).unwrap_or(&[]);
    let mut sum = 0u64;
    for (g, group) in groups.iter().enumerate() {
        let n = group.field(3).and_then(Value::int).unwrap_or(0);
        let n = u64::try_from(n).map_err(|_| lie(format!("row group {g} claims {n} rows")))?;
        sum = sum.checked_add(n).ok_or_else(|| {
            lie(format!(
                "the row groups' row counts add up beyond 2^64 (row group {g} claims {n})"
            ))
        })?;
    }
    Ok(())
}

/// The limits a column chunk's pages are checked against before they are decoded.
#[derive(Clone, Copy, Debug)]
pub(super) struct PageLimits {
    /// The most bytes a page may decompress to.
    pub bytes: u64,
    /// The most values a data page may hold.
    pub values: u64,
}

/// Walks the page headers of the column chunk of `len` bytes from byte `start` and checks each
/// page's claims: its compressed bytes inside the chunk, its uncompressed size and its value
/// counts within `limits`, a dictionary's values within its bytes. Whether a data page names an
/// encoding whose decoder trusts the page's payload (`BYTE_STREAM_SPLIT` values, `BIT_PACKED`
/// levels): `levels.rs` checks those payloads.
pub(super) fn check_pages(
    file: &Part,
    start: u64,
    len: u64,
    limits: PageLimits,
) -> Result<RiskyEncoding, LoadReason> {
    let end = start.saturating_add(len);
    let mut at = start;
    let mut page = 0usize;
    let mut dictionary = false;
    let mut risky = RiskyEncoding(false);
    while at < end {
        // A page header is small: read 1 KB of it first (the chunk's pages are walked on every
        // read, so this is on the stream's path), and 64 KB only for a header longer than that
        // (large statistics); one that does not fit in 64 KB is refused.
        let mut parsed = None;
        for want in [1usize << 10, 64 << 10] {
            let want = (end - at).min(want as u64) as usize;
            let head = file.read_at(at, want)?;
            parsed = Some(read_struct(&head));
            if matches!(&parsed, Some(Ok(_))) || want as u64 == end - at {
                break;
            }
        }
        let Some(parsed) = parsed else { break };
        let (header, used) = parsed.map_err(|e| {
            lie(format!(
                "page {page} of the column chunk at byte {start}: its header is not Thrift's compact protocol ({} at byte {})",
                e.what,
                at + e.offset as u64
            ))
        })?;
        let int = |id: i16| header.field(id).and_then(Value::int).unwrap_or(0);
        let (kind, uncompressed, compressed) = (int(1), int(2), int(3));
        let place =
            format!("page {page} of the column chunk at byte {start} (header at byte {at})");
        let after = at + used as u64;
        if compressed < 0 || after.saturating_add(compressed as u64) > end {
            return Err(lie(format!(
                "{place} claims {compressed} compressed bytes; the chunk has {} left",
                end.saturating_sub(after)
            )));
        }
        if uncompressed < 0 || uncompressed as u64 > limits.bytes {
            return Err(lie(format!(
                "{place} claims to decompress to {uncompressed} bytes, more than the {} bytes the read may take (the memory budget)",
                limits.bytes
            )));
        }
        let values = match kind {
            // DATA_PAGE and DATA_PAGE_V2: the values of the page.
            0 => header
                .field(5)
                .and_then(|h| h.field(1))
                .and_then(Value::int),
            3 => header
                .field(8)
                .and_then(|h| h.field(1))
                .and_then(Value::int),
            _ => None,
        };
        if let Some(n) = values
            && (n < 0 || n as u64 > limits.values)
        {
            return Err(lie(format!(
                "{place} claims {n} values, more than the {} the read may hold (its rows × the values of a row)",
                limits.values
            )));
        }
        // A data page encoded against a dictionary (PLAIN_DICTIONARY, RLE_DICTIONARY) needs
        // the chunk's dictionary page before it (the decoder asserts it).
        let encoding = match kind {
            0 => header
                .field(5)
                .and_then(|h| h.field(2))
                .and_then(Value::int),
            3 => header
                .field(8)
                .and_then(|h| h.field(4))
                .and_then(Value::int),
            _ => None,
        };
        // A data page that claims no values (v2: none that is not null) but holds bytes: the
        // byte-array decoder divides by its values (a panic found by the fuzzer), so its
        // payload is looked at.
        let nulls = match kind {
            3 => header
                .field(8)
                .and_then(|h| h.field(2))
                .and_then(Value::int)
                .unwrap_or(0),
            _ => 0,
        };
        if values.is_some_and(|n| n.saturating_sub(nulls) <= 0) && uncompressed > 0 {
            risky.0 = true;
        }
        // BYTE_STREAM_SPLIT values; BIT_PACKED (deprecated) definition or repetition levels.
        let levels = match kind {
            0 => header.field(5).map(|h| [h.field(3), h.field(4)]),
            _ => None,
        };
        if encoding == Some(9)
            || levels
                .into_iter()
                .flatten()
                .any(|l| l.and_then(Value::int) == Some(4))
        {
            risky.0 = true;
        }
        if matches!(encoding, Some(2 | 8)) && !dictionary {
            return Err(lie(format!(
                "{place} is encoded against a dictionary, and no dictionary page comes before it"
            )));
        }
        if kind == 2 {
            dictionary = true;
            // DICTIONARY_PAGE: each value takes a byte at least.
            let n = header
                .field(7)
                .and_then(|h| h.field(1))
                .and_then(Value::int)
                .unwrap_or(0);
            // And one of no values holds no bytes (the byte-array decoder divides by its
            // values: a panic found by the fuzzer).
            if n < 0 || n > uncompressed.max(0) || (n == 0 && uncompressed > 0) {
                return Err(lie(format!(
                    "{place} is a dictionary claiming {n} values in {uncompressed} bytes"
                )));
            }
        }
        at = after + compressed as u64;
        page += 1;
    }
    Ok(risky)
}

/// Whether a chunk's data pages name an encoding whose decoder trusts the payload.
#[derive(Clone, Copy, Debug)]
pub(super) struct RiskyEncoding(pub bool);
