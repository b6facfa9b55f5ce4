//! The architecture of the workspace, held by a test.
//!
//! - `spec-core/src`: one top-level module per part, each importing only the parts below it,
//!   and the pairs in [`FORBIDDEN`] not at all;
//! - every crate of the workspace (the kernels, spec-core, spec-derive, the facade, the
//!   adapters): no two files importing each other, directly or in a loop;
//! - the kernel crate imports nothing of the workspace (no dependency on a `batchspec` crate,
//!   and no path naming one);
//! - spec-derive's internals (the input's model, attributes, checks, context) import none of
//!   its generators (`expand/`).
//!
//! The test reads the paths every file names in code (comments and strings left out):
//! `crate::...` and `$crate::...` alike and, inside a module, `super::...` and `self::...`. A
//! path is followed to the file that defines what it names; a name a `mod.rs` re-exports
//! (`pub use child::Name`) leads to the child that defines it, and a `mod.rs`'s own re-exports
//! of its children are not imports. A file's scan ends at its unit tests (`#[cfg(test)] mod`).
//! Each failure names the file and line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// spec-core's parts, from the bottom up: a part may import the parts before it in this list.
const PARTS: &[&str] = &[
    "iteration",
    "types",
    "format",
    "buffer",
    "mapping",
    "view",
    "augment",
    "data",
    "load",
];

/// Imports that the ranks of the parts allow but the design does not, as (importing files,
/// imported files, why), each a prefix of a path under `src`.
const FORBIDDEN: &[(&str, &str, &str)] = &[(
    "load/",
    "data/provider",
    "a loader reads files into datasets and streams; serving batches from them is the providers' job",
)];

/// spec-derive's internals, which the generators (`expand/`) build on and never the reverse.
const DERIVE_INTERNALS: &[&str] = &[
    "ast.rs",
    "attr.rs",
    "check.rs",
    "ctxt.rs",
    "layout.rs",
    "respan.rs",
    "symbol.rs",
];

/// What a file names: each path with the line it stands on.
struct Use {
    line: usize,
    path: Vec<String>,
    /// A `pub use` (a re-export).
    reexport: bool,
}

