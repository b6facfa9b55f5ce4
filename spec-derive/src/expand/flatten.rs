//! The flat form of a struct: its fields as a balanced tree of `Pair`s, and the `Node` methods
//! that flatten a value into it and nest it back (`node_flatten`, `node_nest`, and the borrowed
//! `node_flatten_ref`, `node_flatten_mut`).

use crate::respan::respan;
use proc_macro2::{Span, TokenStream};
use quote::quote;

/// `items` as a balanced tree built by `pair` (`(A, B), (C, D)`): `HNil` for none, the item
/// itself for one. A derived struct's flat form and its leaf list are shaped so, so that the
/// compiler proves what it needs of them in a number of nested steps logarithmic in the fields.
pub fn balanced(
    items: &[TokenStream],
    pair: &dyn Fn(TokenStream, TokenStream) -> TokenStream,
    p: &TokenStream,
) -> TokenStream {
    match items {
        [] => quote!(#p::HNil),
        [one] => one.clone(),
        _ => {
            let (left, right) = items.split_at(items.len() / 2);
            pair(balanced(left, pair, p), balanced(right, pair, p))
        }
    }
}

/// The type of a pair of the flat form.
pub fn pair_type(p: &TokenStream) -> impl Fn(TokenStream, TokenStream) -> TokenStream + '_ {
    move |a, b| quote!(#p::Pair<#a, #b>)
}

/// The `Node` methods between a value and its flat form, given each field's node
/// (`<Type as Node<Source>>`), its span and its member.
pub fn methods(
    p: &TokenStream,
    nodes: &[TokenStream],
    spans: &[Span],
    members: &[&syn::Ident],
) -> TokenStream {
    let pair_value = |a: TokenStream, b: TokenStream| quote!(#p::Pair { first: #a, second: #b });
    let values = |method: TokenStream, this: TokenStream| -> TokenStream {
        let leaves: Vec<TokenStream> = members
            .iter()
            .zip(nodes)
            .zip(spans)
            .map(|((m, n), sp)| {
                let call = respan(quote!(#n::#method), *sp);
                quote!(#call(#this #m))
            })
            .collect();
        balanced(&leaves, &pair_value, p)
    };
    let flatten = values(quote!(node_flatten), quote!(self.));
    let flatten_ref = values(quote!(node_flatten_ref), quote!(&self.));
    let flatten_mut = values(quote!(node_flatten_mut), quote!(&mut self.));
    // nest: the tree taken apart by one pattern, each field nested from its part.
    let parts: Vec<syn::Ident> = (0..members.len())
        .map(|i| quote::format_ident!("__spec_part{}", i))
        .collect();
    let pattern = balanced(
        &parts.iter().map(|x| quote!(#x)).collect::<Vec<_>>(),
        &pair_value,
        p,
    );
    let nest_fields = members
        .iter()
        .zip(nodes)
        .zip(spans)
        .zip(&parts)
        .map(|(((m, n), sp), x)| {
            let call = respan(quote!(#n::node_nest), *sp);
            quote!(#m: #call(#x))
        });
    quote! {
        #[inline(always)]
        fn node_flatten(self) -> Self::Flat {
            #flatten
        }
        #[inline(always)]
        fn node_nest(__spec_flat: Self::Flat) -> Self {
            let #pattern = __spec_flat;
            Self { #(#nest_fields,)* }
        }
        #[inline(always)]
        fn node_flatten_ref(&self) -> Self::FlatRef<'_> {
            #flatten_ref
        }
        #[inline(always)]
        fn node_flatten_mut(&mut self) -> Self::FlatMut<'_> {
            #flatten_mut
        }
    }
}
