//! Code generation: schema trees, the descriptor, the registration.
//!
//! Everything generated sits inside `const _: () = { ... };`, uses absolute paths through
//! `::registry_core::__private`, and is spanned on the user's own tokens where a trait bound can
//! fail, so the compiler points at the field or struct at fault.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr};

use crate::ast::{self, Enum, Item, Struct};
use crate::attr::{Slot, ToolAttrs};
use crate::valid::Checked;

/// The `Schema::Object(...)` expression of a struct.
fn object_schema(item: &Struct<'_>) -> TokenStream {
    let fields = item.fields.iter().map(|field| {
        let ty = field.ty;
        let name = ast::json_escape(&field.name);
        let description = match &field.docs {
            Some(text) => {
                let text = ast::json_escape(text);
                quote!(::core::option::Option::Some(#text))
            }
            None => quote!(::core::option::Option::None),
        };
        let required = if field.defaulted {
            quote!(false)
        } else {
            quote_spanned!(ty.span()=> !<#ty as ::registry_core::InputSchema>::OPTIONAL)
        };
        let schema = quote_spanned!(ty.span()=> &<#ty as ::registry_core::InputSchema>::SCHEMA);
        quote! {
            ::registry_core::__private::Field {
                name: #name,
                description: #description,
                required: #required,
                schema: #schema,
            }
        }
    });
    let deny = item.serde.deny_unknown_fields;
    quote! {
        ::registry_core::__private::Schema::Object(&::registry_core::__private::Object {
            fields: &[#(#fields),*],
            deny_unknown_fields: #deny,
        })
    }
}

fn enum_schema(item: &Enum<'_>) -> TokenStream {
    let values: Vec<String> = item
        .values
        .iter()
        .map(|value| format!("\"{}\"", ast::json_escape(value)))
        .collect();
    let text = format!("\"type\":\"string\",\"enum\":[{}]", values.join(","));
    quote!(::registry_core::__private::Schema::Leaf(#text))
}

/// `#[derive(InputSchema)]`.
pub fn derive_schema(item: &Item<'_>) -> TokenStream {
    let (ident, schema) = match item {
        Item::Struct(item) => (item.ident, object_schema(item)),
        Item::Enum(item) => (item.ident, enum_schema(item)),
    };
    quote! {
        const _: () = {
            #[automatically_derived]
            impl ::registry_core::InputSchema for #ident {
                const SCHEMA: ::registry_core::__private::Schema = #schema;
            }
        };
    }
}

/// `#[tool]`: the struct as written, then its descriptor and registration, all under the gate.
pub fn tool(
    input: &DeriveInput,
    attrs: &ToolAttrs,
    item: &Struct<'_>,
    checked: &Checked,
) -> TokenStream {
    let ident = item.ident;
    let cfg = attrs.feature.get().map(|expr| {
        let predicate = expr.predicate();
        quote!(#[cfg(#predicate)])
    });
    let root = object_schema(item);
    let name = &checked.name;
    let description = &checked.description;
    let aliases = attrs.aliases.get().map(Vec::as_slice).unwrap_or_default();
    let search_hint = option_str(attrs.search_hint.get());
    let flag = |set: bool| set;
    let defer = flag(attrs.defer.get().is_some());
    let always_load = flag(attrs.always_load.get().is_some());
    let read_only = flag(attrs.read_only.get().is_some());
    let concurrency_safe = flag(attrs.concurrency_safe.get().is_some());
    let destructive = flag(attrs.destructive.get().is_some());
    let strict = flag(attrs.strict.get().is_some());
    // `strict` on an input with no strict form (a map, an untyped value) fails at compile
    // time, on the key.
    let strict_check = match attrs.strict.span() {
        Some(span) => quote_spanned! {span=>
            const _: () = ::core::assert!(
                ::registry_core::__private::strict_capable(&__TOOLREG_ROOT),
                "#[tool(strict)]: this input has a map or an untyped `serde_json::Value`, which a strict schema cannot describe; remove `strict`"
            );
        },
        None => quote!(),
    };
    let max_result = match attrs.max_result_size_chars.get() {
        Some(size) => quote!(::core::option::Option::Some(#size)),
        None => quote!(::core::option::Option::None),
    };
    let feature = match attrs.feature.get() {
        Some(expr) => {
            let text = expr.text();
            quote!(::core::option::Option::Some(#text))
        }
        None => quote!(::core::option::Option::None),
    };
    let enabled = function_ref(&attrs.enabled, quote!(bool));
    let prompt = function_ref(&attrs.prompt, quote!(::std::string::String));
    let type_name = ident.to_string();
    let parse = quote_spanned!(ident.span()=> ::registry_core::__private::parse_input::<#ident>);
    let root_const = format_ident!("__TOOLREG_ROOT");
    let (output_consts, output_schema) = match attrs.output.get() {
        Some(ty) => (
            quote_spanned! {ty.span()=>
                const __TOOLREG_OUT: ::registry_core::__private::Schema =
                    <#ty as ::registry_core::InputSchema>::SCHEMA;
                const __TOOLREG_OUT_LEN: usize = ::registry_core::__private::rendered_len(
                    &__TOOLREG_OUT,
                    ::registry_core::__private::Mode::Standard,
                );
                const __TOOLREG_OUT_BYTES: [u8; __TOOLREG_OUT_LEN] =
                    ::registry_core::__private::render::<__TOOLREG_OUT_LEN>(
                        &__TOOLREG_OUT,
                        ::registry_core::__private::Mode::Standard,
                    );
                const _: () = ::registry_core::__private::assert_output::<#ident, #ty>();
            },
            quote!(::core::option::Option::Some(
                ::registry_core::__private::as_str(&__TOOLREG_OUT_BYTES)
            )),
        ),
        None => (quote!(), quote!(::core::option::Option::None)),
    };
    quote! {
        #cfg
        #input

        #cfg
        const _: () = {
            const #root_const: ::registry_core::__private::Schema = #root;
            const __TOOLREG_LEN: usize = ::registry_core::__private::rendered_len(
                &#root_const,
                ::registry_core::__private::Mode::Standard,
            );
            const __TOOLREG_BYTES: [u8; __TOOLREG_LEN] = ::registry_core::__private::render::<__TOOLREG_LEN>(
                &#root_const,
                ::registry_core::__private::Mode::Standard,
            );
            const __TOOLREG_STRICT_LEN: usize = ::registry_core::__private::rendered_len(
                &#root_const,
                ::registry_core::__private::Mode::Strict,
            );
            const __TOOLREG_STRICT_BYTES: [u8; __TOOLREG_STRICT_LEN] = ::registry_core::__private::render::<__TOOLREG_STRICT_LEN>(
                &#root_const,
                ::registry_core::__private::Mode::Strict,
            );
            #output_consts
            #strict_check

            #[automatically_derived]
            impl ::registry_core::ToolSpec for #ident {
                const DESCRIPTOR: ::registry_core::ToolDescriptor = ::registry_core::ToolDescriptor {
                    name: #name,
                    aliases: &[#(#aliases),*],
                    description: #description,
                    prompt: #prompt,
                    search_hint: #search_hint,
                    flags: ::registry_core::Flags {
                        defer: #defer,
                        always_load: #always_load,
                        read_only: #read_only,
                        concurrency_safe: #concurrency_safe,
                        destructive: #destructive,
                        strict: #strict,
                    },
                    max_result_size_chars: #max_result,
                    input_schema: ::registry_core::__private::as_str(&__TOOLREG_BYTES),
                    strict_input_schema: if ::registry_core::__private::strict_capable(&#root_const) {
                        ::registry_core::__private::as_str(&__TOOLREG_STRICT_BYTES)
                    } else {
                        ""
                    },
                    output_schema: #output_schema,
                    feature: #feature,
                    enabled: #enabled,
                    parse: #parse,
                    source: ::registry_core::Source {
                        type_path: ::core::concat!(::core::module_path!(), "::", #type_name),
                        file: ::core::file!(),
                        line: ::core::line!(),
                    },
                };
            }

            ::registry_core::__private::inventory::submit! {
                ::registry_core::__private::Registration(
                    &<#ident as ::registry_core::ToolSpec>::DESCRIPTOR
                )
            }
        };
    }
}

/// `Some(fn(&Switches) -> R)` from the user's `fn() -> R` or `fn(&Switches) -> R`.
///
/// The shape is checked through a trait defined here (in a module, so its name cannot shadow
/// anything the user's path means) whose `on_unimplemented` message quotes the user's
/// `key = path` and the two accepted signatures; the error lands on the path, and rustc's "required
/// by a bound introduced by this call" on the key.
fn function_ref(slot: &Slot<syn::Path>, output: TokenStream) -> TokenStream {
    let (Some(path), Some(key_span)) = (slot.get(), slot.span()) else {
        return quote!(::core::option::Option::None);
    };
    let key = slot.key();
    let written = quote!(#path).to_string().replace(' ', "");
    let output_text = if key == "enabled" { "bool" } else { "String" };
    let message = format!("`{key} = {written}` is not a function the registry can call");
    let label = format!(
        "expected `fn() -> {output_text}` or `fn(&registry_core::Switches) -> {output_text}`"
    );
    let note = format!(
        "`{key}` takes a function with no parameters or one `&registry_core::Switches` parameter, returning `{output_text}`"
    );
    let escape = |text: String| text.replace('{', "{{").replace('}', "}}");
    let (message, label, note) = (escape(message), escape(label), escape(note));
    let trait_name = if key == "enabled" {
        format_ident!("EnabledFn")
    } else {
        format_ident!("PromptFn")
    };
    let module = format_ident!("__toolreg_{}", key);
    let items = quote! {
        mod #module {
            #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
            pub trait #trait_name<Marker> {
                fn eval(&self, switches: &::registry_core::Switches) -> #output;
            }
            impl<F: ::core::ops::Fn() -> #output> #trait_name<()> for F {
                fn eval(&self, _: &::registry_core::Switches) -> #output {
                    self()
                }
            }
            impl<F: ::core::ops::Fn(&::registry_core::Switches) -> #output>
                #trait_name<(::registry_core::Switches,)> for F
            {
                fn eval(&self, switches: &::registry_core::Switches) -> #output {
                    self(switches)
                }
            }
        }
    };
    let callee = {
        let module = Ident::new(&module.to_string(), key_span);
        let trait_name = Ident::new(&trait_name.to_string(), key_span);
        quote_spanned!(key_span=> #module::#trait_name::eval)
    };
    let call = quote_spanned!(path.span()=> #callee(&#path, switches));
    quote! {
        ::core::option::Option::Some({
            #items
            |switches: &::registry_core::Switches| #call
        })
    }
}

fn option_str(value: Option<&LitStr>) -> TokenStream {
    match value {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}
