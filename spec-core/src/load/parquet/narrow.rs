//! Columns declared as 8- or 16-bit integers, stored in 32-bit ones: every value checked against
//! the declared width before the Arrow reader decodes the column, which casts each value to the
//! declared type bit by bit (300 in a column of `u8` read as 44, silently). The direct path
//! checks the values it converts itself (`direct.rs`); this is the check of the columns read by
//! the Arrow path (labels, ragged and nested lists, values in other encodings).

use crate::load::error::{LoadReason, Place};
use crate::load::parquet::part::Part;
use crate::load::parquet::row_group::RowGroup;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::{ConvertedType, LogicalType, Type as Physical};
use parquet::column::reader::{ColumnReaderImpl, get_column_reader, get_typed_column_reader};
use parquet::data_type::Int32Type;
use parquet::file::serialized_reader::SerializedPageReader;
use parquet::schema::types::ColumnDescriptor;
use std::sync::Arc;

/// Rows decoded at a time (a row of a list holds several values).
const ROWS_AT_ONCE: usize = 1024;

/// The smallest and largest value and the name of the type a column of 32-bit integers is
/// declared to hold when it is an 8- or 16-bit one; `None` for any other column.
fn declared(column: &ColumnDescriptor) -> Option<(i32, i32, &'static str)> {
    if column.physical_type() != Physical::INT32 {
        return None;
    }
    let (bits, signed) = match (column.logical_type_ref(), column.converted_type()) {
        (Some(LogicalType::Integer(int)), _) => (int.bit_width, int.is_signed),
        (None, ConvertedType::INT_8) => (8, true),
        (None, ConvertedType::INT_16) => (16, true),
        (None, ConvertedType::UINT_8) => (8, false),
        (None, ConvertedType::UINT_16) => (16, false),
        _ => return None,
    };
    match (bits, signed) {
        (8, true) => Some((i8::MIN.into(), i8::MAX.into(), "i8")),
        (16, true) => Some((i16::MIN.into(), i16::MAX.into(), "i16")),
        (8, false) => Some((0, u8::MAX.into(), "u8")),
        (16, false) => Some((0, u16::MAX.into(), "u16")),
        _ => None,
    }
}

/// Checks every value of the leaves of the root column `index` that are declared as 8- or
/// 16-bit integers (of the row group `group`, or of the whole file) against the declared
/// width: the first that is outside it is an error at its row. A chunk the decoder fails on is
/// left to the Arrow reader, which fails on it in turn and says why.
pub(super) fn check_narrow(
    builder: &ParquetRecordBatchReaderBuilder<Part>,
    part: &Part,
    index: usize,
    group: Option<RowGroup>,
) -> Result<(), (Place, LoadReason)> {
    let schema = builder.parquet_schema();
    let Some(name) = builder
        .schema()
        .fields()
        .get(index)
        .map(|f| f.name().clone())
    else {
        return Ok(());
    };
    let meta = builder.metadata();
    // Each row group to read and the row of the file it starts at.
    let groups: Vec<(usize, usize)> = match group {
        Some(g) => vec![(g.index, g.first_row)],
        None => meta
            .row_groups()
            .iter()
            .enumerate()
            .scan(0usize, |first, (g, rg)| {
                let start = *first;
                *first = first.saturating_add(usize::try_from(rg.num_rows()).unwrap_or(0));
                Some((g, start))
            })
            .collect(),
    };
    let part = Arc::new(part.clone());
    for leaf in (0..schema.num_columns()).filter(|&l| schema.get_column_root_idx(l) == index) {
        let descr = schema.column(leaf);
        let Some((min, max, ty)) = declared(&descr) else {
            continue;
        };
        for &(g, first) in &groups {
            // A row group the file does not have is the reader's error to name.
            let Some(rg) = meta.row_groups().get(g) else {
                continue;
            };
            let at = |row: Option<usize>| Place::Column {
                name: name.clone(),
                row: row.map(|r| r as u64),
            };
            let rows = usize::try_from(rg.num_rows()).unwrap_or(0);
            let Ok(pages) =
                SerializedPageReader::new(Arc::clone(&part), rg.column(leaf), rows, None)
            else {
                continue;
            };
            let mut reader: ColumnReaderImpl<Int32Type> =
                get_typed_column_reader(get_column_reader(descr.clone(), Box::new(pages)));
            let (max_def, max_rep) = (descr.max_def_level(), descr.max_rep_level());
            let (mut def, mut rep, mut values) = (Vec::new(), Vec::new(), Vec::new());
            let mut row = first;
            loop {
                def.clear();
                rep.clear();
                values.clear();
                let Ok((records, _, levels)) = reader.read_records(
                    ROWS_AT_ONCE,
                    (max_def > 0).then_some(&mut def),
                    (max_rep > 0).then_some(&mut rep),
                    &mut values,
                ) else {
                    break;
                };
                if let Some(k) = values.iter().position(|v| !(min..=max).contains(v)) {
                    let offset = row_of(k, &def, &rep, max_def, max_rep);
                    let message = format!(
                        "the value {} is stored in a column of {ty} values",
                        values[k]
                    );
                    return Err((at(Some(row + offset)), LoadReason::Parquet { message }));
                }
                if records == 0 && levels == 0 {
                    break;
                }
                row += records;
            }
        }
    }
    Ok(())
}

/// The row, among those whose levels are `def` and `rep` (none when the column has no such
/// levels), of the `k`th value present.
fn row_of(k: usize, def: &[i16], rep: &[i16], max_def: i16, max_rep: i16) -> usize {
    let levels = if max_def > 0 { def.len() } else { rep.len() };
    if max_def == 0 && max_rep == 0 {
        return k;
    }
    let mut row = 0usize;
    let mut seen = 0usize;
    for l in 0..levels {
        if l > 0 && (max_rep == 0 || rep[l] == 0) {
            row += 1;
        }
        if max_def == 0 || def[l] == max_def {
            if seen == k {
                return row;
            }
            seen += 1;
        }
    }
    row
}

#[cfg(test)]
mod tests {
    use super::row_of;

    #[test]
    fn the_row_of_a_value_from_its_levels() {
        // No levels: a value a row.
        assert_eq!(row_of(5, &[], &[], 0, 0), 5);
        // Nullable values, one a row: the third value present is in row 3 (row 1 is null).
        assert_eq!(row_of(2, &[1, 0, 1, 1], &[], 1, 0), 3);
        // Lists of required values: rows of 2, 1 and 3 values; the fourth value is in row 2.
        let rep = [0, 1, 0, 0, 1, 1];
        assert_eq!(row_of(3, &[], &rep, 0, 1), 2);
        assert_eq!(row_of(2, &[], &rep, 0, 1), 1);
        // Lists of nullable values (level 2 present, 1 a null item, 0 an empty list).
        let def = [2, 1, 0, 2, 2];
        let rep = [0, 1, 0, 0, 1];
        assert_eq!(row_of(1, &def, &rep, 2, 1), 2);
    }
}
