//! Sources: the type of a source name (`Features`, `Src<'m', 'a', 's', 'k'>`), which every impl
//! of a field names.

use proc_macro2::{Span, TokenStream};
use quote::quote;

/// The type of a source string: `Features` and `Targets` for the two predefined sources,
/// `Src<'n', 'a', 'm', 'e'>` for any other.
pub fn source_type(p: &TokenStream, name: &str) -> TokenStream {
    if let Some((_, ty)) = batchspec_facts::NAMED_SOURCES
        .iter()
        .find(|(n, _)| *n == name)
    {
        let ty = syn::Ident::new(ty, Span::call_site());
        return quote!(#p::#ty);
    }
    let chars = name
        .chars()
        .map(|c| syn::LitChar::new(c, Span::call_site()));
    quote!(#p::Src<#(#chars),*>)
}
