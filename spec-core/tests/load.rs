//! File loaders: round trips into derived records for CSV, IDX, .npy and .npz; the exact error
//! of each kind of bad file (file, line / offset / member, source); and property tests that feed
//! randomly corrupted files to every loader and require an `Ok` or an `Err`, never a panic.
//!
//! Every test writes its own files into a fresh directory under the system's temp dir, removed
//! when the test ends.

use batchspec::data::Dataset;
use batchspec::load::LeafSource;
use batchspec::load::LoadError;
use batchspec::load::{Column, CsvFile, IdxFiles, LoadReason, NonFinite, NpyFiles, NpzFile, Place};
use batchspec::prelude::*;
use ndarray::{Array1, Array2, Array3, Array4, ArrayD, IxDyn, array};
use ndarray_npy::{NpzWriter, WriteNpyExt};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

// ---------------------------------------------------------------------------------------------
// helpers

/// A directory of its own under the temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("batchspec-load-{}-{name}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The parts of a `LoadError::File`.
fn load_parts(err: &LoadError) -> (&Path, &Place, &'static str, &LoadReason) {
    match err {
        LoadError::File {
            file,
            place,
            source_name,
            reason,
        } => (file.as_path(), place, *source_name, &**reason),
        other => panic!("expected LoadError::File, got {other:?}"),
    }
}

fn line(line: u64, column: usize) -> Place {
    Place::Line {
        line,
        column: Some(column),
    }
}

/// An IDX file: magic, sizes, payload.
fn idx(code: u8, dims: &[u32], payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0, 0, code, dims.len() as u8];
    for d in dims {
        out.extend_from_slice(&d.to_be_bytes());
    }
    out.extend_from_slice(payload);
    out
}

fn npy_bytes<T: WriteNpyExt + ?Sized>(array: &T) -> Vec<u8> {
    let mut out = Vec::new();
    array.write_npy(&mut out).unwrap();
    out
}

// ---------------------------------------------------------------------------------------------
// records

/// Digits-like: 8×8 grey images, the same pixels as a flat f32 vector, and a label.
#[derive(DataSpec)]
struct Digits {
    #[spec(source = "features")]
    image: Batch<image![8, 8, 1; BHWC, u8]>,
    #[spec(source = "features")]
    flat: Batch<Vector<64>>,
    #[spec(source = "targets")]
    label: Batch<Index<10>>,
}

/// A small record of every kind of leaf, for the corrupted-file properties.
#[derive(DataSpec)]
struct Small {
    #[spec(source = "features")]
    image: Batch<image![2, 2, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Labels<3, u8>>,
}

/// Pixels as bytes, labels as i64.
#[derive(DataSpec)]
struct Mnist {
    #[spec(source = "features")]
    image: Batch<image![28, 28, 1; BHWC, u8]>,
    #[spec(source = "features")]
    flat: Batch<Vector<784>>,
    #[spec(source = "targets")]
    label: Batch<Labels<10>>,
}

/// Batch axis last: samples must be moved, not just reshaped.
#[derive(DataSpec)]
struct Chwb {
    #[spec(source = "features")]
    image: Batch<image![3, 2, 2; CHWB, i32]>,
}

fn pixel(sample: usize, i: usize) -> u8 {
    ((sample * 7 + i * 3) % 17) as u8
}

fn digits_csv(n: usize, header: bool) -> String {
    let mut s = String::new();
    if header {
        let names: Vec<String> = (0..64).map(|i| format!("p{i}")).collect();
        s.push_str(&names.join(","));
        s.push_str(",digit\n");
    }
    for sample in 0..n {
        for i in 0..64 {
            s.push_str(&format!("{},", pixel(sample, i)));
        }
        s.push_str(&format!("{}\n", sample % 10));
    }
    s
}

fn check_digits(ds: &Dataset<Digits>, n: usize) {
    assert_eq!(ds.len(), n);
    let r = ds.fields();
    for sample in 0..n {
        for i in 0..64 {
            assert_eq!(r.image.array()[[sample, i / 8, i % 8, 0]], pixel(sample, i));
            assert_eq!(r.flat.array()[[sample, i]], f32::from(pixel(sample, i)));
        }
        assert_eq!(r.label.array()[[sample, 0]], (sample % 10) as i64);
    }
}

// ---------------------------------------------------------------------------------------------
// CSV

#[test]
fn csv_round_trip_without_header_label_last() {
    let dir = TempDir::new("csv-plain");
    let path = dir.write("digits.csv", digits_csv(12, false));
    let ds = Dataset::<Digits>::load(&mut CsvFile::new(&path).label_column(Column::Last)).unwrap();
    check_digits(&ds, 12);
    // The same with the index of the label column.
    let ds = Dataset::<Digits>::load(&mut CsvFile::new(&path).label_column(64)).unwrap();
    check_digits(&ds, 12);
}

#[test]
fn csv_round_trip_with_header_label_by_name_and_other_sources() {
    #[derive(DataSpec)]
    struct Renamed {
        #[spec(source = "y")]
        y: Batch<Labels<4, u8>>,
        #[spec(source = "x")]
        x: Batch<Vector<3, i16>>,
    }
    let dir = TempDir::new("csv-header");
    let path = dir.write(
        "iris.csv",
        "\u{feff}y, a, b, c\n3, -1, 2, 300\n\n0, 4.0, 5, -6\n",
    );
    let mut csv = CsvFile::new(&path)
        .has_header(true)
        .label_column("y")
        .label_source("y")
        .feature_source("x");
    let ds = Dataset::<Renamed>::load(&mut csv).unwrap();
    assert_eq!(ds.fields().y.array(), &array![3u8, 0]);
    assert_eq!(ds.fields().x.array(), &array![[-1i16, 2, 300], [4, 5, -6]]);
}

#[test]
fn csv_fills_a_space_whose_batch_axis_is_last() {
    let dir = TempDir::new("csv-chwb");
    let mut text = String::new();
    for b in 0..3 {
        let row: Vec<String> = (0..12).map(|i| (100 * b + i).to_string()).collect();
        text.push_str(&row.join(","));
        text.push('\n');
    }
    let path = dir.write("chwb.csv", text);
    let ds = Dataset::<Chwb>::load(&mut CsvFile::new(&path)).unwrap();
    let a = ds.fields().image.array();
    assert_eq!(a.shape(), &[2, 3, 2, 3]);
    for b in 0..3 {
        for c in 0..2 {
            for h in 0..3 {
                for w in 0..2 {
                    // A row is one sample in the space's memory order without b: c, h, w.
                    let i = c * 6 + h * 2 + w;
                    assert_eq!(a[[c, h, w, b]], (100 * b + i) as i32);
                }
            }
        }
    }
}

#[test]
fn csv_empty_file_is_an_empty_dataset() {
    let dir = TempDir::new("csv-empty");
    let path = dir.write("empty.csv", "");
    let ds = Dataset::<Digits>::load(&mut CsvFile::new(&path).label_column(Column::Last)).unwrap();
    assert_eq!(ds.len(), 0);
}

/// Loads `text` as a `Digits`-like CSV file and returns the error.
fn csv_error(text: &str, configure: impl FnOnce(CsvFile) -> CsvFile) -> (PathBuf, LoadError) {
    #[derive(DataSpec)]
    struct Row {
        #[spec(source = "features")]
        x: Batch<Vector<3, u8>>,
        #[spec(source = "targets")]
        y: Batch<Labels<10>>,
    }
    let dir = TempDir::new("csv-bad");
    let path = dir.write("digits.csv", text);
    let mut csv = configure(CsvFile::new(&path));
    let err = Dataset::<Row>::load(&mut csv).err().expect("an error");
    (path, err)
}

#[test]
fn csv_fractional_value_into_u8_names_line_and_column() {
    let (path, err) = csv_error("1,2,3,4\n5,3.5,7,8\n", |c| c.label_column(Column::Last));
    assert_eq!(
        err.to_string(),
        format!(
            "{} line 2, column 2 (source `features`): the value 3.5 does not convert exactly to u8",
            path.display()
        )
    );
    let (file, place, source, reason) = load_parts(&err);
    assert_eq!(
        (file, place, source),
        (path.as_path(), &line(2, 2), "features")
    );
    assert_eq!(
        reason,
        &LoadReason::Inexact {
            value: "3.5".into(),
            elem: "u8"
        }
    );
}

#[test]
fn csv_value_too_large_for_u8_counts_the_header_line() {
    let (path, err) = csv_error("a,b,c,y\n1,2,3,4\n5,6,300,8\n", |c| {
        c.has_header(true).label_column("y")
    });
    assert_eq!(
        err.to_string(),
        format!(
            "{} line 3, column 3 (source `features`): the value 300 does not convert exactly to u8",
            path.display()
        )
    );
}

#[test]
fn csv_unparsable_field() {
    let (path, err) = csv_error("1,2,3,4\n5,six,7,8\n", |c| c.label_column(Column::Last));
    assert_eq!(
        err.to_string(),
        format!(
            "{} line 2, column 2 (source `features`): `six` is not a number",
            path.display()
        )
    );
}

#[test]
fn csv_label_not_below_max_labels() {
    let mut text = String::new();
    for i in 0..11 {
        text.push_str(&format!("1,2,3,{}\n", i.min(9)));
    }
    text.push_str("1,2,3,10\n");
    let (path, err) = csv_error(&text, |c| c.label_column(3));
    assert_eq!(
        err.to_string(),
        format!(
            "{} line 12, column 4 (source `targets`): label 10 is not in 0..10",
            path.display()
        )
    );
    assert_eq!(
        load_parts(&err).3,
        &LoadReason::Label {
            value: "10".into(),
            max_labels: 10
        }
    );
}

#[test]
fn csv_negative_label_is_never_wrapped() {
    let (path, err) = csv_error("label,a,b,c\n-1,1,2,3\n", |c| {
        c.has_header(true).label_column(0)
    });
    assert_eq!(
        err.to_string(),
        format!(
            "{} line 2, column 1 (source `targets`): label -1 is not in 0..10",
            path.display()
        )
    );
}

#[test]
fn csv_fractional_label() {
    let (_, err) = csv_error("1,2,3,2.5\n", |c| c.label_column(Column::Last));
    assert_eq!(
        load_parts(&err).3,
        &LoadReason::Label {
            value: "2.5".into(),
            max_labels: 10
        }
    );
}

#[test]
fn csv_row_of_another_length() {
    let (path, err) = csv_error("1,2,3,4\n5,6,7\n", |c| c.label_column(Column::Last));
    assert_eq!(
        err.to_string(),
        format!(
            "{} line 2 (source `features`): the row has 3 fields, but the first row has 4",
            path.display()
        )
    );
}

#[test]
fn csv_columns_that_do_not_fit_the_space() {
    let (path, err) = csv_error("1,2,3,4,5\n", |c| c.label_column(Column::Last));
    assert_eq!(
        err.to_string(),
        format!(
            "{} line 1 (source `features`): vector 3 bf u8 holds 3 values per sample, but the file has 4 feature columns",
            path.display()
        )
    );
    // Without a label column every column is a feature, and the labels have no column.
    let (path, err) = csv_error("1,2,3\n", |c| c);
    assert_eq!(
        err.to_string(),
        format!(
            "{} (source `targets`): no label column or label file is chosen (see `CsvFile::label_column`, `CsvFile::label_file` and `CsvFile::zero_labels`)",
            path.display()
        )
    );
}

#[test]
fn csv_label_column_errors() {
    let (path, err) = csv_error("a,b,c,y\n1,2,3,4\n", |c| {
        c.has_header(true).label_column("label")
    });
    assert_eq!(
        err.to_string(),
        format!(
            "{} line 1 (source `features`): the header has no column named `label`",
            path.display()
        )
    );
    let (_, err) = csv_error("1,2,3,4\n", |c| c.label_column("label"));
    assert_eq!(
        load_parts(&err).3,
        &LoadReason::NoHeader {
            name: "label".into()
        }
    );
    let (_, err) = csv_error("1,2,3,4\n", |c| c.label_column(9));
    assert_eq!(
        load_parts(&err).3,
        &LoadReason::ColumnPastEnd {
            column: 10,
            columns: 4
        }
    );
}

#[test]
fn csv_unknown_source_and_missing_file() {
    #[derive(DataSpec)]
    struct Masked {
        #[spec(source = "mask")]
        m: Batch<Vector<3>>,
    }
    let dir = TempDir::new("csv-source");
    let path = dir.write("a.csv", "1,2,3,4\n");
    let err = Dataset::<Masked>::load(&mut CsvFile::new(&path).label_column(Column::Last))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "the CSV file {} has nothing for source `mask` (field `m`): it serves features, targets",
            path.display()
        )
    );
    let missing = dir.path("missing.csv");
    let err = Dataset::<Digits>::load(&mut CsvFile::new(&missing).label_column(Column::Last))
        .err()
        .unwrap();
    let (file, place, source, reason) = load_parts(&err);
    assert_eq!(
        (file, place, source),
        (missing.as_path(), &Place::File, "features")
    );
    assert!(matches!(
        reason,
        LoadReason::Io {
            kind: std::io::ErrorKind::NotFound,
            ..
        }
    ));
}

