//! A request's batch field: computed (`steps`), augmented (`augment`), or read from the record's
//! field of its source and converted to the field's space, perhaps mixed (`augment::mixed`) and
//! collated (`collate`). The source check (the library's `SourceServedBy` on the field's own
//! type, `Request·x`) words a source the record lacks in the field's terms; the conversion is bound as the record's space's `FormatAs` the request's, so that a mismatch says
//! why in the core's words (the same as `Batch::format_as`), and the note under it points at
//! the field.

use super::context::{FieldCx, Parts, Serving};
use super::source_check::{source_check, source_space, source_view};
use super::{augment, collate, serve, steps};
use crate::respan::respan;
use quote::quote;

/// What a batch field adds to the serving side.
pub fn field(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let f = fc.f;
    if f.steps_of.is_some() {
        return steps::field(s, fc, parts);
    }
    if let Some((at, aug_ty)) = &f.augment {
        return augment::augmented(s, fc, *at, aug_ty, parts);
    }
    if let Some((at, mix_src)) = &f.mixed_with {
        augment::mixed(s, fc, *at, mix_src, parts);
    }
    converted(s, fc, parts);
}

/// A batch field read from the record's field of its source, converted to the field's space.
fn converted(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let (p, f, ty, member, span) = (s.p, fc.f, fc.ty, fc.member, fc.span);
    let (key, source_bound) = (&fc.key, fc.source_bound(s));
    parts.checks.push(source_check(s, fc));
    let from = source_space(s, fc);
    let to = respan(quote!(<#ty as #p::LeafField>::Space), span);
    let convert = quote!(<#p::LeafVia<#key> as #p::LeafConvert<#from, #to>>);
    // At the field's name: the note "unsatisfied trait bound introduced here" then points at the
    // request's field. The conversion is the record's space's `FormatAs` itself, so a mismatch
    // is reported in the words of `format_as` (a lossy cast, a one-hot width, rows against
    // columns, no conversion between the kinds), at every entry point that pairs the two.
    let check = respan(
        quote! {
            #source_bound,
            #from: #p::FormatAs<#to>
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
    if f.mixed_with.is_some() || f.collate.span().is_some() {
        serve::refuse(s, fc, parts, &check);
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
