//! The column reader's direct path (numbers already of the leaf's type, one per row or in flat
//! lists, decoded straight into the leaf) against the values written, as a property over files
//! the `parquet` crate writes in every way it can: the four types it takes (f32, f64, i32, i64),
//! a scalar column, a `FixedSizeList` and a `List` column, nullable or required items, plain or
//! dictionary encoding (dictionaries of one to several hundred values, their indices bit-packed
//! or in runs, a dictionary outgrown and its chunk gone on in plain pages), data pages v1 and v2
//! of a few rows each (rows across pages), no codec or snappy, row groups of any size, read
//! whole (`Dataset::load`) and row group by row group (a `ParquetStream`). And what must still
//! be refused is, naming the row as the Arrow path does: a null, a list of another length, a
//! NaN under `NonFinite::Refuse`.
#![cfg(feature = "parquet")]

use arrow_array::types::{
    Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{
    ArrayRef, ArrowPrimitiveType, FixedSizeListArray, ListArray, PrimitiveArray, RecordBatch,
};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType, Field, Schema};
use batchspec::data::Dataset;
use batchspec::load::{
    LoadError, LoadReason, NonFinite, ParquetFiles, ParquetStream, Place, Rank, ShardPlan,
};
use batchspec::prelude::*;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::{WriterProperties, WriterVersion};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const PER: usize = 3;

macro_rules! records {
    ($($name:ident: $e:ty),*) => {$(
        #[derive(DataSpec)]
        struct $name {
            #[spec(source = "x")]
            x: Batch<Vector<PER, $e>>,
        }
    )*};
}
records!(F32: f32, F64: f64, I32: i32, I64: i64, U8: u8);

#[derive(DataSpec)]
struct One {
    #[spec(source = "x")]
    x: Batch<Vector<1>>,
}

/// A path named `name` in a directory of its own, removed when the directory is dropped.
fn temp(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("batchspec-direct-")
        .tempdir()
        .unwrap();
    let path = dir.path().join(name);
    (dir, path)
}

/// How a file is written.
#[derive(Clone, Debug)]
struct Writing {
    list: u8, // 0: FixedSizeList, 1: List, 2: one value per row
    nullable: bool,
    dictionary: bool,
    /// The dictionary page's limit in bytes: a chunk whose dictionary outgrows it goes on in
    /// plain pages (`None`: the writer's default, a megabyte).
    dictionary_bytes: Option<usize>,
    v2: bool,
    snappy: bool,
    page_rows: usize,
    group_rows: usize,
}

fn writing() -> impl Strategy<Value = Writing> {
    (
        0u8..3,
        any::<bool>(),
        any::<bool>(),
        proptest::option::of(1usize..200),
        any::<bool>(),
        any::<bool>(),
        1usize..20,
        1usize..50,
    )
        .prop_map(
            |(list, nullable, dictionary, dictionary_bytes, v2, snappy, page_rows, group_rows)| {
                Writing {
                    list,
                    nullable,
                    dictionary,
                    dictionary_bytes,
                    v2,
                    snappy,
                    page_rows,
                    group_rows,
                }
            },
        )
}

/// Writes `values` (rows of `per` values; `nulls` the positions of null items) as the column
/// `x` of a file, as `w` says.
fn write<T: ArrowPrimitiveType>(
    path: &Path,
    values: &[T::Native],
    per: usize,
    nulls: &[usize],
    w: &Writing,
) {
    let item = Arc::new(Field::new(
        "item",
        T::DATA_TYPE,
        w.nullable || !nulls.is_empty(),
    ));
    let flat: PrimitiveArray<T> = values
        .iter()
        .enumerate()
        .map(|(i, v)| (!nulls.contains(&i)).then_some(*v))
        .collect();
    let rows = values.len() / per;
    let (field, column): (Field, ArrayRef) = match w.list {
        0 => (
            Field::new(
                "x",
                DataType::FixedSizeList(item.clone(), per as i32),
                false,
            ),
            Arc::new(FixedSizeListArray::try_new(item, per as i32, Arc::new(flat), None).unwrap()),
        ),
        1 => {
            let offsets = arrow_buffer_offsets(rows, per);
            (
                Field::new("x", DataType::List(item.clone()), false),
                Arc::new(ListArray::try_new(item, offsets, Arc::new(flat), None).unwrap()),
            )
        }
        _ => (
            Field::new("x", T::DATA_TYPE, w.nullable || !nulls.is_empty()),
            Arc::new(flat),
        ),
    };
    let schema = Arc::new(Schema::new(vec![field]));
    let mut props = WriterProperties::builder();
    if let Some(bytes) = w.dictionary_bytes {
        props = props.set_dictionary_page_size_limit(bytes);
    }
    let props = props
        .set_dictionary_enabled(w.dictionary)
        .set_writer_version(if w.v2 {
            WriterVersion::PARQUET_2_0
        } else {
            WriterVersion::PARQUET_1_0
        })
        .set_compression(if w.snappy {
            Compression::SNAPPY
        } else {
            Compression::UNCOMPRESSED
        })
        .set_data_page_row_count_limit(w.page_rows)
        .set_write_batch_size(w.page_rows)
        .set_max_row_group_row_count(Some(w.group_rows))
        .build();
    let file = std::fs::File::create(path).unwrap();
    let mut writer = ArrowWriter::try_new(file, schema.clone(), Some(props)).unwrap();
    writer
        .write(&RecordBatch::try_new(schema, vec![column]).unwrap())
        .unwrap();
    writer.close().unwrap();
}

