//! Code generation: what `#[derive(DataSpec)]` and the type macros write, one file per trait
//! family. [`derive()`] reads the input into the IR (`ast`), runs the checks, and writes either the
//! impls inside one `const _: () = { .. };` block, through the hidden `__private` module (and
//! beside it the `<Name>Mapped` struct and a type per field, `Name·field`), or the errors beside
//! stubs.
//!
//! The files, each importing only the internals and the files below it in this list:
//! `serving/` (the record and request sides, field by field), `node` and `flatten` (the tree of
//! leaves), `mapped` (`<Name>Mapped`, `MapSpec`, `NodeMut`), `bounds` (the where-clauses and the
//! checks at the fields), `stubs`, `type_macros`, and the shared `source` (source types) and
//! `names`.

mod bounds;
mod flatten;
mod mapped;
mod names;
mod node;
mod serving;
mod source;
mod stubs;
pub mod type_macros;

use crate::ast::Container;
use crate::{ast, check, ctxt};
use proc_macro2::TokenStream;
use quote::quote;

/// The expansion of `#[derive(DataSpec)]` on `input`: the impls, or the errors and stubs.
pub fn derive(input: &syn::DeriveInput) -> TokenStream {
    // Read and checked with each field's type in its invisible group (the checks see through
    // it), so that the impls name the types as the user wrote them.
    let wrapped = wrap_field_types(input);
    let cx = ctxt::Ctxt::new();
    let cont = ast::Container::from_ast(&cx, &wrapped);
    if let Some(cont) = &cont {
        check::check(&cx, cont);
    }
    let krate = cont.as_ref().and_then(|c| c.attrs.krate.clone());
    match (cx.check(), cont) {
        // A field type with a `layout!`, `image!` or `volume!` that reports an error is reported
        // where the struct itself expands it, once; the derive adds only stubs (its impls would
        // name the type again, and each copy would repeat the error).
        (Ok(()), Some(_)) if check::has_bad_type_macro(&wrapped) => stubs::stubs(input, krate),
        // A space with too few or too many arguments, or an element type in `Batch`'s storage
        // (`Batch<Vector>`, `Batch<Vector<3072>, f32>`): likewise, the struct's one error.
        (Ok(()), Some(_)) if check::has_type_mistake(&wrapped) => stubs::stubs(input, krate),
        // A space given a layout of another space (`VectorSeq<64, BHWC>`): the struct reports
        // it once, in the core's words. No stubs either: a stub taking `Self` by value makes
        // rustc check the field's type again (uses of the struct as a spec then say it is not
        // one, which is true until the layout is fixed).
        (Ok(()), Some(cont)) if cont.fields.iter().any(|f| check::has_foreign_layout(f.ty)) => {
            TokenStream::new()
        }
        (Ok(()), Some(cont)) => expand(&cont),
        (Err(err), _) => {
            let mut out = err.into_compile_error();
            out.extend(stubs::stubs(input, krate));
            out
        }
        (Ok(()), None) => unreachable_error(input),
    }
}

/// `input` with each field's type in an invisible group (`syn::Type::Group`), which `respan`
/// leaves as the user wrote it: a mistake inside a field's type is then the same error, at the
/// same token, in every generated item that names the type, and rustc reports it once (with
/// the type respanned onto the derive's items, it was once per item, at the field's first token,
/// with suggestions that rewrote the field or the struct's header).
fn wrap_field_types(input: &syn::DeriveInput) -> syn::DeriveInput {
    use syn::spanned::Spanned;
    let mut out = input.clone();
    if let syn::Data::Struct(s) = &mut out.data {
        for f in s.fields.iter_mut() {
            let span = f.ty.span();
            let elem = Box::new(f.ty.clone());
            f.ty = syn::Type::Group(syn::TypeGroup {
                attrs: Vec::new(),
                group_token: syn::token::Group(span),
                elem,
            });
        }
    }
    out
}

fn unreachable_error(input: &syn::DeriveInput) -> TokenStream {
    syn::Error::new_spanned(&input.ident, "`DataSpec` could not read this struct")
        .into_compile_error()
}

/// The impls for a checked struct.
fn expand(cont: &Container<'_>) -> TokenStream {
    let krate = cont
        .attrs
        .krate
        .clone()
        .unwrap_or_else(names::default_crate);
    // The library's items are named through one import at the top of the generated block: the
    // full path at each of the thousands of uses in a wide struct's impls was about a third of
    // the tokens the derive wrote.
    let p = quote!(__spec_p);
    let bounds = bounds::bounds(cont, &p);
    let node = node::impls(cont, &p, &bounds.preds);
    // The impls other than `Node` and `DataSpec` go without the field bounds where the struct has
    // no generics: the compiler checks their items against the concrete field types anyway, and
    // 64 bounds on each of 67 impls was much of the cost of a wide struct (on two impls they cost
    // nothing measurable).
    let rest_preds: Vec<TokenStream> = if cont.generics.params.is_empty() {
        Vec::new()
    } else {
        bounds.preds.clone()
    };
    let (serving, markers) = serving::expand(cont, &p, &rest_preds);
    let (mapped_struct, map_impl) = mapped::mapped(cont, &p, &rest_preds);
    let checks = bounds.checks;
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types, unused_qualifications, clippy::all)]
        const _: () = {
            use #krate::__private as __spec_p;
            #checks
            #node

            #serving

            #map_impl
        };

        #mapped_struct
        #markers
    }
}
