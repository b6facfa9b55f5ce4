//! The record side of serving: one `HasSource` impl per source held by exactly one batch field,
//! through which a request reads the source.

use super::context::Serving;
use crate::ast::{Kind, kind};
use crate::expand::source::source_type;
use crate::respan::respan;
use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

/// The `HasSource` impls of the struct.
pub fn impls(s: &Serving<'_>) -> TokenStream {
    let (cont, p, preds) = (s.cont, s.p, s.preds);
    let mut out = TokenStream::new();
    let leaves: Vec<_> = cont
        .fields
        .iter()
        .filter(|f| kind(f.ty) == Kind::Leaf)
        .collect();
    for f in &leaves {
        if leaves.iter().filter(|g| g.source == f.source).count() > 1 {
            continue;
        }
        let ty = f.ty;
        let member = f.member;
        let key = source_type(p, &f.source);
        let span = ty.span();
        let header = s.header(cont.generics, quote!(#p::HasSource<#key>));
        let bound = respan(quote!(for<'__spec_x> #ty: #p::LeafField), span);
        let space = respan(quote!(<#ty as #p::LeafField>::Space), span);
        let view = respan(
            quote!(<#ty as #p::LeafField>::leaf_field_view(&self.#member)),
            span,
        );
        let view_ty = respan(quote!(#p::SourceView<'_, Self::Space>), span);
        out.extend(quote! {
            #header
            where
                #bound,
                #(#preds,)*
            {
                type Space = #space;
                type Field = #ty;
                #[inline]
                fn source_view(&self) -> #view_ty {
                    #view
                }
                #[inline]
                fn source_field(&self) -> &Self::Field {
                    &self.#member
                }
            }
        });
    }
    out
}
