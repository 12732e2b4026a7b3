//! Rendering serde enums: one branch per variant, told apart by its tag.
//!
//! The standard rendering uses `oneOf` (the branches exclude each other by their tags) and
//! `const` tags; the strict one uses `anyOf` and one-value `enum` tags, which both strict
//! subsets accept, and names each variant by its canonical name only.

use super::object::{Head, required_name, write_object, write_object_parts};
use super::{Mode, Out, member, open_branch, put, write_data};
use crate::schema::tree::{Data, Enum, Repr, Schema, Variant};

pub(super) const fn write_enum(out: &mut Out<'_>, item: &Enum, mode: Mode) {
    let strict = matches!(mode, Mode::Strict);
    if matches!(item.repr, Repr::External) && all_unit(item.variants) {
        put(out, "\"type\":\"string\",\"enum\":[");
        let mut first = true;
        names(out, item.variants, !strict, &mut first);
        put(out, "]");
        return;
    }
    put(
        out,
        if strict || matches!(item.repr, Repr::Untagged) {
            "\"anyOf\":["
        } else {
            "\"oneOf\":["
        },
    );
    let mut first = true;
    let mut rest = item.variants;
    while let Some((variant, more)) = rest.split_first() {
        rest = more;
        match item.repr {
            Repr::External => external(out, variant, item.variants, &mut first, mode),
            Repr::Internal { tag } => {
                member(out, &mut first);
                internal(out, tag, variant, item.variants, mode);
            }
            Repr::Adjacent { tag, content } => {
                member(out, &mut first);
                adjacent(out, tag, content, variant, item, mode);
            }
            Repr::Untagged => {
                member(out, &mut first);
                write_data(out, &variant.data, variant.description, mode);
            }
        }
    }
    put(out, "]");
}

/// Whether every variant is a plain unit variant: the enum is a string `enum`.
const fn all_unit(variants: &[Variant]) -> bool {
    let mut rest = variants;
    while let Some((variant, more)) = rest.split_first() {
        if !matches!(variant.data, Data::Unit) {
            return false;
        }
        rest = more;
    }
    true
}

/// The names (and aliases) of `variants` as JSON strings, `#[serde(other)]` ones left out.
const fn names(out: &mut Out<'_>, variants: &[Variant], aliases: bool, first: &mut bool) {
    let mut rest = variants;
    while let Some((variant, more)) = rest.split_first() {
        rest = more;
        if matches!(variant.data, Data::Other) {
            continue;
        }
        quoted(out, first, variant.name);
        if aliases {
            let mut others = variant.aliases;
            while let Some((alias, more)) = others.split_first() {
                quoted(out, first, alias);
                others = more;
            }
        }
    }
}

const fn quoted(out: &mut Out<'_>, first: &mut bool, text: &str) {
    member(out, first);
    put(out, "\"");
    put(out, text);
    put(out, "\"");
}

/// `"type":"string"` and what tells this variant's name apart: `const`, an `enum` of its name
/// and aliases, or for `#[serde(other)]` any string that names no other variant.
const fn tag_value(out: &mut Out<'_>, variant: &Variant, siblings: &[Variant], mode: Mode) {
    put(out, "\"type\":\"string\",");
    let mut first = true;
    match (&variant.data, mode) {
        (Data::Other, _) => {
            put(out, "\"not\":{\"enum\":[");
            names(out, siblings, true, &mut first);
            put(out, "]}");
        }
        (_, Mode::Strict) => {
            put(out, "\"enum\":[");
            quoted(out, &mut first, variant.name);
            put(out, "]");
        }
        (_, Mode::Standard) if variant.aliases.is_empty() => {
            put(out, "\"const\":\"");
            put(out, variant.name);
            put(out, "\"");
        }
        (_, Mode::Standard) => {
            put(out, "\"enum\":[");
            names(out, core::slice::from_ref(variant), true, &mut first);
            put(out, "]");
        }
    }
}

/// `"tag":{…}`, the leading property of a tagged variant's object.
pub(super) const fn write_tag(out: &mut Out<'_>, head: &Head<'_>, mode: Mode) {
    put(out, "\"");
    put(out, head.tag);
    put(out, "\":{");
    tag_value(out, head.variant, head.siblings, mode);
    put(out, "}");
}

/// Externally tagged: a unit variant is a string; a variant with data is an object with one
/// property, its name (one branch per alias).
const fn external(
    out: &mut Out<'_>,
    variant: &Variant,
    siblings: &[Variant],
    first: &mut bool,
    mode: Mode,
) {
    if matches!(variant.data, Data::Unit | Data::Other) {
        member(out, first);
        let mut inner = open_branch(out, variant.description);
        member(out, &mut inner);
        tag_value(out, variant, siblings, mode);
        put(out, "}");
        return;
    }
    external_branch(out, variant.name, variant, first, mode);
    if matches!(mode, Mode::Standard) {
        let mut aliases = variant.aliases;
        while let Some((alias, more)) = aliases.split_first() {
            external_branch(out, alias, variant, first, mode);
            aliases = more;
        }
    }
}

const fn external_branch(
    out: &mut Out<'_>,
    name: &str,
    variant: &Variant,
    first: &mut bool,
    mode: Mode,
) {
    member(out, first);
    let mut inner = open_branch(out, variant.description);
    member(out, &mut inner);
    put(out, "\"type\":\"object\",\"properties\":{\"");
    put(out, name);
    put(out, "\":");
    write_data(out, &variant.data, None, mode);
    put(out, "},\"required\":[\"");
    put(out, name);
    put(out, "\"],\"additionalProperties\":false}");
}

/// Internally tagged: the tag beside the variant's own properties (a struct variant's fields,
/// or a newtype variant's struct or map).
const fn internal(
    out: &mut Out<'_>,
    tag: &str,
    variant: &Variant,
    siblings: &[Variant],
    mode: Mode,
) {
    let head = Head {
        tag,
        variant,
        siblings,
    };
    let mut first = open_branch(out, variant.description);
    member(out, &mut first);
    match &variant.data {
        Data::Struct(object) => write_object(out, object, Some(&head), mode),
        Data::Newtype(Schema::Object(object)) => write_object(out, object, Some(&head), mode),
        Data::Newtype(Schema::Map(values)) => {
            write_object_parts(out, &[], false, Some(&head), Some(values), mode)
        }
        // A unit variant (serde ignores the other keys); nothing else compiles with `tag`.
        _ => write_object_parts(out, &[], false, Some(&head), None, mode),
    }
    put(out, "}");
}

/// Adjacently tagged: `{"tag": name, "content": data}`; a unit variant's content is absent or
/// `null`.
const fn adjacent(
    out: &mut Out<'_>,
    tag: &str,
    content: &str,
    variant: &Variant,
    item: &Enum,
    mode: Mode,
) {
    let strict = matches!(mode, Mode::Strict);
    let head = Head {
        tag,
        variant,
        siblings: item.variants,
    };
    let unit = matches!(variant.data, Data::Unit | Data::Other);
    let mut first = open_branch(out, variant.description);
    member(out, &mut first);
    put(out, "\"type\":\"object\",\"properties\":{");
    write_tag(out, &head, mode);
    put(out, ",\"");
    put(out, content);
    put(out, "\":");
    write_data(out, &variant.data, None, mode);
    put(out, "}");
    let mut wrote = false;
    required_name(out, &mut wrote, tag);
    if strict || !unit {
        required_name(out, &mut wrote, content);
    }
    put(out, "]");
    if strict || item.deny_unknown_fields {
        put(out, ",\"additionalProperties\":false");
    }
    put(out, "}");
}
