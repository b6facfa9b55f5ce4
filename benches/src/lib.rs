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
//! The sources live under `src/` because the workspace root package would otherwise pick
//! up `benches/*.rs` as its own benchmark targets.
