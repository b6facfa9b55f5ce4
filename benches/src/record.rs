//! Every benchmark run as a record: the CPU and its caches printed first (and the library's
//! `BATCHSPEC_*` overrides in force, if any), then each line the bench prints also appended,
//! under a header naming the date, the commit and the command, to
//! `benches/results/raw/<date>-<host>-<bench>.txt` (one file per day, host and bench; runs of the
//! same day follow each other in it). A short run (`BENCH_QUICK`, `--quick`) is not recorded
//! unless `BATCHSPEC_BENCH_RECORD=1`; `BATCHSPEC_BENCH_RECORD=0` records nothing.
//!
//! Shared by the benches of `batchspec-bench` (its `record` module) and those of the adapter
//! packages (`#[path]`-included), so it uses the standard library only.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

static FILE: Mutex<Option<std::fs::File>> = Mutex::new(None);

/// Starts the record of the bench `bench` (`"gather"`): prints the CPU line, and opens the
/// results file unless the run is short (`quick`) or recording is turned off. The file's header
/// says when, on what and from which commit the run was made.
pub fn start(bench: &str, quick: bool) {
    let cpu = cpu_model();
    let wanted = match std::env::var("BATCHSPEC_BENCH_RECORD").as_deref() {
        Ok("0") => false,
        Ok("1") => true,
        _ => !quick,
    };
    if wanted && let Some(dir) = results_dir() {
        let path = dir.join(format!("{}-{}-{bench}.txt", today(), host_slug(&cpu)));
        let file = std::fs::create_dir_all(&dir).and_then(|()| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
        });
        match file {
            Ok(mut f) => {
                let args: Vec<String> = std::env::args().skip(1).collect();
                let _ = writeln!(
                    f,
                    "\n## run at {} UTC, commit {}, `{bench}` {}{}",
                    now(),
                    commit(),
                    args.join(" "),
                    if quick { " (short run)" } else { "" }
                );
                *FILE.lock().unwrap_or_else(|e| e.into_inner()) = Some(f);
                eprintln!("# recording to {}", path.display());
            }
            Err(e) => eprintln!("# not recorded: {}: {e}", path.display()),
        }
    }
    line(&format!("# cpu: {cpu}"));
    // The library's tuning overrides in force (`BATCHSPEC_AVX512=0`...): a run with one is not
    // a run of the kernel as it chooses.
    let mut overrides: Vec<String> = std::env::vars()
        .filter(|(k, _)| k.starts_with("BATCHSPEC_") && !k.starts_with("BATCHSPEC_BENCH_"))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    overrides.sort();
    if !overrides.is_empty() {
        line(&format!("# overrides: {}", overrides.join(" ")));
    }
}

/// Prints `text` and appends it to the run's record.
pub fn line(text: &str) {
    println!("{text}");
    if let Some(f) = FILE.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        let _ = writeln!(f, "{text}");
    }
}

/// `benches/results/raw` of the workspace the bench was built from.
fn results_dir() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|d| d.join("benches/results").is_dir())
        .map(|d| d.join("benches/results/raw"))
}

/// The commit checked out (`git rev-parse --short HEAD`), with `+changes` when the tree differs
/// from it outside `benches/results` (the runs recorded since the commit are not changes of the
/// code measured), or `unknown`.
fn commit() -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short", "HEAD"]) {
        Some(head) => match git(&[
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            ":/",
            ":(top,exclude)benches/results",
        ]) {
            Some(s) if !s.is_empty() => format!("{head}+changes"),
            _ => head,
        },
        None => "unknown".into(),
    }
}

/// Seconds since the epoch, as a UTC civil date and time.
fn civil(secs: u64) -> (i64, u64, u64, u64, u64, u64) {
    // Howard Hinnant's days-to-civil algorithm.
    let days = (secs / 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097) as u64;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe as i64 + era * 400 + i64::from(m <= 2);
    let t = secs % 86_400;
    (y, m, d, t / 3600, t / 60 % 60, t % 60)
}

fn epoch_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn today() -> String {
    let (y, m, d, ..) = civil(epoch_secs());
    format!("{y:04}-{m:02}-{d:02}")
}

fn now() -> String {
    let (y, m, d, h, mi, s) = civil(epoch_secs());
    format!("{y:04}-{m:02}-{d:02} {h:02}:{mi:02}:{s:02}")
}

/// The host's kind in a file name: `intel-xeon`, `amd-epyc`, else the model's first two words.
fn host_slug(cpu: &str) -> String {
    if cpu.contains("Xeon") {
        return "intel-xeon".into();
    }
    if cpu.contains("EPYC") {
        return "amd-epyc".into();
    }
    let words: Vec<String> = cpu
        .split([' ', ';', '(', ')'])
        .filter(|w| !w.is_empty())
        .take(2)
        .map(|w| w.to_ascii_lowercase())
        .collect();
    if words.is_empty() {
        "host-unknown".into()
    } else {
        words.join("-")
    }
}

/// The CPU the figures were measured on, from `/proc/cpuinfo` (`model name`), or `unknown`, with
/// its caches ([`cpu_caches`]): the project's machines change host, and ratios to memcpy differ
/// between them.
pub fn cpu_model() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, name)| name.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    format!("{model}; caches: {}", cpu_caches())
}

/// The data and unified caches of CPU 0 as sysfs gives them (`L1d 48K, L2 2048K, L3 307200K`),
/// or `unknown`: the bars depend on them, and hosts differ (32 to 480 MiB of L3).
pub fn cpu_caches() -> String {
    let base = Path::new("/sys/devices/system/cpu/cpu0/cache");
    let mut caches: Vec<(String, String)> = (0..8)
        .filter_map(|i| {
            let dir = base.join(format!("index{i}"));
            let read = |f: &str| {
                std::fs::read_to_string(dir.join(f))
                    .ok()
                    .map(|s| s.trim().to_owned())
            };
            let (level, kind, size) = (read("level")?, read("type")?, read("size")?);
            match kind.as_str() {
                "Instruction" => None,
                "Data" => Some((format!("L{level}d"), size)),
                _ => Some((format!("L{level}"), size)),
            }
        })
        .collect();
    caches.sort();
    if caches.is_empty() {
        return "unknown".into();
    }
    caches
        .iter()
        .map(|(l, s)| format!("{l} {s}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn civil_dates() {
        assert_eq!(super::civil(0), (1970, 1, 1, 0, 0, 0));
        // 2026-11-27 02:30:12 UTC.
        assert_eq!(super::civil(1_795_746_612), (2026, 11, 27, 2, 30, 12));
        assert_eq!(super::civil(951_782_400), (2000, 2, 29, 0, 0, 0));
    }
}
