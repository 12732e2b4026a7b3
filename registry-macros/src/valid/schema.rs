//! The rules of a schema item that serde accepts but its schema cannot follow, checked after
//! reading and before generating. What serde_derive itself rejects (`tag` with a tuple variant,
//! `other` on a variant with data, `content` without `tag`) is left to its error, on the same
//! tokens. Rules that depend on a field's type (what `flatten` merges, whether a keyword fits)
//! are checked by the generated code during const evaluation.

use crate::ast::{Enum, Field, Item, Struct, VariantData};
use crate::ctxt::Ctxt;

/// Checks a struct (a `#[tool]` input or a derived type).
pub fn check_struct(cx: &Ctxt, item: &Struct<'_>) {
    let owner = item.ident.to_string();
    check_fields(
        cx,
        &item.fields,
        item.serde.deny_unknown_fields.as_ref(),
        &owner,
    );
}

/// Checks the item of `#[derive(InputSchema)]`.
pub fn check_item(cx: &Ctxt, item: &Item<'_>) {
    match item {
        Item::Struct(item) => check_struct(cx, item),
        Item::Enum(item) => check_enum(cx, item),
    }
}

fn check_enum(cx: &Ctxt, item: &Enum<'_>) {
    for variant in &item.variants {
        if let VariantData::Struct(fields) = &variant.data {
            let owner = format!("{}::{}", item.ident, variant.ident);
            check_fields(cx, fields, item.serde.deny_unknown_fields.as_ref(), &owner);
        }
    }
}

fn check_fields(cx: &Ctxt, fields: &[Field<'_>], deny: Option<&syn::Path>, owner: &str) {
    for field in fields {
        let Some(flatten) = &field.flatten else {
            continue;
        };
        let ident = field.ident;
        if deny.is_some() {
            cx.error_spanned_by(
                flatten,
                format!("`#[serde(flatten)]` on `{ident}` and `#[serde(deny_unknown_fields)]` on `{owner}` cannot be used together: serde does not support them together (it reads a struct with a flattened field as a map and cannot tell which keys are unknown); remove `deny_unknown_fields`, or declare the flattened fields in `{owner}`"),
            );
        }
        if let Some(span) = field.schema.first {
            cx.error_at(
                span,
                format!("`{ident}` is flattened, so it has no property of its own for schema keywords; put them on the fields of the flattened type"),
            );
        }
        if !field.aliases.is_empty() {
            cx.error_spanned_by(
                flatten,
                format!("`{ident}` is flattened and has an `alias`: a flattened field has no name of its own for serde to read; remove the alias"),
            );
        }
    }
}
