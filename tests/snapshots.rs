//! The compile-error snapshots under `trybuild/` read as a user would want them: no library
//! internals, and one error per mistake.
//!
//! Every `.stderr` is checked. A snapshot listed in `KNOWN` is one that does not meet the rule
//! yet; the test fails if it starts meeting it (so the list only shrinks) as well as if any other
//! snapshot breaks it.

use std::fs;
use std::path::{Path, PathBuf};

// Its `TRYBUILD`, checked below; the test binaries of the suites use the rest.
#[allow(dead_code)]
#[path = "common/trybuild_flags.rs"]
mod trybuild_flags;

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
    // A path into the library's modules in a quoted library line (`S: crate::types::space::..`):
    // the library's source names its bounds by the names it `use`s. (Not `$crate::`, which
    // rustc's note about a macro's expansion prints.)
    " crate::",
    // rustc's name for a method of an impl outside its type's module
    // (`data::dataset::write::<impl Dataset<R>>::apply`): a type's methods with bounds live in
    // the type's own module, where rustc names them `Dataset::<R>::apply`.
    "::<impl ",
    // ndarray's storage types, which a `Batch` field's type spells out, and its traits on them.
    "OwnedArcRepr",
    "OwnedRepr",
    "ViewRepr",
    "RawData",
    "data_traits",
    // A library check on the unit type: the help line rustc adds under a check's message names
    // the check's self type, which is the space the user asked for (`VectorWidth<3072, 10>` is
    // not implemented for `Vector<10>`), not `()`.
    "is not implemented for `()`",
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
    // A bare name that resolves nowhere inside a field's type: rustc reports the struct's
    // error (with its suggestion to add a type parameter) and the derive's copy of the type
    // (without it); only identical errors are merged, and the struct's suggestion depends on
    // the item. Layout names (`NCHW`, `bchw`, `BHCW`) are caught by `image!` instead, in one
    // error (`structure/unknown-name-in-a-field`).
    (
        "structure/unknown-element-in-a-field.stderr",
        "rustc reports an unresolved name once for the struct and once for the derive's items",
    ),
    // Generic code without `Q: ProvidedBy<R>`: the first error names the bound with rustc's
    // suggestion to add it; each later use of the provider (`next_batch`) is an error of its
    // own, since rustc checks every call against the bounds it lacks.
    (
        "entry/generic-provider-without-bound.stderr",
        "rustc reports the constructor and each later method call of a provider the bound lacks",
    ),
    // `Trains` is a blanket impl (its parameters are the user's model, costs and channels, which
    // no derive sees): without it, rustc reports each of its bounds, one per consumer, each
    // with a note naming `R: Trains<M, C, H>`.
    (
        "entry/generic-trainer-without-bound.stderr",
        "rustc reports each bound of the blanket `Trains` impl, one per consumer",
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

/// Snapshots that quote the library's source: rustc's `note: required by a bound in ..` (and
/// `help: the trait .. is implemented for ..`, `similarly named .. defined here`) quotes the
/// library's line wherever the library's source is on disk, as it is for every user (a registry
/// or path dependency). No stable rustc option leaves library spans out (`-Z` flags and
/// `trim-paths` are nightly; trybuild only normalises the paths), so for a mistake reported
/// through a bound of a library function the quote stays. The list only shrinks.
const KNOWN_LIBRARY_SOURCE: &[&str] = &[
    "adapters/burn/compile-fail/trybuild/image-stream-shared-field.stderr",
    "adapters/burn/compile-fail/trybuild/loader-missing-source.stderr",
    "adapters/burn/compile-fail/trybuild/loader-of-a-ragged-request.stderr",
    "adapters/burn/compile-fail/trybuild/shard-stream-borrowed-field.stderr",
    "adapters/burn/compile-fail/trybuild/source-loader-not-a-source.stderr",
    "adapters/burn/compile-fail/trybuild/text-positions-as-labels.stderr",
    "adapters/burn/compile-fail/trybuild/text-request-missing-source.stderr",
    "adapters/burn/compile-fail/trybuild/text-request-other-vocabulary.stderr",
    "adapters/candle/trybuild/batches-of-another-record.stderr",
    "augment/augment-a-vector-field.stderr",
    "augment/augment-not-an-augmentation.stderr",
    "augment/flip-a-vector.stderr",
    "augment/record-holds-other-images.stderr",
    "augment/serve-an-augmented-request.stderr",
    "augment/steps-out-of-order.stderr",
    "buffer/batch-major-sequence.stderr",
    "collate/lengths-of-a-vector.stderr",
    "collate/serve-a-padded-field.stderr",
    "elem/lossy-cast.stderr",
    "elem/sign-change.stderr",
    "entry/dataset-apply-ragged.stderr",
    "entry/dataset-load-computed-field.stderr",
    "entry/dataset-load.stderr",
    "entry/dataset-project.stderr",
    "entry/filter-samples-of-another-spec.stderr",
    "entry/format-as-no-conversion.stderr",
    "entry/format-through.stderr",
    "entry/generic-model.stderr",
    "entry/generic-provider-without-bound.stderr",
    "entry/generic-trainer-without-bound.stderr",
    "entry/into-request-missing-source.stderr",
    "entry/labels-written-unchecked.stderr",
    "entry/map-samples-not-a-spec.stderr",
    "entry/mix-of-other-requests.stderr",
    "entry/nested-request.stderr",
    "entry/prefetch.stderr",
    "entry/projection-view-computed.stderr",
    "entry/projection-view-converted.stderr",
    "entry/provider-new-lossy-cast.stderr",
    "entry/provider-new-one-hot-width.stderr",
    "entry/provider-new.stderr",
    "entry/rows-mut-borrowed.stderr",
    "entry/serve.stderr",
    "entry/server-get.stderr",
    "entry/source-in-two-fields-neither-kind.stderr",
    "entry/source-in-two-fields-of-one-kind.stderr",
    "entry/spec-view.stderr",
    "entry/stream-once-mismatch.stderr",
    "entry/swapped-assert-serves.stderr",
    "entry/trainer-from-source-of-another-record.stderr",
    "entry/trainer-missing-source.stderr",
    "entry/trainer-monitor-of-another-record.stderr",
    "entry/view-get.stderr",
    "entry/workers-function-not-send.stderr",
    "layout/not-a-sequence-layout.stderr",
    "layout/not-a-volume-layout.stderr",
    "layout/not-an-image-layout.stderr",
    "layout/window-with-image-layout.stderr",
    "size/image-from-short-vector.stderr",
    "size/image-sizes-differ.stderr",
    "size/image-without-total.stderr",
    "size/index-dim-differs.stderr",
    "size/label-ranges-differ.stderr",
    "size/labels-from-two-per-sample.stderr",
    "size/no-conversion.stderr",
    "size/one-hot-width.stderr",
    "size/scalar-from-wide-vector.stderr",
    "size/vector-cannot-hold-image.stderr",
    "size/vector-cannot-hold-volume.stderr",
    "size/vector-cannot-hold-window.stderr",
    "size/vector-of-10-from-3072.stderr",
    "size/vector-width.stderr",
    "source/impossible-conversion.stderr",
    "source/missing-source.stderr",
    "source/missing-source-two-requests-of-one-name.stderr",
    "source/source-in-a-nested-record.stderr",
    "source/source-typo.stderr",
    "structure/batch-element-as-storage.stderr",
    "structure/composite-with-single-source.stderr",
    "structure/flat-spaces-nested-sources.stderr",
    "structure/nested-spaces-flat-sources.stderr",
    "structure/one-tuple-with-single-source.stderr",
    "structure/single-space-with-two-sources.stderr",
    "structure/space-without-size.stderr",
    "structure/unknown-type-in-a-field.stderr",
];

/// A name of the kind the derive once generated for a field's trait (`<Struct>_<field>_<what>`,
/// an upper-case start and an underscore before a lower-case word), which rustc's help line
/// named under the field's message. The derive now names each field by a type of its own
/// (`Request·mask`) in the library's checks, and no snapshot may name such a trait.
fn generated_trait_names(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| {
            w.starts_with(|c: char| c.is_ascii_uppercase())
                && w.split('_').count() >= 3
                && w.split('_')
                    .skip(1)
                    .all(|part| part.starts_with(|c: char| c.is_ascii_lowercase()))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The files outside the test case a snapshot points at (`--> spec-core/src/..`,
/// `::: $WORKSPACE/..`): each comes with a quoted line of the library's source.
fn library_locations(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            l.strip_prefix("--> ").or_else(|| l.strip_prefix("::: "))
        })
        .map(|loc| loc.split(':').next().unwrap_or(loc))
        .filter(|file| !file.starts_with("trybuild/"))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// What is wrong with one snapshot, if anything, beside the problems `KNOWN_LIBRARY_SOURCE` lists
/// for it (each listed one must still be there).
fn problems(name: &str, text: &str) -> Vec<String> {
    let mut found = problems_of_every_kind(name, text);
    let lib = library_locations(text);
    match (lib.is_empty(), KNOWN_LIBRARY_SOURCE.contains(&name)) {
        (false, false) => found.push(format!("quotes library source ({})", lib.join(", "))),
        (true, true) => {
            found.push("quotes no library source now: remove it from KNOWN_LIBRARY_SOURCE".into())
        }
        _ => {}
    }
    let generated = generated_trait_names(text);
    if !generated.is_empty() {
        found.push(format!("names generated traits ({})", generated.join(", ")));
    }
    found
}

/// The internals and the count of errors.
fn problems_of_every_kind(name: &str, text: &str) -> Vec<String> {
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
    let found = problems_of_every_kind("source/missing-source.stderr", old);
    assert!(found.iter().any(|f| f.contains("Src<'")), "{found:?}");
    assert!(found.iter().any(|f| f.contains("HNil")), "{found:?}");
    assert!(found.iter().any(|f| f.contains("2 errors")), "{found:?}");
    // Whole words: `Therefore` is not `There`, `MapLeaf<S>` is not `Leaf<`.
    assert!(problems("x.stderr", "error: Therefore, Hereafter\n").is_empty());
    assert!(problems("x.stderr", "error: `MapLeaf<S>`\n").is_empty());
    assert!(!problems("x.stderr", "error: `HCons<Leaf<S>>`\n").is_empty());
    assert!(!problems("x.stderr", "error: `There<_>`\n").is_empty());
    // ndarray's storage traits.
    assert!(!problems("x.stderr", "error: `f32: ndarray::data_traits::RawData`\n").is_empty());
    // A generated trait, and not a type with an underscore-free name or a constant.
    let help =
        "error: x\n  = help: the trait `Request_x_source<Record>` is not implemented for `()`\n";
    assert!(
        problems("x.stderr", help)
            .iter()
            .any(|p| p.contains("Request_x_source"))
    );
    assert!(generated_trait_names("`Vector<3>`, `MAX_RANK`, `Src_x`").is_empty());
    // A check on the unit type, and not one on the space asked for.
    let unit =
        "error: x\n  = help: the trait `VectorWidth<3072, 10>` is not implemented for `()`\n";
    assert!(
        problems("x.stderr", unit)
            .iter()
            .any(|p| p.contains("`()`"))
    );
    let space = "error: x\n  = help: the trait `VectorWidth<3072, 10>` is not implemented for `Vector<10>`\n";
    assert!(problems("x.stderr", space).is_empty());
    // Library source, at a `-->` or a `:::`, and not the case's own file.
    let lib = "error: x\n --> trybuild/entry/x.rs:3:5\nnote: required by a bound in `new`\n --> spec-core/src/data/provider.rs\n  |\n  |     Q: GatherFrom<R>,\n";
    assert!(
        problems("x.stderr", lib)
            .iter()
            .any(|p| p.contains("spec-core/src/data/provider.rs"))
    );
    assert_eq!(
        library_locations(
            " --> trybuild/entry/x.rs:3:5\n   ::: $WORKSPACE/text/src/stream.rs:1:1\n"
        ),
        ["$WORKSPACE/text/src/stream.rs"]
    );
    // A listed snapshot that no longer has its problem is reported, so the lists only shrink.
    let name = KNOWN_LIBRARY_SOURCE[0];
    assert!(
        problems(name, "error: x\n")
            .iter()
            .any(|p| p.contains("remove it"))
    );
}

/// Fails when the workspace's lock file holds another trybuild than the one whose flags
/// `tests/common/trybuild_flags.rs` copies (trybuild's `src/rustflags.rs` and `src/cargo.rs`):
/// the two are updated together.
#[test]
fn the_flags_are_those_of_the_locked_trybuild() {
    let lock = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock"))
        .expect("the workspace's Cargo.lock");
    let locked = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"trybuild\""))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = ")))
        .map(|v| v.trim_matches('"'));
    assert_eq!(
        locked,
        Some(trybuild_flags::TRYBUILD),
        "trybuild was updated: check its flags (src/rustflags.rs, src/cargo.rs) against FLAGS in tests/common/trybuild_flags.rs, then set its TRYBUILD"
    );
}
