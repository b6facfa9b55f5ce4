//! Parquet part files streamed from an S3-compatible server on loopback (moto, started here from
//! the venv `.ci/s3 install` makes), beside the same files on local disk and beside pyarrow's S3
//! filesystem reading them from the same server, in the same run: 8 part files of 3000 rows ×
//! 784 f32 features + int64 labels, row groups of 1000 rows (3.1 MB), uncompressed; one rank
//! streams every epoch (batch 128, a window of 2 row groups, shuffled, read ahead) into f32
//! vectors and one-hot targets. Per epoch it prints the requests sent and the bytes fetched, and
//! with the cache on, a cold epoch (filling it) and a warm one (served from local disk).
//!
//! moto answers every ranged GET by reading the whole object (the facts file measured 65-90
//! MB/s on a 51 MB object), so the remote figures measure the server as much as the reader; they
//! are compared with pyarrow against the same server, never with a real S3.
//!
//! `cargo bench -p batchspec-bench --bench remote` (`BENCH_QUICK=1`: fewer epochs).
//! Lines: `case=remote how=local|s3|s3_cache_cold|s3_cache_warm samples_per_s=..
//! requests_per_epoch=.. mb_per_epoch=.. ratio_local=.. ratio_pyarrow_s3=..`.

use batchspec::load::{ParquetFiles, Rank, RemoteOptions};
use batchspec_bench::median;
use parquet::basic::Compression;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PARTS: usize = 8;
const ROWS: usize = 3000;
const GROUP: usize = 1000;
const BATCH: usize = 128;
const N: usize = PARTS * ROWS;

/// One epoch of the whole of `files`, streamed into a request.
fn epoch(files: &ParquetFiles, e: u64) -> usize {
    let rows = batchspec_bench::stream_epoch(files, Rank::new(0, 1).unwrap(), e, BATCH, 2, (1, 1));
    assert_eq!(rows, N);
    rows
}

