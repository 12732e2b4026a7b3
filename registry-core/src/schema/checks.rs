//! What the generated code checks during const evaluation: a keyword against its field's type,
//! a flattened field's type, the property names of an object, and whether a tree has a strict
//! form. A failed check panics in a `const` item spanned on the user's token, so it is a compile
//! error there, with one of the messages below.

use super::kinds::{ARRAY, STRING, kinds};
use super::tree::{Data, Field, Keywords, Kind, Object, Schema};

/// Whether a schema admits a value of one of the `needed` kinds (a keyword for strings on a
/// string, for numbers on an integer or a float, ...).
pub const fn admits(schema: &Schema, needed: u8) -> bool {
    kinds(schema) & needed != 0
}

/// Why a flattened field's type cannot be flattened, if it cannot.
pub const fn flatten_problem(schema: &Schema) -> Option<&'static str> {
    match schema {
        Schema::Object(object) if object.deny_unknown_fields => Some(
            "`#[serde(flatten)]` of a struct with `#[serde(deny_unknown_fields)]`: serde does not support the two together (the flattened struct would refuse the outer struct's other fields); remove `deny_unknown_fields` from the flattened struct",
        ),
        Schema::Object(_) | Schema::Map(_) => None,
        Schema::Optional(_) => Some(
            "`#[serde(flatten)]` of an `Option`: serde reads `None` whenever the inner fields do not parse, silently dropping a wrong value, which no schema can describe; flatten the struct itself and make its fields `Option`s",
        ),
        Schema::Enum(_) => Some(
            "`#[serde(flatten)]` of an enum has no compile-time schema here: flatten a struct or a map with string keys, or keep the enum as a field",
        ),
        _ => Some(
            "`#[serde(flatten)]` merges properties, so it needs a struct deriving `InputSchema` or a map with string keys (`HashMap<String, T>`/`BTreeMap<String, T>`); this field's type has neither",
        ),
    }
}

/// Why an internally tagged newtype variant cannot hold this type, if it cannot: serde reads it
/// from the object that holds the tag.
pub const fn tagged_newtype_problem(schema: &Schema) -> Option<&'static str> {
    match schema {
        Schema::Object(_) | Schema::Map(_) => None,
        _ => Some(
            "under `#[serde(tag = \"...\")]` a newtype variant is read from the object that holds the tag, so it must hold a struct deriving `InputSchema` or a map; serde cannot read this one: make it a struct variant, or use `#[serde(tag = \"...\", content = \"...\")]`",
        ),
    }
}

/// A stated numeric bound looser than the field's integer type allows (`maximum = 300` on a
/// `u8`): the schema would accept values serde refuses.
pub const fn bound_problem(schema: &Schema, keywords: &Keywords) -> Message {
    let Some((low, high)) = integer_bounds(schema) else {
        return None;
    };
    let checks = [
        ("minimum", keywords.minimum, low, 0, true),
        (
            "exclusive_minimum",
            keywords.exclusive_minimum,
            low,
            -1,
            true,
        ),
        ("maximum", keywords.maximum, high, 0, false),
        (
            "exclusive_maximum",
            keywords.exclusive_maximum,
            high,
            1,
            false,
        ),
    ];
    let mut rest = checks.as_slice();
    while let Some(((key, stated, bound, shift, lower), more)) = rest.split_first() {
        rest = more;
        let (Some(stated), Some(bound)) = (*stated, *bound) else {
            continue;
        };
        let (Some(value), Some(limit)) = (whole(stated, *lower), whole(bound, *lower)) else {
            continue;
        };
        // The first integer the stated bound admits, against the type's own.
        let first = value - *shift;
        let looser = if *lower { first < limit } else { first > limit };
        if looser {
            return Some([
                "`",
                key,
                " = ",
                stated,
                "` is looser than the field's type, whose values stop at ",
                bound,
                ": the schema would accept values serde refuses; state a bound within the type's range",
                "",
                "",
                "",
            ]);
        }
    }
    None
}

