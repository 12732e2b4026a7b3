//! Parsing of serde's attributes, which the schema must follow.
//!
//! serde_derive checks its own syntax and reports it on the same tokens, so this module reports
//! only what serde accepts but the schema cannot describe. Anything it cannot parse is still
//! reported, so a schema never silently disagrees with serde.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{Attribute, LitStr, Token};

use super::values::path_text;
use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// serde attributes on a struct or enum that the schema follows.
#[derive(Default)]
pub struct ContainerSerde {
    pub rename_all: Option<RenameRule>,
    /// `rename_all_fields`: the fields of every struct variant of an enum.
    pub rename_all_fields: Option<RenameRule>,
    pub default: bool,
    /// The `deny_unknown_fields` key, for errors.
    pub deny_unknown_fields: Option<syn::Path>,
    /// `tag = "t"`, with the key.
    pub tag: Option<(syn::Path, String)>,
    /// `content = "c"`.
    pub content: Option<String>,
    pub untagged: bool,
}

/// serde attributes on a field or variant that the schema follows.
#[derive(Default)]
pub struct MemberSerde {
    pub rename: Option<String>,
    pub aliases: Vec<String>,
    pub default: bool,
    pub skip: bool,
    /// The `flatten` key (fields).
    pub flatten: Option<syn::Path>,
    /// The `skip_serializing_if` key (fields).
    pub skip_serializing_if: Option<Span>,
    /// `other` (variants).
    pub other: bool,
    /// `rename_all` (variants): the fields of a struct variant.
    pub rename_all: Option<RenameRule>,
}

/// What a container attribute is on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Container {
    Struct,
    Enum,
}

/// What a member attribute is on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Member {
    Field,
    Variant,
}

/// Container keys serde accepts that change what it reads in a way the schema cannot show.
const UNSUPPORTED_CONTAINER: &[&str] = &[
    "transparent",
    "from",
    "try_from",
    "remote",
    "field_identifier",
    "variant_identifier",
];
/// Whether serde accepts `key` on a field or variant, changing what it reads in a way the schema
/// cannot show.
fn unsupported_member(key: &str, on: Member) -> bool {
    match on {
        Member::Field => matches!(key, "with" | "deserialize_with"),
        Member::Variant => matches!(key, "untagged" | "with" | "deserialize_with"),
    }
}

/// Why the schema cannot follow a container attribute, and what to do; `written` is the
/// attribute as the user wrote it.
fn container_message(written: &str, key: &str, on: Container) -> String {
    match (key, on) {
        ("tag" | "content" | "untagged", Container::Struct) => format!(
            "`{written}` makes serde require a tag field that the tool schema cannot list; remove it"
        ),
        ("transparent", _) => format!(
            "`{written}` makes serde read the single field's value in place of an object, which the tool schema cannot describe; remove it"
        ),
        ("from" | "try_from", _) => format!(
            "`{written}` makes serde read another type in place of this one, and the tool schema cannot know that type's shape; remove it"
        ),
        ("remote", _) => format!(
            "`{written}` describes a type of another crate, which the tool schema cannot see; derive `InputSchema` on a local type instead"
        ),
        _ => format!(
            "`{written}` changes how serde reads this type in a way the tool schema cannot describe; remove it"
        ),
    }
}

/// Why the schema cannot follow a field or variant attribute, and what to do.
fn member_message(written: &str, key: &str, on: Member) -> String {
    match (key, on) {
        ("with" | "deserialize_with", Member::Field) => format!(
            "`{written}` reads this field with custom code whose accepted input the tool schema cannot know; use a field type that implements `InputSchema` and convert it in the tool's body"
        ),
        ("untagged", Member::Variant) => format!(
            "`{written}` lets this variant accept values that the tool schema cannot list; remove it"
        ),
        _ => format!(
            "`{written}` changes how serde reads this in a way the tool schema cannot describe; remove it"
        ),
    }
}

/// Calls `visit` with each key of each `#[serde(...)]` attribute; a parse error is recorded and
/// ends that attribute.
fn for_each_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut visit: impl FnMut(&syn::meta::ParseNestedMeta<'_>, &str) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        let result = attr.parse_nested_meta(|meta| visit(&meta, &path_text(&meta.path)));
        if let Err(error) = result {
            cx.syn_error(error);
        }
    }
}

