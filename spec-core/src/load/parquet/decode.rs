//! The `parquet` crate's decoder, as the reader uses it: a reader of one column of a file or of
//! a row group, the footer's chunks checked against the file, the decoder's panics on corrupt
//! data caught as errors of the file, and its errors in words.

use crate::load::error::{LoadReason, Place};
use crate::load::parquet::footer::{PageLimits, check_pages};
use crate::load::parquet::levels::{check_payloads, needs_payload_check};
use crate::load::parquet::narrow::check_narrow;
use crate::load::parquet::part::Part;
use crate::load::parquet::row_group::RowGroup;
use arrow_schema::Field;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ParquetRecordBatchReaderBuilder};

/// A problem and where it is in the file.
pub(super) type Fail = (Place, LoadReason);

/// The column `column` of the file: its position and field.
pub(super) fn find_column(
    schema: &arrow_schema::Schema,
    column: &str,
) -> Result<(usize, Field), Fail> {
    schema
        .fields()
        .iter()
        .enumerate()
        .find(|(_, f)| f.name() == column)
        .map(|(i, f)| (i, f.as_ref().clone()))
        .ok_or_else(|| {
            (
                Place::File,
                LoadReason::NoColumn {
                    columns: schema.fields().iter().map(|f| f.name().clone()).collect(),
                },
            )
        })
}

/// A reader of the column at `index` alone (of the file `part`), of the row group `group` or of
/// the whole file, decoding `rows` rows at a time; its values declared as 8- or 16-bit integers
/// checked against their width first (`narrow.rs`).
pub(super) fn column_reader(
    builder: ParquetRecordBatchReaderBuilder<Part>,
    part: &Part,
    index: usize,
    group: Option<RowGroup>,
    rows: usize,
) -> Result<parquet::arrow::arrow_reader::ParquetRecordBatchReader, Fail> {
    check_narrow(&builder, part, index, group)?;
    let whole = |reason| (Place::File, reason);
    let mask = ProjectionMask::roots(builder.parquet_schema(), [index]);
    let groups = builder.metadata().num_row_groups();
    let builder = match group {
        Some(g) if g.index >= groups => {
            return Err(whole(LoadReason::Parquet {
                message: format!("no row group {} (the file has {groups})", g.index),
            }));
        }
        Some(g) => builder.with_row_groups(vec![g.index]),
        None => builder,
    };
    builder
        .with_projection(mask)
        .with_batch_size(rows)
        .build()
        .map_err(|e| whole(decode_error(e)))
}

/// The memory a read of one file may take (see `ParquetFiles::memory_budget`), and the file, to
/// read its page headers from.
pub(super) struct Budget {
    pub part: Part,
    pub bytes: u64,
}

