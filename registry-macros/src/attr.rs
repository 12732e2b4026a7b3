//! Parsing: the `#[tool(...)]` arguments, serde's attributes and doc comments.
//!
//! Parsing never stops at the first mistake: each bad key is recorded in the [`Ctxt`] and the
//! parser moves on to the next comma, so the user sees all their mistakes at once.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, LitInt, LitStr, Token};

use crate::case::{RULE_NAMES, RenameRule};
use crate::ctxt::Ctxt;

/// The keys `#[tool]` accepts, for error messages.
pub const TOOL_KEYS: &str = "name, description, search_hint, aliases, defer, always_load, read_only, concurrency_safe, destructive, strict, max_result_size_chars, feature, enabled, prompt";

/// A value that may be set once; a second setting is reported on its key.
pub struct Slot<T> {
    key: &'static str,
    value: Option<(Span, T)>,
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
                    "duplicate `{}` key in #[tool]; remove one of them",
                    self.key
                ),
            );
        } else {
            self.value = Some((at.span(), value));
        }
    }

    /// The value, if set.
    pub fn get(&self) -> Option<&T> {
        self.value.as_ref().map(|(_, value)| value)
    }

    /// The span of the key that set it.
    pub fn span(&self) -> Option<Span> {
        self.value.as_ref().map(|(span, _)| *span)
    }
}

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
            CfgExpr::Feature(name) => quote::quote!(feature = #name),
            CfgExpr::Any(items) => {
                let items = items.iter().map(CfgExpr::predicate);
                quote::quote!(any(#(#items),*))
            }
            CfgExpr::All(items) => {
                let items = items.iter().map(CfgExpr::predicate);
                quote::quote!(all(#(#items),*))
            }
            CfgExpr::Not(item) => {
                let item = item.predicate();
                quote::quote!(not(#item))
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

/// The parsed `#[tool(...)]` arguments.
pub struct ToolAttrs {
    pub name: Slot<LitStr>,
    pub description: Slot<LitStr>,
    pub search_hint: Slot<LitStr>,
    pub aliases: Slot<Vec<LitStr>>,
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
}

const FEATURE_HELP: &str = "`feature` takes a cargo feature name or any(...)/all(...)/not(...) of them, e.g. `feature = \"MONITOR_TOOL\"` or `feature = any(\"PROACTIVE\", \"KAIROS\")`";

impl ToolAttrs {
    /// Parses the attribute's arguments, recording every mistake.
    pub fn parse(cx: &Ctxt, args: TokenStream) -> ToolAttrs {
        let mut attrs = ToolAttrs {
            name: Slot::new("name"),
            description: Slot::new("description"),
            search_hint: Slot::new("search_hint"),
            aliases: Slot::new("aliases"),
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
        };
        for entry in split_commas(args) {
            attrs.parse_entry(cx, entry);
        }
        attrs
    }

    fn parse_entry(&mut self, cx: &Ctxt, entry: Vec<TokenTree>) {
        let mut tokens = entry.into_iter();
        let key = match tokens.next() {
            Some(TokenTree::Ident(key)) => key,
            Some(other) => {
                cx.error_spanned_by(
                    other,
                    format!("expected a key such as `name = \"...\"`; valid keys are: {TOOL_KEYS}"),
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
                    cx.error_spanned_by(eq, format!("expected a value after `{key} =`"));
                    return;
                }
                Some(value.iter().cloned().collect::<TokenStream>())
            }
            Some((other, _)) => {
                cx.error_spanned_by(other, format!("expected `=` or `,` after `{key}`"));
                return;
            }
        };
        let key_text = key.to_string();
        let flag = |slot: &mut Slot<()>| match &value {
            None => slot.set(cx, &key, ()),
            Some(value) => cx.error_spanned_by(
                value,
                format!("`{key_text}` is a flag and takes no value: write `{key_text}` alone"),
            ),
        };
        match key_text.as_str() {
            "defer" => flag(&mut self.defer),
            "always_load" => flag(&mut self.always_load),
            "read_only" => flag(&mut self.read_only),
            "concurrency_safe" => flag(&mut self.concurrency_safe),
            "destructive" => flag(&mut self.destructive),
            "strict" => flag(&mut self.strict),
            "name" | "description" | "search_hint" => {
                let Some(value) = need_value(cx, &key, value, "= \"...\"") else {
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
                let Some(value) = need_value(cx, &key, value, "= [\"OldName\"]") else {
                    return;
                };
                if let Some(list) = parse_aliases(cx, value) {
                    self.aliases.set(cx, &key, list);
                }
            }
            "max_result_size_chars" => {
                let Some(value) = need_value(cx, &key, value, "= 100000") else {
                    return;
                };
                match syn::parse2::<LitInt>(value.clone()).and_then(|lit| lit.base10_parse()) {
                    Ok(0) => cx.error_spanned_by(value, "`max_result_size_chars` must be above 0"),
                    Ok(size) => self.max_result_size_chars.set(cx, &key, size),
                    Err(_) => cx.error_spanned_by(
                        value,
                        "`max_result_size_chars` takes a whole number: `max_result_size_chars = 100000`",
                    ),
                }
            }
            "feature" => {
                let Some(value) = need_value(cx, &key, value, "= \"MONITOR_TOOL\"") else {
                    return;
                };
                if let Some(expr) = parse_cfg(cx, value) {
                    self.feature.set(cx, &key, expr);
                }
            }
            "enabled" | "prompt" => {
                let Some(value) = need_value(cx, &key, value, "= path::to_fn") else {
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
                    Err(_) => cx.error_spanned_by(
                        value,
                        format!(
                            "`{key_text}` takes the path of a function: `{key_text} = path::to_fn`"
                        ),
                    ),
                }
            }
            _ => cx.error_spanned_by(
                &key,
                format!("unknown key `{key_text}` in #[tool]; valid keys are: {TOOL_KEYS}"),
            ),
        }
    }
}

fn need_value(
    cx: &Ctxt,
    key: &Ident,
    value: Option<TokenStream>,
    example: &str,
) -> Option<TokenStream> {
    if value.is_none() {
        cx.error_spanned_by(key, format!("`{key}` needs a value: `{key} {example}`"));
    }
    value
}

fn parse_str(cx: &Ctxt, key: &Ident, value: TokenStream) -> Option<LitStr> {
    match syn::parse2::<LitStr>(value.clone()) {
        Ok(text) => Some(text),
        Err(_) => {
            cx.error_spanned_by(
                value,
                format!("`{key}` takes a string literal: `{key} = \"...\"`"),
            );
            None
        }
    }
}

fn parse_aliases(cx: &Ctxt, value: TokenStream) -> Option<Vec<LitStr>> {
    let help = "`aliases` takes a list of string literals: `aliases = [\"OldName\"]`";
    let mut tokens = value.clone().into_iter();
    let (Some(TokenTree::Group(group)), None) = (tokens.next(), tokens.next()) else {
        cx.error_spanned_by(value, help);
        return None;
    };
    if group.delimiter() != Delimiter::Bracket {
        cx.error_spanned_by(&group, help);
        return None;
    }
    match Punctuated::<LitStr, Token![,]>::parse_terminated.parse2(group.stream()) {
        Ok(list) => Some(list.into_iter().collect()),
        Err(_) => {
            cx.error_spanned_by(&group, help);
            None
        }
    }
}

fn parse_cfg(cx: &Ctxt, value: TokenStream) -> Option<CfgExpr> {
    let tokens: Vec<TokenTree> = value.clone().into_iter().collect();
    match tokens.as_slice() {
        [TokenTree::Literal(_)] => match syn::parse2::<LitStr>(value.clone()) {
            Ok(name) if !name.value().is_empty() => Some(CfgExpr::Feature(name)),
            _ => {
                cx.error_spanned_by(value, FEATURE_HELP);
                None
            }
        },
        [TokenTree::Ident(op), TokenTree::Group(group)]
            if group.delimiter() == Delimiter::Parenthesis =>
        {
            let items: Vec<CfgExpr> = split_commas(group.stream())
                .into_iter()
                .filter(|entry| !entry.is_empty())
                .map(|entry| parse_cfg(cx, entry.into_iter().collect()))
                .collect::<Option<_>>()?;
            match op.to_string().as_str() {
                "any" if !items.is_empty() => Some(CfgExpr::Any(items)),
                "all" if !items.is_empty() => Some(CfgExpr::All(items)),
                "not" if items.len() == 1 => {
                    Some(CfgExpr::Not(Box::new(items.into_iter().next()?)))
                }
                _ => {
                    cx.error_spanned_by(value, FEATURE_HELP);
                    None
                }
            }
        }
        _ => {
            cx.error_spanned_by(value, FEATURE_HELP);
            None
        }
    }
}

/// Splits a token stream at its top-level commas.
fn split_commas(tokens: TokenStream) -> Vec<Vec<TokenTree>> {
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

/// serde attributes on a struct or enum that the schema follows.
#[derive(Default)]
pub struct ContainerSerde {
    pub rename_all: Option<RenameRule>,
    pub default: bool,
    pub deny_unknown_fields: bool,
}

/// serde attributes on a field or variant that the schema follows.
#[derive(Default)]
pub struct MemberSerde {
    pub rename: Option<String>,
    pub default: bool,
    pub skip: bool,
}

/// Keys that change only serialization (or nothing the schema shows), accepted and ignored.
const IGNORED_CONTAINER: &[&str] = &["rename", "bound", "crate", "expecting", "into"];
const IGNORED_MEMBER: &[&str] = &[
    "alias",
    "skip_serializing",
    "skip_serializing_if",
    "serialize_with",
    "borrow",
    "bound",
    "other",
];

/// Reads the `#[serde(...)]` attributes of a struct or enum.
pub fn container_serde(cx: &Ctxt, attrs: &[Attribute]) -> ContainerSerde {
    let mut serde = ContainerSerde::default();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        let result = attr.parse_nested_meta(|meta| {
            let key = path_text(&meta.path);
            match key.as_str() {
                "rename_all" => {
                    if let Some(rule) = rename_value(cx, &meta, "rename_all")? {
                        match RenameRule::from_str(&rule.value()) {
                            Some(parsed) => serde.rename_all = Some(parsed),
                            None => cx.error_spanned_by(
                                &rule,
                                format!("unknown rename rule {:?}; serde accepts {RULE_NAMES}", rule.value()),
                            ),
                        }
                    }
                }
                "default" => {
                    skip_value(&meta)?;
                    serde.default = true;
                }
                "deny_unknown_fields" => serde.deny_unknown_fields = true,
                key if IGNORED_CONTAINER.contains(&key) => skip_value(&meta)?,
                _ => {
                    cx.error_spanned_by(
                        &meta.path,
                        format!("`#[serde({key})]` is not supported by the tool schema: the generated schema could not match what serde accepts; remove it or write the input type without it"),
                    );
                    skip_value(&meta)?;
                }
            }
            Ok(())
        });
        if let Err(error) = result {
            cx.syn_error(error);
        }
    }
    serde
}

/// Reads the `#[serde(...)]` attributes of a field or variant.
pub fn member_serde(cx: &Ctxt, attrs: &[Attribute]) -> MemberSerde {
    let mut serde = MemberSerde::default();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        let result = attr.parse_nested_meta(|meta| {
            let key = path_text(&meta.path);
            match key.as_str() {
                "rename" => {
                    if let Some(name) = rename_value(cx, &meta, "rename")? {
                        serde.rename = Some(name.value());
                    }
                }
                "default" => {
                    skip_value(&meta)?;
                    serde.default = true;
                }
                "skip" | "skip_deserializing" => serde.skip = true,
                key if IGNORED_MEMBER.contains(&key) => skip_value(&meta)?,
                _ => {
                    cx.error_spanned_by(
                        &meta.path,
                        format!("`#[serde({key})]` is not supported by the tool schema: the generated schema could not match what serde accepts; remove it or change the field's type instead"),
                    );
                    skip_value(&meta)?;
                }
            }
            Ok(())
        });
        if let Err(error) = result {
            cx.syn_error(error);
        }
    }
    serde
}

fn path_text(path: &syn::Path) -> String {
    path.to_token_stream().to_string().replace(' ', "")
}

/// `key = "x"` → `x`; `key(deserialize = "x", serialize = "y")` → `x`; `key(serialize = "y")` →
/// `None`.
fn rename_value(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta<'_>,
    key: &str,
) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(Token![=]) {
        return Ok(Some(meta.value()?.parse()?));
    }
    let mut found = None;
    if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| {
            let value: LitStr = inner.value()?.parse()?;
            if inner.path.is_ident("deserialize") {
                found = Some(value);
            }
            Ok(())
        })?;
        return Ok(found);
    }
    cx.error_spanned_by(
        &meta.path,
        format!("`{key}` needs a value: `{key} = \"...\"`"),
    );
    Ok(None)
}

/// Consumes `= value` or `(...)` after a key without interpreting it.
fn skip_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.input.parse::<Token![=]>()?;
        while !meta.input.is_empty() && !meta.input.peek(Token![,]) {
            meta.input.parse::<TokenTree>()?;
        }
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<TokenTree>()?;
    }
    Ok(())
}
