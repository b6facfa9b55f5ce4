//! Respanning: generated tokens set to one span of the user's, so that an error about them points
//! at what the user wrote (a field's type, the struct's name, an attribute) and nowhere else. The
//! user's tokens themselves are left as written.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};

/// `tokens` with every span set to `span`, so that an error about them points at `span` alone
/// (a mix of the user's spans and the macro's falls back to the derive attribute).
pub fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|tt| match tt {
            // The user's own tokens (a field's type, wrapped by `derive` in an invisible group)
            // keep their spans: rustc then reports a mistake inside them once, at the token,
            // however many generated items name the type (identical errors are merged).
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => TokenTree::Group(g),
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
