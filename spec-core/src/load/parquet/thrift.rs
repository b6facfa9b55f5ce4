//! Thrift's compact protocol, as Parquet encodes its footer and page headers, read into a small
//! tree with every claimed size checked against the bytes left before anything is allocated for
//! it, and nesting bounded; and written back, so that tests and the fuzzer can re-encode a footer
//! or a page header with a field set to a chosen value (a structure-aware writer).
//!
//! The reader is what the Parquet reader runs over a footer and over the page headers of the
//! column chunks it is about to decode, before the `parquet` crate sees them: the crate reserves
//! memory for the sizes they claim.

use core::fmt;

/// The deepest nesting of structs, lists and maps the reader follows. Parquet's own structures
/// nest five deep; the crate's decoder skips unknown fields 64 deep.
pub const MAX_NESTING: usize = 64;

/// A value of the compact protocol.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// A byte.
    Byte(i8),
    /// A 16-bit integer.
    I16(i16),
    /// A 32-bit integer.
    I32(i32),
    /// A 64-bit integer.
    I64(i64),
    /// A double.
    Double(f64),
    /// Bytes (binary or string).
    Binary(Vec<u8>),
    /// A list (or set) of values of one element type (the compact type code).
    List(u8, Vec<Value>),
    /// A map of key and value types (compact type codes), as pairs.
    Map(u8, u8, Vec<(Value, Value)>),
    /// A struct: its fields by id, in the order they were read.
    Struct(Vec<(i16, Value)>),
}

impl Value {
    /// The field `id` of a struct.
    pub fn field(&self, id: i16) -> Option<&Value> {
        match self {
            Value::Struct(fields) => fields.iter().find(|(i, _)| *i == id).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The field `id` of a struct, to change it.
    pub fn field_mut(&mut self, id: i16) -> Option<&mut Value> {
        match self {
            Value::Struct(fields) => fields.iter_mut().find(|(i, _)| *i == id).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value as an integer, whatever its width.
    pub fn int(&self) -> Option<i64> {
        match *self {
            Value::Byte(v) => Some(v.into()),
            Value::I16(v) => Some(v.into()),
            Value::I32(v) => Some(v.into()),
            Value::I64(v) => Some(v),
            _ => None,
        }
    }

    /// The elements of a list.
    pub fn list(&self) -> Option<&[Value]> {
        match self {
            Value::List(_, items) => Some(items),
            _ => None,
        }
    }

    /// The elements of a list, to change them.
    pub fn list_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::List(_, items) => Some(items),
            _ => None,
        }
    }

    /// The compact type code of the value.
    fn code(&self) -> u8 {
        match self {
            Value::Bool(true) => 1,
            Value::Bool(false) => 2,
            Value::Byte(_) => 3,
            Value::I16(_) => 4,
            Value::I32(_) => 5,
            Value::I64(_) => 6,
            Value::Double(_) => 7,
            Value::Binary(_) => 8,
            Value::List(..) => 9,
            Value::Map(..) => 11,
            Value::Struct(_) => 12,
        }
    }
}

/// Why bytes are not a compact-protocol value, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThriftError {
    /// The byte offset of the problem in the bytes read.
    pub offset: usize,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for ThriftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.what, self.offset)
    }
}