/// MXNet's `CSVIter`: data and labels in two CSV files (`data_csv`, `label_csv`); without a
/// label file, labels of 0.
#[test]
fn csv_data_and_label_files() {
    #[derive(DataSpec)]
    struct Iter {
        #[spec(source = "features")]
        data: Batch<image![2, 2, 1; BHWC, u8]>,
        #[spec(source = "targets")]
        label: Batch<Vector<2>>,
    }
    let dir = TempDir::new("csv-label-file");
    let data = dir.write("data.csv", "1,2,3,4\r\n5,6,7,8\r\n\r\n9,10,11,12\r\n");
    let labels = dir.write("label.csv", "0.5,1\n2,3\n4,-5.25\n");
    let ds = Dataset::<Iter>::load(&mut CsvFile::new(&data).label_file(&labels)).unwrap();
    let r = ds.fields();
    assert_eq!(
        r.data.array().as_slice().unwrap(),
        (1..=12).collect::<Vec<u8>>()
    );
    assert_eq!(
        r.label.array(),
        &array![[0.5f32, 1.], [2., 3.], [4., -5.25]]
    );
    // With headers: both files have one, read alike.
    let data_h = dir.write("data_h.csv", "a,b,c,d\n1,2,3,4\n");
    let labels_h = dir.write("label_h.csv", "y0,y1\n7,8\n");
    let ds =
        Dataset::<Iter>::load(&mut CsvFile::new(&data_h).has_header(true).label_file(&labels_h))
            .unwrap();
    assert_eq!(ds.fields().label.array(), &array![[7f32, 8.]]);

    // No label file: labels of 0, one per row of the data (the blank line is not a row).
    let ds = Dataset::<Iter>::load(&mut CsvFile::new(&data).zero_labels()).unwrap();
    assert_eq!(ds.len(), 3);
    assert_eq!(ds.fields().label.array(), &Array2::<f32>::zeros((3, 2)));
    // ...which is never implied: without it a label leaf is an error.
    let err = Dataset::<Iter>::load(&mut CsvFile::new(&data))
        .err()
        .unwrap();
    assert_eq!(load_parts(&err).3, &LoadReason::NoLabelColumn);

    // A bad value in the label file names the label file, its line and column.
    let bad = dir.write("bad.csv", "1,2\n3,x\n5,6\n");
    let err = Dataset::<Iter>::load(&mut CsvFile::new(&data).label_file(&bad))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "{} line 2, column 2 (source `targets`): `x` is not a number",
            bad.display()
        )
    );
    // A label file of another width names the label file.
    let wide = dir.write("wide.csv", "1,2,3\n");
    let err = Dataset::<Iter>::load(&mut CsvFile::new(&data).label_file(&wide))
        .err()
        .unwrap();
    assert_eq!(load_parts(&err).0, wide.as_path());
    // Files of different numbers of rows: both named.
    let short = dir.write("short.csv", "1,2\n3,4\n");
    let err = Dataset::<Iter>::load(&mut CsvFile::new(&data).label_file(&short))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "the leaves read disagree on the number of samples: field `data` (source `features`, file {}) holds 3, but field `label` (source `targets`, file {}) holds 2",
            data.display(),
            short.display()
        )
    );
    // A missing label file is an error naming it, not zeros.
    let missing = dir.path("missing.csv");
    let err = Dataset::<Iter>::load(&mut CsvFile::new(&data).label_file(&missing))
        .err()
        .unwrap();
    assert_eq!(load_parts(&err).0, missing.as_path());
}

// ---------------------------------------------------------------------------------------------
// IDX

fn mnist_files(dir: &TempDir, n: usize) -> (PathBuf, PathBuf) {
    let pixels: Vec<u8> = (0..n * 784).map(|i| (i % 251) as u8).collect();
    let labels: Vec<u8> = (0..n).map(|i| (i * 3 % 10) as u8).collect();
    let images = dir.write(
        "train-images-idx3-ubyte",
        idx(0x08, &[n as u32, 28, 28], &pixels),
    );
    let labels = dir.write("train-labels-idx1-ubyte", idx(0x08, &[n as u32], &labels));
    (images, labels)
}

