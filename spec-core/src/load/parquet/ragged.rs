//! Ragged leaves (`Ragged<S>` fields) from list columns: a row's steps are a list of numbers
//! (one value per step) or a list of fixed-length lists (one list per step).

use crate::load::NonFinite;
use crate::load::convert::sample_fits;
use crate::load::error::{LoadReason, Place};
use crate::load::parquet::columns::{
    convert_part, flatten_nested, list_leaf, list_offsets, numeric,
};
use crate::load::parquet::decode::{
    Budget, Fail, check_read, column_reader, decode_error, find_column,
};
use crate::load::parquet::part::Part;
use crate::load::parquet::row_group::RowGroup;
use crate::types::space::Space;
use arrow_array::Array;
use arrow_array::types::{
    Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// Reads one file's (or row group's) rows of a ragged column: appends the values and the end
/// of each row, in steps, to `offsets`.
pub(super) fn read_ragged_column<S: Space>(
    builder: ParquetRecordBatchReaderBuilder<Part>,
    column: &str,
    group: Option<RowGroup>,
    budget: &Budget,
    values: &mut Vec<S::Elem>,
    offsets: &mut Vec<usize>,
    non_finite: NonFinite,
) -> Result<(), Fail> {
    let at = |row: Option<u64>| Place::Column {
        name: column.to_owned(),
        row,
    };
    let (index, field) = find_column(builder.schema(), column)?;
    let step = crate::types::ragged::steps::step_len::<S>();
    let step_shape: Vec<usize> = S::SHAPE.iter().flatten().copied().collect();
    let wrong = |expected| {
        (
            at(None),
            LoadReason::ColumnType {
                found: field.data_type().to_string(),
                space: S::describe(),
                expected,
            },
        )
    };
    const ACCEPTED: &str = "a List or LargeList of numbers (one per step), or of fixed-length lists of numbers (one list per step)";
    let element = match field.data_type() {
        DataType::List(c) | DataType::LargeList(c) => match list_leaf(c.data_type()) {
            Some(_) if numeric(c.data_type()) && step != 1 => {
                return Err((
                    at(None),
                    LoadReason::StepLength {
                        found: 1,
                        expected: step,
                        space: S::describe(),
                    },
                ));
            }
            Some(leaf) => leaf.clone(),
            None => return Err(wrong(ACCEPTED)),
        },
        _ => return Err(wrong(ACCEPTED)),
    };
    // A row takes an offset at least; its steps are bounded by the budget page by page.
    check_read(
        &builder,
        index,
        group,
        budget,
        Some(core::mem::size_of::<usize>() as u64),
        None,
        core::mem::size_of::<S::Elem>() as u64,
    )?;
    let reader = column_reader(builder, &budget.part, index, group, 8192)?;
    let first = group.map_or(0, |g| g.first_row);
    let mut rows = 0usize;
    for batch in reader {
        let batch = batch.map_err(|e| (at(Some((first + rows) as u64)), decode_error(e)))?;
        let array = batch.column(0);
        let row_at = |r: usize| at(Some((first + rows + r) as u64));
        if let Some(r) = (0..array.len()).find(|&i| array.is_null(i)) {
            return Err((row_at(r), LoadReason::Null));
        }
        // The rows' steps (the outer list), then the steps' values.
        let (steps, row_offsets) = list_offsets(array);
        let (leaf, step_offsets, shape) =
            flatten_nested(&steps, S::describe).map_err(|(j, reason)| {
                // `j` is a step: name the row that holds it.
                let r = row_offsets.partition_point(|&o| o <= j).saturating_sub(1);
                let reason = match reason {
                    LoadReason::RowLength { found, .. } => LoadReason::StepLength {
                        found,
                        expected: step,
                        space: S::describe(),
                    },
                    other => other,
                };
                (row_at(r), reason)
            })?;
        let (row_first, row_last) = (
            row_offsets.first().copied().unwrap_or(0),
            row_offsets.last().copied().unwrap_or(0),
        );
        if row_last > row_first && !sample_fits(&shape, &step_shape) {
            let found = shape.iter().product();
            return Err((
                row_at(0),
                LoadReason::StepLength {
                    found,
                    expected: step,
                    space: S::describe(),
                },
            ));
        }
        let start = step_offsets.get(row_first).copied().unwrap_or(0);
        let end = step_offsets.get(row_last).copied().unwrap_or(start);
        let part = leaf.slice(start, end - start);
        let before = values.len();
        if part.null_count() > 0
            && let Some(i) = (0..part.len()).find(|&i| part.is_null(i))
        {
            let r = row_offsets.partition_point(|&o| o <= row_first + i / step.max(1));
            return Err((row_at(r.saturating_sub(1)), LoadReason::Null));
        }
        macro_rules! convert {
            ($($dt:ident => $ty:ident),*) => {
                match &element {
                    $(DataType::$dt => convert_part::<S, $ty>(&part, step, values),)*
                    _ => unreachable!("the column's type was checked above"),
                }
            };
        }
        convert!(
            Int8 => Int8Type, Int16 => Int16Type, Int32 => Int32Type, Int64 => Int64Type,
            UInt8 => UInt8Type, UInt16 => UInt16Type, UInt32 => UInt32Type, UInt64 => UInt64Type,
            Float32 => Float32Type, Float64 => Float64Type
        )
        .and_then(|()| {
            non_finite
                .first_refused(&values[before..])
                .map_or(Ok(()), |(i, reason)| Err((i / step.max(1), reason)))
        })
        .map_err(|(s, reason)| {
            // `s` is a step of this batch: name its row.
            let r = row_offsets.partition_point(|&o| o <= row_first + s);
            (row_at(r.saturating_sub(1)), reason)
        })?;
        let base = offsets.last().copied().unwrap_or(0);
        offsets.extend(row_offsets.windows(2).map(|w| base + (w[1] - row_first)));
        rows += array.len();
    }
    Ok(())
}
