//! Code generation: the `DataSpec` and `Node` impls of a struct, or stubs after an error.

use crate::ast::Container;
use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

/// The type `Src<'n', 'a', 'm', 'e'>` of a source string.
pub fn source_type(krate: &syn::Path, name: &str) -> TokenStream {
    let chars = name
        .chars()
        .map(|c| syn::LitChar::new(c, proc_macro2::Span::call_site()));
    quote!(#krate::__private::Src<#(#chars),*>)
}

/// `tokens` with every span set to `span`, so that an error about them points at `span` alone
/// (a mix of the user's spans and the macro's falls back to the derive attribute).
fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    tokens
        .into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => {
                let mut out = Group::new(g.delimiter(), respan(g.stream(), span));
                out.set_span(span);
                TokenTree::Group(out)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

fn default_crate() -> syn::Path {
    syn::parse_quote!(::batchspec)
}

/// The impls for a checked struct.
pub fn expand(cont: &Container<'_>) -> TokenStream {
    let krate = cont.attrs.krate.clone().unwrap_or_else(default_crate);
    let p = quote!(#krate::__private);
    let ident = cont.ident;
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    let mut preds: Vec<TokenStream> = where_clause
        .map(|w| w.predicates.iter().map(|p| quote!(#p)).collect())
        .unwrap_or_default();

    let nodes: Vec<TokenStream> = cont
        .fields
        .iter()
        .map(|f| {
            let ty = f.ty;
            let src = source_type(&krate, &f.source);
            // Spanned on the field's type: an error about the field points there.
            respan(quote!(<#ty as #p::Node<#src>>), ty.span())
        })
        .collect();
    for f in &cont.fields {
        let ty = f.ty;
        let src = source_type(&krate, &f.source);
        // Spanned on the field's type, so that a field that is not a batch or a spec is reported
        // there, in the words of `Node`'s message.
        preds.push(respan(quote!(#ty: #p::Node<#src>), ty.span()));
    }

    let spans: Vec<proc_macro2::Span> = cont.fields.iter().map(|f| f.ty.span()).collect();
    let spaces = nodes
        .iter()
        .zip(&spans)
        .map(|(n, sp)| respan(quote!(#n::Spaces), *sp));
    let sources = nodes
        .iter()
        .zip(&spans)
        .map(|(n, sp)| respan(quote!(#n::Sources), *sp));
    let leaves = nodes
        .iter()
        .zip(&spans)
        .rev()
        .fold(quote!(#p::HNil), |acc, (n, sp)| {
            let head = respan(quote!(#n::Leaves), *sp);
            quote!(<#head as #p::LeafList>::Append<#acc>)
        });
    let count = nodes
        .iter()
        .zip(&spans)
        .map(|(n, sp)| respan(quote!(+ #n::LEAVES), *sp));
    let total = nodes.iter().zip(&spans).rev().fold(
        quote!(::core::option::Option::Some(0usize)),
        |acc, (n, sp)| {
            let head = respan(quote!(#n::TOTAL), *sp);
            quote!(#p::__add_features(#head, #acc))
        },
    );
    let describe = cont.fields.iter().zip(&nodes).map(|(f, n)| {
        let name = f.member.to_string().trim_start_matches("r#").to_string();
        let call = respan(quote!(#n::describe_node), f.ty.span());
        quote!(#call(__spec_batch, &#p::Path::Field(__spec_path, #name), __spec_out);)
    });
    let checks = cont.fields.iter().zip(&nodes).map(|(f, n)| {
        let member = f.member;
        let name = member.to_string().trim_start_matches("r#").to_string();
        let call = respan(quote!(#n::check_node), f.ty.span());
        quote!(#call(&self.#member, &#p::Path::Field(__spec_path, #name), __spec_sizes)?;)
    });

    let where_all = quote!(where #(#preds,)*);
    let node_generics = {
        let params = &cont.generics.params;
        quote!(<__SpecSrc: #p::Source, #params>)
    };

    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types, unused_qualifications, clippy::all)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #p::DataSpec for #ident #ty_generics #where_all {
                type Spaces = (#(#spaces,)*);
                type Sources = (#(#sources,)*);
                type Leaves = #leaves;
                const LEAVES: usize = 0 #(#count)*;
                const TOTAL: ::core::option::Option<usize> = #total;
                fn describe_into(
                    __spec_batch: usize,
                    __spec_path: &#p::Path<'_>,
                    __spec_out: &mut #p::Vec<#p::Described>,
                ) {
                    #(#describe)*
                }
                fn check_sizes(
                    &self,
                    __spec_path: &#p::Path<'_>,
                    __spec_sizes: &mut #p::SizeCheck,
                ) -> ::core::result::Result<(), #p::Error> {
                    #(#checks)*
                    ::core::result::Result::Ok(())
                }
            }

            #[automatically_derived]
            impl #node_generics #p::Node<__SpecSrc> for #ident #ty_generics #where_all {
                type Spaces = <Self as #p::DataSpec>::Spaces;
                type Sources = <Self as #p::DataSpec>::Sources;
                type Leaves = <Self as #p::DataSpec>::Leaves;
                const LEAVES: usize = <Self as #p::DataSpec>::LEAVES;
                const TOTAL: ::core::option::Option<usize> = <Self as #p::DataSpec>::TOTAL;
                fn describe_node(
                    __spec_batch: usize,
                    __spec_path: &#p::Path<'_>,
                    __spec_out: &mut #p::Vec<#p::Described>,
                ) {
                    <Self as #p::DataSpec>::describe_into(__spec_batch, __spec_path, __spec_out)
                }
                fn check_node(
                    &self,
                    __spec_path: &#p::Path<'_>,
                    __spec_sizes: &mut #p::SizeCheck,
                ) -> ::core::result::Result<(), #p::Error> {
                    <Self as #p::DataSpec>::check_sizes(self, __spec_path, __spec_sizes)
                }
            }
        };
    }
}

/// Stub impls emitted beside the errors, so that the errors are all the user sees.
pub fn stubs(input: &syn::DeriveInput, krate: Option<syn::Path>) -> TokenStream {
    let krate = krate.unwrap_or_else(default_crate);
    let p = quote!(#krate::__private);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        #[doc(hidden)]
        #[allow(unused_qualifications, clippy::all)]
        const _: () = {
            impl #impl_generics #p::DataSpec for #ident #ty_generics #where_clause {
                type Spaces = ();
                type Sources = ();
                type Leaves = #p::HNil;
                const LEAVES: usize = 0;
                const TOTAL: ::core::option::Option<usize> = ::core::option::Option::None;
                fn describe_into(_: usize, _: &#p::Path<'_>, _: &mut #p::Vec<#p::Described>) {
                    ::core::unreachable!()
                }
                fn check_sizes(&self, _: &#p::Path<'_>, _: &mut #p::SizeCheck) -> ::core::result::Result<(), #p::Error> {
                    ::core::unreachable!()
                }
            }
        };
    }
}
