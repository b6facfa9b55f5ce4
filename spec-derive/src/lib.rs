//! The derive macro of [batchspec](https://docs.rs/batchspec): `#[derive(DataSpec)]`, and the
//! type macros `source!` and `layout!`. Use them through the `batchspec` crate.
#![forbid(unsafe_code)]

mod ast;
mod attr;
mod check;
mod ctxt;
mod expand;
mod layout;
mod respan;
mod serving;
#[cfg(test)]
mod snapshots;
mod symbol;

use proc_macro::TokenStream;

/// Derives `DataSpec` for a struct whose fields are batches, nested specs, tuples of them or
/// `Null`. See the `batchspec` crate for the whole story.
#[proc_macro_derive(DataSpec, attributes(spec))]
pub fn derive_data_spec(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    let out = derive(&input);
    debug_print(&input.ident.to_string(), &out);
    out.into()
}

fn derive(input: &syn::DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::new();
    let cont = ast::Container::from_ast(&cx, input);
    if let Some(cont) = &cont {
        check::check(&cx, cont);
    }
    let krate = cont.as_ref().and_then(|c| c.attrs.krate.clone());
    match (cx.check(), cont) {
        // A field type with a `layout!`, `image!` or `volume!` that reports an error is reported
        // where the struct itself expands it, once; the derive adds only stubs (its impls would
        // name the type again, and each copy would repeat the error).
        (Ok(()), Some(_)) if has_bad_type_macro(input) => expand::stubs(input, krate),
        // A space given a layout of another space (`VectorSeq<64, BHWC>`): the struct reports
        // it once, in the core's words. No stubs either: a stub taking `Self` by value makes
        // rustc check the field's type again (uses of the struct as a spec then say it is not
        // one, which is true until the layout is fixed).
        (Ok(()), Some(cont)) if cont.fields.iter().any(|f| check::has_foreign_layout(f.ty)) => {
            proc_macro2::TokenStream::new()
        }
        (Ok(()), Some(cont)) => expand::expand(&cont),
        (Err(err), _) => {
            let mut out = err.into_compile_error();
            out.extend(expand::stubs(input, krate));
            out
        }
        (Ok(()), None) => unreachable_error(input),
    }
}

/// Whether a field's type holds a type macro that reports an error: a `layout!(..)` whose letters
/// are not a layout, or an `image!`/`volume!` without its three/four sizes.
fn has_bad_type_macro(input: &syn::DeriveInput) -> bool {
    use proc_macro2::{TokenStream, TokenTree};
    /// The number of comma-separated sizes before the first `;`.
    fn sizes(stream: TokenStream) -> usize {
        let mut n = 0;
        let mut item = false;
        for tt in stream {
            match tt {
                TokenTree::Punct(p) if p.as_char() == ';' => break,
                TokenTree::Punct(p) if p.as_char() == ',' => {
                    n += usize::from(item);
                    item = false;
                }
                _ => item = true,
            }
        }
        n + usize::from(item)
    }
    fn scan(tokens: TokenStream) -> bool {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        tokens.iter().enumerate().any(|(i, tt)| match tt {
            TokenTree::Ident(id) => match (tokens.get(i + 1), tokens.get(i + 2)) {
                (Some(TokenTree::Punct(p)), Some(TokenTree::Group(g))) if p.as_char() == '!' => {
                    match id.to_string().as_str() {
                        "layout" => layout::expand(g.stream()).is_err(),
                        name => batchspec_facts::SIZED_SPACES
                            .iter()
                            .any(|f| f.macro_name == name && sizes(g.stream()) != f.sizes.len()),
                    }
                }
                _ => false,
            },
            TokenTree::Group(g) => scan(g.stream()),
            _ => false,
        })
    }
    match &input.data {
        syn::Data::Struct(s) => s.fields.iter().any(|f| {
            let ty = &f.ty;
            scan(quote::quote!(#ty))
        }),
        _ => false,
    }
}

fn unreachable_error(input: &syn::DeriveInput) -> proc_macro2::TokenStream {
    syn::Error::new_spanned(&input.ident, "`DataSpec` could not read this struct")
        .into_compile_error()
}

/// Prints the expansion to stderr when `BATCHSPEC_DEBUG` is `1` or the struct's name.
fn debug_print(name: &str, out: &proc_macro2::TokenStream) {
    if let Ok(v) = std::env::var("BATCHSPEC_DEBUG")
        && (v == "1" || v == name)
    {
        eprintln!("// #[derive(DataSpec)] for {name}\n{out}");
    }
}

/// The source type of a string: `source!("mask")` is the type every `#[spec(source = "mask")]`
/// names, so generic code can ask for a source by name.
#[proc_macro]
pub fn source(input: TokenStream) -> TokenStream {
    source_macro(input.into()).into()
}

fn source_macro(input: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    let lit: syn::LitStr = match syn::parse2(input.clone()) {
        Ok(l) => l,
        Err(_) => {
            return syn::Error::new_spanned(
                input,
                "expected the source name as a string literal, as in `source!(\"features\")`",
            )
            .into_compile_error();
        }
    };
    let cx = ctxt::Ctxt::new();
    let name = attr::parse_source(&cx, &lit);
    match (cx.check(), name) {
        (Ok(()), Some(name)) => expand::source_type(&quote::quote!(::batchspec::__private), &name),
        (Err(e), _) => e.into_compile_error(),
        (Ok(()), None) => proc_macro2::TokenStream::new(),
    }
}

/// A layout from its letters: `layout!(bchw)` is `(B, C, H, W)`. Letters: `b` batch, `f`
/// feature, `t` time, `c` channel, `h` height, `w` width, `d` depth, `k` index.
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    layout_macro(input.into()).into()
}

fn layout_macro(input: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    // On a mistake: the error, and a layout every space accepts (the error sits in its const
    // argument), so that the mistake is reported once, not again by every use of the type.
    layout::expand(input).unwrap_or_else(|e| {
        let error = e.into_compile_error();
        quote::quote!(::batchspec::__private::NotALayout<{ #error; 0 }>)
    })
}
