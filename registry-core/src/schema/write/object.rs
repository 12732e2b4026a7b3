//! Rendering objects: properties (flattened ones merged, aliased ones repeated), `required`,
//! the rules of aliased properties and `additionalProperties`.

use super::{Mode, Out, member, put, write_node};
use crate::schema::tree::{Field, Keywords, Object, Schema, Variant};

/// The leading property of an internally tagged variant: the tag.
pub(super) struct Head<'a> {
    pub(super) tag: &'a str,
    pub(super) variant: &'a Variant,
    pub(super) siblings: &'a [Variant],
}

/// An object's members: `"type":"object","properties":{…}`, `required`, the rules of aliased
/// properties and `additionalProperties`. `head` is an internally tagged variant's tag.
pub(super) const fn write_object(
    out: &mut Out<'_>,
    object: &Object,
    head: Option<&Head<'_>>,
    mode: Mode,
) {
    write_object_parts(
        out,
        object.fields,
        object.deny_unknown_fields,
        head,
        None,
        mode,
    );
}

/// [`write_object`] from its parts; `values` is the value schema of a map read in the same
/// object (an internally tagged newtype variant holding a map).
pub(super) const fn write_object_parts(
    out: &mut Out<'_>,
    fields: &[Field],
    deny_unknown_fields: bool,
    head: Option<&Head<'_>>,
    values: Option<&Schema>,
    mode: Mode,
) {
    let strict = matches!(mode, Mode::Strict);
    put(out, "\"type\":\"object\",\"properties\":{");
    let mut first = true;
    if let Some(head) = head {
        member(out, &mut first);
        super::enums::write_tag(out, head, mode);
    }
    write_properties(out, fields, &mut first, mode);
    put(out, "}");
    let mut wrote = false;
    if let Some(head) = head {
        required_name(out, &mut wrote, head.tag);
    }
    write_required(out, fields, true, &mut wrote, mode);
    if wrote {
        put(out, "]");
    }
    if !strict {
        write_alias_rules(out, fields);
    }
    let values = match values {
        Some(values) => Some(values),
        None => flattened_map(fields),
    };
    if strict || deny_unknown_fields {
        put(out, ",\"additionalProperties\":false");
    } else if let Some(values) = values {
        put(out, ",\"additionalProperties\":");
        write_node(out, values, None, &Keywords::NONE, mode);
    }
}

/// The properties, flattened objects' inline; an aliased property is repeated under each alias
/// (standard rendering only: the strict one names the canonical property only).
const fn write_properties(out: &mut Out<'_>, fields: &[Field], first: &mut bool, mode: Mode) {
    let mut rest = fields;
    while let Some((field, more)) = rest.split_first() {
        rest = more;
        if field.flatten {
            if let Schema::Object(object) = field.schema {
                write_properties(out, object.fields, first, mode);
            }
            continue;
        }
        property(
            out,
            first,
            field.name,
            field,
            field.description,
            field.keywords,
            mode,
        );
        if matches!(mode, Mode::Standard) {
            // An alias is an old or other name: `deprecated` steers the model to the first.
            let mut keywords = *field.keywords;
            keywords.deprecated = true;
            let mut aliases = field.aliases;
            while let Some((alias, others)) = aliases.split_first() {
                property(out, first, alias, field, None, &keywords, mode);
                aliases = others;
            }
        }
    }
}

const fn property(
    out: &mut Out<'_>,
    first: &mut bool,
    name: &str,
    field: &Field,
    description: Option<&str>,
    keywords: &Keywords,
    mode: Mode,
) {
    member(out, first);
    put(out, "\"");
    put(out, name);
    put(out, "\":");
    write_node(out, field.schema, description, keywords, mode);
}

/// One name of `required`.
pub(super) const fn required_name(out: &mut Out<'_>, wrote: &mut bool, name: &str) {
    put(out, if *wrote { ",\"" } else { ",\"required\":[\"" });
    put(out, name);
    put(out, "\"");
    *wrote = true;
}

