//! `LoadRecord`: the struct loaded from a file's leaves, a nested spec as a record and any other
//! field as a field.

use super::context::{FieldCx, Parts, Serving};
use crate::ast::{Kind, kind};
use crate::respan::respan;
use proc_macro2::TokenStream;
use quote::quote;

/// A field's bound and value of `LoadRecord`. The bound sits at the field's name, so the note
/// "unsatisfied trait bound introduced here" points at the field that cannot be loaded.
pub fn field(s: &Serving<'_>, fc: &FieldCx<'_>, parts: &mut Parts) {
    let (p, ty, member) = (s.p, fc.ty, fc.member);
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

/// The `LoadRecord` impl.
pub fn load_record_impl(s: &Serving<'_>, parts: &Parts) -> TokenStream {
    let (p, preds) = (s.p, s.preds);
    let header = s.header(s.cont.generics, quote!(#p::LoadRecord));
    let (bounds, values) = (&parts.load_bounds, &parts.load_values);
    quote! {
        #header
        where
            for<'__spec_x> Self: #p::DataSpec,
            #(#preds,)*
            #(#bounds,)*
        {
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
