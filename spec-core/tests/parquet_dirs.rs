//! The rules of a directory of part files (`ParquetFiles::open` on a directory): what is read,
//! what is skipped and reported, and what is refused in words before anything is opened (links
//! that leave the directory, links to nowhere, Hive partition folders, FIFOs, sockets, devices).
#![cfg(all(feature = "parquet", unix))]

use batchspec::data::Dataset;
use batchspec::load::{LoadError, LoadReason, ParquetFiles, SkipReason};
use batchspec::prelude::*;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/parquet")
        .join(name)
}

#[derive(DataSpec)]
struct Ids {
    #[spec(source = "id")]
    id: Batch<Index<100>>,
}

/// A directory of its own for one test, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "batchspec-dirs-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// `uneven.parquet` (33 ids) copied to `name`.
    fn part(&self, name: &str) -> PathBuf {
        let path = self.path(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::copy(data("uneven.parquet"), &path).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// Opens `path` on another thread: a FIFO opened by mistake would block forever, which this
/// turns into a failure after 20 seconds.
fn open_promptly(path: &Path) -> Result<ParquetFiles, LoadError> {
    let (tx, rx) = std::sync::mpsc::channel();
    let path = path.to_path_buf();
    std::thread::spawn(move || tx.send(ParquetFiles::open(&path)).ok());
    rx.recv_timeout(Duration::from_secs(20))
        .expect("open blocked on a special file")
}

/// The entry an error names, and its reason.
fn refusal(err: LoadError) -> (PathBuf, LoadReason, String) {
    let text = err.to_string();
    match err {
        LoadError::File { file, reason, .. } => (file, *reason, text),
        other => panic!("not a file error: {other}"),
    }
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
}

#[test]
fn a_spark_directory_reports_what_it_skips() {
    let files = ParquetFiles::open(data("spark")).unwrap();
    assert_eq!(files.files().len(), 3);
    let skipped: Vec<(String, SkipReason)> = files
        .skipped()
        .iter()
        .map(|s| {
            let name = s.path.file_name().unwrap().to_string_lossy().into_owned();
            (name, s.why)
        })
        .collect();
    assert_eq!(skipped.len(), 5, "{skipped:?}");
    assert!(skipped.iter().all(|(_, why)| *why == SkipReason::Hidden));
    assert!(skipped.iter().any(|(name, _)| name == "_SUCCESS"));
    assert!(skipped.iter().any(|(name, _)| name == "._SUCCESS.crc"));
    let shown = files.skipped()[0].to_string();
    assert!(shown.contains("starts with `_` or `.`"), "{shown}");
    // A file has nothing to skip.
    assert!(
        ParquetFiles::open(data("uneven.parquet"))
            .unwrap()
            .skipped()
            .is_empty()
    );
}

#[test]
fn other_names_and_folders_are_skipped_and_reported() {
    let dir = TempDir::new();
    dir.part("part-0.parquet");
    std::fs::write(dir.path("README.md"), "notes").unwrap();
    std::fs::create_dir(dir.path("logs")).unwrap();
    // A Spark output folder inside: a folder, not read (and not a partition).
    dir.part("nested.parquet/part-0.parquet");
    let files = ParquetFiles::open(&dir.0).unwrap();
    assert_eq!(files.files(), [dir.path("part-0.parquet")]);
    let skipped: Vec<(PathBuf, SkipReason)> = files
        .skipped()
        .iter()
        .map(|s| (s.path.clone(), s.why))
        .collect();
    assert_eq!(
        skipped,
        [
            (dir.path("README.md"), SkipReason::NotParquet),
            (dir.path("logs"), SkipReason::Folder),
            (dir.path("nested.parquet"), SkipReason::Folder),
        ]
    );
}

#[test]
fn a_link_out_of_the_directory_is_refused_unless_asked() {
    let outside = TempDir::new();
    let target = outside.part("secret.parquet");
    let dir = TempDir::new();
    dir.part("part-0.parquet");
    symlink(&target, dir.path("part-1.parquet")).unwrap();
    let (file, reason, text) = refusal(ParquetFiles::open(&dir.0).unwrap_err());
    assert_eq!(file, dir.path("part-1.parquet"), "the link is named");
    let canonical = std::fs::canonicalize(&target).unwrap();
    assert_eq!(reason, LoadReason::LinkLeaves { target: canonical });
    assert!(text.contains("secret.parquet"), "where it points: {text}");
    assert!(text.contains("follow_links(true)"), "{text}");
    // A relative link that climbs out is the same.
    std::fs::remove_file(dir.path("part-1.parquet")).unwrap();
    let climbing = PathBuf::from("..")
        .join(outside.0.file_name().unwrap())
        .join("secret.parquet");
    symlink(&climbing, dir.path("part-1.parquet")).unwrap();
    assert!(matches!(
        refusal(ParquetFiles::open(&dir.0).unwrap_err()).1,
        LoadReason::LinkLeaves { .. }
    ));
    // Asked: followed, and read.
    let mut files = ParquetFiles::options()
        .follow_links(true)
        .open(&dir.0)
        .unwrap();
    assert_eq!(files.files().len(), 2);
    assert_eq!(Dataset::<Ids>::load(&mut files).unwrap().len(), 66);
    // A link that leads out but is not named as a part file is not followed, only reported.
    std::fs::remove_file(dir.path("part-1.parquet")).unwrap();
    symlink("/etc/passwd", dir.path("notes.txt")).unwrap();
    let files = ParquetFiles::open(&dir.0).unwrap();
    assert_eq!(files.skipped()[0].why, SkipReason::NotParquet);
}

#[test]
fn links_inside_the_directory_are_followed_and_links_to_nowhere_refused() {
    let dir = TempDir::new();
    dir.part("data/part-0.parquet");
    std::fs::create_dir_all(dir.path("train")).unwrap();
    // `train/part-0.parquet` -> `train/../data/part-0.parquet`: outside `train/`.
    symlink("../data/part-0.parquet", dir.path("train/part-0.parquet")).unwrap();
    assert!(matches!(
        refusal(ParquetFiles::open(dir.path("train")).unwrap_err()).1,
        LoadReason::LinkLeaves { .. }
    ));
    // A link to a file of the same directory is read.
    let other = TempDir::new();
    other.part("part-0.parquet");
    symlink("part-0.parquet", other.path("part-1.parquet")).unwrap();
    let mut files = ParquetFiles::open(&other.0).unwrap();
    assert_eq!(Dataset::<Ids>::load(&mut files).unwrap().len(), 66);
    // A link to nowhere: refused, naming it and where it points.
    symlink("gone.parquet", other.path("part-2.parquet")).unwrap();
    let (file, reason, text) = refusal(ParquetFiles::open(&other.0).unwrap_err());
    assert_eq!(file, other.path("part-2.parquet"));
    assert!(
        matches!(reason, LoadReason::BrokenLink { ref target, .. } if target == Path::new("gone.parquet")),
        "{text}"
    );
}

#[test]
fn hive_partition_folders_are_refused_in_words() {
    let dir = TempDir::new();
    dir.part("year=2020/part-0.parquet");
    dir.part("year=2021/part-0.parquet");
    let (file, reason, text) = refusal(ParquetFiles::open(&dir.0).unwrap_err());
    assert!(
        file.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("year=")
    );
    assert_eq!(
        reason,
        LoadReason::Partitioned {
            column: "year".into()
        }
    );
    assert!(text.contains("partition columns are not read"), "{text}");
    // A partition folder opened on its own is read (its value is the caller's to know).
    let files = ParquetFiles::open(dir.path("year=2020")).unwrap();
    assert_eq!(files.files().len(), 1);
}

#[test]
fn special_files_are_refused_by_their_type_before_open() {
    let dir = TempDir::new();
    // A FIFO given as the path: opening it would block until a writer comes.
    let fifo = dir.path("stream.parquet");
    mkfifo(&fifo);
    let (file, reason, text) = refusal(open_promptly(&fifo).unwrap_err());
    assert_eq!(file, fifo);
    assert_eq!(
        reason,
        LoadReason::NotAFile {
            kind: "FIFO (named pipe)"
        }
    );
    assert!(text.contains("refused without opening it"), "{text}");
    // Found in a directory, as a part file.
    let parts = TempDir::new();
    parts.part("part-0.parquet");
    mkfifo(&parts.path("part-1.parquet"));
    let (file, reason, _) = refusal(open_promptly(&parts.0).unwrap_err());
    assert_eq!(file, parts.path("part-1.parquet"));
    assert!(matches!(reason, LoadReason::NotAFile { .. }));
    // A link inside the directory to a FIFO inside it.
    std::fs::remove_file(parts.path("part-1.parquet")).unwrap();
    mkfifo(&parts.path("pipe"));
    symlink("pipe", parts.path("part-1.parquet")).unwrap();
    let (file, reason, _) = refusal(open_promptly(&parts.0).unwrap_err());
    assert_eq!(file, parts.path("part-1.parquet"));
    assert!(matches!(reason, LoadReason::NotAFile { .. }));
    // A socket.
    let sockets = TempDir::new();
    sockets.part("part-0.parquet");
    let _listener = std::os::unix::net::UnixListener::bind(sockets.path("part-1.parquet")).unwrap();
    let (_, reason, _) = refusal(open_promptly(&sockets.0).unwrap_err());
    assert_eq!(reason, LoadReason::NotAFile { kind: "socket" });
    // A device.
    let (_, reason, _) = refusal(open_promptly(Path::new("/dev/null")).unwrap_err());
    assert_eq!(
        reason,
        LoadReason::NotAFile {
            kind: "character device"
        }
    );
}

/// Without a store's feature, a URL is refused in words naming the features to turn on (with
/// them, `tests/remote.rs` reads it).
#[test]
#[cfg(not(feature = "remote"))]
fn a_url_without_the_remote_features_names_them() {
    let err = ParquetFiles::open("s3://bucket/train/").unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("s3://bucket/train/"), "{text}");
    assert!(
        text.contains("needs batchspec's cargo feature `remote` and the store's (`s3`"),
        "{text}"
    );
}
