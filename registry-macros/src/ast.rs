//! The intermediate form: what the macros read from the user's item, spans kept for errors.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::{Data, DeriveInput, Fields, Ident, Type};

use crate::attr::{self, ContainerSerde};
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
    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(_) => Some(read_struct(cx, input, &data.fields)),
            Fields::Unnamed(_) => {
                cx.error_spanned_by(
                    &input.ident,
                    "#[tool] needs a struct with named fields, the tool's input properties; a tuple struct has no property names: write `struct Name { field: Type }`",
                );
                None
            }
            Fields::Unit => {
                cx.error_spanned_by(
                    &input.ident,
                    format!("#[tool] needs a struct with named fields; a unit struct does not deserialize from a JSON object: write `struct {} {{}}` for a tool without parameters", input.ident),
                );
                None
            }
        },
        Data::Enum(data) => {
            cx.error_spanned_by(
                data.enum_token,
                "#[tool] goes on a struct with named fields, not an enum: the fields are the tool's input",
            );
            None
        }
        Data::Union(data) => {
            cx.error_spanned_by(
                data.union_token,
                "#[tool] goes on a struct with named fields, not a union",
            );
            None
        }
    }
}

/// Reads the item of `#[derive(InputSchema)]`.
pub fn schema_item<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<Item<'a>> {
    reject_generics(cx, input, "#[derive(InputSchema)]");
    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(_) => Some(Item::Struct(read_struct(cx, input, &data.fields))),
            _ => {
                cx.error_spanned_by(
                    &input.ident,
                    "#[derive(InputSchema)] needs a struct with named fields or an enum of unit variants",
                );
                None
            }
        },
        Data::Enum(data) => {
            let serde = attr::container_serde(cx, &input.attrs);
            let mut values = Vec::new();
            for variant in &data.variants {
                let member = attr::member_serde(cx, &variant.attrs);
                if !matches!(variant.fields, Fields::Unit) {
                    cx.error_spanned_by(
                        &variant.ident,
                        format!("variant `{}` carries data; #[derive(InputSchema)] supports enums of unit variants only (they become a string `enum`)", variant.ident),
                    );
                    continue;
                }
                if member.skip {
                    continue;
                }
                let name = variant.ident.unraw().to_string();
                values.push(member.rename.unwrap_or_else(|| match serde.rename_all {
                    Some(rule) => rule.apply_to_variant(&name),
                    None => name,
                }));
            }
            if serde.deny_unknown_fields || serde.default {
                cx.error_spanned_by(
                    &input.ident,
                    "`#[serde(default)]` and `#[serde(deny_unknown_fields)]` do not apply to an enum",
                );
            }
            Some(Item::Enum(Enum {
                ident: &input.ident,
                values,
            }))
        }
        Data::Union(data) => {
            cx.error_spanned_by(
                data.union_token,
                "#[derive(InputSchema)] does not support unions",
            );
            None
        }
    }
}

fn reject_generics(cx: &Ctxt, input: &DeriveInput, what: &str) {
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            format!("{what} does not support generic parameters: the registry needs one concrete input type; write a struct without `<...>`"),
        );
    }
}

fn read_struct<'a>(cx: &Ctxt, input: &'a DeriveInput, fields: &'a Fields) -> Struct<'a> {
    let serde = attr::container_serde(cx, &input.attrs);
    let mut out = Vec::new();
    for field in fields {
        let member = attr::member_serde(cx, &field.attrs);
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

/// A span for errors about the whole item.
pub fn item_span(input: &DeriveInput) -> Span {
    input.ident.span()
}