/// The source with comments, strings and char literals blanked out (newlines kept).
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == b'\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                if i < b.len() && b[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal ('a', '\n', '\u{..}'); a lifetime has no closing quote.
            let end = b[i + 1..]
                .iter()
                .position(|&c| c == b'\'')
                .map_or(b.len(), |p| i + 2 + p);
            out.push_str("' '");
            i = end;
        } else {
            let ch = src[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Every `crate::`, `super::` and `self::` path of a file, and every path through one of its
/// own child modules (`children`: `exec::run` is `self::exec::run`), with grouped imports
/// (`use crate::{a::X, b::Y}`) split into one path each.
fn uses(src: &str, children: &BTreeSet<String>) -> Vec<Use> {
    let mut code = code_only(src);
    // Unit tests (an inline `#[cfg(test)] mod tests` at the end of a file) are not the file's
    // imports: their `super` is the file itself. Other `#[cfg(test)]` items are read.
    if let Some(at) = unit_tests(&code) {
        code.truncate(at);
    }
    let mut found = Vec::new();
    let starts: Vec<String> = ["crate", "super", "self"]
        .iter()
        .map(|s| s.to_string())
        .chain(children.iter().cloned())
        .map(|s| s + "::")
        .collect();
    for (n, text) in code.lines().enumerate() {
        let reexport = text.trim_start().starts_with("pub use")
            || text.trim_start().starts_with("pub(crate) use");
        for start in &starts {
            let mut from = 0;
            while let Some(p) = text[from..].find(start) {
                let at = from + p;
                from = at + start.len();
                let before = text[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let head = start.trim_end_matches("::").to_owned();
                // `$crate::image!(..)`: a `#[macro_export]` macro has no path but the crate
                // root's, so a macro calling another (or itself) names it there.
                let name_len = text[from..]
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(text.len() - from);
                if head == "crate" && text[from + name_len..].starts_with('!') {
                    continue;
                }
                for rest in expand(&text[from..]) {
                    let mut path = match head.as_str() {
                        "crate" | "super" | "self" => vec![head.clone()],
                        _ => vec!["self".to_owned(), head.clone()],
                    };
                    path.extend(rest);
                    found.push(Use {
                        line: n + 1,
                        path,
                        reexport,
                    });
                }
            }
        }
    }
    found
}

/// Where a file's unit tests start: a `#[cfg(test)]` followed by a `mod` item.
fn unit_tests(code: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(p) = code[from..].find("#[cfg(test)]") {
        let at = from + p;
        from = at + "#[cfg(test)]".len();
        let next = code[from..].trim_start();
        let next = next.strip_prefix("pub(crate) ").unwrap_or(next);
        if next.starts_with("mod ") {
            return Some(at);
        }
    }
    None
}

/// The segments after `crate::`: `a::b::C` gives one path, `{a::X, b::{Y, Z}}` one per branch.
fn expand(text: &str) -> Vec<Vec<String>> {
    let mut segs = Vec::new();
    let mut rest = text;
    loop {
        let ident: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if ident.is_empty() {
            break;
        }
        rest = &rest[ident.len()..];
        segs.push(ident);
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => return vec![segs],
        }
    }
    let Some(inner) = rest.strip_prefix('{') else {
        return vec![segs];
    };
    // Split the group at its top-level commas.
    let mut depth = 0;
    let mut parts = vec![String::new()];
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = parts.last_mut() {
            last.push(c);
        }
    }
    let mut out = Vec::new();
    for part in parts {
        for tail in expand(part.trim()) {
            let mut p = segs.clone();
            p.extend(tail);
            out.push(p);
        }
    }
    if out.is_empty() {
        out.push(segs);
    }
    out
}

/// A module of the tree: the file that holds it, its children and its re-exports.
#[derive(Default)]
struct Module {
    file: String,
    children: BTreeSet<String>,
    /// Name -> the child module it is re-exported from.
    reexports: BTreeMap<String, String>,
}

/// The tree of `src`: module path (`["data", "iteration"]`) -> module.
fn modules(files: &BTreeMap<String, String>) -> BTreeMap<Vec<String>, Module> {
    let mut tree: BTreeMap<Vec<String>, Module> = BTreeMap::new();
    for file in files.keys() {
        let path = module_path(file);
        tree.entry(path.clone()).or_default().file = file.clone();
        if let Some((last, parent)) = path.split_last() {
            tree.entry(parent.to_vec())
                .or_default()
                .children
                .insert(last.clone());
        }
    }
    for (file, src) in files {
        let path = module_path(file);
        let children = tree
            .get(&path)
            .map(|m| m.children.clone())
            .unwrap_or_default();
        for u in uses(src, &children)
            .into_iter()
            .filter(|u| u.reexport && u.path[0] == "self")
        {
            if let [_, child, .., name] = &u.path[..] {
                tree.entry(path.clone())
                    .or_default()
                    .reexports
                    .insert(name.clone(), child.clone());
            }
        }
    }
    tree
}

/// `data/iteration/mod.rs` -> `["data", "iteration"]`; `lib.rs` -> `[]`.
fn module_path(file: &str) -> Vec<String> {
    let stem = file.trim_end_matches(".rs");
    let mut segs: Vec<String> = stem.split('/').map(str::to_owned).collect();
    if matches!(segs.last().map(String::as_str), Some("mod" | "lib")) {
        segs.pop();
    }
    segs
}

/// The module a path names, from the module `at`: children are followed, then a re-exported
/// name leads to the child that defines it.
fn resolve(tree: &BTreeMap<Vec<String>, Module>, at: &[String], path: &[String]) -> Vec<String> {
    let (mut module, rest): (Vec<String>, &[String]) = match path[0].as_str() {
        "crate" => (vec![], &path[1..]),
        "super" => {
            let mut m = at.to_vec();
            let mut rest = &path[1..];
            m.pop();
            while rest.first().is_some_and(|s| s == "super") {
                m.pop();
                rest = &rest[1..];
            }
            (m, rest)
        }
        _ => (at.to_vec(), &path[1..]),
    };
    for seg in rest {
        let Some(m) = tree.get(&module) else { break };
        if m.children.contains(seg) {
            module.push(seg.clone());
        } else if let Some(child) = m.reexports.get(seg) {
            module.push(child.clone());
            return resolve(tree, &module, &[String::from("self")]);
        } else {
            break;
        }
    }
    module
}

/// Every breach of the rules, as `file:line: what`: with `parts` (from the bottom up), an
/// import of a part above, or one through the crate root; an import in `forbidden`; a loop of
/// files.
fn check(
    files: &BTreeMap<String, String>,
    parts: &[&str],
    forbidden: &[(&str, &str, &str)],
) -> Vec<String> {
    let tree = modules(files);
    let rank = |part: &str| parts.iter().position(|p| *p == part);
    let mut faults = Vec::new();
    let mut edges: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for (file, src) in files {
        let at = module_path(file);
        let part = at.first().cloned().unwrap_or_default();
        // lib.rs and error.rs sit above every part.
        let my_rank = rank(&part);
        let children = tree
            .get(&at)
            .map(|m| m.children.clone())
            .unwrap_or_default();
        for u in uses(src, &children) {
            let target = resolve(&tree, &at, &u.path);
            let to = &tree[&target].file;
            if let Some(my_rank) = my_rank {
                match target.first() {
                    None => faults.push(format!(
                        "{file}:{}: `{}` goes through the crate root; name the part (`crate::types::...`)",
                        u.line,
                        u.path.join("::")
                    )),
                    Some(target_part) => match rank(target_part) {
                        None => faults.push(format!(
                            "{file}:{}: `{}` names `{target_part}`, which is not a part",
                            u.line,
                            u.path.join("::")
                        )),
                        Some(r) if r > my_rank => faults.push(format!(
                            "{file}:{}: the part `{part}` imports `{}` from `{target_part}`, a part above it",
                            u.line,
                            u.path.join("::")
                        )),
                        _ => {}
                    },
                }
            }
            for (from, into, why) in forbidden {
                if file.starts_with(from) && to.starts_with(into) {
                    faults.push(format!(
                        "{file}:{}: `{}` imports from `{to}`, which `{from}` must not: {why}",
                        u.line,
                        u.path.join("::")
                    ));
                }
            }
            // A folder's index re-exporting its children is its public face, not an import.
            let own_reexport = u.reexport && target.starts_with(&at) && target.len() > at.len();
            if to != file && !own_reexport {
                edges
                    .entry(file.clone())
                    .or_default()
                    .entry(to.clone())
                    .or_insert(u.line);
            }
        }
    }
    faults.extend(cycles(&edges));
    faults
}

/// The import loops among files, each once, as `a:line -> b:line -> ... -> a`.
fn cycles(edges: &BTreeMap<String, BTreeMap<String, usize>>) -> Vec<String> {
    let mut found = BTreeSet::new();
    for start in edges.keys() {
        // Depth-first search for a path back to `start` through files greater than it, so each
        // loop is reported once, from its smallest file.
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        while let Some((node, path)) = stack.pop() {
            for (next, _) in edges.get(&node).into_iter().flatten() {
                if next == start {
                    let mut steps = Vec::new();
                    for pair in path.windows(2) {
                        steps.push(format!("{}:{}", pair[0], edges[&pair[0]][&pair[1]]));
                    }
                    let last = path.last().cloned().unwrap_or_default();
                    steps.push(format!("{last}:{}", edges[&last][start]));
                    found.insert(format!("import loop: {} -> {start}", steps.join(" -> ")));
                } else if next > start && !path.contains(next) {
                    let mut p = path.clone();
                    p.push(next.clone());
                    stack.push((next.clone(), p));
                }
            }
        }
    }
    found.into_iter().collect()
}

fn read_tree(root: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(root)
                    .expect("under src")
                    .to_string_lossy()
                    .replace('\\', "/");
                let src = std::fs::read_to_string(&path).expect("a source file is UTF-8");
                files.insert(rel, src);
            }
        }
    }
    files
}

