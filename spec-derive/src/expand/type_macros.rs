//! The type macros: `source!("name")`, the type of a source name, and `layout!(bhwc)`, a layout
//! from its letters.

use super::source::source_type;
use crate::layout::axes;
use crate::{attr, ctxt};
use proc_macro2::{Span, TokenStream};
use quote::quote;

/// `source!(..)`: the type every `#[spec(source = "..")]` of that name names, or the error.
pub fn source(input: TokenStream) -> TokenStream {
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
        (Ok(()), Some(name)) => source_type(&quote!(::batchspec::__private), &name),
        (Err(e), _) => e.into_compile_error(),
        (Ok(()), None) => TokenStream::new(),
    }
}

/// `layout!(..)`: the tuple of the axes' types, or the error.
pub fn layout(input: TokenStream) -> TokenStream {
    match axes(input) {
        Ok(axes) => {
            let axes = axes.iter().map(|fact| {
                let ty = syn::Ident::new(fact.marker, Span::call_site());
                quote!(::batchspec::__private::#ty)
            });
            quote!((#(#axes,)*))
        }
        // On a mistake: the error, and a layout every space accepts (the error sits in its const
        // argument), so that the mistake is reported once, not again by every use of the type.
        Err(e) => {
            let error = e.into_compile_error();
            quote!(::batchspec::__private::NotALayout<{ #error; 0 }>)
        }
    }
}
