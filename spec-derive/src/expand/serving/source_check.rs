//! The check of a request's batch field against the record: the field's own type
//! (`Request·mask`), whose source and family the library's `Request·mask: SourceServedBy<R>`
//! looks up in the record; that trait's message says in the field's terms that the record lacks
//! the source. And the record's leaf of that source, read through it.

use super::context::{FieldCx, Serving};
use crate::respan::respan;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

/// The field's own type (`Request·mask`), which the library's checks of a request's fields name
/// it by, with the struct's visibility (the impls' associated types name it). From the field's
/// `#[spec(..)]` (if it has one) to its name: rustc's help that the type lacks a library trait
/// quotes those lines, with the source the field reads.
pub fn marker(s: &Serving<'_>, fc: &FieldCx<'_>) -> TokenStream {
    let marker = fc.marker_ident(s);
    let start = fc.f.spec_attr.unwrap_or(fc.member.span());
    let vis = s.cont.vis;
    let head = respan(quote!(#vis enum), start);
    // Unused for a field whose checks are its own struct's (a nested spec, `Null`).
    quote_spanned!(fc.member.span()=>
        #[doc(hidden)]
        #[allow(dead_code, unreachable_pub, non_camel_case_types)]
        #head #marker {}
    )
}

/// The source and family of the field's own type.
pub fn source_check(s: &Serving<'_>, fc: &FieldCx<'_>) -> TokenStream {
    let (p, key) = (s.p, &fc.key);
    let marker = fc.marker(s);
    let family = fc.family(s);
    quote! {
        impl #p::FieldSource for #marker {
            type Key = #key;
            type Family = #family;
        }
    }
}

/// The record's leaf of the field's source, as every gather, fit check and serve reads it.
pub fn source_view(s: &Serving<'_>, fc: &FieldCx<'_>) -> TokenStream {
    let (p, r) = (s.p, &s.r);
    let source_as = fc.source_as(s);
    quote!(
        <#source_as::Via as #p::SourceOf<#r>>::view(__spec_record)
    )
}

/// The record's space of the field's source.
pub fn source_space(s: &Serving<'_>, fc: &FieldCx<'_>) -> TokenStream {
    let source_as = fc.source_as(s);
    quote!(#source_as::Space)
}
