//! Code generation: schema trees, the descriptor, the registration.
//!
//! Everything generated sits inside `const _: () = { ... };`, uses paths through the crate path
//! ([`Krate`]: `::toolreg`, or the `crate = "..."` one), and is spanned on the user's own tokens
//! where a trait bound can fail, so the compiler points at the field or struct at fault.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr};

mod krate;
mod schema;

pub use krate::Krate;

use crate::ast::{Item, Struct};
use crate::attr::{Slot, ToolAttrs};
use crate::valid::Checked;

use schema::{Gen, Tree, message_check, schemars_fallback};

/// `#[derive(InputSchema)]`.
pub fn derive_schema(item: &Item<'_>, krate: &Krate) -> TokenStream {
    let ident = match item {
        Item::Struct(item) => item.ident,
        Item::Enum(item) => item.ident,
    };
    let Tree { expr, items } = Gen::new(krate).item_tree(item);
    let fallback = schemars_fallback(krate);
    let p = krate.private();
    quote! {
        const _: () = {
            #fallback
            #items

            #[automatically_derived]
            impl #krate::InputSchema for #ident {
                const SCHEMA: #p::Schema = #expr;
            }
        };
    }
}

/// The item without the field attributes `#[tool]` reads that no derive of the struct declares:
/// `#[schema(...)]` always; `#[schemars(...)]` unless the struct derives `JsonSchema` or
/// `InputSchema`, `#[validate(...)]` unless it derives `Validate` or `InputSchema` (those derives
/// read them too, and the compiler knows them only through a derive).
pub fn without_schema_attrs(input: &DeriveInput) -> DeriveInput {
    let derived = derives(input);
    let declared = |names: &[&str]| derived.iter().any(|name| names.contains(&name.as_str()));
    let keep_schemars = declared(&["JsonSchema", "InputSchema"]);
    let keep_validate = declared(&["Validate", "InputSchema"]);
    let read = |attr: &syn::Attribute| {
        let path = attr.path();
        path.is_ident("schema")
            || (path.is_ident("schemars") && !keep_schemars)
            || (path.is_ident("validate") && !keep_validate)
    };
    let mut input = input.clone();
    input.attrs.retain(|attr| !attr.path().is_ident("schema"));
    if let syn::Data::Struct(data) = &mut input.data {
        for field in data.fields.iter_mut() {
            field.attrs.retain(|attr| !read(attr));
        }
    }
    input
}

/// The last segment of every path in the item's `#[derive(...)]` attributes.
fn derives(input: &DeriveInput) -> Vec<String> {
    let mut names = Vec::new();
    for attr in input
        .attrs
        .iter()
        .filter(|attr| attr.path().is_ident("derive"))
    {
        let _ = attr.parse_nested_meta(|meta| {
            if let Some(last) = meta.path.segments.last() {
                names.push(last.ident.to_string());
            }
            Ok(())
        });
    }
    names
}

