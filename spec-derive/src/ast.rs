//! The derive's input as a small IR: the struct, its fields, their sources and attributes, and
//! what kind of field each is (a batch, a tuple, `Null`, a nested spec), read from its type.

use crate::attr::{self, ContainerAttrs, FieldAttrs};
use crate::ctxt::Ctxt;
use syn::spanned::Spanned;

/// A struct deriving `DataSpec`.
pub struct Container<'a> {
    pub ident: &'a syn::Ident,
    pub vis: &'a syn::Visibility,
    pub generics: &'a syn::Generics,
    pub fields: Vec<Field<'a>>,
    pub attrs: ContainerAttrs,
    /// The lints the struct allows or expects, as `#[allow(..)]`s for the generated mapped
    /// struct, which repeats the fields' names.
    pub allows: Vec<proc_macro2::TokenStream>,
}

/// One field and the source it reads.
pub struct Field<'a> {
    pub member: &'a syn::Ident,
    pub vis: &'a syn::Visibility,
    /// The field's doc comments, copied onto the generated mapped struct.
    pub docs: Vec<&'a syn::Attribute>,
    /// The lints the field allows or expects, as `#[allow(..)]`s for the mapped struct's field.
    pub allows: Vec<proc_macro2::TokenStream>,
    /// The `#` of the field's first `#[spec(..)]`, where its source and policies are named.
    pub spec_attr: Option<proc_macro2::Span>,
    pub ty: &'a syn::Type,
    /// The source name: `#[spec(source = "...")]`, or the field name (for a `lengths_of` or
    /// `mask_of` field, the source it describes).
    pub source: String,
    /// The collate policy of a sequence field.
    pub collate: attr::Collate,
    /// `lengths_of` or `mask_of`.
    pub steps_of: Option<attr::StepsOf>,
    /// `augment = Type`.
    pub augment: Option<(proc_macro2::Span, syn::Type)>,
    /// `mixed_with = "source"`.
    pub mixed_with: Option<(proc_macro2::Span, String)>,
}

impl<'a> Container<'a> {
    /// Parses the input; `None` when the input is not a struct with named fields (the error is
    /// recorded in `cx`).
    pub fn from_ast(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Self> {
        let attrs = ContainerAttrs::from_ast(cx, input);
        let fields = match &input.data {
            syn::Data::Struct(s) => match &s.fields {
                syn::Fields::Named(named) => &named.named,
                syn::Fields::Unit => {
                    return Some(Container {
                        ident: &input.ident,
                        vis: &input.vis,
                        generics: &input.generics,
                        fields: Vec::new(),
                        attrs,
                        allows: allows(&input.attrs),
                    });
                }
                syn::Fields::Unnamed(unnamed) => {
                    cx.error_spanned_by(
                        unnamed,
                        "`DataSpec` needs named fields: each field names a leaf of the spec (its source defaults to the field name)",
                    );
                    return None;
                }
            },
            syn::Data::Enum(e) => {
                cx.syn_error(syn::Error::new(
                    e.enum_token.span(),
                    "`DataSpec` cannot be derived for an enum: a spec is a struct whose fields are its leaves",
                ));
                return None;
            }
            syn::Data::Union(u) => {
                cx.syn_error(syn::Error::new(
                    u.union_token.span(),
                    "`DataSpec` cannot be derived for a union: a spec is a struct whose fields are its leaves",
                ));
                return None;
            }
        };
        let fields = fields
            .iter()
            .filter_map(|f| {
                let member = f.ident.as_ref()?;
                let attrs = FieldAttrs::from_field(cx, f);
                let source = match (attrs.source, &attrs.steps_of) {
                    (_, Some(of)) => of.source.clone(),
                    (Some((name, _)), None) => name,
                    (None, None) => {
                        let name = member.to_string().trim_start_matches("r#").to_string();
                        if let Err(msg) = attr::check_source_name(&name) {
                            cx.error_spanned_by(
                                member,
                                format!("{msg} (the field name is the default source; name one with `#[spec(source = \"...\")]`)"),
                            );
                        }
                        name
                    }
                };
                let docs = f.attrs.iter().filter(|a| a.path().is_ident("doc")).collect();
                let field_allows = allows(&f.attrs);
                let spec_attr = f
                    .attrs
                    .iter()
                    .find(|a| a.path().is_ident("spec"))
                    .map(|a| a.pound_token.span);
                Some(Field {
                    member,
                    vis: &f.vis,
                    docs,
                    allows: field_allows,
                    spec_attr,
                    ty: &f.ty,
                    source,
                    collate: attrs.collate,
                    steps_of: attrs.steps_of,
                    augment: attrs.augment,
                    mixed_with: attrs.mixed_with,
                })
            })
            .collect();
        Some(Container {
            ident: &input.ident,
            vis: &input.vis,
            generics: &input.generics,
            fields,
            attrs,
            allows: allows(&input.attrs),
        })
    }
}

/// The lints `attrs` allow or expect (`#[allow(..)]`, `#[expect(..)]`), each as an
/// `#[allow(..)]`: what the derive's copy of the names needs so as not to warn where the user's
/// own struct does not (an `expect` copied as such would be unfulfilled wherever the copy does
/// not trip the lint).
fn allows(attrs: &[syn::Attribute]) -> Vec<proc_macro2::TokenStream> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("allow") || a.path().is_ident("expect"))
        .filter_map(|a| a.meta.require_list().ok())
        .map(|list| {
            let lints = &list.tokens;
            quote::quote!(#[allow(#lints)])
        })
        .collect()
}

