//! Parquet read from object storage: moto's S3-compatible server and a plain HTTP server that
//! answers ranges, both real and on the loopback interface, started and stopped by the tests
//! (`support/`), the fixtures uploaded with boto3; a proxy in front of the server fails, delays,
//! hangs or cuts chosen requests. Each test compares what it reads with the same files read
//! from local disk. Skipped in words where the servers cannot be installed (unless
//! `BATCHSPEC_REQUIRE_S3` is set).
#![cfg(all(feature = "s3", feature = "http"))]

mod support;

use batchspec::data::{BatchSource, Dataset};
use batchspec::load::{
    LoadError, LoadReason, ParquetFiles, ParquetStream, Rank, RemoteOptions, ShardPlan, SkipReason,
    Tail, TextNulls,
};
use batchspec::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use support::{Fault, KEYS, Proxy};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/parquet")
        .join(name)
}

#[derive(DataSpec)]
struct Grey {
    #[spec(source = "features")]
    image: Batch<image![2, 2, 1; BHWC]>,
    #[spec(source = "targets")]
    label: Batch<Labels<3>>,
}

#[derive(DataSpec)]
struct Ids {
    #[spec(source = "id")]
    id: Batch<Index<1000>>,
}

/// Options reaching `endpoint` with the tests' dummy keys, failing fast.
fn options(endpoint: &str) -> RemoteOptions {
    let mut o = RemoteOptions::new()
        .setting("aws_endpoint", endpoint)
        .timeout(Duration::from_secs(10))
        .backoff(Duration::from_millis(20), Duration::from_secs(20));
    for (k, v) in KEYS {
        o = o.setting(k, v);
    }
    o
}

/// Every file of a local directory, hidden ones too, under `prefix`.
fn dir_files(dir: &Path, prefix: &str) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                format!("{prefix}{}", e.file_name().to_string_lossy()),
                e.path(),
            )
        })
        .collect();
    out.sort();
    out
}

fn put(endpoint: &str, bucket: &str, files: &[(String, PathBuf)]) {
    let files: Vec<(&str, &Path)> = files
        .iter()
        .map(|(k, p)| (k.as_str(), p.as_path()))
        .collect();
    support::upload(endpoint, bucket, &files);
}

/// moto with the fixture `file` at `key` of the bucket `train`: the server and its endpoint.
fn bucket_with(key: &str, file: &str) -> Option<(support::Server, String)> {
    let s3 = support::s3()?;
    let endpoint = s3.endpoint();
    put(&endpoint, "train", &[(key.into(), data(file))]);
    Some((s3, endpoint))
}

/// A proxy in front of the server on `port` that gives `fault` to every GET (the listing's
/// HEAD and LIST pass).
fn on_gets(port: u16, fault: Fault) -> Proxy {
    Proxy::start(port, move |_, line| {
        if line.starts_with("GET") {
            fault
        } else {
            Fault::None
        }
    })
}

/// The GET requests the proxy received.
fn gets_seen(proxy: &Proxy) -> usize {
    proxy
        .log
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.contains(" GET "))
        .count()
}

fn ids_of(batch: &Ids, count: usize) -> Vec<i64> {
    batch.id.array().iter().take(count).copied().collect()
}

/// What a stream of `files` serves, batch by batch.
fn stream(files: &ParquetFiles, plan: &ShardPlan, epoch: u64) -> Vec<Vec<i64>> {
    served(ParquetStream::<Ids>::new(files, plan, epoch, 4, 2).read_ahead())
}

/// The batches `stream` serves in its epoch.
fn served(mut stream: ParquetStream<Ids>) -> Vec<Vec<i64>> {
    let mut out = Vec::new();
    while let Some(b) = BatchSource::next_batch(&mut stream) {
        let (batch, info) = b.unwrap();
        out.push(ids_of(batch, info.count_samples));
    }
    out
}

/// What a stream of `files` serves reading `windows` windows ahead, on a thread each or on
/// `threads` (the serving thread reading the windows they have not started).
fn stream_ahead(
    files: &ParquetFiles,
    plan: &ShardPlan,
    windows: usize,
    threads: Option<usize>,
) -> Vec<Vec<i64>> {
    let stream = ParquetStream::<Ids>::new(files, plan, 0, 4, 1).read_ahead_windows(windows);
    served(match threads {
        Some(t) => stream.reading_threads(t),
        None => stream,
    })
}

fn reason(e: &LoadError) -> (&Path, &LoadReason) {
    match e {
        LoadError::File { file, reason, .. } => (file.as_path(), reason),
        other => panic!("not a file's error: {other}"),
    }
}

