//! The column reader's direct path: a column of plain numbers, or of fixed-length lists of them,
//! whose values are already the leaf's element type, decoded straight into the leaf's values: no
//! Arrow array in between, and no copy out of one (a FixedSizeList's Arrow reader alone took a
//! quarter of a window's read, and the copy out of its array another sixth).
//!
//! The levels are checked as they come (every value defined, every row of the sample's length):
//! first in each page as they are encoded (`unleveled.rs`), the page's values then decoded here
//! when they are plain or indices into a dictionary (`values.rs`), by the `parquet` crate's
//! reader of the column without levels when they are encoded otherwise; a chunk whose pages'
//! levels are anything else is read again with the levels the crate's decoder gives and checked
//! there; anything else, a decoder's error included, sends the column back to the Arrow path,
//! which reads it again from its first row and says what is wrong, with the row, as it always
//! has.

use crate::load::NonFinite;
use crate::load::parquet::part::Part;
use crate::load::parquet::row_group::RowGroup;
use crate::load::parquet::unleveled::Unleveled;
use crate::load::parquet::values::{self, Fixed};
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

/// Reads the column into `values` by the direct path: `Some(rows)` when it did, `None` when the
/// column is not one it reads (another type, nested lists, a logical type, labels, whose values
/// are checked one by one) or did not read cleanly, with `values` as it was (the Arrow path then
/// reads the column).
pub(super) fn read<S: Space>(
    builder: &ParquetRecordBatchReaderBuilder<Part>,
    part: &Part,
    how: &Direct<'_>,
    values: &mut Vec<S::Elem>,
) -> Option<usize> {
    // Labels are checked value by value as they are converted: the Arrow path's.
    if S::MAX_LABELS.is_some() {
        return None;
    }
    let before = values.len();
    let any: &mut dyn Any = values;
    let rows = match how.values {
        DataType::Float32 => typed::<FloatType>(builder, part, how, any.downcast_mut()?),
        DataType::Float64 => typed::<DoubleType>(builder, part, how, any.downcast_mut()?),
        DataType::Int32 => typed::<Int32Type>(builder, part, how, any.downcast_mut()?),
        DataType::Int64 => typed::<Int64Type>(builder, part, how, any.downcast_mut()?),
        _ => None,
    };
    let refused = rows.is_some() && how.non_finite.first_refused(&values[before..]).is_some();
    if rows.is_none() || refused {
        // The Arrow path reads it again, and names what is wrong.
        values.truncate(before);
        return None;
    }
    rows
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
    T::T: Fixed,
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
    T::T: Fixed,
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
    if values::decode(&mut unleveled()?, want, values).is_some() {
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
