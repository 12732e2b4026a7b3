//! The keys that take a list of string literals: `aliases`, `input_examples`,
//! `allowed_callers`.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::LitStr;

use super::split_commas;
use crate::ctxt::Ctxt;

/// The callers `allowed_callers` accepts, as the API names them.
pub const CALLERS: &[&str] = &[
    "direct",
    "code_execution_20250825",
    "code_execution_20260120",
];

/// `key = ["...", ...]`: the string literals of the list; `None` after an error (recorded).
/// `example` is one entry as the user would write it, for the messages.
pub fn parse_str_list(
    cx: &Ctxt,
    key: &str,
    value: TokenStream,
    example: &str,
) -> Option<Vec<LitStr>> {
    let mut tokens = value.clone().into_iter();
    let group = match (tokens.next(), tokens.next()) {
        (Some(TokenTree::Group(group)), None) if group.delimiter() == Delimiter::Bracket => group,
        (Some(TokenTree::Literal(lit)), None) => {
            cx.error_spanned_by(
                &lit,
                format!("`{key}` takes a list, even of one entry: write `{key} = [{lit}]`"),
            );
            return None;
        }
        _ => {
            cx.error_spanned_by(
                value,
                format!("`{key}` takes a list of string literals: `{key} = [{example}]`"),
            );
            return None;
        }
    };
    let mut list = Some(Vec::new());
    for entry in split_commas(group.stream()) {
        let entry: TokenStream = entry.into_iter().collect();
        if entry.is_empty() {
            continue;
        }
        match syn::parse2::<LitStr>(entry.clone()) {
            Ok(text) => {
                if let Some(list) = &mut list {
                    list.push(text);
                }
            }
            Err(_) => {
                cx.error_spanned_by(
                    &entry,
                    format!(
                        "each entry of `{key}` is a string literal: write `\"{entry}\"` instead of `{entry}`"
                    ),
                );
                list = None;
            }
        }
    }
    list
}

/// `allowed_callers = [...]`: every entry one of [`CALLERS`], none twice, the list not empty.
pub fn check_callers(cx: &Ctxt, value: &TokenStream, callers: &[LitStr]) -> bool {
    let mut ok = true;
    if callers.is_empty() {
        cx.error_spanned_by(
            value,
            format!(
                "`allowed_callers = []` would let nothing call the tool; list at least one of: {}",
                CALLERS.join(", ")
            ),
        );
        return false;
    }
    for (index, caller) in callers.iter().enumerate() {
        let name = caller.value();
        if !CALLERS.contains(&name.as_str()) {
            cx.error_spanned_by(
                caller,
                format!(
                    "unknown caller `{name}` in `allowed_callers`; the callers are: {}",
                    CALLERS.join(", ")
                ),
            );
            ok = false;
        } else if callers[..index]
            .iter()
            .any(|earlier| earlier.value() == name)
        {
            cx.error_spanned_by(
                caller,
                format!("`{name}` is listed twice in `allowed_callers`; remove one"),
            );
            ok = false;
        }
    }
    ok
}

/// `input_examples = [...]`: every entry a JSON object's text, as far as the macro can tell
/// without parsing JSON (it starts with `{` and ends with `}`); the schema checks them in the
/// test the macro generates and when the registry is read.
pub fn check_examples(cx: &Ctxt, examples: &[LitStr]) -> bool {
    let mut ok = true;
    for example in examples {
        let text = example.value();
        let text = text.trim();
        if !(text.starts_with('{') && text.ends_with('}')) {
            cx.error_spanned_by(
                example,
                "an input example is the text of a JSON object, as the model would send the input: `input_examples = [r#\"{\"pattern\": \"*.rs\"}\"#]`",
            );
            ok = false;
        }
    }
    ok
}