#[test]
fn a_spark_directory_in_a_bucket_reads_as_the_local_directory_and_skips_the_same_entries() {
    let Some(s3) = support::s3() else { return };
    let endpoint = s3.endpoint();
    let mut files = dir_files(&data("spark_dir"), "tables/digits/");
    // A folder beside the part files: skipped, as locally.
    files.push((
        "tables/digits/extra/x.parquet".into(),
        data("uneven.parquet"),
    ));
    put(&endpoint, "train", &files);
    let remote = options(&endpoint)
        .open("s3://train/tables/digits/")
        .unwrap();
    let local = ParquetFiles::open(data("spark_dir")).unwrap();
    assert_eq!(remote.files().len(), 3);
    for (r, l) in remote.files().iter().zip(local.files()) {
        assert_eq!(
            r.to_str().unwrap(),
            format!(
                "s3://train/tables/digits/{}",
                l.file_name().unwrap().to_string_lossy()
            )
        );
    }
    let skipped: Vec<(String, SkipReason)> = remote
        .skipped()
        .iter()
        .map(|s| (s.path.display().to_string(), s.why))
        .collect();
    assert!(skipped.contains(&(
        "s3://train/tables/digits/_SUCCESS".into(),
        SkipReason::Hidden
    )));
    assert!(skipped.contains(&("s3://train/tables/digits/extra/".into(), SkipReason::Folder)));
    assert_eq!(
        skipped.iter().filter(|s| s.1 == SkipReason::Hidden).count(),
        4
    );
    let a = Dataset::<Grey>::load(&mut remote.clone()).unwrap();
    let b = Dataset::<Grey>::load(&mut local.clone()).unwrap();
    assert_eq!(a.fields().image.array(), b.fields().image.array());
    assert_eq!(a.fields().label.array(), b.fields().label.array());
    // Without the trailing slash the prefix is found too (no object of that name).
    let again = options(&endpoint).open("s3://train/tables/digits").unwrap();
    assert_eq!(again.files(), remote.files());
}

/// The byte ranges of the GET requests a proxy saw, in order (`Range: bytes=a-b`, inclusive).
fn ranges_seen(proxy: &Proxy) -> Vec<(u64, u64)> {
    proxy
        .log
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.contains(" GET "))
        .filter_map(|l| {
            let spec = l.split("bytes=").nth(1)?.split_whitespace().next()?;
            let (a, b) = spec.split_once('-')?;
            Some((a.parse().ok()?, b.parse::<u64>().ok()? + 1))
        })
        .collect()
}

#[test]
fn a_rank_fetches_only_its_shares_column_chunks_and_streams_what_the_local_file_streams() {
    let Some((s3, _)) = bucket_with("uneven.parquet", "uneven.parquet") else {
        return;
    };
    let url = "s3://train/uneven.parquet";
    let local = ParquetFiles::open(data("uneven.parquet")).unwrap();
    let size = std::fs::metadata(data("uneven.parquet")).unwrap().len();
    let mut data_ranges: Vec<(u64, u64)> = Vec::new();
    for rank in 0..3 {
        let proxy = Proxy::start(s3.port, |_, _| Fault::None);
        // Exactly the chunks (by default chunks less than 1 MiB apart are fetched together,
        // which in a file this small is all of a window's span).
        let remote = options(&proxy.endpoint()).coalesce(0).open(url).unwrap();
        let rank = Rank::new(rank, 3).unwrap();
        // Every row once (`Pad` would read a short share's row groups again to fill it).
        let plan = |f: &ParquetFiles| {
            ShardPlan::new(f, rank)
                .unwrap()
                .tail(Tail::Uneven)
                .shuffle(7)
        };
        let (pr, pl) = (plan(&remote), plan(&local));
        assert_eq!(stream(&remote, &pr, 0), stream(&local, &pl, 0));
        let seen = ranges_seen(&proxy);
        let stats = remote.remote_stats();
        assert_eq!(stats.requests as usize, seen.len(), "{stats:?}");
        // The footer first, by one request for the end of the object (all of this small one).
        assert_eq!(seen[0], (size.saturating_sub(64 << 10), size));
        // Then the share's chunks: no byte twice within the epoch.
        let mut own = seen[1..].to_vec();
        own.sort();
        assert!(own.windows(2).all(|w| w[0].1 <= w[1].0), "{own:?}");
        data_ranges.extend(own);
    }
    // Across the ranks, no chunk fetched twice: each rank read only its share.
    data_ranges.sort();
    assert!(
        data_ranges.windows(2).all(|w| w[0].1 <= w[1].0),
        "{data_ranges:?}"
    );
    let data_bytes: u64 = data_ranges.iter().map(|(a, b)| b - a).sum();
    assert!(data_bytes < size, "{data_bytes} of {size}");
    // Several windows read ahead from the bucket (a thread each by default, its reads waiting
    // on the network), or on one thread beside the serving one: what the local file serves.
    let remote = options(&s3.endpoint()).open(url).unwrap();
    let plan = |f: &ParquetFiles| {
        ShardPlan::new(f, Rank::new(0, 1).unwrap())
            .unwrap()
            .shuffle(2)
    };
    let want = stream_ahead(&local, &plan(&local), 0, None);
    for threads in [None, Some(1)] {
        assert_eq!(
            stream_ahead(&remote, &plan(&remote), 3, threads),
            want,
            "{threads:?}"
        );
    }
}

