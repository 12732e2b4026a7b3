//! Parsing: the `#[tool(...)]` arguments, serde's attributes and doc comments.
//!
//! Parsing never stops at the first mistake: each bad key is recorded in the [`Ctxt`] and the
//! parser moves on to the next comma, so the user sees all their mistakes at once.

mod cfg;
mod item_schema;
mod lists;
mod schema_attrs;
mod serde_attrs;
mod values;

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::{Attribute, Ident, LitInt, LitStr};

use crate::ctxt::Ctxt;

pub use cfg::CfgExpr;
pub use item_schema::{On, container_schema, variant_schema};
pub use schema_attrs::{FieldSchema, Keyed, field_schema};
pub use serde_attrs::{Container, ContainerSerde, Member, container_serde, member_serde};

/// The keys `#[tool]` accepts, for error messages.
const KEYS: &[&str] = &[
    "name",
    "description",
    "search_hint",
    "aliases",
    "input_examples",
    "allowed_callers",
    "defer",
    "always_load",
    "read_only",
    "concurrency_safe",
    "destructive",
    "strict",
    "max_result_size_chars",
    "feature",
    "enabled",
    "prompt",
    "output",
    "crate",
];

/// A value that may be set once; a second setting is reported on its key.
pub struct Slot<T> {
    key: &'static str,
    /// The key's span, the entry's position in the attribute, the value.
    value: Option<(Span, usize, T)>,
}

impl<T> Slot<T> {
    fn new(key: &'static str) -> Self {
        Slot { key, value: None }
    }

    fn set(&mut self, cx: &Ctxt, at: &Ident, value: T) {
        if self.value.is_some() {
            cx.error_spanned_by(
                at,
                format!(
                    "duplicate `{}` key in `#[tool]`: it is already set earlier in the attribute; remove one of them",
                    self.key
                ),
            );
        } else {
            self.value = Some((at.span(), cx.position(), value));
        }
    }

    /// The value, if set.
    pub fn get(&self) -> Option<&T> {
        self.value.as_ref().map(|(_, _, value)| value)
    }

    /// The key, as written in `#[tool(...)]`.
    pub fn key(&self) -> &'static str {
        self.key
    }

    /// The span of the key that set it.
    pub fn span(&self) -> Option<Span> {
        self.value.as_ref().map(|(span, _, _)| *span)
    }

    /// The position of its entry in the attribute, for [`Ctxt::at`]; last when unset.
    pub fn position(&self) -> usize {
        self.value
            .as_ref()
            .map_or(usize::MAX, |(_, position, _)| *position)
    }
}

/// The parsed `#[tool(...)]` arguments.
pub struct ToolAttrs {
    pub name: Slot<LitStr>,
    pub description: Slot<LitStr>,
    pub search_hint: Slot<LitStr>,
    pub aliases: Slot<Vec<LitStr>>,
    pub input_examples: Slot<Vec<LitStr>>,
    pub allowed_callers: Slot<Vec<LitStr>>,
    pub defer: Slot<()>,
    pub always_load: Slot<()>,
    pub read_only: Slot<()>,
    pub concurrency_safe: Slot<()>,
    pub destructive: Slot<()>,
    pub strict: Slot<()>,
    pub max_result_size_chars: Slot<usize>,
    pub feature: Slot<CfgExpr>,
    pub enabled: Slot<syn::Path>,
    pub prompt: Slot<syn::Path>,
    pub output: Slot<syn::Type>,
    /// `crate = "path"`: the path of toolreg when the dependency is renamed or re-exported.
    pub krate: Slot<syn::Path>,
}

impl ToolAttrs {
    /// Parses the attribute's arguments, recording every mistake.
    pub fn parse(cx: &Ctxt, args: TokenStream) -> ToolAttrs {
        let mut attrs = ToolAttrs {
            name: Slot::new("name"),
            description: Slot::new("description"),
            search_hint: Slot::new("search_hint"),
            aliases: Slot::new("aliases"),
            input_examples: Slot::new("input_examples"),
            allowed_callers: Slot::new("allowed_callers"),
            defer: Slot::new("defer"),
            always_load: Slot::new("always_load"),
            read_only: Slot::new("read_only"),
            concurrency_safe: Slot::new("concurrency_safe"),
            destructive: Slot::new("destructive"),
            strict: Slot::new("strict"),
            max_result_size_chars: Slot::new("max_result_size_chars"),
            feature: Slot::new("feature"),
            enabled: Slot::new("enabled"),
            prompt: Slot::new("prompt"),
            output: Slot::new("output"),
            krate: Slot::new("crate"),
        };
        for (position, entry) in split_commas(args).into_iter().enumerate() {
            cx.at(position, || attrs.parse_entry(cx, entry));
        }
        attrs
    }

