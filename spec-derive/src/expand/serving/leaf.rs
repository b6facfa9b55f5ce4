//! A request's batch field: computed (`steps`), augmented (`augment`), or read from the record's
//! field of its source and converted to the field's space, perhaps mixed (`augment::mixed`) and
//! collated (`collate`). The conversion goes through the trait `<Struct>_<field>_space`, whose
//! message says in the field's words that no conversion exists; with the source check, these two
//! traits, implemented for `()` with `#[diagnostic::do_not_recommend]`, make a failure below them
//! (no such source in the record, or no conversion) theirs, so the message is the field's, not
//! the library's.

use super::context::{FieldCx, Parts, Serving};
use super::source_check::{source_check, source_space, source_view};
use super::{augment, collate, serve, steps};
use crate::check::escape;
use crate::respan::respan;
use proc_macro2::TokenStream;
use quote::quote;

/// What a batch field adds to the serving side.
pub fn field(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let f = fc.f;
    if let Some(of) = &f.steps_of {
        return steps::field(s, fc, of, parts);
    }
    if let Some((at, aug_ty)) = &f.augment {
        return augment::augmented(s, fc, *at, aug_ty, parts);
    }
    if let Some((at, mix_src)) = &f.mixed_with {
        augment::mixed(s, fc, *at, mix_src, parts);
    }
    converted(s, fc, parts);
}

/// The field's source check and its conversion trait, implemented for every pair of spaces with
/// a conversion.
fn space_check(s: &Serving<'_>, fc: &FieldCx<'_>) -> TokenStream {
    let (p, key) = (s.p, &fc.key);
    let source_check = source_check(s, fc);
    let space_trait = fc.trait_name(s, "space");
    let src = escape(&fc.f.source);
    let (fname, sname) = (escape(&fc.field), escape(&s.name));
    let msg_space = format!(
        "field `{fname}` of `{sname}` asks for source \"{src}\" as `{{To}}`, but the record `{{R}}` holds it as `{{From}}`"
    );
    let label_space = "no conversion from `{From}` to `{To}` exists".to_string();
    let note_space = "see `batchspec::format` for the conversions that exist".to_string();
    quote! {
        #source_check
        #[diagnostic::on_unimplemented(
            message = #msg_space,
            label = #label_space,
            note = #note_space
        )]
        pub trait #space_trait<R, From, To> {
            type Via: #p::LeafConvert<From, To>;
        }
        #[diagnostic::do_not_recommend]
        impl<R, From: #p::FormatAs<To>, To: #p::Space> #space_trait<R, From, To> for () {
            type Via = #p::LeafVia<#key>;
        }
    }
}

/// A batch field read from the record's field of its source, converted to the field's space.
fn converted(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let (p, r, f, ty, member, span) = (s.p, &s.r, fc.f, fc.ty, fc.member, fc.span);
    let source_trait = fc.trait_name(s, "source");
    let space_trait = fc.trait_name(s, "space");
    parts.checks.push(space_check(s, fc));
    let from = source_space(s, fc);
    let to = respan(quote!(<#ty as #p::LeafField>::Space), span);
    // The field's conversion, named through the per-field trait that words a space mismatch.
    let convert =
        quote!(<<() as #space_trait<#r, #from, #to>>::Via as #p::LeafConvert<#from, #to>>);
    // At the field's name: the note "unsatisfied trait bound introduced here" then points at the
    // request's field.
    let check = respan(
        quote! {
            (): #source_trait<#r>,
            (): #space_trait<#r, #from, #to>
        },
        member.span(),
    );
    let check = collate::with_padded(s, fc, &to, check, parts);
    parts.read_bounds.push(check.clone());
    let shared = respan(quote!(for<'__spec_x> #ty: #p::FromShared<#to>), span);
    let writable = respan(quote!(for<'__spec_x> #ty: #p::GatherInto<#to>), span);
    parts.gather_bounds.push(quote!(#check, #writable));
    let (collate_let, collate) = collate::collate_let(s, fc, &to);
    let source_view = source_view(s, fc);
    if f.mixed_with.is_some() {
        serve::refuse(s, fc, parts, &check, "is mixed batch by batch");
    } else if f.collate.span().is_some() {
        serve::refuse(
            s,
            fc,
            parts,
            &check,
            "has a collate policy (`pad`, `pad_to` or `truncate`), applied batch by batch",
        );
    } else {
        parts.serve_bounds.push(quote!(#check, #shared));
        parts.serve_values.push(respan(
            quote! {
                #member: <#ty as #p::FromShared<#to>>::from_shared(
                    #convert::serve(
                        #source_view,
                        __spec_cache,
                    ),
                )
            },
            span,
        ));
    }
    parts.gather_steps.push(collate_let.clone());
    parts.gather_steps.push(respan(
        quote! {
            #convert::gather(
                #source_view,
                __spec_rows,
                #p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.#member,
                #collate,
            )?;
        },
        span,
    ));
    parts.fit_steps.push(collate_let);
    parts.fit_steps.push(respan(
        quote! {
            #convert::fits(
                #source_view,
                #collate,
            )?;
        },
        span,
    ));
}