#[test]
fn idx_round_trip_mnist_pair() {
    let dir = TempDir::new("idx-mnist");
    let (images, labels) = mnist_files(&dir, 5);
    let ds = Dataset::<Mnist>::load(&mut IdxFiles::mnist(&images, &labels)).unwrap();
    assert_eq!(ds.len(), 5);
    let r = ds.fields();
    for s in 0..5 {
        for i in 0..784 {
            let v = ((s * 784 + i) % 251) as u8;
            assert_eq!(r.image.array()[[s, i / 28, i % 28, 0]], v);
            assert_eq!(r.flat.array()[[s, i]], f32::from(v));
        }
        assert_eq!(r.label.array()[s], (s * 3 % 10) as i64);
    }
    // A vector of 784 also takes a flat file, and an image takes it in its memory order.
    let pixels: Vec<u8> = (0..5 * 784).map(|i| (i % 251) as u8).collect();
    let flat = dir.write("flat", idx(0x08, &[5, 784], &pixels));
    let ds = Dataset::<Mnist>::load(&mut IdxFiles::mnist(&flat, &labels)).unwrap();
    assert_eq!(
        ds.fields().image.array()[[4, 27, 27, 0]],
        ((5 * 784 - 1) % 251) as u8
    );
}

#[test]
fn idx_round_trip_wider_types() {
    #[derive(DataSpec)]
    struct Wide {
        #[spec(source = "a")]
        a: Batch<Vector<2, i32>>,
        #[spec(source = "b")]
        b: Batch<Vector<2, f32>>,
        #[spec(source = "c")]
        c: Batch<Vector<2, f32>>,
        #[spec(source = "d")]
        d: Batch<Index<5, 1, i8>>,
        #[spec(source = "e")]
        e: Batch<Vector<2, i8>>,
    }
    let dir = TempDir::new("idx-wide");
    let i16s: Vec<u8> = [-300i16, 2, 3, 32767]
        .iter()
        .flat_map(|v| v.to_be_bytes())
        .collect();
    let f32s: Vec<u8> = [0.5f32, -1.25, 3.0, 1e-3]
        .iter()
        .flat_map(|v| v.to_be_bytes())
        .collect();
    let f64s: Vec<u8> = [0.5f64, -1.25, 3.0, 16_777_216.0]
        .iter()
        .flat_map(|v| v.to_be_bytes())
        .collect();
    let i32s: Vec<u8> = [4i32, 0].iter().flat_map(|v| v.to_be_bytes()).collect();
    let mut files = IdxFiles::new()
        .file("a", dir.write("a", idx(0x0B, &[2, 2], &i16s)))
        .file("b", dir.write("b", idx(0x0D, &[2, 2], &f32s)))
        .file("c", dir.write("c", idx(0x0E, &[2, 2], &f64s)))
        .file("d", dir.write("d", idx(0x0C, &[2], &i32s)))
        .file(
            "e",
            dir.write("e", idx(0x09, &[2, 2], &[0x80, 0x7f, 0xff, 1])),
        );
    let ds = Dataset::<Wide>::load(&mut files).unwrap();
    let r = ds.fields();
    assert_eq!(r.a.array(), &array![[-300, 2], [3, 32767]]);
    assert_eq!(r.b.array(), &array![[0.5, -1.25], [3.0, 1e-3]]);
    assert_eq!(r.c.array(), &array![[0.5, -1.25], [3.0, 16_777_216.0]]);
    assert_eq!(r.d.array(), &array![[4i8], [0]]);
    assert_eq!(r.e.array(), &array![[-128i8, 127], [-1, 1]]);
}

/// Loads `images` and `labels` (bytes) into `Mnist` and returns the error.
fn idx_error(images: &[u8], labels: &[u8]) -> (PathBuf, PathBuf, LoadError) {
    let dir = TempDir::new("idx-bad");
    let i = dir.write("images.idx", images);
    let l = dir.write("labels.idx", labels);
    let err = Dataset::<Mnist>::load(&mut IdxFiles::mnist(&i, &l))
        .err()
        .expect("an error");
    (i, l, err)
}

fn good_labels(n: u32) -> Vec<u8> {
    idx(0x08, &[n], &vec![1; n as usize])
}

#[test]
fn idx_wrong_magic() {
    // A gzip file that was not unpacked.
    let (images, _, err) = idx_error(&[0x1f, 0x8b, 0x08, 0x08, 0, 0], &good_labels(1));
    assert_eq!(
        err.to_string(),
        format!(
            "{} byte 0 (source `features`): wrong magic 0x1f 0x8b 0x08 0x08: an IDX file starts with 0x00 0x00, a type byte and the rank",
            images.display()
        )
    );
}

#[test]
fn idx_unknown_type_byte_and_rank_zero() {
    let (_, _, err) = idx_error(&idx(0x07, &[1, 28, 28], &[]), &good_labels(1));
    assert_eq!(load_parts(&err).1, &Place::Offset(2));
    assert_eq!(load_parts(&err).3, &LoadReason::IdxType { code: 7 });
    let (_, _, err) = idx_error(&[0, 0, 8, 0], &good_labels(1));
    assert_eq!(load_parts(&err).1, &Place::Offset(3));
    assert_eq!(load_parts(&err).3, &LoadReason::RankZero);
}

#[test]
fn idx_truncated_payload_names_the_offset() {
    let full = idx(0x08, &[2, 28, 28], &[7; 2 * 784]);
    let (images, _, err) = idx_error(&full[..1000], &good_labels(2));
    assert_eq!(
        err.to_string(),
        format!(
            "{} byte 1000 (source `features`): the file ends at byte 1000, but its header announces 1584 bytes",
            images.display()
        )
    );
    // A header cut short.
    let (_, _, err) = idx_error(&full[..9], &good_labels(2));
    assert_eq!(load_parts(&err).1, &Place::Offset(9));
    assert_eq!(
        load_parts(&err).3,
        &LoadReason::Truncated {
            expected: 16,
            actual: 9
        }
    );
    // Bytes after the payload.
    let mut long = full.clone();
    long.push(0);
    let (_, _, err) = idx_error(&long, &good_labels(2));
    assert_eq!(load_parts(&err).1, &Place::Offset(1584));
}

#[test]
fn idx_shape_that_does_not_fit_the_spec() {
    let (images, _, err) = idx_error(&idx(0x08, &[2, 28, 27], &[0; 2 * 28 * 27]), &good_labels(2));
    assert_eq!(
        err.to_string(),
        format!(
            "{} byte 4 (source `features`): shape (2, 28, 27) does not fit image 28×28×1 bhwc u8",
            images.display()
        )
    );
    // Labels of rank 2.
    let (_, labels, err) = idx_error(
        &idx(0x08, &[2, 28, 28], &[0; 2 * 784]),
        &idx(0x08, &[2, 2], &[0; 4]),
    );
    let (file, place, source, _) = load_parts(&err);
    assert_eq!(
        (file, place, source),
        (labels.as_path(), &Place::Offset(4), "targets")
    );
    // Sizes that overflow.
    let (_, _, err) = idx_error(
        &idx(0x08, &[u32::MAX, u32::MAX, u32::MAX, u32::MAX], &[]),
        &good_labels(2),
    );
    assert!(matches!(
        load_parts(&err).3,
        LoadReason::Shape { .. } | LoadReason::Overflow { .. }
    ));
}

#[test]
fn idx_label_outside_range() {
    let images = idx(0x08, &[3, 28, 28], &[0; 3 * 784]);
    let (_, labels, err) = idx_error(&images, &idx(0x08, &[3], &[1, 10, 2]));
    assert_eq!(
        err.to_string(),
        format!(
            "{} byte 9 (source `targets`): label 10 is not in 0..10",
            labels.display()
        )
    );
    // -1 as a signed byte is -1, never 255 and never wrapped.
    let (_, _, err) = idx_error(&images, &idx(0x09, &[3], &[1, 2, 0xff]));
    assert_eq!(load_parts(&err).1, &Place::Offset(10));
    assert_eq!(
        load_parts(&err).3,
        &LoadReason::Label {
            value: "-1".into(),
            max_labels: 10
        }
    );
}

