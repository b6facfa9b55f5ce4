//! A field computed from a sequence source (`lengths_of`, `mask_of`): its lengths or its mask,
//! gathered with the policy of the sequence field of the same source in this struct. The
//! library's `StepsOfSequences` on the field's own type says in the field's words that the
//! record's source has no time axis. `serve` cannot build it.

use super::context::{FieldCx, Parts, Serving};
use super::serve;
use super::source_check::{source_check, source_space, source_view};
use crate::ast::{Kind, kind};
use crate::respan::respan;
use quote::quote;

/// What a computed field adds to the serving side.
pub fn field(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let (p, r, key, f, ty, member, span) = (s.p, &s.r, &fc.key, fc.f, fc.ty, fc.member, fc.span);
    let source_bound = fc.source_bound(s);
    let marker = fc.marker(s);
    parts.checks.push(source_check(s, fc));
    let from = source_space(s, fc);
    let check = respan(
        quote! {
            #source_bound,
            #marker: #p::StepsOfSequences<#r, #from>
        },
        member.span(),
    );
    parts.read_bounds.push(check.clone());
    let writable = respan(quote!(for<'__spec_x> #ty: #p::GatherSteps), span);
    parts.gather_bounds.push(quote!(#check, #writable));
    serve::refuse(s, fc, parts, &check);
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
    let name = quote!(<#key as #p::Source>::NAME);
    let source_view = source_view(s, fc);
    parts.gather_steps.push(respan(
        quote! {
            #p::GatherSteps::gather_steps::<#from>(
                &mut __spec_out.#member,
                #source_view,
                __spec_rows,
                __spec_rows.len().max(__spec_zero.end),
                #steps,
                #truncate,
                #name,
            )?;
        },
        span,
    ));
    parts.fit_steps.push(respan(
        quote! {
            <#ty as #p::GatherSteps>::steps_fit::<#from>(
                &#source_view,
                #steps,
                #truncate,
                #name,
            )?;
        },
        span,
    ));
}
