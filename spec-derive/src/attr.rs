//! Parsing of `#[spec(...)]` attributes, with duplicate and unknown keys reported, and the
//! checks of a source string.

use crate::ctxt::Ctxt;
use crate::symbol::{
    AUGMENT, CONTAINER_KEYS, CRATE, FIELD_KEYS, LENGTHS_OF, MASK_OF, MIXED_WITH, PAD, PAD_TO,
    SOURCE, SPEC, TRUNCATE,
};
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
    /// The collate policy of a sequence field.
    pub collate: Collate,
    /// `lengths_of` or `mask_of`: the field describes the samples of another source.
    pub steps_of: Option<StepsOf>,
    /// `augment = Type`: the augmentation the field goes through, with the key's span.
    pub augment: Option<(Span, syn::Type)>,
    /// `mixed_with = "source"`: labels mixed with the pairs of that source's augmentation.
    pub mixed_with: Option<(Span, String)>,
}

/// A collate policy as written: `pad = ..`, `pad_to = N`, `truncate`.
#[derive(Default, Clone)]
pub struct Collate {
    /// The pad value (a literal, perhaps negative) and the span of its key.
    pub pad: Option<(Span, syn::Expr)>,
    /// The fixed number of steps.
    pub pad_to: Option<(Span, usize)>,
    /// The span of `truncate`.
    pub truncate: Option<Span>,
}

impl Collate {
    /// The span of the first key that only a sequence field takes (`pad_to`, `truncate`).
    pub fn sequence_span(&self) -> Option<Span> {
        self.pad_to.map(|p| p.0).or(self.truncate)
    }

    /// The span of the first key given, if any.
    pub fn span(&self) -> Option<Span> {
        self.pad
            .as_ref()
            .map(|p| p.0)
            .or(self.pad_to.map(|p| p.0))
            .or(self.truncate)
    }
}

/// What a `lengths_of` / `mask_of` field describes.
#[derive(Clone)]
pub struct StepsOf {
    /// `true` for `mask_of`.
    pub mask: bool,
    /// The source it describes.
    pub source: String,
    /// The span of the key.
    pub span: Span,
}

/// A literal number, perhaps negated: what a pad value may be.
fn is_number(expr: &syn::Expr) -> bool {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(_) | syn::Lit::Float(_),
            ..
        }) => true,
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => is_number(&u.expr),
        syn::Expr::Group(g) => is_number(&g.expr),
        _ => false,
    }
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

/// The keys of one field as they are read, each at most once.
struct FieldKeys {
    source: Attr<(String, syn::LitStr)>,
    pad: Attr<(Span, syn::Expr)>,
    pad_to: Attr<(Span, usize)>,
    truncate: Attr<Span>,
    lengths_of: Attr<StepsOf>,
    mask_of: Attr<StepsOf>,
    augment: Attr<(Span, syn::Type)>,
    mixed_with: Attr<(Span, String)>,
}

/// The span of a key: its identifier.
fn key_span(meta: &ParseNestedMeta<'_>) -> Span {
    meta.path
        .get_ident()
        .map(|i| i.span())
        .unwrap_or_else(Span::call_site)
}

impl FieldKeys {
    fn new() -> Self {
        FieldKeys {
            source: Attr::none(SOURCE),
            pad: Attr::none(PAD),
            pad_to: Attr::none(PAD_TO),
            truncate: Attr::none(TRUNCATE),
            lengths_of: Attr::none(LENGTHS_OF),
            mask_of: Attr::none(MASK_OF),
            augment: Attr::none(AUGMENT),
            mixed_with: Attr::none(MIXED_WITH),
        }
    }

    /// Reads one key of `#[spec(..)]`, recording its mistakes.
    fn parse(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        if meta.path.is_ident(SOURCE) {
            self.parse_source(cx, meta)
        } else if meta.path.is_ident(PAD) {
            self.parse_pad(cx, meta)
        } else if meta.path.is_ident(PAD_TO) {
            self.parse_pad_to(cx, meta)
        } else if meta.path.is_ident(TRUNCATE) {
            self.parse_truncate(cx, meta)
        } else if meta.path.is_ident(LENGTHS_OF) || meta.path.is_ident(MASK_OF) {
            self.parse_steps_of(cx, meta)
        } else if meta.path.is_ident(AUGMENT) {
            self.parse_augment(cx, meta)
        } else if meta.path.is_ident(MIXED_WITH) {
            self.parse_mixed_with(cx, meta)
        } else {
            cx.error_spanned_by(&meta.path, did_you_mean(&key_name(meta), FIELD_KEYS));
            skip_value(meta)
        }
    }

