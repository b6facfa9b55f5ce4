//! What the generators of the serving side share: the struct and the record parameter every impl
//! names ([`Serving`]), one field's names ([`FieldCx`]), and what the fields add to the impls,
//! field by field ([`Parts`]).

use crate::ast::{Container, Field};
use crate::expand::names::{record_param, with_params};
use crate::expand::source::source_type;
use crate::respan::respan;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;

/// The struct and the names every impl of the serving side uses.
pub struct Serving<'a> {
    pub cont: &'a Container<'a>,
    /// The path to the library's items (`__spec_p`).
    pub p: &'a TokenStream,
    /// The bounds every impl carries (none for a struct without generics).
    pub preds: &'a [TokenStream],
    /// The record's type parameter: `R` unless the struct uses the name.
    pub r: syn::Ident,
    /// Its name.
    pub r_name: String,
    /// The struct's name, as the fields' own types write it.
    pub name: String,
}

impl<'a> Serving<'a> {
    pub fn new(cont: &'a Container<'a>, p: &'a TokenStream, preds: &'a [TokenStream]) -> Self {
        let ident = cont.ident;
        let r_name = {
            let generics = cont.generics;
            let tys = cont.fields.iter().map(|f| f.ty);
            record_param(&quote!(#ident #generics #(#tys)*))
        };
        Serving {
            cont,
            p,
            preds,
            r: syn::Ident::new(&r_name, Span::call_site()),
            r_name,
            name: ident.to_string(),
        }
    }

    /// The struct's generics plus the record parameter and then `extra`.
    pub fn generics_with(&self, extra: &[&str]) -> syn::Generics {
        let mut params = vec![self.r_name.as_str()];
        params.extend_from_slice(extra);
        with_params(self.cont.generics, &params)
    }

    /// The header of an impl of `tr` for the struct, with `generics`. Headers sit at the struct's
    /// name, not at the derive attribute: rustc then reports a bound of these impls as the
    /// struct's own ("required for `Request` to implement `Reads<Dataset>`"), without its hints
    /// for derived impls.
    pub fn header(&self, generics: &syn::Generics, tr: TokenStream) -> TokenStream {
        let ident = self.cont.ident;
        let (impl_generics, _, _) = generics.split_for_impl();
        let (_, ty_generics, _) = self.cont.generics.split_for_impl();
        // The generic parameters keep their spans: at the struct's name, rustc would suggest
        // adding a missing type there (`struct Request, NCHW {`) for a name a field's type lacks.
        let head = respan(quote!(impl), ident.span());
        let rest = respan(quote!(#tr for #ident #ty_generics), ident.span());
        quote!(#head #impl_generics #rest)
    }
}

/// One field, as the serving side names it.
pub struct FieldCx<'a> {
    pub f: &'a Field<'a>,
    pub ty: &'a syn::Type,
    pub member: &'a syn::Ident,
    /// The type of the field's source.
    pub key: TokenStream,
    /// The field's name without `r#`.
    pub field: String,
    /// The span of the field's type: tokens that name the type sit there, so that an error about
    /// the type is the one already reported there.
    pub span: Span,
}

impl<'a> FieldCx<'a> {
    pub fn new(s: &Serving<'_>, f: &'a Field<'a>) -> Self {
        FieldCx {
            f,
            ty: f.ty,
            member: f.member,
            key: source_type(s.p, &f.source),
            field: f.member.to_string().trim_start_matches("r#").to_string(),
            span: f.ty.span(),
        }
    }

    /// The field's own type, which the derive writes beside the struct: `Request·mask`, the
    /// struct's and the field's names joined by a middle dot (a character of identifiers), so
    /// that the library's checks of the field name it in rustc's messages as it reads. No name a
    /// user writes has the dot, so the type clashes with none. At the derive's span: rustc's
    /// `non_ascii_idents` lint, which a crate may deny, then leaves it alone as the macro's own.
    pub fn marker_ident(&self, s: &Serving<'_>) -> syn::Ident {
        syn::Ident::new(
            &format!("{}\u{b7}{}", s.name.trim_start_matches("r#"), self.field),
            Span::call_site(),
        )
    }

    /// The field's own type as the impls name it, in an invisible group that `respan` leaves at
    /// the derive's span.
    pub fn marker(&self, s: &Serving<'_>) -> TokenStream {
        let ident = self.marker_ident(s);
        TokenStream::from(proc_macro2::TokenTree::Group(proc_macro2::Group::new(
            proc_macro2::Delimiter::None,
            quote!(#ident),
        )))
    }

    /// The bound that the record serves the field's source: `Request·mask: SourceServedBy<R>`.
    pub fn source_bound(&self, s: &Serving<'_>) -> TokenStream {
        let (p, r, marker) = (s.p, &s.r, self.marker(s));
        quote!(#marker: #p::SourceServedBy<#r>)
    }

    /// The record's source of the field, as a path to its items:
    /// `<Request·mask as SourceServedBy<R>>`.
    pub fn source_as(&self, s: &Serving<'_>) -> TokenStream {
        let (p, r, marker) = (s.p, &s.r, self.marker(s));
        quote!(<#marker as #p::SourceServedBy<#r>>)
    }

    /// The family (`Space::Form`) of the field's space, which chooses the record's field when
    /// the record holds the source in fields of different families; `()` (a source held by one
    /// field) when the field's type names the struct's generic parameters, which the per-field
    /// trait's impl cannot name.
    pub fn family(&self, s: &Serving<'_>) -> TokenStream {
        let (p, ty) = (s.p, self.ty);
        let params: Vec<String> = s
            .cont
            .generics
            .params
            .iter()
            .map(|g| match g {
                syn::GenericParam::Type(t) => t.ident.to_string(),
                syn::GenericParam::Lifetime(l) => l.lifetime.ident.to_string(),
                syn::GenericParam::Const(c) => c.ident.to_string(),
            })
            .collect();
        fn mentions(ts: TokenStream, params: &[String]) -> bool {
            ts.into_iter().any(|t| match t {
                proc_macro2::TokenTree::Ident(i) => params.contains(&i.to_string()),
                proc_macro2::TokenTree::Group(g) => mentions(g.stream(), params),
                _ => false,
            })
        }
        if mentions(quote!(#ty), &params) {
            quote!(())
        } else {
            respan(quote!(#p::FamilyOf<#ty>), self.span)
        }
    }
}

/// What the fields add to the serving side's impls, each list in field order.
#[derive(Default)]
pub struct Parts {
    /// Errors the generated code carries beside the impls.
    pub errors: TokenStream,
    /// Items that check a field in its own words: traits, constants, functions.
    pub checks: Vec<TokenStream>,
    /// The bounds of `Reads`, `ServeFrom` and `GatherFrom`.
    pub read_bounds: Vec<TokenStream>,
    pub serve_bounds: Vec<TokenStream>,
    pub gather_bounds: Vec<TokenStream>,
    /// The fields of `serve_from`'s value.
    pub serve_values: Vec<TokenStream>,
    /// The statements of `gather_from`, `check_fits`, and the mixing after the gathers.
    pub gather_steps: Vec<TokenStream>,
    pub fit_steps: Vec<TokenStream>,
    pub mix_steps: Vec<TokenStream>,
    /// `GatherSame`: its bounds and statements.
    pub same_bounds: Vec<TokenStream>,
    pub same_steps: Vec<TokenStream>,
    /// `LoadRecord`: its bounds and the fields of its value.
    pub load_bounds: Vec<TokenStream>,
    pub load_values: Vec<TokenStream>,
    /// `ProjectFrom`: its bounds, the view types and the fields of its value.
    pub project_bounds: Vec<TokenStream>,
    pub project_views: Vec<TokenStream>,
    pub project_values: Vec<TokenStream>,
}

impl Parts {
    /// Adds an error to those the generated code carries.
    pub fn error(&mut self, err: syn::Error) {
        self.errors.extend(err.to_compile_error());
    }
}
