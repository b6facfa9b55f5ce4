//! The column reader's direct path: a column of numbers, one per row or in fixed-length lists,
//! decoded straight into the leaf's values: no Arrow array in between, and no copy out of one (a
//! FixedSizeList's Arrow reader alone took a quarter of a window's read, and the copy out of its
//! array another sixth).
//!
//! The levels are checked as they come (every value defined, every row of the sample's length):
//! first in each page as they are encoded (`unleveled.rs`), the page's values then decoded here
//! when they are plain or indices into a dictionary (`values.rs`). Values already of the leaf's
//! type that are encoded otherwise are decoded by the `parquet` crate's reader of the column
//! without levels, and a chunk whose pages' levels are anything else is read again with the
//! levels the crate's decoder gives and checked there. Values of another numeric type (`u8`
//! pixels into `f32`, `i64` into `f64`: through the Arrow path, 7 and 29 times slower) are
//! converted as they are written, exactly, by the Arrow path's rule, and a value the leaf does
//! not hold, or one outside the column's own type (300 in a column of `u8`, which the Arrow
//! reader reads as 44), is refused here with its row. Anything else, a decoder's error
//! included, sends the column back to the Arrow path, which reads it again from its first row
//! and says what is wrong, with the row, as it always has.

use crate::load::NonFinite;
use crate::load::convert::{Scalar, exact};
use crate::load::error::LoadReason;
use crate::load::parquet::part::Part;
use crate::load::parquet::row_group::RowGroup;
use crate::load::parquet::unleveled::Unleveled;
use crate::load::parquet::values::{self, Stop};
use crate::types::space::Space;
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::{LogicalType, Type as Physical};
use parquet::column::reader::{ColumnReaderImpl, get_column_reader, get_typed_column_reader};
use parquet::data_type::{DataType as ParquetType, DoubleType, FloatType, Int32Type, Int64Type};
use parquet::file::serialized_reader::SerializedPageReader;
use parquet::schema::types::{ColumnDescPtr, ColumnDescriptor};
use std::any::Any;
use std::sync::Arc;

/// How the rows of the column hold their values, for the direct path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// One value per row.
    Scalar,
    /// A flat list of `per` values per row.
    List,
}

/// What a direct read needs to know of the column.
pub(super) struct Direct<'a> {
    pub column: &'a str,
    pub shape: Shape,
    /// The Arrow type of the values (the list's items, or the column's own).
    pub values: &'a DataType,
    pub per: usize,
    pub group: Option<RowGroup>,
    /// Rows decoded at a time (bounds the levels held).
    pub rows_at_once: usize,
    pub non_finite: NonFinite,
}

/// Reads the column into `values` by the direct path: `Ok(Some(rows))` when it did, `Ok(None)`
/// when the column is not one it reads (another type, nested lists, a logical type, labels,
/// whose values are checked one by one) or did not read cleanly, with `values` as it was (the
/// Arrow path then reads the column); `Err` with the row (counted from the first row read) and
/// the reason for a value of another type than the leaf's that it does not hold exactly, or
/// that is outside the column's own type (the Arrow path would read it truncated).
pub(super) fn read<S: Space>(
    builder: &ParquetRecordBatchReaderBuilder<Part>,
    part: &Part,
    how: &Direct<'_>,
    values: &mut Vec<S::Elem>,
) -> Result<Option<usize>, (usize, LoadReason)> {
    // Labels are checked value by value as they are converted: the Arrow path's.
    if S::MAX_LABELS.is_some() {
        return Ok(None);
    }
    let before = values.len();
    let any: &mut dyn Any = values;
    // Numbers of the leaf's own type: the crate's readers can take over a chunk; any other,
    // converted.
    let (b, p, h) = (builder, part, how);
    let same = match how.values {
        DataType::Float32 => any.downcast_mut().map(|v| typed::<FloatType>(b, p, h, v)),
        DataType::Float64 => any.downcast_mut().map(|v| typed::<DoubleType>(b, p, h, v)),
        DataType::Int32 => any.downcast_mut().map(|v| typed::<Int32Type>(b, p, h, v)),
        DataType::Int64 => any.downcast_mut().map(|v| typed::<Int64Type>(b, p, h, v)),
        _ => None,
    };
    let rows = match same {
        Some(rows) => Ok(rows),
        None => converted(builder, part, how, any),
    };
    // A value refused non-finite before the one refused here comes first, as the Arrow path
    // would find it.
    let non_finite = how.non_finite.first_refused(&values[before..]);
    let per = how.per.max(1);
    match (rows, non_finite) {
        (Ok(Some(rows)), None) => Ok(Some(rows)),
        (Err(_), Some((i, reason))) => {
            values.truncate(before);
            Err((i / per, reason))
        }
        (Err(refused), None) => {
            values.truncate(before);
            Err(refused)
        }
        // The Arrow path reads it again, and names what is wrong.
        (Ok(_), _) => {
            values.truncate(before);
            Ok(None)
        }
    }
}