/// `#[tool]`: the struct as written, then its descriptor and registration, all under the gate.
pub fn tool(
    input: &DeriveInput,
    attrs: &ToolAttrs,
    item: &Struct<'_>,
    checked: &Checked,
) -> TokenStream {
    let krate = &Krate::new(attrs.krate.get());
    let p = krate.private();
    let ident = item.ident;
    let cfg = attrs.feature.get().map(|expr| {
        let predicate = expr.predicate();
        quote!(#[cfg(#predicate)])
    });
    let (
        Tree {
            expr: root,
            items: tree_items,
        },
        object,
    ) = Gen::new(krate).struct_tree(item);
    let input = without_schema_attrs(input);
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
    // `strict` on an input with no strict form (a map, an untyped value, a keyword outside the
    // strict subsets) fails at compile time, on the field, naming it and what is in the way.
    let strict_check: TokenStream = if attrs.strict.get().is_some() {
        item.fields
            .iter()
            .enumerate()
            .map(|(index, field)| {
                let name = field.name.clone();
                let ty = field.ty;
                message_check(
                    krate,
                    ty.span(),
                    quote!(#p::strict_message(
                        #name,
                        #p::field_refusal(&#object.fields[#index]),
                    )),
                )
            })
            .collect()
    } else {
        quote!()
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
    let input_examples = attrs
        .input_examples
        .get()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let allowed_callers = allowed_callers(krate, attrs.allowed_callers.get());
    let examples_test = examples_test(krate, ident, attrs, cfg.as_ref());
    let enabled = function_ref(krate, &attrs.enabled, quote!(bool));
    let prompt = function_ref(krate, &attrs.prompt, quote!(::std::string::String));
    let type_name = ident.to_string();
    let parse = {
        let krate = krate.at(ident.span());
        quote_spanned!(ident.span()=> #krate::__private::parse_input::<#ident>)
    };
    let root_const = format_ident!("__TOOLREG_ROOT");
    let (output_consts, output_schema) = match attrs.output.get() {
        Some(ty) => (
            {
                let krate = krate.at(ty.span());
                quote_spanned! {ty.span()=>
                    const __TOOLREG_OUT: #krate::__private::Schema =
                        <#ty as #krate::InputSchema>::SCHEMA;
                    const __TOOLREG_OUT_LEN: usize = #krate::__private::rendered_len(
                        &__TOOLREG_OUT,
                        #krate::__private::Mode::Standard,
                    );
                    const __TOOLREG_OUT_BYTES: [u8; __TOOLREG_OUT_LEN] =
                        #krate::__private::render::<__TOOLREG_OUT_LEN>(
                            &__TOOLREG_OUT,
                            #krate::__private::Mode::Standard,
                        );
                    const _: () = #krate::__private::assert_output::<#ident, #ty>();
                }
            },
            quote!(::core::option::Option::Some(#p::as_str(
                &__TOOLREG_OUT_BYTES
            ))),
        ),
        None => (quote!(), quote!(::core::option::Option::None)),
    };
    let fallback = schemars_fallback(krate);
    let (generated_fn, input_schema, generated_schema) = if cfg!(feature = "schemars") {
        (
            quote! {
                fn __toolreg_generated_schema() -> &'static str {
                    static TEXT: ::std::sync::OnceLock<&'static str> = ::std::sync::OnceLock::new();
                    TEXT.get_or_init(|| {
                        ::std::boxed::Box::leak(
                            #p::to_json(
                                &#root_const,
                                #p::Mode::Standard,
                            )
                            .into_boxed_str(),
                        )
                    })
                }
            },
            quote! {
                if #p::has_generated(&#root_const) {
                    ""
                } else {
                    #p::as_str(&__TOOLREG_BYTES)
                }
            },
            quote! {
                if #p::has_generated(&#root_const) {
                    ::core::option::Option::Some(__toolreg_generated_schema)
                } else {
                    ::core::option::Option::None
                }
            },
        )
    } else {
        (
            quote!(),
            quote!(#p::as_str(&__TOOLREG_BYTES)),
            quote!(::core::option::Option::None),
        )
    };
    quote! {
        #cfg
        #input

        #cfg
        const _: () = {
            #fallback
            #tree_items
            const #root_const: #p::Schema = #root;
            const __TOOLREG_LEN: usize = #p::rendered_len(
                &#root_const,
                #p::Mode::Standard,
            );
            const __TOOLREG_BYTES: [u8; __TOOLREG_LEN] = #p::render::<__TOOLREG_LEN>(
                &#root_const,
                #p::Mode::Standard,
            );
            const __TOOLREG_STRICT_LEN: usize = #p::rendered_len(
                &#root_const,
                #p::Mode::Strict,
            );
            const __TOOLREG_STRICT_BYTES: [u8; __TOOLREG_STRICT_LEN] = #p::render::<__TOOLREG_STRICT_LEN>(
                &#root_const,
                #p::Mode::Strict,
            );
            #output_consts
            #strict_check
            #generated_fn

            #[automatically_derived]
            impl #krate::ToolSpec for #ident {
                const DESCRIPTOR: #krate::ToolDescriptor = #krate::ToolDescriptor {
                    name: #name,
                    aliases: &[#(#aliases),*],
                    description: #description,
                    prompt: #prompt,
                    search_hint: #search_hint,
                    flags: #krate::tool::Flags {
                        defer: #defer,
                        always_load: #always_load,
                        read_only: #read_only,
                        concurrency_safe: #concurrency_safe,
                        destructive: #destructive,
                        strict: #strict,
                    },
                    max_result_size_chars: #max_result,
                    input_schema: #input_schema,
                    generated_input_schema: #generated_schema,
                    strict_input_schema: if #p::strict_capable(&#root_const) {
                        #p::as_str(&__TOOLREG_STRICT_BYTES)
                    } else {
                        ""
                    },
                    output_schema: #output_schema,
                    input_examples: &[#(#input_examples),*],
                    allowed_callers: #allowed_callers,
                    feature: #feature,
                    enabled: #enabled,
                    parse: #parse,
                    source: #krate::tool::Source {
                        type_path: ::core::concat!(::core::module_path!(), "::", #type_name),
                        file: ::core::file!(),
                        line: ::core::line!(),
                    },
                };
            }

            #p::inventory::submit! {
                #p::Registration(
                    &<#ident as #krate::ToolSpec>::DESCRIPTOR
                )
            }
        };

        #examples_test
    }
}

