//! Parsing of the schema keys of a field: `#[schema(...)]`, and what schemars 1.x reads from
//! `#[schemars(...)]` and `#[validate(...)]`, and Rust's `#[deprecated]`.
//!
//! Every key is either read or reported: a key the schema has no place for is an error that
//! names it and lists the keys that are read. Values are literals, rendered as JSON here.

use proc_macro2::{Span, TokenTree};
use syn::meta::ParseNestedMeta;
use syn::parse::Parse;
use syn::spanned::Spanned;
use syn::{Attribute, LitStr, Token};

use super::values::{
    count, literal, number, path_text, regex_escape, serde_like, serde_message, skip_value,
    split_array, string, value_tokens,
};
use crate::ast::json_escape;
use crate::ctxt::Ctxt;

/// The keys of `#[schema(...)]` on a field, for messages.
pub(super) const SCHEMA_KEYS: &str = "description, title, minimum, maximum, exclusive_minimum, exclusive_maximum, min_length, max_length, min_items, max_items, pattern, format, default, examples, deprecated";
/// What is read from `#[schemars(...)]` on a field.
pub(super) const SCHEMARS_KEYS: &str = "description, title, example, length(min, max, equal), range(min, max), regex(pattern = ...), pattern(...), contains(...), email, url, ipv4, ipv6";
/// What is read from `#[validate(...)]` on a field.
const VALIDATE_KEYS: &str = "length(min, max, equal), range(min, max, exclusive_min, exclusive_max), email, url, contains(pattern = ...), and, as checks of your own code without a schema keyword, custom, nested, must_match, credit_card, non_control_character, does_not_contain, required, phone, regex(path = ...) beside `#[schema(pattern = ...)]`";

/// A keyword as set, with the key that set it.
pub struct Keyed<T> {
    /// The key as written (`min_length`, `length`), for messages.
    pub key: String,
    pub span: Span,
    pub value: T,
}

/// The schema keys of one field, values rendered as JSON (strings escaped, without quotes).
#[derive(Default)]
pub struct FieldSchema {
    pub description: Option<String>,
    pub title: Option<String>,
    pub minimum: Option<Keyed<String>>,
    pub maximum: Option<Keyed<String>>,
    pub exclusive_minimum: Option<Keyed<String>>,
    pub exclusive_maximum: Option<Keyed<String>>,
    pub min_length: Option<Keyed<u64>>,
    pub max_length: Option<Keyed<u64>>,
    pub min_items: Option<Keyed<u64>>,
    pub max_items: Option<Keyed<u64>>,
    pub length_min: Option<Keyed<u64>>,
    pub length_max: Option<Keyed<u64>>,
    pub pattern: Option<Keyed<String>>,
    pub format: Option<Keyed<String>>,
    pub default: Option<Keyed<String>>,
    pub examples: Vec<String>,
    pub deprecated: bool,
    /// The first key that adds to the schema, for "no property to put it on" errors.
    pub first: Option<Span>,
    /// validator's `regex(path = ...)`: needs a `pattern` from `#[schema]`.
    regex_path: Option<Span>,
}

/// Which attribute a key came from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Source {
    Schema,
    Schemars,
    Validate,
}

impl Source {
    /// The attribute a path names, if it is one of the three.
    pub(super) fn of(path: &syn::Path) -> Option<Source> {
        if path.is_ident("schema") {
            Some(Source::Schema)
        } else if path.is_ident("schemars") {
            Some(Source::Schemars)
        } else if path.is_ident("validate") {
            Some(Source::Validate)
        } else {
            None
        }
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Source::Schema => "schema",
            Source::Schemars => "schemars",
            Source::Validate => "validate",
        }
    }
}

/// Reads a field's schema attributes, reporting every key that is not read.
pub fn field_schema(cx: &Ctxt, attrs: &[Attribute]) -> FieldSchema {
    let mut out = FieldSchema::default();
    for attr in attrs {
        let Some(source) = Source::of(attr.path()) else {
            if attr.path().is_ident("deprecated") {
                out.deprecated = true;
            }
            continue;
        };
        let result = attr.parse_nested_meta(|meta| {
            let key = path_text(&meta.path);
            match source {
                Source::Schema => out.schema_key(cx, &meta, &key),
                Source::Schemars => out.schemars_key(cx, &meta, &key),
                Source::Validate => out.validate_key(cx, &meta, &key),
            }
        });
        if let Err(error) = result {
            cx.syn_error(error);
        }
    }
    if let (Some(span), None) = (out.regex_path, &out.pattern) {
        cx.error_at(
            span,
            "`#[validate(regex(path = ...))]` names a `Regex` whose pattern the compile-time schema cannot read; state the same pattern for the model with `#[schema(pattern = \"...\")]`",
        );
    }
    out
}

