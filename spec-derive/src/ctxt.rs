//! The error context: every check records its errors here, and they are reported together. Like
//! serde's, it panics if it is dropped without [`Ctxt::check`]: a forgotten check is a bug that
//! the tests catch, not errors silently lost.

use std::cell::RefCell;

/// Collects errors so that one run of the macro reports all of them.
pub struct Ctxt {
    /// `None` once [`Ctxt::check`] has taken them.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    /// A context without errors, to be checked before it is dropped.
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records an error spanned on `tokens`.
    pub fn error_spanned_by<T: quote::ToTokens, M: std::fmt::Display>(&self, tokens: T, msg: M) {
        self.syn_error(syn::Error::new_spanned(tokens, msg));
    }

    /// Records a ready error.
    pub fn syn_error(&self, err: syn::Error) {
        // Always `Some`: only `check`, which takes the context, takes the errors.
        if let Some(errors) = self.errors.borrow_mut().as_mut() {
            errors.push(err);
        }
    }

    /// All errors combined into one, or `Ok` if there were none.
    pub fn check(self) -> syn::Result<()> {
        let errors = self.errors.borrow_mut().take().unwrap_or_default();
        let mut errors = errors.into_iter();
        let Some(mut first) = errors.next() else {
            return Ok(());
        };
        for e in errors {
            first.combine(e);
        }
        Err(first)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("a `Ctxt` was dropped without `check()`: its errors would be lost");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Ctxt;
    use proc_macro2::Span;

    #[test]
    fn check_reports_every_error_in_order() {
        let cx = Ctxt::new();
        cx.syn_error(syn::Error::new(Span::call_site(), "first"));
        cx.error_spanned_by(quote::quote!(x), "second");
        let messages: Vec<String> = cx
            .check()
            .expect_err("two errors")
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(messages, ["first", "second"]);
    }

    #[test]
    fn a_checked_context_without_errors_is_ok() {
        assert!(Ctxt::new().check().is_ok());
    }

    #[test]
    #[should_panic(expected = "dropped without `check()`")]
    fn a_context_dropped_unchecked_panics() {
        let cx = Ctxt::new();
        cx.syn_error(syn::Error::new(Span::call_site(), "lost"));
        drop(cx);
    }
}
