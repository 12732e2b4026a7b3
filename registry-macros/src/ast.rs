//! The intermediate form: what the macros read from the user's item, spans kept for errors.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::ext::IdentExt;
use syn::{Data, DeriveInput, Fields, Ident, Type};

use crate::attr::{self, Container, ContainerSerde, Member};
use crate::ctxt::Ctxt;

/// A struct with named fields: a tool's input, or a nested input type.
pub struct Struct<'a> {
    pub ident: &'a Ident,
    pub docs: Option<String>,
    pub serde: ContainerSerde,
    pub fields: Vec<Field<'a>>,
}

/// One field that the schema shows.
pub struct Field<'a> {
    /// The property name serde reads.
    pub name: String,
    pub docs: Option<String>,
    pub ty: &'a Type,
    /// `#[serde(default)]` on the field or the struct.
    pub defaulted: bool,
}

/// A unit-only enum: a string with a fixed set of values.
pub struct Enum<'a> {
    pub ident: &'a Ident,
    /// The variant names serde reads, in declaration order.
    pub values: Vec<String>,
}

/// What `#[derive(InputSchema)]` was put on.
pub enum Item<'a> {
    Struct(Struct<'a>),
    Enum(Enum<'a>),
}

/// Reads a struct with named fields; records why when the item is not one.
pub fn tool_struct<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<Struct<'a>> {
    reject_generics(cx, input, "#[tool]");
    let ident = &input.ident;
    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(_) => Some(read_struct(cx, input, &data.fields)),
            Fields::Unnamed(_) => {
                cx.error_spanned_by(
                    ident,
                    format!("`#[tool]` needs a struct with named fields, the tool's input properties; a tuple struct has no property names: write `struct {ident} {{ name: Type }}`"),
                );
                None
            }
            Fields::Unit => {
                cx.error_spanned_by(
                    ident,
                    format!("`#[tool]` needs a struct with named fields; a unit struct does not deserialize from a JSON object: write `struct {ident} {{}}` for a tool without parameters"),
                );
                None
            }
        },
        Data::Enum(data) => {
            cx.error_spanned_by(
                data.enum_token,
                format!("`#[tool]` goes on a struct with named fields, not an enum: the fields are the tool's input properties; write `struct {ident} {{ name: Type }}`, with an enum-typed field for a choice"),
            );
            None
        }
        Data::Union(data) => {
            cx.error_spanned_by(
                data.union_token,
                format!("`#[tool]` goes on a struct with named fields, not a union: write `struct {ident} {{ name: Type }}`"),
            );
            None
        }
    }
}

/// Reads the item of `#[derive(InputSchema)]`.
pub fn schema_item<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<Item<'a>> {
    reject_generics(cx, input, "#[derive(InputSchema)]");
    let ident = &input.ident;
    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(_) => Some(Item::Struct(read_struct(cx, input, &data.fields))),
            Fields::Unnamed(_) => {
                cx.error_spanned_by(
                    ident,
                    format!("`#[derive(InputSchema)]` needs a struct with named fields or an enum of unit variants; a tuple struct has no property names: write `struct {ident} {{ name: Type }}`"),
                );
                None
            }
            Fields::Unit => {
                cx.error_spanned_by(
                    ident,
                    format!("`#[derive(InputSchema)]` needs a struct with named fields or an enum of unit variants; a unit struct does not deserialize from a JSON object: write `struct {ident} {{}}`"),
                );
                None
            }
        },
        Data::Enum(data) => {
            let serde = attr::container_serde(cx, &input.attrs, Container::Enum);
            let mut values = Vec::new();
            for variant in &data.variants {
                let member = attr::member_serde(cx, &variant.attrs, Member::Variant);
                // serde never reads a skipped variant, so it may carry data.
                if member.skip {
                    continue;
                }
                if !matches!(variant.fields, Fields::Unit) {
                    cx.error_spanned_by(
                        &variant.ident,
                        format!("variant `{}` carries data, but `#[derive(InputSchema)]` supports enums of unit variants only (they become a string `enum`); make it a unit variant, or move its data into fields of a struct", variant.ident),
                    );
                    continue;
                }
                let name = variant.ident.unraw().to_string();
                values.push(member.rename.unwrap_or_else(|| match serde.rename_all {
                    Some(rule) => rule.apply_to_variant(&name),
                    None => name,
                }));
            }
            Some(Item::Enum(Enum { ident, values }))
        }
        Data::Union(data) => {
            cx.error_spanned_by(
                data.union_token,
                format!("`#[derive(InputSchema)]` does not support unions: write `struct {ident} {{ name: Type }}` or an enum of unit variants"),
            );
            None
        }
    }
}

fn reject_generics(cx: &Ctxt, input: &DeriveInput, what: &str) {
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            format!("`{what}` does not support generic parameters: the schema is built for one concrete type; remove the `<...>` and write the fields with concrete types"),
        );
    }
}

fn read_struct<'a>(cx: &Ctxt, input: &'a DeriveInput, fields: &'a Fields) -> Struct<'a> {
    let serde = attr::container_serde(cx, &input.attrs, Container::Struct);
    let mut out = Vec::new();
    for field in fields {
        let member = attr::member_serde(cx, &field.attrs, Member::Field);
        if member.skip {
            continue;
        }
        let ident = field.ident.as_ref().expect("named fields");
        let base = ident.unraw().to_string();
        let name = member.rename.unwrap_or_else(|| match serde.rename_all {
            Some(rule) => rule.apply_to_field(&base),
            None => base,
        });
        out.push(Field {
            name,
            docs: attr::docs(&field.attrs),
            ty: &field.ty,
            defaulted: member.default || serde.default,
        });
    }
    Struct {
        ident: &input.ident,
        docs: attr::docs(&input.attrs),
        serde,
        fields: out,
    }
}

/// Escapes text for the inside of a JSON string.
pub fn json_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            ch if (ch as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", ch as u32)),
            ch => out.push(ch),
        }
    }
    out
}

/// For an item that is not a struct, enum or union: its first token after the attributes and
/// visibility (`fn`, `impl`, `async`, ...), to put the error on, and whether it is a function.
pub fn other_item(item: &TokenStream) -> Option<(TokenTree, bool)> {
    let mut tokens = item.clone().into_iter().peekable();
    // Attributes (`#[...]`) and visibility (`pub`, `pub(crate)`).
    loop {
        match tokens.peek()? {
            TokenTree::Punct(punct) if punct.as_char() == '#' => {
                tokens.next();
                tokens.next();
            }
            TokenTree::Ident(ident) if ident == "pub" => {
                tokens.next();
                if matches!(tokens.peek(), Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Parenthesis)
                {
                    tokens.next();
                }
            }
            _ => break,
        }
    }
    let first = tokens.peek()?.clone();
    // `fn`, `const fn`, `async unsafe fn`, `extern "C" fn`.
    let is_fn = tokens
        .take_while(|token| matches!(token, TokenTree::Ident(_) | TokenTree::Literal(_)))
        .any(|token| matches!(&token, TokenTree::Ident(ident) if ident == "fn"));
    Some((first, is_fn))
}
