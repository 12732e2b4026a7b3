//! Compile-time JSON Schemas for tool inputs.
//!
//! Every type that may appear as a field of a `#[tool]` struct implements
//! [`InputSchema`](crate::InputSchema). The implementation is a `const` tree of [`Schema`] nodes;
//! the macros escape every string (names, descriptions, patterns) and render every number and
//! default value while they expand, so the tree needs no escaping or formatting at run time. A
//! concrete tool's generated code measures the tree and writes it into a fixed-size byte array,
//! both during const evaluation: the finished schema is a `&'static str` that exists before
//! `main` runs, is byte-identical on every build, and costs nothing at start-up.
//!
//! A type without an implementation is a compile error on the field that uses it, and so is
//! every serde attribute or schema key the schema cannot follow, so a schema never silently
//! disagrees with what serde accepts.
//!
//! ```
//! use toolreg::InputSchema;
//! use toolreg::schema::Schema;
//! const ITEMS: Schema = <Vec<u8> as InputSchema>::SCHEMA;
//! assert!(matches!(ITEMS, Schema::Array { unique: false, .. }));
//! ```
//!
//! # What `#[derive(InputSchema)]` and `#[tool]` read
//!
//! The serde attributes the schema follows, and the schema keys of a field's `#[schema(...)]`
//! attribute, with what the macros read from `#[schemars(...)]` and `#[validate(...)]` (as
//! schemars 1.x reads them) and Rust's `#[deprecated]`. Any other key of `#[schema]`,
//! `#[schemars]` or `#[validate]` is a compile error listing these, and so is a serde attribute
//! the schema cannot follow (`with`/`deserialize_with`, `transparent`, `from`/`try_from`,
//! `remote`, a variant's `untagged`). A keyword that does not fit the field's type (`min_length`
//! on an integer) is a compile error on the keyword.
//!
//! | attribute | on | in the schema |
//! |---|---|---|
//! | serde `rename`, `rename_all`, `rename_all_fields` (also their `deserialize = ` forms) | container, variant, field | the names serde reads |
//! | serde `alias` | field | each alias is a property too, with the same schema and `"deprecated":true` (steering the model to the canonical name), and the object's `not` rule refuses two of the names, or none of a required field's: serde refuses two (a `not`, because the APIs refuse `oneOf`, `anyOf` and `allOf` at the top of a tool's schema). Strict: the canonical name only |
//! | serde `alias` | variant | the tag also takes the alias (a tagged enum), or the alias gets its own branch (externally tagged). Strict: the canonical name only |
//! | serde `default` | container, field | the property is not `required` |
//! | serde `skip`, `skip_deserializing` | field, variant | left out |
//! | serde `deny_unknown_fields` | container | `"additionalProperties":false`; not with `flatten`, which serde does not support with it (a compile error naming both) |
//! | serde `flatten` | field | a struct deriving `InputSchema`: its properties and `required` merged into this object; a `String`-keyed map: its value schema as `additionalProperties` |
//! | serde `tag`, `content`, `untagged` | enum | the representation: see below |
//! | serde `other` | unit variant | a branch for any tag no other variant names |
//! | serde `skip_serializing_if` | field | nothing; a compile error unless serde may find the field absent (`default` or `Option`), since serde would write what it cannot read back |
//! | `description = "…"`; schemars `description` | field, variant | replaces the doc comment |
//! | `title = "…"`; schemars `title` | field | `title` |
//! | `minimum`, `maximum`, `exclusive_minimum`, `exclusive_maximum` = number; schemars and validator `range(min = …, max = …)`, validator's `exclusive_min`/`exclusive_max` | number field | the same keywords; a stated bound replaces the one the type implies, and a compile error when it is looser (`maximum = 300` on a `u8`) |
//! | `min_length`, `max_length` = count | string field | `minLength`, `maxLength` |
//! | `min_items`, `max_items` = count | array field | `minItems`, `maxItems` |
//! | schemars and validator `length(min = …, max = …, equal = …)` | string or array field | `minLength`/`maxLength` on a string, `minItems`/`maxItems` on an array |
//! | `pattern = "…"`; schemars `regex(pattern = "…")`, `pattern("…")`, `contains("…")`/`contains(pattern = "…")`; validator `contains(pattern = "…")` | string field | `pattern` (`contains` escaped) |
//! | `format = "…"`; schemars and validator `email` and `url`, schemars `ipv4`, `ipv6` | string field | `format` (`email`, `uri`, `ipv4`, `ipv6`) |
//! | `default = literal` | field | `default` |
//! | `examples = [literal, …]`; schemars `example = literal` (repeatable) | field | `examples` |
//! | `deprecated`; Rust's `#[deprecated]` | field | `"deprecated":true` |
//! | validator `custom`, `nested`, `must_match`, `credit_card`, `non_control_character`, `does_not_contain`, `required`, `phone`, `regex(path = …)` beside a `#[schema(pattern = …)]`; `schema(…)` on a struct | field | nothing: checks of your own code that no schema keyword states |
//! | `crate = "path"` | struct, enum deriving `InputSchema` | nothing: the path the generated code reaches toolreg by, for a dependency renamed in Cargo.toml or re-exported (default `::toolreg`; a `#[tool]` takes it as `#[tool(crate = "...")]`). The only key of `#[schema]` a struct or enum takes |
//!
//! Values are literals (strings, numbers, `true`/`false`, and `[…]` of them for `default` and
//! `examples`): the schema is built at compile time, so a `const` or an expression cannot be
//! read. `pattern` is not checked by the macro; it is an ECMA-262 regular expression, which
//! dispatch matches in linear time (the `regex` crate): one with look-around or a
//! backreference does not compile, and every call of the tool is refused saying so.
//!
//! # Enums
//!
//! An enum whose variants are all units is a string `enum`. Otherwise each variant is one
//! branch of a `oneOf` (standard rendering; the branches exclude each other by their tags) or an
//! `anyOf` (strict rendering, and untagged enums):
//!
//! | serde representation | a unit variant `A` | a variant `B` with data |
//! |---|---|---|
//! | externally tagged (the default) | `{"type":"string","const":"A"}` | `{"type":"object","properties":{"B":data},"required":["B"],"additionalProperties":false}` |
//! | internally tagged, `tag = "t"` | `{"type":"object","properties":{"t":{"type":"string","const":"A"}},"required":["t"]}` | the tag first, then the fields of the struct variant (or of the newtype variant's struct, or its map as `additionalProperties`) |
//! | adjacently tagged, `tag = "t", content = "c"` | `{"t": A}`, with `"c"` `null` and not required | `{"t": B, "c": data}`, both required |
//! | untagged | `{"type":"null"}` | data alone |
//!
//! The data of a newtype variant is its type's schema, of a struct variant an object, of a
//! tuple variant `{"type":"array","prefixItems":[…],"minItems":n,"maxItems":n}`. The strict
//! rendering writes tags as one-value `enum`s, which both strict subsets accept.
//!
//! # Where serde accepts more than the schema
//!
//! The schema describes what the model should send; everything it accepts, serde reads, with
//! one exception: integers past 2^53 (see below). serde also reads a few forms the schema does
//! not advertise: `null` for an `Option<T>` property (the strict rendering does advertise it),
//! `{"A":null}` for an externally tagged unit variant, and a struct (or an internally tagged
//! variant) written as an array of its field values.
//!
//! # Integers
//!
//! `i8`, `u8`, `i16`, `u16`, `i32` and `u32` carry their exact range; `u64`, `u128` and `usize`
//! only `"minimum":0`; `i64`, `i128` and `isize` no bound. A bound past ±2^53 tells the model
//! nothing (and is not exact in JavaScript), so it is dropped: the schema then accepts integers
//! serde refuses as out of range, and serde's error says so.
//!
//! # Types from schemars
//!
//! With the `schemars` feature, a field whose type implements `schemars::JsonSchema` but not
//! [`InputSchema`](crate::InputSchema) is accepted (a type with both uses its `InputSchema`). Its schema cannot be
//! built at compile time: schemars generates it the first time the tool's schema is rendered,
//! and it is kept for the life of the process, so every request carries the same bytes; the
//! tool's [`ToolDescriptor::input_schema`](crate::ToolDescriptor::input_schema) is then empty
//! and [`ToolDescriptor::schema`](crate::ToolDescriptor::schema) renders it. The generated schema
//! is inlined (no `$ref`; a recursive type is unrolled `RECURSION_DEPTH` levels, below which any
//! value is accepted and serde still checks it), and `$schema`, the root `title` and schemars'
//! non-standard `format`s (`int32`, `uint8`, `double`, …) are left out. It is opaque to the
//! compile-time checks: no strict form (so not with `#[tool(strict)]`), no `flatten`, and a
//! field keyword is added beside it unchecked. The other way, `json_schema::<T>` gives schemars
//! an `InputSchema` type's schema (for `#[schemars(schema_with = "…")]`), and
//! `impl_json_schema!(T)` implements `schemars::JsonSchema` with it, so a type shared with rmcp
//! or rig is described once.
//!
//! # The two renderings
//! * **standard**: `Option<T>` and defaulted fields are left out of `required`; an `Option<T>`
//!   property is described by `T`'s schema (the model omits the field rather than sending
//!   `null`).
//! * **strict** (for the APIs' strict modes), built from the tree's structure: every object
//!   lists all its properties in `required` and carries `"additionalProperties":false`; an
//!   `Option<T>` property becomes `{"anyOf":[T,{"type":"null"}]}`, with the field's keywords in
//!   `T`'s branch; unions are `anyOf`; the bounds a type implies (integer ranges, a `char`'s
//!   length) and `uniqueItems` are left out (serde still checks them), and so are the
//!   annotations `title`, `default`, `examples` and `deprecated`. A defaulted non-`Option` field
//!   is required and not nullable, because serde would reject `null` for it. What both APIs'
//!   strict subsets refuse has no strict form ([`strict_refusal`]): a map or an untyped
//!   [`serde_json::Value`] (open keys, no type), a hand-written [`Schema::Leaf`], a tuple or
//!   `#[serde(other)]` variant, and the keywords `minimum`, `maximum`, `exclusiveMinimum`,
//!   `exclusiveMaximum`, `minLength`, `maxLength`, `maxItems`, `minItems` above 1 and a `format`
//!   outside [`STRICT_FORMATS`]. Such a tool is sent without strict mode, and
//!   `#[tool(strict)]` on it is a compile error naming the field and the keyword.

