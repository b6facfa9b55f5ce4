//! The kernels' choices, made from the machine they run on: the cache sizes the operating system
//! reports (sysfs on Linux), each choice overridable by an environment variable, read once per
//! process.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

/// Knobs of the kernel choice, for tests and benchmarks; not part of the stable API.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// Allow the SIMD kernels.
    pub simd: bool,
    /// Allow the de-interleave and interleave kernels.
    pub small: bool,
    /// Allow the AVX-512 blocks of the 4-byte transpositions, where the CPU has AVX-512.
    pub wide: bool,
    /// Non-temporal stores for outputs of at least this many bytes (`usize::MAX`: never).
    pub nt_min_bytes: usize,
    /// Outputs of at least this many bytes and fewer than `nt_min_bytes` (which the last-level
    /// cache could hold): whether [`permute_into`](crate::permute_into) writes them with
    /// non-temporal stores when it transposes in panels (4-byte destination rows of at most 64
    /// columns, as `bchw -> chwb`) is calibrated at first use, for one thread and for more
    /// (`usize::MAX`: never, plain stores; the other kernels use plain stores there).
    pub nt_trial_min_bytes: usize,
    /// Split over threads only outputs of at least this many bytes.
    pub par_min_bytes: usize,
    /// Destination rows per strip of the tiled transpositions.
    pub strip_rows: usize,
    /// Streaming-store transpositions go through a per-thread staging buffer.
    pub staged: bool,
    /// Streaming-store de-interleaves read a core in this many parts at once, a step of each in
    /// turn (1: in order): beyond the last-level cache, reads from several pages at a time
    /// keep more of the memory busy, as glibc's memcpy does for large copies. How many pays
    /// depends on the host: [`permute_into`](crate::permute_into) calibrates this count against
    /// 1 part (in order) at first use (unless `BATCHSPEC_STREAM_PARTS` forces it).
    pub stream_parts: usize,
    /// Streaming-store de-interleaves read in one part (in order) write runs of this many
    /// pixels of one channel's row at a time, the next run's source prefetched meanwhile (0, or
    /// fewer than 16: a line of each of the three rows per step, three streams of streaming
    /// stores open at once). On a 32 MiB-L3 EPYC, runs of 1024 took case L (308 MB) from a
    /// median 0.78 to 0.87 × memcpy and case A (38 MB) from 1.09 to 1.29 (9 and 3 processes of
    /// alternated rounds, `permute_into_tuned`); runs of 512 to 4096 alike.
    pub stream_runs: usize,
    /// Streaming-store transpositions of 4-byte values write this many lines of each
    /// destination row in turn (at least 1), reading as many blocks of source rows at once:
    /// the memory takes longer runs of each row.
    pub stream_lines: usize,
    /// Streamed 4-byte transpositions in blocks (the panels of narrow rows, as `bchw -> chwb`,
    /// and the direct blocks of wide ones, as a 2-D transpose) prefetch each block's 16 source
    /// lines this many blocks (16 values) further along their rows into the level-2 cache (0:
    /// none). A panel reads one line of each of up to 64 source rows, a column of direct blocks
    /// up to 64 rows at once: more streams than the hardware prefetchers follow. On a 32
    /// MiB-L3 EPYC (Zen 5, 1 MiB of L2), `bchw -> chwb` (38 MB) ran 0.39-0.54 x memcpy without
    /// and 0.69-0.91 with it, 1 to 4 blocks ahead alike (3 processes each, AVX-512 blocks; AVX2
    /// blocks 1.01-1.23; `prefetcht0`, into the level-1 cache, 0.44-0.62); the direct blocks of
    /// the 8192 x 8192 transpose (4 lines of each row) 0.59-0.60 without, 0.79-0.88 two to four
    /// blocks ahead, 0.72 eight ahead (one process each). Plain stores (outputs the cache could
    /// hold) do not prefetch.
    pub stream_prefetch: usize,
    /// Streamed transpositions in panels use the AVX-512 blocks where the CPU has them (else
    /// the AVX2 blocks). Which is faster depends on the host: [`permute_into`](crate::permute_into)
    /// calibrates it at first use (unless `BATCHSPEC_WIDE_PANELS` forces it). On a 32 MiB-L3
    /// EPYC (Zen 5), their source prefetched, the AVX2 blocks ran `bchw -> chwb` (38 MB) at
    /// 1.01-1.23 x memcpy against 0.71-0.83 for AVX-512's (without the prefetch, 0.42 against
    /// 0.72); on a 300 MiB-L3 Xeon, without it, AVX-512's took it from 0.70 to 0.85.
    pub wide_panels: bool,
    /// A gather of rows prefetches the row this many rows ahead (0: none)...
    pub prefetch_rows: usize,
    /// ...its first this many 64-byte lines (0: the whole row, up to 4 KB). Which pays depends
    /// on the host: [`gather_rows`](crate::gather_rows) calibrates the whole row against
    /// [`ROW_PREFETCH_LINES`](crate::ROW_PREFETCH_LINES) lines at first use (unless
    /// `BATCHSPEC_PREFETCH_LINES` forces it). On a 32 MiB-L3 EPYC the whole row, two rows
    /// ahead, took a shuffled epoch of 3136-byte rows from 0.64 to 1.30 × memcpy; on an 8
    /// MiB-L3 Zen 1 EPYC it was slower than no prefetch (0.61-0.78 against 0.65-0.80, a scratch
    /// loop of the bench's epoch), and the first 4 lines, which start the hardware's own
    /// prefetch of the rest, ran 0.68-0.95.
    pub prefetch_lines: usize,
    /// ...from sources of at least this many bytes.
    pub prefetch_min_bytes: usize,
}

