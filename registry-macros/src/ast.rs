//! The intermediate form: what the macros read from the user's item, spans kept for errors.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::ext::IdentExt;
use syn::{Data, DeriveInput, Fields, Ident, Type};

use crate::attr::{self, Container, ContainerSerde, FieldSchema, Member};
use crate::case::RenameRule;
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
    /// The Rust name.
    pub ident: &'a Ident,
    /// The property name serde reads.
    pub name: String,
    /// The other names serde reads (`alias`).
    pub aliases: Vec<String>,
    /// The description, JSON-escaped: `#[schema(description)]`, or the doc comment.
    pub description: Option<String>,
    pub ty: &'a Type,
    /// `#[serde(default)]` on the field or the struct.
    pub defaulted: bool,
    /// The `flatten` key.
    pub flatten: Option<syn::Path>,
    /// The `skip_serializing_if` key.
    pub skip_serializing_if: Option<Span>,
    /// The schema keywords.
    pub schema: FieldSchema,
}

/// An enum: a string `enum` when its variants are units, otherwise a union of its variants.
pub struct Enum<'a> {
    pub ident: &'a Ident,
    pub serde: ContainerSerde,
    /// The variants serde reads, in declaration order.
    pub variants: Vec<Variant<'a>>,
}

/// One variant that the schema shows.
pub struct Variant<'a> {
    pub ident: &'a Ident,
    /// The name serde reads.
    pub name: String,
    pub aliases: Vec<String>,
    /// The doc comment or `#[schema(description)]`, JSON-escaped.
    pub description: Option<String>,
    /// `#[serde(other)]`.
    pub other: bool,
    pub data: VariantData<'a>,
}

/// What a variant carries.
pub enum VariantData<'a> {
    Unit,
    Newtype(&'a Type),
    Tuple(Vec<&'a Type>),
    Struct(Vec<Field<'a>>),
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
                    format!("`#[derive(InputSchema)]` needs a struct with named fields or an enum; a tuple struct has no property names: write `struct {ident} {{ name: Type }}`"),
                );
                None
            }
            Fields::Unit => {
                cx.error_spanned_by(
                    ident,
                    format!("`#[derive(InputSchema)]` needs a struct with named fields or an enum; a unit struct does not deserialize from a JSON object: write `struct {ident} {{}}`"),
                );
                None
            }
        },
        Data::Enum(data) => {
            let serde = attr::container_serde(cx, &input.attrs, Container::Enum);
            let mut variants = Vec::new();
            for variant in &data.variants {
                let member = attr::member_serde(cx, &variant.attrs, Member::Variant);
                let described = attr::variant_schema(cx, &variant.attrs);
                // serde never reads a skipped variant.
                if member.skip {
                    continue;
                }
                let base = variant.ident.unraw().to_string();
                let name = member
                    .rename
                    .clone()
                    .unwrap_or_else(|| match serde.rename_all {
                        Some(rule) => rule.apply_to_variant(&base),
                        None => base,
                    });
                let data = match &variant.fields {
                    Fields::Unit => VariantData::Unit,
                    Fields::Unnamed(fields) => {
                        for field in &fields.unnamed {
                            let inner = attr::member_serde(cx, &field.attrs, Member::Field);
                            if inner.skip || inner.default {
                                cx.error_spanned_by(
                                    field,
                                    format!("a skipped or defaulted field of tuple variant `{}` changes the array serde reads in a way the schema does not follow; make it a struct variant", variant.ident),
                                );
                            }
                        }
                        let types: Vec<&Type> =
                            fields.unnamed.iter().map(|field| &field.ty).collect();
                        match types.as_slice() {
                            [only] => VariantData::Newtype(only),
                            _ => VariantData::Tuple(types),
                        }
                    }
                    Fields::Named(_) => {
                        let rule = member.rename_all.or(serde.rename_all_fields);
                        VariantData::Struct(read_fields(cx, &variant.fields, rule, false))
                    }
                };
                variants.push(Variant {
                    ident: &variant.ident,
                    name,
                    aliases: member.aliases,
                    description: described
                        .or_else(|| attr::docs(&variant.attrs).map(|text| json_escape(&text))),
                    other: member.other,
                    data,
                });
            }
            Some(Item::Enum(Enum {
                ident,
                serde,
                variants,
            }))
        }
        Data::Union(data) => {
            cx.error_spanned_by(
                data.union_token,
                format!("`#[derive(InputSchema)]` does not support unions: write `struct {ident} {{ name: Type }}` or an enum"),
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
    let fields = read_fields(cx, fields, serde.rename_all, serde.default);
    Struct {
        ident: &input.ident,
        docs: attr::docs(&input.attrs),
        serde,
        fields,
    }
}

/// Reads named fields, renamed by `rule`, all defaulted when `default` (the container's).
fn read_fields<'a>(
    cx: &Ctxt,
    fields: &'a Fields,
    rule: Option<RenameRule>,
    default: bool,
) -> Vec<Field<'a>> {
    let mut out = Vec::new();
    for field in fields {
        let member = attr::member_serde(cx, &field.attrs, Member::Field);
        let schema = attr::field_schema(cx, &field.attrs);
        if member.skip {
            continue;
        }
        let Some(ident) = field.ident.as_ref() else {
            continue;
        };
        let base = ident.unraw().to_string();
        let name = member.rename.unwrap_or_else(|| match rule {
            Some(rule) => rule.apply_to_field(&base),
            None => base,
        });
        let description = schema
            .description
            .clone()
            .or_else(|| attr::docs(&field.attrs).map(|text| json_escape(&text)));
        out.push(Field {
            ident,
            name,
            aliases: member.aliases,
            description,
            ty: &field.ty,
            defaulted: member.default || default,
            flatten: member.flatten,
            skip_serializing_if: member.skip_serializing_if,
            schema,
        });
    }
    out
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