    /// `source = "name"`.
    fn parse_source(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let span = key_span(meta);
        let value = meta.value()?;
        let expr: syn::Expr = value.parse()?;
        match &expr {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(lit),
                ..
            }) => {
                if let Some(name) = parse_source(cx, lit) {
                    self.source.set(cx, span, (name, lit.clone()));
                } else {
                    self.source.set(cx, span, (String::new(), lit.clone()));
                }
            }
            other => cx.error_spanned_by(
                other,
                "expected the source as a string literal, as in `source = \"features\"`",
            ),
        }
        Ok(())
    }

    /// `pad = number`.
    fn parse_pad(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let span = key_span(meta);
        let expr: syn::Expr = meta.value()?.parse()?;
        if is_number(&expr) {
            self.pad.set(cx, span, (span, expr));
        } else {
            cx.error_spanned_by(
                &expr,
                "expected the pad value as a number, as in `pad = 0` or `pad = -1.0`",
            );
        }
        Ok(())
    }

    /// `pad_to = N`, `N` at least 1.
    fn parse_pad_to(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let span = key_span(meta);
        let lit: syn::Lit = meta.value()?.parse()?;
        let not_an_integer =
            "expected the number of time steps as an integer, as in `pad_to = 128`";
        match &lit {
            syn::Lit::Int(n) => match n.base10_parse::<usize>() {
                Ok(0) => cx.error_spanned_by(
                    &lit,
                    "`pad_to = 0` gives batches of no steps; give the number of time steps of every batch, at least 1",
                ),
                Ok(v) => self.pad_to.set(cx, span, (span, v)),
                Err(_) => cx.error_spanned_by(&lit, not_an_integer),
            },
            _ => cx.error_spanned_by(&lit, not_an_integer),
        }
        Ok(())
    }

    /// `truncate`, without a value.
    fn parse_truncate(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let span = key_span(meta);
        if meta.input.peek(syn::Token![=]) {
            cx.error_spanned_by(
                &meta.path,
                "`truncate` takes no value: write `truncate` to cut samples longer than the batch's steps",
            );
            skip_value(meta)?;
        } else {
            self.truncate.set(cx, span, span);
        }
        Ok(())
    }

    /// `lengths_of = "source"` or `mask_of = "source"`.
    fn parse_steps_of(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let mask = meta.path.is_ident(MASK_OF);
        let span = key_span(meta);
        let lit: syn::LitStr = match meta.value()?.parse() {
            Ok(l) => l,
            Err(_) => {
                cx.error_spanned_by(
                    &meta.path,
                    "expected the source as a string literal, as in `lengths_of = \"tokens\"`",
                );
                return Ok(());
            }
        };
        if let Some(name) = parse_source(cx, &lit) {
            let v = StepsOf {
                mask,
                source: name,
                span,
            };
            if mask {
                self.mask_of.set(cx, span, v)
            } else {
                self.lengths_of.set(cx, span, v)
            }
        }
        Ok(())
    }

    /// `augment = Type`.
    fn parse_augment(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let span = key_span(meta);
        match meta.value()?.parse::<syn::Type>() {
            Ok(ty) => self.augment.set(cx, span, (span, ty)),
            Err(_) => cx.error_spanned_by(
                &meta.path,
                "expected the augmentation as a type, as in `augment = Train` or `augment = Eval<Train>`",
            ),
        }
        Ok(())
    }

    /// `mixed_with = "source"`.
    fn parse_mixed_with(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let span = key_span(meta);
        let lit: syn::LitStr = match meta.value()?.parse() {
            Ok(l) => l,
            Err(_) => {
                cx.error_spanned_by(
                    &meta.path,
                    "expected the source as a string literal, as in `mixed_with = \"image\"`",
                );
                return Ok(());
            }
        };
        if let Some(name) = parse_source(cx, &lit) {
            self.mixed_with.set(cx, span, (span, name));
        }
        Ok(())
    }

    /// The field's attributes, with the keys that exclude each other reported.
    fn finish(self, cx: &Ctxt) -> FieldAttrs {
        let FieldKeys {
            source,
            pad,
            pad_to,
            truncate,
            lengths_of,
            mask_of,
            augment,
            mixed_with,
        } = self;
        let augment = augment.get();
        let mixed_with = mixed_with.get();
        let collate = Collate {
            pad: pad.get(),
            pad_to: pad_to.get(),
            truncate: truncate.get(),
        };
        let lengths_of = lengths_of.get();
        let mask_of = mask_of.get();
        let steps_of = match (lengths_of, mask_of) {
            (Some(_), Some(m)) => {
                cx.syn_error(syn::Error::new(m.span, "a field is either `lengths_of` or `mask_of` a source, not both: give the mask a field of its own"));
                None
            }
            (l, m) => l.or(m),
        };
        let source = source.get().filter(|(s, _)| !s.is_empty());
        if let Some(of) = &steps_of {
            let key = if of.mask { MASK_OF } else { LENGTHS_OF };
            if let Some((_, lit)) = &source {
                cx.error_spanned_by(
                    lit,
                    format!("`{key}` names the source this field describes; drop `source`"),
                );
            } else if let Some(span) = collate.span() {
                cx.syn_error(syn::Error::new(span, format!("a `{key}` field takes its steps from the sequence field of source \"{}\": give `pad`, `pad_to` and `truncate` there", of.source)));
            }
        }
        if let Some((span, _)) = &augment {
            if collate.span().is_some() || steps_of.is_some() {
                cx.syn_error(syn::Error::new(*span, "`augment` makes a field's values itself (its padding rows are zeros); `pad`, `pad_to`, `truncate`, `lengths_of` and `mask_of` go on fields gathered as they are: a field takes one or the other"));
            } else if mixed_with.is_some() {
                cx.syn_error(syn::Error::new(*span, "a field is either augmented (`augment`) or labels mixed with an augmented source (`mixed_with`), not both"));
            }
        }
        FieldAttrs {
            source,
            collate,
            steps_of,
            augment,
            mixed_with,
        }
    }
}

impl FieldAttrs {
    /// Reads the `#[spec(..)]` attributes of a field, recording every mistake.
    pub fn from_field(cx: &Ctxt, field: &syn::Field) -> Self {
        let mut keys = FieldKeys::new();
        for attr in &field.attrs {
            if !attr.path().is_ident(SPEC) {
                continue;
            }
            let res = attr.parse_nested_meta(|meta| keys.parse(cx, &meta));
            if let Err(e) = res {
                cx.syn_error(e);
            }
        }
        keys.finish(cx)
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
