//! Compile-time JSON Schemas for tool inputs.
//!
//! Every type that may appear as a field of a `#[tool]` struct implements [`InputSchema`]. The
//! implementation is a `const` tree of [`Schema`] nodes whose leaves are pre-rendered JSON
//! fragments; the macro escapes every string (field names, descriptions) while it expands, so the
//! tree needs no escaping at run time. A concrete tool's generated code measures the tree with
//! [`rendered_len`] and writes it into a fixed-size byte array with [`render`], both during const
//! evaluation: the finished schema is a `&'static str` that exists before `main` runs, is
//! byte-identical on every build, and costs nothing at start-up.
//!
//! A type without an implementation is a compile error on the field that uses it, so a schema can
//! never silently disagree with what serde accepts.
//!
//! ```
//! use registry_core::schema::{InputSchema, Schema};
//! const ITEMS: Schema = <Vec<u8> as InputSchema>::SCHEMA;
//! assert!(matches!(ITEMS, Schema::Array { unique: false, .. }));
//! ```
//!
//! # The two renderings
//! * **standard**: `Option<T>` and defaulted fields are left out of `required`; an `Option<T>`
//!   property is described by `T`'s schema (the model omits the field rather than sending `null`;
//!   serde also accepts `null` there, which the schema does not advertise).
//! * **strict** (for the APIs' strict modes): every object lists all its properties in
//!   `required` and carries `"additionalProperties":false`; an `Option<T>` property becomes
//!   `{"anyOf":[T,{"type":"null"}]}`. A defaulted non-`Option` field is required and not nullable,
//!   because serde would reject `null` for it. Maps (`HashMap`, `BTreeMap`) have no strict form:
//!   their `additionalProperties` stays the value schema, which strict APIs refuse.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::path::PathBuf;

