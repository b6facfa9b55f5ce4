//! The `parquet` crate's decoder, as the reader uses it: a reader of one column of a file or of
//! a row group, the footer's chunks checked against the file, the decoder's panics on corrupt
//! data caught as errors of the file, and its errors in words.

use crate::load::error::{LoadReason, Place};
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

/// A reader of the column at `index` alone, of the row group `group` or of the whole file,
/// decoding `rows` rows at a time.
pub(super) fn column_reader(
    builder: ParquetRecordBatchReaderBuilder<std::fs::File>,
    index: usize,
    group: Option<RowGroup>,
    rows: usize,
) -> Result<parquet::arrow::arrow_reader::ParquetRecordBatchReader, Fail> {
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
        let message = panic
            .downcast_ref::<&str>()
            .map(|m| (*m).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
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
