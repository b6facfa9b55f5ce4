//! Stubs: the impls emitted beside the derive's errors (`Node`, `DataSpec` and the serving
//! traits, every item unreachable), so that uses of the struct add no errors of their own and the
//! errors are all the user sees.

use super::names::{default_crate, with_params, with_src_param};
use proc_macro2::TokenStream;
use quote::quote;

/// Stub impls emitted beside the errors, so that the errors are all the user sees.
pub fn stubs(input: &syn::DeriveInput, krate: Option<syn::Path>) -> TokenStream {
    let krate = krate.unwrap_or_else(default_crate);
    let p = quote!(#krate::__private);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let node_generics = with_src_param(&input.generics);
    let (node_impl_generics, _, _) = node_generics.split_for_impl();
    let stub_serving = serving_stubs(input, &p);
    quote! {
        #[doc(hidden)]
        #[allow(unused_qualifications, clippy::all)]
        const _: () = {
            impl #node_impl_generics #p::Node<__SpecSrc> for #ident #ty_generics #where_clause {
                type Spaces = ();
                type Sources = ();
                type Leaves = #p::HNil;
                type Flat = #p::HNil;
                type FlatRef<'__spec_a> = #p::HNil where Self: '__spec_a;
                type FlatMut<'__spec_a> = #p::HNil where Self: '__spec_a;
                type Mapped<__SpecT> = ();
                type Views<'__spec_a> = () where Self: '__spec_a;
                const LEAVES: usize = 0;
                const TOTAL: #p::core::option::Option<usize> = #p::core::option::Option::None;
                fn describe_node(_: usize, _: &#p::Path<'_>, _: &mut #p::Vec<#p::Described>) {
                    #p::core::unreachable!()
                }
                fn check_node(&self, _: &#p::Path<'_>, _: &mut #p::SizeCheck) -> #p::core::result::Result<(), #p::SpecError> {
                    #p::core::unreachable!()
                }
                fn node_flatten(self) -> #p::HNil { #p::core::unreachable!() }
                fn node_nest(_: #p::HNil) -> Self { #p::core::unreachable!() }
                fn node_flatten_ref(&self) -> #p::HNil { #p::core::unreachable!() }
                fn node_flatten_mut(&mut self) -> #p::HNil { #p::core::unreachable!() }
                fn node_views(&self, _: #p::core::ops::Range<usize>) {}
                fn node_nest_mapped<__SpecT, __SpecN: #p::core::ops::FnMut() -> __SpecT>(_: &mut __SpecN) {}
                fn node_flatten_mapped<__SpecT, __SpecV: #p::core::ops::FnMut(__SpecT)>(_: (), _: &mut __SpecV) {}
            }
            impl #impl_generics #p::DataSpec for #ident #ty_generics #where_clause {}
            #stub_serving
        };
    }
}

/// Stub impls of the serving traits, emitted beside the derive's errors so that uses of the
/// struct add no errors of their own.
fn serving_stubs(input: &syn::DeriveInput, p: &TokenStream) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let r_generics = with_params(&input.generics, &["__SpecR"]);
    let (r_impl, _, _) = r_generics.split_for_impl();
    quote! {
        impl #r_impl #p::Reads<__SpecR> for #ident #ty_generics #where_clause {}
        impl #r_impl #p::ServeFrom<__SpecR> for #ident #ty_generics #where_clause {
            fn serve_from(_: &__SpecR, _: &mut #p::ServeCache) -> Self {
                #p::core::unreachable!()
            }
        }
        impl #r_impl #p::GatherFrom<__SpecR> for #ident #ty_generics #where_clause {
            fn gather_from(_: &mut Self, _: &__SpecR, _: &[usize], _: #p::core::ops::Range<usize>, _: #p::Draws<'_>) -> #p::core::result::Result<(), #p::DataError> {
                #p::core::unreachable!()
            }
            fn check_fits(_: &__SpecR) -> #p::core::result::Result<(), #p::DataError> {
                #p::core::unreachable!()
            }
        }
        impl #r_impl #p::ProvidedBy<__SpecR> for #ident #ty_generics #where_clause {}
        impl #impl_generics #p::GatherSame for #ident #ty_generics #where_clause {
            fn gather_same(_: &mut Self, _: &Self, _: &[usize], _: usize) {
                #p::core::unreachable!()
            }
        }
        impl #impl_generics #p::LoadRecord for #ident #ty_generics #where_clause {
            fn load_record<__SpecL: #p::LeafSource>(
                _: &mut __SpecL,
                _: &mut #p::core::slice::Iter<'_, #p::Described>,
            ) -> #p::core::result::Result<Self, __SpecL::Error> {
                #p::core::unreachable!()
            }
        }
    }
}