#[test]
fn idx_value_that_does_not_fit_the_element_type() {
    let mut pixels: Vec<u8> = [5i16; 784].iter().flat_map(|v| v.to_be_bytes()).collect();
    pixels[2 * 30..2 * 30 + 2].copy_from_slice(&300i16.to_be_bytes());
    let (images, _, err) = idx_error(&idx(0x0B, &[1, 28, 28], &pixels), &good_labels(1));
    assert_eq!(
        err.to_string(),
        format!(
            "{} byte 76 (source `features`): the value 300 does not convert exactly to u8",
            images.display()
        )
    );
}

#[test]
fn idx_unmapped_source_and_missing_file() {
    #[derive(DataSpec)]
    struct Masked {
        #[spec(source = "mask")]
        m: Batch<Vector<3>>,
    }
    let err = Dataset::<Masked>::load(&mut IdxFiles::mnist("a", "b"))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "the IDX loader has nothing for source `mask` (field `m`): it serves features, targets"
    );
    let dir = TempDir::new("idx-missing");
    let err = Dataset::<Mnist>::load(&mut IdxFiles::mnist(dir.path("no"), dir.path("nope")))
        .err()
        .unwrap();
    assert!(matches!(load_parts(&err).3, LoadReason::Io { .. }));
}

// ---------------------------------------------------------------------------------------------
// .npy and .npz

#[test]
fn npy_round_trip() {
    let dir = TempDir::new("npy-round");
    let pixels = Array3::<u8>::from_shape_fn((4, 28, 28), |(s, h, w)| (s + h * w) as u8);
    let labels = Array1::<i64>::from(vec![3, 1, 4, 1]);
    let x = dir.write("x.npy", npy_bytes(&pixels));
    let y = dir.write("y.npy", npy_bytes(&labels));
    let mut files = NpyFiles::new().file("features", &x).file("targets", &y);
    let ds = Dataset::<Mnist>::load(&mut files).unwrap();
    let r = ds.fields();
    assert_eq!(
        r.image.array(),
        &pixels
            .clone()
            .into_shape_with_order((4, 28, 28, 1))
            .unwrap()
    );
    assert_eq!(
        r.flat.array(),
        &pixels
            .mapv(f32::from)
            .into_shape_with_order((4, 784))
            .unwrap()
    );
    assert_eq!(r.label.array(), &labels);
}

#[test]
fn npy_exact_shape_fortran_order_and_batch_last() {
    let dir = TempDir::new("npy-order");
    // The exact memory-order shape of a chwb image, (2, 3, 2, n).
    let data = Array4::<i32>::from_shape_fn((2, 3, 2, 5), |(c, h, w, b)| {
        (c * 1000 + h * 100 + w * 10 + b) as i32
    });
    let path = dir.write("chwb.npy", npy_bytes(&data));
    let ds = Dataset::<Chwb>::load(&mut NpyFiles::new().file("features", &path)).unwrap();
    assert_eq!(ds.fields().image.array(), &data);
    // Samples first, (n, 2, 3, 2), moved to the batch-last layout.
    let first = data.clone().permuted_axes([3, 0, 1, 2]);
    let path = dir.write("bchw.npy", npy_bytes(&first.as_standard_layout()));
    let ds = Dataset::<Chwb>::load(&mut NpyFiles::new().file("features", &path)).unwrap();
    assert_eq!(ds.fields().image.array(), &data);
    // A Fortran-ordered array is read in its logical order.
    #[derive(DataSpec)]
    struct V {
        #[spec(source = "features")]
        v: Batch<Vector<3, f64>>,
    }
    let logical = Array2::<f64>::from_shape_fn((4, 3), |(i, j)| (i * 3 + j) as f64);
    let fortran = logical
        .t()
        .as_standard_layout()
        .into_owned()
        .reversed_axes();
    assert!(fortran.t().is_standard_layout());
    let bytes = npy_bytes(&fortran);
    assert!(String::from_utf8_lossy(&bytes[..128]).contains("'fortran_order': True"));
    let path = dir.write("f.npy", bytes);
    let ds = Dataset::<V>::load(&mut NpyFiles::new().file("features", &path)).unwrap();
    assert_eq!(ds.fields().v.array(), &logical);
}

#[test]
fn npy_values_convert_exactly_or_name_their_offset() {
    #[derive(DataSpec)]
    struct F {
        #[spec(source = "features")]
        v: Batch<Vector<2, f32>>,
    }
    let dir = TempDir::new("npy-exact");
    let ok = dir.write("ok.npy", npy_bytes(&array![[0.5f64, 2.0], [-1.0, 8.0]]));
    let ds = Dataset::<F>::load(&mut NpyFiles::new().file("features", &ok)).unwrap();
    assert_eq!(ds.fields().v.array(), &array![[0.5f32, 2.0], [-1.0, 8.0]]);
    let bad = dir.write("bad.npy", npy_bytes(&array![[0.5f64, 2.0], [0.1, 8.0]]));
    let err = Dataset::<F>::load(&mut NpyFiles::new().file("features", &bad))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "{} byte 144 (source `features`): the value 0.1 does not convert exactly to f32",
            bad.display()
        )
    );
}

#[test]
fn npy_bad_files() {
    let dir = TempDir::new("npy-bad");
    let labels = dir.write("y.npy", npy_bytes(&array![1i64, 2]));
    let load = |x: &Path| {
        Dataset::<Mnist>::load(&mut NpyFiles::new().file("features", x).file("targets", &labels))
            .err()
            .expect("an error")
    };
    let good = npy_bytes(&Array3::<u8>::zeros((2, 28, 28)));

    let x = dir.write("magic.npy", b"PK\x03\x04 not an npy file");
    let err = load(&x);
    assert_eq!(
        err.to_string(),
        format!(
            "{} byte 0 (source `features`): wrong magic 0x50 0x4b 0x03 0x04 0x20 0x6e: an .npy file starts with 0x93 NUMPY",
            x.display()
        )
    );

    let x = dir.write("short.npy", &good[..good.len() - 10]);
    let err = load(&x);
    assert_eq!(
        err.to_string(),
        format!(
            "{} byte {} (source `features`): the file ends at byte {}, but its header announces {} bytes",
            x.display(),
            good.len() - 10,
            good.len() - 10,
            good.len()
        )
    );

    let x = dir.write("shape.npy", npy_bytes(&Array3::<u8>::zeros((2, 28, 27))));
    let err = load(&x);
    assert_eq!(
        err.to_string(),
        format!(
            "{} byte 10 (source `features`): shape (2, 28, 27) does not fit image 28×28×1 bhwc u8",
            x.display()
        )
    );

    let x = dir.write(
        "bool.npy",
        npy_bytes(&ArrayD::<bool>::from_elem(IxDyn(&[2, 784]), true)),
    );
    let err = load(&x);
    assert_eq!(
        load_parts(&err).3,
        &LoadReason::Dtype {
            dtype: "'|b1'".into()
        }
    );

    let ys = dir.write("bad-labels.npy", npy_bytes(&array![1i64, -1]));
    let xs = dir.write("good.npy", &good);
    let err =
        Dataset::<Mnist>::load(&mut NpyFiles::new().file("features", &xs).file("targets", &ys))
            .err()
            .unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "{} byte 136 (source `targets`): label -1 is not in 0..10",
            ys.display()
        )
    );
}

/// An `.npz` archive of two members, stored uncompressed as `numpy.savez` does.
fn write_npz<A: WriteNpyExt, B: WriteNpyExt>(path: &Path, a: (&str, &A), b: (&str, &B)) {
    let mut npz = NpzWriter::new(std::fs::File::create(path).unwrap());
    npz.add_array(a.0, a.1).unwrap();
    npz.add_array(b.0, b.1).unwrap();
    npz.finish().unwrap();
}

#[test]
fn npz_round_trip_with_names_and_mapping() {
    let dir = TempDir::new("npz-round");
    let path = dir.path("mnist.npz");
    let pixels = Array3::<u8>::from_shape_fn((3, 28, 28), |(s, h, w)| (s * h + w) as u8);
    write_npz(&path, ("x", &pixels), ("targets", &array![9u8, 0, 5]));
    let ds = Dataset::<Mnist>::load(&mut NpzFile::new(&path).member("features", "x")).unwrap();
    assert_eq!(ds.fields().label.array(), &array![9i64, 0, 5]);
    assert_eq!(
        ds.fields().image.array(),
        &pixels.into_shape_with_order((3, 28, 28, 1)).unwrap()
    );
    // The member may be named with its suffix too.
    let ds = Dataset::<Mnist>::load(&mut NpzFile::new(&path).member("features", "x.npy")).unwrap();
    assert_eq!(ds.len(), 3);
}