/// The median seconds of `reps` epochs of `files` (epochs 1..=reps, after a first one not timed).
fn time(files: &ParquetFiles, reps: usize) -> f64 {
    epoch(files, 0);
    median(
        (1..=reps as u64)
            .map(|e| {
                let t = Instant::now();
                epoch(files, e);
                t.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn tools() -> Option<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/s3");
    let out = Command::new(script).arg("install").output().ok()?;
    let bin = PathBuf::from(String::from_utf8(out.stdout).ok()?.lines().last()?.trim());
    (out.status.success() && bin.join("moto_server").exists()).then_some(bin)
}

fn python(bin: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new(bin.join("python")).args(args).output().ok()?;
    if !out.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    String::from_utf8(out.stdout).ok()
}

fn main() {
    batchspec_bench::record::start("remote", std::env::var_os("BENCH_QUICK").is_some());
    let reps = if std::env::var_os("BENCH_QUICK").is_some() {
        3
    } else {
        5
    };
    let Some(bin) = tools() else {
        batchspec_bench::out!(
            "case=remote skipped: moto cannot be installed here (`.ci/s3 install`)"
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("batchspec-remote-{}", std::process::id()));
    let parts = dir.join("parts");
    std::fs::create_dir_all(&parts).unwrap();
    for k in 0..PARTS {
        batchspec_bench::write_features(
            &parts.join(format!("part-{k:05}.parquet")),
            Compression::UNCOMPRESSED,
            k * ROWS..(k + 1) * ROWS,
            GROUP,
        );
    }
    let bytes: u64 = std::fs::read_dir(&parts)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    batchspec_bench::out!(
        "# {PARTS} part files of {ROWS} rows x 784 f32 + int64 labels, row groups of {GROUP}, uncompressed, {:.0} MB; batch {BATCH}, window of 2 row groups, shuffled, read ahead; median of {reps} epochs",
        bytes as f64 / 1e6
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let _server = Server(
        Command::new(bin.join("moto_server"))
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "moto did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let endpoint = format!("http://127.0.0.1:{port}");
    let upload = format!(
        "import boto3, os\ns3 = boto3.client('s3', endpoint_url='{endpoint}', aws_access_key_id='testing', aws_secret_access_key='testing', region_name='us-east-1')\ns3.create_bucket(Bucket='bench')\nfor n in sorted(os.listdir({parts:?})):\n    s3.upload_file(os.path.join({parts:?}, n), 'bench', 'parts/' + n)\n",
        parts = parts.display().to_string()
    );
    python(&bin, &["-c", &upload]).expect("the upload");
    let options = || {
        let mut o = RemoteOptions::new().setting("aws_endpoint", &endpoint);
        for (k, v) in [
            ("aws_access_key_id", "testing"),
            ("aws_secret_access_key", "testing"),
            ("aws_region", "us-east-1"),
            ("aws_allow_http", "true"),
        ] {
            o = o.setting(k, v);
        }
        o
    };
    let url = "s3://bench/parts/";
    let local = time(&ParquetFiles::open(&parts).unwrap(), reps);
    let remote_files = options().open(url).unwrap();
    let remote = time(&remote_files, reps);
    let stats = remote_files.remote_stats();
    // Epochs: the untimed first one and the timed ones; the footers are read once, in the first.
    let epochs = (reps + 1) as f64;
    let cache = dir.join("cache");
    let cached = options().cache(&cache, 4 * bytes).open(url).unwrap();
    let t = Instant::now();
    epoch(&cached, 0);
    let cold = t.elapsed().as_secs_f64();
    let cold_stats = cached.remote_stats();
    // A new opening (as a new process would): every range from the cache.
    let warm_files = options().cache(&cache, 4 * bytes).open(url).unwrap();
    let warm = time(&warm_files, reps);
    let warm_stats = warm_files.remote_stats();
    // pyarrow's S3 filesystem against the same server (pyarrow and NumPy into the same venv).
    let pyarrow = Command::new(bin.join("pip"))
        .args([
            "install",
            "-q",
            "--disable-pip-version-check",
            "pyarrow",
            "numpy",
        ])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|_| {
            let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/remote_pyarrow.py");
            let script = script.display().to_string();
            let reps = reps.to_string();
            let batch = BATCH.to_string();
            let text = python(
                &bin,
                &[&script, &endpoint, "bench", "parts", &batch, "2", &reps],
            )?;
            text.split_whitespace().find_map(|kv| {
                kv.strip_prefix("pyarrow_s3_samples_per_s=")?
                    .parse::<f64>()
                    .ok()
            })
        });
    let versus = |secs: f64| {
        pyarrow.map_or_else(
            || " ratio_pyarrow_s3=n/a (pyarrow could not be installed)".to_owned(),
            |py| {
                format!(
                    " pyarrow_s3_samples_per_s={py:.0} ratio_pyarrow_s3={:.2}",
                    N as f64 / secs / py
                )
            },
        )
    };
    let mb = |b: u64| b as f64 / 1e6;
    batchspec_bench::out!(
        "case=remote how=local samples_per_s={:.0} file_mb={:.0}",
        N as f64 / local,
        mb(bytes)
    );
    batchspec_bench::out!(
        "case=remote how=s3 samples_per_s={:.0} requests_per_epoch={:.1} mb_per_epoch={:.1} ratio_local={:.2}{}",
        N as f64 / remote,
        stats.requests as f64 / epochs,
        mb(stats.bytes) / epochs,
        local / remote,
        versus(remote)
    );
    batchspec_bench::out!(
        "case=remote how=s3_cache_cold samples_per_s={:.0} requests={} mb={:.1} ratio_local={:.2}{} (one epoch, filling the cache)",
        N as f64 / cold,
        cold_stats.requests,
        mb(cold_stats.bytes),
        local / cold,
        versus(cold)
    );
    batchspec_bench::out!(
        "case=remote how=s3_cache_warm samples_per_s={:.0} requests={} cache_hits_per_epoch={:.1} cache_mb_per_epoch={:.1} ratio_local={:.2}{}",
        N as f64 / warm,
        warm_stats.requests,
        warm_stats.cache_hits as f64 / epochs,
        mb(warm_stats.cache_bytes) / epochs,
        local / warm,
        versus(warm)
    );
    std::fs::remove_dir_all(&dir).ok();
}