impl Default for Tuning {
    /// The fixed choices, whatever the machine (what tests force each path from).
    fn default() -> Self {
        Tuning {
            simd: true,
            small: true,
            wide: true,
            nt_min_bytes: 8 << 20,
            nt_trial_min_bytes: usize::MAX,
            par_min_bytes: 4 << 20,
            strip_rows: 1024,
            staged: true,
            stream_parts: 4,
            stream_runs: 1024,
            stream_lines: 2,
            stream_prefetch: 2,
            wide_panels: true,
            prefetch_rows: 2,
            prefetch_lines: 0,
            prefetch_min_bytes: 4 << 20,
        }
    }
}

impl Tuning {
    /// The choices for the machine the process runs on, made once: from its caches
    /// ([`Caches::of_machine`]; non-temporal stores for outputs of at least three eighths
    /// of the last-level cache, which with an input as large fill three quarters of it,
    /// calibrated from 8 MB up to that), then from the environment,
    /// which overrides each: `BATCHSPEC_NT_MIN_BYTES` (`8M`, `never`; set, it turns the
    /// calibration off), `BATCHSPEC_NT_TRIAL_MIN_BYTES` (`never`: no calibration),
    /// `BATCHSPEC_PAR_MIN_BYTES`,
    /// `BATCHSPEC_STRIP_ROWS`, `BATCHSPEC_STAGED` (`0`/`1`), `BATCHSPEC_STREAM_PARTS`,
    /// `BATCHSPEC_STREAM_RUNS` (`0`: a line of each row per step), `BATCHSPEC_STREAM_LINES`,
    /// `BATCHSPEC_STREAM_PREFETCH` (`0`: none), `BATCHSPEC_WIDE_PANELS` (`0`/`1`; set, it turns
    /// the calibration off), `BATCHSPEC_AVX512` (`0`: the AVX2 blocks even where the CPU has
    /// AVX-512),
    /// `BATCHSPEC_PREFETCH_ROWS` (`0`: no prefetch), `BATCHSPEC_PREFETCH_LINES` (`0`: whole
    /// rows; set, it turns the calibration off), `BATCHSPEC_PREFETCH_MIN_BYTES`. What
    /// [`permute_into`](crate::permute_into) and [`gather_rows`](crate::gather_rows) use.
    pub fn for_machine() -> Tuning {
        machine_tuning()
    }
}

/// The data and unified caches of the machine, in bytes (0 where unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Caches {
    /// The level-1 data cache of one core.
    pub l1d: usize,
    /// The level-2 cache of one core.
    pub l2: usize,
    /// The last-level cache (level 3, else level 2), as the operating system reports it: on a
    /// virtual machine, the host's whole cache, shared with its other guests.
    pub llc: usize,
}