const fn integer_bounds(schema: &Schema) -> Option<(Option<&'static str>, Option<&'static str>)> {
    match schema {
        Schema::Scalar {
            kind: Kind::Integer,
            low,
            high,
        } => Some((*low, *high)),
        Schema::Optional(inner) => integer_bounds(inner),
        _ => None,
    }
}

/// A JSON number (`-12`, `3.5`) rounded to the integer a bound admits first: up for a lower
/// bound, down for an upper one. `None` past the range of `i128`.
const fn whole(text: &str, lower: bool) -> Option<i128> {
    let (negative, mut digits) = match text.as_bytes().split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text.as_bytes()),
    };
    let mut value: i128 = 0;
    let mut fraction = false;
    while let Some((byte, rest)) = digits.split_first() {
        digits = rest;
        match byte {
            b'0'..=b'9' if !fraction => {
                let Some(next) = value.checked_mul(10) else {
                    return None;
                };
                let Some(next) = next.checked_add((*byte - b'0') as i128) else {
                    return None;
                };
                value = next;
            }
            b'0' if fraction => {}
            b'1'..=b'9' if fraction => {
                // A fractional part rounds away from the bound's side.
                let up = lower != negative;
                let Some(next) = value.checked_add(if up { 1 } else { 0 }) else {
                    return None;
                };
                return Some(if negative { -next } else { next });
            }
            b'.' => fraction = true,
            _ => return None,
        }
    }
    Some(if negative { -value } else { value })
}

/// A compile-time error message in parts (unused parts empty), or `None` when all is well:
/// const evaluation can only panic with one `&str`, so the parts are joined by [`message`].
pub type Message = Option<[&'static str; 10]>;

/// The length of [`message`]'s text.
pub const fn message_len(parts: &Message) -> usize {
    let mut len = 0;
    if let Some(parts) = parts {
        let mut rest = parts.as_slice();
        while let Some((part, more)) = rest.split_first() {
            len += part.len();
            rest = more;
        }
    }
    len
}

/// The parts joined, into an array of exactly [`message_len`] bytes.
pub const fn message<const N: usize>(parts: &Message) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut out = super::write::Out {
        buf: Some(&mut buf),
        pos: 0,
        generated: super::write::generated::Generated::Absent,
    };
    if let Some(parts) = parts {
        let mut rest = parts.as_slice();
        while let Some((part, more)) = rest.split_first() {
            super::write::put(&mut out, part);
            rest = more;
        }
    }
    buf
}

/// Two properties of one object with the same name once flattened structs are merged (or
/// aliases counted), or a map flattened before a struct (serde hands the map the struct's
/// properties too).
pub const fn object_problem(object: &Object) -> Message {
    let names = count_names(object.fields);
    let mut i = 0;
    while i < names {
        let mut j = i + 1;
        while j < names {
            if let (Some(a), Some(b)) = (name_at(object.fields, i), name_at(object.fields, j))
                && str_eq(a, b)
            {
                return Some([
                    "two properties are named `",
                    a,
                    "` (with `#[serde(flatten)]`, `rename` or `alias`): serde gives the value to the first and the other never sees it; rename one of them",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                ]);
            }
            j += 1;
        }
        i += 1;
    }
    if map_before_struct(object.fields, false) {
        return Some([
            "a map is flattened before a struct: serde hands the map every property the struct reads too, which the schema cannot say; move the flattened map after the flattened structs",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
        ]);
    }
    None
}

const fn count_names(fields: &[Field]) -> usize {
    let mut count = 0;
    let mut rest = fields;
    while let Some((field, more)) = rest.split_first() {
        rest = more;
        if field.flatten {
            if let Schema::Object(object) = field.schema {
                count += count_names(object.fields);
            }
        } else {
            count += 1 + field.aliases.len();
        }
    }
    count
}

