//! The letters of a layout (`layout!(bhwc)`, `layout!("bhwc")`) read into its axes, with unknown
//! and repeated axes reported on the letter. The checks ask it whether a field's `layout!` is a
//! layout; the `layout!` macro writes the axes' types (`expand/type_macros.rs`).

use batchspec_facts::{AXES, AxisFact};
use proc_macro2::{Span, TokenStream};

/// The span of the `i`-th character of the token, where the compiler can give it.
fn char_span(token_span: Span, lit: Option<&syn::LitStr>, i: usize) -> Span {
    if let Some(lit) = lit
        && let Some(s) = lit.token().subspan(1 + i..2 + i)
    {
        return s;
    }
    token_span
}

/// The axes a layout's letters name, in order, or every mistake in them.
pub fn axes(input: TokenStream) -> syn::Result<Vec<&'static AxisFact>> {
    let (text, span, lit) = if let Ok(ident) = syn::parse2::<syn::Ident>(input.clone()) {
        (ident.to_string(), ident.span(), None)
    } else if let Ok(lit) = syn::parse2::<syn::LitStr>(input.clone()) {
        (lit.value(), lit.span(), Some(lit))
    } else {
        return Err(syn::Error::new_spanned(
            input,
            "expected the axis letters of a layout, as in `layout!(bchw)`",
        ));
    };
    // Upper-case letters (`BCHW`, as PyTorch and the prelude's aliases write layouts): one
    // error for the whole layout, saying how to write it, not one per letter.
    let lower = text.to_lowercase();
    if text.chars().any(|c| c.is_ascii_uppercase())
        && !lower.is_empty()
        && lower
            .chars()
            .all(|c| c == 'n' || AXES.iter().any(|a| a.letter == c))
    {
        let letters = lower.replace('n', "b");
        return Err(syn::Error::new(
            span,
            format!(
                "layout letters are lower case: write `layout!({letters})`{}; the prelude's upper-case names (`BCHW`, `BHWC`, ...) are layout types themselves, used without `layout!`",
                if lower.contains('n') {
                    " (PyTorch's `N` is this crate's `b`, the batch axis)"
                } else {
                    ""
                }
            ),
        ));
    }
    let mut errors: Option<syn::Error> = None;
    let mut push = |e: syn::Error| match &mut errors {
        Some(all) => all.combine(e),
        None => errors = Some(e),
    };
    let mut seen: Vec<(char, usize)> = Vec::new();
    let mut axes = Vec::new();
    for (i, ch) in text.chars().enumerate() {
        let here = char_span(span, lit.as_ref(), i);
        match AXES.iter().find(|a| a.letter == ch) {
            None => push(syn::Error::new(
                here,
                format!(
                    "unknown axis `{ch}` in layout `{text}`{}; the axes are {}",
                    if ch == 'n' {
                        " (PyTorch's `n` is this crate's `b`, the batch axis)"
                    } else {
                        ""
                    },
                    AXES.iter()
                        .map(|a| format!("`{}` ({})", a.letter, a.word))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
            Some(fact) => {
                let words = fact.word;
                if let Some((_, first)) = seen.iter().find(|(c, _)| *c == ch) {
                    push(syn::Error::new(
                        here,
                        format!(
                            "axis `{ch}` ({words}) appears twice in layout `{text}`: first at position {}",
                            first + 1
                        ),
                    ));
                } else {
                    seen.push((ch, i));
                    axes.push(fact);
                }
            }
        }
    }
    let n = text.chars().count();
    if n == 0 || n > batchspec_facts::MAX_RANK {
        push(syn::Error::new(
            span,
            format!(
                "a layout has 1 to {} axes; `{text}` has {n}",
                batchspec_facts::MAX_RANK
            ),
        ));
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(axes),
    }
}
