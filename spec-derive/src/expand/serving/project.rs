//! `ProjectFrom`: zero-copy projection, a request's views of some rows of a record's fields. A
//! batch field read as stored lends the record's field, a nested spec its own projection, `Null`
//! nothing; a field with nothing of the record's to lend (a tuple, a computed, augmented or mixed
//! field) has a bound that never holds, in the field's words.

use super::context::{FieldCx, Parts, Serving};
use crate::ast::{Kind, kind};
use crate::check::escape;
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
            let source_trait = fc.source_trait(s);
            let field_ty = quote!(<() as #source_trait>::Field);
            let to = quote!(<#ty as #p::LeafField>::Space);
            bounds.push(respan(
                quote! {
                    (): #source_trait,
                    <() as #source_trait>::Space: #p::LendsAs<#to>,
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
                    <<() as #source_trait>::Via as #p::SourceOf<#r>>::field(__spec_record),
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

/// A field with nothing of the record's to lend: a bound that never holds, in the field's words.
fn nothing_to_lend(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let (p, r, f, member) = (s.p, &s.r, fc.f, fc.member);
    let why = if kind(fc.ty) == Kind::Tuple {
        "is a tuple of batches of one source"
    } else if f.steps_of.is_some() {
        "is computed batch by batch"
    } else if f.augment.is_some() {
        "is augmented batch by batch"
    } else {
        "is mixed batch by batch"
    };
    let lend_trait = fc.trait_name(s, "lend");
    let msg = format!(
        "field `{}` of `{}` {why}: a projection has nothing of the record's to lend for it",
        escape(&fc.field),
        escape(&s.name)
    );
    let note = "`Projection::get` and `select` build every field, as a provider does";
    parts.checks.push(quote! {
        #[diagnostic::on_unimplemented(message = #msg, label = "nothing to lend for this field", note = #note)]
        pub trait #lend_trait<R> {
            type View;
            fn lend() -> Self::View;
        }
        // Never used: it only keeps rustc from calling the trait one without
        // implementations.
        #[diagnostic::do_not_recommend]
        impl<R> #lend_trait<R> for #p::Null {
            type View = #p::Null;
            fn lend() -> #p::Null {
                #p::Null
            }
        }
    });
    parts
        .project_bounds
        .push(respan(quote!((): #lend_trait<#r>), member.span()));
    parts
        .project_views
        .push(quote!(<() as #lend_trait<#r>>::View));
    parts
        .project_values
        .push(quote!(#member: <() as #lend_trait<#r>>::lend()));
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
