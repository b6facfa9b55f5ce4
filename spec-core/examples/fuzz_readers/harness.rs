//! The readers' fuzzer's harness: the allocator that records the largest allocation, the
//! random damages, the panic counter, and the run and report of one reader. Shared by the core's
//! `fuzz_readers` and the text package's `fuzz_text` (which includes this file by its path: the
//! core cannot name the text package).

use std::alloc::{GlobalAlloc, Layout, System};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Records the largest single allocation since the last reset.
struct Largest;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to `System`, which upholds `GlobalAlloc`'s contract.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        // SAFETY: as for `dealloc`, and `new_size` is the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Largest = Largest;

/// xorshift64*: deterministic, no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// `seed` with one to three random damages.
pub fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    const BYTES: &[u8] = b"\x00\xff\x7f\x80019,.-e\n\r\"\t ";
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(3) {
        let len = v.len();
        match rng.below(8) {
            0 if len > 0 => {
                let i = rng.below(len);
                v[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                v[i] = BYTES[rng.below(BYTES.len())];
            }
            2 if len >= 4 => {
                // A header word set to a huge number, in either byte order.
                let i = rng.below(len - 3);
                let word: [u8; 4] = match rng.below(4) {
                    0 => [0xff; 4],
                    1 => [0x7f, 0xff, 0xff, 0xff],
                    2 => [0xff, 0xff, 0xff, 0x7f],
                    _ => [0x00, 0x01, 0x00, 0x00],
                };
                v[i..i + 4].copy_from_slice(&word);
            }
            3 => v.truncate(rng.below(len + 1)),
            4 if len > 0 => {
                // A slice copied elsewhere.
                let a = rng.below(len);
                let b = (a + 1 + rng.below(64)).min(len);
                let piece = v[a..b].to_vec();
                let at = rng.below(v.len() + 1);
                v.splice(at..at, piece);
            }
            5 if len > 0 => {
                let a = rng.below(len);
                let b = (a + 1 + rng.below(16)).min(len);
                v.drain(a..b);
            }
            6 if len > 0 => {
                // Digits written where digits were (numbers that are too large, or negative).
                let i = rng.below(len);
                let digits = ["99999999999999999999", "-1", "1e309", "4294967296", "nan"];
                let d = digits[rng.below(digits.len())].as_bytes();
                v.splice(i..(i + 1).min(len), d.iter().copied());
            }
            _ => {
                let i = rng.below(len + 1);
                v.insert(i, BYTES[rng.below(BYTES.len())]);
            }
        }
    }
    v
}

/// Panics seen by the hook: those that escaped a load and those a reader caught.
pub static PANICS: AtomicUsize = AtomicUsize::new(0);

/// Where the panics were raised (file and line), with their counts.
pub static PANIC_SITES: std::sync::Mutex<std::collections::BTreeMap<String, usize>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// This process's peak resident memory since the last reset, in KB (Linux; 0 elsewhere).
fn peak_rss_kb() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

/// Starts a new peak of resident memory (Linux 4.0 and later).
fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// What one reader's run found.
#[derive(Default)]
pub struct Report {
    pub inputs: usize,
    pub ok: usize,
    pub panics: usize,
    /// Panics inside a load that the reader caught (the `parquet` crate's).
    pub caught: usize,
    /// The highest peak resident memory of an input, in KB.
    pub peak_rss_kb: usize,
    pub slowest: Duration,
    /// The largest single allocation of any input, and that input.
    pub worst_alloc: usize,
    pub worst_input: Vec<u8>,
    pub over_budget: usize,
}

/// The budget of an input: 16 bytes per byte of file, plus 4 MB.
pub fn budget(len: usize) -> usize {
    16 * len + (4 << 20)
}

/// Runs `n` damaged versions of `seeds` (damaged by `damage`) through `load`, which reads the
/// file at `path` (of the length given) within a budget.
pub fn fuzz(
    name: &str,
    seeds: &[Vec<u8>],
    n: usize,
    rng: &mut Rng,
    dir: &Path,
    damage: fn(&[u8], &mut Rng) -> Vec<u8>,
    load: impl Fn(&Path, usize) -> bool,
) -> Report {
    fuzz_within(name, seeds, n, rng, dir, damage, load, budget)
}

