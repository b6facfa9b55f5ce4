//! Benchmarks of batchspec against its baselines (no library code).
//!
//! * `src/transpose.rs` (`cargo bench -p batchspec-bench --bench transpose`): layout
//!   conversion, cases A-E of issue 3, against memcpy, ndarray, `transpose` and `strided-rs`.
//! * `numpy_transpose.py`: the same cases in NumPy.
//! * `src/ragged.rs` (`cargo bench -p batchspec-bench --bench ragged`): gathering and padding
//!   shuffled ragged sequences, against the plain loop, memcpy and fixed-size padding;
//!   `numpy_ragged.py` runs the NumPy versions.
//! * `src/augment.rs` (`cargo bench -p batchspec-bench --bench augment`): the standard CIFAR
//!   augmentation fused into the gather, against the plain gather and separate passes;
//!   `numpy_augment.py` runs it in NumPy.
//!
//! Each prints the CPU it ran on first ([`cpu_model`]).
//!
//! The sources live under `src/` because the workspace root package would otherwise pick
//! up `benches/*.rs` as its own benchmark targets.
#![forbid(unsafe_code)]

/// The CPU the figures were measured on, from `/proc/cpuinfo` (`model name`), or `unknown`:
/// each benchmark prints it first, since the shared VM has run on hosts of different CPUs
/// (ratios to memcpy differ between them).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, name)| name.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}
