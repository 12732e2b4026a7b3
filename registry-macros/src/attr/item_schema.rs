//! The schema attributes of an item rather than a field: a variant's `description`, and the
//! crate path of a type deriving `InputSchema` (`#[schema(crate = "...")]`). Every other key is
//! reported, saying where it goes.

use syn::{Attribute, LitStr, Token};

use super::schema_attrs::{SCHEMA_KEYS, Source};
use super::values::{path_text, serde_like, serde_message, skip_value, value_tokens};
use crate::ast::json_escape;
use crate::ctxt::Ctxt;

/// Where an item's attributes sit, which decides the keys they take.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum On {
    /// A struct or enum deriving `InputSchema`: `#[schema(crate = "...")]`.
    Derived,
    /// A `#[tool]` struct: none (its crate path goes in `#[tool(crate = "...")]`).
    Tool,
    /// A variant: `description`.
    Variant,
}

/// Reads the attributes of a struct or enum: the path of `#[schema(crate = "...")]` on a type
/// deriving `InputSchema`; reports every other key.
pub fn container_schema(cx: &Ctxt, attrs: &[Attribute], on: On) -> Option<syn::Path> {
    read(cx, attrs, on).krate
}

/// Reads the attributes of a variant: `description`; reports every other key.
pub fn variant_schema(cx: &Ctxt, attrs: &[Attribute]) -> Option<String> {
    read(cx, attrs, On::Variant).description
}

#[derive(Default)]
struct ItemSchema {
    /// A variant's description, JSON-escaped.
    description: Option<String>,
    /// The crate path.
    krate: Option<syn::Path>,
}

fn read(cx: &Ctxt, attrs: &[Attribute], on: On) -> ItemSchema {
    let mut out = ItemSchema::default();
    for attr in attrs {
        let Some(source) = Source::of(attr.path()) else {
            continue;
        };
        let result = attr.parse_nested_meta(|meta| {
            let key = path_text(&meta.path);
            if source == Source::Validate && key == "schema" {
                // validator's struct-level check, code of your own.
                skip_value(&meta)?;
                return Ok(());
            }
            if on == On::Variant && key == "description" && source != Source::Validate {
                out.description = Some(json_escape(&meta.value()?.parse::<LitStr>()?.value()));
                return Ok(());
            }
            if on == On::Derived && key == "crate" && source == Source::Schema {
                if !meta.input.peek(Token![=]) {
                    skip_value(&meta)?;
                    cx.error_spanned_by(
                        &meta.path,
                        "`crate` needs a value: `#[schema(crate = \"my_toolreg\")]`, the path toolreg is reached by in this crate",
                    );
                    return Ok(());
                }
                let tokens = value_tokens(&meta)?;
                let Some(path) = super::crate_path(cx, &tokens) else {
                    return Ok(());
                };
                if out.krate.is_some() {
                    cx.error_spanned_by(
                        &meta.path,
                        "duplicate `crate` key in `#[schema(...)]`: it is already set earlier on this item; remove one of them",
                    );
                } else {
                    out.krate = Some(path);
                }
                return Ok(());
            }
            skip_value(&meta)?;
            let written = format!("#[{}({key})]", source.name());
            let message = match (source, serde_like(&key), on) {
                (Source::Schemars, true, _) => serde_message(&written, &key),
                (Source::Schema, _, On::Tool) if key == "crate" => format!(
                    "`{written}` is not read on a `#[tool]` struct: give the path of toolreg in the attribute, `#[tool(crate = \"...\")]`"
                ),
                (_, _, On::Variant) => format!(
                    "`{written}` is not read on a variant: a variant takes `description`, and the other schema keys go on fields"
                ),
                (_, _, On::Derived) => format!(
                    "`{written}` is not read on a struct or enum, which takes only `#[schema(crate = \"...\")]`: the schema keys go on fields ({SCHEMA_KEYS}); describe a field with its doc comment"
                ),
                (_, _, On::Tool) => format!(
                    "`{written}` is not read on a struct or enum: the schema keys go on fields ({SCHEMA_KEYS}); describe a field with its doc comment"
                ),
            };
            cx.error_spanned_by(&meta.path, message);
            Ok(())
        });
        if let Err(error) = result {
            cx.syn_error(error);
        }
    }
    out
}
