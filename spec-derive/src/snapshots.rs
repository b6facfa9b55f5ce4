//! Expansion snapshots: every change of the derive's generated code shows up in review.
//!
//! For each input `tests/expand/<name>.rs` (one `#[derive(DataSpec)]` struct), the test runs
//! [`crate::expand::derive`], the function the macro runs, and compares its output with
//! `tests/expand/<name>.expanded.rs`: the output pretty-printed, under two fingerprints of the raw
//! tokens, one of their text and one of their spans (line and column in the input), which catch
//! what pretty-printing would hide (a moved span, a trailing comma). The type macros `layout!`
//! and `source!` have one snapshot, `tests/expand/type_macros.snap`, of a list of calls. With
//! `BATCHSPEC_BLESS=1` the tests write the snapshots instead.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The folder of the inputs and their snapshots.
fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand")
}

/// The input as the compiler hands it to the derive: the item without its `#[derive(..)]`.
fn parse_input(text: &str) -> syn::Result<syn::DeriveInput> {
    let mut input: syn::DeriveInput = syn::parse_str(text)?;
    input.attrs.retain(|a| !a.path().is_ident("derive"));
    Ok(input)
}

/// FNV-1a, 64 bits: a fingerprint that is the same on every platform.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The tokens one per line, with their spacing, and (if `spans`) where each token and group
/// starts and ends.
fn describe(tokens: TokenStream, spans: bool, out: &mut String) {
    let at = |s: proc_macro2::Span| {
        if spans {
            let (a, b) = (s.start(), s.end());
            format!(" @{}:{}-{}:{}", a.line, a.column, b.line, b.column)
        } else {
            String::new()
        }
    };
    for tt in tokens {
        match tt {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("<none>", "</none>"),
                };
                let _ = writeln!(out, "{open}{}", at(g.span()));
                describe(g.stream(), spans, out);
                let _ = writeln!(out, "{close}");
            }
            TokenTree::Punct(p) => {
                let joint = if p.spacing() == Spacing::Joint {
                    "+"
                } else {
                    ""
                };
                let _ = writeln!(out, "{}{joint}{}", p.as_char(), at(p.span()));
            }
            TokenTree::Ident(i) => {
                let _ = writeln!(out, "{i}{}", at(i.span()));
            }
            TokenTree::Literal(l) => {
                let _ = writeln!(out, "{l}{}", at(l.span()));
            }
        }
    }
}

/// The snapshot of one output: the fingerprints, then the code pretty-printed (or the raw tokens,
/// should they not parse as a file).
fn render(name: &str, out: &TokenStream) -> String {
    let (mut tokens, mut spans) = (String::new(), String::new());
    describe(out.clone(), false, &mut tokens);
    describe(out.clone(), true, &mut spans);
    let code = match syn::parse2::<syn::File>(out.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        Err(e) => format!("// not a file ({e}): the raw tokens\n{out}\n"),
    };
    format!(
        "// The expansion of tests/expand/{name}.rs; written by `BATCHSPEC_BLESS=1 cargo test`.\n\
         // tokens: {:016x}\n\
         // spans: {:016x}\n\
         {code}",
        fnv1a(&tokens),
        fnv1a(&spans),
    )
}

/// Where `want` and `got` first differ, with both lines.
fn first_difference(want: &str, got: &str) -> String {
    let (mut w, mut g) = (want.lines(), got.lines());
    for n in 1.. {
        match (w.next(), g.next()) {
            (Some(a), Some(b)) if a == b => continue,
            (None, None) => break,
            (a, b) => {
                return format!(
                    "first difference at line {n}:\n    snapshot: {}\n    derive:   {}",
                    a.unwrap_or("<end of file>"),
                    b.unwrap_or("<end of file>")
                );
            }
        }
    }
    "the files differ only in their line endings".to_string()
}

/// Whether the tests write the snapshots instead of comparing.
fn bless() -> bool {
    std::env::var("BATCHSPEC_BLESS").is_ok_and(|v| v == "1")
}

/// Compares `got` with the snapshot at `path`, or writes it when blessing; the failure, if any.
fn compare(path: &Path, got: &str) -> Option<String> {
    let file = path.file_name().and_then(|f| f.to_str()).unwrap_or("");
    if bless() {
        std::fs::write(path, got).expect("the snapshot written");
        return None;
    }
    match std::fs::read_to_string(path) {
        Ok(want) if want == got => None,
        Ok(want) => Some(format!(
            "{file} differs from the macro's output; {}",
            first_difference(&want, got)
        )),
        Err(_) => Some(format!("{file} is missing")),
    }
}

#[test]
fn expansions_match_their_snapshots() {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("the folder tests/expand")
        .map(|e| e.expect("an entry of tests/expand").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    inputs.sort();
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in &inputs {
        let file = path.file_name().and_then(|f| f.to_str()).unwrap_or("");
        if let Some(name) = file.strip_suffix(".expanded.rs") {
            if !dir().join(format!("{name}.rs")).exists() {
                failures.push(format!("{file}: a snapshot without its input {name}.rs"));
            }
            continue;
        }
        let name = file.trim_end_matches(".rs");
        let text = std::fs::read_to_string(path).expect("an input file");
        let input = match parse_input(&text) {
            Ok(i) => i,
            Err(e) => {
                failures.push(format!("{file}: not one struct: {e}"));
                continue;
            }
        };
        let got = render(name, &crate::expand::derive(&input));
        checked += 1;
        failures.extend(compare(&dir().join(format!("{name}.expanded.rs")), &got));
    }
    assert!(checked > 0, "no inputs in tests/expand");
    assert!(
        failures.is_empty(),
        "{}\n(review the change, then write the snapshots with BATCHSPEC_BLESS=1)",
        failures.join("\n")
    );
}

/// The calls of the type macros the snapshot covers: every branch of each, errors included.
const TYPE_MACRO_CALLS: [(&str, &str); 12] = [
    ("layout", "bchw"),
    ("layout", "\"bhwc\""),
    ("layout", "btdhwc"),
    ("layout", "bxb"),
    ("layout", "\"\""),
    ("layout", "bfthwcd"),
    ("layout", "1"),
    ("source", "\"features\""),
    ("source", "\"mask\""),
    ("source", "\"\""),
    ("source", "\"a b\""),
    ("source", "features"),
];

#[test]
fn type_macros_match_their_snapshot() {
    let mut got = String::from(
        "// The type macros' expansions; written by `BATCHSPEC_BLESS=1 cargo test`.\n\
         // Each call, its tokens, and a fingerprint of their spans.\n",
    );
    for (name, args) in TYPE_MACRO_CALLS {
        let input: TokenStream = args.parse().expect("the arguments as tokens");
        let out = match name {
            "layout" => crate::expand::type_macros::layout(input),
            _ => crate::expand::type_macros::source(input),
        };
        let mut spans = String::new();
        describe(out.clone(), true, &mut spans);
        let _ = write!(
            got,
            "\n{name}!({args})\n    {out}\n    spans: {:016x}\n",
            fnv1a(&spans)
        );
    }
    let failure = compare(&dir().join("type_macros.snap"), &got);
    assert!(failure.is_none(), "{}", failure.unwrap_or_default());
}