/// One node of a compile-time schema tree. Every node renders as one JSON object.
#[derive(Debug, Clone, Copy)]
pub enum Schema {
    /// The members of an object schema, already rendered: `"type":"string"`. Empty for "any JSON
    /// value" (`{}`).
    Leaf(&'static str),
    /// `{"type":"array","items":…}`, with `"uniqueItems":true` for sets.
    Array {
        /// The element schema.
        items: &'static Schema,
        /// Whether the elements must be distinct (sets).
        unique: bool,
    },
    /// `{"type":"object","additionalProperties":…}`: a map with string keys.
    Map(&'static Schema),
    /// `Option<T>`: `T`'s schema, nullable in the strict rendering.
    Optional(&'static Schema),
    /// An object with named properties (a tool's input, or a struct deriving `InputSchema`).
    Object(&'static Object),
}

/// The properties of an object schema, in declaration order.
#[derive(Debug, Clone, Copy)]
pub struct Object {
    /// The properties.
    pub fields: &'static [Field],
    /// `#[serde(deny_unknown_fields)]`: render `"additionalProperties":false`.
    pub deny_unknown_fields: bool,
}

/// One property of an [`Object`].
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// The property name as serde reads it, JSON-escaped, without quotes.
    pub name: &'static str,
    /// The field's doc comment, JSON-escaped, without quotes.
    pub description: Option<&'static str>,
    /// Whether serde requires the field (no `#[serde(default)]`, not an `Option`).
    pub required: bool,
    /// The field's type schema.
    pub schema: &'static Schema,
}

/// A type that can be a field of a tool's input, with its JSON Schema known at compile time.
///
/// Implemented here for the standard types serde deserializes from JSON; derive it for your own
/// structs and unit-only enums with `#[derive(InputSchema)]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no compile-time JSON schema",
    label = "this field's schema needs `{Self}: InputSchema`",
    note = "supported: bool, integers, floats, char, String, PathBuf, serde_json::Value, and Option, Box, Vec, VecDeque, HashSet, BTreeSet and String-keyed HashMap/BTreeMap of supported types",
    note = "for a struct with named fields or an enum of unit variants of your own, add `#[derive(InputSchema)]` to it; otherwise use a supported type"
)]
pub trait InputSchema {
    /// The schema tree.
    const SCHEMA: Schema;
    /// True when serde accepts the field being absent (`Option<T>`), so it is not `required`.
    const OPTIONAL: bool = false;
}

macro_rules! leaf {
    ($($ty:ty => $text:expr),* $(,)?) => {
        $(impl InputSchema for $ty {
            const SCHEMA: Schema = Schema::Leaf($text);
        })*
    };
}

leaf! {
    bool => r#""type":"boolean""#,
    i8 => r#""type":"integer","minimum":-128,"maximum":127"#,
    i16 => r#""type":"integer","minimum":-32768,"maximum":32767"#,
    i32 => r#""type":"integer","minimum":-2147483648,"maximum":2147483647"#,
    i64 => r#""type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807"#,
    i128 => r#""type":"integer","minimum":-170141183460469231731687303715884105728,"maximum":170141183460469231731687303715884105727"#,
    u8 => r#""type":"integer","minimum":0,"maximum":255"#,
    u16 => r#""type":"integer","minimum":0,"maximum":65535"#,
    u32 => r#""type":"integer","minimum":0,"maximum":4294967295"#,
    u64 => r#""type":"integer","minimum":0,"maximum":18446744073709551615"#,
    u128 => r#""type":"integer","minimum":0,"maximum":340282366920938463463374607431768211455"#,
    f32 => r#""type":"number""#,
    f64 => r#""type":"number""#,
    String => r#""type":"string""#,
    char => r#""type":"string","minLength":1,"maxLength":1"#,
    PathBuf => r#""type":"string""#,
    serde_json::Value => "",
}

#[cfg(target_pointer_width = "64")]
leaf! {
    isize => r#""type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807"#,
    usize => r#""type":"integer","minimum":0,"maximum":18446744073709551615"#,
}
#[cfg(target_pointer_width = "32")]
leaf! {
    isize => r#""type":"integer","minimum":-2147483648,"maximum":2147483647"#,
    usize => r#""type":"integer","minimum":0,"maximum":4294967295"#,
}

impl<T: InputSchema> InputSchema for Option<T> {
    const SCHEMA: Schema = Schema::Optional(&T::SCHEMA);
    const OPTIONAL: bool = true;
}

impl<T: InputSchema + ?Sized> InputSchema for Box<T> {
    const SCHEMA: Schema = T::SCHEMA;
    const OPTIONAL: bool = T::OPTIONAL;
}

macro_rules! seq {
    ($($ty:ident $(: $bound:path)? => $unique:expr),* $(,)?) => {
        $(impl<T: InputSchema $(+ $bound)?> InputSchema for $ty<T> {
            const SCHEMA: Schema = Schema::Array { items: &T::SCHEMA, unique: $unique };
        })*
    };
}

seq! {
    Vec => false,
    VecDeque => false,
    BTreeSet: Ord => true,
}

impl<T: InputSchema, S> InputSchema for HashSet<T, S> {
    const SCHEMA: Schema = Schema::Array {
        items: &T::SCHEMA,
        unique: true,
    };
}

impl<V: InputSchema, S> InputSchema for HashMap<String, V, S> {
    const SCHEMA: Schema = Schema::Map(&V::SCHEMA);
}

impl<V: InputSchema> InputSchema for BTreeMap<String, V> {
    const SCHEMA: Schema = Schema::Map(&V::SCHEMA);
}

/// How a schema tree is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The schema as the model normally sees it.
    Standard,
    /// The strict-mode variant: all properties required, optional ones nullable, no extra
    /// properties, and only what both APIs' strict modes accept: a leaf drops an integer
    /// type's range and a `char`'s length (dispatch still checks them: serde does) and a set
    /// drops `uniqueItems`. A map or an untyped [`serde_json::Value`] has no
    /// strict form ([`strict_capable`]).
    Strict,
}

/// Whether `schema` has a strict form: no map (its keys are open) and no untyped
/// `serde_json::Value` anywhere in it.
pub const fn strict_capable(schema: &Schema) -> bool {
    match schema {
        Schema::Leaf(text) => !text.is_empty(),
        Schema::Array { items, .. } => strict_capable(items),
        Schema::Map(_) => false,
        Schema::Optional(inner) => strict_capable(inner),
        Schema::Object(object) => {
            let mut fields = object.fields;
            while let Some((field, rest)) = fields.split_first() {
                if !strict_capable(field.schema) {
                    return false;
                }
                fields = rest;
            }
            true
        }
    }
}