/// Reads a column of numbers of another type than the leaf's (`u8` pixels into `f32`, `i64`
/// into `f64`...), each value converted exactly as it is written, by the rule of the Arrow
/// path: `Err` at the first value that is not in the range of the column's own type or that
/// the leaf's type does not hold; `Ok(None)` for a column whose pages are not decoded by
/// `values.rs` (the crate's readers decode into the column's own type; the Arrow path reads
/// it).
fn converted(
    builder: &ParquetRecordBatchReaderBuilder<Part>,
    part: &Part,
    how: &Direct<'_>,
    values: &mut dyn Any,
) -> Result<Option<usize>, (usize, LoadReason)> {
    macro_rules! into {
        ($($e:ty),*) => {$(
            if let Some(values) = values.downcast_mut::<Vec<$e>>() {
                return converted_into::<$e>(builder, part, how, values);
            }
        )*};
    }
    into!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);
    Ok(None)
}

/// [`converted`] into a leaf of `E`, from the column's type as the Arrow path reads it (its
/// physical type, and its logical type's width and sign).
fn converted_into<E: Scalar + Default>(
    builder: &ParquetRecordBatchReaderBuilder<Part>,
    part: &Part,
    how: &Direct<'_>,
    values: &mut Vec<E>,
) -> Result<Option<usize>, (usize, LoadReason)> {
    let (b, p, h, v) = (builder, part, how, values);
    match how.values {
        DataType::Int8 => via::<Int32Type, i8, E>(b, p, h, v, |v| i8::try_from(v).ok()),
        DataType::Int16 => via::<Int32Type, i16, E>(b, p, h, v, |v| i16::try_from(v).ok()),
        DataType::Int32 => via::<Int32Type, i32, E>(b, p, h, v, Some),
        DataType::UInt8 => via::<Int32Type, u8, E>(b, p, h, v, |v| u8::try_from(v).ok()),
        DataType::UInt16 => via::<Int32Type, u16, E>(b, p, h, v, |v| u16::try_from(v).ok()),
        // Unsigned 32- and 64-bit values are stored in the bits of the signed ones.
        DataType::UInt32 => via::<Int32Type, u32, E>(b, p, h, v, |v| Some(v as u32)),
        DataType::Int64 => via::<Int64Type, i64, E>(b, p, h, v, Some),
        DataType::UInt64 => via::<Int64Type, u64, E>(b, p, h, v, |v| Some(v as u64)),
        DataType::Float32 => via::<FloatType, f32, E>(b, p, h, v, Some),
        DataType::Float64 => via::<DoubleType, f64, E>(b, p, h, v, Some),
        _ => Ok(None),
    }
}

/// [`pages`] of the physical type `P`, whose values are those of the column's own type `L`
/// (`logical`: `None` for a value outside it), converted to `E`.
fn via<P: ParquetType, L: Scalar, E: Scalar + Default>(
    builder: &ParquetRecordBatchReaderBuilder<Part>,
    part: &Part,
    how: &Direct<'_>,
    values: &mut Vec<E>,
    logical: impl Fn(P::T) -> Option<L> + Copy,
) -> Result<Option<usize>, (usize, LoadReason)>
where
    P::T: Scalar,
{
    let convert = move |v: P::T| exact::<L, E>(logical(v)?);
    let why = move |v: P::T| match logical(v) {
        None => LoadReason::Parquet {
            message: format!("the value {v} is stored in a column of {} values", L::NAME),
        },
        Some(l) => LoadReason::Inexact {
            value: l.to_string(),
            elem: E::NAME,
        },
    };
    pages::<P, E>(builder, part, how, values, convert, why)
}

