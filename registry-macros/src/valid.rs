//! The rules a `#[tool]` must follow, checked after parsing and before any code is generated;
//! the rules of its fields' schemas are in [`schema`].

pub mod schema;

use proc_macro2::Span;
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
    // Each check is placed at its key's entry, so errors come out in source order.
    let name = match attrs.name.get() {
        Some(lit) => {
            cx.at(attrs.name.position(), || {
                check_name(cx, lit.span(), &lit.value(), "name", None);
            });
            lit.value()
        }
        None => {
            let name = default_name(&item.ident.to_string());
            check_name(cx, item.ident.span(), &name, "name", Some(item.ident));
            name
        }
    };
    if let Some(aliases) = attrs.aliases.get() {
        cx.at(attrs.aliases.position(), || {
            check_aliases(cx, aliases, &name)
        });
    }
    if let Some(hint) = attrs.search_hint.get() {
        cx.at(attrs.search_hint.position(), || check_search_hint(cx, hint));
    }
    if let (Some(span), Some(_)) = (attrs.always_load.span(), attrs.defer.get()) {
        cx.at(attrs.always_load.position(), || {
            cx.error_at(
                span,
                "`defer` and `always_load` contradict each other: a deferred tool is loaded on demand, an `always_load` tool is never deferred; remove one of them",
            );
        });
    }
    if let (Some(span), Some(_)) = (attrs.prompt.span(), attrs.description.get()) {
        cx.at(attrs.prompt.position(), || {
            cx.error_at(
                span,
                "`prompt` and `description` both give the tool's text; keep `prompt` for a dynamic text or `description` for a fixed one",
            );
        });
    }
    let description = match (attrs.description.get(), &item.docs) {
        (Some(lit), _) => {
            let text = lit.value();
            if text.trim().is_empty() {
                cx.at(attrs.description.position(), || {
                    cx.error_spanned_by(
                        lit,
                        "`description` is empty; say what the tool does, e.g. `description = \"Reads a file from the local filesystem.\"`",
                    );
                });
            }
            text
        }
        (None, Some(docs)) => docs.clone(),
        // The dynamic prompt is the text; the static one may stay empty.
        (None, None) if attrs.prompt.get().is_some() => String::new(),
        (None, None) => {
            cx.error_spanned_by(
                item.ident,
                format!("tool `{}` has no description: add a doc comment (`/// What the tool does.`) to the struct, or `description = \"...\"` to `#[tool]`", item.ident),
            );
            String::new()
        }
    };
    Checked { name, description }
}

fn check_aliases(cx: &Ctxt, aliases: &[LitStr], name: &str) {
    for (i, alias) in aliases.iter().enumerate() {
        check_name(cx, alias.span(), &alias.value(), "alias", None);
        if alias.value() == name {
            cx.error_spanned_by(
                alias,
                format!("alias \"{name}\" is the tool's own name; remove it from `aliases`"),
            );
        }
        if aliases[..i]
            .iter()
            .any(|earlier| earlier.value() == alias.value())
        {
            cx.error_spanned_by(
                alias,
                format!(
                    "alias {:?} is listed twice in `aliases`; remove one",
                    alias.value()
                ),
            );
        }
    }
}

/// The struct's name without a trailing `Tool` (`BashTool` → `Bash`).
fn default_name(ident: &str) -> String {
    match ident.strip_suffix("Tool") {
        Some(stem) if !stem.is_empty() => stem.to_owned(),
        _ => ident.to_owned(),
    }
}

/// Checks a name or alias against `^[A-Za-z0-9_-]{1,64}$` and the `mcp__` prefix. `from` is the
/// struct when the name is the default one taken from it.
fn check_name(cx: &Ctxt, span: Span, name: &str, what: &str, from: Option<&syn::Ident>) {
    let valid = |ch: &char| ch.is_ascii_alphanumeric() || *ch == '_' || *ch == '-';
    let bad_char = name.chars().find(|ch| !valid(ch));
    // Without the bad characters the name may be what the user meant.
    let cleaned: String = name.chars().filter(valid).collect();
    let example = if bad_char.is_some() && !cleaned.is_empty() && cleaned.len() <= 64 {
        format!(", e.g. {cleaned:?}")
    } else {
        String::new()
    };
    let fix = match from {
        Some(ident) => format!(
            "the name comes from the struct `{ident}`; set a valid one with `name = \"...\"`"
        ),
        None => format!("choose another {what}{example}"),
    };
    let problem = if name.is_empty() {
        format!("the tool {what} is empty")
    } else if let Some(ch) = bad_char {
        let shown = match ch {
            ' ' => "a space".to_owned(),
            ch => format!("`{ch}`"),
        };
        format!(
            "tool {what} {name:?} contains {shown}; a tool {what} may contain only ASCII letters, digits, `_` and `-`"
        )
    } else if name.len() > 64 {
        format!(
            "tool {what} {name:?} is {} characters long; a tool {what} has at most 64",
            name.len()
        )
    } else if name.starts_with("mcp__") {
        format!(
            "tool {what} {name:?} starts with `mcp__`, which is reserved for tools from MCP servers"
        )
    } else {
        return;
    };
    cx.error_at(span, format!("{problem}: {fix}"));
}

fn check_search_hint(cx: &Ctxt, lit: &LitStr) {
    let hint = lit.value();
    let words = hint.split_whitespace().count();
    if !(3..=10).contains(&words) {
        let counted = if words == 1 {
            "1 word".to_owned()
        } else {
            format!("{words} words")
        };
        cx.error_spanned_by(
            lit,
            format!("`search_hint` has {counted}; write a capability phrase of 3 to 10 words, e.g. `search_hint = \"edit jupyter notebook cells\"`"),
        );
    }
    if hint.trim_end().ends_with('.') {
        cx.error_spanned_by(
            lit,
            "`search_hint` ends with a period; it is a phrase, not a sentence: drop the trailing `.`",
        );
    }
}
