//! Fields that delegate to their own impls: a tuple of batches sharing the field's source (through
//! `ReadField`, `ServeField`, `GatherField` of that source), a nested spec (through `Reads`,
//! `ServeFrom`, `GatherFrom`), and `Null` (nothing to read).

use super::context::{FieldCx, Parts, Serving};
use crate::respan::respan;
use quote::{quote, quote_spanned};

/// What a tuple field adds to the serving side.
pub fn tuple(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let (p, r, ty, member, key, span) = (s.p, &s.r, fc.ty, fc.member, &fc.key, fc.span);
    parts
        .read_bounds
        .push(quote_spanned!(span=> for<'__spec_x> #ty: #p::ReadField<#r, #key>));
    parts
        .serve_bounds
        .push(quote_spanned!(span=> for<'__spec_x> #ty: #p::ServeField<#r, #key>));
    parts
        .gather_bounds
        .push(quote_spanned!(span=> for<'__spec_x> #ty: #p::GatherField<#r, #key>));
    parts.serve_values.push(respan(
        quote! {
            #member: <#ty as #p::ServeField<#r, #key>>::serve_field(__spec_record, __spec_cache)
        },
        span,
    ));
    parts.gather_steps.push(respan(
        quote! {
            <#ty as #p::GatherField<#r, #key>>::gather_field(
                &mut __spec_out.#member,
                __spec_record,
                __spec_rows,
                #p::core::clone::Clone::clone(&__spec_zero),
                __spec_draws,
            )?;
        },
        span,
    ));
    parts.fit_steps.push(respan(
        quote! {
            <#ty as #p::GatherField<#r, #key>>::check_field(__spec_record)?;
        },
        span,
    ));
}

/// What a `Null` field adds to the serving side.
pub fn null(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let (p, member) = (s.p, fc.member);
    parts.serve_values.push(quote!(#member: #p::Null));
}

/// What a nested spec adds to the serving side.
pub fn nested(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let (p, r, ty, member, span) = (s.p, &s.r, fc.ty, fc.member, fc.span);
    parts
        .read_bounds
        .push(quote_spanned!(span=> for<'__spec_x> #ty: #p::Reads<#r>));
    parts
        .serve_bounds
        .push(quote_spanned!(span=> for<'__spec_x> #ty: #p::ServeFrom<#r>));
    parts
        .gather_bounds
        .push(quote_spanned!(span=> for<'__spec_x> #ty: #p::GatherFrom<#r>));
    parts.serve_values.push(respan(
        quote! {
            #member: <#ty as #p::ServeFrom<#r>>::serve_from(__spec_record, __spec_cache)
        },
        span,
    ));
    parts.gather_steps.push(respan(
        quote! {
            <#ty as #p::GatherFrom<#r>>::gather_from(
                &mut __spec_out.#member,
                __spec_record,
                __spec_rows,
                #p::core::clone::Clone::clone(&__spec_zero),
                __spec_draws,
            )?;
        },
        span,
    ));
    parts.fit_steps.push(respan(
        quote! {
            <#ty as #p::GatherFrom<#r>>::check_fits(__spec_record)?;
        },
        span,
    ));
}