impl Caches {
    /// The caches of CPU 0 as Linux's sysfs gives them; zeros elsewhere.
    pub fn of_machine() -> Caches {
        static CACHES: OnceLock<Caches> = OnceLock::new();
        *CACHES.get_or_init(read_caches)
    }
}

fn read_caches() -> Caches {
    let base = std::path::Path::new("/sys/devices/system/cpu/cpu0/cache");
    let mut caches = Caches::default();
    for i in 0..8 {
        let dir = base.join(format!("index{i}"));
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
        let (Some(level), Some(kind), Some(size)) = (read("level"), read("type"), read("size"))
        else {
            continue;
        };
        let Some(bytes) = parse_size(size.trim()) else {
            continue;
        };
        match (level.trim(), kind.trim()) {
            ("1", "Data") => caches.l1d = bytes,
            ("2", "Unified" | "Data") => caches.l2 = bytes,
            ("3", "Unified") => caches.llc = bytes,
            _ => {}
        }
    }
    if caches.llc == 0 {
        caches.llc = caches.l2;
    }
    caches
}

/// `48K`, `2048K`, `300M` as bytes.
fn parse_size(s: &str) -> Option<usize> {
    let (digits, unit) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => s.split_at(at),
        None => (s, ""),
    };
    let n: usize = digits.parse().ok()?;
    let scale = match unit {
        "" => 1,
        "K" | "KB" | "k" => 1 << 10,
        "M" | "MB" => 1 << 20,
        "G" | "GB" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(scale)
}

/// A size from the environment (`8388608`, `8M`, `64K`; `never` is the largest size), if the
/// variable is set to one.
fn env_bytes(name: &str) -> Option<usize> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    if v.eq_ignore_ascii_case("never") {
        return Some(usize::MAX);
    }
    parse_size(v)
}

fn env_flag(name: &str) -> Option<bool> {
    match std::env::var(name).ok()?.trim() {
        "1" | "true" | "on" | "yes" => Some(true),
        "0" | "false" | "off" | "no" => Some(false),
        _ => None,
    }
}

fn env_count(name: &str) -> Option<usize> {
    std::env::var(name).ok()?.trim().parse().ok()
}

/// The tuning of this machine (see [`Tuning::for_machine`]).
pub(crate) fn machine_tuning() -> Tuning {
    static TUNING: OnceLock<Tuning> = OnceLock::new();
    *TUNING.get_or_init(|| tuning_for(Caches::of_machine()))
}