    fn parse_entry(&mut self, cx: &Ctxt, entry: Vec<TokenTree>) {
        let mut tokens = entry.into_iter();
        let key = match tokens.next() {
            Some(TokenTree::Ident(key)) => key,
            Some(other) => {
                cx.error_spanned_by(
                    &other,
                    format!(
                        "expected a key, found `{other}`: `#[tool]` takes `key = value` pairs and flags separated by commas, e.g. `#[tool(name = \"Read\", read_only)]`"
                    ),
                );
                return;
            }
            None => return,
        };
        let rest: Vec<TokenTree> = tokens.collect();
        let value = match rest.split_first() {
            None => None,
            Some((TokenTree::Punct(eq), value)) if eq.as_char() == '=' => {
                if value.is_empty() {
                    cx.error_spanned_by(
                        eq,
                        format!(
                            "expected a value after `{key} =`; {}",
                            usage(&key.to_string())
                        ),
                    );
                    return;
                }
                Some(value.iter().cloned().collect::<TokenStream>())
            }
            Some((other, _)) => {
                cx.error_spanned_by(
                    other,
                    format!(
                        "expected `=` or `,` after `{key}`, found `{other}`; {}",
                        usage(&key.to_string())
                    ),
                );
                return;
            }
        };
        let key_text = key.to_string();
        let flag = |slot: &mut Slot<()>| match &value {
            None => slot.set(cx, &key, ()),
            Some(value) => cx.error_spanned_by(value, flag_with_value(&key_text)),
        };
        match key_text.as_str() {
            "defer" => flag(&mut self.defer),
            "always_load" => flag(&mut self.always_load),
            "read_only" => flag(&mut self.read_only),
            "concurrency_safe" => flag(&mut self.concurrency_safe),
            "destructive" => flag(&mut self.destructive),
            "strict" => flag(&mut self.strict),
            "name" | "description" | "search_hint" => {
                let Some(value) = need_value(cx, &key, value) else {
                    return;
                };
                let Some(text) = parse_str(cx, &key, value) else {
                    return;
                };
                let slot = match key_text.as_str() {
                    "name" => &mut self.name,
                    "description" => &mut self.description,
                    _ => &mut self.search_hint,
                };
                slot.set(cx, &key, text);
            }
            "aliases" => {
                let Some(value) = need_value(cx, &key, value) else {
                    return;
                };
                if let Some(list) = lists::parse_str_list(cx, "aliases", value, "\"OldName\"") {
                    self.aliases.set(cx, &key, list);
                }
            }
            "input_examples" => {
                let Some(value) = need_value(cx, &key, value) else {
                    return;
                };
                let example = "r#\"{\"pattern\": \"*.rs\"}\"#";
                if let Some(list) = lists::parse_str_list(cx, "input_examples", value, example)
                    && lists::check_examples(cx, &list)
                {
                    self.input_examples.set(cx, &key, list);
                }
            }
            "allowed_callers" => {
                let Some(value) = need_value(cx, &key, value) else {
                    return;
                };
                let example = "\"direct\", \"code_execution_20260120\"";
                if let Some(list) =
                    lists::parse_str_list(cx, "allowed_callers", value.clone(), example)
                    && lists::check_callers(cx, &value, &list)
                {
                    self.allowed_callers.set(cx, &key, list);
                }
            }
            "max_result_size_chars" => {
                let Some(value) = need_value(cx, &key, value) else {
                    return;
                };
                match syn::parse2::<LitInt>(value.clone()).and_then(|lit| lit.base10_parse()) {
                    Ok(0) => cx.error_spanned_by(
                        value,
                        "`max_result_size_chars = 0` would allow no result at all; give the largest result in characters, e.g. `max_result_size_chars = 100000`, or leave the key out",
                    ),
                    Ok(size) => self.max_result_size_chars.set(cx, &key, size),
                    Err(_) => cx.error_spanned_by(
                        value,
                        "`max_result_size_chars` takes a whole number: `max_result_size_chars = 100000`",
                    ),
                }
            }
            "output" => {
                let Some(value) = need_value(cx, &key, value) else {
                    return;
                };
                match syn::parse2::<syn::Type>(value.clone()) {
                    Ok(ty) => self.output.set(cx, &key, ty),
                    Err(_) => cx.error_spanned_by(
                        value,
                        "`output` takes the type the tool returns inside `Structured<...>`: `output = Forecast`, where `Forecast` derives `InputSchema` and `Serialize`",
                    ),
                }
            }
            "crate" => {
                let Some(value) = need_value(cx, &key, value) else {
                    return;
                };
                if let Some(path) = crate_path(cx, &value) {
                    self.krate.set(cx, &key, path);
                }
            }
            "feature" => {
                let Some(value) = need_value(cx, &key, value) else {
                    return;
                };
                if let Some(expr) = cfg::parse_cfg(cx, value) {
                    self.feature.set(cx, &key, expr);
                }
            }
            "enabled" | "prompt" => {
                let Some(value) = need_value(cx, &key, value) else {
                    return;
                };
                match syn::parse2::<syn::Path>(value.clone()) {
                    Ok(path) => {
                        let slot = if key_text == "enabled" {
                            &mut self.enabled
                        } else {
                            &mut self.prompt
                        };
                        slot.set(cx, &key, path);
                    }
                    Err(_) => {
                        let signature = if key_text == "enabled" {
                            "fn is_enabled() -> bool"
                        } else {
                            "fn prompt() -> String"
                        };
                        cx.error_spanned_by(
                            value,
                            format!(
                                "`{key_text}` takes the path of a function, not an expression: define `{signature}` and write `{key_text} = path::to_fn`"
                            ),
                        );
                    }
                }
            }
            _ => {
                let hint = match closest_key(&key_text) {
                    Some(near) => format!("did you mean `{near}`? "),
                    None => String::new(),
                };
                cx.error_spanned_by(
                    &key,
                    format!(
                        "unknown key `{key_text}` in `#[tool]`; {hint}the keys are: {}",
                        KEYS.join(", ")
                    ),
                );
            }
        }
    }
}