/// Reads the column's row groups, of physical type `P`, into `values` through `convert`, every
/// page decoded by `values.rs` with its levels checked by `Unleveled`: `Ok(None)` when one is
/// not, `Err` with the row and `why` for the first value `convert` refuses.
fn pages<P: ParquetType, E: Copy + Default>(
    builder: &ParquetRecordBatchReaderBuilder<Part>,
    part: &Part,
    how: &Direct<'_>,
    values: &mut Vec<E>,
    convert: impl Fn(P::T) -> Option<E> + Copy,
    why: impl Fn(P::T) -> LoadReason,
) -> Result<Option<usize>, (usize, LoadReason)>
where
    P::T: Scalar,
{
    let Some(leaf) = leaf_of(builder, how.column) else {
        return Ok(None);
    };
    let descr = builder.parquet_schema().column(leaf);
    let max_rep = match how.shape {
        Shape::Scalar => 0,
        Shape::List => 1,
    };
    if descr.physical_type() != P::get_physical_type()
        || descr.max_rep_level() != max_rep
        || how.per == 0
    {
        return Ok(None);
    }
    let per = match how.shape {
        Shape::Scalar => 1,
        Shape::List => how.per,
    };
    let meta = builder.metadata();
    let groups: Vec<usize> = match how.group {
        Some(g) => vec![g.index],
        None => (0..meta.num_row_groups()).collect(),
    };
    let part = Arc::new(part.clone());
    let mut rows = 0usize;
    for g in groups {
        let Some((chunk, expected)) = meta.row_groups().get(g).and_then(|group| {
            let rows = usize::try_from(group.num_rows()).ok()?;
            Some((group.columns().get(leaf)?, rows))
        }) else {
            return Ok(None);
        };
        let Ok(pages) = SerializedPageReader::new(Arc::clone(&part), chunk, expected, None) else {
            return Ok(None);
        };
        let mut pages = Unleveled {
            pages: Box::new(pages),
            per,
            max_def: descr.max_def_level(),
            max_rep: descr.max_rep_level(),
            at: 0,
        };
        let Some(want) = expected.checked_mul(per) else {
            return Ok(None);
        };
        match values::decode(&mut pages, want, values, convert) {
            Ok(()) => rows += expected,
            Err(Stop::Refused { at, raw }) => return Err((rows + at / per, why(raw))),
            Err(Stop::Unread) => return Ok(None),
        }
    }
    Ok(Some(rows))
}

/// The leaf column of `column` (a root field with exactly one leaf).
fn leaf_of(builder: &ParquetRecordBatchReaderBuilder<Part>, column: &str) -> Option<usize> {
    let schema = builder.parquet_schema();
    let mut leaves = (0..schema.num_columns()).filter(|&i| {
        schema
            .column(i)
            .path()
            .parts()
            .first()
            .is_some_and(|root| root == column)
    });
    let leaf = leaves.next()?;
    leaves.next().is_none().then_some(leaf)
}

/// Whether the column's values are `T`'s own: its physical type with no logical type but a
/// signed integer of its width.
fn plain<T: ParquetType>(descr: &ColumnDescPtr) -> bool {
    let physical = descr.physical_type() == T::get_physical_type();
    let logical = match descr.logical_type_ref() {
        None => true,
        Some(LogicalType::Integer(int)) => {
            int.is_signed
                && match descr.physical_type() {
                    Physical::INT32 => int.bit_width == 32,
                    Physical::INT64 => int.bit_width == 64,
                    _ => false,
                }
        }
        Some(_) => false,
    };
    physical && logical
}