/// Reads one struct from the start of `bytes`; the struct and the number of bytes it took.
///
/// # Errors
/// Truncated data, an unknown type code, a size claimed beyond the bytes left (every element
/// takes at least one byte), a varint of more than ten bytes, or nesting deeper than
/// [`MAX_NESTING`].
pub fn read_struct(bytes: &[u8]) -> Result<(Value, usize), ThriftError> {
    let mut r = Reader { bytes, at: 0 };
    let v = r.read_struct(0)?;
    Ok((v, r.at))
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn fail<T>(&self, what: impl Into<String>) -> Result<T, ThriftError> {
        Err(ThriftError {
            offset: self.at,
            what: what.into(),
        })
    }

    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn byte(&mut self) -> Result<u8, ThriftError> {
        match self.bytes.get(self.at) {
            Some(&b) => {
                self.at += 1;
                Ok(b)
            }
            None => self.fail("the data ends inside a value"),
        }
    }

    fn varint(&mut self) -> Result<u64, ThriftError> {
        let mut v = 0u64;
        for i in 0..10 {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        self.fail("a varint longer than ten bytes")
    }

    fn zigzag(&mut self) -> Result<i64, ThriftError> {
        let v = self.varint()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// A size claimed by the data, at most the bytes left (each element takes one at least).
    fn size(&mut self, v: u64) -> Result<usize, ThriftError> {
        match usize::try_from(v) {
            Ok(n) if n <= self.left() => Ok(n),
            _ => self.fail(format!(
                "a size of {v} claimed where {} bytes are left",
                self.left()
            )),
        }
    }

    fn read_struct(&mut self, depth: usize) -> Result<Value, ThriftError> {
        if depth >= MAX_NESTING {
            return self.fail(format!("structures nested deeper than {MAX_NESTING}"));
        }
        let mut fields = Vec::new();
        let mut last: i16 = 0;
        loop {
            let head = self.byte()?;
            let code = head & 0x0f;
            if code == 0 {
                return Ok(Value::Struct(fields));
            }
            let delta = head >> 4;
            let id = if delta == 0 {
                let id = self.zigzag()?;
                match i16::try_from(id) {
                    Ok(id) => id,
                    Err(_) => return self.fail(format!("a field id of {id}")),
                }
            } else {
                last.wrapping_add(i16::from(delta))
            };
            last = id;
            let value = match code {
                1 => Value::Bool(true),
                2 => Value::Bool(false),
                _ => self.read_value(code, depth + 1)?,
            };
            fields.push((id, value));
        }
    }

    fn read_value(&mut self, code: u8, depth: usize) -> Result<Value, ThriftError> {
        if depth >= MAX_NESTING {
            return self.fail(format!("structures nested deeper than {MAX_NESTING}"));
        }
        Ok(match code {
            // In a list a boolean is a byte of its own.
            1 | 2 => Value::Bool(self.byte()? == 1),
            3 => Value::Byte(self.byte()? as i8),
            4 => {
                let v = self.zigzag()?;
                match i16::try_from(v) {
                    Ok(v) => Value::I16(v),
                    Err(_) => return self.fail(format!("an i16 of {v}")),
                }
            }
            5 => {
                let v = self.zigzag()?;
                match i32::try_from(v) {
                    Ok(v) => Value::I32(v),
                    Err(_) => return self.fail(format!("an i32 of {v}")),
                }
            }
            6 => Value::I64(self.zigzag()?),
            7 => {
                let mut b = [0u8; 8];
                for x in &mut b {
                    *x = self.byte()?;
                }
                Value::Double(f64::from_le_bytes(b))
            }
            8 => {
                let n = self.varint()?;
                let n = self.size(n)?;
                let v = self.bytes[self.at..self.at + n].to_vec();
                self.at += n;
                Value::Binary(v)
            }
            9 | 10 => {
                let head = self.byte()?;
                let elem = head & 0x0f;
                let n = match head >> 4 {
                    15 => self.varint()?,
                    n => u64::from(n),
                };
                let n = self.size(n)?;
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.read_value(elem, depth + 1)?);
                }
                Value::List(elem, items)
            }
            11 => {
                let n = self.varint()?;
                let n = self.size(n)?;
                let (k, v) = if n == 0 {
                    (0, 0)
                } else {
                    let kv = self.byte()?;
                    (kv >> 4, kv & 0x0f)
                };
                let mut pairs = Vec::with_capacity(n);
                for _ in 0..n {
                    let key = self.read_value(k, depth + 1)?;
                    let value = self.read_value(v, depth + 1)?;
                    pairs.push((key, value));
                }
                Value::Map(k, v, pairs)
            }
            12 => self.read_struct(depth)?,
            other => return self.fail(format!("an unknown type code {other}")),
        })
    }
}

/// Writes a struct in the compact protocol.
pub fn write_struct(value: &Value, out: &mut Vec<u8>) {
    let Value::Struct(fields) = value else {
        write_value(value, out);
        return;
    };
    let mut last: i16 = 0;
    for (id, v) in fields {
        let code = v.code();
        let delta = i32::from(*id) - i32::from(last);
        if (1..=15).contains(&delta) {
            out.push(((delta as u8) << 4) | code);
        } else {
            out.push(code);
            zigzag(i64::from(*id), out);
        }
        last = *id;
        if !matches!(v, Value::Bool(_)) {
            write_value(v, out);
        }
    }
    out.push(0);
}

