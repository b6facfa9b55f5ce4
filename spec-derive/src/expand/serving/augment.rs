//! Augmentation: a field that goes through an augmentation (`augment = Type`), gathered through
//! the trait `<Struct>_<field>_augment` whose message says in the field's words that the record
//! holds other images than the augmentation reads; and labels mixed with the pairs of an
//! augmented source (`mixed_with = "source"`), mixed after the gathers through
//! `<Struct>_<field>_mix`. Both are checked once where the request is defined.

use super::context::{FieldCx, Parts, Serving};
use super::serve;
use super::source_check::{source_check, source_space, source_view};
use crate::check::{self, escape};
use crate::respan::respan;
use proc_macro2::{Span, TokenStream};
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
    let source_trait = fc.source_trait(s);
    let aug_trait = fc.trait_name(s, "augment");
    parts.checks.push(augment_check(s, fc, aug_ty));
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
    let check = respan(
        quote! {
            (): #source_trait,
            (): #aug_trait<#r, #from, #to>
        },
        member.span(),
    );
    parts.read_bounds.push(check.clone());
    let writable = respan(quote!(for<'__spec_x> #ty: #p::LeafMut<#to>), span);
    parts.gather_bounds.push(quote!(#check, #writable));
    serve::refuse(s, fc, parts, &check, "is augmented batch by batch");
    let source_view = source_view(s, fc);
    parts.gather_steps.push(respan(
        quote! {
            <() as #aug_trait<#r, #from, #to>>::gather(
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

/// The field's source check and its augmentation trait, implemented for the record's space that
/// the augmentation reads.
fn augment_check(s: &Serving<'_>, fc: &FieldCx<'_>, aug_ty: &syn::Type) -> TokenStream {
    let p = s.p;
    let source_check = source_check(s, fc);
    let aug_trait = fc.trait_name(s, "augment");
    let src = escape(&fc.f.source);
    let (fname, sname) = (escape(&fc.field), escape(&s.name));
    let aug_name = escape(&quote!(#aug_ty).to_string().replace(' ', ""));
    let msg_aug = format!(
        "field `{fname}` of `{sname}` augments source \"{src}\" with `{aug_name}`, but the record `{{R}}` holds it as `{{From}}`, not as the images `{aug_name}` reads"
    );
    let label_aug = format!("`{aug_name}` reads the images of its `Augmentation::Input`");
    let note_aug = "an augmentation reads its source exactly as the record holds it: make `type Input` the record's space of the source".to_string();
    quote! {
        #source_check
        #[diagnostic::on_unimplemented(message = #msg_aug, label = #label_aug, note = #note_aug)]
        pub trait #aug_trait<R, From, To> {
            fn gather(
                from: #p::SourceView<'_, From>,
                rows: &[usize],
                zero: #p::core::ops::Range<usize>,
                target: #p::LeafTarget<'_, To>,
                draws: #p::Draws<'_>,
            )
            where
                From: #p::Space,
                To: #p::Space;
        }
        // The augmentation's bound higher-ranked: a type that is no augmentation is then the one
        // error of `check_augment` at `augment = ..`, not a second one at this impl.
        #[diagnostic::do_not_recommend]
        impl<R, To> #aug_trait<R, <#aug_ty as #p::Augmentation>::Input, To> for ()
        where
            for<'__spec_x> #aug_ty: #p::Augmentation,
            To: #p::ImageSpace,
            for<'__spec_x> <<#aug_ty as #p::Augmentation>::Input as #p::Space>::Elem: #p::LosslessCast<<To as #p::Space>::Elem>,
        {
            #[inline]
            fn gather(
                from: #p::SourceView<'_, <#aug_ty as #p::Augmentation>::Input>,
                rows: &[usize],
                zero: #p::core::ops::Range<usize>,
                target: #p::LeafTarget<'_, To>,
                draws: #p::Draws<'_>,
            ) {
                #p::gather_augmented::<#aug_ty, To>(from, rows, zero, target, draws)
            }
        }
    }
}

/// What labels mixed with an augmented source add to the serving side, before the field is
/// gathered as a converted batch field (`at` is the span of its `mixed_with` key). Checked once
/// where the request is defined (a bound the struct's impls would repeat at every use); the mix
/// goes through a trait of the field, generic in the record.
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
    let mix_trait = fc.trait_name(s, "mix");
    parts.checks.push(respan(
        quote! {
            const _: () = {
                const fn mixed_labels_are_one_hot<L: #p::MixLabels>() {}
                mixed_labels_are_one_hot::<#to>();
            };
        },
        at,
    ));
    parts.checks.push(quote! {
        pub trait #mix_trait<R, L: #p::Space> {
            fn mix(labels: #p::LeafTarget<'_, L>, rows: &[usize], draws: #p::Draws<'_>);
        }
        #[diagnostic::do_not_recommend]
        impl<R, L: #p::MixLabels> #mix_trait<R, L> for () {
            #[inline]
            fn mix(labels: #p::LeafTarget<'_, L>, rows: &[usize], draws: #p::Draws<'_>) {
                #p::mix_labels::<#aug_ty, L>(labels, rows, draws)
            }
        }
    });
    parts
        .gather_bounds
        .push(respan(quote!((): #mix_trait<#r, #to>), member.span()));
    parts.mix_steps.push(respan(
        quote! {
            <() as #mix_trait<#r, #to>>::mix(
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