#[test]
fn a_stream_fetches_a_request_per_window_and_a_second_opening_reads_from_the_cache() {
    let Some((_s3, endpoint)) = bucket_with("one/uneven.parquet", "uneven.parquet") else {
        return;
    };
    let cache = std::env::temp_dir().join(format!("batchspec-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let open = || {
        options(&endpoint)
            .cache(&cache, 1 << 20)
            .open("s3://train/one/")
            .unwrap()
    };
    let files = open();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap();
    let first = stream(&files, &plan, 0);
    let after_first = files.remote_stats();
    assert_eq!(after_first.cache_hits, 0, "{after_first:?}");
    // The footer once, then one request per window (its chunks coalesced): 33 rows in windows
    // of 2 batches of 4.
    assert!(after_first.requests <= 1 + 5, "{after_first:?}");
    // A second process (a new opening) reads the same ranges from the cache: no request.
    let again = open();
    let plan = ShardPlan::new(&again, Rank::new(0, 1).unwrap()).unwrap();
    assert_eq!(stream(&again, &plan, 0), first);
    let stats = again.remote_stats();
    assert_eq!(stats.requests, 0, "{stats:?}");
    assert!(stats.cache_hits > 0, "{stats:?}");
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn a_missing_object_an_empty_prefix_and_a_hive_folder_are_errors_naming_the_url() {
    let Some((_s3, endpoint)) = bucket_with("a/uneven.parquet", "uneven.parquet") else {
        return;
    };
    let err = options(&endpoint)
        .open("s3://train/nothing/here.parquet")
        .unwrap_err();
    let (file, why) = reason(&err);
    assert_eq!(file, Path::new("s3://train/nothing/here.parquet"));
    assert!(matches!(why, LoadReason::Remote { .. }), "{err}");
    assert!(err.to_string().contains("no object at this URL"), "{err}");
    // A prefix whose objects are none of them Parquet.
    put(
        &endpoint,
        "train",
        &[("b/_SUCCESS".into(), data("spark_dir/_SUCCESS"))],
    );
    let err = options(&endpoint).open("s3://train/b/").unwrap_err();
    assert!(
        err.to_string().contains("holds no `.parquet` object"),
        "{err}"
    );
    // A Hive partition folder: refused, as in a local directory (its rows would lose `year`).
    put(
        &endpoint,
        "train",
        &[(
            "hive/year=2020/part-0.parquet".into(),
            data("uneven.parquet"),
        )],
    );
    let err = options(&endpoint).open("s3://train/hive/").unwrap_err();
    let (file, why) = reason(&err);
    assert_eq!(file, Path::new("s3://train/hive/year=2020/"));
    assert!(
        matches!(why, LoadReason::Partitioned { column } if column == "year"),
        "{err}"
    );
    // A bucket that does not exist.
    let err = options(&endpoint)
        .open("s3://nobucket/x.parquet")
        .unwrap_err();
    assert!(err.to_string().contains("s3://nobucket/x.parquet"), "{err}");
}

#[test]
fn an_object_replaced_after_it_was_listed_is_an_error_not_a_mix_of_versions() {
    let Some((_s3, endpoint)) = bucket_with("v/uneven.parquet", "uneven.parquet") else {
        return;
    };
    let files = options(&endpoint)
        .open("s3://train/v/uneven.parquet")
        .unwrap();
    // Another writer replaces it (same name, other bytes) before the first read.
    put(
        &endpoint,
        "train",
        &[("v/uneven.parquet".into(), data("tensor.parquet"))],
    );
    let err = Dataset::<Ids>::load(&mut files.clone()).err().unwrap();
    let (file, why) = reason(&err);
    assert_eq!(file, Path::new("s3://train/v/uneven.parquet"));
    assert!(matches!(why, LoadReason::Changed { .. }), "{err}");
    assert!(
        err.to_string().contains("changed while it was read"),
        "{err}"
    );
}

/// The text fixtures of the text package (written by pyarrow).
fn text_data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../text/tests/data")
        .join(name)
}

/// Every row group's texts of `column`, or the first error.
fn texts_of(files: &ParquetFiles, column: &str) -> Result<Vec<(String, u64)>, LoadError> {
    let mut out = Vec::new();
    for g in files.row_groups()? {
        let t = files.read_texts(g, column, "text", TextNulls::Refuse)?;
        out.extend((0..t.len()).map(|i| (t.get(i).unwrap().to_owned(), t.row(i).unwrap())));
    }
    Ok(out)
}

#[test]
fn a_text_column_in_a_bucket_reads_as_from_disk_and_a_bad_value_is_named_by_url_and_row() {
    let Some(s3) = support::s3() else { return };
    let endpoint = s3.endpoint();
    let files = [
        ("text/small.parquet".to_owned(), text_data("small.parquet")),
        (
            "text/bad.parquet".to_owned(),
            text_data("invalid-utf8.parquet"),
        ),
    ];
    put(&endpoint, "train", &files);
    let remote = options(&endpoint)
        .open("s3://train/text/small.parquet")
        .unwrap();
    let local = ParquetFiles::open(text_data("small.parquet")).unwrap();
    for column in ["text", "large_text"] {
        let got = texts_of(&remote, column).unwrap();
        assert_eq!(got.len(), 37);
        assert_eq!(got, texts_of(&local, column).unwrap());
    }
    let bad = options(&endpoint)
        .open("s3://train/text/bad.parquet")
        .unwrap();
    let err = texts_of(&bad, "text").unwrap_err().to_string();
    assert!(
        err.contains("s3://train/text/bad.parquet")
            && err.contains("row 17")
            && err.contains("not UTF-8"),
        "{err}"
    );
}

#[test]
fn a_lying_footer_is_refused_from_a_bucket_as_from_disk() {
    let Some(s3) = support::s3() else { return };
    let endpoint = s3.endpoint();
    let mut bytes = std::fs::read(data("uneven.parquet")).unwrap();
    let n = bytes.len();
    // The footer claims more bytes than the file holds.
    bytes[n - 8..n - 4].copy_from_slice(&(u32::MAX - 7).to_le_bytes());
    let dir = std::env::temp_dir().join(format!("batchspec-lie-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("lie.parquet");
    std::fs::write(&path, &bytes).unwrap();
    put(&endpoint, "train", &[("lie.parquet".into(), path.clone())]);
    let remote = options(&endpoint)
        .open("s3://train/lie.parquet")
        .unwrap()
        .row_groups()
        .unwrap_err();
    let local = ParquetFiles::open(&path).unwrap().row_groups().unwrap_err();
    assert_eq!(reason(&remote).1, reason(&local).1);
    assert!(remote.to_string().contains("the footer claims"), "{remote}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn transient_failures_are_retried_and_then_an_error_names_the_url_the_range_and_the_attempts() {
    let Some((s3, _)) = bucket_with("t/uneven.parquet", "uneven.parquet") else {
        return;
    };
    let local =
        Dataset::<Ids>::load(&mut ParquetFiles::open(data("uneven.parquet")).unwrap()).unwrap();
    // Every other ranged GET answered 503, and one cut in half: all retried, the data whole.
    let proxy = Proxy::start(s3.port, |n, line| match n {
        _ if !line.starts_with("GET") => Fault::None,
        n if n % 2 == 1 => Fault::Unavailable,
        4 => Fault::Cut,
        _ => Fault::None,
    });
    let files = options(&proxy.endpoint())
        .open("s3://train/t/uneven.parquet")
        .unwrap();
    let read = Dataset::<Ids>::load(&mut files.clone()).unwrap();
    assert_eq!(read.fields().id.array(), local.fields().id.array());
    let log = proxy.log.lock().unwrap().clone();
    assert!(log.iter().any(|l| l.ends_with("Unavailable")), "{log:#?}");
    // Every GET failing: an error after the retries, naming what failed.
    let proxy = on_gets(s3.port, Fault::Unavailable);
    let files = options(&proxy.endpoint())
        .retries(2)
        .open("s3://train/t/uneven.parquet")
        .unwrap();
    let err = Dataset::<Ids>::load(&mut files.clone()).err().unwrap();
    let text = err.to_string();
    let (file, why) = reason(&err);
    assert_eq!(file, Path::new("s3://train/t/uneven.parquet"));
    assert!(
        matches!(why, LoadReason::Remote { range: Some(_), .. }),
        "{err}"
    );
    assert!(text.contains("reading bytes "), "{text}");
    assert!(text.contains("after 2 retries"), "{text}");
    assert!(text.contains("503"), "{text}");
    // The first GET and its two retries reached the proxy.
    let gets = gets_seen(&proxy);
    assert_eq!(gets, 3);
}

#[test]
fn a_server_that_stops_answering_is_an_error_after_the_timeout_never_a_hang() {
    let Some((s3, _)) = bucket_with("h/uneven.parquet", "uneven.parquet") else {
        return;
    };
    let proxy = on_gets(s3.port, Fault::Hang);
    let files = options(&proxy.endpoint())
        .timeout(Duration::from_millis(500))
        .retries(1)
        .open("s3://train/h/uneven.parquet")
        .unwrap();
    let start = Instant::now();
    let err = Dataset::<Ids>::load(&mut files.clone()).err().unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert!(matches!(reason(&err).1, LoadReason::Remote { .. }), "{err}");
    assert!(
        err.to_string().to_lowercase().contains("timed out") || err.to_string().contains("timeout"),
        "{err}"
    );
    // A slow server within the timeout is only slow.
    let proxy = Proxy::start(s3.port, |_, _| Fault::Delay(Duration::from_millis(100)));
    let files = options(&proxy.endpoint())
        .timeout(Duration::from_secs(5))
        .open("s3://train/h/uneven.parquet")
        .unwrap();
    assert_eq!(Dataset::<Ids>::load(&mut files.clone()).unwrap().len(), 33);
}

#[test]
fn a_file_over_plain_http_reads_by_ranges_as_from_disk() {
    let Some(server) = support::http(&data("")) else {
        return;
    };
    let url = format!("{}/uneven.parquet", server.endpoint());
    let remote = RemoteOptions::new().open(&url).unwrap();
    let local = ParquetFiles::open(data("uneven.parquet")).unwrap();
    let plan = |f: &ParquetFiles| ShardPlan::new(f, Rank::new(1, 2).unwrap()).unwrap();
    assert_eq!(
        stream(&remote, &plan(&remote), 0),
        stream(&local, &plan(&local), 0)
    );
    let err = RemoteOptions::new()
        .open(&format!("{}/missing.parquet", server.endpoint()))
        .unwrap_err();
    assert!(err.to_string().contains("missing.parquet"), "{err}");
}

#[test]
fn a_file_over_https_reads_through_rustls_and_an_unknown_certificate_is_refused() {
    let Some(server) = support::https(&data("")) else {
        return;
    };
    let url = format!("https://127.0.0.1:{}/uneven.parquet", server.port);
    // The certificate is self-signed: refused unless the settings say otherwise.
    let err = RemoteOptions::new().retries(0).open(&url).unwrap_err();
    assert!(matches!(reason(&err).1, LoadReason::Remote { .. }), "{err}");
    assert!(
        err.to_string().contains("invalid peer certificate"),
        "{err}"
    );
    let remote = RemoteOptions::new()
        .setting("allow_invalid_certificates", "true")
        .open(&url)
        .unwrap();
    let a = Dataset::<Ids>::load(&mut remote.clone()).unwrap();
    let b = Dataset::<Ids>::load(&mut ParquetFiles::open(data("uneven.parquet")).unwrap()).unwrap();
    assert_eq!(a.fields().id.array(), b.fields().id.array());
}

#[test]
fn a_url_of_a_store_whose_feature_is_off_or_a_setting_it_lacks_is_refused_in_words() {
    let err = RemoteOptions::new()
        .setting("aws_no_such_thing", "1")
        .open("s3://b/x.parquet")
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("`aws_no_such_thing` is not a setting"),
        "{err}"
    );
    let err = ParquetFiles::open("ftp://host/x.parquet").unwrap_err();
    assert!(
        err.to_string()
            .contains("`ftp://` is not a scheme batchspec reads"),
        "{err}"
    );
    // `gs://` without the feature `gcs` (the workspace's tests build `s3` and `http` only;
    // `cfg!`, so that clippy's pass with every feature lints this branch too).
    if !cfg!(feature = "gcs") {
        let err = ParquetFiles::open("gs://bucket/x.parquet").unwrap_err();
        assert!(
            err.to_string()
                .contains("needs batchspec's cargo feature `gcs`"),
            "{err}"
        );
    }
    // The credentials given as settings are not in the options' debug form.
    let shown = format!("{:?}", options("http://127.0.0.1:1"));
    assert!(
        shown.contains("aws_secret_access_key") && !shown.contains("testing"),
        "{shown}"
    );
}

#[test]
fn a_denied_request_is_an_error_at_once_and_a_server_gone_mid_epoch_an_error_at_the_next_window() {
    let Some((s3, endpoint)) = bucket_with("d/uneven.parquet", "uneven.parquet") else {
        return;
    };
    // 403: not retried.
    let proxy = on_gets(s3.port, Fault::Status(403));
    let files = options(&proxy.endpoint())
        .open("s3://train/d/uneven.parquet")
        .unwrap();
    let err = Dataset::<Ids>::load(&mut files.clone()).err().unwrap();
    assert!(matches!(reason(&err).1, LoadReason::Remote { .. }), "{err}");
    assert!(err.to_string().contains("403"), "{err}");
    let gets = gets_seen(&proxy);
    assert_eq!(gets, 1, "a denied request is not retried");
    // The server goes away after the first window: the batches of that window are served, the
    // next one is an error (after the retries), and the stream ends; nothing hangs.
    let files = options(&endpoint)
        .retries(1)
        .timeout(Duration::from_secs(2))
        .open("s3://train/d/uneven.parquet")
        .unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap()).unwrap();
    let mut stream = ParquetStream::<Ids>::new(&files, &plan, 0, 2, 1);
    let first = stream.next_batch().unwrap();
    assert!(first.is_ok());
    drop(s3);
    let start = Instant::now();
    let mut served = 1;
    let err = loop {
        match stream.next_batch() {
            Some(Ok(_)) => served += 1,
            Some(Err(e)) => break e,
            None => panic!("the stream ended without an error after {served} batches"),
        }
    };
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert!(served < 17, "{served}");
    assert!(
        matches!(reason(&err).1, LoadReason::Remote { range: Some(_), .. }),
        "{err}"
    );
}

/// The cache directory's bytes, every file counted.
fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok()?.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

#[test]
fn processes_sharing_a_cache_smaller_than_the_file_never_exceed_its_limit_and_read_true_bytes() {
    let Some((_s3, endpoint)) = bucket_with("c/uneven.parquet", "uneven.parquet") else {
        return;
    };
    let cache = std::env::temp_dir().join(format!("batchspec-shared-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    std::fs::create_dir_all(&cache).unwrap();
    // Smaller than the file (2351 bytes): entries are evicted while the processes read.
    let limit = 1200u64;
    let watching = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let watcher = {
        let (cache, watching) = (cache.clone(), watching.clone());
        std::thread::spawn(move || {
            let mut most = 0;
            while watching.load(std::sync::atomic::Ordering::Relaxed) {
                most = most.max(dir_bytes(&cache));
                std::thread::yield_now();
            }
            most
        })
    };
    let children: Vec<_> = (0..4)
        .map(|_| {
            std::process::Command::new(std::env::current_exe().unwrap())
                .args(["cache_child", "--exact", "--ignored", "--nocapture"])
                .env("BATCHSPEC_CHILD_ENDPOINT", &endpoint)
                .env("BATCHSPEC_CHILD_CACHE", &cache)
                .env("BATCHSPEC_CHILD_LIMIT", limit.to_string())
                .output()
                .unwrap()
        })
        .collect();
    watching.store(false, std::sync::atomic::Ordering::Relaxed);
    let most = watcher.join().unwrap();
    let mut hits = 0;
    for out in &children {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        hits += text
            .lines()
            .find_map(|l| l.strip_prefix("cache hits: "))
            .and_then(|n| n.trim().parse::<u64>().ok())
            .expect("the child's count");
    }
    assert!(
        most <= limit,
        "the cache held {most} bytes, over its limit of {limit}"
    );
    assert!(
        most > 0 && hits > 0,
        "the cache was used: {most} bytes, {hits} hits"
    );
    let _ = std::fs::remove_dir_all(&cache);
}

/// One process of the test above: three epochs of the whole file through the shared cache,
/// each checked against the local file.
#[test]
#[ignore = "run by processes_sharing_a_cache_smaller_than_the_file_never_exceed_its_limit_and_read_true_bytes"]
fn cache_child() {
    let (Ok(endpoint), Ok(cache), Ok(limit)) = (
        std::env::var("BATCHSPEC_CHILD_ENDPOINT"),
        std::env::var("BATCHSPEC_CHILD_CACHE"),
        std::env::var("BATCHSPEC_CHILD_LIMIT"),
    ) else {
        return;
    };
    let files = options(&endpoint)
        .cache(cache, limit.parse().unwrap())
        .open("s3://train/c/uneven.parquet")
        .unwrap();
    let local = ParquetFiles::open(data("uneven.parquet")).unwrap();
    let rank = Rank::new(0, 1).unwrap();
    let (pr, pl) = (
        ShardPlan::new(&files, rank).unwrap().shuffle(3),
        ShardPlan::new(&local, rank).unwrap().shuffle(3),
    );
    for epoch in 0..3 {
        assert_eq!(stream(&files, &pr, epoch), stream(&local, &pl, epoch));
    }
    println!("cache hits: {}", files.remote_stats().cache_hits);
}

#[test]
fn a_directorys_footers_and_a_loads_chunks_are_fetched_several_at_a_time() {
    let Some(s3) = support::s3() else { return };
    let endpoint = s3.endpoint();
    put(&endpoint, "train", &dir_files(&data("spark_dir"), "p/"));
    // Every request held 800 ms: requests sent one after another never overlap at the proxy.
    let proxy = Proxy::start(s3.port, |_, _| Fault::Delay(Duration::from_millis(800)));
    let files = options(&proxy.endpoint())
        .coalesce(0)
        .open("s3://train/p/")
        .unwrap();
    let listed = proxy.requests.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(files.files().len(), 3);
    files.row_groups().unwrap();
    let footers = proxy.requests.load(std::sync::atomic::Ordering::SeqCst) - listed;
    assert_eq!(footers, 3, "one request per footer");
    let most = proxy
        .most_in_flight
        .load(std::sync::atomic::Ordering::SeqCst);
    assert!(most >= 2, "the three footers were fetched one at a time");
    // The load's chunks: the three files' requests in flight together.
    let before = proxy.requests.load(std::sync::atomic::Ordering::SeqCst);
    let proxy_most = proxy.most_in_flight.clone();
    proxy_most.store(0, std::sync::atomic::Ordering::SeqCst);
    let ds = Dataset::<Grey>::load(&mut files.clone()).unwrap();
    assert_eq!(ds.len(), 10);
    let chunks = proxy.requests.load(std::sync::atomic::Ordering::SeqCst) - before;
    // Each file's four chunks (two row groups of two columns) lie end to end: one request.
    assert_eq!(chunks, 3, "one request per file");
    assert!(proxy_most.load(std::sync::atomic::Ordering::SeqCst) >= 2);
}

/// The WebDataset spec of the shard fixtures.
#[cfg(feature = "images")]
#[derive(DataSpec)]
struct Photo {
    #[spec(source = "image")]
    image: Batch<image![16, 16, 3; BCHW, f32]>,
    #[spec(source = "label")]
    label: Batch<Index<3>>,
}

/// The folder of the shard fixtures.
#[cfg(feature = "images")]
fn wds_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/images/wds")
}

/// The three shard fixtures uploaded to the bucket `images` under `prefix/`.
#[cfg(feature = "images")]
fn put_shards(endpoint: &str, prefix: &str) {
    let dir = wds_dir();
    let shards: Vec<(String, PathBuf)> = (0..3)
        .map(|i| {
            let name = format!("shard-00000{i}.tar");
            (format!("{prefix}/{name}"), dir.join(name))
        })
        .collect();
    put(endpoint, "images", &shards);
}

/// WebDataset shards in a bucket, streamed: each shard fetched whole by one request, the same
/// batches as the same shards read from local disk; a shard over the memory limit refused by
/// its URL before it is fetched.
#[cfg(feature = "images")]
#[test]
fn webdataset_shards_stream_from_a_bucket_as_from_disk() {
    use batchspec::iteration::Shard;
    use batchspec::load::images::{ImageSteps, ShardStream};

    let Some(s3) = support::s3() else { return };
    let endpoint = s3.endpoint();
    put_shards(&endpoint, "wds");
    let steps = || {
        ImageSteps::random_resized_crop((0.3, 1.0), (0.75, 1.33))
            .flip_h(0.5)
            .scale(1.0 / 255.0)
    };
    let values = |s: &mut dyn FnMut() -> Option<Photo>| {
        std::iter::from_fn(s)
            .flat_map(|b| {
                b.image
                    .array()
                    .iter()
                    .map(|v| v.to_bits())
                    .chain(b.label.array().iter().map(|&l| l as u32))
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<u32>>()
    };
    let rank = Shard::new(0, 1).unwrap();
    let mut local = ShardStream::<Photo>::open(
        &format!("{}/shard-{{000000..000002}}.tar", wds_dir().display()),
        steps(),
        4,
        rank,
    )
    .unwrap()
    .shuffle(Some(5))
    .buffer(4);
    let mut remote = ShardStream::<Photo>::from_urls(
        "s3://images/wds/shard-{000000..000002}.tar",
        &options(&endpoint),
        steps(),
        4,
        rank,
    )
    .unwrap()
    .shuffle(Some(5))
    .buffer(4)
    .workers(2);
    let from_disk = values(&mut || local.next_owned().map(|b| b.unwrap().0));
    let from_bucket = values(&mut || remote.next_owned().map(|b| b.unwrap().0));
    assert!(!from_disk.is_empty());
    assert_eq!(from_bucket, from_disk);

    let mut small = ShardStream::<Photo>::from_urls(
        "s3://images/wds/shard-{000000..000002}.tar",
        &options(&endpoint),
        steps(),
        4,
        rank,
    )
    .unwrap()
    .max_shard_bytes(1000);
    let err = small.next_owned().unwrap().err().unwrap().to_string();
    assert!(
        err.contains("s3://images/wds/shard-0000") && err.contains("max_shard_bytes"),
        "{err}"
    );
}

/// The threads of this process named `name`, from `/proc` (Linux's names are at most 15 bytes).
fn threads_named(name: &str) -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter(|t| {
            let comm = t.as_ref().unwrap().path().join("comm");
            std::fs::read_to_string(comm).is_ok_and(|c| c.trim() == name)
        })
        .count()
}

/// A shard stream dropped while the next shard's fetch hangs (the server never answers it, the
/// timeout a minute away): the drop stops the fetch and returns at once, and no thread of the
/// stream is left reading. The same when a new epoch starts over a fetch that hangs.
#[cfg(all(feature = "images", target_os = "linux"))]
#[test]
fn a_shard_read_ahead_is_stopped_when_its_stream_is_dropped_or_starts_an_epoch() {
    use batchspec::iteration::Shard;
    use batchspec::load::images::{ImageSteps, ShardStream};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    let Some(s3) = support::s3() else { return };
    let endpoint = s3.endpoint();
    put_shards(&endpoint, "ahead");
    // Every shard's first fetch passes (the epoch's first shard, read while the caller waits);
    // every later GET hangs (the reads ahead).
    let gets = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&gets);
    let proxy = Proxy::start(s3.port, move |_, line| {
        if line.starts_with("GET") && seen.fetch_add(1, Ordering::SeqCst) > 0 {
            Fault::Hang
        } else {
            Fault::None
        }
    });
    let open = || {
        ShardStream::<Photo>::from_urls(
            "s3://images/ahead/shard-{000000..000002}.tar",
            &options(&proxy.endpoint()).timeout(Duration::from_secs(60)),
            ImageSteps::stretch(),
            1,
            Shard::new(0, 1).unwrap(),
        )
        .unwrap()
    };
    let left = || {
        // Another test's stream may hold a thread of that name for the moment of its read.
        let start = Instant::now();
        while threads_named("batchspec-shard") > 0 && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
        }
        threads_named("batchspec-shard")
    };

    let ahead_sent = || {
        let start = Instant::now();
        while gets.load(Ordering::SeqCst) < 2 && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(10));
        }
        gets.load(Ordering::SeqCst) == 2
    };

    let mut stream = open();
    assert!(stream.next_owned().unwrap().is_ok());
    // The read ahead is on its way, and hangs there.
    assert!(ahead_sent(), "no read ahead was sent");
    assert!(threads_named("batchspec-shard") > 0);
    let start = Instant::now();
    drop(stream);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "the drop waited {:?} for a read nobody wants",
        start.elapsed()
    );
    assert_eq!(left(), 0, "a read ahead outlived its stream");

    // A new epoch over a hanging read ahead: the read is stopped, the epoch's first shard read
    // afresh (its GET passes: the proxy lets the first one through, so this opening's first
    // read is the first GET).
    gets.store(0, Ordering::SeqCst);
    let mut stream = open();
    assert!(stream.next_owned().unwrap().is_ok());
    assert!(ahead_sent(), "no read ahead was sent");
    let start = Instant::now();
    gets.store(0, Ordering::SeqCst);
    stream.start_epoch(1);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert!(stream.next_owned().unwrap().is_ok());
    drop(stream);
    assert_eq!(left(), 0);
}

