//! Error collection: every check runs and every mistake is reported, not just the first.
//!
//! Errors are reported in source order: each carries the position of the `#[tool(...)]` entry it
//! is about (set with [`Ctxt::at`]), and errors about the item itself come after the attribute's.

use std::cell::{Cell, RefCell};
use std::fmt::Display;

use proc_macro2::TokenStream;
use quote::ToTokens;

/// Collects errors while the attribute is parsed and checked.
pub struct Ctxt {
    errors: RefCell<Vec<(usize, syn::Error)>>,
    position: Cell<usize>,
}

impl Default for Ctxt {
    fn default() -> Self {
        Ctxt {
            errors: RefCell::new(Vec::new()),
            position: Cell::new(usize::MAX),
        }
    }
}

impl Ctxt {
    /// Runs `f` with errors placed at `position` (an entry's index in `#[tool(...)]`).
    pub fn at<R>(&self, position: usize, f: impl FnOnce() -> R) -> R {
        let outer = self.position.replace(position);
        let result = f();
        self.position.set(outer);
        result
    }

    /// The position new errors are placed at.
    pub fn position(&self) -> usize {
        self.position.get()
    }

    /// Records an error on the tokens of `at`.
    pub fn error_spanned_by(&self, at: impl ToTokens, message: impl Display) {
        self.syn_error(syn::Error::new_spanned(at.into_token_stream(), message));
    }

    /// Records an error on a span.
    pub fn error_at(&self, span: proc_macro2::Span, message: impl Display) {
        self.syn_error(syn::Error::new(span, message));
    }

    /// Records a parse error as it is.
    pub fn syn_error(&self, error: syn::Error) {
        self.errors.borrow_mut().push((self.position(), error));
    }

    /// Whether anything was recorded so far.
    pub fn has_errors(&self) -> bool {
        !self.errors.borrow().is_empty()
    }

    /// The recorded errors as `compile_error!` invocations, in source order; `None` when there
    /// were none.
    pub fn into_compile_errors(self) -> Option<TokenStream> {
        let mut errors = self.errors.into_inner();
        if errors.is_empty() {
            return None;
        }
        // Stable: errors at one position keep the order they were found in.
        errors.sort_by_key(|(position, _)| *position);
        Some(
            errors
                .iter()
                .map(|(_, error)| error.to_compile_error())
                .collect(),
        )
    }
}