fn write_value(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Bool(b) => out.push(if *b { 1 } else { 2 }),
        Value::Byte(b) => out.push(*b as u8),
        Value::I16(v) => zigzag((*v).into(), out),
        Value::I32(v) => zigzag((*v).into(), out),
        Value::I64(v) => zigzag(*v, out),
        Value::Double(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::Binary(b) => {
            varint(b.len() as u64, out);
            out.extend_from_slice(b);
        }
        Value::List(elem, items) => {
            if items.len() < 15 {
                out.push(((items.len() as u8) << 4) | elem);
            } else {
                out.push(0xf0 | elem);
                varint(items.len() as u64, out);
            }
            for item in items {
                write_value(item, out);
            }
        }
        Value::Map(k, v, pairs) => {
            varint(pairs.len() as u64, out);
            if !pairs.is_empty() {
                out.push((k << 4) | v);
            }
            for (key, value) in pairs {
                write_value(key, out);
                write_value(value, out);
            }
        }
        Value::Struct(_) => write_struct(value, out),
    }
}

fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64, out: &mut Vec<u8>) {
    varint(((v << 1) ^ (v >> 63)) as u64, out);
}

/// A Parquet file's footer (the `FileMetaData` struct) and the offset where it starts.
///
/// # Errors
/// Bytes that do not end in a footer length and `PAR1`, or a footer that does not read.
pub fn footer_of(file: &[u8]) -> Result<(Value, usize), ThriftError> {
    let n = file.len();
    let bad = |what: &str| ThriftError {
        offset: n,
        what: what.to_owned(),
    };
    if n < 12 || &file[n - 4..] != b"PAR1" {
        return Err(bad("not a Parquet file"));
    }
    let len = u32::from_le_bytes([file[n - 8], file[n - 7], file[n - 6], file[n - 5]]) as usize;
    let start = (n - 8)
        .checked_sub(len)
        .ok_or_else(|| bad("a footer longer than the file"))?;
    let (meta, _) = read_struct(&file[start..n - 8])?;
    Ok((meta, start))
}

/// The file with its footer replaced by `meta` (and the footer's length by the new one's).
///
/// # Errors
/// As [`footer_of`].
pub fn with_footer(file: &[u8], meta: &Value) -> Result<Vec<u8>, ThriftError> {
    let (_, start) = footer_of(file)?;
    let mut out = file[..start].to_vec();
    let mut encoded = Vec::new();
    write_struct(meta, &mut encoded);
    out.extend_from_slice(&encoded);
    out.extend_from_slice(&(encoded.len() as u32).to_le_bytes());
    out.extend_from_slice(b"PAR1");
    Ok(out)
}

/// An integer field set to `to`, keeping its width (truncated to it).
pub fn set_int(v: &mut Value, to: i64) {
    *v = match v {
        Value::Byte(_) => Value::Byte(to as i8),
        Value::I16(_) => Value::I16(to as i16),
        Value::I32(_) => Value::I32(to as i32),
        _ => Value::I64(to),
    };
}

/// Where column chunk `c` of row group `g` starts (its dictionary page, or its first data page).
pub fn chunk_start(meta: &Value, g: usize, c: usize) -> Option<usize> {
    let chunk = meta.field(4)?.list()?.get(g)?.field(1)?.list()?.get(c)?;
    let cm = chunk.field(3)?;
    usize::try_from(cm.field(11).or(cm.field(9))?.int()?).ok()
}

