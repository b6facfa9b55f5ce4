//! The record side of serving: one `HasSource` impl per source held by exactly one batch field,
//! through which a request reads the source; and for a source held by several fields of
//! different families (an image and a vector), one `HasSourceAs` impl per field, keyed by its
//! family, through which a request's leaf of that family reads it.

use super::context::Serving;
use crate::ast::{Kind, family, kind};
use crate::expand::source::source_type;
use crate::respan::respan;
use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

/// The `HasSource` impls of the struct.
pub fn impls(s: &Serving<'_>) -> TokenStream {
    let (cont, p, preds) = (s.cont, s.p, s.preds);
    let mut out = TokenStream::new();
    let leaves: Vec<_> = cont
        .fields
        .iter()
        .filter(|f| kind(f.ty) == Kind::Leaf)
        .collect();
    for f in &leaves {
        let holders: Vec<_> = leaves.iter().filter(|g| g.source == f.source).collect();
        let ty = f.ty;
        let span = ty.span();
        let key = source_type(p, &f.source);
        // The family by its marker, not as `FamilyOf<#ty>`: coherence does not normalize that
        // projection, and would take two fields' impls for the same. The bound below checks
        // that the marker is the type's family.
        let (tr, family_bound) = if holders.len() == 1 {
            (quote!(#p::HasSource<#key>), None)
        } else if let Some(name) = by_family(cont, &holders).then(|| family(ty)).flatten() {
            let form = syn::Ident::new(&format!("{name}Form"), span);
            (
                quote!(#p::HasSourceAs<#key, #p::form::#form>),
                Some(respan(
                    quote!(#ty: #p::LeafField<Space: #p::Space<Form = #p::form::#form>>),
                    span,
                )),
            )
        } else {
            continue;
        };
        let family_bound = family_bound.into_iter();
        let member = f.member;
        let header = s.header(cont.generics, tr);
        let bound = respan(quote!(for<'__spec_x> #ty: #p::LeafField), span);
        let space = respan(quote!(<#ty as #p::LeafField>::Space), span);
        let view = respan(
            quote!(<#ty as #p::LeafField>::leaf_field_view(&self.#member)),
            span,
        );
        let view_ty = respan(quote!(#p::SourceView<'_, Self::Space>), span);
        let (view_fn, field_fn) = if holders.len() == 1 {
            (quote!(source_view), quote!(source_field))
        } else {
            (quote!(source_view_as), quote!(source_field_as))
        };
        out.extend(quote! {
            #header
            where
                #bound,
                #(#family_bound,)*
                #(#preds,)*
            {
                type Space = #space;
                type Field = #ty;
                #[inline]
                fn #view_fn(&self) -> #view_ty {
                    #view
                }
                #[inline]
                fn #field_fn(&self) -> &Self::Field {
                    &self.#member
                }
            }
        });
        if holders.len() == 1 {
            out.extend(any_family(s, &key));
        }
    }
    out
}

/// A source held by one field serves a request's field of any family: `HasSourceAs` for every
/// family, through `HasSource`. (The derive's, not a blanket impl of the core: rustc words a
/// missing source as the request's field's check only when the bound under it has no impl.)
fn any_family(s: &Serving<'_>, key: &TokenStream) -> TokenStream {
    let (cont, p, preds) = (s.cont, s.p, s.preds);
    let generics = crate::expand::names::with_params(cont.generics, &["__SpecF"]);
    let header = s.header(&generics, quote!(#p::HasSourceAs<#key, __SpecF>));
    quote! {
        #header
        where
            #(#preds,)*
        {
            type Space = <Self as #p::HasSource<#key>>::Space;
            type Field = <Self as #p::HasSource<#key>>::Field;
            #[inline]
            fn source_view_as(&self) -> #p::SourceView<'_, Self::Space> {
                <Self as #p::HasSource<#key>>::source_view(self)
            }
            #[inline]
            fn source_field_as(&self) -> &Self::Field {
                <Self as #p::HasSource<#key>>::source_field(self)
            }
        }
    }
}

/// Whether the fields that hold one source serve it by family: each a batch or ragged field of
/// a space of the core written by its name (or `image!`, `volume!`), no two of the same family,
/// none computed, augmented or mixed, in a struct without type parameters. Anything else (an
/// alias, a generic space) could make two of the impls the same, so such a source is served to
/// no request.
fn by_family(cont: &crate::ast::Container<'_>, holders: &[&&crate::ast::Field<'_>]) -> bool {
    let plain = holders
        .iter()
        .all(|f| f.steps_of.is_none() && f.augment.is_none() && f.mixed_with.is_none());
    if cont.generics.type_params().next().is_some() || !plain {
        return false;
    }
    let families: Vec<_> = holders.iter().map(|f| family(f.ty)).collect();
    families
        .iter()
        .enumerate()
        .all(|(i, fam)| fam.is_some() && !families[..i].contains(fam))
}