/// The `index`th property name, in the order of [`count_names`].
const fn name_at(fields: &[Field], index: usize) -> Option<&'static str> {
    let mut index = index;
    let mut rest = fields;
    while let Some((field, more)) = rest.split_first() {
        rest = more;
        if field.flatten {
            if let Schema::Object(object) = field.schema {
                let inner = count_names(object.fields);
                if index < inner {
                    return name_at(object.fields, index);
                }
                index -= inner;
            }
            continue;
        }
        if index == 0 {
            return Some(field.name);
        }
        index -= 1;
        let mut aliases = field.aliases;
        while let Some((alias, others)) = aliases.split_first() {
            if index == 0 {
                return Some(alias);
            }
            index -= 1;
            aliases = others;
        }
    }
    None
}

const fn map_before_struct(fields: &[Field], seen_map: bool) -> bool {
    let mut seen_map = seen_map;
    let mut rest = fields;
    while let Some((field, more)) = rest.split_first() {
        rest = more;
        if !field.flatten {
            continue;
        }
        match field.schema {
            Schema::Map(_) => seen_map = true,
            Schema::Object(object) if seen_map || map_before_struct(object.fields, false) => {
                return true;
            }
            _ => {}
        }
    }
    false
}

pub(super) const fn str_eq(a: &str, b: &str) -> bool {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    while let (Some((x, rest_a)), Some((y, rest_b))) = (a.split_first(), b.split_first()) {
        if *x != *y {
            return false;
        }
        (a, b) = (rest_a, rest_b);
    }
    true
}

/// Why a tree has no strict form: what is in the way, where, and why.
#[derive(Debug, Clone, Copy)]
pub struct Refusal {
    /// The property (or variant) it was found at, if any.
    pub at: Option<&'static str>,
    /// What is in the way: "a map", "`maximum`".
    pub what: &'static str,
    /// Why the strict subsets refuse it.
    pub why: &'static str,
}

/// Whether `schema` has a strict form: see [`strict_refusal`].
pub const fn strict_capable(schema: &Schema) -> bool {
    strict_refusal(schema).is_none()
}

/// The first part of `schema` that has no strict form, if any: a map (its keys are open), an
/// untyped `serde_json::Value` or a hand-written leaf, a tuple variant (`prefixItems`), a
/// `#[serde(other)]` variant (`not`), or a keyword outside both APIs' strict subsets (numeric
/// bounds, string lengths, `maxItems`, `minItems` above 1, a `format` one of them lacks).
pub const fn strict_refusal(schema: &Schema) -> Option<Refusal> {
    match schema {
        Schema::Leaf(text) if text.is_empty() => Some(Refusal {
            at: None,
            what: "an untyped `serde_json::Value`",
            why: "a strict schema gives every value a type",
        }),
        Schema::Leaf(_) => Some(Refusal {
            at: None,
            what: "a hand-written schema leaf",
            why: "its text is opaque, so no strict form is built from it; compose it from typed nodes or derive `InputSchema`",
        }),
        Schema::Generated(_) => Some(Refusal {
            at: None,
            what: "a schema generated by schemars",
            why: "it is generated at run time, so no strict form is built from it at compile time; derive `InputSchema` for the type",
        }),
        Schema::Scalar { .. } => None,
        Schema::Array { items, .. } => strict_refusal(items),
        Schema::Map(_) => Some(Refusal {
            at: None,
            what: "a map",
            why: "its keys are open, and a strict schema names every property",
        }),
        Schema::Optional(inner) => strict_refusal(inner),
        Schema::Object(object) => fields_refusal(object.fields),
        Schema::Enum(item) => {
            let mut rest = item.variants;
            while let Some((variant, more)) = rest.split_first() {
                rest = more;
                let found = match &variant.data {
                    Data::Unit => None,
                    Data::Other => Some(Refusal {
                        at: None,
                        what: "a `#[serde(other)]` variant",
                        why: "it takes any tag no other variant names, which needs `not`, outside the strict subsets",
                    }),
                    Data::Tuple(_) => Some(Refusal {
                        at: None,
                        what: "a tuple variant",
                        why: "a fixed-length array needs `prefixItems`, outside the strict subsets",
                    }),
                    Data::Newtype(inner) => strict_refusal(inner),
                    Data::Struct(object) => fields_refusal(object.fields),
                };
                if let Some(refusal) = found {
                    return Some(at(refusal, variant.name));
                }
            }
            None
        }
    }
}

