//! The path generated code reaches toolreg by: `::toolreg`, or the path of `#[tool(crate =
//! "...")]` / `#[schema(crate = "...")]` when the dependency is renamed or re-exported.
//!
//! Every path the macros generate starts with it, so under another name no `::toolreg` is left.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote};

/// The crate path of one expansion.
#[derive(Clone)]
pub struct Krate {
    path: syn::Path,
}

impl Krate {
    /// The path given with `crate = "..."`, or `::toolreg`.
    pub fn new(given: Option<&syn::Path>) -> Krate {
        let path = match given {
            Some(path) => path.clone(),
            None => syn::parse_quote!(::toolreg),
        };
        Krate { path }
    }

    /// The path with every token spanned at `span`, for code spanned on the user's token a
    /// trait bound is about (the compiler then points at that token, not at the attribute).
    pub fn at(&self, span: Span) -> TokenStream {
        respan(self.path.to_token_stream(), span)
    }

    /// `<path>::__private`, what generated code needs that is not public API.
    pub fn private(&self) -> TokenStream {
        let path = &self.path;
        quote!(#path::__private)
    }

    /// The path as a module nested in the generated code reaches it, and whether that module
    /// needs the names of the item's module (`use super::*`). A module nested in generated code
    /// sees neither the block it sits in nor the item's imports: a path from the crate root or
    /// an extern crate reads the same there, a path from the item's module needs its names, and
    /// `super::` one more level.
    pub fn in_nested_module(&self) -> (TokenStream, bool) {
        let path = &self.path;
        if path.leading_colon.is_some() {
            return (quote!(#path), false);
        }
        match path.segments.first() {
            Some(first) if first.ident == "crate" => (quote!(#path), false),
            Some(first) if first.ident == "super" => (quote!(super::#path), false),
            _ => (quote!(#path), true),
        }
    }

    /// The path as written, for messages: `toolreg`, `tr`, `crate::reexports::toolreg`.
    pub fn text(&self) -> String {
        let text = self.path.to_token_stream().to_string().replace(' ', "");
        text.trim_start_matches("::").to_owned()
    }
}

impl ToTokens for Krate {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.path.to_tokens(tokens);
    }
}

fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                let mut inner = Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                token = TokenTree::Group(inner);
            } else {
                token.set_span(span);
            }
            token
        })
        .collect()
}
