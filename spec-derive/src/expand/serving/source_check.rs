//! The check of a request's batch field against the record: the trait `<Struct>_<field>_source`,
//! implemented for `()` whenever the record has the field's source, whose message says in the
//! field's words that the record lacks it; and the record's leaf of that source, read through it.

use super::context::{FieldCx, Serving};
use crate::check::escape;
use proc_macro2::TokenStream;
use quote::quote;

/// The trait that checks the field's source, with its impl.
pub fn source_check(s: &Serving<'_>, fc: &FieldCx<'_>) -> TokenStream {
    let (p, key) = (s.p, &fc.key);
    let source_trait = fc.trait_name(s, "source");
    let family = fc.family(s);
    let src = escape(&fc.f.source);
    let (fname, sname) = (escape(&fc.field), escape(&s.name));
    // True whichever of the three it is: no field of the source, the source only inside a
    // struct nested in the record, or the source in two fields of the record, none of the
    // field's kind.
    let msg_source = format!("the record `{{R}}` does not serve source \"{src}\"");
    let label_source = format!("field `{fname}` of `{sname}` reads source \"{src}\"");
    let note_source = format!(
        "a record serves the sources of its own batch fields: it needs a batch field of source \"{src}\" (`#[spec(source = \"{src}\")]`, or a field of that name without `#[spec]`); the sources of a struct nested in the record are that struct's (pair the request with it); a source held in two fields is served by kind (an image field to an image, a vector field to a vector), and to none when the two are of one kind; the record comes first, as in `assert_serves::<Record, Request>` and `Provider::<Record, Request>`"
    );
    quote! {
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
        impl<R: #p::HasSourceAs<#key, #family>> #source_trait<R> for () {
            type Space = <R as #p::HasSourceAs<#key, #family>>::Space;
            type Field = <R as #p::HasSourceAs<#key, #family>>::Field;
            type Via = #p::LeafVia<#key, #family>;
        }
    }
}

/// The record's leaf of the field's source, as every gather, fit check and serve reads it.
pub fn source_view(s: &Serving<'_>, fc: &FieldCx<'_>) -> TokenStream {
    let (p, r) = (s.p, &s.r);
    let source_trait = fc.source_trait(s);
    quote!(
        <<() as #source_trait>::Via as #p::SourceOf<#r>>::view(__spec_record)
    )
}

/// The record's space of the field's source.
pub fn source_space(s: &Serving<'_>, fc: &FieldCx<'_>) -> TokenStream {
    let source_trait = fc.source_trait(s);
    quote!(<() as #source_trait>::Space)
}