/// The tuning for caches `c`, then the environment's overrides.
pub(crate) fn tuning_for(c: Caches) -> Tuning {
    let mut t = Tuning {
        nt_trial_min_bytes: 8 << 20,
        ..Tuning::default()
    };
    // Non-temporal stores bypass the caches: they win when the output would not stay in the
    // last-level cache anyway, so from a size whose call fills most of it (below), and never
    // below the fixed 8 MB measured on a 32 MB host. In between, where the cache could hold the output, it depends
    // on the host and the kernel. On a 300 MiB-L3 Xeon they lost for the 3-channel
    // de-interleave (a 38 MB `bhwc -> bchw` at 0.72 against 0.96 x memcpy). On a 260 MiB-L3
    // Xeon the transposition in panels (`bchw -> chwb`, 38 MB) ran 1.02-1.35 x memcpy with them
    // against 0.75-0.84 without (medians of runs alternated), and faster in a loop of its own
    // with a read of its output after each call (6.2 against 7.3-8.0 ms). The de-interleave,
    // calibrated the same way, ran 1.66 and 1.75 in two full runs and 0.71 (a pass at 0.65) in
    // the next, its streamed output at 17-20 GB/s whatever the L3 did while memcpy's in-cache
    // speed moved from 19 to 26 (0.91-1.08 with plain stores); the small cores of `bwc -> bcw`
    // lost (0.68-0.75 against 0.85) when the output was dirty in the cache before the call. So
    // the panels try both at first use; the others keep plain stores.
    //
    // What the cache must hold is the call's input as well as its output: an output of three
    // eighths of the cache, read from an input as large, fills three quarters of it. On a Xeon
    // with a 480 MiB L3 (2 MiB of L2), the threshold at three quarters of the cache for the
    // output alone (360 MB) left the 8192 x 8192 transpose (268 MB a side) and case L (308 MB)
    // on plain stores: 0.20-0.21 and 0.62-0.65 x memcpy in three processes, against 0.79 and
    // 1.05 streamed. On the smaller caches seen (32 to 300 MiB) no output the benches time
    // moves across the change.
    if c.llc > 0 {
        t.nt_min_bytes = (c.llc / 8 * 3).max(8 << 20);
    }
    if let Some(b) = env_bytes("BATCHSPEC_NT_MIN_BYTES") {
        t.nt_min_bytes = b;
        t.nt_trial_min_bytes = usize::MAX;
    }
    if let Some(b) = env_bytes("BATCHSPEC_NT_TRIAL_MIN_BYTES") {
        t.nt_trial_min_bytes = b;
    }
    if let Some(b) = env_bytes("BATCHSPEC_PAR_MIN_BYTES") {
        t.par_min_bytes = b;
    }
    if let Some(n) = env_count("BATCHSPEC_STRIP_ROWS").filter(|&n| n > 0) {
        t.strip_rows = n;
    }
    if let Some(s) = env_flag("BATCHSPEC_STAGED") {
        t.staged = s;
    }
    if let Some(n) = env_count("BATCHSPEC_STREAM_PARTS").filter(|&n| n > 0) {
        t.stream_parts = n;
    }
    if let Some(n) = env_count("BATCHSPEC_STREAM_RUNS") {
        t.stream_runs = n;
    }
    if let Some(n) = env_count("BATCHSPEC_STREAM_LINES").filter(|&n| n > 0) {
        t.stream_lines = n;
    }
    if let Some(n) = env_count("BATCHSPEC_STREAM_PREFETCH") {
        t.stream_prefetch = n;
    }
    if let Some(w) = env_flag("BATCHSPEC_WIDE_PANELS") {
        t.wide_panels = w;
    }
    if let Some(w) = env_flag("BATCHSPEC_AVX512") {
        t.wide = w;
    }
    if let Some(n) = env_count("BATCHSPEC_PREFETCH_ROWS") {
        t.prefetch_rows = n;
    }
    if let Some(n) = env_count("BATCHSPEC_PREFETCH_LINES") {
        t.prefetch_lines = n;
    }
    if let Some(b) = env_bytes("BATCHSPEC_PREFETCH_MIN_BYTES") {
        t.prefetch_min_bytes = b;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::{Caches, parse_size, tuning_for};

    #[test]
    fn sizes_as_sysfs_writes_them() {
        assert_eq!(parse_size("48K"), Some(48 << 10));
        assert_eq!(parse_size("307200K"), Some(300 << 20));
        assert_eq!(parse_size("32M"), Some(32 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("12Q"), None);
        assert_eq!(parse_size(""), None);
    }

    #[test]
    fn streaming_stores_from_three_eighths_of_the_last_level_cache() {
        let of = |llc: usize| {
            tuning_for(Caches {
                l1d: 48 << 10,
                l2: 2 << 20,
                llc,
            })
            .nt_min_bytes
        };
        assert_eq!(of(480 << 20), 180 << 20);
        assert_eq!(of(300 << 20), 112 << 20 | 512 << 10);
        assert_eq!(of(32 << 20), 12 << 20);
        assert_eq!(of(16 << 20), 8 << 20);
        assert_eq!(of(4 << 20), 8 << 20);
        assert_eq!(tuning_for(Caches::default()).nt_min_bytes, 8 << 20);
    }
}

/// Whether the staging choice is calibrated at first use: unless `BATCHSPEC_STAGED` forces it.
pub(crate) fn staging_calibrated() -> bool {
    static FORCED: OnceLock<bool> = OnceLock::new();
    !*FORCED.get_or_init(|| env_flag("BATCHSPEC_STAGED").is_some())
}

/// Whether the lines the direct streamed blocks write of each destination row are calibrated at
/// first use: unless `BATCHSPEC_STREAM_LINES` forces them, or `BATCHSPEC_STAGED=1` sends every
/// such call through the staging buffer.
pub(crate) fn lines_calibrated() -> bool {
    static CALIBRATED: OnceLock<bool> = OnceLock::new();
    *CALIBRATED.get_or_init(|| {
        env_count("BATCHSPEC_STREAM_LINES").is_none() && env_flag("BATCHSPEC_STAGED") != Some(true)
    })
}

/// The parts a streamed de-interleave reads its core in when the calibration of
/// [`Choice::Parts`] finds the tuning's `stream_parts` slower: one, in order (2 parts were the
/// other choice until 2026-11-28; on the 32 MiB-L3 EPYC one part ran case L at a median 0.84 ×
/// memcpy against 0.80 for 2, case A 1.25 against 1.07, in alternated quick runs), written in
/// the tuning's `stream_runs` since 2026-11-29.
pub(crate) const FEW_PARTS: usize = 1;

/// Whether the blocks of streamed panels are calibrated at first use: unless
/// `BATCHSPEC_WIDE_PANELS` forces them.
pub(crate) fn wide_panels_calibrated() -> bool {
    static FORCED: OnceLock<bool> = OnceLock::new();
    !*FORCED.get_or_init(|| env_flag("BATCHSPEC_WIDE_PANELS").is_some())
}

/// Whether the lines of a gathered row prefetched ahead are calibrated at first use: unless
/// `BATCHSPEC_PREFETCH_LINES` forces them.
pub(crate) fn row_prefetch_calibrated() -> bool {
    static FORCED: OnceLock<bool> = OnceLock::new();
    !*FORCED.get_or_init(|| env_count("BATCHSPEC_PREFETCH_LINES").is_some())
}

/// The lines of a row a gather prefetches ahead when its calibration at first use finds whole
/// rows slower ([`Tuning::prefetch_lines`]): enough to start the hardware's prefetch of the rest
/// of the row without asking the caches for all of its lines at once.
pub const ROW_PREFETCH_LINES: usize = 4;

/// Whether the streamed de-interleave's parts are calibrated at first use: unless
/// `BATCHSPEC_STREAM_PARTS` forces them.
pub(crate) fn parts_calibrated() -> bool {
    static FORCED: OnceLock<bool> = OnceLock::new();
    !*FORCED.get_or_init(|| env_count("BATCHSPEC_STREAM_PARTS").is_some())
}

/// A choice made at first use by timing both ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    /// Whether a streaming-store transposition of long rows goes through the staging buffer.
    Staging,
    /// Whether the direct streamed blocks of long rows write twice the tuning's `stream_lines` of
    /// each destination row in turn (else `stream_lines`). Decided before [`Choice::Staging`],
    /// whose direct calls then write the lines chosen: on a 260 MiB-L3 Xeon 2 lines ran the
    /// 8192 x 8192 transpose at 0.81-0.87 x memcpy against 0.73-0.78 for 4; on a 32 MiB-L3 EPYC
    /// with 1 MiB of L2, 4 lines ran it at 0.98-1.03 against 0.84-0.88 for 2 (and 0.85-0.89
    /// staged).
    Lines,
    /// Whether the transposition written in panels (4-byte destination rows of at most 64
    /// columns, as `bchw -> chwb`) writes an output the last-level cache could hold with
    /// non-temporal stores, on one thread (`false`) or more (`true`).
    Panels(bool),
    /// Whether the 3-channel de-interleave, its output streamed, reads its core in the
    /// tuning's `stream_parts` parts (else in [`FEW_PARTS`], in order), on one thread (`false`)
    /// or more (`true`).
    Parts(bool),
    /// Whether the streamed transposition in panels uses the AVX-512 blocks (else the AVX2
    /// ones), on one thread (`false`) or more (`true`); see [`Tuning::wide_panels`].
    WidePanels(bool),
    /// Whether a gather of rows prefetches each row ahead whole (else its first
    /// [`ROW_PREFETCH_LINES`] lines); see [`Tuning::prefetch_lines`].
    RowPrefetch,
}

/// The first-use calibration of a choice: calls in pairs, `true` twice, `false` twice, four times
/// over, and only the second call of each pair timed (a call leaves the output where its stores
/// put it, in the caches or not, so a call after one of the other kind would time the other's
/// choice as well; the very first call also pays for fresh output pages). The faster per byte
/// (the best of its four timed calls) is kept for the rest of the process. The row prefetch's
/// ([`Calibration::by_median`]) warms up first, then times sixteen calls of each and compares
/// their medians.
#[derive(Debug)]
struct Calibration {
    calls: u32,
    // Calls in all, the untimed ones included.
    trials: u32,
    // The nanoseconds per byte of the timed calls: `false`, `true`.
    samples: [[f64; SAMPLES]; 2],
    counts: [usize; 2],
    // Whether each choice's median decides (else its best).
    median: bool,
    // Calls made with `true` before the calibration's first (untimed).
    warmup: u32,
    decided: Option<bool>,
}

/// Calls of the calibration, the untimed ones included: four timed calls of each choice. (Two
/// each, until 2026-11-28, chose the slower of two choices in 2 of 6 processes on the 32 MiB-L3
/// EPYC, where one call's time varies by a fifth or more: the de-interleave's 4 parts, 0.64 ×
/// memcpy in alternated runs, against 1 part's 0.84.)
const TRIALS: u32 = 16;

/// The most timed calls of each choice a calibration keeps.
const SAMPLES: usize = 16;

/// Calls of the row prefetch's calibration after its warm-up: sixteen timed calls of each
/// choice, their medians compared. A call gathers one batch (tens of microseconds), so which
/// rows happen to be in the caches and the host's neighbours move one call's time by more than
/// the choice does.
const ROW_PREFETCH_TRIALS: u32 = 4 * SAMPLES as u32;

/// Calls of the row prefetch's calibration made with whole rows before its first, untimed: a
/// process's first gathers (the first hundred megabytes or so) ran slower either way than the
/// same gathers later, and the whole rows' lead did not show in them. Measured on the Zen 5
/// EPYC host (2026-12-02), shuffled epochs of 60000 rows of 3136 bytes: each process 11 ms an
/// epoch with whole rows and 14 with a row's first lines, both forced; the calibration's first
/// calls 0.074–0.078 ns a byte either way against 0.048–0.058 later. With no warm-up (and four
/// timed calls each, the best of them) the calibration chose the first lines in 2 of 8
/// processes, with sixteen each and their medians in 6 of 22, after this warm-up in none of 30.
const WARMUP: u32 = 256;

/// Calls until the row prefetch's calibration decides: its warm-up and its trials.
#[cfg(test)]
pub(crate) const ROW_PREFETCH_CALLS: u32 = WARMUP + ROW_PREFETCH_TRIALS;

impl Calibration {
    const fn new() -> Calibration {
        Calibration {
            calls: 0,
            trials: TRIALS,
            samples: [[0.0; SAMPLES]; 2],
            counts: [0; 2],
            median: false,
            warmup: 0,
            decided: None,
        }
    }

    /// A calibration of `trials` calls (at most `4 * SAMPLES`) after [`WARMUP`] calls of `true`,
    /// that compares the medians of each choice's timed calls.
    const fn by_median(trials: u32) -> Calibration {
        let mut c = Calibration::new();
        c.warmup = WARMUP;
        c.trials = trials + WARMUP;
        c.median = true;
        c
    }

    /// The choice for the next call and, while calibrating, whether it is timed.
    fn next(&self) -> (bool, Option<bool>) {
        match (self.decided, self.calls) {
            (Some(choice), _) => (choice, None),
            (None, k) if k < self.warmup => (true, Some(false)),
            (None, k) => {
                let k = k - self.warmup;
                ((k / 2).is_multiple_of(2), Some(k % 2 == 1))
            }
        }
    }

    fn record(&mut self, choice: bool, bytes: usize, elapsed: std::time::Duration) {
        if self.decided.is_some() {
            return;
        }
        self.calls += 1;
        let which = usize::from(choice);
        if bytes > 0 && self.counts[which] < SAMPLES {
            self.samples[which][self.counts[which]] = elapsed.as_nanos() as f64 / bytes as f64;
            self.counts[which] += 1;
        }
        if self.calls >= self.trials {
            self.decided = Some(match [self.estimate(false), self.estimate(true)] {
                [Some(without), Some(with)] => with <= without,
                _ => true,
            });
        }
    }

    /// The nanoseconds per byte of `choice`: the best or the median of its timed calls.
    fn estimate(&self, choice: bool) -> Option<f64> {
        let which = usize::from(choice);
        let mut samples = self.samples[which];
        let seen = &mut samples[..self.counts[which]];
        seen.sort_by(f64::total_cmp);
        match seen.len() {
            0 => None,
            n if self.median => Some(if n.is_multiple_of(2) {
                (seen[n / 2 - 1] + seen[n / 2]) / 2.0
            } else {
                seen[n / 2]
            }),
            _ => Some(seen[0]),
        }
    }
}

type Slot = std::sync::Mutex<Calibration>;

static STAGING: Slot = Slot::new(Calibration::new());

static LINES: Slot = Slot::new(Calibration::new());

static PANELS: [Slot; 2] = [const { Slot::new(Calibration::new()) }; 2];

static PARTS: [Slot; 2] = [const { Slot::new(Calibration::new()) }; 2];

static WIDE_PANELS: [Slot; 2] = [const { Slot::new(Calibration::new()) }; 2];

static ROW_PREFETCH: Slot = Slot::new(Calibration::by_median(ROW_PREFETCH_TRIALS));

fn slot(choice: Choice) -> std::sync::MutexGuard<'static, Calibration> {
    let slot = match choice {
        Choice::Staging => &STAGING,
        Choice::Lines => &LINES,
        Choice::Panels(many) => &PANELS[usize::from(many)],
        Choice::Parts(many) => &PARTS[usize::from(many)],
        Choice::WidePanels(many) => &WIDE_PANELS[usize::from(many)],
        Choice::RowPrefetch => &ROW_PREFETCH,
    };
    slot.lock().unwrap_or_else(|e| e.into_inner())
}