fn typed<T: ParquetType>(
    builder: &ParquetRecordBatchReaderBuilder<Part>,
    part: &Part,
    how: &Direct<'_>,
    values: &mut Vec<T::T>,
) -> Option<usize>
where
    T::T: Scalar,
{
    let leaf = leaf_of(builder, how.column)?;
    let descr = builder.parquet_schema().column(leaf);
    let max_rep = match how.shape {
        Shape::Scalar => 0,
        Shape::List => 1,
    };
    if !plain::<T>(&descr) || descr.max_rep_level() != max_rep || how.per == 0 {
        return None;
    }
    let meta = builder.metadata();
    let groups: Vec<usize> = match how.group {
        Some(g) => vec![g.index],
        None => (0..meta.num_row_groups()).collect(),
    };
    let part = Arc::new(part.clone());
    let (mut def, mut rep) = (Vec::new(), Vec::new());
    let per = match how.shape {
        Shape::Scalar => 1,
        Shape::List => how.per,
    };
    // The column read as required (no levels), its pages' levels checked by `Unleveled`.
    let required = Arc::new(ColumnDescriptor::new(
        descr.self_type_ptr(),
        0,
        0,
        descr.path().clone(),
    ));
    let mut rows = 0usize;
    for g in groups {
        let group = meta.row_groups().get(g)?;
        let chunk = group.columns().get(leaf)?;
        let expected = usize::try_from(group.num_rows()).ok()?;
        let before = values.len();
        if unleveled::<T>(&part, chunk, &descr, &required, expected, per, how, values).is_some() {
            rows += expected;
            continue;
        }
        // Read again with the levels, as the decoder gives them.
        values.truncate(before);
        let pages = SerializedPageReader::new(Arc::clone(&part), chunk, expected, None).ok()?;
        let mut reader: ColumnReaderImpl<T> =
            get_typed_column_reader(get_column_reader(descr.clone(), Box::new(pages)));
        let mut read = 0usize;
        while read < expected {
            def.clear();
            rep.clear();
            let want = how.rows_at_once.min(expected - read);
            let (records, got, levels) = reader
                .read_records(want, Some(&mut def), Some(&mut rep), values)
                .ok()?;
            if records == 0 || records > want {
                return None;
            }
            // Every level a value (no null, no empty list), every row `per` of them.
            if got != levels || records.checked_mul(per)? != levels {
                return None;
            }
            let max_def = descr.max_def_level();
            if max_def > 0 && (def.len() != levels || !all_equal(&def, max_def)) {
                return None;
            }
            if how.shape == Shape::List && !rows_of(&rep, per) {
                return None;
            }
            read += records;
        }
        rows += read;
    }
    Some(rows)
}

/// Reads the `expected` rows of `per` values of `chunk` into `values` with the levels of its
/// pages checked where they lie (`Unleveled`) and the values decoded as those of the column
/// `required` (no levels): `None` when a page's levels are not of whole defined rows, or the
/// decoder fails (the caller reads the chunk again with its levels).
#[allow(clippy::too_many_arguments)]
fn unleveled<T: ParquetType>(
    part: &Arc<Part>,
    chunk: &parquet::file::metadata::ColumnChunkMetaData,
    descr: &ColumnDescPtr,
    required: &ColumnDescPtr,
    expected: usize,
    per: usize,
    how: &Direct<'_>,
    values: &mut Vec<T::T>,
) -> Option<()>
where
    T::T: Scalar,
{
    let unleveled = || -> Option<Unleveled> {
        let pages = SerializedPageReader::new(Arc::clone(part), chunk, expected, None).ok()?;
        Some(Unleveled {
            pages: Box::new(pages),
            per,
            max_def: descr.max_def_level(),
            max_rep: descr.max_rep_level(),
            at: 0,
        })
    };
    let want = expected.checked_mul(per)?;
    // Plain and dictionary-encoded pages decoded here, each value written once; any other, by
    // the crate's reader of the column without levels.
    let before = values.len();
    if values::decode(&mut unleveled()?, want, values, Some).is_ok() {
        return Some(());
    }
    values.truncate(before);
    let mut reader: ColumnReaderImpl<T> = get_typed_column_reader(get_column_reader(
        Arc::clone(required),
        Box::new(unleveled()?),
    ));
    let at_once = how.rows_at_once.max(1).saturating_mul(per);
    let mut read = 0usize;
    while read < want {
        let n = at_once.min(want - read);
        // Without levels, each value is a record of its own.
        let (records, got, levels) = reader.read_records(n, None, None, values).ok()?;
        if records == 0 || records > n || got != records || levels != records {
            return None;
        }
        read += got;
    }
    Some(())
}

