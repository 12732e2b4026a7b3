//! Error collection: every check runs and every mistake is reported, not just the first.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::TokenStream;
use quote::ToTokens;

/// Collects errors while the attribute is parsed and checked.
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// Records an error on the tokens of `at`.
    pub fn error_spanned_by(&self, at: impl ToTokens, message: impl Display) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(at.into_token_stream(), message));
    }

    /// Records an error on a span.
    pub fn error_at(&self, span: proc_macro2::Span, message: impl Display) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new(span, message));
    }

    /// Records a parse error as it is.
    pub fn syn_error(&self, error: syn::Error) {
        self.errors.borrow_mut().push(error);
    }

    /// Whether anything was recorded so far.
    pub fn has_errors(&self) -> bool {
        !self.errors.borrow().is_empty()
    }

    /// The recorded errors as `compile_error!` invocations; empty when there were none.
    pub fn into_compile_errors(self) -> Option<TokenStream> {
        let errors = self.errors.into_inner();
        if errors.is_empty() {
            return None;
        }
        Some(errors.iter().map(syn::Error::to_compile_error).collect())
    }
}