/// The choice for a call and, while it is being calibrated, whether the call is timed (else
/// `None`: decided).
pub(crate) fn for_call(choice: Choice) -> (bool, Option<bool>) {
    slot(choice).next()
}

/// Records a call of the calibration of `choice` that ran with `value` (an untimed one with no
/// bytes and a zero duration).
pub(crate) fn timed(choice: Choice, value: bool, bytes: usize, elapsed: std::time::Duration) {
    slot(choice).record(value, bytes, elapsed);
}

/// The staging choice calibrated on this machine so far: `None` until the calibration's calls
/// have run (or when `BATCHSPEC_STAGED` forces it), for the benches to print.
pub fn staging_decided() -> Option<bool> {
    slot(Choice::Staging).decided
}

/// The lines of each destination row the direct streamed blocks of long rows write in turn,
/// calibrated on this machine so far: `None` until decided (or when `BATCHSPEC_STREAM_LINES`
/// or `BATCHSPEC_STAGED=1` forces them), for the benches to print.
pub fn stream_lines_decided() -> Option<usize> {
    let lines = machine_tuning().stream_lines.max(1);
    slot(Choice::Lines)
        .decided
        .map(|more| if more { 2 * lines } else { lines })
}

/// The non-temporal store choice of the transposition in panels for outputs the last-level
/// cache could hold, calibrated so far on one thread and on more (`None` until decided), for
/// the benches to print.
pub fn panels_streaming_decided() -> [Option<bool>; 2] {
    [false, true].map(|many| slot(Choice::Panels(many)).decided)
}