/// A leaf without the bounds strict modes refuse: an integer type's `minimum`/`maximum` and a
/// `char`'s `minLength`/`maxLength`, which the standard leaves here write after the type.
const fn strict_leaf(text: &str) -> &str {
    let mut at = 0;
    let mut rest = text.as_bytes();
    while let Some((_, tail)) = rest.split_first() {
        if (starts_with(rest, b",\"minimum\":") || starts_with(rest, b",\"minLength\":"))
            && let Some((head, _)) = text.split_at_checked(at)
        {
            return head;
        }
        rest = tail;
        at += 1;
    }
    text
}

const fn starts_with(bytes: &[u8], prefix: &[u8]) -> bool {
    let (mut bytes, mut prefix) = (bytes, prefix);
    while let Some((want, more)) = prefix.split_first() {
        match bytes.split_first() {
            Some((got, rest)) if *got == *want => (bytes, prefix) = (rest, more),
            _ => return false,
        }
    }
    true
}

/// The number of bytes [`render`] writes for `schema`.
pub const fn rendered_len(schema: &Schema, mode: Mode) -> usize {
    let mut out = Out { buf: None, pos: 0 };
    write_node(&mut out, schema, None, mode);
    out.pos
}

/// Renders `schema` as minified JSON into an array of exactly `N` bytes (`N` from
/// [`rendered_len`]). Panics during const evaluation when `N` is wrong.
pub const fn render<const N: usize>(schema: &Schema, mode: Mode) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut out = Out {
        buf: Some(&mut buf),
        pos: 0,
    };
    write_node(&mut out, schema, None, mode);
    assert!(out.pos == N, "schema length mismatch");
    buf
}

/// Views rendered bytes as text; the renderer only writes UTF-8.
pub const fn as_str(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("rendered schema is not UTF-8"),
    }
}

struct Out<'a> {
    buf: Option<&'a mut [u8]>,
    pos: usize,
}

/// Appends `text`. Bytes past the end of the buffer are not written, but still counted, so that
/// [`render`]'s length check reports a buffer of the wrong size.
const fn put(out: &mut Out<'_>, text: &str) {
    let mut bytes = text.as_bytes();
    if let Some(buf) = &mut out.buf
        && let Some((_, mut free)) = buf.split_at_mut_checked(out.pos)
    {
        while let Some((byte, rest)) = bytes.split_first() {
            let Some((slot, more)) = { free }.split_first_mut() else {
                break;
            };
            *slot = *byte;
            (bytes, free) = (rest, more);
        }
    }
    out.pos += text.len();
}

/// Writes `{` + optional description + the node's members + `}`.
const fn write_node(out: &mut Out<'_>, node: &Schema, description: Option<&str>, mode: Mode) {
    put(out, "{");
    let mut first = true;
    if let Some(text) = description {
        put(out, "\"description\":\"");
        put(out, text);
        put(out, "\"");
        first = false;
    }
    write_members(out, node, first, mode);
    put(out, "}");
}

const fn comma(out: &mut Out<'_>, first: bool) {
    if !first {
        put(out, ",");
    }
}

const fn write_members(out: &mut Out<'_>, node: &Schema, first: bool, mode: Mode) {
    match node {
        Schema::Leaf(text) => {
            if !text.is_empty() {
                comma(out, first);
                put(
                    out,
                    match mode {
                        Mode::Standard => text,
                        Mode::Strict => strict_leaf(text),
                    },
                );
            }
        }
        Schema::Array { items, unique } => {
            comma(out, first);
            put(out, "\"type\":\"array\",\"items\":");
            write_node(out, items, None, mode);
            if *unique && matches!(mode, Mode::Standard) {
                put(out, ",\"uniqueItems\":true");
            }
        }
        Schema::Map(values) => {
            comma(out, first);
            put(out, "\"type\":\"object\",\"additionalProperties\":");
            write_node(out, values, None, mode);
        }
        Schema::Optional(inner) => match mode {
            Mode::Standard => write_members(out, inner, first, mode),
            Mode::Strict => {
                comma(out, first);
                put(out, "\"anyOf\":[");
                write_node(out, inner, None, mode);
                put(out, ",{\"type\":\"null\"}]");
            }
        },
        Schema::Object(object) => {
            comma(out, first);
            write_object(out, object, mode);
        }
    }
}

