//! Code generation: the `DataSpec` and `Node` impls of a struct, or stubs after an error.

use crate::ast::{BATCH_TYPES, Container};
use crate::respan::respan;
use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

/// The type of a source string: `Features` and `Targets` for the two predefined sources,
/// `Src<'n', 'a', 'm', 'e'>` for any other.
pub fn source_type(p: &TokenStream, name: &str) -> TokenStream {
    if let Some((_, ty)) = batchspec_facts::NAMED_SOURCES
        .iter()
        .find(|(n, _)| *n == name)
    {
        let ty = syn::Ident::new(ty, proc_macro2::Span::call_site());
        return quote!(#p::#ty);
    }
    let chars = name
        .chars()
        .map(|c| syn::LitChar::new(c, proc_macro2::Span::call_site()));
    quote!(#p::Src<#(#chars),*>)
}

fn default_crate() -> syn::Path {
    syn::parse_quote!(::batchspec)
}

/// The impls for a checked struct.
pub fn expand(cont: &Container<'_>) -> TokenStream {
    let krate = cont.attrs.krate.clone().unwrap_or_else(default_crate);
    // The library's items are named through one import at the top of the generated block: the
    // full path at each of the thousands of uses in a wide struct's impls was about a third of
    // the tokens the derive wrote.
    let p = quote!(__spec_p);
    let ident = cont.ident;
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    let mut preds: Vec<TokenStream> = where_clause
        .map(|w| w.predicates.iter().map(|p| quote!(#p)).collect())
        .unwrap_or_default();

    // A type parameter that is a batch's space needs `Space`: add the bound to every impl, so
    // that a struct declared without it is one error (the struct's own, with rustc's suggestion
    // to add the bound), not one more per impl.
    for name in space_params(cont) {
        preds.push(quote!(#name: #p::Space));
    }
    // A ragged field holds a sequence space: a struct parameter gets the bound on every impl; a
    // space written out is checked once, here, at the field's space.
    let mut ragged_checks = Vec::new();
    for f in &cont.fields {
        let Some(space) = ragged_space(f.ty) else {
            continue;
        };
        let is_param = matches!(space, syn::Type::Path(t) if t.qself.is_none()
            && t.path.get_ident().is_some_and(|i| cont.generics.type_params().any(|p| p.ident == *i)));
        if is_param {
            preds.push(quote!(#space: #p::SequenceSpace));
        } else {
            let name = quote::format_ident!("__spec_ragged_{}", f.member);
            let bound = respan(quote!(#space: #p::SequenceSpace), space.span());
            ragged_checks.push(quote! {
                #[allow(non_snake_case, dead_code)]
                fn #name() where #bound {}
            });
        }
    }

    let nodes: Vec<TokenStream> = cont
        .fields
        .iter()
        .map(|f| {
            let ty = f.ty;
            let src = source_type(&p, &f.source);
            // Spanned on the field's type: an error about the field points there.
            respan(quote!(<#ty as #p::Node<#src>>), ty.span())
        })
        .collect();
    // The field bounds. A field whose type names no parameter of the struct is asked, once and
    // at the field, to be a `SpecField` (a trait without the source parameter, so that rustc's
    // help line under the message names no source), and its `Node` bound is written
    // `for<'__spec_w>`: a false bound on a concrete type is reported by rustc where it is written
    // unless it is higher-ranked, and the impls' items are checked assuming it either way, so
    // nothing else is reported for that field. A type with the struct's parameters keeps its
    // plain bound, which the struct's users meet.
    let mut field_checks = Vec::new();
    for f in &cont.fields {
        let ty = f.ty;
        let src = source_type(&p, &f.source);
        if mentions_params(ty, cont.generics) {
            preds.push(respan(quote!(#ty: #p::Node<#src>), ty.span()));
        } else {
            preds.push(respan(
                quote!(for<'__spec_w> #ty: #p::Node<#src>),
                ty.span(),
            ));
            field_checks.push(respan(quote!(#ty: #p::SpecField), ty.span()));
        }
    }

    let spans: Vec<proc_macro2::Span> = cont.fields.iter().map(|f| f.ty.span()).collect();
    let per_field = |f: &dyn Fn(&TokenStream) -> TokenStream| -> Vec<TokenStream> {
        nodes
            .iter()
            .zip(&spans)
            .map(|(n, sp)| respan(f(n), *sp))
            .collect()
    };
    let spaces = per_field(&|n| quote!(#n::Spaces));
    let sources = per_field(&|n| quote!(#n::Sources));
    let mapped = per_field(&|n| quote!(#n::Mapped<__SpecT>));
    let views = per_field(&|n| quote!(#n::Views<'__spec_a>));
    let count = per_field(&|n| quote!(+ #n::LEAVES));
    let leaves_of = per_field(&|n| quote!(#n::Leaves));
    let flat_of = per_field(&|n| quote!(#n::Flat));
    let flat_ref_of = per_field(&|n| quote!(#n::FlatRef<'__spec_a>));
    let flat_mut_of = per_field(&|n| quote!(#n::FlatMut<'__spec_a>));
    let total_of = per_field(&|n| quote!(#n::TOTAL));

    // The flat forms: balanced trees of `Pair`s over the fields.
    let pair_type = |a: TokenStream, b: TokenStream| quote!(#p::Pair<#a, #b>);
    let pair_value = |a: TokenStream, b: TokenStream| quote!(#p::Pair { first: #a, second: #b });
    let flat = balanced(&flat_of, &pair_type, &p);
    let flat_ref = balanced(&flat_ref_of, &pair_type, &p);
    let flat_mut = balanced(&flat_mut_of, &pair_type, &p);
    let leaves = balanced(&leaves_of, &|a, b| quote!(#p::LeafPair<#a, #b>), &p);
    let total = total_of.iter().rev().fold(
        quote!(#p::core::option::Option::Some(0usize)),
        |acc, head| quote!(#p::__add_features(#head, #acc)),
    );

    let names: Vec<String> = cont
        .fields
        .iter()
        .map(|f| f.member.to_string().trim_start_matches("r#").to_string())
        .collect();
    let members: Vec<&syn::Ident> = cont.fields.iter().map(|f| f.member).collect();
    // Each field's statements sit at the field's type, so that an error about the type is the one
    // already reported there, not another at the derive attribute.
    let describe = nodes.iter().zip(&names).zip(&spans).map(|((n, name), sp)| {
        respan(
            quote!(#n::describe_node(__spec_batch, &#p::Path::Field(__spec_path, #name), __spec_out);),
            *sp,
        )
    });
    let checks = nodes
        .iter()
        .zip(&names)
        .zip(&members)
        .zip(&spans)
        .map(|(((n, name), member), sp)| {
            respan(
                quote!(#n::check_node(&self.#member, &#p::Path::Field(__spec_path, #name), __spec_sizes)?;),
                *sp,
            )
        });
    let values = |method: TokenStream, this: TokenStream| -> TokenStream {
        let leaves: Vec<TokenStream> = members
            .iter()
            .zip(&nodes)
            .zip(&spans)
            .map(|((m, n), sp)| {
                let call = respan(quote!(#n::#method), *sp);
                quote!(#call(#this #m))
            })
            .collect();
        balanced(&leaves, &pair_value, &p)
    };
    let flatten = values(quote!(node_flatten), quote!(self.));
    let flatten_ref = values(quote!(node_flatten_ref), quote!(&self.));
    let flatten_mut = values(quote!(node_flatten_mut), quote!(&mut self.));
    // nest: the tree taken apart by one pattern, each field nested from its part.
    let parts: Vec<syn::Ident> = (0..members.len())
        .map(|i| quote::format_ident!("__spec_part{}", i))
        .collect();
    let pattern = balanced(
        &parts.iter().map(|x| quote!(#x)).collect::<Vec<_>>(),
        &pair_value,
        &p,
    );
    let nest_fields =
        members
            .iter()
            .zip(&nodes)
            .zip(&spans)
            .zip(&parts)
            .map(|(((m, n), sp), x)| {
                let call = respan(quote!(#n::node_nest), *sp);
                quote!(#m: #call(#x))
            });
    // The `Node` and `DataSpec` impls carry the field bounds, also for a struct without generics:
    // the impls' items are checked assuming them, so a field whose type is not a spec is the one
    // error of `__spec_fields` at the field, not a second one where the impl's types and
    // signatures combine all the fields. The other impls go
    // without them where the struct has no generics: the compiler checks their items against
    // the concrete field types anyway, and 64 bounds on each of 67 impls was much of the cost of
    // a wide struct (on two impls they cost nothing measurable).
    let where_all = quote!(where #(#preds,)*);
    let nest_mapped = nodes
        .iter()
        .zip(&spans)
        .map(|(n, sp)| respan(quote!(#n::node_nest_mapped(__spec_next),), *sp));
    // Views of some rows, field by field in the generated `<Name>Mapped` struct.
    let mapped_name = quote::format_ident!("{}Mapped", ident);
    let node_views = nodes.iter().zip(&members).zip(&spans).map(|((n, m), sp)| {
        respan(
            quote!(#m: #n::node_views(&self.#m, #p::core::clone::Clone::clone(&__spec_rows)),),
            *sp,
        )
    });
    let flatten_mapped = nodes.iter().enumerate().zip(&spans).map(|((i, n), sp)| {
        let idx = syn::Index::from(i);
        respan(
            quote!(#n::node_flatten_mapped(__spec_mapped.#idx, __spec_visit);),
            *sp,
        )
    });

    let node_generics = with_src_param(cont.generics);
    let (node_impl_generics, _, _) = node_generics.split_for_impl();
    let rest_preds: Vec<TokenStream> = if cont.generics.params.is_empty() {
        Vec::new()
    } else {
        preds.clone()
    };
    let serving = crate::serving::expand(cont, &p, &rest_preds);
    let (mapped_struct, map_impl) = mapped_struct(cont, &p, &rest_preds);

    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types, unused_qualifications, clippy::all)]
        const _: () = {
            use #krate::__private as __spec_p;
            #(#ragged_checks)*
            #[allow(dead_code)]
            fn __spec_fields() where #(#field_checks,)* {}
            #[automatically_derived]
            #[diagnostic::do_not_recommend]
            impl #node_impl_generics #p::Node<__SpecSrc> for #ident #ty_generics #where_all {
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
                #[inline(always)]
                fn node_flatten(self) -> Self::Flat {
                    #flatten
                }
                #[inline(always)]
                fn node_nest(__spec_flat: Self::Flat) -> Self {
                    let #pattern = __spec_flat;
                    Self { #(#nest_fields,)* }
                }
                #[inline(always)]
                fn node_flatten_ref(&self) -> Self::FlatRef<'_> {
                    #flatten_ref
                }
                #[inline(always)]
                fn node_flatten_mut(&mut self) -> Self::FlatMut<'_> {
                    #flatten_mut
                }
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

            #[automatically_derived]
            impl #impl_generics #p::DataSpec for #ident #ty_generics #where_all {}


            #serving

            #map_impl
        };

        #mapped_struct
    }
}

/// The generated struct `<Name>Mapped<..>` (the spec's fields, each of its own type parameter)
/// and the `MapSpec` impl that fills it, field by field.
fn mapped_struct(
    cont: &Container<'_>,
    p: &TokenStream,
    preds: &[TokenStream],
) -> (TokenStream, TokenStream) {
    let ident = cont.ident;
    let vis = cont.vis;
    let name = quote::format_ident!("{}Mapped", ident);
    let mut params: Vec<syn::Ident> = Vec::new();
    for (i, f) in cont.fields.iter().enumerate() {
        let camel: String = f
            .member
            .to_string()
            .trim_start_matches("r#")
            .split('_')
            .filter(|w| !w.is_empty())
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|h| h.to_uppercase().chain(c).collect::<String>())
                    .unwrap_or_default()
            })
            .collect();
        let mut camel = if camel.is_empty() || camel.starts_with(|c: char| c.is_ascii_digit()) {
            format!("F{i}{camel}")
        } else {
            camel
        };
        if params.iter().any(|q| *q == camel) || camel == "Self" {
            camel = format!("{camel}{i}");
        }
        params.push(syn::Ident::new(&camel, proc_macro2::Span::call_site()));
    }
    let members: Vec<&syn::Ident> = cont.fields.iter().map(|f| f.member).collect();
    let field_defs = cont.fields.iter().zip(&params).map(|(f, t)| {
        let fvis = f.vis;
        let member = f.member;
        let docs = &f.docs;
        let fallback = format!(
            "The field `{member}` of [`{ident}`], made into something else (a tensor, a view)."
        );
        if docs.is_empty() {
            quote!(#[doc = #fallback] #fvis #member: #t)
        } else {
            quote!(#(#docs)* #fvis #member: #t)
        }
    });
    let doc = format!(
        "The fields of [`{ident}`], each made into something else: one type parameter per field, \
         in field order. Generated by `#[derive(DataSpec)]`; filled with a framework's tensors by \
         `MapSpec::map_spec` (see the `tensors` module of batchspec), with mutable views of some \
         rows by `Dataset::rows_mut` and `Dataset::sample_mut`, and with views of a projection \
         by `Projection::rows`."
    );
    let mapped_struct = quote! {
        #[doc = #doc]
        #[derive(::core::clone::Clone, ::core::fmt::Debug)]
        // Filled only by the framework adapters: unused fields are not the user's dead code.
        #[allow(dead_code)]
        #vis struct #name<#(#params),*> {
            #(#field_defs,)*
        }
    };

    let mut generics = cont.generics.clone();
    generics
        .params
        .push(syn::parse_quote!(__SpecM: #p::LeafMapper));
    let (impl_generics, _, _) = generics.split_for_impl();
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let tys: Vec<&syn::Type> = cont.fields.iter().map(|f| f.ty).collect();
    let outs: Vec<TokenStream> = tys
        .iter()
        .map(|ty| respan(quote!(<#ty as #p::MapSpec<__SpecM>>::Out), ty.span()))
        .collect();
    let bounds = tys
        .iter()
        .map(|ty| respan(quote!(#ty: #p::MapSpec<__SpecM>), ty.span()));
    let calls = members.iter().zip(&tys).map(|(m, ty)| {
        respan(
            quote!(#m: <#ty as #p::MapSpec<__SpecM>>::map_spec(self.#m, __spec_mapper)?),
            ty.span(),
        )
    });
    let map_impl = quote! {
        #[automatically_derived]
        impl #impl_generics #p::MapSpec<__SpecM> for #ident #ty_generics
        where
            #(#preds,)*
            #(#bounds,)*
        {
            type Out = #name<#(#outs),*>;
            fn map_spec(
                self,
                __spec_mapper: &mut __SpecM,
            ) -> #p::core::result::Result<Self::Out, <__SpecM as #p::LeafMapper>::Error> {
                let _ = &__spec_mapper;
                #p::core::result::Result::Ok(#name { #(#calls,)* })
            }
        }
    };
    // Mutable views of some rows, field by field in the same struct: for every struct whose
    // fields all lend mutably. The bounds are higher-ranked so that a struct whose fields do not
    // (views, say) simply has no impl, rather than an error at its definition.
    let views_mut = tys
        .iter()
        .map(|ty| respan(quote!(<#ty as #p::NodeMut>::ViewsMut<'__spec_a>), ty.span()));
    let mut_bounds = tys
        .iter()
        .map(|ty| respan(quote!(for<'__spec_x> #ty: #p::NodeMut), ty.span()));
    let mut_calls = members.iter().zip(&tys).map(|(m, ty)| {
        respan(
            quote!(#m: <#ty as #p::NodeMut>::node_views_mut(&mut self.#m, #p::core::clone::Clone::clone(&__spec_rows))),
            ty.span(),
        )
    });
    let (plain_impl_generics, _, _) = cont.generics.split_for_impl();
    // Not recommended: a record that cannot lend is reported as itself, in `NodeMut`'s words,
    // without a list of the other records that can.
    let mut_impl = quote! {
        #[automatically_derived]
        #[diagnostic::do_not_recommend]
        impl #plain_impl_generics #p::NodeMut for #ident #ty_generics
        where
            #(#preds,)*
            #(#mut_bounds,)*
        {
            type ViewsMut<'__spec_a> = #name<#(#views_mut),*> where Self: '__spec_a;
            fn node_views_mut(
                &mut self,
                __spec_rows: #p::core::ops::Range<usize>,
            ) -> Self::ViewsMut<'_> {
                let _ = &__spec_rows;
                #name { #(#mut_calls,)* }
            }
        }
    };
    (mapped_struct, quote!(#map_impl #mut_impl))
}

/// The struct's type parameters that are the space of a batch field (`x: Batch<S>`).
fn space_params<'a>(cont: &Container<'a>) -> Vec<&'a syn::Ident> {
    let params: Vec<&syn::Ident> = cont.generics.type_params().map(|t| &t.ident).collect();
    let mut out = Vec::new();
    for f in &cont.fields {
        let syn::Type::Path(path) = f.ty else {
            continue;
        };
        let Some(last) = path.path.segments.last() else {
            continue;
        };
        if !BATCH_TYPES.contains(&last.ident.to_string().as_str()) {
            continue;
        }
        let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
            continue;
        };
        let space = args.args.iter().find_map(|a| match a {
            syn::GenericArgument::Type(syn::Type::Path(t)) if t.qself.is_none() => {
                t.path.get_ident()
            }
            _ => None,
        });
        if let Some(ident) = space
            && let Some(param) = params.iter().find(|p| **p == ident)
            && !out.contains(param)
        {
            out.push(*param);
        }
    }
    out
}

/// Whether `ty` names a type, const or lifetime parameter of `generics`.
fn mentions_params(ty: &syn::Type, generics: &syn::Generics) -> bool {
    use proc_macro2::TokenTree;
    use quote::ToTokens;
    let names: Vec<String> = generics
        .params
        .iter()
        .map(|p| match p {
            syn::GenericParam::Type(t) => t.ident.to_string(),
            syn::GenericParam::Const(c) => c.ident.to_string(),
            syn::GenericParam::Lifetime(l) => l.lifetime.ident.to_string(),
        })
        .collect();
    fn walk(tokens: TokenStream, names: &[String]) -> bool {
        tokens.into_iter().any(|tt| match tt {
            TokenTree::Group(g) => walk(g.stream(), names),
            TokenTree::Ident(i) => names.iter().any(|n| i == n),
            _ => false,
        })
    }
    !names.is_empty() && walk(ty.to_token_stream(), &names)
}

/// The struct's generics plus the source parameter of `Node<__SpecSrc>`.
fn with_src_param(generics: &syn::Generics) -> syn::Generics {
    let mut g = generics.clone();
    g.params.push(syn::parse_quote!(__SpecSrc));
    g
}

/// `items` as a balanced tree built by `pair` (`(A, B), (C, D)`): `HNil` for none, the item
/// itself for one. A derived struct's flat form and its leaf list are shaped so, so that the
/// compiler proves what it needs of them in a number of nested steps logarithmic in the fields.
fn balanced(
    items: &[TokenStream],
    pair: &dyn Fn(TokenStream, TokenStream) -> TokenStream,
    p: &TokenStream,
) -> TokenStream {
    match items {
        [] => quote!(#p::HNil),
        [one] => one.clone(),
        _ => {
            let (left, right) = items.split_at(items.len() / 2);
            pair(balanced(left, pair, p), balanced(right, pair, p))
        }
    }
}

/// Stub impls emitted beside the errors, so that the errors are all the user sees.
pub fn stubs(input: &syn::DeriveInput, krate: Option<syn::Path>) -> TokenStream {
    let krate = krate.unwrap_or_else(default_crate);
    let p = quote!(#krate::__private);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let node_generics = with_src_param(&input.generics);
    let (node_impl_generics, _, _) = node_generics.split_for_impl();
    let stub_serving = crate::serving::stubs(input, &p);
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

/// The space of a field written `Ragged<S>`.
fn ragged_space(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != "Ragged" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    args.args.iter().find_map(|a| match a {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    })
}
