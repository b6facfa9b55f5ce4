//! Serving: the record side (`HasSource`, one impl per source of the struct's batch fields) and
//! the request side (`Reads`, `ServeFrom`, `GatherFrom`, `GatherSame`, `LoadRecord`,
//! `ProjectFrom`, and `ReadField`, `ServeField`, `GatherField` for tuple fields). Each field has a
//! type of its own beside the struct (`Request·x`, `source_check::marker`), which the
//! library's checks of a field (`SourceServedBy`, `ServedWhole`, `LentByProjection`,
//! `LoadedFromFile`, `StepsOfSequences`, `AugmentsFrom`, `MixesLabels`) name in their messages.
//!
//! Each field adds its part to every impl ([`context::Parts`]), in field order: `gather` (its
//! `GatherSame` part), `load`, the errors of `check` that the generated code carries, `project`,
//! then by kind `leaf` (which hands a computed field to `steps`, an augmented or mixed one to
//! `augment`, and uses `source_check`, `collate`, `serve`) or `delegate`. The impls are then
//! written from the parts by `has_source`, `project`, `serve`, `gather` and `load`, in the order
//! of [`expand`].

mod augment;
mod collate;
mod context;
mod delegate;
mod gather;
mod has_source;
mod leaf;
mod load;
mod project;
mod serve;
mod source_check;
mod steps;

use crate::ast::{Container, Kind, kind};
use crate::check;
use context::{FieldCx, Parts, Serving};
use proc_macro2::TokenStream;
use quote::quote;

/// The serving side of a checked struct: its impls, with the bounds `preds` on each (none for a
/// struct without generics), for the derive's block; and the fields' own types (`Request·mask`),
/// for beside the struct, outside the block: rustc writes an item of the block with the block in
/// its path (`b::_::Request·mask`) when its name is not unique in the crate, and one beside the
/// struct as `b::Request·mask`.
pub fn expand(
    cont: &Container<'_>,
    p: &TokenStream,
    preds: &[TokenStream],
) -> (TokenStream, TokenStream) {
    let s = Serving::new(cont, p, preds);
    let mut parts = Parts::default();
    let mut markers = TokenStream::new();
    for f in &cont.fields {
        let fc = FieldCx::new(&s, f);
        markers.extend(source_check::marker(&s, &fc));
        gather::same_field(&s, &fc, &mut parts);
        load::field(&s, &fc, &mut parts);
        // Mistakes the attributes' parser could not see, carried beside the impls.
        for err in [
            check::augment_on_a_batch(f),
            check::collate_on_a_batch(f),
            check::pad_is_a_label(f),
        ]
        .into_iter()
        .flatten()
        {
            parts.error(err);
        }
        project::field(&s, &fc, &mut parts);
        match kind(f.ty) {
            Kind::Leaf => leaf::field(&s, &fc, &mut parts),
            Kind::Tuple => delegate::tuple(&s, &fc, &mut parts),
            Kind::Null => delegate::null(&s, &fc, &mut parts),
            Kind::Nested => delegate::nested(&s, &fc, &mut parts),
        }
    }
    let has_source = has_source::impls(&s);
    let errors = &parts.errors;
    let checks = &parts.checks;
    let impls = [
        project::project_from_impl(&s, &parts),
        serve::reads_impl(&s, &parts),
        serve::serve_from_impl(&s, &parts),
        gather::gather_from_impl(&s, &parts),
        gather::provided_by_impl(&s),
        gather::gather_same_impl(&s, &parts),
        load::load_record_impl(&s, &parts),
        serve::read_field_impl(&s),
        serve::serve_field_impl(&s),
        gather::gather_field_impl(&s),
    ];
    let impls = quote! {
        #has_source
        #errors
        #(#checks)*
        #(#impls)*
    };
    (impls, markers)
}