/// An import that the design forbids: (importing files, imported files, why).
type Rule<'a> = (&'a str, &'a str, &'a str);

/// A crate of the workspace, by its folder beside spec-core.
fn workspace(dir: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir)
}

#[test]
fn each_part_imports_only_the_parts_below_it_and_no_files_form_a_loop() {
    let files = read_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    for part in PARTS {
        assert!(
            files.contains_key(&format!("{part}/mod.rs")),
            "the part `{part}` has no folder"
        );
    }
    let faults = check(&files, PARTS, FORBIDDEN);
    assert!(faults.is_empty(), "\n{}\n", faults.join("\n"));
}

#[test]
fn no_crate_of_the_workspace_has_a_loop_of_files() {
    let derive_rules: Vec<Rule> = DERIVE_INTERNALS
        .iter()
        .map(|f| {
            (
                *f,
                "expand/",
                "the derive's internals model and check the input; the generators build on them",
            )
        })
        .collect();
    let crates: [(&str, &[Rule]); 6] = [
        ("kernel/src", &[]),
        ("spec-facts/src", &[]),
        ("spec-derive/src", &derive_rules),
        ("src", &[]),
        ("adapters/burn/src", &[]),
        ("adapters/candle/src", &[]),
    ];
    let mut faults = Vec::new();
    for (dir, forbidden) in crates {
        let files = read_tree(&workspace(dir));
        assert!(!files.is_empty(), "`{dir}` has no source files");
        for fault in check(&files, &[], forbidden) {
            faults.push(format!("{dir}/{fault}"));
        }
    }
    assert!(faults.is_empty(), "\n{}\n", faults.join("\n"));
}