/// An MXNet RecordIO pack in a bucket: the index fetched whole, each batch's records by their
/// byte ranges; the same batches as the pack on local disk.
#[cfg(feature = "images")]
#[test]
fn recordio_reads_from_a_bucket_as_from_disk() {
    use batchspec::iteration::Schedule;
    use batchspec::load::images::{EncodedImages, ImageSteps, ImageStream, RecordIo};

    #[derive(DataSpec)]
    struct Photo {
        #[spec(source = "image")]
        image: Batch<image![16, 16, 3; BCHW, f32]>,
        #[spec(source = "label")]
        label: Batch<Index<4>>,
    }
    let Some(s3) = support::s3() else { return };
    let endpoint = s3.endpoint();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/images/rec");
    let files: Vec<(String, PathBuf)> = ["folder.rec", "folder.idx", "split.rec", "split.idx"]
        .iter()
        .map(|n| (format!("rec/{n}"), dir.join(n)))
        .collect();
    put(&endpoint, "packs", &files);
    for name in ["folder", "split"] {
        let local = RecordIo::open(dir.join(format!("{name}.rec"))).unwrap();
        let remote =
            RecordIo::open_url(&format!("s3://packs/rec/{name}.rec"), &options(&endpoint)).unwrap();
        let n = local.len();
        assert_eq!(remote.len(), n);
        let steps = || {
            ImageSteps::resize_shorter(20)
                .random_crop()
                .flip_h(0.5)
                .scale(1.0 / 255.0)
        };
        let schedule = || {
            Schedule::builder(n)
                .batch_size(3)
                .shuffle(true)
                .seed(4)
                .build()
                .unwrap()
        };
        let values = |mut s: ImageStream<Photo>| {
            std::iter::from_fn(|| s.next_owned())
                .flat_map(|b| {
                    let b = b.unwrap().0;
                    b.image
                        .array()
                        .iter()
                        .map(|v| v.to_bits())
                        .chain(b.label.array().iter().map(|&l| l as u32))
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<u32>>()
        };
        let from_disk = values(ImageStream::new(local, steps(), schedule()).unwrap());
        let from_bucket = values(
            ImageStream::new(remote, steps(), schedule())
                .unwrap()
                .workers(2),
        );
        assert_eq!(from_bucket, from_disk, "{name}");
    }
}