/// The names of the batch types: a field whose type is one of them is a leaf.
pub const BATCH_TYPES: [&str; 4] = ["Batch", "BatchView", "ArcBatch", "Ragged"];

/// What a field is, read from its type's syntax.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `Batch<..>`, `BatchView<..>`, `ArcBatch<..>`, `Ragged<..>`: one leaf.
    Leaf,
    /// A tuple: leaves (or specs) that share the field's source.
    Tuple,
    /// `Null`: no leaf.
    Null,
    /// Anything else: a nested spec (a derived struct or a type parameter).
    Nested,
}

/// `ty` without the invisible groups and parentheses around it (the derive wraps each field's
/// type in one, see `expand::derive`).
pub fn peel(ty: &syn::Type) -> &syn::Type {
    match ty {
        syn::Type::Group(g) => peel(&g.elem),
        syn::Type::Paren(p) => peel(&p.elem),
        other => other,
    }
}

/// The kind of a field of type `ty`.
pub fn kind(ty: &syn::Type) -> Kind {
    match ty {
        syn::Type::Tuple(_) => Kind::Tuple,
        syn::Type::Group(g) => kind(&g.elem),
        syn::Type::Paren(p) => kind(&p.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            match p
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .as_deref()
            {
                Some(name) if BATCH_TYPES.contains(&name) => Kind::Leaf,
                Some("Null") => Kind::Null,
                _ => Kind::Nested,
            }
        }
        _ => Kind::Nested,
    }
}

/// The name of the library's stand-in for a field written as a batch that shares or borrows its
/// data (`ArcBatch<..>`, `BatchView<..>`), which no dataset or stream loads: `SharedBatch` or
/// `BorrowedBatch`. A field's bound names the stand-in instead of the field's type, which rustc
/// would print with ndarray's storage spelled out.
pub fn not_owned(ty: &syn::Type) -> Option<&'static str> {
    let syn::Type::Path(p) = peel(ty) else {
        return None;
    };
    if p.qself.is_some() {
        return None;
    }
    match p.path.segments.last()?.ident.to_string().as_str() {
        "ArcBatch" => Some("SharedBatch"),
        "BatchView" => Some("BorrowedBatch"),
        _ => None,
    }
}

/// The family of a field's space, when the field's type writes it by a name of the core: `Image`
/// for `Batch<image![..]>`, `ArcBatch<Image<..>>` or `Ragged<..>` of one.
pub fn family(ty: &syn::Type) -> Option<String> {
    let syn::Type::Path(p) = peel(ty) else {
        return None;
    };
    let seg = p.path.segments.last()?;
    if seg.ident != "Batch" && seg.ident != "ArcBatch" && seg.ident != "Ragged" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &seg.arguments else {
        return None;
    };
    let space = args.args.iter().find_map(|a| match a {
        syn::GenericArgument::Type(t) => Some(peel(t)),
        _ => None,
    })?;
    let name = match space {
        syn::Type::Path(p) => p.path.segments.last()?.ident.to_string(),
        syn::Type::Macro(m) => {
            let mac = m.mac.path.segments.last()?.ident.to_string();
            let fact = batchspec_facts::SIZED_SPACES
                .iter()
                .find(|f| f.macro_name == mac)?;
            fact.name.to_string()
        }
        _ => return None,
    };
    batchspec_facts::SPACE_FAMILIES
        .contains(&name.as_str())
        .then_some(name)
}