/// Whether repetition levels `rep` are rows of exactly `per` values: a 0 at the start of each
/// row, 1 everywhere else.
fn rows_of(rep: &[i16], per: usize) -> bool {
    rep.len().is_multiple_of(per)
        && rep
            .chunks_exact(per)
            .all(|row| row[0] == 0 && all_equal(&row[1..], 1))
}

/// Whether every level is `level`: a branch-free pass the compiler vectorizes (an early exit at
/// the first other level took a fifth of a window's read, two levels being read per value).
fn all_equal(levels: &[i16], level: i16) -> bool {
    levels.iter().fold(0, |other, &l| other | (l ^ level)) == 0
}

#[cfg(test)]
mod tests {
    use super::rows_of;
    use crate::load::error::LoadReason;

    /// A file of rows of 3 values of Arrow type `T`, dictionary-encoded or plain, and its
    /// column read by the direct path into `f32`s (as a `Vector<3>` leaf): `None` when the
    /// direct path left it to the Arrow path.
    fn direct_f32<T: arrow_array::ArrowPrimitiveType>(
        values: &[T::Native],
        dictionary: bool,
    ) -> Result<Option<Vec<f32>>, (usize, LoadReason)> {
        use arrow_array::{FixedSizeListArray, PrimitiveArray, RecordBatch};
        use arrow_schema::{DataType, Field, Schema};
        use std::sync::Arc;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.parquet");
        let item = Arc::new(Field::new("item", T::DATA_TYPE, false));
        let flat = PrimitiveArray::<T>::from_iter_values(values.iter().copied());
        let list = FixedSizeListArray::try_new(item.clone(), 3, Arc::new(flat), None).unwrap();
        let schema = Arc::new(Schema::new(vec![Field::new(
            "x",
            DataType::FixedSizeList(item, 3),
            false,
        )]));
        let props = parquet::file::properties::WriterProperties::builder()
            .set_dictionary_enabled(dictionary)
            .build();
        let file = std::fs::File::create(&path).unwrap();
        let mut writer =
            parquet::arrow::ArrowWriter::try_new(file, schema.clone(), Some(props)).unwrap();
        let batch = RecordBatch::try_new(schema, vec![Arc::new(list)]).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        read_x::<crate::types::space::Vector<3>>(&path, &T::DATA_TYPE, super::Shape::List)
    }

    /// The column `x` of the file at `path`, of Arrow type `arrow` (of its items, for lists),
    /// read by the direct path into the `f32` leaf `S`, rows of `shape`.
    fn read_x<S: crate::types::space::Space<Elem = f32>>(
        path: &std::path::Path,
        arrow: &arrow_schema::DataType,
        shape: super::Shape,
    ) -> Result<Option<Vec<f32>>, (usize, LoadReason)> {
        let files = crate::load::parquet::files::ParquetFiles::open(path).unwrap();
        let (builder, part) = files.builder(0).unwrap();
        let per = (S::SHAPE.iter().enumerate())
            .filter(|&(axis, _)| axis != S::BATCH_AXIS)
            .map(|(_, n)| n.unwrap_or(0))
            .product();
        let how = super::Direct {
            column: "x",
            shape,
            values: arrow,
            per,
            group: None,
            rows_at_once: 1024,
            non_finite: crate::load::NonFinite::Keep,
        };
        let mut out = Vec::new();
        let read = super::read::<S>(&builder, &part, &how, &mut out)?;
        Ok(read.map(|rows| {
            assert_eq!(rows * per, out.len());
            out
        }))
    }

    /// A column `x` of one `int32` per row annotated as `logical` (`INTEGER(8,false)`...),
    /// written by the crate's own writer with values it does not check, read by the direct path
    /// into `f32`s as the Arrow type `arrow` the Arrow path reads it as.
    fn annotated(
        logical: &str,
        arrow: arrow_schema::DataType,
        values: &[i32],
    ) -> Result<Option<Vec<f32>>, (usize, LoadReason)> {
        use parquet::data_type::Int32Type;
        use parquet::file::writer::SerializedFileWriter;
        use std::sync::Arc;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.parquet");
        let message = format!("message m {{ required int32 x ({logical}); }}");
        let schema = Arc::new(parquet::schema::parser::parse_message_type(&message).unwrap());
        let file = std::fs::File::create(&path).unwrap();
        let mut writer = SerializedFileWriter::new(file, schema, Default::default()).unwrap();
        let mut group = writer.next_row_group().unwrap();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<Int32Type>()
            .write_batch(values, None, None)
            .unwrap();
        column.close().unwrap();
        group.close().unwrap();
        writer.close().unwrap();
        read_x::<crate::types::space::Vector<1>>(&path, &arrow, super::Shape::Scalar)
    }