pub(crate) mod checks;
pub(crate) mod input;
#[cfg(feature = "schemars")]
pub(crate) mod interop;
pub(crate) mod kinds;
pub(crate) mod run_time;
mod tree;
pub(crate) mod write;

pub use checks::{Refusal, STRICT_FORMATS, strict_refusal};
#[cfg(feature = "schemars")]
pub use interop::{RECURSION_DEPTH, json_schema};
pub use run_time::to_json;
pub use tree::{Data, Enum, Field, Generated, Keywords, Kind, Object, Repr, Schema, Variant};
pub use write::Mode;

#[cfg(test)]
mod tests {
    use super::checks::strict_capable;
    use super::write::{as_str, render, rendered_len};
    use super::*;
    use crate::InputSchema;
    use std::collections::BTreeSet;
    use std::path::PathBuf;

    const FIELDS: &[Field] = &[
        Field {
            description: Some("Where \\\"it\\\" is"),
            ..Field::new("path", &<PathBuf as InputSchema>::SCHEMA)
        },
        Field {
            required: !<Option<u8> as InputSchema>::OPTIONAL,
            ..Field::new("limit", &<Option<u8> as InputSchema>::SCHEMA)
        },
        Field {
            required: false,
            ..Field::new("tags", &<BTreeSet<String> as InputSchema>::SCHEMA)
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

    fn text(schema: &Schema, mode: Mode) -> String {
        to_json(schema, mode)
    }

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
        assert_eq!(
            text(&EMPTY, Mode::Standard),
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
        const ANY_VALUE: Schema = <serde_json::Value as InputSchema>::SCHEMA;
        assert_eq!(text(&ANY_VALUE, Mode::Standard), "{}");
    }

    /// The bug this pins: the strict rendering cut a hand-written leaf at its first
    /// `,"minimum":`, so a leaf with a nested `oneOf` became invalid JSON.
    #[test]
    fn hand_written_leaf_is_rendered_whole_and_has_no_strict_form() {
        const LEAF: Schema = Schema::Leaf(
            r#""oneOf":[{"type":"integer","minimum":1},{"type":"string","minLength":2}]"#,
        );
        const ROOT: Schema = Schema::Object(&Object {
            fields: &[Field::new("value", &LEAF)],
            deny_unknown_fields: false,
        });
        for mode in [Mode::Standard, Mode::Strict] {
            let rendered = text(&ROOT, mode);
            let value: serde_json::Value = serde_json::from_str(&rendered).unwrap();
            assert_eq!(
                value["properties"]["value"]["oneOf"][0]["minimum"], 1,
                "{rendered}"
            );
        }
        let refusal = strict_refusal(&ROOT).unwrap();
        assert_eq!(refusal.at, Some("value"));
        assert!(!strict_capable(&ROOT));
    }

    #[test]
    fn integer_bounds_past_two_to_the_53_are_dropped() {
        let bounds = |schema: Schema| text(&schema, Mode::Standard);
        assert_eq!(
            bounds(<u64 as InputSchema>::SCHEMA),
            r#"{"type":"integer","minimum":0}"#
        );
        assert_eq!(
            bounds(<i64 as InputSchema>::SCHEMA),
            r#"{"type":"integer"}"#
        );
        assert_eq!(
            bounds(<u128 as InputSchema>::SCHEMA),
            r#"{"type":"integer","minimum":0}"#
        );
        assert_eq!(
            bounds(<u32 as InputSchema>::SCHEMA),
            r#"{"type":"integer","minimum":0,"maximum":4294967295}"#
        );
        assert_eq!(
            bounds(<i8 as InputSchema>::SCHEMA),
            r#"{"type":"integer","minimum":-128,"maximum":127}"#
        );
    }

    #[test]
    fn keywords_render_after_the_type_and_lengths_follow_the_kind() {
        const KEYWORDS: Keywords = Keywords {
            title: Some("Name"),
            length_min: Some(1),
            length_max: Some(20),
            pattern: Some("^[a-z]+$"),
            default: Some("\"x\""),
            examples: &["\"abc\"", "\"de\""],
            deprecated: true,
            ..Keywords::NONE
        };
        const ITEMS: Keywords = Keywords {
            length_min: Some(1),
            length_max: Some(3),
            ..Keywords::NONE
        };
        const ROOT: Schema = Schema::Object(&Object {
            fields: &[
                Field {
                    keywords: &KEYWORDS,
                    ..Field::new("name", &<Option<String> as InputSchema>::SCHEMA)
                },
                Field {
                    keywords: &ITEMS,
                    ..Field::new("list", &<Vec<u8> as InputSchema>::SCHEMA)
                },
            ],
            deny_unknown_fields: false,
        });
        assert_eq!(
            text(&ROOT, Mode::Standard),
            concat!(
                r#"{"type":"object","properties":{"name":{"title":"Name","type":"string","minLength":1,"maxLength":20,"pattern":"^[a-z]+$","default":"x","examples":["abc","de"],"deprecated":true},"#,
                r#""list":{"type":"array","items":{"type":"integer","minimum":0,"maximum":255},"minItems":1,"maxItems":3}},"required":["name","list"]}"#
            )
        );
        // Strict: the keywords go into the non-null branch; lengths have no strict form.
        assert!(text(&ROOT, Mode::Strict).contains(
            r#""name":{"anyOf":[{"type":"string","pattern":"^[a-z]+$"},{"type":"null"}]}"#
        ));
        assert_eq!(strict_refusal(&ROOT).unwrap().what, "`minLength`");
    }
}