/// Checks a read of the column at `index` (of the row group `group`, or of the whole file)
/// before it decodes anything: the rows it claims × `row_bytes` (the bytes a row takes in
/// memory; `None` for a ragged column, whose rows have no fixed size) within the budget, and
/// the header of every page of the column's chunks (`values_per_row`: the most values a data
/// page may hold per row of its row group; `None` for a ragged column).
pub(super) fn check_read(
    builder: &ParquetRecordBatchReaderBuilder<Part>,
    index: usize,
    group: Option<RowGroup>,
    budget: &Budget,
    row_bytes: Option<u64>,
    values_per_row: Option<u64>,
    elem_bytes: u64,
) -> Result<(), Fail> {
    let whole = |reason| (Place::File, reason);
    let meta = builder.metadata();
    let groups: Vec<usize> = match group {
        Some(g) => vec![g.index],
        None => (0..meta.num_row_groups()).collect(),
    };
    let rows: u64 = groups
        .iter()
        .filter_map(|&g| meta.row_groups().get(g))
        .map(|g| u64::try_from(g.num_rows()).unwrap_or(u64::MAX))
        .fold(0, u64::saturating_add);
    if let Some(row_bytes) = row_bytes {
        let need = rows.saturating_mul(row_bytes);
        if need > budget.bytes {
            let what = match group {
                Some(g) => format!("row group {} claims", g.index),
                None => {
                    // The row group claiming the most, by name.
                    let (g, most) = groups
                        .iter()
                        .filter_map(|&g| Some((g, meta.row_groups().get(g)?.num_rows())))
                        .max_by_key(|&(_, n)| n)
                        .unwrap_or((0, 0));
                    format!("the file (row group {g} claims {most} rows) claims")
                }
            };
            return Err(whole(LoadReason::Parquet {
                message: format!(
                    "{what} {rows} rows of {row_bytes} bytes each ({need} bytes), more than the memory budget of {} bytes (`ParquetFiles::memory_budget` raises it for a file that holds them)",
                    budget.bytes
                ),
            }));
        }
    }
    let schema = builder.parquet_schema();
    let leaves: Vec<usize> = (0..schema.num_columns())
        .filter(|&c| schema.get_column_root_idx(c) == index)
        .collect();
    let file = &budget.part;
    let most_values = budget.bytes / elem_bytes.max(1);
    for &g in &groups {
        let Some(rg) = meta.row_groups().get(g) else {
            continue;
        };
        let group_rows = u64::try_from(rg.num_rows()).unwrap_or(0);
        let limits = PageLimits {
            bytes: budget.bytes,
            values: values_per_row.map_or(most_values, |v| group_rows.saturating_mul(v.max(1))),
        };
        for &c in &leaves {
            let Some(chunk) = rg.columns().get(c) else {
                continue;
            };
            let start = chunk
                .dictionary_page_offset()
                .unwrap_or(chunk.data_page_offset());
            // `check_chunks` placed every chunk inside the file when the footer was read.
            let (Ok(start), Ok(len)) =
                (u64::try_from(start), u64::try_from(chunk.compressed_size()))
            else {
                continue;
            };
            let in_chunk = |reason| {
                (
                    Place::File,
                    match reason {
                        LoadReason::Parquet { message } => LoadReason::Parquet {
                            message: format!("row group {g}, column {c}: {message}"),
                        },
                        other => other,
                    },
                )
            };
            let risky = check_pages(file, start, len, limits).map_err(in_chunk)?;
            let column = schema.column(c);
            if needs_payload_check(&column, risky.0) {
                let rows = usize::try_from(group_rows).unwrap_or(usize::MAX);
                check_payloads(file, chunk, rows, &column).map_err(in_chunk)?;
            }
        }
    }
    Ok(())
}

/// Checks that the footer places every column chunk inside the file: the decoder trusts these
/// offsets (a negative one is a panic in it, found by the footer proptest).
pub(super) fn check_chunks(footer: &ArrowReaderMetadata, file_len: u64) -> Result<(), LoadReason> {
    for (g, group) in footer.metadata().row_groups().iter().enumerate() {
        for (c, chunk) in group.columns().iter().enumerate() {
            let start = chunk
                .dictionary_page_offset()
                .unwrap_or(chunk.data_page_offset());
            let len = chunk.compressed_size();
            let inside = u64::try_from(start)
                .ok()
                .zip(u64::try_from(len).ok())
                .and_then(|(s, l)| s.checked_add(l))
                .is_some_and(|end| end <= file_len);
            if !inside {
                return Err(LoadReason::Parquet {
                    message: format!(
                        "the footer places column chunk {c} of row group {g} at {len} bytes from byte {start}, outside the file of {file_len} bytes"
                    ),
                });
            }
        }
    }
    Ok(())
}

/// Runs a read through the `parquet` crate's decoder, whose assertions can panic on corrupt
/// data (a dictionary page missing, found by the footer proptest): such a panic is returned as
/// an error of the file (its message still reaches the panic hook; with `panic = "abort"` it
/// aborts).
pub(super) fn guarded<T>(read: impl FnOnce() -> Result<T, Fail>) -> Result<T, Fail> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)).unwrap_or_else(|panic| {
        let message = crate::data::error::panic_text(&*panic).unwrap_or_default();
        Err((
            Place::File,
            LoadReason::Parquet {
                message: format!("the decoder failed on corrupt data ({message})"),
            },
        ))
    })
}

pub(super) fn decode_error(e: impl std::fmt::Display) -> LoadReason {
    let message = e.to_string();
    let hint = if message.contains("Disabled feature") && message.contains("zstd") {
        " (turn on the `parquet-zstd` feature of batchspec)"
    } else if message.contains("Disabled feature") {
        " (this codec is not compiled into batchspec's reader: it reads uncompressed, snappy and, with `parquet-zstd`, zstd data)"
    } else {
        ""
    };
    LoadReason::Parquet {
        message: format!("{message}{hint}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_the_decoder_is_an_error_of_the_file() {
        let caught = guarded::<()>(|| panic!("Decoder for dict should have been set"));
        let (place, reason) = caught.unwrap_err();
        assert_eq!(place, Place::File);
        assert!(
            reason
                .to_string()
                .contains("corrupt data (Decoder for dict should have been set)"),
            "{reason}"
        );
        assert_eq!(guarded(|| Ok(3)), Ok(3));
    }
}