/// Whether the streamed transposition in panels uses the AVX-512 blocks, calibrated so far on
/// one thread and on more (`None` until decided, or when `BATCHSPEC_WIDE_PANELS` forces it),
/// for the benches to print.
pub fn wide_panels_decided() -> [Option<bool>; 2] {
    [false, true].map(|many| slot(Choice::WidePanels(many)).decided)
}

/// How many parts the streamed 3-channel de-interleave reads its core in, calibrated so far on
/// one thread and on more (`None` until decided, or when `BATCHSPEC_STREAM_PARTS` forces it),
/// for the benches to print.
pub fn stream_parts_decided() -> [Option<usize>; 2] {
    let parts = machine_tuning().stream_parts.max(1);
    [false, true].map(|many| {
        slot(Choice::Parts(many))
            .decided
            .map(|all| if all { parts } else { FEW_PARTS.min(parts) })
    })
}

/// The row prefetch's choice once decided (0: not yet, 1: whole rows, 2: their first lines),
/// read without the calibration's lock: a gather of one batch is short, and several threads
/// gather at once.
static ROW_PREFETCH_CHOSEN: AtomicU8 = AtomicU8::new(0);

/// [`for_call`] of [`Choice::RowPrefetch`], without a lock once decided.
pub(crate) fn row_prefetch_for_call() -> (bool, Option<bool>) {
    match ROW_PREFETCH_CHOSEN.load(Ordering::Relaxed) {
        1 => (true, None),
        2 => (false, None),
        _ => {
            let c = slot(Choice::RowPrefetch);
            if let Some(whole) = c.decided {
                ROW_PREFETCH_CHOSEN.store(if whole { 1 } else { 2 }, Ordering::Relaxed);
            }
            c.next()
        }
    }
}