fn flag_with_value(key: &str) -> String {
    format!("`{key}` is a flag and takes no value: write `{key}` alone to set it, or leave it out")
}

fn need_value(cx: &Ctxt, key: &Ident, value: Option<TokenStream>) -> Option<TokenStream> {
    if value.is_none() {
        cx.error_spanned_by(
            key,
            format!("`{key}` needs a value: {}", usage(&key.to_string())),
        );
    }
    value
}

fn parse_str(cx: &Ctxt, key: &Ident, value: TokenStream) -> Option<LitStr> {
    match syn::parse2::<LitStr>(value.clone()) {
        Ok(text) => Some(text),
        Err(_) => {
            cx.error_spanned_by(
                &value,
                format!("`{key}` takes a string literal, found `{value}`: write `{key} = \"...\"`"),
            );
            None
        }
    }
}

/// The value of `crate = "path"` in `#[tool]` or `#[schema]`: a string literal holding the path
/// toolreg is reached by, as serde's `#[serde(crate = "...")]`.
pub(crate) fn crate_path(cx: &Ctxt, value: &TokenStream) -> Option<syn::Path> {
    let Ok(text) = syn::parse2::<LitStr>(value.clone()) else {
        cx.error_spanned_by(
            value,
            format!(
                "`crate` takes a string literal holding the path of toolreg, found `{value}`: write `crate = \"my_toolreg\"` with the name your Cargo.toml gives the dependency, or the path of a re-export, e.g. `crate = \"my_lib::toolreg\"`"
            ),
        );
        return None;
    };
    match text.parse_with(syn::Path::parse_mod_style) {
        Ok(path) => Some(path),
        Err(_) => {
            cx.error_spanned_by(
                &text,
                format!(
                    "`{}` is not a path: `crate` takes the path toolreg is reached by in this crate, e.g. `crate = \"my_toolreg\"` or `crate = \"my_lib::toolreg\"`, without generic arguments",
                    text.token()
                ),
            );
            None
        }
    }
}

/// How a key is written, for messages about a malformed key.
fn usage(key: &str) -> String {
    let example = match key {
        "name" | "description" | "search_hint" => "= \"...\"",
        "aliases" => "= [\"OldName\"]",
        "input_examples" => "= [r#\"{\"pattern\": \"*.rs\"}\"#]",
        "allowed_callers" => "= [\"direct\", \"code_execution_20260120\"]",
        "max_result_size_chars" => "= 100000",
        "feature" => "= \"MONITOR_TOOL\"",
        "enabled" | "prompt" => "= path::to_fn",
        "output" => "= OutputType",
        "crate" => "= \"path::to::toolreg\"",
        _ if KEYS.contains(&key) => return format!("`{key}` is a flag: write `{key}` alone"),
        _ => {
            return format!(
                "write `key = value` or a flag; the keys are: {}",
                KEYS.join(", ")
            );
        }
    };
    format!("write `{key} {example}`")
}

/// The known key closest to a misspelled one, if any is close.
fn closest_key(key: &str) -> Option<&'static str> {
    KEYS.iter()
        .map(|known| (edit_distance(key, known), *known))
        .filter(|(distance, known)| *distance <= 2.max(known.len() / 4))
        .min()
        .map(|(_, known)| known)
}

/// Levenshtein distance, counting a swap of two neighbours as one edit.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

/// Splits a token stream at its top-level commas.
pub(crate) fn split_commas(tokens: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut entries = vec![Vec::new()];
    for token in tokens {
        match &token {
            TokenTree::Punct(punct) if punct.as_char() == ',' => entries.push(Vec::new()),
            _ => entries.last_mut().expect("never empty").push(token),
        }
    }
    entries
}

/// The text of the `#[doc]` attributes: one leading space dropped from each line, lines joined
/// with `\n`, the whole trimmed. `None` when there is no text.
pub fn docs(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(meta) = &attr.meta
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) = &meta.value
        {
            let text = text.value();
            for line in text.lines() {
                lines.push(line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned());
            }
        }
    }
    let joined = lines.join("\n");
    let trimmed = joined.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}
