//! `ProjectFrom`: zero-copy projection, a request's views of some rows of a record's fields. A
//! batch field read as stored lends the record's field, a nested spec its own projection, `Null`
//! nothing; a field with nothing of the record's to lend (a tuple, a computed, augmented or mixed
//! field) has a bound that never holds, in the field's words.

use super::context::{FieldCx, Parts, Serving};
use crate::ast::{Kind, kind};
use crate::respan::respan;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

/// A field's bound, view type and value of `ProjectFrom`.
pub fn field(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let (p, r, f, ty, member, span) = (s.p, &s.r, fc.f, fc.ty, fc.member, fc.span);
    let (bounds, views, values) = (
        &mut parts.project_bounds,
        &mut parts.project_views,
        &mut parts.project_values,
    );
    match kind(ty) {
        Kind::Leaf if f.steps_of.is_none() && f.augment.is_none() && f.mixed_with.is_none() => {
            let (source_bound, source_as) = (fc.source_bound(s), fc.source_as(s));
            let field_ty = quote!(#source_as::Field);
            let to = quote!(<#ty as #p::LeafField>::Space);
            bounds.push(respan(
                quote! {
                    #source_bound,
                    #source_as::Space: #p::LendsAs<#to>,
                    for<'__spec_x> #field_ty: #p::ProjectAs<'__spec_x, #ty>
                },
                member.span(),
            ));
            views.push(respan(
                quote!(<#field_ty as #p::ProjectAs<'__spec_a, #ty>>::View),
                span,
            ));
            values.push(respan(
                quote!(#member: <#field_ty as #p::ProjectAs<'_, #ty>>::project(
                    <#source_as::Via as #p::SourceOf<#r>>::field(__spec_record),
                    #p::core::clone::Clone::clone(&__spec_rows),
                )),
                span,
            ));
        }
        Kind::Nested => {
            bounds.push(quote_spanned!(span=> for<'__spec_x> #ty: #p::ProjectFrom<#r>));
            views.push(respan(
                quote!(<#ty as #p::ProjectFrom<#r>>::Views<'__spec_a>),
                span,
            ));
            values.push(respan(
                quote!(#member: <#ty as #p::ProjectFrom<#r>>::project_rows(
                    __spec_record,
                    #p::core::clone::Clone::clone(&__spec_rows),
                )),
                span,
            ));
        }
        Kind::Null => {
            views.push(quote!(#p::Null));
            values.push(quote!(#member: #p::Null));
        }
        _ => nothing_to_lend(s, fc, parts),
    }
}

/// A field with nothing of the record's to lend (a tuple, a computed, augmented or mixed field):
/// the library's `LentByProjection` on the field's own type, which nothing implements for it.
fn nothing_to_lend(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let (p, r, member) = (s.p, &s.r, fc.member);
    let marker = fc.marker(s);
    let lend = quote!(<#marker as #p::LentByProjection<#r>>);
    parts.project_bounds.push(respan(
        quote!(#marker: #p::LentByProjection<#r>),
        member.span(),
    ));
    parts.project_views.push(quote!(#lend::View));
    parts.project_values.push(quote!(#member: #lend::lend()));
}

/// The `ProjectFrom` impl: the views of some rows, field by field in `<Name>Mapped`.
pub fn project_from_impl(s: &Serving<'_>, parts: &Parts) -> TokenStream {
    let (p, r, preds) = (s.p, &s.r, s.preds);
    let (bounds, views, values) = (
        &parts.project_bounds,
        &parts.project_views,
        &parts.project_values,
    );
    let mapped = format_ident!("{}Mapped", s.cont.ident);
    let header = s.header(&s.generics_with(&[]), quote!(#p::ProjectFrom<#r>));
    quote! {
        #header
        where
            #(#preds,)*
            #(#bounds,)*
        {
            type Views<'__spec_a> = #mapped<#(#views),*> where #r: '__spec_a;
            fn project_rows(
                __spec_record: &#r,
                __spec_rows: #p::core::ops::Range<usize>,
            ) -> Self::Views<'_> {
                let _ = (&__spec_record, &__spec_rows);
                #mapped { #(#values,)* }
            }
        }
    }
}
