//! Ragged leaves read from Parquet list columns written by pyarrow
//! (`tests/data/parquet/make_sequence_fixtures.py` wrote them; the values are stated there):
//! `List<int64>`, `LargeList<int32>`, `List<FixedSizeList<float32, 2>>` and
//! `List<List<float64>>`, across row groups and through a provider; and the mistakes, each
//! refused with the file, the column, the row and the reason.
#![cfg(feature = "parquet")]

use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::iteration::Schedule;
use batchspec::load::{LoadError, LoadReason, ParquetFiles, Place};
use batchspec::prelude::*;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/parquet")
        .join(name)
}

const LENGTHS: [usize; 7] = [3, 0, 1, 4, 2, 5, 1];

#[derive(DataSpec)]
struct Text {
    #[spec(source = "tokens")]
    tokens: Ragged<IndexSeq<100>>,
    #[spec(source = "frames")]
    frames: Ragged<VectorSeq<2>>,
    #[spec(source = "nested")]
    nested: Ragged<VectorSeq<2, BTF, f64>>,
    #[spec(source = "wide")]
    wide: Ragged<IndexSeq<100, BT, u8>>,
    #[spec(source = "targets")]
    label: Batch<Labels<3>>,
}

#[test]
fn list_columns_load_as_ragged_leaves() {
    let ds =
        Dataset::<Text>::load(&mut ParquetFiles::open(data("sequences.parquet")).unwrap()).unwrap();
    assert_eq!(ds.len(), 7);
    let f = ds.fields();
    assert_eq!(f.tokens.lengths().collect::<Vec<_>>(), LENGTHS);
    assert_eq!(f.frames.lengths().collect::<Vec<_>>(), LENGTHS);
    for (i, &n) in LENGTHS.iter().enumerate() {
        let tokens: Vec<i64> = f.tokens.sample(i).unwrap().iter().copied().collect();
        assert_eq!(
            tokens,
            (0..n).map(|t| (10 * i + t) as i64).collect::<Vec<_>>()
        );
        let wide: Vec<u8> = f.wide.sample(i).unwrap().iter().copied().collect();
        assert_eq!(wide, (0..n).map(|t| (10 * i + t) as u8).collect::<Vec<_>>());
        let frames = f.frames.sample(i).unwrap();
        let nested = f.nested.sample(i).unwrap();
        assert_eq!(frames.shape(), [n, 2]);
        for t in 0..n {
            let v = i as f32 + t as f32 / 4.0;
            assert_eq!((frames[[t, 0]], frames[[t, 1]]), (v, -v));
            assert_eq!(
                (nested[[t, 0]], nested[[t, 1]]),
                (f64::from(v), -f64::from(v))
            );
        }
        assert_eq!(f.label.array()[i], (i % 3) as i64);
    }
}

/// Row groups selected one by one (as a rank of a sharded run reads them) give the same rows.
#[test]
fn selected_row_groups_give_their_rows() {
    let files = ParquetFiles::open(data("sequences.parquet")).unwrap();
    let groups = files.row_groups().unwrap();
    assert_eq!(groups.len(), 3);
    let ds = Dataset::<Text>::load(&mut files.select_row_groups(&[groups[2], groups[0]])).unwrap();
    // Row group 2 holds row 6, row group 0 rows 0..3.
    assert_eq!(
        ds.fields().tokens.lengths().collect::<Vec<_>>(),
        [1, 3, 0, 1]
    );
    let first: Vec<i64> = ds
        .fields()
        .tokens
        .sample(0)
        .unwrap()
        .iter()
        .copied()
        .collect();
    assert_eq!(first, [60]);
}

/// Read, then served padded and time-major with the lengths, as a model asks for it.
#[test]
fn a_loaded_ragged_column_is_served_padded() {
    #[derive(DataSpec)]
    struct Model {
        #[spec(source = "tokens", pad = 99)]
        tokens: Batch<IndexSeq<100, TB>>,
        #[spec(lengths_of = "tokens")]
        len: Batch<Lengths>,
    }
    let ds =
        Dataset::<Text>::load(&mut ParquetFiles::open(data("sequences.parquet")).unwrap()).unwrap();
    let schedule = Schedule::builder(7).batch_size(4).build().unwrap();
    let mut p = Provider::<Text, Model>::new(&ds, schedule).unwrap();
    let b = p.next_batch().unwrap().batch;
    assert_eq!(
        b.tokens.array(),
        &ndarray::array![
            [0i64, 99, 20, 30],
            [1, 99, 99, 31],
            [2, 99, 99, 32],
            [99, 99, 99, 33]
        ]
    );
    assert_eq!(b.len.array(), &ndarray::array![3i64, 0, 1, 4]);
}

