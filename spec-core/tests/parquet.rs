//! The Parquet reader on files written by pyarrow (`tests/data/parquet/make_fixtures.py` wrote
//! them; the values are stated there): each accepted encoding, a Spark-style directory, and one
//! file per mistake, each refused with the file, the column, the row and the reason.
#![cfg(feature = "parquet")]

use batchspec::dataset::Dataset;
use batchspec::load::{LoadError, LoadReason, ParquetFiles, Place};
use batchspec::prelude::*;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/parquet")
        .join(name)
}

/// Sample `i`, pixel `p` (row-major over 2x2) is `4i + p + 0.5`; the label is `i % 3`.
fn pixel(i: usize, p: usize) -> f64 {
    (4 * i + p) as f64 + 0.5
}

#[derive(DataSpec)]
struct Grey {
    #[spec(source = "features")]
    image: Batch<image![2, 2, 1; BHWC]>,
    #[spec(source = "targets")]
    label: Batch<Labels<3>>,
}

fn check_grey(ds: &Dataset<Grey>) {
    assert_eq!(ds.len(), 10);
    let image = ds.fields().image.array();
    let label = ds.fields().label.array();
    for i in 0..10 {
        for p in 0..4 {
            assert_eq!(f64::from(image[[i, p / 2, p % 2, 0]]), pixel(i, p));
        }
        assert_eq!(label[i], (i % 3) as i64);
    }
}

#[test]
fn a_fixed_shape_tensor_column_fills_an_image() {
    let ds =
        Dataset::<Grey>::load(&mut ParquetFiles::open(data("tensor.parquet")).unwrap()).unwrap();
    check_grey(&ds);
}

#[test]
fn a_spark_directory_reads_its_part_files_in_order_and_skips_the_rest() {
    let files = ParquetFiles::open(data("spark_dir")).unwrap();
    assert_eq!(
        files.files().len(),
        3,
        "_SUCCESS and .crc files are not read"
    );
    let ds = Dataset::<Grey>::load(&mut files.clone()).unwrap();
    check_grey(&ds);
}

#[derive(DataSpec)]
struct Doubles {
    #[spec(source = "features")]
    x: Batch<Vector<4, f64>>,
    #[spec(source = "targets")]
    y: Batch<Index<3>>,
}

#[test]
fn a_fixed_size_list_of_doubles_fills_an_f64_vector_and_int32_labels_an_index() {
    let ds =
        Dataset::<Doubles>::load(&mut ParquetFiles::open(data("fixed_size_list.parquet")).unwrap())
            .unwrap();
    for i in 0..10 {
        for p in 0..4 {
            assert_eq!(ds.fields().x.array()[[i, p]], pixel(i, p));
        }
        assert_eq!(ds.fields().y.array()[[i, 0]], (i % 3) as i64);
    }
}

#[derive(DataSpec)]
struct Floats {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
    #[spec(source = "targets")]
    y: Batch<Labels<3, u8>>,
}

#[test]
fn a_large_list_of_uniform_rows_fills_a_vector_as_ray_writes_tensors() {
    let ds = Dataset::<Floats>::load(&mut ParquetFiles::open(data("large_list.parquet")).unwrap())
        .unwrap();
    for i in 0..10 {
        for p in 0..4 {
            assert_eq!(f64::from(ds.fields().x.array()[[i, p]]), pixel(i, p));
        }
        assert_eq!(ds.fields().y.array()[i], (i % 3) as u8);
    }
}

#[test]
fn exact_doubles_fill_an_f32_space() {
    // Every value is k + 0.5, which an f32 holds exactly.
    let mut files = ParquetFiles::open(data("fixed_size_list.parquet")).unwrap();
    let ds = Dataset::<Floats>::load(&mut files).unwrap();
    assert_eq!(ds.fields().x.array()[[9, 3]], 39.5);
}

#[derive(DataSpec)]
struct Channels {
    #[spec(source = "features")]
    x: Batch<image![2, 2, 2; BCHW]>,
}

#[derive(DataSpec)]
struct ChannelsLast {
    #[spec(source = "features")]
    x: Batch<image![2, 2, 2; BHWC]>,
}

#[test]
fn tensor_axis_names_must_follow_the_spaces_memory_order() {
    let ds =
        Dataset::<Channels>::load(&mut ParquetFiles::open(data("tensor_chw.parquet")).unwrap())
            .unwrap();
    // Sample i holds 8i..8i+8 in C, H, W order.
    assert_eq!(ds.fields().x.array()[[3, 1, 0, 1]], (8 * 3 + 4 + 1) as f32);
    let err =
        Dataset::<ChannelsLast>::load(&mut ParquetFiles::open(data("tensor_chw.parquet")).unwrap())
            .map(|_| ())
            .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("tensor_chw.parquet column `features`"),
        "{text}"
    );
    assert!(text.contains("dim_names [C, H, W]"), "{text}");
    assert!(text.contains("layout!(bchw)"), "{text}");
}