/// The lines of each row a gather prefetches ahead, calibrated on this machine so far (`0`: the
/// whole row): `None` until decided (or when `BATCHSPEC_PREFETCH_LINES` forces them), for the
/// benches to print.
pub fn row_prefetch_decided() -> Option<usize> {
    slot(Choice::RowPrefetch)
        .decided
        .map(|whole| if whole { 0 } else { ROW_PREFETCH_LINES })
}

/// Whether a calibration has started and not decided: a benchmark makes the calls that decide
/// before it times any.
pub fn calibrating() -> bool {
    [
        Choice::Staging,
        Choice::Lines,
        Choice::Panels(false),
        Choice::Panels(true),
        Choice::Parts(false),
        Choice::Parts(true),
        Choice::WidePanels(false),
        Choice::WidePanels(true),
        Choice::RowPrefetch,
    ]
    .into_iter()
    .any(|choice| {
        let c = slot(choice);
        c.calls > 0 && c.decided.is_none()
    })
}

#[cfg(test)]
mod calibration_tests {
    use super::{Calibration, TRIALS};
    use std::time::Duration;

    fn run(staged_ns: u64, plain_ns: u64) -> Calibration {
        let mut c = Calibration::new();
        for _ in 0..TRIALS {
            let (staged, timed) = c.next();
            let ns = if staged { staged_ns } else { plain_ns };
            let bytes = if timed == Some(true) { 1000 } else { 0 };
            c.record(staged, bytes, Duration::from_nanos(ns));
        }
        c
    }

