//! One set of compiler flags for both of trybuild's builds, so that a suite's dependencies are
//! checked once, not twice.
//!
//! trybuild (1.0.122) checks a suite in two `cargo` runs in its own target directory: the
//! dependencies first, with the flags `--cfg trybuild --verbose -A dead_code`, then every case,
//! with `--diagnostic-width=140` added. Flags are part of what cargo fingerprints, so the second
//! run checked every dependency again (82 crates and 34 s for the facade's suite alone, on the
//! AMD EPYC host), and each of the three suites (the facade's, the burn adapter's, candle's) did
//! so again. With `CARGO_ENCODED_RUSTFLAGS` set, which cargo reads before any `--config`, both
//! runs of every suite use the flags of the second, and a dependency checked by one suite is
//! fresh for the next. The snapshots are unchanged: the cases are checked with the same flags
//! as before.
//!
//! Used by each package's `tests/compile_fail.rs` through `#[path]`; `tests/snapshots.rs` checks
//! that the locked trybuild is the one these flags are copied from.

/// The trybuild whose flags `FLAGS` are: a newer one may pass others, which these would drop.
// Read by `tests/snapshots.rs` alone; the suites' binaries hold it unused.
#[allow(dead_code)]
pub const TRYBUILD: &str = "1.0.122";

/// trybuild's flags for its check of the cases, fields apart by `\x1f` (cargo's encoding).
const FLAGS: &str = "--cfg\x1ftrybuild\x1f--verbose\x1f-A\x1fdead_code\x1f--diagnostic-width=140";

/// Sets the flags for trybuild's `cargo` runs, unless the caller set flags of their own (a
/// coverage run's `RUSTFLAGS`, which trybuild looks at itself).
pub fn one_set_for_both_builds() {
    if std::env::var_os("CARGO_ENCODED_RUSTFLAGS").is_some()
        || std::env::var_os("RUSTFLAGS").is_some()
    {
        return;
    }
    // SAFETY: the test binary holds one test, this one, which calls this before trybuild starts
    // any process; no other thread of the process reads or writes the environment meanwhile.
    #[allow(unsafe_code)]
    unsafe {
        std::env::set_var("CARGO_ENCODED_RUSTFLAGS", FLAGS);
    }
}