/// `numpy.savez_compressed` archives, with the `compressed-npz` feature.
#[cfg(feature = "compressed-npz")]
#[test]
fn compressed_npz_round_trip() {
    let dir = TempDir::new("npz-compressed");
    let path = dir.path("c.npz");
    let mut npz = NpzWriter::new_compressed(std::fs::File::create(&path).unwrap());
    npz.add_array("features", &Array3::<u8>::from_elem((2, 28, 28), 9))
        .unwrap();
    npz.add_array("targets", &array![4u8, 5]).unwrap();
    npz.finish().unwrap();
    let ds = Dataset::<Mnist>::load(&mut NpzFile::new(&path)).unwrap();
    assert_eq!(ds.fields().flat.array()[[1, 783]], 9.0);
    assert_eq!(ds.fields().label.array(), &array![4i64, 5]);
}

#[test]
fn npz_missing_member_and_bad_members() {
    let dir = TempDir::new("npz-bad");
    let path = dir.path("data.npz");
    write_npz(
        &path,
        ("features", &Array3::<u8>::zeros((2, 28, 28))),
        ("labels", &array![1i64, 2]),
    );
    let err = Dataset::<Mnist>::load(&mut NpzFile::new(&path))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "{} member `targets` (source `targets`): the archive has no such member (it has: features, labels)",
            path.display()
        )
    );
    let (_, place, _, _) = load_parts(&err);
    assert_eq!(
        place,
        &Place::Member {
            name: "targets".into(),
            offset: None
        }
    );

    // A label out of range inside a member names the member and the offset in it.
    write_npz(
        &path,
        ("features", &Array3::<u8>::zeros((2, 28, 28))),
        ("targets", &array![1i64, 12]),
    );
    let err = Dataset::<Mnist>::load(&mut NpzFile::new(&path))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "{} member `targets.npy`, byte 136 (source `targets`): label 12 is not in 0..10",
            path.display()
        )
    );

    // A shape that does not fit, in a member.
    write_npz(
        &path,
        ("features", &Array3::<u8>::zeros((2, 27, 28))),
        ("targets", &array![1i64, 2]),
    );
    let err = Dataset::<Mnist>::load(&mut NpzFile::new(&path))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "{} member `features.npy`, byte 10 (source `features`): shape (2, 27, 28) does not fit image 28×28×1 bhwc u8",
            path.display()
        )
    );

    // Not an archive.
    let junk = dir.write("junk.npz", b"this is not a zip archive at all");
    let err = Dataset::<Mnist>::load(&mut NpzFile::new(&junk))
        .err()
        .unwrap();
    let (_, place, source, reason) = load_parts(&err);
    assert_eq!((place, source), (&Place::File, "features"));
    assert!(matches!(reason, LoadReason::Zip { .. }), "{reason:?}");
}

#[test]
fn npy_unmapped_source() {
    let err = Dataset::<Small>::load(&mut NpyFiles::new().file("features", "x.npy"))
        .err()
        .unwrap();
    // The features come first and their file does not exist; a file for them that does is
    // needed to reach the targets.
    assert!(matches!(load_parts(&err).3, LoadReason::Io { .. }));
    let dir = TempDir::new("npy-unmapped");
    let x = dir.write("x.npy", npy_bytes(&Array3::<u8>::zeros((1, 2, 2))));
    let err = Dataset::<Small>::load(&mut NpyFiles::new().file("features", &x))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "the .npy loader has nothing for source `targets` (field `label`): it serves features"
    );
}

// ---------------------------------------------------------------------------------------------
// corrupted files: Ok or Err, never a panic

/// One corruption of a valid file.
#[derive(Debug, Clone)]
enum Corruption {
    /// Flip these bits (positions taken modulo the length).
    Flips(Vec<(usize, u8)>),
    /// Keep only this many bytes (modulo the length + 1).
    Truncate(usize),
    /// Overwrite a run of bytes at a position with random ones.
    Overwrite(usize, Vec<u8>),
    /// Replace the whole file.
    Random(Vec<u8>),
}

fn corruption() -> impl Strategy<Value = Corruption> {
    prop_oneof![
        prop::collection::vec((any::<usize>(), 0u8..8), 1..8).prop_map(Corruption::Flips),
        any::<usize>().prop_map(Corruption::Truncate),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(at, b)| Corruption::Overwrite(at, b)),
        prop::collection::vec(any::<u8>(), 0..96).prop_map(Corruption::Random),
    ]
}

fn corrupt(mut bytes: Vec<u8>, c: &Corruption) -> Vec<u8> {
    match c {
        Corruption::Flips(flips) => {
            if !bytes.is_empty() {
                let n = bytes.len();
                for &(at, bit) in flips {
                    bytes[at % n] ^= 1 << bit;
                }
            }
            bytes
        }
        Corruption::Truncate(keep) => {
            bytes.truncate(keep % (bytes.len() + 1));
            bytes
        }
        Corruption::Overwrite(at, run) => {
            if !bytes.is_empty() {
                let n = bytes.len();
                for (i, b) in run.iter().enumerate() {
                    bytes[(at + i) % n] = *b;
                }
            }
            bytes
        }
        Corruption::Random(r) => r.clone(),
    }
}

