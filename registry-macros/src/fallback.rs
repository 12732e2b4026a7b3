//! What the macros emit when the item has mistakes.
//!
//! Only the real mistakes may be reported, so what the user wrote around the item must keep
//! compiling: `#[tool]` emits the item unchanged (an attribute macro consumes it otherwise) with a
//! placeholder `ToolSpec` impl, so the user's `impl Tool` still holds; `#[derive(InputSchema)]`
//! emits a placeholder `InputSchema` impl, so a tool that uses the type as a field raises no
//! error of its own. The placeholders register nothing and are never seen at run time: the build
//! fails on the reported errors.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::expand::Krate;

/// The item as written, under its gate when the gate parsed, plus the errors and, when the item
/// is a struct, enum or union, a placeholder `ToolSpec` impl.
pub fn tool(
    item: TokenStream,
    input: Option<&DeriveInput>,
    cfg: Option<TokenStream>,
    errors: TokenStream,
    krate: &Krate,
) -> TokenStream {
    let cfg = cfg.map(|predicate| quote!(#[cfg(#predicate)]));
    let spec = input.map(|input| {
        let ident = &input.ident;
        let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
        let name = ident.to_string();
        quote! {
            #cfg
            #[automatically_derived]
            impl #impl_generics #krate::ToolSpec for #ident #type_generics #where_clause {
                const DESCRIPTOR: #krate::ToolDescriptor = #krate::ToolDescriptor {
                    name: #name,
                    aliases: &[],
                    description: "",
                    prompt: ::core::option::Option::None,
                    search_hint: ::core::option::Option::None,
                    flags: #krate::tool::Flags::NONE,
                    max_result_size_chars: ::core::option::Option::None,
                    input_schema: "{}",
                    generated_input_schema: ::core::option::Option::None,
                    strict_input_schema: "{}",
                    output_schema: ::core::option::Option::None,
                    input_examples: &[],
                    allowed_callers: ::core::option::Option::None,
                    feature: ::core::option::Option::None,
                    enabled: ::core::option::Option::None,
                    parse: |_| ::core::unreachable!(),
                    source: #krate::tool::Source {
                        type_path: ::core::concat!(::core::module_path!(), "::", #name),
                        file: ::core::file!(),
                        line: ::core::line!(),
                    },
                };
            }
        }
    });
    quote! {
        #cfg
        #item
        #spec
        #errors
    }
}

/// The errors and a placeholder `InputSchema` impl ("any JSON value").
pub fn derive_schema(input: &DeriveInput, errors: TokenStream, krate: &Krate) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    let p = krate.private();
    quote! {
        #errors
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #krate::InputSchema for #ident #type_generics #where_clause {
                const SCHEMA: #p::Schema =
                    #p::Schema::Leaf("");
            }
        };
    }
}