    #[test]
    fn both_are_tried_in_pairs_timed_after_their_own_kind_and_the_faster_kept() {
        let c = Calibration::new();
        assert_eq!(c.next(), (true, Some(false)));
        let slow_staging = run(2000, 1000);
        assert_eq!(slow_staging.decided, Some(false));
        assert_eq!(slow_staging.next(), (false, None));
        assert_eq!(run(1000, 2000).decided, Some(true));
        // Both timed four times, each after a call of its own kind.
        let mut c = Calibration::new();
        let mut seen = vec![];
        for _ in 0..TRIALS {
            let (staged, timed) = c.next();
            seen.push((staged, timed));
            c.record(staged, 1, Duration::from_nanos(1));
        }
        let pairs = [
            (true, Some(false)),
            (true, Some(true)),
            (false, Some(false)),
            (false, Some(true)),
        ];
        assert_eq!(seen, pairs.repeat(4));
        assert!(c.decided.is_some());
    }

    #[test]
    fn the_row_prefetch_warms_up_with_whole_rows_then_compares_medians() {
        let mut c = Calibration::by_median(super::ROW_PREFETCH_TRIALS);
        let mut seen = vec![];
        // Whole rows (`true`) take 10 ns a byte but for one call in four at 1 (a lucky call: the
        // best would choose them); their first lines 2 ns: the medians choose the lines.
        let mut lucky = 0;
        while c.decided.is_none() {
            let (whole, timed) = c.next();
            seen.push((whole, timed));
            let ns = if whole {
                lucky += 1;
                if lucky % 4 == 0 { 1 } else { 10 }
            } else {
                2
            };
            let bytes = usize::from(timed == Some(true));
            c.record(whole, bytes, Duration::from_nanos(ns));
        }
        assert_eq!(seen.len() as u32, super::ROW_PREFETCH_CALLS);
        let warmup = super::WARMUP as usize;
        assert!(seen[..warmup].iter().all(|&s| s == (true, Some(false))));
        let pairs = [
            (true, Some(false)),
            (true, Some(true)),
            (false, Some(false)),
            (false, Some(true)),
        ];
        assert_eq!(seen[warmup..], pairs.repeat(16)[..]);
        assert_eq!(c.decided, Some(false));
        assert_eq!(c.next(), (false, None));
        // With the best of each instead, the lucky calls would have chosen whole rows.
        assert_eq!(
            c.samples[1][..c.counts[1]]
                .iter()
                .copied()
                .fold(f64::MAX, f64::min),
            1.0
        );
    }
}