#[test]
fn the_kernel_crate_imports_nothing_of_the_workspace() {
    let manifest =
        std::fs::read_to_string(workspace("kernel/Cargo.toml")).expect("kernel's manifest");
    let deps = manifest
        .lines()
        .skip_while(|l| !l.trim().starts_with("[dependencies]"))
        .take_while(|l| !l.trim().starts_with("[dev-dependencies]"));
    for line in deps {
        let name = line.split(['=', '.']).next().unwrap_or("").trim();
        assert!(
            !name.starts_with("batchspec") || name == "batchspec-facts",
            "kernel/Cargo.toml depends on `{name}`: the kernels know no spaces and nothing of the workspace but its facts"
        );
    }
    for (file, src) in read_tree(&workspace("kernel/src")) {
        let code = code_only(&src);
        for (n, line) in code.lines().enumerate() {
            for name in ["batchspec_core", "batchspec::", "batchspec_derive"] {
                assert!(
                    !line.contains(name),
                    "kernel/src/{file}:{}: names `{name}`: the kernels import nothing of the workspace",
                    n + 1
                );
            }
        }
    }
}

fn tree(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|(f, s)| (f.to_string(), s.to_string()))
        .collect()
}

#[test]
fn an_import_from_a_part_above_fails_naming_file_and_line() {
    let files = tree(&[
        ("lib.rs", "pub mod types;\npub mod data;\n"),
        ("types/mod.rs", "pub mod batch;\n"),
        (
            "types/batch.rs",
            "// crate::data::Dataset in a comment is fine\nuse crate::data::dataset::Dataset;\n",
        ),
        ("data/mod.rs", "pub mod dataset;\n"),
        ("data/dataset.rs", "pub struct Dataset;\n"),
    ]);
    assert_eq!(
        check(&files, PARTS, FORBIDDEN),
        [
            "types/batch.rs:2: the part `types` imports `crate::data::dataset::Dataset` from `data`, a part above it"
        ]
    );
}

