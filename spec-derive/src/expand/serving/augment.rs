//! Augmentation: a field that goes through an augmentation (`augment = Type`), gathered through
//! the library's `AugmentsFrom` on the field's own type, whose message says in the field's
//! words that the record holds other images than the augmentation reads; and labels mixed with
//! the pairs of an augmented source (`mixed_with = "source"`), mixed after the gathers through
//! the library's `MixesLabels`. Both are checked once where the request is defined.

use super::context::{FieldCx, Parts, Serving};
use super::serve;
use super::source_check::{source_check, source_space, source_view};
use crate::check;
use crate::respan::respan;
use proc_macro2::Span;
use quote::quote;

/// What an augmented field adds to the serving side (`at` is the span of its `augment` key).
pub fn augmented(
    s: &Serving<'_>,
    fc: &FieldCx<'_>,
    at: Span,
    aug_ty: &syn::Type,
    parts: &mut Parts,
) {
    if let Some(err) = check::augment_without_generics(s.cont, at) {
        parts.error(err);
        return;
    }
    let (p, r, ty, member, span) = (s.p, &s.r, fc.ty, fc.member, fc.span);
    let source_bound = fc.source_bound(s);
    let marker = fc.marker(s);
    parts.checks.push(source_check(s, fc));
    let to = respan(quote!(<#ty as #p::LeafField>::Space), span);
    // Checked once where the request is defined: sizes, channels, element.
    let fname_lit = fc.field.clone();
    parts.checks.push(respan(
        quote! {
            const _: () = match #p::check_augment::<#aug_ty, #to>(#fname_lit) {
                #p::core::result::Result::Ok(()) => (),
                #p::core::result::Result::Err(m) => #p::core::panic!("{}", m.as_str()),
            };
        },
        at,
    ));
    let from = source_space(s, fc);
    let augments = quote!(#p::AugmentsFrom<#r, #aug_ty, #from, #to>);
    let check = respan(
        quote! {
            #source_bound,
            #marker: #augments
        },
        member.span(),
    );
    parts.read_bounds.push(check.clone());
    let writable = respan(quote!(for<'__spec_x> #ty: #p::LeafMut<#to>), span);
    parts.gather_bounds.push(quote!(#check, #writable));
    serve::refuse(s, fc, parts, &check);
    let source_view = source_view(s, fc);
    parts.gather_steps.push(respan(
        quote! {
            <#marker as #augments>::gather(
                #source_view,
                __spec_rows,
                #p::core::clone::Clone::clone(&__spec_zero),
                #p::LeafMut::<#to>::leaf_rows_mut(
                    &mut __spec_out.#member,
                    __spec_rows.len().max(__spec_zero.end),
                ),
                __spec_draws,
            );
        },
        span,
    ));
}

/// What labels mixed with an augmented source add to the serving side, before the field is
/// gathered as a converted batch field (`at` is the span of its `mixed_with` key). Checked once
/// where the request is defined (a bound the struct's impls would repeat at every use); the mix
/// goes through the library's `MixesLabels` on the field's own type.
pub fn mixed(s: &Serving<'_>, fc: &FieldCx<'_>, at: Span, mix_src: &str, parts: &mut Parts) {
    let aug_ty = match check::mixed_with_augmented(s.cont, at, mix_src) {
        Ok(aug_ty) => aug_ty,
        Err(err) => return parts.error(err),
    };
    let (p, r, ty, member, span) = (s.p, &s.r, fc.ty, fc.member, fc.span);
    let to = respan(quote!(<#ty as #p::LeafField>::Space), span);
    let fname_lit = fc.field.clone();
    let src_lit = mix_src.to_string();
    parts.checks.push(respan(
        quote! {
            const _: () = match #p::check_mixed::<#aug_ty>(#fname_lit, #src_lit) {
                #p::core::result::Result::Ok(()) => (),
                #p::core::result::Result::Err(m) => #p::core::panic!("{}", m.as_str()),
            };
        },
        at,
    ));
    parts.checks.push(respan(
        quote! {
            const _: () = {
                const fn mixed_labels_are_one_hot<L: #p::MixLabels>() {}
                mixed_labels_are_one_hot::<#to>();
            };
        },
        at,
    ));
    let marker = fc.marker(s);
    let mixes = quote!(#p::MixesLabels<#r, #aug_ty, #to>);
    parts
        .gather_bounds
        .push(respan(quote!(#marker: #mixes), member.span()));
    parts.mix_steps.push(respan(
        quote! {
            <#marker as #mixes>::mix(
                #p::LeafMut::<#to>::leaf_rows_mut(
                    &mut __spec_out.#member,
                    __spec_rows.len().max(__spec_zero.end),
                ),
                __spec_rows,
                __spec_draws,
            );
        },
        span,
    ));
}
