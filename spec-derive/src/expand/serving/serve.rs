//! `Reads` and `ServeFrom` (a request built from a record's whole sources), and `ReadField` and
//! `ServeField`, through which a tuple field serves each of its parts; and the refusal, in a
//! field's words, of a field that `serve` cannot build.

use super::context::{FieldCx, Parts, Serving};
use crate::respan::respan;
use proc_macro2::TokenStream;
use quote::quote;

/// `Reads`: the request's fields can be read from the record.
pub fn reads_impl(s: &Serving<'_>, parts: &Parts) -> TokenStream {
    let (p, r, preds) = (s.p, &s.r, s.preds);
    let header = s.header(&s.generics_with(&[]), quote!(#p::Reads<#r>));
    let bounds = &parts.read_bounds;
    quote! {
        #header
        where
            // Not checked here when the struct has no generics: a field that is not a node is
            // reported once, on the `Node` impl.
            for<'__spec_x> Self: #p::DataSpec,
            #(#preds,)*
            #(#bounds,)*
        {
        }
    }
}

/// `ServeFrom`: the request built from the record's whole sources.
pub fn serve_from_impl(s: &Serving<'_>, parts: &Parts) -> TokenStream {
    let (p, r, preds) = (s.p, &s.r, s.preds);
    let header = s.header(&s.generics_with(&[]), quote!(#p::ServeFrom<#r>));
    let (bounds, values) = (&parts.serve_bounds, &parts.serve_values);
    quote! {
        #header
        where
            // Not checked here when the struct has no generics: a field that is not a node is
            // reported once, on the `Node` impl.
            for<'__spec_x> Self: #p::DataSpec,
            #(#preds,)*
            #(#bounds,)*
        {
            fn serve_from(__spec_record: &#r, __spec_cache: &mut #p::ServeCache) -> Self {
                let _ = (&__spec_record, &__spec_cache);
                Self { #(#values,)* }
            }
        }
    }
}

/// `ReadField`: the request as a part of a tuple field, read as a whole.
pub fn read_field_impl(s: &Serving<'_>) -> TokenStream {
    let (p, r, preds) = (s.p, &s.r, s.preds);
    let header = s.header(
        &s.generics_with(&["__SpecK"]),
        quote!(#p::ReadField<#r, __SpecK>),
    );
    quote! {
        #header
        where
            for<'__spec_x> Self: #p::Reads<#r>,
            #(#preds,)*
        {
        }
    }
}

/// `ServeField`: the request as a part of a tuple field, served as a whole.
pub fn serve_field_impl(s: &Serving<'_>) -> TokenStream {
    let (p, r, preds) = (s.p, &s.r, s.preds);
    let header = s.header(
        &s.generics_with(&["__SpecK"]),
        quote!(#p::ServeField<#r, __SpecK>),
    );
    quote! {
        #header
        where
            for<'__spec_x> Self: #p::ServeFrom<#r>,
            #(#preds,)*
        {
            fn serve_field(__spec_record: &#r, __spec_cache: &mut #p::ServeCache) -> Self {
                <Self as #p::ServeFrom<#r>>::serve_from(__spec_record, __spec_cache)
            }
        }
    }
}

/// A field that `serve` cannot build (`serve` builds whole sources, and this field is made batch
/// by batch): the library's `ServedWhole` on the field's own type, which nothing implements for
/// it, added to `ServeFrom`'s bounds after the field's `check`; and the value it would give.
pub fn refuse(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts, check: &TokenStream) {
    let (p, r, ty, member) = (s.p, &s.r, fc.ty, fc.member);
    let marker = fc.marker(s);
    let serve_bound = respan(quote!(#marker: #p::ServedWhole<#r>), member.span());
    parts.serve_bounds.push(quote!(#check, #serve_bound));
    parts
        .serve_values
        .push(quote!(#member: <#marker as #p::ServedWhole<#r>>::serve_value::<#ty>()));
}