impl FieldSchema {
    fn schema_key(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<()> {
        let span = meta.path.span();
        match key {
            "description" => self.description = Some(string(meta)?),
            "title" => {
                self.mark(span);
                self.title = Some(string(meta)?);
            }
            "minimum" | "maximum" | "exclusive_minimum" | "exclusive_maximum" => {
                let number = number(cx, &value_tokens(meta)?, key);
                let slot = match key {
                    "minimum" => &mut self.minimum,
                    "maximum" => &mut self.maximum,
                    "exclusive_minimum" => &mut self.exclusive_minimum,
                    _ => &mut self.exclusive_maximum,
                };
                set(cx, slot, key, span, number);
                self.mark(span);
            }
            "min_length" | "max_length" | "min_items" | "max_items" => {
                let count = count(cx, &value_tokens(meta)?, key);
                let slot = match key {
                    "min_length" => &mut self.min_length,
                    "max_length" => &mut self.max_length,
                    "min_items" => &mut self.min_items,
                    _ => &mut self.max_items,
                };
                set(cx, slot, key, span, count);
                self.mark(span);
            }
            "pattern" | "format" => {
                let text = string(meta)?;
                let slot = if key == "pattern" {
                    &mut self.pattern
                } else {
                    &mut self.format
                };
                set(cx, slot, key, span, Some(text));
                self.mark(span);
            }
            "default" => {
                let json = literal(cx, &value_tokens(meta)?, key);
                set(cx, &mut self.default, key, span, json);
                self.mark(span);
            }
            "examples" => {
                let tokens = value_tokens(meta)?;
                match literal(cx, &tokens, key) {
                    Some(json) if json.starts_with('[') => {
                        self.examples.extend(split_array(&tokens, cx));
                    }
                    Some(_) => cx.error_spanned_by(
                        &tokens,
                        "`examples` takes a list, even of one value: `examples = [\"a\"]`",
                    ),
                    None => {}
                }
                self.mark(span);
            }
            "deprecated" => {
                self.deprecated = true;
                self.mark(span);
            }
            _ => {
                skip_value(meta)?;
                cx.error_spanned_by(
                    &meta.path,
                    format!("unknown key `{key}` in `#[schema(...)]`; the keys are: {SCHEMA_KEYS}"),
                );
            }
        }
        Ok(())
    }

    fn schemars_key(
        &mut self,
        cx: &Ctxt,
        meta: &ParseNestedMeta<'_>,
        key: &str,
    ) -> syn::Result<()> {
        let span = meta.path.span();
        match key {
            "description" => self.description = Some(string(meta)?),
            "title" => {
                self.mark(span);
                self.title = Some(string(meta)?);
            }
            "example" => {
                let tokens = value_tokens(meta)?;
                // schemars 1.x wants `&"word"` for a one-word string.
                let tokens = match tokens.clone().into_iter().next() {
                    Some(TokenTree::Punct(punct)) if punct.as_char() == '&' => {
                        tokens.into_iter().skip(1).collect()
                    }
                    _ => tokens,
                };
                if let Some(json) = literal(cx, &tokens, key) {
                    self.examples.push(json);
                }
                self.mark(span);
            }
            "length" | "range" => self.bounds(cx, meta, key, Source::Schemars)?,
            "regex" => {
                meta.parse_nested_meta(|inner| {
                    if inner.path.is_ident("pattern") {
                        let text = string(&inner)?;
                        set(cx, &mut self.pattern, "pattern", span, Some(text));
                    } else {
                        skip_value(&inner)?;
                        cx.error_spanned_by(
                            &inner.path,
                            "`#[schemars(regex(...))]` takes `pattern = \"...\"` here: the compile-time schema cannot read a `Regex` value",
                        );
                    }
                    Ok(())
                })?;
                self.mark(span);
            }
            "pattern" => {
                let content;
                syn::parenthesized!(content in meta.input);
                let text: LitStr = content.parse()?;
                set(
                    cx,
                    &mut self.pattern,
                    key,
                    span,
                    Some(json_escape(&text.value())),
                );
                self.mark(span);
            }
            "contains" => self.contains(cx, meta)?,
            "email" | "url" | "ipv4" | "ipv6" => self.format_flag(cx, meta, key)?,
            _ => {
                skip_value(meta)?;
                let written = format!("#[schemars({key})]");
                let message = if serde_like(key) {
                    serde_message(&written, key)
                } else {
                    format!(
                        "`{written}` is not read by the compile-time schema; on a field it reads: {SCHEMARS_KEYS} (or use `#[schema(...)]`: {SCHEMA_KEYS})"
                    )
                };
                cx.error_spanned_by(&meta.path, message);
            }
        }
        Ok(())
    }

    fn validate_key(
        &mut self,
        cx: &Ctxt,
        meta: &ParseNestedMeta<'_>,
        key: &str,
    ) -> syn::Result<()> {
        match key {
            "length" | "range" => self.bounds(cx, meta, key, Source::Validate)?,
            "email" | "url" => self.format_flag(cx, meta, key)?,
            "contains" => self.contains(cx, meta)?,
            "regex" => {
                skip_value(meta)?;
                self.regex_path = Some(meta.path.span());
            }
            "custom"
            | "nested"
            | "must_match"
            | "credit_card"
            | "non_control_character"
            | "does_not_contain"
            | "required"
            | "phone" => {
                skip_value(meta)?;
            }
            _ => {
                skip_value(meta)?;
                cx.error_spanned_by(
                    &meta.path,
                    format!("`#[validate({key})]` is not read by the compile-time schema; it reads: {VALIDATE_KEYS}"),
                );
            }
        }
        Ok(())
    }

    fn mark(&mut self, span: Span) {
        self.first.get_or_insert(span);
    }

    /// `length(min = …, max = …, equal = …)` or `range(min = …, max = …)`.
    fn bounds(
        &mut self,
        cx: &Ctxt,
        meta: &ParseNestedMeta<'_>,
        key: &str,
        source: Source,
    ) -> syn::Result<()> {
        let span = meta.path.span();
        self.mark(span);
        let written = format!("{key}(...)");
        meta.parse_nested_meta(|inner| {
            let arg = path_text(&inner.path);
            match (key, arg.as_str()) {
                ("length", "min" | "max" | "equal") => {
                    let count = count(cx, &value_tokens(&inner)?, &arg);
                    if arg != "max" {
                        set(cx, &mut self.length_min, &written, span, count);
                    }
                    if arg != "min" {
                        set(cx, &mut self.length_max, &written, span, count);
                    }
                }
                ("range", "min" | "max") => {
                    let number = number(cx, &value_tokens(&inner)?, &arg);
                    let slot = if arg == "min" {
                        &mut self.minimum
                    } else {
                        &mut self.maximum
                    };
                    set(cx, slot, &written, span, number);
                }
                ("range", "exclusive_min" | "exclusive_max") if source == Source::Validate => {
                    let number = number(cx, &value_tokens(&inner)?, &arg);
                    let slot = if arg == "exclusive_min" {
                        &mut self.exclusive_minimum
                    } else {
                        &mut self.exclusive_maximum
                    };
                    set(cx, slot, &written, span, number);
                }
                (_, "message" | "code") if source == Source::Validate => {
                    skip_value(&inner)?;
                }
                _ => {
                    skip_value(&inner)?;
                    let takes = match (key, source) {
                        ("length", _) => "min, max and equal",
                        (_, Source::Validate) => "min, max, exclusive_min and exclusive_max",
                        _ => "min and max",
                    };
                    cx.error_spanned_by(
                        &inner.path,
                        format!(
                            "`{arg}` is not read in `#[{}({key}(...))]`: it takes {takes}",
                            source.name()
                        ),
                    );
                }
            }
            Ok(())
        })
    }

    /// `contains("x")` or `contains(pattern = "x")`: a pattern matching strings holding `x`.
    fn contains(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let span = meta.path.span();
        self.mark(span);
        let text = if meta.input.peek(Token![=]) {
            meta.value()?.parse::<LitStr>()?
        } else {
            let content;
            syn::parenthesized!(content in meta.input);
            if content.peek(LitStr) {
                content.parse::<LitStr>()?
            } else {
                let mut found = None;
                let nested: syn::punctuated::Punctuated<syn::MetaNameValue, Token![,]> =
                    content.parse_terminated(syn::MetaNameValue::parse, Token![,])?;
                for pair in nested {
                    if let (
                        true,
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(text),
                            ..
                        }),
                    ) = (pair.path.is_ident("pattern"), &pair.value)
                    {
                        found = Some(text.clone());
                    }
                }
                match found {
                    Some(text) => text,
                    None => {
                        cx.error_at(
                            span,
                            "`contains` takes the text: `contains(pattern = \"...\")`",
                        );
                        return Ok(());
                    }
                }
            }
        };
        let escaped = regex_escape(&text.value());
        set(
            cx,
            &mut self.pattern,
            "contains",
            span,
            Some(json_escape(&escaped)),
        );
        Ok(())
    }

    /// `email`, `url`, `ipv4`, `ipv6` → `format`.
    fn format_flag(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<()> {
        skip_value(meta)?;
        let span = meta.path.span();
        self.mark(span);
        let format = if key == "url" { "uri" } else { key };
        set(cx, &mut self.format, key, span, Some(format.to_owned()));
        Ok(())
    }
}

/// Sets a keyword once; a second setting is reported on its key.
fn set<T>(cx: &Ctxt, slot: &mut Option<Keyed<T>>, key: &str, span: Span, value: Option<T>) {
    let Some(value) = value else {
        return;
    };
    if let Some(earlier) = slot {
        cx.error_at(
            span,
            format!(
                "`{key}` sets a keyword that `{}` already set for this field; keep one of them",
                earlier.key
            ),
        );
        return;
    }
    *slot = Some(Keyed {
        key: key.to_owned(),
        span,
        value,
    });
}
