//! Generation of schema trees and of the const checks that need the fields' types.
//!
//! Each object of the tree is a named `const` (`__TOOLREG_OBJECT_n`), so a check can name it.
//! Every check is a `const _: () = …;` item spanned on the user's token it is about: when it
//! panics during const evaluation, the compiler reports the panic's message there.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::Type;
use syn::spanned::Spanned;

use crate::ast::{Enum, Field, Item, Struct, VariantData, json_escape};
use crate::attr::{FieldSchema, Keyed};

use super::Krate;

/// A tree's expression and the items it needs: its objects and its checks.
pub struct Tree {
    pub expr: TokenStream,
    pub items: TokenStream,
}

/// Generates objects with distinct names within one macro expansion, every path through the
/// expansion's crate path.
pub struct Gen {
    objects: usize,
    items: TokenStream,
    krate: Krate,
}

impl Gen {
    pub fn new(krate: &Krate) -> Gen {
        Gen {
            objects: 0,
            items: TokenStream::new(),
            krate: krate.clone(),
        }
    }

    /// The tree of a struct: an object.
    pub fn struct_tree(mut self, item: &Struct<'_>) -> (Tree, syn::Ident) {
        let deny = item.serde.deny_unknown_fields.is_some();
        let object = self.object(&item.fields, deny, item.ident.span());
        let p = self.krate.private();
        let expr = quote!(#p::Schema::Object(&#object));
        (
            Tree {
                expr,
                items: self.items,
            },
            object,
        )
    }

    /// The tree of a derived item.
    pub fn item_tree(self, item: &Item<'_>) -> Tree {
        match item {
            Item::Struct(item) => self.struct_tree(item).0,
            Item::Enum(item) => self.enum_tree(item),
        }
    }

    fn enum_tree(mut self, item: &Enum<'_>) -> Tree {
        let p = self.krate.private();
        let serde = &item.serde;
        let repr = match (&serde.tag, &serde.content, serde.untagged) {
            (_, _, true) => quote!(#p::Repr::Untagged),
            (Some((_, tag)), Some(content), _) => {
                let (tag, content) = (json_escape(tag), json_escape(content));
                quote!(#p::Repr::Adjacent { tag: #tag, content: #content })
            }
            (Some((_, tag)), None, _) => {
                let tag = json_escape(tag);
                quote!(#p::Repr::Internal { tag: #tag })
            }
            // `content` alone is serde's error.
            (None, _, _) => quote!(#p::Repr::External),
        };
        let internal = serde.tag.is_some() && serde.content.is_none() && !serde.untagged;
        let deny = serde.deny_unknown_fields.is_some();
        let mut variants = Vec::new();
        for variant in &item.variants {
            let name = json_escape(&variant.name);
            let aliases = variant.aliases.iter().map(|alias| json_escape(alias));
            let description = option_str(variant.description.as_deref());
            let data = match &variant.data {
                VariantData::Unit if variant.other => quote!(#p::Data::Other),
                VariantData::Unit => quote!(#p::Data::Unit),
                VariantData::Newtype(ty) => {
                    if internal {
                        self.check_problem(ty.span(), {
                            let schema = schema_value(&self.krate, ty);
                            quote!(#p::tagged_newtype_problem(&#schema))
                        });
                    }
                    let schema = schema_of(&self.krate, ty);
                    quote!(#p::Data::Newtype(#schema))
                }
                VariantData::Tuple(types) => {
                    let schemas = types.iter().map(|ty| schema_value(&self.krate, ty));
                    quote!(#p::Data::Tuple(&[#(#schemas),*]))
                }
                VariantData::Struct(fields) => {
                    let object = self.object(fields, deny, variant.ident.span());
                    quote!(#p::Data::Struct(&#object))
                }
            };
            variants.push(quote! {
                #p::Variant {
                    name: #name,
                    aliases: &[#(#aliases),*],
                    description: #description,
                    data: #data,
                }
            });
        }
        let expr = quote! {
            #p::Schema::Enum(&#p::Enum {
                repr: #repr,
                variants: &[#(#variants),*],
                deny_unknown_fields: #deny,
            })
        };
        Tree {
            expr,
            items: self.items,
        }
    }

    /// A named object const for `fields`, with its checks; returns its name.
    fn object(&mut self, fields: &[Field<'_>], deny: bool, span: Span) -> syn::Ident {
        let p = self.krate.private();
        let name = format_ident!("__TOOLREG_OBJECT_{}", self.objects);
        self.objects += 1;
        let entries: Vec<TokenStream> = fields.iter().map(|field| self.field(field)).collect();
        self.items.extend(quote! {
            const #name: #p::Object = #p::Object {
                fields: &[#(#entries),*],
                deny_unknown_fields: #deny,
            };
        });
        self.check_message(span, quote!(#p::object_problem(&#name)));
        name
    }

    fn field(&mut self, field: &Field<'_>) -> TokenStream {
        let p = self.krate.private();
        let ty = field.ty;
        let name = json_escape(&field.name);
        let aliases = field.aliases.iter().map(|alias| json_escape(alias));
        let description = option_str(field.description.as_deref());
        let required = if field.defaulted {
            quote!(false)
        } else if field.flatten.is_some() {
            quote!(true)
        } else {
            {
                let optional = optional_value(&self.krate, ty);
                quote!(!#optional)
            }
        };
        let flatten = field.flatten.is_some();
        if let Some(key) = &field.flatten {
            self.check_problem(key.span(), {
                let schema = schema_value(&self.krate, ty);
                quote!(#p::flatten_problem(&#schema))
            });
        }
        if let (Some(span), false, None) =
            (field.skip_serializing_if, field.defaulted, &field.flatten)
        {
            let message = format!(
                "`skip_serializing_if` on `{}`: serde leaves the field out when it writes it, but requires it when it reads it back; add `#[serde(default)]`, or make it an `Option`",
                field.ident
            );
            let optional = optional_value(&self.krate, ty);
            self.items.extend(quote_spanned! {span=>
                const _: () = if !#optional {
                    ::core::panic!("{}", #message)
                };
            });
        }
        self.fit_checks(field);
        let keywords = keywords(&self.krate, &field.schema);
        let schema = &field.schema;
        let numbers = [
            &schema.minimum,
            &schema.maximum,
            &schema.exclusive_minimum,
            &schema.exclusive_maximum,
        ];
        if let Some(first) = numbers.into_iter().flatten().next() {
            self.check_message(first.span, {
                let schema = schema_value(&self.krate, ty);
                quote!(#p::bound_problem(&#schema, #keywords))
            });
        }
        let schema = schema_of(&self.krate, ty);
        quote! {
            #p::Field {
                name: #name,
                aliases: &[#(#aliases),*],
                description: #description,
                required: #required,
                flatten: #flatten,
                schema: #schema,
                keywords: #keywords,
            }
        }
    }

    /// A check per keyword that its field's type admits the values it constrains.
    fn fit_checks(&mut self, field: &Field<'_>) {
        let schema = &field.schema;
        let numbers = [
            &schema.minimum,
            &schema.maximum,
            &schema.exclusive_minimum,
            &schema.exclusive_maximum,
        ];
        for keyed in numbers.into_iter().flatten() {
            self.fit(field, keyed, &["NUMBER", "INTEGER"], "numbers", "a number");
        }
        for keyed in [&schema.min_length, &schema.max_length]
            .into_iter()
            .flatten()
        {
            self.fit(field, keyed, &["STRING"], "strings", "a string");
        }
        for keyed in [&schema.pattern, &schema.format].into_iter().flatten() {
            self.fit(field, keyed, &["STRING"], "strings", "a string");
        }
        for keyed in [&schema.min_items, &schema.max_items].into_iter().flatten() {
            self.fit(field, keyed, &["ARRAY"], "arrays", "an array");
        }
        for keyed in [&schema.length_min, &schema.length_max]
            .into_iter()
            .flatten()
        {
            self.fit(
                field,
                keyed,
                &["STRING", "ARRAY"],
                "strings and arrays",
                "a string or an array",
            );
        }
    }

    fn fit<T>(
        &mut self,
        field: &Field<'_>,
        keyed: &Keyed<T>,
        needed: &[&str],
        applies: &str,
        one: &str,
    ) {
        let p = self.krate.private();
        let ty = field.ty;
        let type_text = quote!(#ty).to_string().replace(' ', "");
        let message = format!(
            "`{}` applies to {applies}, but field `{}` (`{type_text}`) is not {one}: remove it, or give it to a field of that type",
            keyed.key, field.ident
        );
        let span = keyed.span;
        let bits = needed.iter().map(|name| {
            let name = format_ident!("{name}");
            quote!(#p::#name)
        });
        let needed = quote!(0 #(| #bits)*);
        let schema = schema_value(&self.krate, ty);
        self.items.extend(quote_spanned! {span=>
            const _: () = if !#p::admits(&#schema, #needed) {
                ::core::panic!("{}", #message)
            };
        });
    }

    /// A check that panics with the `Option<&str>` problem `problem` returns.
    fn check_problem(&mut self, span: Span, problem: TokenStream) {
        self.items.extend(quote_spanned! {span=>
            const _: () = if let ::core::option::Option::Some(message) = #problem {
                ::core::panic!("{}", message)
            };
        });
    }

    /// A check that panics with the [`Message`] `parts` returns.
    pub fn check_message(&mut self, span: Span, parts: TokenStream) {
        self.items.extend(message_check(&self.krate, span, parts));
    }
}

/// A check that panics with the message whose parts `parts` (a `Message`) holds.
pub fn message_check(krate: &Krate, span: Span, parts: TokenStream) -> TokenStream {
    let p = krate.private();
    quote_spanned! {span=>
        const _: () = {
            const PARTS: #p::Message = #parts;
            const LEN: usize = #p::message_len(&PARTS);
            const TEXT: [u8; LEN] = #p::message::<LEN>(&PARTS);
            if PARTS.is_some() {
                ::core::panic!("{}", #p::as_str(&TEXT))
            }
        };
    }
}

/// `&<T as InputSchema>::SCHEMA`, spanned on the type so a missing impl is reported there.
fn schema_of(krate: &Krate, ty: &Type) -> TokenStream {
    let schema = schema_value(krate, ty);
    quote!(&#schema)
}

/// `<T as InputSchema>::SCHEMA`, spanned on the type so a missing impl is reported there. With
/// the `schemars` feature, `SchemaOf<T>::SCHEMA`, which falls back to `schemars::JsonSchema`
/// (the generated code brings its trait into scope: [`schemars_fallback`]).
pub fn schema_value(krate: &Krate, ty: &Type) -> TokenStream {
    let krate = krate.at(ty.span());
    if cfg!(feature = "schemars") {
        quote_spanned!(ty.span()=> <#krate::__private::SchemaOf<#ty>>::SCHEMA)
    } else {
        quote_spanned!(ty.span()=> <#ty as #krate::InputSchema>::SCHEMA)
    }
}

/// Whether serde accepts a field of type `ty` being absent: `<T as InputSchema>::OPTIONAL`. With
/// the `schemars` feature, an `Option<...>` as written is optional too (a schemars type has no
/// `OPTIONAL` to ask).
fn optional_value(krate: &Krate, ty: &Type) -> TokenStream {
    let krate = krate.at(ty.span());
    if !cfg!(feature = "schemars") {
        return quote_spanned!(ty.span()=> <#ty as #krate::InputSchema>::OPTIONAL);
    }
    if is_option(ty) {
        return quote!(true);
    }
    quote_spanned!(ty.span()=> <#krate::__private::SchemaOf<#ty>>::OPTIONAL)
}

/// `Option<T>` (or `std::option::Option<T>`, `core::option::Option<T>`) as written.
fn is_option(ty: &Type) -> bool {
    let Type::Path(path) = ty else {
        return false;
    };
    path.qself.is_none()
        && path.path.segments.last().is_some_and(|last| {
            last.ident == "Option"
                && matches!(&last.arguments, syn::PathArguments::AngleBracketed(args) if args.args.len() == 1)
        })
}

/// What the generated code brings into scope for [`schema_value`]'s fallback: the trait whose
/// associated const `SchemaOf<T>::SCHEMA` resolves to when `T` has no `InputSchema`.
pub fn schemars_fallback(krate: &Krate) -> TokenStream {
    if cfg!(feature = "schemars") {
        let p = krate.private();
        quote!(
            use #p::FromSchemars as _;
        )
    } else {
        quote!()
    }
}

fn option_str(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

/// `&Keywords { … }` with the field's keywords, or `&Keywords::NONE`.
fn keywords(krate: &Krate, schema: &FieldSchema) -> TokenStream {
    let p = krate.private();
    let mut members = Vec::new();
    let text = |value: &str| quote!(::core::option::Option::Some(#value));
    if let Some(title) = &schema.title {
        let value = text(title);
        members.push(quote!(title: #value));
    }
    let numbers = [
        ("minimum", &schema.minimum),
        ("maximum", &schema.maximum),
        ("exclusive_minimum", &schema.exclusive_minimum),
        ("exclusive_maximum", &schema.exclusive_maximum),
        ("pattern", &schema.pattern),
        ("format", &schema.format),
        ("default", &schema.default),
    ];
    for (member, keyed) in numbers {
        if let Some(keyed) = keyed {
            let member = format_ident!("{member}");
            let value = text(&keyed.value);
            members.push(quote!(#member: #value));
        }
    }
    let counts = [
        ("min_length", &schema.min_length),
        ("max_length", &schema.max_length),
        ("min_items", &schema.min_items),
        ("max_items", &schema.max_items),
        ("length_min", &schema.length_min),
        ("length_max", &schema.length_max),
    ];
    for (member, keyed) in counts {
        if let Some(keyed) = keyed {
            let member = format_ident!("{member}");
            let value = keyed.value;
            members.push(quote!(#member: ::core::option::Option::Some(#value)));
        }
    }
    if !schema.examples.is_empty() {
        let examples = &schema.examples;
        members.push(quote!(examples: &[#(#examples),*]));
    }
    if schema.deprecated {
        members.push(quote!(deprecated: true));
    }
    if members.is_empty() {
        return quote!(&#p::Keywords::NONE);
    }
    quote!(&#p::Keywords { #(#members,)* ..#p::Keywords::NONE })
}
