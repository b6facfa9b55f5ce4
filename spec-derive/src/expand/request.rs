//! Code generation for serving: the record side (`HasSource`, one impl per source of the
//! struct's batch fields) and the request side (`Reads`, `ServeFrom`, `GatherFrom`, with one
//! pair of check traits per batch field whose messages name the field and its source in words),
//! and `GatherSame`.
//!
//! A request's batch field is checked by two traits generated here, implemented for `()` with
//! `#[diagnostic::do_not_recommend]`: a failure below them (no such source in the record, or no
//! conversion) is reported as theirs, so the message is the field's, not the library's.

use super::names::{record_param, with_params};
use super::source::source_type;
use crate::ast::{Container, Kind, kind};
use crate::respan::respan;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

/// Text for a `#[diagnostic::on_unimplemented]` string: braces doubled.
fn escape(s: &str) -> String {
    s.replace('{', "{{").replace('}', "}}")
}

/// The serving impls of a checked struct.
pub fn expand(cont: &Container<'_>, p: &TokenStream, preds: &[TokenStream]) -> TokenStream {
    let ident = cont.ident;
    let r_name = {
        let generics = cont.generics;
        let tys = cont.fields.iter().map(|f| f.ty);
        record_param(&quote!(#ident #generics #(#tys)*))
    };
    let name = ident.to_string();
    let r = syn::Ident::new(&r_name, Span::call_site());
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let (impl_generics, _, _) = cont.generics.split_for_impl();
    let r_generics = with_params(cont.generics, &[&r_name]);
    let (r_impl, _, _) = r_generics.split_for_impl();
    let rk_generics = with_params(cont.generics, &[&r_name, "__SpecK"]);
    let (rk_impl, _, _) = rk_generics.split_for_impl();

    let mut out = TokenStream::new();

    // The record side: one `HasSource` per source held by exactly one batch field.
    let leaves: Vec<_> = cont
        .fields
        .iter()
        .filter(|f| kind(f.ty) == Kind::Leaf)
        .collect();
    for f in &leaves {
        if leaves.iter().filter(|g| g.source == f.source).count() > 1 {
            continue;
        }
        let ty = f.ty;
        let member = f.member;
        let key = source_type(p, &f.source);
        let span = ty.span();
        let header = respan(
            quote!(impl #impl_generics #p::HasSource<#key> for #ident #ty_generics),
            ident.span(),
        );
        let bound = respan(quote!(for<'__spec_x> #ty: #p::LeafField), span);
        let space = respan(quote!(<#ty as #p::LeafField>::Space), span);
        let view = respan(
            quote!(<#ty as #p::LeafField>::leaf_field_view(&self.#member)),
            span,
        );
        let view_ty = respan(quote!(#p::SourceView<'_, Self::Space>), span);
        out.extend(quote! {
            #header
            where
                #bound,
                #(#preds,)*
            {
                type Space = #space;
                type Field = #ty;
                #[inline]
                fn source_view(&self) -> #view_ty {
                    #view
                }
                #[inline]
                fn source_field(&self) -> &Self::Field {
                    &self.#member
                }
            }
        });
    }

    // The request side.
    let mut checks = Vec::new();
    let mut read_bounds = Vec::new();
    let mut serve_bounds = Vec::new();
    let mut gather_bounds = Vec::new();
    let mut serve_values = Vec::new();
    let mut gather_steps = Vec::new();
    let mut fit_steps = Vec::new();
    let mut same_bounds = Vec::new();
    let mut same_steps = Vec::new();
    let mut load_bounds = Vec::new();
    let mut load_values = Vec::new();
    let mut mix_steps = Vec::new();
    // Zero-copy projection: the bounds, view types and values of `ProjectFrom`, field by field.
    let (mut project_bounds, mut project_views, mut project_values) =
        (Vec::new(), Vec::new(), Vec::new());
    for f in &cont.fields {
        let ty = f.ty;
        let member = f.member;
        let key = source_type(p, &f.source);
        let field = member.to_string().trim_start_matches("r#").to_string();
        let span = ty.span();
        same_bounds.push(quote_spanned!(span=> for<'__spec_x> #ty: #p::GatherSame));
        // Loading from a file: a nested spec loads as a record, anything else as a field. The
        // bound sits at the field's name, so the note "unsatisfied trait bound introduced here"
        // points at the field that cannot be loaded.
        let load_trait = if kind(ty) == Kind::Nested {
            quote!(#p::LoadRecord)
        } else {
            quote!(#p::LoadField)
        };
        load_bounds.push(respan(
            quote!(for<'__spec_x> #ty: #load_trait),
            member.span(),
        ));
        let load_fn = if kind(ty) == Kind::Nested {
            quote!(load_record)
        } else {
            quote!(load_field)
        };
        load_values.push(respan(
            quote!(#member: <#ty as #load_trait>::#load_fn(__spec_source, __spec_leaves)?),
            span,
        ));
        same_steps.push(respan(
            quote! {
                <#ty as #p::GatherSame>::gather_same(&mut __spec_out.#member, &__spec_from.#member, __spec_rows, __spec_at);
            },
            span,
        ));
        if kind(ty) != Kind::Leaf {
            let at = f.collate.span().or(f.steps_of.as_ref().map(|o| o.span));
            if let Some(at) = f
                .augment
                .as_ref()
                .map(|a| a.0)
                .or(f.mixed_with.as_ref().map(|m| m.0))
            {
                out.extend(
                    syn::Error::new(
                        at,
                        "`augment` and `mixed_with` go on a batch field (`Batch<..>`), not on a tuple or a nested spec",
                    )
                    .to_compile_error(),
                );
            }
            if let Some(at) = at {
                out.extend(
                    syn::Error::new(
                        at,
                        "`pad`, `pad_to`, `truncate`, `lengths_of` and `mask_of` go on a batch field (`Batch<..>` or `Ragged<..>`), not on a tuple or a nested spec",
                    )
                    .to_compile_error(),
                );
            }
        } else if let Some(msg) = pad_label_error(f)
            && let Some((_, expr)) = &f.collate.pad
        {
            out.extend(syn::Error::new_spanned(expr, msg).to_compile_error());
        }
        match kind(ty) {
            Kind::Leaf if f.steps_of.is_none() && f.augment.is_none() && f.mixed_with.is_none() => {
                let (bounds, views, values) =
                    (&mut project_bounds, &mut project_views, &mut project_values);
                let source_trait = format_ident!("{}_{}_source", name, field);
                let field_ty = quote!(<() as #source_trait<#r>>::Field);
                let to = quote!(<#ty as #p::LeafField>::Space);
                bounds.push(respan(
                    quote! {
                        (): #source_trait<#r>,
                        <() as #source_trait<#r>>::Space: #p::LendsAs<#to>,
                        for<'__spec_x> #field_ty: #p::ProjectAs<'__spec_x, #ty>
                    },
                    member.span(),
                ));
                views.push(respan(
                    quote!(<#field_ty as #p::ProjectAs<'__spec_a, #ty>>::View),
                    span,
                ));
                values.push(respan(
                    quote!(#member: <#field_ty as #p::ProjectAs<'_, #ty>>::project(
                        <<() as #source_trait<#r>>::Via as #p::SourceOf<#r>>::field(__spec_record),
                        #p::core::clone::Clone::clone(&__spec_rows),
                    )),
                    span,
                ));
            }
            Kind::Nested => {
                let (bounds, views, values) =
                    (&mut project_bounds, &mut project_views, &mut project_values);
                bounds.push(quote_spanned!(span=> for<'__spec_x> #ty: #p::ProjectFrom<#r>));
                views.push(respan(
                    quote!(<#ty as #p::ProjectFrom<#r>>::Views<'__spec_a>),
                    span,
                ));
                values.push(respan(
                    quote!(#member: <#ty as #p::ProjectFrom<#r>>::project_rows(
                        __spec_record,
                        #p::core::clone::Clone::clone(&__spec_rows),
                    )),
                    span,
                ));
            }
            Kind::Null => {
                let (views, values) = (&mut project_views, &mut project_values);
                views.push(quote!(#p::Null));
                values.push(quote!(#member: #p::Null));
            }
            _ => {
                // A field with nothing of the record's to lend: a bound that never holds, in
                // the field's words.
                {
                    let (bounds, views, values) =
                        (&mut project_bounds, &mut project_views, &mut project_values);
                    let why = if kind(ty) == Kind::Tuple {
                        "is a tuple of batches of one source"
                    } else if f.steps_of.is_some() {
                        "is computed batch by batch"
                    } else if f.augment.is_some() {
                        "is augmented batch by batch"
                    } else {
                        "is mixed batch by batch"
                    };
                    let lend_trait = format_ident!("{}_{}_lend", name, field);
                    let msg = format!(
                        "field `{}` of `{}` {why}: a projection has nothing of the record's to lend for it",
                        escape(&field),
                        escape(&name)
                    );
                    let note =
                        "`Projection::get` and `select` build every field, as a provider does";
                    checks.push(quote! {
                        #[diagnostic::on_unimplemented(message = #msg, label = "nothing to lend for this field", note = #note)]
                        pub trait #lend_trait<R> {
                            type View;
                            fn lend() -> Self::View;
                        }
                        // Never used: it only keeps rustc from calling the trait one without
                        // implementations.
                        #[diagnostic::do_not_recommend]
                        impl<R> #lend_trait<R> for #p::Null {
                            type View = #p::Null;
                            fn lend() -> #p::Null {
                                #p::Null
                            }
                        }
                    });
                    bounds.push(respan(quote!((): #lend_trait<#r>), member.span()));
                    views.push(quote!(<() as #lend_trait<#r>>::View));
                    values.push(quote!(#member: <() as #lend_trait<#r>>::lend()));
                }
            }
        }
        match kind(ty) {
            Kind::Leaf => {
                let source_trait = format_ident!("{}_{}_source", name, field);
                let space_trait = format_ident!("{}_{}_space", name, field);
                // The record's leaf of the field's source, as every gather, fit check and serve
                // below reads it.
                let source_view = quote!(
                    <<() as #source_trait<#r>>::Via as #p::SourceOf<#r>>::view(__spec_record)
                );
                let src = escape(&f.source);
                let (fname, sname) = (escape(&field), escape(&name));
                let msg_source = format!("the record `{{R}}` has no source \"{src}\"");
                let label_source = format!("field `{fname}` of `{sname}` reads source \"{src}\"");
                let note_source = format!(
                    "a request is served by source name: the record needs one batch field of source \"{src}\" (`#[spec(source = \"{src}\")]`, or a field of that name without `#[spec]`); a record that holds a source in two fields serves it to no request"
                );
                let msg_space = format!(
                    "field `{fname}` of `{sname}` asks for source \"{src}\" as `{{To}}`, but the record `{{R}}` holds it as `{{From}}`"
                );
                let label_space = "no conversion from `{From}` to `{To}` exists".to_string();
                let note_space =
                    "see `batchspec::format` for the conversions that exist".to_string();
                let source_check = quote! {
                    #[diagnostic::on_unimplemented(
                        message = #msg_source,
                        label = #label_source,
                        note = #note_source
                    )]
                    pub trait #source_trait<R> {
                        type Space: #p::Space;
                        type Field;
                        type Via: #p::SourceOf<R, Space = Self::Space, Field = Self::Field>;
                    }
                    #[diagnostic::do_not_recommend]
                    impl<R: #p::HasSource<#key>> #source_trait<R> for () {
                        type Space = <R as #p::HasSource<#key>>::Space;
                        type Field = <R as #p::HasSource<#key>>::Field;
                        type Via = #p::LeafVia<#key>;
                    }
                };
                if let Some(of) = &f.steps_of {
                    // A field computed from a sequence source: its lengths or its mask.
                    let steps_trait = format_ident!("{}_{}_steps", name, field);
                    let what = if of.mask { "mask" } else { "lengths" };
                    let msg_steps = format!(
                        "field `{fname}` of `{sname}` asks for the {what} of source \"{src}\", but the record `{{R}}` holds it as `{{From}}`, which has no time axis"
                    );
                    let label_steps = "a source of sequences (`VectorSeq`, `IndexSeq`, `VolumeSeq`, or a `Ragged` of them) has lengths".to_string();
                    // The policy of the sequence field of the same source in this struct.
                    let policy = cont.fields.iter().find(|g| {
                        g.source == f.source && g.steps_of.is_none() && kind(g.ty) == Kind::Leaf
                    });
                    let steps = match policy.and_then(|g| g.collate.pad_to) {
                        Some((_, n)) => quote!(#p::core::option::Option::Some(#n)),
                        None => quote!(#p::core::option::Option::None),
                    };
                    let truncate = policy.is_some_and(|g| g.collate.truncate.is_some());
                    checks.push(quote! {
                        #source_check
                        #[diagnostic::on_unimplemented(message = #msg_steps, label = #label_steps)]
                        pub trait #steps_trait<R, From> {
                            fn gather<__SpecT: #p::GatherSteps>(
                                from: #p::SourceView<'_, From>,
                                rows: &[usize],
                                target: &mut __SpecT,
                            ) -> #p::core::result::Result<(), #p::DataError>
                            where
                                From: #p::Space;
                            fn fits<__SpecT: #p::GatherSteps>(
                                from: #p::SourceView<'_, From>,
                            ) -> #p::core::result::Result<(), #p::DataError>
                            where
                                From: #p::Space;
                        }
                        #[diagnostic::do_not_recommend]
                        impl<R, From: #p::SequenceSpace> #steps_trait<R, From> for () {
                            #[inline]
                            fn gather<__SpecT: #p::GatherSteps>(
                                from: #p::SourceView<'_, From>,
                                rows: &[usize],
                                target: &mut __SpecT,
                            ) -> #p::core::result::Result<(), #p::DataError> {
                                target.gather_steps::<From>(from, rows, #steps, #truncate, <#key as #p::Source>::NAME)
                            }
                            #[inline]
                            fn fits<__SpecT: #p::GatherSteps>(
                                from: #p::SourceView<'_, From>,
                            ) -> #p::core::result::Result<(), #p::DataError> {
                                <__SpecT as #p::GatherSteps>::steps_fit::<From>(&from, #steps, #truncate, <#key as #p::Source>::NAME)
                            }
                        }
                    });
                    let from = quote!(<() as #source_trait<#r>>::Space);
                    let check = respan(
                        quote! {
                            (): #source_trait<#r>,
                            (): #steps_trait<#r, #from>
                        },
                        member.span(),
                    );
                    read_bounds.push(check.clone());
                    let writable = respan(quote!(for<'__spec_x> #ty: #p::GatherSteps), span);
                    gather_bounds.push(quote!(#check, #writable));
                    let (serve_bound, serve_value) = not_served(
                        &mut checks,
                        p,
                        &name,
                        &field,
                        &r,
                        ty,
                        member,
                        "is computed batch by batch",
                    );
                    serve_bounds.push(quote!(#check, #serve_bound));
                    serve_values.push(serve_value);
                    gather_steps.push(respan(
                        quote! {
                            <() as #steps_trait<#r, #from>>::gather(
                                #source_view,
                                __spec_rows,
                                &mut __spec_out.#member,
                            )?;
                        },
                        span,
                    ));
                    fit_steps.push(respan(
                        quote! {
                            <() as #steps_trait<#r, #from>>::fits::<#ty>(
                                #source_view,
                            )?;
                        },
                        span,
                    ));
                    continue;
                }
                if let Some((aug_span, aug_ty)) = &f.augment {
                    if !cont.generics.params.is_empty() {
                        out.extend(
                            syn::Error::new(
                                *aug_span,
                                "a request with generic parameters cannot name an augmentation: its sizes are checked where the request is defined, so give the augmented field a written-out image type",
                            )
                            .to_compile_error(),
                        );
                        continue;
                    }
                    let aug_trait = format_ident!("{}_{}_augment", name, field);
                    let aug_name = escape(&quote!(#aug_ty).to_string().replace(' ', ""));
                    let msg_aug = format!(
                        "field `{fname}` of `{sname}` augments source \"{src}\" with `{aug_name}`, but the record `{{R}}` holds it as `{{From}}`, not as the images `{aug_name}` reads"
                    );
                    let label_aug =
                        format!("`{aug_name}` reads the images of its `Augmentation::Input`");
                    let note_aug = "an augmentation reads its source exactly as the record holds it: make `type Input` the record's space of the source".to_string();
                    checks.push(quote! {
                        #source_check
                        #[diagnostic::on_unimplemented(message = #msg_aug, label = #label_aug, note = #note_aug)]
                        pub trait #aug_trait<R, From, To> {
                            fn gather(
                                from: #p::SourceView<'_, From>,
                                rows: &[usize],
                                zero: #p::core::ops::Range<usize>,
                                target: #p::LeafTarget<'_, To>,
                                draws: #p::Draws<'_>,
                            )
                            where
                                From: #p::Space,
                                To: #p::Space;
                        }
                        #[diagnostic::do_not_recommend]
                        impl<R, To> #aug_trait<R, <#aug_ty as #p::Augmentation>::Input, To> for ()
                        where
                            To: #p::ImageSpace,
                            <<#aug_ty as #p::Augmentation>::Input as #p::Space>::Elem: #p::LosslessCast<<To as #p::Space>::Elem>,
                        {
                            #[inline]
                            fn gather(
                                from: #p::SourceView<'_, <#aug_ty as #p::Augmentation>::Input>,
                                rows: &[usize],
                                zero: #p::core::ops::Range<usize>,
                                target: #p::LeafTarget<'_, To>,
                                draws: #p::Draws<'_>,
                            ) {
                                #p::gather_augmented::<#aug_ty, To>(from, rows, zero, target, draws)
                            }
                        }
                    });
                    let to = respan(quote!(<#ty as #p::LeafField>::Space), span);
                    // Checked once where the request is defined: sizes, channels, element.
                    let fname_lit = field.clone();
                    checks.push(respan(quote! {
                        const _: () = match #p::check_augment::<#aug_ty, #to>(#fname_lit) {
                            #p::core::result::Result::Ok(()) => (),
                            #p::core::result::Result::Err(m) => #p::core::panic!("{}", m.as_str()),
                        };
                    }, *aug_span));
                    let from = quote!(<() as #source_trait<#r>>::Space);
                    let check = respan(
                        quote! {
                            (): #source_trait<#r>,
                            (): #aug_trait<#r, #from, #to>
                        },
                        member.span(),
                    );
                    read_bounds.push(check.clone());
                    let writable = respan(quote!(for<'__spec_x> #ty: #p::LeafMut<#to>), span);
                    gather_bounds.push(quote!(#check, #writable));
                    let (serve_bound, serve_value) = not_served(
                        &mut checks,
                        p,
                        &name,
                        &field,
                        &r,
                        ty,
                        member,
                        "is augmented batch by batch",
                    );
                    serve_bounds.push(quote!(#check, #serve_bound));
                    serve_values.push(serve_value);
                    gather_steps.push(respan(
                        quote! {
                            <() as #aug_trait<#r, #from, #to>>::gather(
                                #source_view,
                                __spec_rows,
                                #p::core::clone::Clone::clone(&__spec_zero),
                                #p::LeafMut::<#to>::leaf_mut(&mut __spec_out.#member),
                                __spec_draws,
                            );
                        },
                        span,
                    ));
                    continue;
                }
                if let Some((mix_span, mix_src)) = &f.mixed_with {
                    let partner = cont
                        .fields
                        .iter()
                        .find(|g| &g.source == mix_src && g.augment.is_some());
                    match partner.and_then(|g| g.augment.as_ref()) {
                        None => out.extend(
                            syn::Error::new(
                                *mix_span,
                                format!("`mixed_with = \"{}\"` names a source that no augmented field of `{}` reads: mix labels with the source of a field with `augment = ..` whose steps mix samples", escape(mix_src), sname),
                            )
                            .to_compile_error(),
                        ),
                        Some((_, aug_ty)) => {
                            let to = respan(quote!(<#ty as #p::LeafField>::Space), span);
                            let fname_lit = field.clone();
                            let src_lit = mix_src.clone();
                            checks.push(respan(quote! {
                                const _: () = match #p::check_mixed::<#aug_ty>(#fname_lit, #src_lit) {
                                    #p::core::result::Result::Ok(()) => (),
                                    #p::core::result::Result::Err(m) => #p::core::panic!("{}", m.as_str()),
                                };
                            }, *mix_span));
                            // Checked once where the request is defined (a bound the struct's
                            // impls would repeat at every use); the gather goes through a trait of
                            // the field, generic in the record.
                            let mix_trait = format_ident!("{}_{}_mix", name, field);
                            checks.push(respan(
                                quote! {
                                    const _: () = {
                                        const fn mixed_labels_are_one_hot<L: #p::MixLabels>() {}
                                        mixed_labels_are_one_hot::<#to>();
                                    };
                                },
                                *mix_span,
                            ));
                            checks.push(quote! {
                                pub trait #mix_trait<R, L: #p::Space> {
                                    fn mix(labels: #p::LeafTarget<'_, L>, rows: &[usize], draws: #p::Draws<'_>);
                                }
                                #[diagnostic::do_not_recommend]
                                impl<R, L: #p::MixLabels> #mix_trait<R, L> for () {
                                    #[inline]
                                    fn mix(labels: #p::LeafTarget<'_, L>, rows: &[usize], draws: #p::Draws<'_>) {
                                        #p::mix_labels::<#aug_ty, L>(labels, rows, draws)
                                    }
                                }
                            });
                            gather_bounds.push(respan(quote!((): #mix_trait<#r, #to>), member.span()));
                            mix_steps.push(respan(
                                quote! {
                                    <() as #mix_trait<#r, #to>>::mix(
                                        #p::LeafMut::<#to>::leaf_mut(&mut __spec_out.#member),
                                        __spec_rows,
                                        __spec_draws,
                                    );
                                },
                                span,
                            ));
                        }
                    }
                }
                checks.push(quote! {
                    #source_check
                    #[diagnostic::on_unimplemented(
                        message = #msg_space,
                        label = #label_space,
                        note = #note_space
                    )]
                    pub trait #space_trait<R, From, To> {
                        type Via: #p::LeafConvert<From, To>;
                    }
                    #[diagnostic::do_not_recommend]
                    impl<R, From: #p::FormatAs<To>, To: #p::Space> #space_trait<R, From, To> for () {
                        type Via = #p::LeafVia<#key>;
                    }
                });
                let from = quote!(<() as #source_trait<#r>>::Space);
                let to = respan(quote!(<#ty as #p::LeafField>::Space), span);
                // The field's conversion, named through the per-field trait that words a space
                // mismatch.
                let convert = quote!(<<() as #space_trait<#r, #from, #to>>::Via as #p::LeafConvert<#from, #to>>);
                // At the field's name: the note "unsatisfied trait bound introduced here" then
                // points at the request's field.
                let check = respan(
                    quote! {
                        (): #source_trait<#r>,
                        (): #space_trait<#r, #from, #to>
                    },
                    member.span(),
                );
                // `pad_to` and `truncate` apply to a sequence space only (`pad` also gives the
                // value of padding rows, for any field): the bound sits at the attribute.
                let check = match f.collate.sequence_span() {
                    // A struct without generics is checked where it is defined, once.
                    Some(at) if cont.generics.params.is_empty() => {
                        let padded = respan(quote!(#to: #p::Padded), at);
                        let check_fn = format_ident!("__spec_padded_{}", field);
                        checks.push(quote! {
                            #[allow(non_snake_case, dead_code)]
                            fn #check_fn() where #padded {}
                        });
                        check
                    }
                    Some(at) => {
                        let padded = respan(quote!(#to: #p::Padded), at);
                        quote!(#check, #padded)
                    }
                    None => check,
                };
                read_bounds.push(check.clone());
                let shared = respan(quote!(for<'__spec_x> #ty: #p::FromShared<#to>), span);
                let writable = respan(quote!(for<'__spec_x> #ty: #p::GatherInto<#to>), span);
                gather_bounds.push(quote!(#check, #writable));
                // The policy is bound outside the field's span: a pad value of the wrong type is
                // reported at the value itself.
                let collate_name = format_ident!("__spec_collate_{}", field);
                let collate_let = {
                    let e = collate_expr(f, p, &to);
                    quote!(let #collate_name = #e;)
                };
                let collate = quote!(#collate_name);
                if f.mixed_with.is_some() {
                    let (serve_bound, serve_value) = not_served(
                        &mut checks,
                        p,
                        &name,
                        &field,
                        &r,
                        ty,
                        member,
                        "is mixed batch by batch",
                    );
                    serve_bounds.push(quote!(#check, #serve_bound));
                    serve_values.push(serve_value);
                } else if f.collate.span().is_some() {
                    let (serve_bound, serve_value) = not_served(
                        &mut checks,
                        p,
                        &name,
                        &field,
                        &r,
                        ty,
                        member,
                        "has a collate policy (`pad`, `pad_to` or `truncate`), applied batch by batch",
                    );
                    serve_bounds.push(quote!(#check, #serve_bound));
                    serve_values.push(serve_value);
                } else {
                    serve_bounds.push(quote!(#check, #shared));
                    serve_values.push(respan(
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
                gather_steps.push(collate_let.clone());
                gather_steps.push(respan(
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
                fit_steps.push(collate_let);
                fit_steps.push(respan(
                    quote! {
                        #convert::fits(
                            #source_view,
                            #collate,
                        )?;
                    },
                    span,
                ));
            }
            Kind::Tuple => {
                read_bounds
                    .push(quote_spanned!(span=> for<'__spec_x> #ty: #p::ReadField<#r, #key>));
                serve_bounds
                    .push(quote_spanned!(span=> for<'__spec_x> #ty: #p::ServeField<#r, #key>));
                gather_bounds
                    .push(quote_spanned!(span=> for<'__spec_x> #ty: #p::GatherField<#r, #key>));
                serve_values.push(respan(quote! {
                    #member: <#ty as #p::ServeField<#r, #key>>::serve_field(__spec_record, __spec_cache)
                }, span));
                gather_steps.push(respan(
                    quote! {
                        <#ty as #p::GatherField<#r, #key>>::gather_field(
                            &mut __spec_out.#member,
                            __spec_record,
                            __spec_rows,
                            #p::core::clone::Clone::clone(&__spec_zero),
                            __spec_draws,
                        )?;
                    },
                    span,
                ));
                fit_steps.push(respan(
                    quote! {
                        <#ty as #p::GatherField<#r, #key>>::check_field(__spec_record)?;
                    },
                    span,
                ));
            }
            Kind::Null => {
                serve_values.push(quote!(#member: #p::Null));
            }
            Kind::Nested => {
                read_bounds.push(quote_spanned!(span=> for<'__spec_x> #ty: #p::Reads<#r>));
                serve_bounds.push(quote_spanned!(span=> for<'__spec_x> #ty: #p::ServeFrom<#r>));
                gather_bounds.push(quote_spanned!(span=> for<'__spec_x> #ty: #p::GatherFrom<#r>));
                serve_values.push(respan(
                    quote! {
                        #member: <#ty as #p::ServeFrom<#r>>::serve_from(__spec_record, __spec_cache)
                    },
                    span,
                ));
                gather_steps.push(respan(
                    quote! {
                        <#ty as #p::GatherFrom<#r>>::gather_from(
                            &mut __spec_out.#member,
                            __spec_record,
                            __spec_rows,
                            #p::core::clone::Clone::clone(&__spec_zero),
                            __spec_draws,
                        )?;
                    },
                    span,
                ));
                fit_steps.push(respan(
                    quote! {
                        <#ty as #p::GatherFrom<#r>>::check_fits(__spec_record)?;
                    },
                    span,
                ));
            }
        }
    }

    out.extend(quote!(#(#checks)*));
    {
        let (bounds, views, values) = (project_bounds, project_views, project_values);
        let mapped = format_ident!("{}Mapped", ident);
        let h_project = respan(
            quote!(impl #r_impl #p::ProjectFrom<#r> for #ident #ty_generics),
            ident.span(),
        );
        out.extend(quote! {
            #h_project
            where
                #(#preds,)*
                #(#bounds,)*
            {
                type Views<'__spec_a> = #mapped<#(#views),*> where #r: '__spec_a;
                fn project_rows(
                    __spec_record: &#r,
                    __spec_rows: #p::core::ops::Range<usize>,
                ) -> Self::Views<'_> {
                    let _ = (&__spec_record, &__spec_rows);
                    #mapped { #(#values,)* }
                }
            }
        });
    }
    // The headers sit at the struct's name, not at the derive attribute: rustc then reports a
    // bound of these impls as the struct's own ("required for `Request` to implement
    // `Reads<Dataset>`"), without its hints for derived impls. Tokens that name a field's type sit
    // at that type, so an error about the type is the one already reported there.
    let h_reads = respan(
        quote!(impl #r_impl #p::Reads<#r> for #ident #ty_generics),
        ident.span(),
    );
    let h_serve = respan(
        quote!(impl #r_impl #p::ServeFrom<#r> for #ident #ty_generics),
        ident.span(),
    );
    let h_gather = respan(
        quote!(impl #r_impl #p::GatherFrom<#r> for #ident #ty_generics),
        ident.span(),
    );
    let h_same = respan(
        quote!(impl #impl_generics #p::GatherSame for #ident #ty_generics),
        ident.span(),
    );
    let h_load = respan(
        quote!(impl #impl_generics #p::LoadRecord for #ident #ty_generics),
        ident.span(),
    );
    let h_read_field = respan(
        quote!(impl #rk_impl #p::ReadField<#r, __SpecK> for #ident #ty_generics),
        ident.span(),
    );
    let h_serve_field = respan(
        quote!(impl #rk_impl #p::ServeField<#r, __SpecK> for #ident #ty_generics),
        ident.span(),
    );
    let h_gather_field = respan(
        quote!(impl #rk_impl #p::GatherField<#r, __SpecK> for #ident #ty_generics),
        ident.span(),
    );
    let impls = quote! {
        #h_reads
        where
            // Not checked here when the struct has no generics: a field that is not a node is
            // reported once, on the `Node` impl.
            for<'__spec_x> Self: #p::DataSpec,
            #(#preds,)*
            #(#read_bounds,)*
        {
        }

        #h_serve
        where
            // Not checked here when the struct has no generics: a field that is not a node is
            // reported once, on the `Node` impl.
            for<'__spec_x> Self: #p::DataSpec,
            #(#preds,)*
            #(#serve_bounds,)*
        {
            fn serve_from(__spec_record: &#r, __spec_cache: &mut #p::ServeCache) -> Self {
                let _ = (&__spec_record, &__spec_cache);
                Self { #(#serve_values,)* }
            }
        }

        #h_gather
        where
            // Not checked here when the struct has no generics: a field that is not a node is
            // reported once, on the `Node` impl.
            for<'__spec_x> Self: #p::DataSpec,
            #(#preds,)*
            #(#gather_bounds,)*
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

        #h_same
        where
            #(#preds,)*
            #(#same_bounds,)*
        {
            fn gather_same(
                __spec_out: &mut Self,
                __spec_from: &Self,
                __spec_rows: &[usize],
                __spec_at: usize,
            ) {
                let _ = (&__spec_out, &__spec_from, &__spec_rows, &__spec_at);
                #(#same_steps)*
            }
        }

        #h_load
        where
            for<'__spec_x> Self: #p::DataSpec,
            #(#preds,)*
            #(#load_bounds,)*
        {
            fn load_record<__SpecL: #p::LeafSource>(
                __spec_source: &mut __SpecL,
                __spec_leaves: &mut #p::core::slice::Iter<'_, #p::Described>,
            ) -> #p::core::result::Result<Self, __SpecL::Error> {
                let _ = (&__spec_source, &__spec_leaves);
                #p::core::result::Result::Ok(Self { #(#load_values,)* })
            }
        }

        #h_read_field
        where
            for<'__spec_x> Self: #p::Reads<#r>,
            #(#preds,)*
        {
        }

        #h_serve_field
        where
            for<'__spec_x> Self: #p::ServeFrom<#r>,
            #(#preds,)*
        {
            fn serve_field(__spec_record: &#r, __spec_cache: &mut #p::ServeCache) -> Self {
                <Self as #p::ServeFrom<#r>>::serve_from(__spec_record, __spec_cache)
            }
        }

        #h_gather_field
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
    };
    out.extend(impls);
    out
}

/// The policy of a sequence field as an expression of `Collate<Elem>`.
fn collate_expr(f: &crate::ast::Field<'_>, p: &TokenStream, to: &TokenStream) -> TokenStream {
    let c = &f.collate;
    if c.span().is_none() {
        return quote!(&#p::Collate::DEFAULT);
    }
    // The pad value keeps its own tokens: a value of the wrong type is reported at it.
    let pad = match &c.pad {
        Some((_, expr)) => quote!(#expr),
        None => quote!(<<#to as #p::Space>::Elem as #p::Element>::ZERO),
    };
    let steps = match c.pad_to {
        Some((_, n)) => quote!(#p::core::option::Option::Some(#n)),
        None => quote!(#p::core::option::Option::None),
    };
    let truncate = c.truncate.is_some();
    quote!(&#p::Collate::<<#to as #p::Space>::Elem> { pad: #pad, steps: #steps, truncate: #truncate })
}

/// A bound that no impl satisfies, with a message naming the field, and the value it would
/// give: `serve` builds whole sources, and this field is made batch by batch.
#[allow(clippy::too_many_arguments)]
fn not_served(
    checks: &mut Vec<TokenStream>,
    p: &TokenStream,
    name: &str,
    field: &str,
    r: &syn::Ident,
    ty: &syn::Type,
    member: &syn::Ident,
    why: &str,
) -> (TokenStream, TokenStream) {
    let serve_trait = format_ident!("{}_{}_serve", name, field);
    let msg = format!(
        "field `{}` of `{}` {why}: `serve` cannot build it",
        escape(field),
        escape(name)
    );
    let note =
        "`serve` gives whole sources; a provider or a dataset selection collates batch by batch"
            .to_string();
    checks.push(quote! {
        #[diagnostic::on_unimplemented(message = #msg, note = #note)]
        pub trait #serve_trait<R> {
            fn serve_value<T>() -> T;
        }
        // Never used: it only keeps rustc from calling the trait one without implementations.
        #[diagnostic::do_not_recommend]
        impl<R> #serve_trait<R> for #p::Null {
            fn serve_value<T>() -> T {
                #p::core::unreachable!()
            }
        }
    });
    (
        respan(quote!((): #serve_trait<#r>), member.span()),
        quote!(#member: <() as #serve_trait<#r>>::serve_value::<#ty>()),
    )
}

/// The space and number of labels `M` of a field written `Batch<IndexSeq<M, ..>>` or
/// `Batch<Labels<M, ..>>` (or `Ragged<..>`, `ArcBatch<..>`) with `M` a literal.
fn index_seq_labels(ty: &syn::Type) -> Option<(String, u128)> {
    fn first_type(seg: &syn::PathSegment) -> Option<&syn::Type> {
        let syn::PathArguments::AngleBracketed(args) = &seg.arguments else {
            return None;
        };
        args.args.iter().find_map(|a| match a {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        })
    }
    let syn::Type::Path(batch) = ty else {
        return None;
    };
    let space = first_type(batch.path.segments.last()?)?;
    let syn::Type::Path(space) = space else {
        return None;
    };
    let seg = space.path.segments.last()?;
    if seg.ident != "IndexSeq" && seg.ident != "Labels" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &seg.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Const(syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(n),
            ..
        })) => Some((seg.ident.to_string(), n.base10_parse().ok()?)),
        syn::GenericArgument::Type(syn::Type::Path(t)) => {
            // A literal parses as a type path only if it is an identifier: not a number.
            let _ = t;
            None
        }
        _ => None,
    }
}

/// The error of a pad value that is not a label of the field's index space (`IndexSeq<N>` or
/// `Labels<N>`), when both are literals.
fn pad_label_error(f: &crate::ast::Field<'_>) -> Option<String> {
    let (_, expr) = f.collate.pad.as_ref()?;
    let (space, labels) = index_seq_labels(f.ty)?;
    let (negative, lit) = match expr {
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => (true, &*u.expr),
        e => (false, e),
    };
    let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Int(n),
        ..
    }) = lit
    else {
        return None;
    };
    let value: u128 = n.base10_parse().ok()?;
    (negative && value > 0 || value >= labels).then(|| {
        format!(
            "pad value {}{value} is not a label of `{space}<{labels}>`: its labels are 0..{labels}",
            if negative { "-" } else { "" }
        )
    })
}
