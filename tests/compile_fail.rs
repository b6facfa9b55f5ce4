//! The compile errors users see, recorded as trybuild snapshots under `trybuild/`.
//!
//! Each `.stderr` is what `cargo check` prints for one mistake; its first line must say what is
//! wrong in words (the field, source, axis or size). Re-bless with `TRYBUILD=overwrite` and read
//! every changed snapshot as a user would. The snapshots are those of stable Rust 1.95.

#[test]
fn compile_errors_read_well() {
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

/// The programs that must compile, apart: trybuild checks a suite of compile-fail cases alone in
/// one `cargo check` of every case (built in parallel), and one with a case that must pass case
/// by case, each a `cargo build` of its own after a `cargo clean` of the package (the cold test
/// run spent 148 s here, against about half that apart).
#[test]
fn correct_programs_compile() {
    trybuild::TestCases::new().pass("trybuild/pass/*.rs");
}
