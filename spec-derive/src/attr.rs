//! Parsing of `#[spec(...)]` attributes, with duplicate and unknown keys reported, and the
//! checks of a source string.

use crate::ctxt::Ctxt;
use crate::symbol::{CONTAINER_KEYS, CRATE, FIELD_KEYS, SOURCE, SPEC};
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;

/// The longest source name, in characters (the number of `char` parameters of `Src`).
pub const MAX_SOURCE_LEN: usize = batchspec_facts::MAX_SOURCE_LEN;

/// A value of an attribute, with the span of its key.
pub struct Attr<T> {
    name: &'static str,
    value: Option<(Span, T)>,
}

impl<T> Attr<T> {
    pub fn none(name: &'static str) -> Self {
        Attr { name, value: None }
    }

    /// Sets the value, reporting a repeated key at `span`.
    pub fn set(&mut self, cx: &Ctxt, span: Span, value: T) {
        if self.value.is_some() {
            // One error per mistake: the repeated key, which says that the key came before.
            cx.syn_error(syn::Error::new(
                span,
                format!(
                    "duplicate spec attribute `{}`: it is given earlier in this attribute list; give each key once",
                    self.name
                ),
            ));
        } else {
            self.value = Some((span, value));
        }
    }

    pub fn get(self) -> Option<T> {
        self.value.map(|(_, v)| v)
    }
}

/// The attributes of one field.
pub struct FieldAttrs {
    /// The source string and the literal it came from.
    pub source: Option<(String, syn::LitStr)>,
}

/// The attributes of the struct.
pub struct ContainerAttrs {
    pub krate: Option<syn::Path>,
}

fn did_you_mean(word: &str, known: &[&str]) -> String {
    let list = known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let close = known.iter().find(|k| edit_distance(word, k) <= 2);
    match (known.len(), close) {
        (_, Some(k)) => format!("unknown spec attribute `{word}`; did you mean `{k}`?"),
        (1, None) => format!("unknown spec attribute `{word}`; expected {list}"),
        _ => format!("unknown spec attribute `{word}`; expected one of {list}"),
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

fn key_name(meta: &ParseNestedMeta<'_>) -> String {
    meta.path
        .get_ident()
        .map(|i| i.to_string())
        .unwrap_or_else(|| {
            let path = &meta.path;
            quote::quote!(#path).to_string().replace(' ', "")
        })
}

/// Skips the value of an unknown key so that parsing can go on.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: syn::Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let _ = meta.parse_nested_meta(|m| skip_value(&m));
    }
    Ok(())
}

/// Checks a source name; `Err` with the message.
pub fn check_source_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err(
            "a source name cannot be empty; a leaf that needs no data is a `Null` field".into(),
        );
    }
    let len = name.chars().count();
    if len > MAX_SOURCE_LEN {
        return Err(format!(
            "source name `{name}` has {len} characters; a source name has at most {MAX_SOURCE_LEN}"
        ));
    }
    if let Some(c) = name.chars().find(|c| c.is_control() || c.is_whitespace()) {
        return Err(format!(
            "source name `{}` contains {:?}; a source name has no whitespace or control characters",
            name.escape_debug(),
            c
        ));
    }
    Ok(())
}

/// Parses a string literal as a source, recording errors.
pub fn parse_source(cx: &Ctxt, lit: &syn::LitStr) -> Option<String> {
    let name = lit.value();
    match check_source_name(&name) {
        Ok(()) => Some(name),
        Err(msg) => {
            cx.error_spanned_by(lit, msg);
            None
        }
    }
}

impl FieldAttrs {
    pub fn from_field(cx: &Ctxt, field: &syn::Field) -> Self {
        let mut source = Attr::none(SOURCE);
        for attr in &field.attrs {
            if !attr.path().is_ident(SPEC) {
                continue;
            }
            let res = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident(SOURCE) {
                    let span = meta.path.get_ident().map(|i| i.span()).unwrap_or_else(Span::call_site);
                    let value = meta.value()?;
                    let expr: syn::Expr = value.parse()?;
                    match &expr {
                        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(lit), .. }) => {
                            if let Some(name) = parse_source(cx, lit) {
                                source.set(cx, span, (name, lit.clone()));
                            } else {
                                source.set(cx, span, (String::new(), lit.clone()));
                            }
                        }
                        other => cx.error_spanned_by(
                            other,
                            "expected the source as a string literal, as in `source = \"features\"`",
                        ),
                    }
                } else {
                    cx.error_spanned_by(&meta.path, did_you_mean(&key_name(&meta), FIELD_KEYS));
                    skip_value(&meta)?;
                }
                Ok(())
            });
            if let Err(e) = res {
                cx.syn_error(e);
            }
        }
        FieldAttrs {
            source: source.get().filter(|(s, _)| !s.is_empty()),
        }
    }
}

impl ContainerAttrs {
    pub fn from_ast(cx: &Ctxt, input: &syn::DeriveInput) -> Self {
        let mut krate = Attr::none(CRATE);
        for attr in &input.attrs {
            if !attr.path().is_ident(SPEC) {
                continue;
            }
            let res = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident(CRATE) {
                    let span = meta.path.get_ident().map(|i| i.span()).unwrap_or_else(Span::call_site);
                    let lit: syn::LitStr = meta.value()?.parse()?;
                    match lit.parse::<syn::Path>() {
                        Ok(path) => krate.set(cx, span, path),
                        Err(_) => cx.error_spanned_by(&lit, format!("`{}` is not a path", lit.value())),
                    }
                } else if meta.path.is_ident(SOURCE) {
                    cx.error_spanned_by(
                        &meta.path,
                        "`source` goes on a field, not on the struct: each field names its own source",
                    );
                    skip_value(&meta)?;
                } else {
                    cx.error_spanned_by(&meta.path, did_you_mean(&key_name(&meta), CONTAINER_KEYS));
                    skip_value(&meta)?;
                }
                Ok(())
            });
            if let Err(e) = res {
                cx.syn_error(e);
            }
        }
        ContainerAttrs { krate: krate.get() }
    }
}
