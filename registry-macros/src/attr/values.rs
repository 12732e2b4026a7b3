//! A schema key's value as written in an attribute: strings, numbers, counts, literals and
//! arrays rendered as JSON, and the keys that belong to serde rather than to the schema.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::meta::ParseNestedMeta;
use syn::{LitStr, Token};

use super::schema_attrs::SCHEMARS_KEYS;
use crate::ast::json_escape;
use crate::ctxt::Ctxt;

/// Whether a schemars key is one of serde's, which the schema takes from `#[serde]` only.
pub(super) fn serde_like(key: &str) -> bool {
    matches!(
        key,
        "rename"
            | "rename_all"
            | "rename_all_fields"
            | "alias"
            | "default"
            | "skip"
            | "skip_serializing"
            | "skip_deserializing"
            | "flatten"
            | "with"
            | "tag"
            | "content"
            | "untagged"
            | "deny_unknown_fields"
            | "transparent"
            | "from"
            | "try_from"
            | "into"
            | "bound"
            | "remote"
            | "crate"
            | "inline"
            | "schema_with"
            | "extend"
            | "transform"
            | "required"
            | "inner"
    )
}

pub(super) fn serde_message(written: &str, key: &str) -> String {
    match key {
        "rename"
        | "rename_all"
        | "rename_all_fields"
        | "alias"
        | "default"
        | "skip"
        | "skip_deserializing"
        | "flatten"
        | "tag"
        | "content"
        | "untagged"
        | "deny_unknown_fields" => format!(
            "`{written}` would change the schema without changing what serde reads; the compile-time schema follows serde: put it in `#[serde({key} ...)]`, or remove it"
        ),
        _ => format!(
            "`{written}` is not read by the compile-time schema, which follows serde and the keys it lists ({SCHEMARS_KEYS}); remove it, or describe the field with `#[schema(...)]`"
        ),
    }
}

/// A path as written, without spaces (`schemars::Schema`).
pub(super) fn path_text(path: &syn::Path) -> String {
    quote::ToTokens::to_token_stream(path)
        .to_string()
        .replace(' ', "")
}

/// `"text"` after `key =`, JSON-escaped.
pub(super) fn string(meta: &ParseNestedMeta<'_>) -> syn::Result<String> {
    let text: LitStr = meta.value()?.parse()?;
    Ok(json_escape(&text.value()))
}

/// The tokens after `key =`, up to the next comma.
pub(super) fn value_tokens(meta: &ParseNestedMeta<'_>) -> syn::Result<TokenStream> {
    let input = meta.value()?;
    let mut tokens = TokenStream::new();
    while !input.is_empty() && !input.peek(Token![,]) {
        tokens.extend([input.parse::<TokenTree>()?]);
    }
    Ok(tokens)
}

/// Consumes `= value` or `(...)` after a key, if any.
pub(super) fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        value_tokens(meta)?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<TokenTree>()?;
    }
    Ok(())
}

/// A number literal, optionally negative, as JSON.
pub(super) fn number(cx: &Ctxt, tokens: &TokenStream, key: &str) -> Option<String> {
    match json_value(tokens) {
        Ok(json) if !json.starts_with(['"', '[', 't', 'f']) => Some(json),
        _ => {
            cx.error_spanned_by(
                tokens,
                format!("`{key}` takes a number literal, e.g. `{key} = 1` or `{key} = -0.5`: the schema is built at compile time and cannot read a constant or an expression"),
            );
            None
        }
    }
}

/// A whole number literal.
pub(super) fn count(cx: &Ctxt, tokens: &TokenStream, key: &str) -> Option<u64> {
    match syn::parse2::<syn::LitInt>(tokens.clone()).and_then(|lit| lit.base10_parse::<u64>()) {
        Ok(count) => Some(count),
        Err(_) => {
            cx.error_spanned_by(
                tokens,
                format!("`{key}` takes a whole number literal, e.g. `{key} = 1`: the schema is built at compile time and cannot read a constant or an expression"),
            );
            None
        }
    }
}

/// A literal as JSON; reported when it is not one.
pub(super) fn literal(cx: &Ctxt, tokens: &TokenStream, key: &str) -> Option<String> {
    match json_value(tokens) {
        Ok(json) => Some(json),
        Err(at) => {
            cx.error_spanned_by(
                at.unwrap_or_else(|| tokens.clone()),
                format!("`{key}` takes a literal (a string, a number, `true`, `false`, or `[...]` of them): the schema is built at compile time and cannot evaluate an expression"),
            );
            None
        }
    }
}

/// The elements of a `[...]` literal, each as JSON.
pub(super) fn split_array(tokens: &TokenStream, cx: &Ctxt) -> Vec<String> {
    let Some(TokenTree::Group(group)) = tokens.clone().into_iter().next() else {
        return Vec::new();
    };
    super::split_commas(group.stream())
        .into_iter()
        .filter(|entry| !entry.is_empty())
        .filter_map(|entry| literal(cx, &entry.into_iter().collect(), "examples"))
        .collect()
}

/// A literal token stream as JSON, or the tokens that are not a literal.
pub(super) fn json_value(tokens: &TokenStream) -> Result<String, Option<TokenStream>> {
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    match trees.as_slice() {
        [TokenTree::Punct(minus), TokenTree::Literal(lit)] if minus.as_char() == '-' => {
            match syn::Lit::new(lit.clone()) {
                syn::Lit::Int(_) | syn::Lit::Float(_) => {
                    json_value(&TokenStream::from(TokenTree::Literal(lit.clone())))
                        .map(|json| format!("-{json}"))
                }
                _ => Err(Some(tokens.clone())),
            }
        }
        [TokenTree::Literal(lit)] => match syn::Lit::new(lit.clone()) {
            syn::Lit::Str(text) => Ok(format!("\"{}\"", json_escape(&text.value()))),
            syn::Lit::Int(int) => int
                .base10_parse::<u128>()
                .map(|value| value.to_string())
                .map_err(|_| Some(tokens.clone())),
            syn::Lit::Float(float) => match float.base10_parse::<f64>() {
                Ok(value) if value.is_finite() => Ok(value.to_string()),
                _ => Err(Some(tokens.clone())),
            },
            _ => Err(Some(tokens.clone())),
        },
        [TokenTree::Ident(word)] if word == "true" || word == "false" => Ok(word.to_string()),
        [TokenTree::Group(group)] if group.delimiter() == Delimiter::Bracket => {
            let mut items = Vec::new();
            for entry in super::split_commas(group.stream()) {
                if entry.is_empty() {
                    continue;
                }
                items.push(json_value(&entry.into_iter().collect())?);
            }
            Ok(format!("[{}]", items.join(",")))
        }
        _ => Err(Some(tokens.clone())),
    }
}

/// Escapes the characters a regular expression gives a meaning to.
pub(super) fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if "\\.+*?()|[]{}^$".contains(ch) {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}
