//! `LoadRecord`: the struct loaded from a file's leaves, a nested spec as a record and any other
//! field as a field.

use super::context::{FieldCx, Parts, Serving};
use crate::ast::{Kind, kind, not_owned};
use crate::respan::respan;
use proc_macro2::TokenStream;
use quote::quote;

/// A field's bound and value of `LoadRecord`. The bound sits at the field's name, so the note
/// "unsatisfied trait bound introduced here" points at the field that cannot be loaded.
pub fn field(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let (p, ty, member) = (s.p, fc.ty, fc.member);
    if fc.f.steps_of.is_some() {
        computed(s, fc, parts);
    }
    if let Some(stand_in) = not_owned(ty) {
        // A shared or borrowed batch: a bound on the library's stand-in, which has no values and
        // is not `LoadableBatch`, so the error names it and not the field's type (ndarray's
        // storage spelled out); the field's value is the stand-in's, matched away.
        let stand_in = syn::Ident::new(stand_in, member.span());
        parts.load_bounds.push(respan(
            quote!(for<'__spec_x> #p::#stand_in: #p::LoadableBatch),
            member.span(),
        ));
        parts.load_values.push(respan(
            quote!(#member: match <#p::#stand_in as #p::LoadField>::load_field(__spec_source, __spec_leaves)? {}),
            fc.span,
        ));
        return;
    }
    let load_trait = if kind(ty) == Kind::Nested {
        quote!(#p::LoadRecord)
    } else {
        quote!(#p::LoadField)
    };
    parts.load_bounds.push(respan(
        quote!(for<'__spec_x> #ty: #load_trait),
        member.span(),
    ));
    let load_fn = if kind(ty) == Kind::Nested {
        quote!(load_record)
    } else {
        quote!(load_field)
    };
    parts.load_values.push(respan(
        quote!(#member: <#ty as #load_trait>::#load_fn(__spec_source, __spec_leaves)?),
        fc.span,
    ));
}

/// A `lengths_of` or `mask_of` field, which a provider computes from a sequence field: no file
/// holds it, so a struct with one is loaded by no `Dataset::load`. Its bound is the library's
/// `LoadedFromFile` on the field's own type, which nothing implements, higher-ranked so that it
/// is reported where the struct is loaded (in its words, at `Dataset::load`) and not where it
/// is defined.
fn computed(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let (p, member) = (s.p, fc.member);
    let marker = fc.marker(s);
    parts.load_bounds.push(respan(
        quote!(for<'__spec_x> #marker: #p::LoadedFromFile),
        member.span(),
    ));
}

/// The `LoadRecord` impl.
pub fn load_record_impl(s: &Serving<'_>, parts: &Parts) -> TokenStream {
    let (p, preds) = (s.p, s.preds);
    let header = s.header(s.cont.generics, quote!(#p::LoadRecord));
    let (bounds, values) = (&parts.load_bounds, &parts.load_values);
    // A shared or borrowed batch's value is matched away, so the fields after it are not
    // reached (nor is the impl ever used: its bound on the stand-in does not hold).
    let allow = if s.cont.fields.iter().any(|f| not_owned(f.ty).is_some()) {
        quote!(#[allow(unreachable_code)])
    } else {
        TokenStream::new()
    };
    quote! {
        #header
        where
            for<'__spec_x> Self: #p::DataSpec,
            #(#preds,)*
            #(#bounds,)*
        {
            #allow
            fn load_record<__SpecL: #p::LeafSource>(
                __spec_source: &mut __SpecL,
                __spec_leaves: &mut #p::core::slice::Iter<'_, #p::Described>,
            ) -> #p::core::result::Result<Self, __SpecL::Error> {
                let _ = (&__spec_source, &__spec_leaves);
                #p::core::result::Result::Ok(Self { #(#values,)* })
            }
        }
    }
}