/// The file with the page header at byte `at` re-encoded after `edit`: the bytes after it move,
/// and every offset the footer holds past it moves with them (the chunk that holds the page
/// grows), so the file stays consistent but for what `edit` changed.
///
/// # Errors
/// As [`footer_of`], or a header that does not read at `at`.
pub fn edit_page(
    file: &[u8],
    at: usize,
    edit: impl FnOnce(&mut Value),
) -> Result<Vec<u8>, ThriftError> {
    let (mut meta, start) = footer_of(file)?;
    if at >= start {
        return Err(ThriftError {
            offset: at,
            what: "a page header past the data".into(),
        });
    }
    let (mut header, used) = read_struct(&file[at..start])?;
    edit(&mut header);
    let mut encoded = Vec::new();
    write_struct(&header, &mut encoded);
    let delta = encoded.len() as i64 - used as i64;
    let mut body = file[..at].to_vec();
    body.extend_from_slice(&encoded);
    body.extend_from_slice(&file[at + used..start]);
    let shift = |v: &mut Value| {
        if let Some(x) = v.int()
            && x > at as i64
        {
            set_int(v, x + delta);
        }
    };
    for group in meta
        .field_mut(4)
        .and_then(Value::list_mut)
        .into_iter()
        .flatten()
    {
        for chunk in group
            .field_mut(1)
            .and_then(Value::list_mut)
            .into_iter()
            .flatten()
        {
            for id in [2, 4, 6] {
                chunk.field_mut(id).map(shift);
            }
            let Some(cm) = chunk.field_mut(3) else {
                continue;
            };
            let first = cm
                .field(11)
                .or(cm.field(9))
                .and_then(Value::int)
                .unwrap_or(0);
            let size = cm.field(7).and_then(Value::int).unwrap_or(0);
            for id in [9, 10, 11] {
                cm.field_mut(id).map(shift);
            }
            if first <= at as i64 && (at as i64) < first + size {
                // This chunk holds the page: it grows by `delta`.
                for id in [6, 7] {
                    if let Some(v) = cm.field_mut(id) {
                        let x = v.int().unwrap_or(0);
                        set_int(v, x + delta);
                    }
                }
            }
        }
        group.field_mut(5).map(shift);
    }
    body.extend_from_slice(&file[start..]);
    with_footer(&body, &meta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn value(depth: u32) -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            any::<bool>().prop_map(Value::Bool),
            any::<i16>().prop_map(Value::I16),
            any::<i32>().prop_map(Value::I32),
            any::<i64>().prop_map(Value::I64),
            proptest::collection::vec(any::<u8>(), 0..20).prop_map(Value::Binary),
        ];
        leaf.prop_recursive(depth, 64, 8, |inner| {
            prop_oneof![
                proptest::collection::vec(any::<i32>().prop_map(Value::I32), 0..20)
                    .prop_map(|v| Value::List(5, v)),
                proptest::collection::vec((1i16..200, inner), 0..6).prop_map(|mut f| {
                    f.sort_by_key(|(i, _)| *i);
                    f.dedup_by_key(|(i, _)| *i);
                    Value::Struct(f)
                }),
            ]
        })
    }

    proptest! {
        #[test]
        fn a_struct_written_reads_back_the_same(fields in proptest::collection::vec((1i16..300, value(3)), 0..8)) {
            let mut fields = fields;
            fields.sort_by_key(|(i, _)| *i);
            fields.dedup_by_key(|(i, _)| *i);
            let s = Value::Struct(fields);
            let mut bytes = Vec::new();
            write_struct(&s, &mut bytes);
            let (back, used) = read_struct(&bytes).unwrap();
            prop_assert_eq!(used, bytes.len());
            prop_assert_eq!(back, s);
        }

        #[test]
        fn any_bytes_are_a_value_or_an_error(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = read_struct(&bytes);
        }
    }

    #[test]
    fn a_list_claiming_more_elements_than_bytes_is_refused_before_allocating() {
        // Field 1, a list of i32 whose size is 2^40 (varint), and nothing after.
        let mut bytes = vec![0x19, 0xf5];
        varint(1 << 40, &mut bytes);
        let err = read_struct(&bytes).unwrap_err();
        assert!(
            err.what.contains("a size of 1099511627776 claimed"),
            "{err}"
        );
    }

    #[test]
    fn nesting_is_bounded() {
        // Struct field 1 holding a struct, 10,000 deep.
        let bytes: Vec<u8> = std::iter::repeat_n(0x1c, 10_000).collect();
        let err = read_struct(&bytes).unwrap_err();
        assert!(err.what.contains("nested deeper than 64"), "{err}");
    }
}
