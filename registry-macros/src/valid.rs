//! The rules a `#[tool]` must follow, checked after parsing and before any code is generated.

use syn::LitStr;

use crate::ast::Struct;
use crate::attr::ToolAttrs;
use crate::ctxt::Ctxt;

/// The tool's name, description and the other checked values, ready for code generation.
pub struct Checked {
    pub name: String,
    pub description: String,
}

/// Checks the attribute against the struct; returns the resolved name and description.
pub fn check(cx: &Ctxt, attrs: &ToolAttrs, item: &Struct<'_>) -> Checked {
    let name = match attrs.name.get() {
        Some(lit) => {
            check_name(cx, lit, "name");
            lit.value()
        }
        None => default_name(&item.ident.to_string()),
    };
    if let Some(aliases) = attrs.aliases.get() {
        for (i, alias) in aliases.iter().enumerate() {
            check_name(cx, alias, "alias");
            if alias.value() == name {
                cx.error_spanned_by(
                    alias,
                    format!("alias `{name}` is the tool's own name; remove it"),
                );
            }
            if aliases[..i]
                .iter()
                .any(|earlier| earlier.value() == alias.value())
            {
                cx.error_spanned_by(alias, format!("alias `{}` is listed twice", alias.value()));
            }
        }
    }
    if let Some(hint) = attrs.search_hint.get() {
        check_search_hint(cx, hint);
    }
    if let (Some(span), Some(_)) = (attrs.always_load.span(), attrs.defer.get()) {
        cx.error_at(
            span,
            "`defer` and `always_load` contradict each other: a deferred tool is loaded on demand, an always-loaded one never is; remove one",
        );
    }
    if attrs.prompt.get().is_some() && attrs.description.get().is_some() {
        cx.error_at(
            attrs.prompt.span().expect("set"),
            "`prompt` and `description` both give the tool's text; keep `prompt` for a dynamic text or `description` for a fixed one",
        );
    }
    let description = match attrs.description.get() {
        Some(lit) => {
            let text = lit.value();
            if text.trim().is_empty() {
                cx.error_spanned_by(lit, "`description` is empty; say what the tool does");
            }
            text
        }
        None => item.docs.clone().unwrap_or_else(|| {
            cx.error_spanned_by(
                item.ident,
                format!("tool `{}` has no description: add a doc comment (`/// what it does`) to the struct or `description = \"...\"` to #[tool]", item.ident),
            );
            String::new()
        }),
    };
    Checked { name, description }
}

/// The struct's name without a trailing `Tool` (`BashTool` → `Bash`).
fn default_name(ident: &str) -> String {
    match ident.strip_suffix("Tool") {
        Some(stem) if !stem.is_empty() => stem.to_owned(),
        _ => ident.to_owned(),
    }
}

fn check_name(cx: &Ctxt, lit: &LitStr, what: &str) {
    let name = lit.value();
    let valid_chars = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if name.is_empty() || name.len() > 64 || !valid_chars {
        cx.error_spanned_by(
            lit,
            format!("invalid tool {what} {name:?}: a tool {what} must match ^[A-Za-z0-9_-]{{1,64}}$ (letters, digits, `_` and `-`, at most 64)"),
        );
    } else if name.starts_with("mcp__") {
        cx.error_spanned_by(
            lit,
            format!("tool {what} {name:?} starts with `mcp__`, which is reserved for tools from MCP servers; choose another {what}"),
        );
    }
}

fn check_search_hint(cx: &Ctxt, lit: &LitStr) {
    let hint = lit.value();
    let words = hint.split_whitespace().count();
    if !(3..=10).contains(&words) {
        cx.error_spanned_by(
            lit,
            format!("`search_hint` has {words} word(s); write a capability phrase of 3 to 10 words, e.g. \"edit jupyter notebook cells\""),
        );
    }
    if hint.trim_end().ends_with('.') {
        cx.error_spanned_by(
            lit,
            "`search_hint` ends with a period; write a phrase, not a sentence: drop the trailing `.`",
        );
    }
}