/// Loads a `Small` and checks that the outcome is a value or an error, never a panic (a panic
/// fails the property); an `Ok` holds the same number of samples in each leaf.
fn loads_or_errs<L: LeafSource>(source: &mut L) {
    match Dataset::<Small>::load(source) {
        Ok(ds) => {
            assert_eq!(ds.fields().image.len(), ds.len());
            assert_eq!(ds.fields().label.len(), ds.len());
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// A sequence space, whose time axis has no static size.
#[derive(DataSpec)]
struct Seq {
    #[spec(source = "features")]
    s: Batch<VectorSeq<2>>,
}

/// A Python tuple of `shape`, as an `.npy` header writes it.
fn py_tuple(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn small_idx() -> (Vec<u8>, Vec<u8>) {
    (
        idx(
            0x08,
            &[4, 2, 2],
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
        ),
        idx(0x08, &[4], &[0, 1, 2, 1]),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn corrupted_idx_files_never_panic(ci in corruption(), cl in corruption(), which in 0u8..3) {
        let dir = TempDir::new("prop-idx");
        let (images, labels) = small_idx();
        let images = if which != 1 { corrupt(images, &ci) } else { images };
        let labels = if which != 0 { corrupt(labels, &cl) } else { labels };
        let i = dir.write("i", images);
        let l = dir.write("l", labels);
        loads_or_errs(&mut IdxFiles::mnist(&i, &l));
    }

    #[test]
    fn random_idx_headers_never_panic(
        code in prop_oneof![Just(0x08u8), Just(0x09), Just(0x0B), Just(0x0C), Just(0x0D), Just(0x0E), any::<u8>()],
        dims in prop::collection::vec(prop_oneof![0u32..6, any::<u32>()], 0..5),
        payload in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let dir = TempDir::new("prop-idx-header");
        let i = dir.write("i", idx(code, &dims, &payload));
        let l = dir.write("l", idx(code, &dims.iter().take(1).copied().collect::<Vec<_>>(), &payload));
        loads_or_errs(&mut IdxFiles::mnist(&i, &l));
    }

    #[test]
    fn corrupted_csv_files_never_panic(
        c in corruption(),
        header in any::<bool>(),
        label in prop_oneof![Just(Column::Last), (0usize..7).prop_map(Column::Index), Just(Column::Name("y".into()))],
    ) {
        let dir = TempDir::new("prop-csv");
        let text = "a,b,c,d,y\n1,2,3,4,0\n5,6,7,8,1\n9,10,11,12,2\n";
        let path = dir.write("c.csv", corrupt(text.as_bytes().to_vec(), &c));
        loads_or_errs(&mut CsvFile::new(&path).has_header(header).label_column(label));
    }

    #[test]
    fn random_csv_text_never_panics(
        text in "[0-9,.eE+\\-\n\r\" a-z\u{feff}é]{0,160}",
        header in any::<bool>(),
        label in prop_oneof![Just(Column::Last), (0usize..7).prop_map(Column::Index)],
    ) {
        let dir = TempDir::new("prop-csv-text");
        let path = dir.write("c.csv", text);
        loads_or_errs(&mut CsvFile::new(&path).has_header(header).label_column(label));
    }

    #[test]
    fn corrupted_npy_files_never_panic(ci in corruption(), cl in corruption(), which in 0u8..3) {
        let dir = TempDir::new("prop-npy");
        let images = npy_bytes(&Array3::<u8>::from_shape_fn((3, 2, 2), |(a, b, c)| (a + b + c) as u8));
        let labels = npy_bytes(&array![0u8, 2, 1]);
        let images = if which != 1 { corrupt(images, &ci) } else { images };
        let labels = if which != 0 { corrupt(labels, &cl) } else { labels };
        let i = dir.write("i.npy", images);
        let l = dir.write("l.npy", labels);
        loads_or_errs(&mut NpyFiles::new().file("features", &i).file("targets", &l));
    }

    #[test]
    fn random_npy_headers_never_panic(
        descr in prop_oneof![
            prop::sample::select(vec![
                "'<f4'", "'|u1'", "'<i8'", "'>i2'", "'u1'", "'|b1'", "'<c8'", "[('a', '<f4')]",
            ])
            .prop_map(String::from),
            "'[a-z<>|=0-9]{0,4}'",
        ],
        fortran in any::<bool>(),
        shape in prop_oneof![
            4 => prop::collection::vec(
                prop_oneof![0usize..5, any::<usize>(), Just(1usize << 62), Just(usize::MAX)],
                0..5,
            ),
            // Empty, yet too large for ndarray: the shape that made ndarray-npy panic.
            1 => Just(vec![0, 1usize << 62, 2]),
            1 => Just(vec![1usize << 62, 0, 2]),
        ],
        payload in prop_oneof![Just(Vec::new()), prop::collection::vec(any::<u8>(), 0..64)],
        junk in "[ -~]{0,60}",
        use_junk in any::<bool>(),
    ) {
        let dir = TempDir::new("prop-npy-header");
        let header = if use_junk {
            junk
        } else {
            let f = if fortran { "True" } else { "False" };
            format!("{{'descr': {descr}, 'fortran_order': {f}, 'shape': {}, }}", py_tuple(&shape))
        };
        let x = dir.write("x.npy", npy_with_header(&header, &payload));
        let y = dir.write("y.npy", npy_bytes(&array![0u8]));
        loads_or_errs(&mut NpyFiles::new().file("features", &x).file("targets", &y));
        let _ = Dataset::<Seq>::load(&mut NpyFiles::new().file("features", &x));
    }

    #[test]
    fn corrupted_npz_files_never_panic(c in corruption()) {
        let dir = TempDir::new("prop-npz");
        let path = dir.path("a.npz");
        write_npz(&path, ("features", &Array3::<u8>::zeros((2, 2, 2))), ("targets", &array![1u8, 2]));
        let bytes = std::fs::read(&path).unwrap();
        let path = dir.write("b.npz", corrupt(bytes, &c));
        loads_or_errs(&mut NpzFile::new(&path));
    }
}

#[test]
fn sequences_load_from_npy_in_their_exact_shape_but_not_from_csv() {
    let dir = TempDir::new("seq");
    let data = Array3::<f32>::from_shape_fn((3, 4, 2), |(b, t, f)| (b * 100 + t * 10 + f) as f32);
    let path = dir.write("s.npy", npy_bytes(&data));
    let ds = Dataset::<Seq>::load(&mut NpyFiles::new().file("features", &path)).unwrap();
    assert_eq!(ds.fields().s.array(), &data);
    let csv = dir.write("s.csv", "1,2\n");
    let err = Dataset::<Seq>::load(&mut CsvFile::new(&csv)).err().unwrap();
    assert!(matches!(
        load_parts(&err).3,
        LoadReason::UnsupportedSpace { .. }
    ));
}

#[test]
fn deeply_nested_npy_header_is_an_error() {
    let dir = TempDir::new("npy-nested");
    let mut header = String::from("{'descr': ");
    header.push_str(&"(".repeat(5000));
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    let x = dir.write("x.npy", &bytes);
    let err = Dataset::<Small>::load(&mut NpyFiles::new().file("features", &x))
        .err()
        .unwrap();
    assert!(matches!(load_parts(&err).3, LoadReason::Npy { .. }));
}

/// An `.npy` file whose header is `header` (padded as the format asks) and payload `payload`.
fn npy_with_header(header: &str, payload: &[u8]) -> Vec<u8> {
    let mut text = header.to_owned();
    while !(10 + text.len() + 1).is_multiple_of(64) {
        text.push(' ');
    }
    text.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(text.len() as u16).to_le_bytes());
    bytes.extend_from_slice(text.as_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

#[test]
fn npy_empty_shape_too_large_for_ndarray_is_an_error() {
    let dir = TempDir::new("npy-huge-empty");
    let x = dir.write(
        "x.npy",
        npy_with_header(
            "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4611686018427387904, 2), }",
            &[],
        ),
    );
    let err = Dataset::<Seq>::load(&mut NpyFiles::new().file("features", &x))
        .err()
        .unwrap();
    assert!(
        matches!(load_parts(&err).3, LoadReason::Overflow { .. }),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// CSV places: the line and column a fault is reported at, against where it was planted

/// How a generated CSV file ends its lines.
#[derive(Clone, Copy, Debug)]
enum Eol {
    Lf,
    CrLf,
    Cr,
}

impl Eol {
    fn text(self) -> &'static str {
        match self {
            Eol::Lf => "\n",
            Eol::CrLf => "\r\n",
            Eol::Cr => "\r",
        }
    }
}

/// One generated file: rows of three u8 features and a label, one of them bad.
#[derive(Clone, Debug)]
struct Planted {
    rows: usize,
    bad_row: usize,
    bad_column: usize,
    eol: Eol,
    header: bool,
    bom: bool,
    /// Blank lines before each row (and before the header).
    blanks: Vec<usize>,
    /// Rows whose second field is quoted with a line end inside (`"2<eol>"`).
    quoted: Vec<bool>,
}

fn planted() -> impl Strategy<Value = Planted> {
    (
        1usize..12,
        any::<u64>(),
        0usize..3,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_flat_map(|(rows, pick, eol, header, bom)| {
            let eol = [Eol::Lf, Eol::CrLf, Eol::Cr][eol];
            (
                Just(rows),
                Just((pick % rows as u64) as usize),
                0usize..4,
                Just(eol),
                Just(header),
                Just(bom),
                proptest::collection::vec(0usize..3, rows + 1),
                proptest::collection::vec(any::<bool>(), rows),
            )
                .prop_map(
                    |(rows, bad_row, bad_column, eol, header, bom, blanks, quoted)| Planted {
                        rows,
                        bad_row,
                        bad_column,
                        eol,
                        header,
                        bom,
                        blanks,
                        quoted,
                    },
                )
        })
}

/// The file's text and the physical line (as an editor numbers it) of the bad row.
fn planted_text(p: &Planted) -> (String, u64) {
    let eol = p.eol.text();
    let mut text = String::new();
    let mut line = 1u64;
    if p.bom {
        text.push('\u{feff}');
    }
    let blank = |text: &mut String, line: &mut u64, n: usize| {
        for _ in 0..n {
            text.push_str(eol);
            *line += 1;
        }
    };
    if p.header {
        blank(&mut text, &mut line, p.blanks[p.rows]);
        text.push_str("a,b,c,label");
        text.push_str(eol);
        line += 1;
    }
    let mut bad_line = 0;
    for r in 0..p.rows {
        blank(&mut text, &mut line, p.blanks[r]);
        if r == p.bad_row {
            bad_line = line;
        }
        let mut fields: Vec<String> = vec!["1".into(), "2".into(), "3".into(), "4".into()];
        if r == p.bad_row {
            // Column 4 is the label: 10 is not in 0..10; elsewhere a word is not a number.
            fields[p.bad_column] = if p.bad_column == 3 { "10" } else { "x" }.into();
        }
        if p.quoted[r] && !(r == p.bad_row && p.bad_column == 1) {
            fields[1] = format!("\"{}{eol}\"", fields[1]);
        }
        text.push_str(&fields.join(","));
        text.push_str(eol);
        line += 1 + u64::from(p.quoted[r] && !(r == p.bad_row && p.bad_column == 1));
    }
    (text, bad_line)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every fault is reported at the line and column where it was planted, with LF, CRLF and
    /// lone CR line ends, blank lines, a header, a byte-order mark and quoted fields holding a
    /// line end.
    #[test]
    fn csv_faults_are_reported_where_they_are(p in planted()) {
        let (text, want_line) = planted_text(&p);
        let header = p.header;
        let (_, err) = csv_error(&text, |c| c.label_column(Column::Last).has_header(header));
        let (_, place, _, reason) = load_parts(&err);
        prop_assert_eq!(place, &line(want_line, p.bad_column + 1), "{:?} in {:?}", reason, text);
    }
}

#[test]
fn csv_lines_after_crlf_and_blank_lines() {
    // The two cases of the issue, by hand: a bad label on line 2 of a CRLF file, and on line 3
    // after a blank line.
    let (_, err) = csv_error("1,2,3,7\r\n4,5,6,10\r\n", |c| c.label_column(Column::Last));
    assert_eq!(load_parts(&err).1, &line(2, 4));
    let (_, err) = csv_error("1,2,3,7\n\n4,5,6,10\n", |c| c.label_column(Column::Last));
    assert_eq!(load_parts(&err).1, &line(3, 4));
}

#[test]
fn files_that_disagree_on_the_sample_count_are_both_named() {
    // An IDX images file of 2 samples and a labels file of 0.
    let images = idx(0x08, &[2, 28, 28], &vec![0; 2 * 784]);
    let (i, l, err) = idx_error(&images, &good_labels(0));
    assert_eq!(
        err.to_string(),
        format!(
            "the leaves read disagree on the number of samples: field `image` (source `features`, file {}) holds 2, but field `label` (source `targets`, file {}) holds 0",
            i.display(),
            l.display()
        )
    );
    // Members of one .npz archive: named by member and archive.
    #[derive(DataSpec)]
    struct Pair {
        #[spec(source = "x")]
        x: Batch<Vector<2>>,
        #[spec(source = "y")]
        y: Batch<Labels<3>>,
    }
    let dir = TempDir::new("npz-disagree");
    let path = dir.path("pair.npz");
    let mut npz = NpzWriter::new(std::fs::File::create(&path).unwrap());
    npz.add_array("x", &Array2::<f32>::zeros((3, 2))).unwrap();
    npz.add_array("y", &Array1::<i64>::zeros(2)).unwrap();
    npz.finish().unwrap();
    let err = Dataset::<Pair>::load(&mut NpzFile::new(&path))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "the leaves read disagree on the number of samples: field `x` (source `x`, member `x` of {p}) holds 3, but field `y` (source `y`, member `y` of {p}) holds 2",
            p = path.display()
        )
    );
}

#[test]
fn csv_numbers_beyond_a_float_type_are_refused_not_made_infinite_or_zero() {
    #[derive(DataSpec)]
    struct F64 {
        #[spec(source = "features")]
        x: Batch<Vector<1, f64>>,
    }
    #[derive(DataSpec)]
    struct F32 {
        #[spec(source = "features")]
        x: Batch<Vector<1>>,
    }
    let dir = TempDir::new("csv-float-range");
    let reason_64 = |text: &str| {
        let path = dir.write("f.csv", format!("{text}\n"));
        Dataset::<F64>::load(&mut CsvFile::new(&path)).map(|d| d.fields().x.array()[[0, 0]])
    };
    let reason_32 = |text: &str| {
        let path = dir.write("f.csv", format!("{text}\n"));
        Dataset::<F32>::load(&mut CsvFile::new(&path)).map(|d| d.fields().x.array()[[0, 0]])
    };
    for (text, becomes) in [
        ("1e309", "infinite"),
        ("-1e400", "infinite"),
        ("1e-400", "zero"),
        ("-2.5e-999", "zero"),
    ] {
        let err = reason_64(text).unwrap_err();
        assert_eq!(
            load_parts(&err).3,
            &LoadReason::FloatRange {
                value: text.into(),
                elem: "f64",
                becomes
            },
            "{text}"
        );
    }
    for (text, becomes) in [
        ("1e39", "infinite"),
        ("1e309", "infinite"),
        ("1e-50", "zero"),
    ] {
        let err = reason_32(text).unwrap_err();
        assert!(
            err.to_string().ends_with(&format!(
                "line 1, column 1 (source `features`): the value {text} is out of the range of f32: it would become {becomes}"
            )),
            "{err}"
        );
    }
    // Infinities and NaN written as such, zeros, and subnormal numbers stay.
    assert_eq!(reason_64("inf").unwrap(), f64::INFINITY);
    assert_eq!(reason_64("-Infinity").unwrap(), f64::NEG_INFINITY);
    assert!(reason_64("NaN").unwrap().is_nan());
    assert_eq!(reason_64("0e999").unwrap(), 0.0);
    assert_eq!(reason_64("-0.000").unwrap(), 0.0);
    assert_eq!(reason_64("1e-310").unwrap(), 1e-310);
    assert_eq!(reason_32("1e-40").unwrap(), 1e-40f32);
    assert_eq!(reason_32("3.4e38").unwrap(), 3.4e38f32);
}

#[test]
fn a_header_announcing_more_empty_samples_than_bytes_is_refused_before_allocating() {
    #[derive(DataSpec)]
    struct Seq {
        #[spec(source = "features")]
        x: Batch<VectorSeq<2>>,
    }
    let dir = TempDir::new("npy-unjustified");
    // 2^40 sequences of no steps in a 128-byte file: loading it used to make a dataset of 2^40
    // samples whose first shuffled epoch asked for 8 TB.
    let bytes = npy_with_header(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 0, 2), }",
        &[],
    );
    assert_eq!(bytes.len(), 128);
    let path = dir.write("empty.npy", &bytes);
    let err = Dataset::<Seq>::load(&mut NpyFiles::new().file("features", &path))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "{} byte 10 (source `features`): the header announces 1099511627776 samples of no values, more than a file of 128 bytes can justify",
            path.display()
        )
    );
    // As many empty sequences as the file has bytes are fine.
    let bytes = npy_with_header(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (100, 0, 2), }",
        &[],
    );
    let path = dir.write("hundred.npy", &bytes);
    let ds = Dataset::<Seq>::load(&mut NpyFiles::new().file("features", &path)).unwrap();
    assert_eq!(ds.len(), 100);
    // A dtype the loader does not read is placed at the header too.
    let bytes = npy_with_header(
        "{'descr': '<c8', 'fortran_order': False, 'shape': (1, 1, 2), }",
        &[0; 16],
    );
    let path = dir.write("complex.npy", &bytes);
    let err = Dataset::<Seq>::load(&mut NpyFiles::new().file("features", &path))
        .err()
        .unwrap();
    assert!(
        err.to_string()
            .contains("complex.npy byte 10 (source `features`)"),
        "{err}"
    );
}

/// The member count of an archive's directory is checked against the bytes the directory takes
/// before the zip reader reserves room for the members: the fuzzer's largest allocation was a
/// 594-byte `.npz` whose damaged directory claimed 16,768 members (3.5 MB reserved).
#[test]
fn npz_directory_counts_the_file_cannot_hold_are_refused_before_allocation() {
    let dir = TempDir::new("npz-directory");
    let path = dir.path("d.npz");
    write_npz(
        &path,
        ("features", &Array3::<u8>::zeros((2, 28, 28))),
        ("targets", &array![1i64, 2]),
    );
    let good = std::fs::read(&path).unwrap();
    let record = good.len() - 22;
    assert_eq!(good[record..record + 4], [0x50, 0x4B, 0x05, 0x06]);
    // Both counts of the record (this disk's and the total) claim 16,768 members.
    let mut bad = good.clone();
    for at in [record + 8, record + 10] {
        bad[at..at + 2].copy_from_slice(&16_768u16.to_le_bytes());
    }
    std::fs::write(&path, &bad).unwrap();
    let err = Dataset::<Mnist>::load(&mut NpzFile::new(&path))
        .err()
        .unwrap();
    let size = u32::from_le_bytes(good[record + 12..record + 16].try_into().unwrap());
    assert_eq!(
        err.to_string(),
        format!(
            "{} byte {record} (source `features`): malformed .npz archive: the central directory claims 16768 members in {size} bytes (each takes at least 46)",
            path.display()
        )
    );
    // A directory larger than the file.
    let mut bad = good.clone();
    bad[record + 12..record + 16].copy_from_slice(&u32::MAX.to_le_bytes());
    std::fs::write(&path, &bad).unwrap();
    let err = Dataset::<Mnist>::load(&mut NpzFile::new(&path))
        .err()
        .unwrap();
    assert!(
        err.to_string()
            .contains("the central directory claims 4294967295 bytes in a file of"),
        "{err}"
    );
    // A comment holding the record's signature is not taken for the record: the archive loads.
    let mut commented = good.clone();
    let comment = b"PK\x05\x06 and more";
    commented[record + 20..record + 22].copy_from_slice(&(comment.len() as u16).to_le_bytes());
    commented.extend_from_slice(comment);
    std::fs::write(&path, &commented).unwrap();
    let ds = Dataset::<Mnist>::load(&mut NpzFile::new(&path)).unwrap();
    assert_eq!(ds.fields().label.array(), &array![1i64, 2]);
}

// ---------------------------------------------------------------------------------------------
// planted faults: every binary reader names the byte where the fault was put

#[derive(DataSpec)]
struct Pair {
    #[spec(source = "features")]
    x: Batch<Vector<3>>,
    #[spec(source = "targets")]
    y: Batch<Labels<5>>,
}

/// Where the data of an `.npy` file starts: after its header's closing line end.
fn npy_data_start(bytes: &[u8]) -> usize {
    bytes.iter().position(|&b| b == b'\n').unwrap() + 1
}

/// The fault to plant in the `k`-th value of a file.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// A label of 5 or more in the labels.
    Label(u8),
    /// NaN or an infinity in the features, loaded with `NonFinite::Refuse`.
    NonFinite(f32),
}

