//! The names the generated code uses besides the user's: the path to the library, and the
//! generics of the impls (the struct's, plus the source parameter of `Node` or the record
//! parameter of the serving traits, named so that no token of the struct uses the name).

use proc_macro2::{Span, TokenStream};

/// The path to the library when the struct names none (`#[spec(crate = "...")]`).
pub fn default_crate() -> syn::Path {
    syn::parse_quote!(::batchspec)
}

/// The struct's generics plus the source parameter of `Node<__SpecSrc>`.
pub fn with_src_param(generics: &syn::Generics) -> syn::Generics {
    let mut g = generics.clone();
    g.params.push(syn::parse_quote!(__SpecSrc));
    g
}

/// The struct's generics plus the given type parameters (after them).
pub fn with_params(generics: &syn::Generics, params: &[&str]) -> syn::Generics {
    let mut g = generics.clone();
    for p in params {
        let ident = syn::Ident::new(p, Span::call_site());
        g.params.push(syn::parse_quote!(#ident));
    }
    g
}

/// A name for the record's type parameter that no token of the struct uses: `R` unless taken.
pub fn record_param(input_tokens: &TokenStream) -> String {
    fresh_param(input_tokens, &["R", "Rec", "TheRecord"], "R")
}

/// A name for the mapper's type parameter of `MapSpec` that no token of the struct uses: `M`
/// unless taken (rustc may name the impl in a help line: `MapSpec<M>`, not an internal name).
pub fn mapper_param(input_tokens: &TokenStream) -> String {
    fresh_param(input_tokens, &["M", "Mapper", "TheMapper"], "M")
}

/// The first of `names`, then of `{base}0`, `{base}1`, .., that no token of the struct uses.
fn fresh_param(input_tokens: &TokenStream, names: &[&str], base: &str) -> String {
    fn idents(ts: &TokenStream, out: &mut Vec<String>) {
        for tt in ts.clone() {
            match tt {
                proc_macro2::TokenTree::Ident(i) => out.push(i.to_string()),
                proc_macro2::TokenTree::Group(g) => idents(&g.stream(), out),
                _ => {}
            }
        }
    }
    let mut used = Vec::new();
    idents(input_tokens, &mut used);
    names
        .iter()
        .map(|s| s.to_string())
        .chain((0..).map(|i| format!("{base}{i}")))
        .find(|c| !used.contains(c))
        .unwrap_or_else(|| unreachable!("the candidates are endless"))
}
