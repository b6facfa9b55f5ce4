//! The compile-error snapshots under `trybuild/` read as a user would want them: no library
//! internals, and one error per mistake.
//!
//! Every `.stderr` is checked. A snapshot listed in `KNOWN` is one that does not meet the rule
//! yet; the test fails if it starts meeting it (so the list only shrinks) as well as if any other
//! snapshot breaks it.

use std::fs;
use std::path::{Path, PathBuf};

/// Words that belong to the library's insides, not to a user's program.
const INTERNALS: &[&str] = &[
    "HNil",
    "HCons",
    "Here",
    "There",
    "Leaf<",
    "ServeLeaves",
    "GatherLeaves",
    "PullLeaves",
    "FlatRest",
    "Pair<",
    "Src<'",
    "__Spec",
    "__private",
    "the following other types implement trait",
    // ndarray's storage types, which a `Batch` field's type spells out.
    "OwnedArcRepr",
    "OwnedRepr",
    "ViewRepr",
];

/// Snapshots with more than one mistake, and how many.
const MISTAKES: &[(&str, usize)] = &[
    // Three bad attributes, reported together.
    ("attr/all-errors-at-once.stderr", 3),
    // Two `assert_formats` lines, each a mistake.
    ("size/labels-from-two-per-sample.stderr", 2),
];

/// Snapshots that do not meet the rules yet, and why.
const KNOWN: &[(&str, &str)] = &[
    // rustc's own `help: the trait .. is not implemented for Batch<.., OwnedArcRepr<f32>>` line
    // under a first line in words (issue 37).
    (
        "entry/dataset-load.stderr",
        "rustc's help line names the field's ndarray storage",
    ),
    (
        "entry/rows-mut-borrowed.stderr",
        "rustc's help line names the batch's ndarray storage",
    ),
    (
        "adapters/burn/compile-fail/trybuild/image-stream-shared-field.stderr",
        "rustc's help line names the field's ndarray storage",
    ),
    (
        "adapters/burn/compile-fail/trybuild/shard-stream-borrowed-field.stderr",
        "rustc's help line names the field's ndarray storage",
    ),
];

fn snapshots(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            snapshots(&path, out);
        } else if path.extension().is_some_and(|e| e == "stderr") {
            out.push(path);
        }
    }
}

/// The directories named `trybuild` under `dir`.
fn trybuild_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "trybuild") {
            out.push(path);
        } else {
            trybuild_dirs(&path, out);
        }
    }
}

/// What is wrong with one snapshot, if anything.
fn problems(name: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for word in INTERNALS {
        let hit = text.match_indices(word).any(|(i, _)| {
            // Whole words (`There` in prose would be fine, and `MapLeaf<` is not `Leaf<`): a
            // word's letters may not continue an identifier on either side.
            let before = text[..i].chars().next_back();
            let after = text[i + word.len()..].chars().next();
            let boundary = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            let starts = word.starts_with(|c: char| c.is_alphanumeric());
            let ends = word.ends_with(|c: char| c.is_alphanumeric());
            (!starts || boundary(before)) && (!ends || boundary(after))
        });
        if hit {
            found.push(format!("names `{word}`"));
        }
    }
    let errors = text
        .lines()
        .filter(|l| l.starts_with("error[") || l.starts_with("error:"))
        .count();
    let mistakes = MISTAKES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(1, |(_, m)| *m);
    if errors != mistakes {
        found.push(format!("{errors} errors for {mistakes} mistake(s)"));
    }
    found
}

#[test]
fn snapshots_name_no_internals_and_give_one_error_per_mistake() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = workspace.join("trybuild");
    let mut files = Vec::new();
    snapshots(&root, &mut files);
    assert!(files.len() > 40, "the snapshots are under trybuild/");
    // The framework adapters' own, named from the workspace (`adapters/candle/trybuild/..`,
    // `adapters/burn/compile-fail/trybuild/..`).
    let mut dirs = Vec::new();
    trybuild_dirs(&workspace.join("adapters"), &mut dirs);
    for adapter in [
        "adapters/candle/trybuild",
        "adapters/burn/compile-fail/trybuild",
    ] {
        assert!(
            dirs.contains(&workspace.join(adapter)),
            "{adapter}: the adapter's snapshots"
        );
    }
    for dir in &dirs {
        snapshots(dir, &mut files);
    }
    files.sort();
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(&root)
            .or_else(|_| path.strip_prefix(workspace))
            .expect("under the workspace")
            .to_string_lossy()
            .replace('\\', "/");
        let text = fs::read_to_string(path).expect("a readable snapshot");
        let found = problems(&name, &text);
        let known = KNOWN.iter().any(|(n, _)| *n == name);
        match (found.is_empty(), known) {
            (false, false) => failures.push(format!("{name}: {}", found.join(", "))),
            (true, true) => {
                failures.push(format!("{name} meets the rules now: remove it from KNOWN"))
            }
            _ => {}
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn the_checks_catch_what_they_look_for() {
    // A snapshot of the old kind fails on both counts.
    let old = "error[E0277]: the record has no source `Src<'m', 'a', 's', 'k'>`\n  = help: the trait `HasSource<Src<'m', 'a', 's', 'k'>, _>` is not implemented for `HNil`\nerror[E0277]: again\n";
    let found = problems("source/missing-source.stderr", old);
    assert!(found.iter().any(|f| f.contains("Src<'")), "{found:?}");
    assert!(found.iter().any(|f| f.contains("HNil")), "{found:?}");
    assert!(found.iter().any(|f| f.contains("2 errors")), "{found:?}");
    // Whole words: `Therefore` is not `There`, `MapLeaf<S>` is not `Leaf<`.
    assert!(problems("x.stderr", "error: Therefore, Hereafter\n").is_empty());
    assert!(problems("x.stderr", "error: `MapLeaf<S>`\n").is_empty());
    assert!(!problems("x.stderr", "error: `HCons<Leaf<S>>`\n").is_empty());
    assert!(!problems("x.stderr", "error: `There<_>`\n").is_empty());
}
