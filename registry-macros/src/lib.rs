//! The `#[tool]` attribute and `#[derive(InputSchema)]` for `toolreg`.
//!
//! Use them through `toolreg`, which re-exports both and everything the generated code
//! needs. The stages live one to a file: `attr` parses, `ast` reads the item, `valid` checks the
//! rules, `expand` generates, `fallback` re-emits the item when anything is wrong.

mod ast;
mod attr;
mod case;
mod ctxt;
mod expand;
mod fallback;
mod valid;

use proc_macro::TokenStream;
use syn::DeriveInput;

use crate::attr::ToolAttrs;
use crate::ctxt::Ctxt;
use crate::expand::Krate;

/// Declares a built-in tool: the struct's fields are its input. See `toolreg` for the keys
/// (`crate = "path"` names toolreg when the dependency is renamed or re-exported).
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = proc_macro2::TokenStream::from(item);
    let cx = Ctxt::default();
    let attrs = ToolAttrs::parse(&cx, args.into());
    let input: DeriveInput = match syn::parse2(item.clone()) {
        Ok(input) => input,
        Err(_) => {
            let message =
                "`#[tool]` goes on a struct with named fields, the tool's input properties";
            match ast::other_item(&item) {
                Some((first, true)) => cx.error_spanned_by(
                    first,
                    format!("{message}, not on a function: put the parameters in `struct Name {{ param: Type }}`, the body in `impl Tool for Name`, and `#[tool]` on the struct"),
                ),
                Some((first, false)) => cx.error_spanned_by(
                    &first,
                    format!("{message}, not on a `{first}` item: write `struct Name {{ field: Type }}`"),
                ),
                None => cx.error_at(proc_macro2::Span::call_site(), message),
            }
            let errors = cx.into_compile_errors().unwrap_or_default();
            let krate = Krate::new(attrs.krate.get());
            return fallback::tool(item, None, None, errors, &krate).into();
        }
    };
    // A `#[tool]` struct's crate path is the attribute's: `#[schema(crate)]` is reported.
    attr::container_schema(&cx, &input.attrs, attr::On::Tool);
    let parsed = ast::tool_struct(&cx, &input);
    if let Some(item) = &parsed {
        valid::schema::check_struct(&cx, item);
    }
    let checked = parsed.as_ref().map(|item| valid::check(&cx, &attrs, item));
    let cfg = attrs.feature.get().map(attr::CfgExpr::predicate);
    let (Some(parsed), Some(checked), false) = (parsed, checked, cx.has_errors()) else {
        let errors = cx.into_compile_errors().unwrap_or_default();
        let stripped = expand::without_schema_attrs(&input);
        let krate = Krate::new(attrs.krate.get());
        return fallback::tool(quote::quote!(#stripped), Some(&input), cfg, errors, &krate).into();
    };
    expand::tool(&input, &attrs, &parsed, &checked).into()
}

/// Gives a struct with named fields, or an enum, a compile-time JSON schema so it can be a field
/// of a `#[tool]` input. Reads `#[serde(...)]`, `#[schema(...)]`, and what the schema can state
/// of `#[schemars(...)]` and `#[validate(...)]`. On the struct or enum itself,
/// `#[schema(crate = "path")]` names toolreg when the dependency is renamed or re-exported.
#[proc_macro_derive(InputSchema, attributes(serde, schema, schemars, validate))]
pub fn derive_input_schema(item: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(item as DeriveInput);
    let cx = Ctxt::default();
    let krate = attr::container_schema(&cx, &input.attrs, attr::On::Derived);
    let krate = Krate::new(krate.as_ref());
    let parsed = ast::schema_item(&cx, &input);
    if let Some(item) = &parsed {
        valid::schema::check_item(&cx, item);
    }
    match (parsed, cx.has_errors()) {
        (Some(parsed), false) => expand::derive_schema(&parsed, &krate).into(),
        _ => {
            let errors = cx.into_compile_errors().unwrap_or_default();
            fallback::derive_schema(&input, errors, &krate).into()
        }
    }
}
