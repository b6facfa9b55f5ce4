//! `GatherFrom` (a batch of the request gathered from some rows of the record, and the check
//! that every row fits), `GatherField`, through which a tuple field gathers each of its parts, and
//! `GatherSame` (rows of a batch gathered from a batch of the same struct).

use super::context::{FieldCx, Parts, Serving};
use crate::respan::respan;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

/// A field's bound and statement of `GatherSame`.
pub fn same_field(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let (p, ty, member, span) = (s.p, fc.ty, fc.member, fc.span);
    parts
        .same_bounds
        .push(quote_spanned!(span=> for<'__spec_x> #ty: #p::GatherSame));
    parts.same_steps.push(respan(
        quote! {
            <#ty as #p::GatherSame>::gather_same(&mut __spec_out.#member, &__spec_from.#member, __spec_rows, __spec_at);
        },
        span,
    ));
}

/// `ProvidedBy`: the struct's `GatherFrom` and owned leaves, the one bound generic code names. Its
/// own impl (not a blanket one), so that a type parameter without the bound is reported as this
/// trait, and a pair that does not match through `GatherFrom`, in the field's words. The leaves'
/// bound is higher-ranked: a struct of borrowed leaves has no impl, and no error where it is
/// defined.
pub fn provided_by_impl(s: &Serving<'_>) -> TokenStream {
    let (p, r, preds) = (s.p, &s.r, s.preds);
    let header = s.header(&s.generics_with(&[]), quote!(#p::ProvidedBy<#r>));
    // At the struct's name, as the header: the note under a mismatch points there, not at the
    // derive attribute.
    let gather = crate::respan::respan(quote!(Self: #p::GatherFrom<#r>), s.cont.ident.span());
    quote! {
        #header
        where
            for<'__spec_x> Self: #p::DataSpec,
            #(#preds,)*
            #gather,
            for<'__spec_x> <Self as #p::Node<()>>::Flat: #p::AllocFlat,
        {
        }
    }
}

/// `GatherFrom`: the fields gathered one by one, then the labels mixed.
pub fn gather_from_impl(s: &Serving<'_>, parts: &Parts) -> TokenStream {
    let (p, r, preds) = (s.p, &s.r, s.preds);
    let header = s.header(&s.generics_with(&[]), quote!(#p::GatherFrom<#r>));
    let (bounds, gather_steps) = (&parts.gather_bounds, &parts.gather_steps);
    let (mix_steps, fit_steps) = (&parts.mix_steps, &parts.fit_steps);
    quote! {
        #header
        where
            // Not checked here when the struct has no generics: a field that is not a node is
            // reported once, on the `Node` impl.
            for<'__spec_x> Self: #p::DataSpec,
            #(#preds,)*
            #(#bounds,)*
        {
            fn gather_from(
                __spec_out: &mut Self,
                __spec_record: &#r,
                __spec_rows: &[usize],
                __spec_zero: #p::core::ops::Range<usize>,
                __spec_draws: #p::Draws<'_>,
            ) -> #p::core::result::Result<(), #p::DataError> {
                let _ = (&__spec_out, &__spec_record, &__spec_rows, &__spec_zero, &__spec_draws);
                #(#gather_steps)*
                #(#mix_steps)*
                #p::core::result::Result::Ok(())
            }
            fn check_fits(__spec_record: &#r) -> #p::core::result::Result<(), #p::DataError> {
                let _ = &__spec_record;
                #(#fit_steps)*
                #p::core::result::Result::Ok(())
            }
        }
    }
}

/// `GatherSame`: each field gathered from the same field of another batch.
pub fn gather_same_impl(s: &Serving<'_>, parts: &Parts) -> TokenStream {
    let (p, preds) = (s.p, s.preds);
    let header = s.header(s.cont.generics, quote!(#p::GatherSame));
    let (bounds, steps) = (&parts.same_bounds, &parts.same_steps);
    quote! {
        #header
        where
            #(#preds,)*
            #(#bounds,)*
        {
            fn gather_same(
                __spec_out: &mut Self,
                __spec_from: &Self,
                __spec_rows: &[usize],
                __spec_at: usize,
            ) {
                let _ = (&__spec_out, &__spec_from, &__spec_rows, &__spec_at);
                #(#steps)*
            }
        }
    }
}

/// `GatherField`: the request as a part of a tuple field, gathered as a whole.
pub fn gather_field_impl(s: &Serving<'_>) -> TokenStream {
    let (p, r, preds) = (s.p, &s.r, s.preds);
    let header = s.header(
        &s.generics_with(&["__SpecK"]),
        quote!(#p::GatherField<#r, __SpecK>),
    );
    quote! {
        #header
        where
            for<'__spec_x> Self: #p::GatherFrom<#r>,
            #(#preds,)*
        {
            fn gather_field(
                &mut self,
                __spec_record: &#r,
                __spec_rows: &[usize],
                __spec_zero: #p::core::ops::Range<usize>,
                __spec_draws: #p::Draws<'_>,
            ) -> #p::core::result::Result<(), #p::DataError> {
                <Self as #p::GatherFrom<#r>>::gather_from(self, __spec_record, __spec_rows, __spec_zero, __spec_draws)
            }
            fn check_field(__spec_record: &#r) -> #p::core::result::Result<(), #p::DataError> {
                <Self as #p::GatherFrom<#r>>::check_fits(__spec_record)
            }
        }
    }
}