const fn write_object(out: &mut Out<'_>, object: &Object, mode: Mode) {
    let strict = matches!(mode, Mode::Strict);
    put(out, "\"type\":\"object\",\"properties\":{");
    let mut fields = object.fields;
    let mut first = true;
    while let Some((field, rest)) = fields.split_first() {
        comma(out, first);
        put(out, "\"");
        put(out, field.name);
        put(out, "\":");
        write_node(out, field.schema, field.description, mode);
        first = false;
        fields = rest;
    }
    put(out, "}");
    let mut wrote_required = false;
    let mut fields = object.fields;
    while let Some((field, rest)) = fields.split_first() {
        if strict || field.required {
            put(
                out,
                if wrote_required {
                    ",\""
                } else {
                    ",\"required\":[\""
                },
            );
            put(out, field.name);
            put(out, "\"");
            wrote_required = true;
        }
        fields = rest;
    }
    if wrote_required {
        put(out, "]");
    }
    if strict || object.deny_unknown_fields {
        put(out, ",\"additionalProperties\":false");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIELDS: &[Field] = &[
        Field {
            name: "path",
            description: Some("Where \\\"it\\\" is"),
            required: true,
            schema: &<PathBuf as InputSchema>::SCHEMA,
        },
        Field {
            name: "limit",
            description: None,
            required: !<Option<u8> as InputSchema>::OPTIONAL,
            schema: &<Option<u8> as InputSchema>::SCHEMA,
        },
        Field {
            name: "tags",
            description: None,
            required: false,
            schema: &<BTreeSet<String> as InputSchema>::SCHEMA,
        },
    ];
    const ROOT: Schema = Schema::Object(&Object {
        fields: FIELDS,
        deny_unknown_fields: false,
    });
    const LEN: usize = rendered_len(&ROOT, Mode::Standard);
    const BYTES: [u8; LEN] = render::<LEN>(&ROOT, Mode::Standard);
    const TEXT: &str = as_str(&BYTES);
    const STRICT_LEN: usize = rendered_len(&ROOT, Mode::Strict);
    const STRICT_BYTES: [u8; STRICT_LEN] = render::<STRICT_LEN>(&ROOT, Mode::Strict);

    #[test]
    fn standard_rendering_omits_optional_fields_from_required() {
        assert_eq!(
            TEXT,
            r#"{"type":"object","properties":{"path":{"description":"Where \"it\" is","type":"string"},"limit":{"type":"integer","minimum":0,"maximum":255},"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true}},"required":["path"]}"#
        );
        serde_json::from_str::<serde_json::Value>(TEXT).unwrap();
    }

    #[test]
    fn strict_rendering_requires_all_and_makes_options_nullable() {
        let text = as_str(&STRICT_BYTES);
        assert_eq!(
            text,
            r#"{"type":"object","properties":{"path":{"description":"Where \"it\" is","type":"string"},"limit":{"anyOf":[{"type":"integer"},{"type":"null"}]},"tags":{"type":"array","items":{"type":"string"}}},"required":["path","limit","tags"],"additionalProperties":false}"#
        );
    }

    #[test]
    fn empty_object_renders_without_required() {
        const EMPTY: Schema = Schema::Object(&Object {
            fields: &[],
            deny_unknown_fields: false,
        });
        const N: usize = rendered_len(&EMPTY, Mode::Standard);
        let bytes = render::<N>(&EMPTY, Mode::Standard);
        assert_eq!(
            std::str::from_utf8(&bytes).unwrap(),
            r#"{"type":"object","properties":{}}"#
        );
    }

    #[test]
    #[should_panic(expected = "schema length mismatch")]
    fn a_buffer_of_the_wrong_size_is_reported_not_overrun() {
        render::<8>(&ROOT, Mode::Standard);
    }

    #[test]
    fn value_renders_as_any() {
        const ANY: Schema = <serde_json::Value as InputSchema>::SCHEMA;
        const N: usize = rendered_len(&ANY, Mode::Standard);
        let bytes = render::<N>(&ANY, Mode::Standard);
        assert_eq!(std::str::from_utf8(&bytes).unwrap(), "{}");
    }
}
