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
#[cfg(test)]
mod snapshots;
mod symbol;

use proc_macro::TokenStream;

/// Derives `DataSpec` for a struct whose fields are batches, nested specs, tuples of them or
/// `Null`. See the `batchspec` crate for the whole story.
///
/// Beside its impls, the derive writes an empty type for each field, named after the struct and
/// the field joined by a middle dot (`Request·mask`), beside the struct and hidden from its
/// docs: no name of yours clashes with it, as none has the dot. Compile errors about a field name it
/// by that type, as in "the record `Dataset` does not serve the source of field
/// `Request·mask`", and quote the field's `#[spec(..)]`.
#[proc_macro_derive(DataSpec, attributes(spec))]
pub fn derive_data_spec(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    let out = expand::derive(&input);
    debug_print(&input.ident.to_string(), &out);
    out.into()
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
    expand::type_macros::source(input.into()).into()
}

/// A layout from its letters: `layout!(bchw)` is `(B, C, H, W)`. Letters: `b` batch, `f`
/// feature, `t` time, `c` channel, `h` height, `w` width, `d` depth, `k` index.
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    expand::type_macros::layout(input.into()).into()
}