    /// The refusal of a value outside its column's own type, at its row.
    fn outside(row: usize, value: i32, ty: &str) -> Result<Option<Vec<f32>>, (usize, LoadReason)> {
        let message = format!("the value {value} is stored in a column of {ty} values");
        Err((row, LoadReason::Parquet { message }))
    }

    #[test]
    fn a_value_outside_its_annotated_width_is_refused_at_its_row() {
        // The Arrow reader would read 300 in a column of `u8` as 44.
        use arrow_schema::DataType;
        let u8s = |values: &[i32]| annotated("INTEGER(8,false)", DataType::UInt8, values);
        assert_eq!(u8s(&[0, 255, 7]), Ok(Some(vec![0.0, 255.0, 7.0])));
        assert_eq!(u8s(&[1, 300, 2]), outside(1, 300, "u8"));
        assert_eq!(u8s(&[1, 2, -1]), outside(2, -1, "u8"));
        let i16s = |values: &[i32]| annotated("INTEGER(16,true)", DataType::Int16, values);
        assert_eq!(i16s(&[-32768, 32767]), Ok(Some(vec![-32768.0, 32767.0])));
        assert_eq!(i16s(&[40000]), outside(0, 40000, "i16"));
    }

    #[test]
    fn numbers_of_another_type_are_converted_by_the_direct_path() {
        use arrow_array::types::{Int64Type, UInt8Type, UInt32Type};
        for dictionary in [true, false] {
            let u8s: Vec<u8> = (0..300u32).map(|i| (i * 7 % 256) as u8).collect();
            let want: Vec<f32> = u8s.iter().map(|&v| f32::from(v)).collect();
            assert_eq!(direct_f32::<UInt8Type>(&u8s, dictionary), Ok(Some(want)));
            // Beyond `i32::MAX` (stored as negative `i32`s), 24 significant bits: `f32`s.
            let u32s: Vec<u32> = (0..30).map(|i| 0xffff_ff00 - (i << 8)).collect();
            let want: Vec<f32> = u32s.iter().map(|&v| v as f32).collect();
            assert_eq!(direct_f32::<UInt32Type>(&u32s, dictionary), Ok(Some(want)));
            // A value an `f32` does not hold, named at its row (the 18th value, row 5).
            let mut i64s: Vec<i64> = (0..30).collect();
            assert!(matches!(
                direct_f32::<Int64Type>(&i64s, dictionary),
                Ok(Some(_))
            ));
            i64s[17] = (1 << 24) + 1;
            let inexact = LoadReason::Inexact {
                value: "16777217".into(),
                elem: "f32",
            };
            assert_eq!(
                direct_f32::<Int64Type>(&i64s, dictionary),
                Err((5, inexact))
            );
        }
    }

    #[test]
    fn repetition_levels_of_whole_rows() {
        assert!(rows_of(&[0, 1, 1, 0, 1, 1], 3));
        assert!(rows_of(&[], 3));
        assert!(!rows_of(&[0, 1, 0, 1, 1, 1], 3));
        assert!(!rows_of(&[0, 1, 1, 1], 3));
        assert!(!rows_of(&[1, 1, 1], 3));
        assert!(rows_of(&[0, 0, 0], 1));
        assert!(!rows_of(&[0, 1, 1, 0, 1, 2], 3));
        assert!(!rows_of(&[0, 1, -1], 3));
    }

    #[test]
    fn all_equal_levels() {
        use super::all_equal;
        assert!(all_equal(&[], 3));
        assert!(all_equal(&[2; 100], 2));
        let mut levels = [2i16; 100];
        levels[73] = 1;
        assert!(!all_equal(&levels, 2));
        levels[73] = 2 | 0x4000;
        assert!(!all_equal(&levels, 2));
    }
}
