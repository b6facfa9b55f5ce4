//! The derive macro of [batchspec](https://docs.rs/batchspec): `#[derive(DataSpec)]`, and the
//! type macros `source!` and `layout!`. Use them through the `batchspec` crate.
#![forbid(unsafe_code)]

mod ast;
mod attr;
mod check;
mod ctxt;
mod expand;
mod layout;
mod serving;
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
    let cx = ctxt::Ctxt::default();
    let cont = ast::Container::from_ast(&cx, input);
    if let Some(cont) = &cont {
        check::check(&cx, cont);
    }
    let krate = cont.as_ref().and_then(|c| c.attrs.krate.clone());
    match (cx.check(), cont) {
        (Ok(()), Some(cont)) => expand::expand(&cont),
        (Err(err), _) => {
            let mut out = err.into_compile_error();
            out.extend(expand::stubs(input, krate));
            out
        }
        (Ok(()), None) => unreachable_error(input),
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
    let input = proc_macro2::TokenStream::from(input);
    let lit: syn::LitStr = match syn::parse2(input.clone()) {
        Ok(l) => l,
        Err(_) => {
            return syn::Error::new_spanned(
                input,
                "expected the source name as a string literal, as in `source!(\"features\")`",
            )
            .into_compile_error()
            .into();
        }
    };
    let cx = ctxt::Ctxt::default();
    let name = attr::parse_source(&cx, &lit);
    match (cx.check(), name) {
        (Ok(()), Some(name)) => expand::source_type(&syn::parse_quote!(::batchspec), &name).into(),
        (Err(e), _) => e.into_compile_error().into(),
        (Ok(()), None) => TokenStream::new(),
    }
}

/// A layout from its letters: `layout!(bchw)` is `(B, C, H, W)`. Letters: `b` batch, `f`
/// feature, `t` time, `c` channel, `h` height, `w` width, `d` depth, `k` index.
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    layout::expand(input.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