fn arrow_buffer_offsets(rows: usize, per: usize) -> OffsetBuffer<i32> {
    OffsetBuffer::from_lengths(std::iter::repeat_n(per, rows))
}

/// Reads the file whole and row group by row group (a stream of windows of one row group, in
/// file order): both must give `want`.
fn read_both<R, E>(path: &Path, want: &[E], get: impl Fn(&R) -> Vec<E>) -> Result<(), TestCaseError>
where
    R: batchspec::load::LoadRecord + batchspec::data::GatherSame + DataSpec + Send + 'static,
    batchspec::types::FlatOf<R>: batchspec::data::AllocFlat,
    E: PartialEq + core::fmt::Debug + Copy,
{
    let whole = Dataset::<R>::load(&mut ParquetFiles::open(path).unwrap()).unwrap();
    prop_assert_eq!(get(whole.fields()), want.to_vec());
    if want.is_empty() {
        // A file of no rows has no row group for a plan to deal.
        return Ok(());
    }
    let files = ParquetFiles::open(path).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap();
    let mut stream = ParquetStream::<R>::new(&files, &plan, 0, 7, 1);
    let mut got = Vec::new();
    while let Some(b) = stream.next_batch() {
        got.extend(get(&b.unwrap()));
    }
    prop_assert_eq!(got, want.to_vec());
    Ok(())
}

