//! The bounds of the impls and the checks at the fields: `Space` on a struct parameter that is a
//! batch's space, `SequenceSpace` on a ragged field's space, and each field's `Node` bound; a
//! field's type that names no parameter of the struct is checked once, at the field
//! (`__spec_fields`, `__spec_ragged_<field>`).

use super::source::source_type;
use crate::ast::{BATCH_TYPES, Container, peel};
use crate::respan::respan;
use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

/// The bounds every impl of the struct may carry, and the items that check fields once.
pub struct Bounds {
    /// The struct's own where-clause, then the bounds the derive adds.
    pub preds: Vec<TokenStream>,
    /// The items checking the fields at their types: the ragged spaces and `__spec_fields`.
    pub checks: TokenStream,
}

/// The bounds and checks of a struct.
pub fn bounds(cont: &Container<'_>, p: &TokenStream) -> Bounds {
    let (_, _, where_clause) = cont.generics.split_for_impl();
    let mut preds: Vec<TokenStream> = where_clause
        .map(|w| w.predicates.iter().map(|p| quote!(#p)).collect())
        .unwrap_or_default();

    // A type parameter that is a batch's space needs `Space`: add the bound to every impl, so
    // that a struct declared without it is one error (the struct's own, with rustc's suggestion
    // to add the bound), not one more per impl.
    for name in space_params(cont) {
        preds.push(quote!(#name: #p::Space));
    }
    let ragged_checks = ragged_bounds(cont, p, &mut preds);
    let field_checks = field_bounds(cont, p, &mut preds);
    Bounds {
        preds,
        checks: quote! {
            #(#ragged_checks)*
            #[allow(dead_code)]
            fn __spec_fields() where #(#field_checks,)* {}
        },
    }
}

/// A ragged field holds a sequence space: a struct parameter gets the bound on every impl (added
/// to `preds`); a space written out is checked once, at the field's space, by the items returned.
fn ragged_bounds(
    cont: &Container<'_>,
    p: &TokenStream,
    preds: &mut Vec<TokenStream>,
) -> Vec<TokenStream> {
    let mut ragged_checks = Vec::new();
    for f in &cont.fields {
        let Some(space) = ragged_space(f.ty) else {
            continue;
        };
        let is_param = matches!(space, syn::Type::Path(t) if t.qself.is_none()
            && t.path.get_ident().is_some_and(|i| cont.generics.type_params().any(|p| p.ident == *i)));
        if is_param {
            preds.push(quote!(#space: #p::SequenceSpace));
        } else {
            let name = quote::format_ident!("__spec_ragged_{}", f.member);
            let bound = respan(quote!(#space: #p::SequenceSpace), space.span());
            ragged_checks.push(quote! {
                #[allow(non_snake_case, dead_code)]
                fn #name() where #bound {}
            });
        }
    }
    ragged_checks
}

/// The field bounds, added to `preds`, and the checks of the fields at their types returned. A
/// field whose type names no parameter of the struct is asked, once and at the field, to be a
/// `SpecField` (a trait without the source parameter, so that rustc's help line under the message
/// names no source), and its `Node` bound is written `for<'__spec_w>`: a false bound on a concrete
/// type is reported by rustc where it is written unless it is higher-ranked, and the impls' items
/// are checked assuming it either way, so nothing else is reported for that field. A type with the
/// struct's parameters keeps its plain bound, which the struct's users meet.
fn field_bounds(
    cont: &Container<'_>,
    p: &TokenStream,
    preds: &mut Vec<TokenStream>,
) -> Vec<TokenStream> {
    let mut field_checks = Vec::new();
    for f in &cont.fields {
        let ty = f.ty;
        let src = source_type(p, &f.source);
        if mentions_params(ty, cont.generics) {
            preds.push(respan(quote!(#ty: #p::Node<#src>), ty.span()));
        } else {
            preds.push(respan(
                quote!(for<'__spec_w> #ty: #p::Node<#src>),
                ty.span(),
            ));
            field_checks.push(respan(quote!(#ty: #p::SpecField), ty.span()));
        }
    }
    field_checks
}

/// The struct's type parameters that are the space of a batch field (`x: Batch<S>`).
fn space_params<'a>(cont: &Container<'a>) -> Vec<&'a syn::Ident> {
    let params: Vec<&syn::Ident> = cont.generics.type_params().map(|t| &t.ident).collect();
    let mut out = Vec::new();
    for f in &cont.fields {
        let syn::Type::Path(path) = peel(f.ty) else {
            continue;
        };
        let Some(last) = path.path.segments.last() else {
            continue;
        };
        if !BATCH_TYPES.contains(&last.ident.to_string().as_str()) {
            continue;
        }
        let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
            continue;
        };
        let space = args.args.iter().find_map(|a| match a {
            syn::GenericArgument::Type(syn::Type::Path(t)) if t.qself.is_none() => {
                t.path.get_ident()
            }
            _ => None,
        });
        if let Some(ident) = space
            && let Some(param) = params.iter().find(|p| **p == ident)
            && !out.contains(param)
        {
            out.push(*param);
        }
    }
    out
}

/// Whether `ty` names a type, const or lifetime parameter of `generics`.
fn mentions_params(ty: &syn::Type, generics: &syn::Generics) -> bool {
    use proc_macro2::TokenTree;
    use quote::ToTokens;
    let names: Vec<String> = generics
        .params
        .iter()
        .map(|p| match p {
            syn::GenericParam::Type(t) => t.ident.to_string(),
            syn::GenericParam::Const(c) => c.ident.to_string(),
            syn::GenericParam::Lifetime(l) => l.lifetime.ident.to_string(),
        })
        .collect();
    fn walk(tokens: TokenStream, names: &[String]) -> bool {
        tokens.into_iter().any(|tt| match tt {
            TokenTree::Group(g) => walk(g.stream(), names),
            TokenTree::Ident(i) => names.iter().any(|n| i == n),
            _ => false,
        })
    }
    !names.is_empty() && walk(ty.to_token_stream(), &names)
}

/// The space of a field written `Ragged<S>`.
fn ragged_space(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = peel(ty) else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != "Ragged" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    args.args.iter().find_map(|a| match a {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    })
}