fn fault() -> impl Strategy<Value = Fault> {
    prop_oneof![
        (5u8..=255).prop_map(Fault::Label),
        prop::sample::select(vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY])
            .prop_map(Fault::NonFinite),
    ]
}

/// The features and labels of `n` samples with `fault` planted at value `k` (of the features or
/// of the labels): the values, and which file holds the fault (`true`: the labels).
fn with_fault(n: usize, k: usize, fault: Fault) -> (Array2<f32>, Array1<u8>, bool) {
    let mut x = Array2::from_shape_fn((n, 3), |(i, j)| (i * 3 + j) as f32 * 0.25);
    let mut y = Array1::from_shape_fn(n, |i| (i % 5) as u8);
    match fault {
        Fault::Label(l) => {
            y[k % n] = l;
            (x, y, true)
        }
        Fault::NonFinite(v) => {
            x[[(k % (3 * n)) / 3, k % 3]] = v;
            (x, y, false)
        }
    }
}

/// The value index of the fault in its file.
fn fault_index(n: usize, k: usize, labels: bool) -> usize {
    if labels { k % n } else { k % (3 * n) }
}

fn expect_fault(err: &LoadError, fault: Fault, labels: bool) -> Result<(), TestCaseError> {
    let (_, _, source, reason) = load_parts(err);
    prop_assert_eq!(source, if labels { "targets" } else { "features" });
    match fault {
        Fault::Label(l) => prop_assert!(
            matches!(reason, LoadReason::Label { value, max_labels: 5 } if *value == l.to_string()),
            "{reason:?}"
        ),
        Fault::NonFinite(_) => {
            prop_assert!(matches!(reason, LoadReason::NonFinite { .. }), "{reason:?}")
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// IDX: features as big-endian f32 (type 0x0D), labels as u8 (0x08); the error's offset is
    /// the header's length plus the value's index times its size.
    #[test]
    fn an_idx_fault_is_named_at_its_byte(n in 1usize..12, k in 0usize..64, fault in fault()) {
        let dir = TempDir::new("planted-idx");
        let (x, y, labels) = with_fault(n, k, fault);
        let xs: Vec<u8> = x.iter().flat_map(|v| v.to_be_bytes()).collect();
        let i = dir.write("x.idx", idx(0x0D, &[n as u32, 3], &xs));
        let l = dir.write("y.idx", idx(0x08, &[n as u32], y.as_slice().unwrap()));
        let mut files = IdxFiles::mnist(&i, &l).non_finite(NonFinite::Refuse);
        let err = Dataset::<Pair>::load(&mut files).err().expect("the fault is refused");
        let at = fault_index(n, k, labels);
        let expected = if labels { 8 + at } else { 12 + 4 * at };
        prop_assert_eq!(load_parts(&err).1, &Place::Offset(expected as u64));
        prop_assert_eq!(load_parts(&err).0, if labels { l.as_path() } else { i.as_path() });
        expect_fault(&err, fault, labels)?;
        // Kept by default: the NaN or infinity is loaded as it is.
        if !labels {
            let ds = Dataset::<Pair>::load(&mut IdxFiles::mnist(&i, &l)).unwrap();
            let (a, b) = (ds.fields().x.array().as_slice().unwrap()[at], x.as_slice().unwrap()[at]);
            prop_assert!(a == b || (a.is_nan() && b.is_nan()));
        }
    }

    /// `.npy` in C or Fortran order, little- or big-endian: the offset is where the value is in
    /// the file (Fortran order stores the columns one after the other).
    #[test]
    fn an_npy_fault_is_named_at_its_byte(
        n in 1usize..12,
        k in 0usize..64,
        fault in fault(),
        fortran in any::<bool>(),
        big in any::<bool>(),
    ) {
        let dir = TempDir::new("planted-npy");
        let (x, y, labels) = with_fault(n, k, fault);
        let x = if fortran { x.reversed_axes().as_standard_layout().reversed_axes().to_owned() } else { x };
        let mut xb = npy_bytes(&x);
        let start = npy_data_start(&xb);
        if big {
            // The same values, stored big-endian and described so.
            let mut head = xb[..start].to_vec();
            let at = head.windows(5).position(|w| w == b"'<f4'").expect("a little-endian f32 header");
            head[at + 1] = b'>';
            let data: Vec<u8> = xb[start..].chunks_exact(4).flat_map(|c| {
                f32::from_le_bytes([c[0], c[1], c[2], c[3]]).to_be_bytes()
            }).collect();
            xb = [head, data].concat();
        }
        let xp = dir.write("x.npy", &xb);
        let yp = dir.write("y.npy", npy_bytes(&y.mapv(i64::from)));
        let mut files = NpyFiles::new().file("features", &xp).file("targets", &yp).non_finite(NonFinite::Refuse);
        let err = Dataset::<Pair>::load(&mut files).err().expect("the fault is refused");
        let at = fault_index(n, k, labels);
        let expected = if labels {
            npy_data_start(&npy_bytes(&y.mapv(i64::from))) + 8 * at
        } else {
            // The value's place in the file's order.
            let (r, c) = (at / 3, at % 3);
            start + 4 * if fortran { c * n + r } else { at }
        };
        prop_assert_eq!(load_parts(&err).1, &Place::Offset(expected as u64));
        expect_fault(&err, fault, labels)?;
    }

    /// `.npz`: the same, as the offset in the member.
    #[test]
    fn an_npz_fault_is_named_at_its_byte_in_the_member(n in 1usize..12, k in 0usize..64, fault in fault()) {
        let dir = TempDir::new("planted-npz");
        let (x, y, labels) = with_fault(n, k, fault);
        let y = y.mapv(i64::from);
        let path = dir.path("d.npz");
        write_npz(&path, ("features", &x), ("targets", &y));
        let err = Dataset::<Pair>::load(&mut NpzFile::new(&path).non_finite(NonFinite::Refuse))
            .err()
            .expect("the fault is refused");
        let at = fault_index(n, k, labels);
        let (name, offset) = if labels {
            ("targets.npy", npy_data_start(&npy_bytes(&y)) + 8 * at)
        } else {
            ("features.npy", npy_data_start(&npy_bytes(&x)) + 4 * at)
        };
        prop_assert_eq!(
            load_parts(&err).1,
            &Place::Member { name: name.into(), offset: Some(offset as u64) }
        );
        expect_fault(&err, fault, labels)?;
    }
}

/// CSV: `nan`, `inf` and `-inf` are kept by default and refused at their line and column with
/// `NonFinite::Refuse`; a finite number beyond the type's range is refused either way.
#[test]
fn csv_non_finite_values_follow_the_policy() {
    let dir = TempDir::new("csv-non-finite");
    let path = dir.write("x.csv", "1,2,3,0\r\n\r\n4,NaN,6,1\n7,8,-inf,2\n");
    let csv = || CsvFile::new(&path).label_column(Column::Last);
    let ds = Dataset::<Pair>::load(&mut csv()).unwrap();
    let x = ds.fields().x.array();
    assert!(x[[1, 1]].is_nan());
    assert_eq!(x[[2, 2]], f32::NEG_INFINITY);
    let err = Dataset::<Pair>::load(&mut csv().non_finite(NonFinite::Refuse))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "{} line 3, column 2 (source `features`): the value NaN is not finite, and the loader refuses values that are not (`NonFinite::Refuse`)",
            path.display()
        )
    );
    let path = dir.write("y.csv", "1,2,3,0\n4,5,1e39,1\n");
    for policy in [NonFinite::Keep, NonFinite::Refuse] {
        let err = Dataset::<Pair>::load(
            &mut CsvFile::new(&path)
                .label_column(Column::Last)
                .non_finite(policy),
        )
        .err()
        .unwrap();
        assert_eq!(load_parts(&err).1, &line(2, 3));
        assert!(
            matches!(load_parts(&err).3, LoadReason::FloatRange { .. }),
            "{err}"
        );
    }
}