/// `Some(AllowedCallers)` of the `allowed_callers` list (names checked when parsed), or `None`.
fn allowed_callers(krate: &Krate, callers: Option<&Vec<LitStr>>) -> TokenStream {
    let Some(callers) = callers else {
        return quote!(::core::option::Option::None);
    };
    let kinds = callers.iter().map(|caller| {
        let variant = match caller.value().as_str() {
            "direct" => format_ident!("Direct"),
            "code_execution_20250825" => format_ident!("CodeExecution20250825"),
            _ => format_ident!("CodeExecution20260120"),
        };
        quote!(.with(#krate::tool::CallerKind::#variant))
    });
    quote!(::core::option::Option::Some(
        #krate::tool::AllowedCallers::NONE #(#kinds)*
    ))
}

/// A function, in the tool's module, that checks each of its `input_examples` against its input
/// type and input schema and panics, naming the example and the rule, at the first that breaks
/// them; a `#[test]` under `cfg(test)`, so `cargo test` runs it. (Rendering checks them again
/// before any is sent.)
fn examples_test(
    krate: &Krate,
    ident: &Ident,
    attrs: &ToolAttrs,
    cfg: Option<&TokenStream>,
) -> TokenStream {
    if attrs.input_examples.get().is_none_or(Vec::is_empty) {
        return quote!();
    }
    let test = format_ident!("__toolreg_input_examples_of_{}", ident);
    quote! {
        #cfg
        #[cfg_attr(test, test)]
        #[allow(non_snake_case, dead_code)]
        fn #test() {
            if let ::core::result::Result::Err(error) = #krate::__private::check_examples(
                &<#ident as #krate::ToolSpec>::DESCRIPTOR,
            ) {
                ::core::panic!("{}", error);
            }
        }
    }
}

/// `Some(fn(&Switches) -> R)` from the user's `fn() -> R` or `fn(&Switches) -> R`.
///
/// The shape is checked through a trait defined here (in a module, so its name cannot shadow
/// anything the user's path means) whose `on_unimplemented` message quotes the user's
/// `key = path` and the two accepted signatures; the error lands on the path, and rustc's "required
/// by a bound introduced by this call" on the key.
fn function_ref(krate: &Krate, slot: &Slot<syn::Path>, output: TokenStream) -> TokenStream {
    let (Some(path), Some(key_span)) = (slot.get(), slot.span()) else {
        return quote!(::core::option::Option::None);
    };
    let key = slot.key();
    let written = quote!(#path).to_string().replace(' ', "");
    let output_text = if key == "enabled" { "bool" } else { "String" };
    let message = format!("`{key} = {written}` is not a function the registry can call");
    let switches_text = format!("{}::env::Switches", krate.text());
    let label =
        format!("expected `fn() -> {output_text}` or `fn(&{switches_text}) -> {output_text}`");
    let note = format!(
        "`{key}` takes a function with no parameters or one `&{switches_text}` parameter, returning `{output_text}`"
    );
    let escape = |text: String| text.replace('{', "{{").replace('}', "}}");
    let (message, label, note) = (escape(message), escape(label), escape(note));
    let trait_name = if key == "enabled" {
        format_ident!("EnabledFn")
    } else {
        format_ident!("PromptFn")
    };
    let module = format_ident!("__toolreg_{}", key);
    // The module keeps the trait's name from shadowing anything the user's path means; inside
    // it, the crate path is reached from the module.
    let (inner, glob) = krate.in_nested_module();
    let glob = glob.then(|| {
        quote! {
            #[allow(unused_imports)]
            use super::*;
        }
    });
    let items = quote! {
        mod #module {
            #glob
            #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
            pub trait #trait_name<Marker> {
                fn eval(&self, switches: &#inner::env::Switches) -> #output;
            }
            impl<F: ::core::ops::Fn() -> #output> #trait_name<()> for F {
                fn eval(&self, _: &#inner::env::Switches) -> #output {
                    self()
                }
            }
            impl<F: ::core::ops::Fn(&#inner::env::Switches) -> #output>
                #trait_name<(#inner::env::Switches,)> for F
            {
                fn eval(&self, switches: &#inner::env::Switches) -> #output {
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
            |switches: &#krate::env::Switches| #call
        })
    }
}

fn option_str(value: Option<&LitStr>) -> TokenStream {
    match value {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}
