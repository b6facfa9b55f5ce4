//! The compile errors of the candle adapter's entry points, recorded as trybuild snapshots
//! under `trybuild/` (checked with the core's by the workspace's `tests/snapshots.rs`).
//! Re-bless with `TRYBUILD=overwrite` and read every changed snapshot as a user would.

#[path = "../../../tests/common/trybuild_flags.rs"]
mod trybuild_flags;

#[test]
fn compile_errors_read_well() {
    trybuild_flags::one_set_for_both_builds();
    trybuild::TestCases::new().compile_fail("trybuild/*.rs");
}
