//! Parsing of the `feature = ...` gate: `"X"`, `any(...)`, `all(...)`, `not(...)`.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::quote;
use syn::LitStr;

use super::split_commas;
use crate::ctxt::Ctxt;

/// A compile-time gate: `"X"`, `any(...)`, `all(...)` or `not(...)` of gates.
pub enum CfgExpr {
    Feature(LitStr),
    Any(Vec<CfgExpr>),
    All(Vec<CfgExpr>),
    Not(Box<CfgExpr>),
}

impl CfgExpr {
    /// The `cfg` predicate: `feature = "X"`, `any(feature = "A", feature = "B")`.
    pub fn predicate(&self) -> TokenStream {
        match self {
            CfgExpr::Feature(name) => quote!(feature = #name),
            CfgExpr::Any(items) => {
                let items = items.iter().map(CfgExpr::predicate);
                quote!(any(#(#items),*))
            }
            CfgExpr::All(items) => {
                let items = items.iter().map(CfgExpr::predicate);
                quote!(all(#(#items),*))
            }
            CfgExpr::Not(item) => {
                let item = item.predicate();
                quote!(not(#item))
            }
        }
    }

    /// The predicate as text, for the descriptor.
    pub fn text(&self) -> String {
        match self {
            CfgExpr::Feature(name) => format!("feature = {:?}", name.value()),
            CfgExpr::Any(items) => format!("any({})", join(items)),
            CfgExpr::All(items) => format!("all({})", join(items)),
            CfgExpr::Not(item) => format!("not({})", item.text()),
        }
    }
}

fn join(items: &[CfgExpr]) -> String {
    items
        .iter()
        .map(CfgExpr::text)
        .collect::<Vec<_>>()
        .join(", ")
}

const FEATURE_HELP: &str = "`feature` takes a cargo feature name as a string, or any(...)/all(...)/not(...) of them: `feature = \"MONITOR_TOOL\"` or `feature = any(\"PROACTIVE\", \"KAIROS\")`";

/// Parses the value of `feature = ...`, recording every mistake in it.
pub fn parse_cfg(cx: &Ctxt, value: TokenStream) -> Option<CfgExpr> {
    let tokens: Vec<TokenTree> = value.clone().into_iter().collect();
    match tokens.as_slice() {
        [TokenTree::Literal(_)] => match syn::parse2::<LitStr>(value.clone()) {
            Ok(name) if name.value().trim().is_empty() => {
                cx.error_spanned_by(
                    value,
                    "the feature name is empty: write the cargo feature, e.g. `feature = \"MONITOR_TOOL\"`",
                );
                None
            }
            Ok(name) => {
                let text = name.value();
                let valid =
                    |ch: char| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-' | '+' | '.');
                match text.chars().find(|ch| !valid(*ch)) {
                    // A gate no feature can satisfy would silently remove the tool.
                    Some(ch) => {
                        cx.error_spanned_by(
                            &name,
                            format!(
                                "feature name {text:?} contains {}; cargo feature names use only letters, digits, `_`, `-`, `+` and `.`, e.g. {:?}",
                                if ch == ' ' { "a space".to_owned() } else { format!("`{ch}`") },
                                text.replace(|ch: char| !valid(ch), "_"),
                            ),
                        );
                        None
                    }
                    None => Some(CfgExpr::Feature(name)),
                }
            }
            Err(_) => {
                cx.error_spanned_by(value, FEATURE_HELP);
                None
            }
        },
        [TokenTree::Ident(name)] => {
            cx.error_spanned_by(
                name,
                format!(
                    "the feature name must be a string: write `\"{name}\"` instead of `{name}`"
                ),
            );
            None
        }
        [TokenTree::Ident(op), TokenTree::Group(group)]
            if group.delimiter() == Delimiter::Parenthesis =>
        {
            let op_text = op.to_string();
            if !matches!(op_text.as_str(), "any" | "all" | "not") {
                cx.error_spanned_by(
                    op,
                    format!("unknown operator `{op_text}(...)` in `feature`; use `any(...)`, `all(...)` or `not(...)`, e.g. `feature = any(\"PROACTIVE\", \"KAIROS\")`"),
                );
                return None;
            }
            // Every operand is parsed, so each bad one is reported.
            let items: Vec<Option<CfgExpr>> = split_commas(group.stream())
                .into_iter()
                .filter(|entry| !entry.is_empty())
                .map(|entry| parse_cfg(cx, entry.into_iter().collect()))
                .collect();
            let count = items.len();
            let items: Vec<CfgExpr> = items.into_iter().collect::<Option<_>>()?;
            match op_text.as_str() {
                "not" if count == 1 => Some(CfgExpr::Not(Box::new(items.into_iter().next()?))),
                "not" => {
                    cx.error_spanned_by(
                        group,
                        format!("`not(...)` takes exactly one operand, found {count}: write `not(\"X\")`, or `not(any(\"A\", \"B\"))` for several"),
                    );
                    None
                }
                _ if count == 0 => {
                    cx.error_spanned_by(
                        group,
                        format!(
                            "`{op_text}()` needs at least one feature: `{op_text}(\"A\", \"B\")`"
                        ),
                    );
                    None
                }
                "any" => Some(CfgExpr::Any(items)),
                _ => Some(CfgExpr::All(items)),
            }
        }
        _ => {
            cx.error_spanned_by(value, FEATURE_HELP);
            None
        }
    }
}
