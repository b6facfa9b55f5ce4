//! The compile errors users see, recorded as trybuild snapshots under `trybuild/`.
//!
//! Each `.stderr` is what `cargo check` prints for one mistake; its first line must say what is
//! wrong in words (the field, source, axis or size). Re-bless with `TRYBUILD=overwrite` and read
//! every changed snapshot as a user would. The snapshots are those of stable Rust 1.95. The
//! programs that must compile are ordinary tests (`tests/programs.rs`): with no pass case here,
//! trybuild checks every case in one `cargo check`, its crates built in parallel.

#[path = "common/trybuild_flags.rs"]
mod trybuild_flags;

#[test]
fn compile_errors_read_well() {
    trybuild_flags::one_set_for_both_builds();
    let t = trybuild::TestCases::new();
    for dir in [
        "attr",
        "augment",
        "buffer",
        "collate",
        "elem",
        "entry",
        "layout",
        "size",
        "source",
        "structure",
    ] {
        t.compile_fail(format!("trybuild/{dir}/*.rs"));
    }
}
