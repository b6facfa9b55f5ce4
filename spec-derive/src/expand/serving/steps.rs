//! A field computed from a sequence source (`lengths_of`, `mask_of`): its lengths or its mask,
//! gathered through the trait `<Struct>_<field>_steps`, whose message says in the field's words
//! that the record's source has no time axis. `serve` cannot build it.

use super::context::{FieldCx, Parts, Serving};
use super::serve;
use super::source_check::{source_check, source_space, source_view};
use crate::ast::{Kind, kind};
use crate::attr::StepsOf;
use crate::check::escape;
use crate::respan::respan;
use proc_macro2::TokenStream;
use quote::quote;

/// What a computed field adds to the serving side.
pub fn field(s: &Serving<'_>, fc: &FieldCx<'_>, of: &StepsOf, parts: &mut Parts) {
    let (p, r, ty, member, span) = (s.p, &s.r, fc.ty, fc.member, fc.span);
    let source_trait = fc.source_trait(s);
    let steps_trait = fc.trait_name(s, "steps");
    parts.checks.push(steps_check(s, fc, of));
    let from = source_space(s, fc);
    let check = respan(
        quote! {
            (): #source_trait,
            (): #steps_trait<#r, #from>
        },
        member.span(),
    );
    parts.read_bounds.push(check.clone());
    let writable = respan(quote!(for<'__spec_x> #ty: #p::GatherSteps), span);
    parts.gather_bounds.push(quote!(#check, #writable));
    serve::refuse(s, fc, parts, &check, "is computed batch by batch");
    let source_view = source_view(s, fc);
    parts.gather_steps.push(respan(
        quote! {
            <() as #steps_trait<#r, #from>>::gather(
                #source_view,
                __spec_rows,
                __spec_rows.len().max(__spec_zero.end),
                &mut __spec_out.#member,
            )?;
        },
        span,
    ));
    parts.fit_steps.push(respan(
        quote! {
            <() as #steps_trait<#r, #from>>::fits::<#ty>(
                #source_view,
            )?;
        },
        span,
    ));
}

/// The field's source check and its steps trait, which gathers the steps with the policy of the
/// sequence field of the same source in this struct.
fn steps_check(s: &Serving<'_>, fc: &FieldCx<'_>, of: &StepsOf) -> TokenStream {
    let (p, key, f) = (s.p, &fc.key, fc.f);
    let source_check = source_check(s, fc);
    let steps_trait = fc.trait_name(s, "steps");
    let what = if of.mask { "mask" } else { "lengths" };
    let src = escape(&f.source);
    let (fname, sname) = (escape(&fc.field), escape(&s.name));
    let msg_steps = format!(
        "field `{fname}` of `{sname}` asks for the {what} of source \"{src}\", but the record `{{R}}` holds it as `{{From}}`, which has no time axis"
    );
    let label_steps = "a source of sequences (`VectorSeq`, `IndexSeq`, `VolumeSeq`, or a `Ragged` of them) has lengths".to_string();
    // The policy of the sequence field of the same source in this struct.
    let policy = s
        .cont
        .fields
        .iter()
        .find(|g| g.source == f.source && g.steps_of.is_none() && kind(g.ty) == Kind::Leaf);
    let steps = match policy.and_then(|g| g.collate.pad_to) {
        Some((_, n)) => quote!(#p::core::option::Option::Some(#n)),
        None => quote!(#p::core::option::Option::None),
    };
    let truncate = policy.is_some_and(|g| g.collate.truncate.is_some());
    quote! {
        #source_check
        #[diagnostic::on_unimplemented(message = #msg_steps, label = #label_steps)]
        pub trait #steps_trait<R, From> {
            fn gather<__SpecT: #p::GatherSteps>(
                from: #p::SourceView<'_, From>,
                rows: &[usize],
                batch: usize,
                target: &mut __SpecT,
            ) -> #p::core::result::Result<(), #p::DataError>
            where
                From: #p::Space;
            fn fits<__SpecT: #p::GatherSteps>(
                from: #p::SourceView<'_, From>,
            ) -> #p::core::result::Result<(), #p::DataError>
            where
                From: #p::Space;
        }
        #[diagnostic::do_not_recommend]
        impl<R, From: #p::SequenceSpace> #steps_trait<R, From> for () {
            #[inline]
            fn gather<__SpecT: #p::GatherSteps>(
                from: #p::SourceView<'_, From>,
                rows: &[usize],
                batch: usize,
                target: &mut __SpecT,
            ) -> #p::core::result::Result<(), #p::DataError> {
                target.gather_steps::<From>(from, rows, batch, #steps, #truncate, <#key as #p::Source>::NAME)
            }
            #[inline]
            fn fits<__SpecT: #p::GatherSteps>(
                from: #p::SourceView<'_, From>,
            ) -> #p::core::result::Result<(), #p::DataError> {
                <__SpecT as #p::GatherSteps>::steps_fit::<From>(&from, #steps, #truncate, <#key as #p::Source>::NAME)
            }
        }
    }
}