/// [`fuzz`] with another budget: the image readers', which a spec sets.
#[allow(clippy::too_many_arguments)]
pub fn fuzz_within(
    name: &str,
    seeds: &[Vec<u8>],
    n: usize,
    rng: &mut Rng,
    dir: &Path,
    damage: fn(&[u8], &mut Rng) -> Vec<u8>,
    load: impl Fn(&Path, usize) -> bool,
    budget: fn(usize) -> usize,
) -> Report {
    let path = dir.join(format!("input-{name}"));
    let mut report = Report::default();
    for i in 0..n {
        let input = damage(&seeds[i % seeds.len()], rng);
        std::fs::write(&path, &input).expect("a writable temp dir");
        LARGEST.store(0, Ordering::Relaxed);
        reset_peak_rss();
        let panics = PANICS.load(Ordering::Relaxed);
        let started = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| load(&path, input.len())));
        let took = started.elapsed();
        let largest = LARGEST.load(Ordering::Relaxed);
        report.peak_rss_kb = report.peak_rss_kb.max(peak_rss_kb());
        let seen = PANICS.load(Ordering::Relaxed) - panics;
        let caught = seen - usize::from(outcome.is_err()).min(seen);
        report.caught += caught;
        if caught > 0 {
            keep(&format!("{name}-{i}-caught"), &input);
        }
        report.inputs += 1;
        report.slowest = report.slowest.max(took);
        match outcome {
            Ok(true) => report.ok += 1,
            Ok(false) => {}
            Err(_) => {
                report.panics += 1;
                keep(&format!("{name}-{i}"), &input);
            }
        }
        let over = largest > budget(input.len());
        if over || took > Duration::from_secs(2) {
            let why = if over { "over-budget" } else { "slow" };
            keep(&format!("{name}-{i}-{why}"), &input);
        }
        if over {
            report.over_budget += 1;
        }
        if largest > report.worst_alloc {
            report.worst_alloc = largest;
            report.worst_input = input;
        }
    }
    report
}

/// Keeps a failing input in `target/fuzz-crashes/`, to be replayed.
fn keep(file: &str, input: &[u8]) {
    let crashes = Path::new("target/fuzz-crashes");
    let _ = std::fs::create_dir_all(crashes);
    let _ = std::fs::write(crashes.join(file), input);
}

/// Counts every panic (those that escape a load and those a reader catches) by its site, and
/// prints none.
pub fn count_panics() {
    std::panic::set_hook(Box::new(|info| {
        PANICS.fetch_add(1, Ordering::Relaxed);
        let site = info.location().map_or_else(String::new, |l| {
            // The crate's path from its registry folder on.
            let file = l.file();
            let file = file.find("/src/").map_or(file, |i| {
                let head = &file[..i];
                &file[head.rfind('/').map_or(0, |j| j + 1)..]
            });
            format!("{file}:{}", l.line())
        });
        if let Ok(mut sites) = PANIC_SITES.lock() {
            *sites.entry(site).or_default() += 1;
        }
    }));
}

/// Prints the reports as a table, the panics by site, and keeps each reader's input of the
/// largest allocation in `target/fuzz-largest/`; whether any reader failed (a panic, one its
/// guard caught included: it would be an abort in a program built with `panic = "abort"`; an
/// input over 2 s; an allocation over budget).
pub fn print_reports(n: usize, seed: u64, reports: &[(&str, Report)]) -> bool {
    println!("{n} damaged inputs per reader, seed {seed}");
    println!(
        "| reader | inputs | loaded | panics | caught in the decoder | slowest | largest allocation | peak RSS | over budget |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let mut failed = false;
    let largest = Path::new("target/fuzz-largest");
    let _ = std::fs::create_dir_all(largest);
    for (name, r) in reports {
        let file: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
        let _ = std::fs::write(largest.join(file), &r.worst_input);
        println!(
            "| {name} | {} | {} | {} | {} | {:.1} ms | {} KB | {} MB | {} |",
            r.inputs,
            r.ok,
            r.panics,
            r.caught,
            r.slowest.as_secs_f64() * 1000.0,
            r.worst_alloc / 1024,
            r.peak_rss_kb / 1024,
            r.over_budget
        );
        failed |=
            r.panics > 0 || r.caught > 0 || r.over_budget > 0 || r.slowest > Duration::from_secs(2);
    }
    if let Ok(sites) = PANIC_SITES.lock()
        && !sites.is_empty()
    {
        println!("\npanics by site (caught by a reader's guard unless counted above):");
        for (site, n) in sites.iter() {
            println!("- {site}: {n}");
        }
    }
    failed
}