/// The place and reason of a load that must fail.
fn refusal<R: batchspec::dataset::LoadRecord>(file: &str) -> (Place, LoadReason, String) {
    let err = Dataset::<R>::load(&mut ParquetFiles::open(data(file)).unwrap())
        .map(|_| ())
        .unwrap_err();
    let text = err.to_string();
    match err {
        LoadError::File {
            file: path,
            place,
            reason,
            ..
        } => {
            assert!(path.ends_with(file), "{text}");
            (place, *reason, text)
        }
        other => panic!("not a file error: {other}"),
    }
}

fn column(name: &str, row: Option<u64>) -> Place {
    Place::Column {
        name: name.into(),
        row,
    }
}

#[test]
fn a_label_of_minus_one_is_refused_at_its_row() {
    let (place, reason, text) = refusal::<Grey>("label_minus_one.parquet");
    assert_eq!(place, column("targets", Some(7)));
    assert!(matches!(reason, LoadReason::Label { ref value, max_labels: 3 } if value == "-1"));
    assert!(text.contains("(source `targets`)"), "{text}");
}

#[test]
fn a_null_is_refused_at_its_row() {
    let (place, reason, _) = refusal::<Grey>("null_label.parquet");
    assert_eq!(place, column("targets", Some(5)));
    assert_eq!(reason, LoadReason::Null);
}

#[test]
fn a_row_of_another_length_is_refused_at_its_row() {
    let (place, reason, _) = refusal::<Floats>("ragged.parquet");
    assert_eq!(place, column("features", Some(4)));
    assert!(matches!(
        reason,
        LoadReason::RowLength {
            found: 3,
            expected: 4,
            ..
        }
    ));
}

#[test]
fn a_text_column_is_refused_before_any_value_is_read() {
    let (place, reason, text) = refusal::<Grey>("strings.parquet");
    assert_eq!(place, column("targets", None));
    assert!(matches!(reason, LoadReason::ColumnType { .. }), "{text}");
}

#[derive(DataSpec)]
struct Wider {
    #[spec(source = "features")]
    x: Batch<Vector<5>>,
}

#[test]
fn a_fixed_size_list_of_another_length_is_refused_when_the_file_opens() {
    let (place, reason, _) = refusal::<Wider>("fixed_size_list.parquet");
    assert_eq!(place, column("features", None));
    assert!(matches!(
        reason,
        LoadReason::RowLength {
            found: 4,
            expected: 5,
            ..
        }
    ));
}

#[derive(DataSpec)]
struct Masked {
    #[spec(source = "mask")]
    m: Batch<Vector<4>>,
}

#[test]
fn a_missing_column_lists_the_columns_there_are() {
    let (place, reason, _) = refusal::<Masked>("tensor.parquet");
    assert_eq!(place, Place::File);
    assert_eq!(
        reason,
        LoadReason::NoColumn {
            columns: vec!["features".into(), "targets".into()]
        }
    );
    // Another column can be named for the source.
    let mut files = ParquetFiles::open(data("large_list.parquet"))
        .unwrap()
        .column("mask", "features");
    assert_eq!(Dataset::<Masked>::load(&mut files).unwrap().len(), 10);
}

#[cfg(not(feature = "parquet-zstd"))]
#[test]
fn a_codec_not_compiled_in_names_the_feature() {
    let (_, reason, text) = refusal::<Grey>("zstd.parquet");
    assert!(matches!(reason, LoadReason::Parquet { .. }), "{text}");
    assert!(text.contains("parquet-zstd"), "{text}");
}

#[test]
fn truncated_and_corrupt_files_are_errors_not_panics() {
    let bytes = std::fs::read(data("tensor.parquet")).unwrap();
    let dir = std::env::temp_dir().join(format!("batchspec-parquet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cases = Vec::new();
    for cut in [0, 4, 8, bytes.len() / 2, bytes.len() - 9, bytes.len() - 1] {
        cases.push(bytes[..cut].to_vec());
    }
    let mut flipped = bytes.clone();
    for b in flipped.iter_mut().skip(4).step_by(97) {
        *b ^= 0x5a;
    }
    cases.push(flipped);
    for (k, case) in cases.iter().enumerate() {
        let path = dir.join(format!("case{k}.parquet"));
        std::fs::write(&path, case).unwrap();
        let result = std::panic::catch_unwind(|| {
            ParquetFiles::open(&path).and_then(|mut f| Dataset::<Grey>::load(&mut f).map(|_| ()))
        });
        let loaded = result.unwrap_or_else(|_| panic!("case {k} panicked"));
        // A flipped byte may land in the values (a different but valid file); a cut never does.
        if k < 6 {
            assert!(loaded.is_err(), "case {k} loaded");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