/// Reads the `#[serde(...)]` attributes of a struct or enum.
pub fn container_serde(cx: &Ctxt, attrs: &[Attribute], on: Container) -> ContainerSerde {
    let mut serde = ContainerSerde::default();
    for_each_key(cx, attrs, |meta, key| {
        match key {
            "rename_all" => {
                // An unknown rule is serde's error, on the same token.
                if let Some(rule) = rename_value(meta)? {
                    serde.rename_all = RenameRule::from_str(&rule.value());
                }
            }
            "rename_all_fields" if on == Container::Enum => {
                if let Some(rule) = rename_value(meta)? {
                    serde.rename_all_fields = RenameRule::from_str(&rule.value());
                }
            }
            "default" if on == Container::Struct => {
                skip_value(meta)?;
                serde.default = true;
            }
            "deny_unknown_fields" => serde.deny_unknown_fields = Some(meta.path.clone()),
            "tag" | "content" if on == Container::Enum => {
                let value: LitStr = meta.value()?.parse()?;
                if key == "tag" {
                    serde.tag = Some((meta.path.clone(), value.value()));
                } else {
                    serde.content = Some(value.value());
                }
            }
            "untagged" if on == Container::Enum => serde.untagged = true,
            "tag" | "content" | "untagged" => {
                let written = format!("#[serde({key}{})]", skip_value(meta)?);
                cx.error_spanned_by(&meta.path, container_message(&written, key, on));
            }
            key if UNSUPPORTED_CONTAINER.contains(&key) => {
                let written = format!("#[serde({key}{})]", skip_value(meta)?);
                cx.error_spanned_by(&meta.path, container_message(&written, key, on));
            }
            // The rest change only serialization (`bound`, `skip_serializing`, ...)
            // or are serde's own error, reported by serde on the same tokens.
            _ => {
                skip_value(meta)?;
            }
        }
        Ok(())
    });
    serde
}

/// Reads the `#[serde(...)]` attributes of a field or variant.
pub fn member_serde(cx: &Ctxt, attrs: &[Attribute], on: Member) -> MemberSerde {
    let mut serde = MemberSerde::default();
    for_each_key(cx, attrs, |meta, key| {
        match key {
            "rename" => {
                if let Some(name) = rename_value(meta)? {
                    serde.rename = Some(name.value());
                }
            }
            "alias" => {
                let value: LitStr = meta.value()?.parse()?;
                serde.aliases.push(value.value());
            }
            "default" if on == Member::Field => {
                skip_value(meta)?;
                serde.default = true;
            }
            "skip" | "skip_deserializing" => serde.skip = true,
            "flatten" if on == Member::Field => serde.flatten = Some(meta.path.clone()),
            "skip_serializing_if" if on == Member::Field => {
                skip_value(meta)?;
                serde.skip_serializing_if = Some(meta.path.span());
            }
            "other" if on == Member::Variant => serde.other = true,
            "rename_all" if on == Member::Variant => {
                if let Some(rule) = rename_value(meta)? {
                    serde.rename_all = RenameRule::from_str(&rule.value());
                }
            }
            key if unsupported_member(key, on) => {
                let written = format!("#[serde({key}{})]", skip_value(meta)?);
                cx.error_spanned_by(&meta.path, member_message(&written, key, on));
            }
            // The rest change only serialization (`bound`, `skip_serializing`, ...)
            // or are serde's own error, reported by serde on the same tokens.
            _ => {
                skip_value(meta)?;
            }
        }
        Ok(())
    });
    serde
}

/// `key = "x"` → `x`; `key(deserialize = "x", serialize = "y")` → `x`; `key(serialize = "y")`
/// or a bare `key` (serde's error) → `None`.
fn rename_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<Option<LitStr>> {
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
    }
    Ok(found)
}

/// Consumes `= value` or `(...)` after a key without interpreting it; returns it as written
/// (` = "t"`), for messages.
fn skip_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<String> {
    let mut skipped = TokenStream::new();
    if meta.input.peek(Token![=]) {
        let eq: Token![=] = meta.input.parse()?;
        eq.to_tokens(&mut skipped);
        while !meta.input.is_empty() && !meta.input.peek(Token![,]) {
            skipped.extend([meta.input.parse::<TokenTree>()?]);
        }
        return Ok(format!(" {skipped}"));
    }
    if meta.input.peek(syn::token::Paren) {
        skipped.extend([meta.input.parse::<TokenTree>()?]);
    }
    Ok(skipped.to_string())
}