/// Writes `values` as a column of Arrow type `T` (rows of `PER`) and reads it into `R`, whose
/// leaf must hold `want`, the same numbers.
fn converts<T: ArrowPrimitiveType, R, E>(
    path: &Path,
    values: &[T::Native],
    want: impl Fn(T::Native) -> E,
    w: &Writing,
    get: impl Fn(&R) -> Vec<E>,
) -> Result<(), TestCaseError>
where
    R: batchspec::load::LoadRecord + batchspec::data::GatherSame + DataSpec + Send + 'static,
    batchspec::types::FlatOf<R>: batchspec::data::AllocFlat,
    E: PartialEq + core::fmt::Debug + Copy,
{
    write::<T>(path, values, PER, &[], w);
    let want: Vec<E> = values.iter().map(|&v| want(v)).collect();
    read_both::<R, E>(path, &want, get)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn numbers_of_other_types_are_converted_exactly(
        w in writing(),
        rows in 1usize..80,
        seed: u32,
        run in prop_oneof![Just(1usize), 1usize..40],
    ) {
        // Lists of `PER` (`FixedSizeList` or `List`); every value of the column's own type,
        // in runs of `run`, held exactly by the leaf's.
        let w = Writing { list: w.list % 2, ..w };
        let k = |i: usize| (seed as usize).wrapping_mul(31).wrapping_add(i / run * 7919) % 1000;
        let n = rows * PER;
        let (_dir, path) = temp("x.parquet");
        let x = |r: &F32| r.x.array().iter().copied().collect::<Vec<f32>>();
        let u8s: Vec<u8> = (0..n).map(|i| k(i) as u8).collect();
        converts::<UInt8Type, F32, f32>(&path, &u8s, f32::from, &w, x)?;
        converts::<UInt8Type, U8, u8>(&path, &u8s, |v| v, &w, |r| r.x.array().iter().copied().collect())?;
        let i8s: Vec<i8> = (0..n).map(|i| k(i) as i8).collect();
        converts::<Int8Type, F64, f64>(&path, &i8s, f64::from, &w, |r| r.x.array().iter().copied().collect())?;
        let u16s: Vec<u16> = (0..n).map(|i| k(i) as u16 * 60).collect();
        converts::<UInt16Type, I64, i64>(&path, &u16s, i64::from, &w, |r| r.x.array().iter().copied().collect())?;
        let i16s: Vec<i16> = (0..n).map(|i| (k(i) as i16 - 500) * 30).collect();
        converts::<Int16Type, F32, f32>(&path, &i16s, f32::from, &w, x)?;
        // Beyond `i32::MAX`: stored in the bits of a negative `i32`.
        let u32s: Vec<u32> = (0..n).map(|i| k(i) as u32 * 4_000_000 + 7).collect();
        converts::<UInt32Type, I64, i64>(&path, &u32s, i64::from, &w, |r| r.x.array().iter().copied().collect())?;
        let i32s: Vec<i32> = (0..n).map(|i| (k(i) as i32 - 500) * 16_000).collect();
        converts::<Int32Type, F32, f32>(&path, &i32s, |v| v as f32, &w, x)?;
        let i64s: Vec<i64> = (0..n).map(|i| (k(i) as i64 - 500) << 40).collect();
        converts::<Int64Type, F64, f64>(&path, &i64s, |v| v as f64, &w, |r| r.x.array().iter().copied().collect())?;
        let u64s: Vec<u64> = (0..n).map(|i| k(i) as u64 * 9_000_000_000_000_000).collect();
        converts::<UInt64Type, I64, i64>(&path, &u64s, |v| v as i64, &w, |r| r.x.array().iter().copied().collect())?;
        let f32s: Vec<f32> = (0..n).map(|i| k(i) as f32 * 0.125).collect();
        converts::<Float32Type, F64, f64>(&path, &f32s, f64::from, &w, |r| r.x.array().iter().copied().collect())?;
        converts::<Float32Type, I32, i32>(&path, &f32s.iter().map(|v| v.floor()).collect::<Vec<_>>(), |v| v as i32, &w, |r| r.x.array().iter().copied().collect())?;
        let f64s: Vec<f64> = (0..n).map(|i| k(i) as f64 * 0.25 - 100.0).collect();
        converts::<Float64Type, F32, f32>(&path, &f64s, |v| v as f32, &w, x)?;
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    #[test]
    fn a_number_the_leaf_does_not_hold_is_refused_at_its_row(
        w in writing(),
        rows in 1usize..60,
        at: prop::sample::Index,
    ) {
        let w = Writing { list: w.list % 2, ..w };
        let n = rows * PER;
        let bad = at.index(n);
        let inexact = |place: Place, reason: LoadReason| -> Result<(), TestCaseError> {
            prop_assert_eq!(place, Place::Column { name: "x".into(), row: Some((bad / PER) as u64) });
            prop_assert!(matches!(reason, LoadReason::Inexact { .. }), "{:?}", reason);
            Ok(())
        };
        let (_dir, path) = temp("inexact.parquet");
        // 2^24 + 1 is not an `f32`; 2^31 is not an `i32`; 0.1 is not an `f32`.
        let mut i64s: Vec<i64> = (0..n as i64).collect();
        i64s[bad] = (1 << 24) + 1;
        write::<Int64Type>(&path, &i64s, PER, &[], &w);
        let (place, reason) = refusal::<F32>(&path);
        inexact(place, reason)?;
        let mut u32s: Vec<u32> = (0..n as u32).collect();
        u32s[bad] = 1 << 31;
        write::<UInt32Type>(&path, &u32s, PER, &[], &w);
        let (place, reason) = refusal::<I32>(&path);
        inexact(place, reason)?;
        let mut f64s: Vec<f64> = (0..n).map(|i| i as f64).collect();
        f64s[bad] = 0.1;
        write::<Float64Type>(&path, &f64s, PER, &[], &w);
        let (place, reason) = refusal::<F32>(&path);
        inexact(place, reason)?;
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    #[test]
    fn every_way_of_writing_reads_back_the_values(
        w in writing(),
        rows in 0usize..120,
        seed: u32,
        run in prop_oneof![Just(1usize), 1usize..40],
    ) {
        let per = if w.list == 2 { 1 } else { PER };
        let n = rows * per;
        // Values in runs of `run` (repeated dictionary indices, which the writer encodes as
        // runs of one value where it bit-packs others).
        let v = |i: usize| (seed as usize).wrapping_mul(31).wrapping_add(i / run * 7919) % 1000;
        let (_dir, path) = temp("x.parquet");
        if w.list == 2 {
            let want: Vec<f32> = (0..n).map(|i| v(i) as f32 * 0.5 - 100.0).collect();
            write::<Float32Type>(&path, &want, 1, &[], &w);
            read_both::<One, f32>(&path, &want, |r| r.x.array().iter().copied().collect())?;
        } else {
            let f32s: Vec<f32> = (0..n).map(|i| v(i) as f32 * 0.25 - 7.0).collect();
            write::<Float32Type>(&path, &f32s, PER, &[], &w);
            read_both::<F32, f32>(&path, &f32s, |r| r.x.array().iter().copied().collect())?;
            let f64s: Vec<f64> = (0..n).map(|i| v(i) as f64 * -0.125).collect();
            write::<Float64Type>(&path, &f64s, PER, &[], &w);
            read_both::<F64, f64>(&path, &f64s, |r| r.x.array().iter().copied().collect())?;
            let i32s: Vec<i32> = (0..n).map(|i| v(i) as i32 - 500).collect();
            write::<Int32Type>(&path, &i32s, PER, &[], &w);
            read_both::<I32, i32>(&path, &i32s, |r| r.x.array().iter().copied().collect())?;
            let i64s: Vec<i64> = (0..n).map(|i| (v(i) as i64) << 33).collect();
            write::<Int64Type>(&path, &i64s, PER, &[], &w);
            read_both::<I64, i64>(&path, &i64s, |r| r.x.array().iter().copied().collect())?;
        }
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    #[test]
    fn a_null_is_refused_at_its_row(w in writing(), rows in 1usize..60, at: prop::sample::Index) {
        let per = if w.list == 2 { 1 } else { PER };
        let values: Vec<f32> = (0..rows * per).map(|i| i as f32).collect();
        let null = at.index(values.len());
        let (_dir, path) = temp("null.parquet");
        write::<Float32Type>(&path, &values, per, &[null], &w);
        let (place, reason) = if per == 1 { refusal::<One>(&path) } else { refusal::<F32>(&path) };
        prop_assert_eq!(place, Place::Column { name: "x".into(), row: Some((null / per) as u64) });
        prop_assert_eq!(reason, LoadReason::Null);
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    #[test]
    fn a_nan_is_refused_at_its_row_when_asked(w in writing(), rows in 1usize..60, at: prop::sample::Index) {
        let mut values: Vec<f32> = (0..rows * PER).map(|i| i as f32).collect();
        let nan = at.index(values.len());
        values[nan] = f32::NAN;
        let w = Writing { list: w.list % 2, ..w };
        let (_dir, path) = temp("nan.parquet");
        write::<Float32Type>(&path, &values, PER, &[], &w);
        let files = ParquetFiles::open(&path).unwrap().non_finite(NonFinite::Refuse);
        let err = Dataset::<F32>::load(&mut { files }).map(drop).unwrap_err();
        let (place, _) = file_error(err);
        prop_assert_eq!(place, Place::Column { name: "x".into(), row: Some((nan / PER) as u64) });
        // Kept by default, bit for bit.
        let kept = Dataset::<F32>::load(&mut ParquetFiles::open(&path).unwrap()).unwrap();
        prop_assert!(kept.fields().x.array().iter().nth(nan).unwrap().is_nan());
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }
}

/// Rows of 64 values, whose levels the writer encodes in runs (most of a row's 63 repetition
/// levels of 1 are one run), where rows of 3 are bit-packed.
#[derive(DataSpec)]
struct Wide {
    #[spec(source = "x")]
    x: Batch<Vector<64>>,
}

/// A `List` column of rows of `lengths` values, written in pages of `page_rows` rows.
fn list_file(lengths: &[usize], page_rows: usize) -> (tempfile::TempDir, PathBuf) {
    let item = Arc::new(Field::new("item", DataType::Float32, false));
    let total: usize = lengths.iter().sum();
    let flat = PrimitiveArray::<Float32Type>::from_iter_values((0..total).map(|i| i as f32));
    let list = ListArray::try_new(
        item.clone(),
        OffsetBuffer::from_lengths(lengths.iter().copied()),
        Arc::new(flat),
        None,
    )
    .unwrap();
    let schema = Arc::new(Schema::new(vec![Field::new(
        "x",
        DataType::List(item),
        false,
    )]));
    let (dir, path) = temp("lengths.parquet");
    let props = WriterProperties::builder()
        .set_data_page_row_count_limit(page_rows)
        .set_write_batch_size(1)
        .build();
    let mut writer = ArrowWriter::try_new(
        std::fs::File::create(&path).unwrap(),
        schema.clone(),
        Some(props),
    )
    .unwrap();
    writer
        .write(&RecordBatch::try_new(schema, vec![Arc::new(list) as ArrayRef]).unwrap())
        .unwrap();
    writer.close().unwrap();
    (dir, path)
}

#[test]
fn a_list_of_another_length_is_refused_at_its_row() {
    // Rows of 3 (or 64) values but one: a `List` column the direct path reads until its
    // repetition levels show the row, then the Arrow path names it. A short row alone leaves the
    // column short of values; a long row and a short one (of 4 and 2, of 1 and 5...) leave it as
    // many values as rows of the sample's length would, so only the levels tell (nine rows of
    // one value make a run of nine levels 0); in pages of any size (one row a page, or all of
    // them in one).
    let rows_of_3: [(&[usize], u64, usize); 4] = [
        (&[3, 3, 3, 3, 2, 3], 4, 2),
        (&[3, 4, 2, 3], 1, 4),
        (&[3, 3, 3, 3, 3, 3, 3, 3, 3, 1, 5, 3], 9, 1),
        (&[1, 1, 1, 1, 1, 1, 1, 1, 1, 21], 0, 1),
    ];
    let rows_of_64: [(&[usize], u64, usize); 3] = [
        (&[64, 64, 70, 58, 64], 2, 70),
        (&[64, 63, 65], 1, 63),
        (&[64, 64, 64, 1, 127, 64], 3, 1),
    ];
    for page_rows in [1, 2, 1000] {
        for (per, (lengths, row, found)) in rows_of_3
            .iter()
            .map(|c| (3, c))
            .chain(rows_of_64.iter().map(|c| (64, c)))
        {
            let (_dir, path) = list_file(lengths, page_rows);
            let (place, reason) = if per == 3 {
                refusal::<F32>(&path)
            } else {
                refusal::<Wide>(&path)
            };
            let case = format!("rows of {lengths:?}, pages of {page_rows} rows");
            assert_eq!(
                place,
                Place::Column {
                    name: "x".into(),
                    row: Some(*row)
                },
                "{case}"
            );
            assert!(
                matches!(
                    reason,
                    LoadReason::RowLength { found: f, expected: e, .. } if f == *found && e == per
                ),
                "{case}: {reason:?}"
            );
        }
    }
}

fn file_error(err: LoadError) -> (Place, LoadReason) {
    match err {
        LoadError::File { place, reason, .. } => (place, *reason),
        other => panic!("not a file error: {other}"),
    }
}

/// Where and why loading the file at `path` into `R` is refused.
fn refusal<R: batchspec::load::LoadRecord>(path: &Path) -> (Place, LoadReason) {
    file_error(
        Dataset::<R>::load(&mut ParquetFiles::open(path).unwrap())
            .map(drop)
            .unwrap_err(),
    )
}

#[test]
fn a_dictionary_page_of_nulls_only_is_read_as_the_nulls_it_holds() {
    // The `parquet` crate writes a data page of nulls only with dictionary encoding as the
    // indices' bit width alone (one byte of values for no value): a valid page, refused as a
    // lie by the page checks before they looked at the encoding. Now the null is what is
    // refused, at its row, on pages v1 and v2.
    for v2 in [false, true] {
        let w = Writing {
            list: 2,
            nullable: true,
            dictionary: true,
            dictionary_bytes: None,
            v2,
            snappy: false,
            page_rows: 1,
            group_rows: 1,
        };
        let (_dir, path) = temp("nulls.parquet");
        write::<Float32Type>(&path, &[0.0, 1.0], 1, &[0, 1], &w);
        let (place, reason) = refusal::<One>(&path);
        assert_eq!(
            place,
            Place::Column {
                name: "x".into(),
                row: Some(0)
            },
            "v2 {v2}"
        );
        assert_eq!(reason, LoadReason::Null);
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }
}

/// A file of the `int32` column `x` annotated as `declared` (`INTEGER(8,false)`), holding
/// `values` (the crate's own writer does not check them), in row groups of 3 rows, with the
/// writer's `props`.
fn annotated(
    declared: &str,
    values: &[i32],
    props: WriterProperties,
) -> (tempfile::TempDir, PathBuf) {
    use parquet::data_type::Int32Type as Physical;
    use parquet::file::writer::SerializedFileWriter;
    let (dir, path) = temp("annotated.parquet");
    let message = format!("message m {{ required int32 x ({declared}); }}");
    let schema = Arc::new(parquet::schema::parser::parse_message_type(&message).unwrap());
    let file = std::fs::File::create(&path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, Arc::new(props)).unwrap();
    for rows in values.chunks(3) {
        let mut group = writer.next_row_group().unwrap();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<Physical>()
            .write_batch(rows, None, None)
            .unwrap();
        column.close().unwrap();
        group.close().unwrap();
    }
    writer.close().unwrap();
    (dir, path)
}

#[derive(DataSpec)]
struct Classes {
    #[spec(source = "x")]
    x: Batch<Labels<100>>,
}

#[test]
fn a_value_outside_its_annotated_width_is_refused_at_its_row() {
    // 300 in a column of `u8`, which the Arrow reader reads as 44: refused at its row, read
    // by the direct path (into `f32`s, plain or dictionary-encoded, or in another encoding,
    // left to the Arrow path) or as labels (read by the Arrow path), in the third row group.
    let values = [1, 2, 3, 4, 5, 6, 7, 300, 9];
    let row = |row| Place::Column {
        name: "x".into(),
        row: Some(row),
    };
    let message =
        "cannot decode the Parquet data: the value 300 is stored in a column of u8 values";
    let plain = || WriterProperties::builder().set_dictionary_enabled(false);
    for props in [
        WriterProperties::builder().build(),
        plain().build(),
        plain()
            .set_encoding(parquet::basic::Encoding::DELTA_BINARY_PACKED)
            .build(),
    ] {
        let (_dir, path) = annotated("INTEGER(8,false)", &values, props);
        let (place, reason) = refusal::<One>(&path);
        assert_eq!((place, reason.to_string()), (row(7), message.into()));
        let (place, reason) = refusal::<Classes>(&path);
        assert_eq!((place, reason.to_string()), (row(7), message.into()));
    }
    // In range, the same column read.
    let in_range = [1, 2, 3, 4, 5, 6, 7, 44, 9];
    let (_dir, path) = annotated("INTEGER(8,false)", &in_range, plain().build());
    let labels = Dataset::<Classes>::load(&mut ParquetFiles::open(&path).unwrap()).unwrap();
    assert_eq!(labels.fields().x.array().iter().nth(7), Some(&44));
    // Signed 16 bits, in the legacy annotation.
    let (_dir, path) = annotated("INT_16", &[-32768, 32767, 40000], plain().build());
    let (place, reason) = refusal::<Classes>(&path);
    assert_eq!(place, row(2));
    assert!(
        reason
            .to_string()
            .ends_with("the value 40000 is stored in a column of i16 values"),
        "{reason}"
    );
}

#[test]
fn of_a_nan_and_an_inexact_value_the_first_row_is_named() {
    // Into `f32`s under `NonFinite::Refuse`: a NaN in row 1 and 0.1 in row 3, and the other
    // way around.
    for (nan, tenth, first) in [(4, 10, 1), (10, 4, 1)] {
        let mut values: Vec<f64> = (0..6 * PER).map(|i| i as f64).collect();
        values[nan] = f64::NAN;
        values[tenth] = 0.1;
        let (_dir, path) = temp("both.parquet");
        let w = Writing {
            list: 0,
            nullable: false,
            dictionary: true,
            dictionary_bytes: None,
            v2: false,
            snappy: false,
            page_rows: 2,
            group_rows: 6,
        };
        write::<Float64Type>(&path, &values, PER, &[], &w);
        let files = ParquetFiles::open(&path)
            .unwrap()
            .non_finite(NonFinite::Refuse);
        let err = Dataset::<F32>::load(&mut { files }).map(drop).unwrap_err();
        let (place, reason) = file_error(err);
        assert_eq!(
            place,
            Place::Column {
                name: "x".into(),
                row: Some(first)
            }
        );
        let nan_first = nan < tenth;
        assert_eq!(
            matches!(reason, LoadReason::NonFinite { .. }),
            nan_first,
            "{reason:?}"
        );
        assert_eq!(
            matches!(reason, LoadReason::Inexact { .. }),
            !nan_first,
            "{reason:?}"
        );
    }
}
