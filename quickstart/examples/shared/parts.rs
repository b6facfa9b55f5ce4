//! The digits as a directory of part files the way Spark writes them (snappy `part-*.parquet`, a
//! `_SUCCESS` marker; images as an `arrow.fixed_shape_tensor` of shape 8×8×1 with its axis names,
//! labels as int64), for the examples that read Parquet.

use arrow_array::{ArrayRef, FixedSizeListArray, Int64Array, RecordBatch, UInt8Array};
use arrow_schema::{DataType, Field, Schema};
use batchspec::data::Dataset;
use batchspec_quickstart::Digits;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// Writes the samples `rows` of `digits` as `parts` part files of row groups of `group` rows, with
/// Spark's `_SUCCESS` marker: columns `id` (the sample's index in the digits), `features` and
/// `targets`.
pub fn write_parts(
    digits: &Dataset<Digits>,
    rows: &[usize],
    dir: &Path,
    parts: usize,
    group: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    std::fs::create_dir_all(dir)?;
    let tensor = HashMap::from([
        (
            "ARROW:extension:name".to_owned(),
            "arrow.fixed_shape_tensor".to_owned(),
        ),
        (
            "ARROW:extension:metadata".to_owned(),
            r#"{"shape":[8,8,1],"dim_names":["H","W","C"]}"#.to_owned(),
        ),
    ]);
    let item = Arc::new(Field::new("item", DataType::UInt8, false));
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("features", DataType::FixedSizeList(item.clone(), 64), false)
            .with_metadata(tensor),
        Field::new("targets", DataType::Int64, false),
    ]));
    let per_part = rows.len().div_ceil(parts);
    for (k, chunk) in rows.chunks(per_part).enumerate() {
        let part = Dataset::new(digits.select(chunk)?)?;
        let pixels = UInt8Array::from_iter_values(part.fields().image.array().iter().copied());
        let labels =
            Int64Array::from_iter_values(part.fields().label.array().iter().map(|&l| i64::from(l)));
        let features = FixedSizeListArray::try_new(item.clone(), 64, Arc::new(pixels), None)?;
        let ids = Int64Array::from_iter_values(chunk.iter().map(|&i| i as i64));
        let columns: Vec<ArrayRef> = vec![Arc::new(ids), Arc::new(features), Arc::new(labels)];
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(group))
            .build();
        let file = std::fs::File::create(dir.join(format!("part-{k:05}.snappy.parquet")))?;
        let mut writer = ArrowWriter::try_new(file, schema.clone(), Some(props))?;
        writer.write(&RecordBatch::try_new(schema.clone(), columns)?)?;
        writer.close()?;
    }
    std::fs::write(dir.join("_SUCCESS"), b"")?;
    Ok(())
}