/// Names the place of a refusal that has none yet.
const fn at(refusal: Refusal, name: &'static str) -> Refusal {
    match refusal.at {
        Some(_) => refusal,
        None => Refusal {
            at: Some(name),
            ..refusal
        },
    }
}

const fn fields_refusal(fields: &[Field]) -> Option<Refusal> {
    let mut rest = fields;
    while let Some((field, more)) = rest.split_first() {
        rest = more;
        if let Some(refusal) = field_refusal(field) {
            return Some(refusal);
        }
    }
    None
}

/// [`strict_refusal`] for one property: its keywords, then its type.
pub const fn field_refusal(field: &Field) -> Option<Refusal> {
    if let Some((what, why)) = keywords_refusal(field.keywords, kinds(field.schema)) {
        return Some(Refusal {
            at: Some(field.name),
            what,
            why,
        });
    }
    match strict_refusal(field.schema) {
        Some(refusal) => Some(at(refusal, field.name)),
        None => None,
    }
}

const NUMERIC: &str = "Anthropic's strict tool use refuses numeric bounds";
const LENGTHS: &str = "Anthropic's strict tool use refuses string length bounds";
const ITEMS: &str = "Anthropic's strict tool use allows only `minItems` 0 or 1 and no `maxItems`";

/// The formats both strict subsets know (OpenAI's list; Anthropic's adds `uri`).
pub const STRICT_FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// The first keyword outside the strict subsets, for a schema of `kinds`.
const fn keywords_refusal(keywords: &Keywords, kinds: u8) -> Option<(&'static str, &'static str)> {
    let string = kinds & STRING != 0;
    let array = kinds & ARRAY != 0;
    if keywords.minimum.is_some() {
        return Some(("`minimum`", NUMERIC));
    }
    if keywords.maximum.is_some() {
        return Some(("`maximum`", NUMERIC));
    }
    if keywords.exclusive_minimum.is_some() {
        return Some(("`exclusiveMinimum`", NUMERIC));
    }
    if keywords.exclusive_maximum.is_some() {
        return Some(("`exclusiveMaximum`", NUMERIC));
    }
    if keywords.min_length.is_some() || (string && keywords.length_min.is_some()) {
        return Some(("`minLength`", LENGTHS));
    }
    if keywords.max_length.is_some() || (string && keywords.length_max.is_some()) {
        return Some(("`maxLength`", LENGTHS));
    }
    if above_one(keywords.min_items) || (array && above_one(keywords.length_min)) {
        return Some(("`minItems` above 1", ITEMS));
    }
    if keywords.max_items.is_some() || (array && keywords.length_max.is_some()) {
        return Some(("`maxItems`", ITEMS));
    }
    if let Some(format) = keywords.format {
        let mut known = STRICT_FORMATS.as_slice();
        let mut found = false;
        while let Some((name, more)) = known.split_first() {
            found |= str_eq(name, format);
            known = more;
        }
        if !found {
            return Some((
                "a `format` outside date-time, time, date, duration, email, hostname, ipv4, ipv6 and uuid",
                "the strict subsets know only those formats",
            ));
        }
    }
    None
}

const fn above_one(count: Option<u64>) -> bool {
    matches!(count, Some(count) if count > 1)
}

/// The compile-time error of a `#[tool(strict)]` tool whose field `field` has no strict form.
pub const fn strict_message(field: &'static str, refusal: Option<Refusal>) -> Message {
    let Some(refusal) = refusal else {
        return None;
    };
    let (at_open, at_name, at_close) = match refusal.at {
        Some(name) if !str_eq(name, field) => (" (at `", name, "`)"),
        _ => ("", "", ""),
    };
    Some([
        "#[tool(strict)]: field `",
        field,
        "` has ",
        refusal.what,
        at_open,
        at_name,
        at_close,
        ", which has no strict form: ",
        refusal.why,
        "; remove `strict` from `#[tool]`, or change the field",
    ])
}