#[test]
fn a_loop_of_files_inside_a_part_fails_naming_each_step() {
    let files = tree(&[
        ("lib.rs", "pub mod buffer;\n"),
        (
            "buffer/mod.rs",
            "mod hubs;\nmod layers;\nmod build;\npub use hubs::BufferLayout;\npub use layers::LayoutSpec;\n",
        ),
        ("buffer/hubs.rs", "\nuse super::LayoutSpec;\n"),
        ("buffer/layers.rs", "use super::hubs::BufferLayout;\n"),
        (
            "buffer/build.rs",
            "use super::{hubs::BufferLayout, layers::LayoutSpec};\n",
        ),
    ]);
    assert_eq!(
        check(&files, PARTS, FORBIDDEN),
        ["import loop: buffer/hubs.rs:2 -> buffer/layers.rs:1 -> buffer/hubs.rs"]
    );
}

#[test]
fn grouped_imports_strings_and_crate_root_paths_are_read_as_written() {
    let files = tree(&[
        ("lib.rs", "pub mod types;\npub mod format;\n"),
        ("types/mod.rs", "pub mod axis;\n"),
        ("types/axis.rs", "const S: &str = \"crate::format::x\";\n"),
        (
            "format/mod.rs",
            "use crate::{types::axis::Axis, Batch};\nfn f() -> char { '\"' }\n\
             macro_rules! m { () => { $crate::image!(@layout B) } }\n",
        ),
    ]);
    assert_eq!(
        check(&files, PARTS, FORBIDDEN),
        [
            "format/mod.rs:1: `crate::Batch` goes through the crate root; name the part (`crate::types::...`)"
        ]
    );
}

#[test]
fn macro_paths_and_test_only_items_are_read_and_unit_tests_are_not() {
    let files = tree(&[
        ("lib.rs", "pub mod types;\npub mod data;\n"),
        ("types/mod.rs", "pub mod batch;\n"),
        (
            "types/batch.rs",
            "macro_rules! m { () => { $crate::data::dataset::Dataset } }\n\
             #[cfg(test)]\nfn helper() { crate::data::dataset::Dataset; }\n\
             #[cfg(test)]\nmod tests { use crate::data::dataset::Dataset; }\n",
        ),
        ("data/mod.rs", "pub mod dataset;\n"),
        ("data/dataset.rs", "pub struct Dataset;\n"),
    ]);
    assert_eq!(
        check(&files, PARTS, FORBIDDEN),
        [
            "types/batch.rs:1: the part `types` imports `$crate::data::dataset::Dataset` from `data`, a part above it"
                .replace("`$crate", "`crate"),
            "types/batch.rs:3: the part `types` imports `crate::data::dataset::Dataset` from `data`, a part above it"
                .to_owned(),
        ]
    );
}

#[test]
fn a_forbidden_pair_fails_though_the_ranks_allow_it() {
    let files = tree(&[
        ("lib.rs", "pub mod data;\npub mod load;\n"),
        (
            "data/mod.rs",
            "pub(crate) mod provider;\npub use provider::*;\n",
        ),
        ("data/provider.rs", "pub struct Provider;\n"),
        ("load/mod.rs", "mod csv;\n"),
        ("load/csv.rs", "use crate::data::provider::Provider;\n"),
    ]);
    let faults = check(&files, PARTS, FORBIDDEN);
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert!(
        faults[0].starts_with(
            "load/csv.rs:1: `crate::data::provider::Provider` imports from `data/provider.rs`, which `load/` must not"
        ),
        "{faults:?}"
    );
}
