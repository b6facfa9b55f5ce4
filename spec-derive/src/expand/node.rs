//! The `Node` impl of a struct (its spaces, sources, leaves, flat forms, mapped forms, the
//! description and size check of its leaves, and its views of some rows) and its `DataSpec` impl.

use super::flatten::{self, balanced, pair_type};
use super::names::with_src_param;
use super::source::source_type;
use crate::ast::Container;
use crate::respan::respan;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;

/// The struct's fields as nodes of the tree: each field's `<Type as Node<Source>>`, spanned on
/// the field's type so that an error about the field points there, and that span.
struct Nodes<'a> {
    nodes: Vec<TokenStream>,
    spans: Vec<Span>,
    members: Vec<&'a syn::Ident>,
}

impl Nodes<'_> {
    /// `f` of each field's node, at the field's type.
    fn per_field(&self, f: &dyn Fn(&TokenStream) -> TokenStream) -> Vec<TokenStream> {
        self.nodes
            .iter()
            .zip(&self.spans)
            .map(|(n, sp)| respan(f(n), *sp))
            .collect()
    }
}

/// The `Node` and `DataSpec` impls. They carry the field bounds (`preds`), also for a struct
/// without generics: the impls' items are checked assuming them, so a field whose type is not a
/// spec is the one error of `__spec_fields` at the field, not a second one where the impl's types
/// and signatures combine all the fields.
pub fn impls(cont: &Container<'_>, p: &TokenStream, preds: &[TokenStream]) -> TokenStream {
    let ident = cont.ident;
    let (impl_generics, ty_generics, _) = cont.generics.split_for_impl();
    let nodes = Nodes {
        nodes: cont
            .fields
            .iter()
            .map(|f| {
                let ty = f.ty;
                let src = source_type(p, &f.source);
                respan(quote!(<#ty as #p::Node<#src>>), ty.span())
            })
            .collect(),
        spans: cont.fields.iter().map(|f| f.ty.span()).collect(),
        members: cont.fields.iter().map(|f| f.member).collect(),
    };
    let types = types(cont, p, &nodes);
    let leaves = describe_and_check(cont, p, &nodes);
    let flatten = flatten::methods(p, &nodes.nodes, &nodes.spans, &nodes.members);
    let mapped = mapped_methods(cont, p, &nodes);
    let where_all = quote!(where #(#preds,)*);
    let node_generics = with_src_param(cont.generics);
    let (node_impl_generics, _, _) = node_generics.split_for_impl();
    quote! {
        #[automatically_derived]
        #[diagnostic::do_not_recommend]
        impl #node_impl_generics #p::Node<__SpecSrc> for #ident #ty_generics #where_all {
            #types
            #leaves
            #flatten
            #mapped
        }

        #[automatically_derived]
        impl #impl_generics #p::DataSpec for #ident #ty_generics #where_all {}
    }
}

/// The associated types and constants of `Node`: each a tuple or a balanced tree of the fields'.
fn types(cont: &Container<'_>, p: &TokenStream, nodes: &Nodes<'_>) -> TokenStream {
    let spaces = nodes.per_field(&|n| quote!(#n::Spaces));
    let sources = nodes.per_field(&|n| quote!(#n::Sources));
    let mapped = nodes.per_field(&|n| quote!(#n::Mapped<__SpecT>));
    let views = nodes.per_field(&|n| quote!(#n::Views<'__spec_a>));
    let count = nodes.per_field(&|n| quote!(+ #n::LEAVES));
    let leaves_of = nodes.per_field(&|n| quote!(#n::Leaves));
    let flat_of = nodes.per_field(&|n| quote!(#n::Flat));
    let flat_ref_of = nodes.per_field(&|n| quote!(#n::FlatRef<'__spec_a>));
    let flat_mut_of = nodes.per_field(&|n| quote!(#n::FlatMut<'__spec_a>));
    let total_of = nodes.per_field(&|n| quote!(#n::TOTAL));

    // The flat forms: balanced trees of `Pair`s over the fields.
    let flat = balanced(&flat_of, &pair_type(p), p);
    let flat_ref = balanced(&flat_ref_of, &pair_type(p), p);
    let flat_mut = balanced(&flat_mut_of, &pair_type(p), p);
    let leaves = balanced(&leaves_of, &|a, b| quote!(#p::LeafPair<#a, #b>), p);
    let total = total_of.iter().rev().fold(
        quote!(#p::core::option::Option::Some(0usize)),
        |acc, head| quote!(#p::__add_features(#head, #acc)),
    );
    let mapped_name = quote::format_ident!("{}Mapped", cont.ident);
    quote! {
        type Spaces = (#(#spaces,)*);
        type Sources = (#(#sources,)*);
        type Leaves = #leaves;
        type Flat = #flat;
        type FlatRef<'__spec_a> = #flat_ref where Self: '__spec_a;
        type FlatMut<'__spec_a> = #flat_mut where Self: '__spec_a;
        type Mapped<__SpecT> = (#(#mapped,)*);
        type Views<'__spec_a> = #mapped_name<#(#views),*> where Self: '__spec_a;
        const LEAVES: usize = 0 #(#count)*;
        const TOTAL: #p::core::option::Option<usize> = #total;
    }
}

/// `describe_node` and `check_node`: each field's leaves described, each field's sizes checked.
fn describe_and_check(cont: &Container<'_>, p: &TokenStream, nodes: &Nodes<'_>) -> TokenStream {
    let names: Vec<String> = cont
        .fields
        .iter()
        .map(|f| f.member.to_string().trim_start_matches("r#").to_string())
        .collect();
    // Each field's statements sit at the field's type, so that an error about the type is the one
    // already reported there, not another at the derive attribute.
    let describe = nodes
        .nodes
        .iter()
        .zip(&names)
        .zip(&nodes.spans)
        .map(|((n, name), sp)| {
            respan(
                quote!(#n::describe_node(__spec_batch, &#p::Path::Field(__spec_path, #name), __spec_out);),
                *sp,
            )
        });
    let checks = nodes
        .nodes
        .iter()
        .zip(&names)
        .zip(&nodes.members)
        .zip(&nodes.spans)
        .map(|(((n, name), member), sp)| {
            respan(
                quote!(#n::check_node(&self.#member, &#p::Path::Field(__spec_path, #name), __spec_sizes)?;),
                *sp,
            )
        });
    quote! {
        fn describe_node(
            __spec_batch: usize,
            __spec_path: &#p::Path<'_>,
            __spec_out: &mut #p::Vec<#p::Described>,
        ) {
            #(#describe)*
        }
        fn check_node(
            &self,
            __spec_path: &#p::Path<'_>,
            __spec_sizes: &mut #p::SizeCheck,
        ) -> #p::core::result::Result<(), #p::SpecError> {
            #(#checks)*
            #p::core::result::Result::Ok(())
        }
    }
}

/// `node_views`, `node_nest_mapped` and `node_flatten_mapped`: views of some rows, field by field
/// in the generated `<Name>Mapped` struct, and the mapped form built and taken apart.
fn mapped_methods(cont: &Container<'_>, p: &TokenStream, nodes: &Nodes<'_>) -> TokenStream {
    let nest_mapped = nodes
        .nodes
        .iter()
        .zip(&nodes.spans)
        .map(|(n, sp)| respan(quote!(#n::node_nest_mapped(__spec_next),), *sp));
    let mapped_name = quote::format_ident!("{}Mapped", cont.ident);
    let node_views = nodes
        .nodes
        .iter()
        .zip(&nodes.members)
        .zip(&nodes.spans)
        .map(|((n, m), sp)| {
            respan(
                quote!(#m: #n::node_views(&self.#m, #p::core::clone::Clone::clone(&__spec_rows)),),
                *sp,
            )
        });
    let flatten_mapped = nodes
        .nodes
        .iter()
        .enumerate()
        .zip(&nodes.spans)
        .map(|((i, n), sp)| {
            let idx = syn::Index::from(i);
            respan(
                quote!(#n::node_flatten_mapped(__spec_mapped.#idx, __spec_visit);),
                *sp,
            )
        });
    quote! {
        fn node_views(&self, __spec_rows: #p::core::ops::Range<usize>) -> Self::Views<'_> {
            let _ = &__spec_rows;
            #mapped_name { #(#node_views)* }
        }
        fn node_nest_mapped<__SpecT, __SpecN: #p::core::ops::FnMut() -> __SpecT>(
            __spec_next: &mut __SpecN,
        ) -> Self::Mapped<__SpecT> {
            let _ = &__spec_next;
            (#(#nest_mapped)*)
        }
        fn node_flatten_mapped<__SpecT, __SpecV: #p::core::ops::FnMut(__SpecT)>(
            __spec_mapped: Self::Mapped<__SpecT>,
            __spec_visit: &mut __SpecV,
        ) {
            let _ = (&__spec_mapped, &__spec_visit);
            #(#flatten_mapped)*
        }
    }
}
