//! The collate policy of a batch field (`pad`, `pad_to`, `truncate`): the `Collate` value its
//! gathers and fit checks use, and the check that `pad_to` and `truncate` sit on a sequence space.

use super::context::{FieldCx, Parts, Serving};
use crate::ast::Field;
use crate::respan::respan;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The policy of a sequence field as an expression of `Collate<Elem>`.
fn collate_expr(f: &Field<'_>, p: &TokenStream, to: &TokenStream) -> TokenStream {
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

/// The statement binding the field's policy, and the name it binds. The policy is bound outside
/// the field's span: a pad value of the wrong type is reported at the value itself.
pub fn collate_let(
    s: &Serving<'_>,
    fc: &FieldCx<'_>,
    to: &TokenStream,
) -> (TokenStream, TokenStream) {
    let collate_name = format_ident!("__spec_collate_{}", fc.field);
    let e = collate_expr(fc.f, s.p, to);
    (quote!(let #collate_name = #e;), quote!(#collate_name))
}

/// `check` with the bound that `pad_to` and `truncate` apply to a sequence space only (`pad` also
/// gives the value of padding rows, for any field): the bound sits at the attribute. A struct
/// without generics is checked where it is defined, once, by a function added to the checks.
pub fn with_padded(
    s: &Serving<'_>,
    fc: &FieldCx<'_>,
    to: &TokenStream,
    check: TokenStream,
    parts: &mut Parts,
) -> TokenStream {
    let p = s.p;
    match fc.f.collate.sequence_span() {
        Some(at) if s.cont.generics.params.is_empty() => {
            let padded = respan(quote!(#to: #p::Padded), at);
            let check_fn = format_ident!("__spec_padded_{}", fc.field);
            parts.checks.push(quote! {
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
    }
}