/// The required names: every property in the strict rendering; otherwise the required ones
/// without aliases (the alias rules require one of their names).
const fn write_required(
    out: &mut Out<'_>,
    fields: &[Field],
    required: bool,
    wrote: &mut bool,
    mode: Mode,
) {
    let strict = matches!(mode, Mode::Strict);
    let mut rest = fields;
    while let Some((field, more)) = rest.split_first() {
        rest = more;
        if field.flatten {
            if let Schema::Object(object) = field.schema {
                write_required(out, object.fields, required && field.required, wrote, mode);
            }
        } else if strict || (required && field.required && field.aliases.is_empty()) {
            required_name(out, wrote, field.name);
        }
    }
}

/// The number of aliased properties, flattened objects' included.
const fn count_aliased(fields: &[Field]) -> usize {
    let mut count = 0;
    let mut rest = fields;
    while let Some((field, more)) = rest.split_first() {
        rest = more;
        if field.flatten {
            if let Schema::Object(object) = field.schema {
                count += count_aliased(object.fields);
            }
        } else if !field.aliases.is_empty() {
            count += 1;
        }
    }
    count
}

/// serde reads an aliased field under any one of its names and refuses two of them. The rule is
/// one `not` of the violations, two names of one field or none of a required field's, because
/// the APIs refuse `oneOf`, `anyOf` and `allOf` at the top of a tool's schema.
const fn write_alias_rules(out: &mut Out<'_>, fields: &[Field]) {
    if count_aliased(fields) == 0 {
        return;
    }
    put(out, ",\"not\":{\"anyOf\":[");
    let mut first = true;
    alias_violations(out, fields, true, &mut first);
    put(out, "]}");
}

const fn alias_violations(out: &mut Out<'_>, fields: &[Field], required: bool, first: &mut bool) {
    let mut rest = fields;
    while let Some((field, more)) = rest.split_first() {
        rest = more;
        if field.flatten {
            if let Schema::Object(object) = field.schema {
                alias_violations(out, object.fields, required && field.required, first);
            }
            continue;
        }
        if field.aliases.is_empty() {
            continue;
        }
        // Two of its names: the name and an alias, or two aliases.
        let mut aliases = field.aliases;
        while let Some((alias, others)) = aliases.split_first() {
            both_required(out, first, field.name, alias);
            let mut later = others;
            while let Some((other, after)) = later.split_first() {
                both_required(out, first, alias, other);
                later = after;
            }
            aliases = others;
        }
        if required && field.required {
            member(out, first);
            put(out, "{\"not\":{\"anyOf\":[");
            each_name_required(out, field);
            put(out, "]}}");
        }
    }
}

const fn both_required(out: &mut Out<'_>, first: &mut bool, a: &str, b: &str) {
    member(out, first);
    put(out, "{\"required\":[\"");
    put(out, a);
    put(out, "\",\"");
    put(out, b);
    put(out, "\"]}");
}

/// `{"required":["name"]},{"required":["alias"]}`…
const fn each_name_required(out: &mut Out<'_>, field: &Field) {
    put(out, "{\"required\":[\"");
    put(out, field.name);
    put(out, "\"]}");
    let mut aliases = field.aliases;
    while let Some((alias, more)) = aliases.split_first() {
        put(out, ",{\"required\":[\"");
        put(out, alias);
        put(out, "\"]}");
        aliases = more;
    }
}

/// The value schema of the first flattened map, flattened objects' included.
const fn flattened_map(fields: &[Field]) -> Option<&'static Schema> {
    let mut rest = fields;
    while let Some((field, more)) = rest.split_first() {
        rest = more;
        if field.flatten {
            match field.schema {
                Schema::Map(values) => return Some(values),
                Schema::Object(object) => {
                    if let Some(values) = flattened_map(object.fields) {
                        return Some(values);
                    }
                }
                _ => {}
            }
        }
    }
    None
}
