//! What the macros emit when the item has mistakes.
//!
//! The user's item is emitted unchanged (an attribute macro consumes it otherwise), so code that
//! uses the struct keeps compiling and only the real mistakes are reported. Nothing is
//! registered and no trait is implemented.

use proc_macro2::TokenStream;
use quote::quote;

/// The struct as written, under its gate when the gate parsed, plus the errors.
pub fn tool(item: TokenStream, cfg: Option<TokenStream>, errors: TokenStream) -> TokenStream {
    let cfg = cfg.map(|predicate| quote!(#[cfg(#predicate)]));
    quote! {
        #cfg
        #item
        #errors
    }
}