fn refusal<R: batchspec::load::LoadRecord>(file: &str) -> (Place, LoadReason, String) {
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

#[test]
fn mistakes_name_the_file_the_column_the_row_and_the_reason() {
    // A step of 3 values where the space's steps hold 2, in row 4.
    #[derive(DataSpec)]
    struct Frames {
        #[spec(source = "frames")]
        frames: Ragged<VectorSeq<2>>,
    }
    let (place, reason, text) = refusal::<Frames>("bad_steps.parquet");
    assert_eq!(
        place,
        Place::Column {
            name: "frames".into(),
            row: Some(4)
        },
        "{text}"
    );
    assert!(
        matches!(
            reason,
            LoadReason::StepLength {
                found: 3,
                expected: 2,
                ..
            }
        ),
        "{text}"
    );

    // A token id outside the space's labels (ids 0..60; row 5 holds 99).
    #[derive(DataSpec)]
    struct Tokens {
        #[spec(source = "tokens")]
        tokens: Ragged<IndexSeq<60>>,
    }
    let (place, _, text) = refusal::<Tokens>("bad_label.parquet");
    assert_eq!(
        place,
        Place::Column {
            name: "tokens".into(),
            row: Some(5)
        },
        "{text}"
    );
    assert!(text.contains("label 99 is not in 0..60"), "{text}");

    // Numbers, one per step, for a space whose steps hold 2.
    #[derive(DataSpec)]
    struct Wrong {
        #[spec(source = "tokens")]
        tokens: Ragged<VectorSeq<2>>,
    }
    let (place, reason, text) = refusal::<Wrong>("sequences.parquet");
    assert_eq!(
        place,
        Place::Column {
            name: "tokens".into(),
            row: None
        },
        "{text}"
    );
    assert!(
        matches!(
            reason,
            LoadReason::StepLength {
                found: 1,
                expected: 2,
                ..
            }
        ),
        "{text}"
    );

    // Not a list column.
    #[derive(DataSpec)]
    struct Scalar {
        #[spec(source = "targets")]
        targets: Ragged<IndexSeq<3>>,
    }
    let (_, reason, text) = refusal::<Scalar>("sequences.parquet");
    assert!(matches!(reason, LoadReason::ColumnType { .. }), "{text}");
}

/// A ragged field asked of a format without lists of different lengths is an error naming the
/// source, not a panic.
#[test]
fn other_formats_refuse_ragged_fields() {
    #[derive(DataSpec)]
    struct Seqs {
        #[spec(source = "x")]
        x: Ragged<IndexSeq<5>>,
    }
    let dir = std::env::temp_dir().join(format!("batchspec-ragged-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("x.csv");
    std::fs::write(&csv, "1\n2\n").unwrap();
    let err = Dataset::<Seqs>::load(&mut batchspec::load::CsvFile::new(&csv))
        .err()
        .unwrap();
    assert!(
        err.to_string()
            .contains("source `x`: this format holds no samples of different lengths"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Streamed a window of row groups at a time (larger than memory), for two ranks: every row is
/// served once, with its own tokens, and the batches carried across windows keep them.
#[test]
fn ragged_columns_stream_by_windows_across_ranks() {
    use batchspec::load::{ParquetStream, Rank, ShardPlan, Tail};
    let files = ParquetFiles::open(data("sequences.parquet")).unwrap();
    let mut seen = vec![];
    for rank in 0..2 {
        let plan = ShardPlan::new(&files, Rank::new(rank, 2).unwrap())
            .unwrap()
            .tail(Tail::Uneven);
        let mut stream = ParquetStream::<Text>::new(&files, &plan, 0, 2, 1);
        while let Some(b) = stream.next_batch() {
            let b = b.unwrap();
            for j in 0..b.label.len() {
                let tokens: Vec<i64> = b.tokens.sample(j).unwrap().iter().copied().collect();
                // Row i's tokens are 10 i + t: the first names the row (an empty row has none).
                let n = tokens.len();
                let i = LENGTHS.iter().position(|&l| l == n).unwrap();
                let i = tokens.first().map_or(i, |&t| (t / 10) as usize);
                assert_eq!(n, LENGTHS[i]);
                assert_eq!(b.label.array()[j], (i % 3) as i64);
                seen.push(i);
            }
        }
    }
    seen.sort();
    assert_eq!(seen, (0..7).collect::<Vec<_>>());
}
