//! The input types users already have, one per supported form: enums in each of serde's
//! representations, flattened structs and maps, aliases, constraints from `#[schema]`,
//! `#[schemars]` and `#[validate]`. Each test pins the schema the derive builds; the round-trip
//! tests (`roundtrip.rs`) check each against serde with `jsonschema` as the judge.

use std::collections::BTreeMap;

use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolreg::InputSchema;
use toolreg::schema::{Mode, strict_refusal, to_json};

pub fn standard<T: InputSchema>() -> Value {
    serde_json::from_str(&to_json(&T::SCHEMA, Mode::Standard)).expect("the schema is JSON")
}

pub fn strict<T: InputSchema>() -> Value {
    serde_json::from_str(&to_json(&T::SCHEMA, Mode::Strict)).expect("the strict schema is JSON")
}

/// The new user's enum: refused before ("supports enums of unit variants only").
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub enum Filter {
    /// Match by name.
    ByName(String),
    ByAge {
        min: u32,
    },
    Everything,
    Between(u8, u8),
}

/// A shape, internally tagged.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct Side {
    pub length: u16,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shape {
    Circle {
        radius: u32,
    },
    Square(Side),
    Labels(BTreeMap<String, String>),
    #[serde(alias = "void")]
    Empty,
    #[serde(other)]
    Unknown,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(tag = "t", content = "c", deny_unknown_fields)]
pub enum Command {
    Stop,
    Move(i32),
    Pair(u8, bool),
    Go { to: String },
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(untagged)]
pub enum Loose {
    Nothing,
    Flag(bool),
    Point { x: i16, y: i16 },
    List(Vec<u8>),
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum Renamed {
    FooBar {
        some_field: u8,
    },
    #[serde(rename_all = "UPPERCASE")]
    Baz {
        x_y: u8,
    },
    #[serde(rename = "q")]
    Quux,
    #[serde(skip)]
    #[allow(dead_code)]
    Hidden(std::time::Duration),
}

/// Paging options, flattened into queries.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct Paging {
    /// Where to start.
    pub offset: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
}

/// The new user's flattened options: refused before.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct Query {
    /// What to look for.
    pub text: String,
    #[serde(flatten)]
    pub paging: Paging,
    #[serde(flatten)]
    pub extra: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct Aliased {
    /// The name.
    #[serde(alias = "title")]
    pub name: String,
    #[serde(default, alias = "n", alias = "num")]
    pub count: u8,
}

/// The new user's `#[schemars]` attributes: ignored before (the description lost, the maximum
/// the `u8` limit).
#[derive(Debug, Deserialize, Serialize, InputSchema)]
pub struct Person {
    #[schemars(description = "The person's age", range(max = 150))]
    pub age: u8,
    #[schemars(length(min = 1), example = "Ada")]
    pub name: String,
    #[validate(email)]
    pub email: String,
    #[validate(length(min = 1, max = 3))]
    pub tags: Vec<String>,
}

#[derive(Debug, Deserialize, Serialize, InputSchema)]
#[serde(deny_unknown_fields)]
pub struct Constrained {
    /// A count.
    #[schema(minimum = 1, maximum = 10, default = 3, examples = [1, 5])]
    pub count: u32,
    #[schema(title = "Ratio", exclusive_minimum = 0, exclusive_maximum = 1.5)]
    pub ratio: f64,
    #[schema(
        pattern = "^[a-z]+$",
        min_length = 2,
        max_length = 8,
        format = "hostname"
    )]
    pub host: Option<String>,
    #[schema(min_items = 1, max_items = 4, deprecated)]
    pub ids: Vec<u64>,
    #[schema(description = "Replaces the doc comment")]
    /// Not this.
    pub note: String,
    #[deprecated]
    #[serde(default)]
    pub old: bool,
}

/// Strict-capable: an internally tagged enum of struct and unit variants.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(tag = "action", rename_all = "lowercase")]
pub enum Action {
    /// Open a file.
    Open {
        path: String,
        #[serde(default)]
        line: Option<u32>,
    },
    Close,
}

#[test]
fn enum_with_data_is_a_one_of_of_its_variants() {
    assert_eq!(
        standard::<Filter>(),
        json!({"oneOf": [
            {"description": "Match by name.", "type": "object", "properties": {"ByName": {"type": "string"}},
             "required": ["ByName"], "additionalProperties": false},
            {"type": "object", "properties": {"ByAge": {"type": "object",
                "properties": {"min": {"type": "integer", "minimum": 0, "maximum": 4294967295u64}},
                "required": ["min"]}},
             "required": ["ByAge"], "additionalProperties": false},
            {"type": "string", "const": "Everything"},
            {"type": "object", "properties": {"Between": {"type": "array", "prefixItems": [
                {"type": "integer", "minimum": 0, "maximum": 255},
                {"type": "integer", "minimum": 0, "maximum": 255}], "minItems": 2, "maxItems": 2}},
             "required": ["Between"], "additionalProperties": false},
        ]})
    );
}

#[test]
fn internally_tagged_enum_puts_the_tag_beside_the_variant_fields() {
    let kind = |value: &str| json!({"type": "string", "const": value});
    assert_eq!(
        standard::<Shape>(),
        json!({"oneOf": [
            {"type": "object", "properties": {"kind": kind("circle"),
                "radius": {"type": "integer", "minimum": 0, "maximum": 4294967295u64}},
             "required": ["kind", "radius"]},
            {"type": "object", "properties": {"kind": kind("square"),
                "length": {"type": "integer", "minimum": 0, "maximum": 65535}},
             "required": ["kind", "length"]},
            {"type": "object", "properties": {"kind": kind("labels")}, "required": ["kind"],
             "additionalProperties": {"type": "string"}},
            {"type": "object", "properties": {"kind": {"type": "string", "enum": ["empty", "void"]}},
             "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"type": "string",
                "not": {"enum": ["circle", "square", "labels", "empty", "void"]}}},
             "required": ["kind"]},
        ]})
    );
}

#[test]
fn adjacently_tagged_enum_has_a_tag_and_a_content_property() {
    let tag = |value: &str| json!({"type": "string", "const": value});
    assert_eq!(
        standard::<Command>(),
        json!({"oneOf": [
            {"type": "object", "properties": {"t": tag("Stop"), "c": {"type": "null"}},
             "required": ["t"], "additionalProperties": false},
            {"type": "object", "properties": {"t": tag("Move"),
                "c": {"type": "integer", "minimum": -2147483648i64, "maximum": 2147483647}},
             "required": ["t", "c"], "additionalProperties": false},
            {"type": "object", "properties": {"t": tag("Pair"), "c": {"type": "array", "prefixItems": [
                {"type": "integer", "minimum": 0, "maximum": 255}, {"type": "boolean"}],
                "minItems": 2, "maxItems": 2}},
             "required": ["t", "c"], "additionalProperties": false},
            {"type": "object", "properties": {"t": tag("Go"), "c": {"type": "object",
                "properties": {"to": {"type": "string"}}, "required": ["to"],
                "additionalProperties": false}},
             "required": ["t", "c"], "additionalProperties": false},
        ]})
    );
}

#[test]
fn untagged_enum_is_an_any_of_of_the_variants_data() {
    let small = json!({"type": "integer", "minimum": -32768, "maximum": 32767});
    assert_eq!(
        standard::<Loose>(),
        json!({"anyOf": [
            {"type": "null"},
            {"type": "boolean"},
            {"type": "object", "properties": {"x": small, "y": small}, "required": ["x", "y"]},
            {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}},
        ]})
    );
}

#[test]
fn renames_follow_serde_for_variants_and_their_fields_and_skipped_variants_are_left_out() {
    let byte = json!({"type": "integer", "minimum": 0, "maximum": 255});
    assert_eq!(
        standard::<Renamed>(),
        json!({"oneOf": [
            {"type": "object", "properties": {"foo-bar": {"type": "object",
                "properties": {"someField": byte}, "required": ["someField"]}},
             "required": ["foo-bar"], "additionalProperties": false},
            {"type": "object", "properties": {"baz": {"type": "object",
                "properties": {"X_Y": byte}, "required": ["X_Y"]}},
             "required": ["baz"], "additionalProperties": false},
            {"type": "string", "const": "q"},
        ]})
    );
}

#[test]
fn flatten_merges_a_structs_properties_and_a_maps_values() {
    let count = json!({"type": "integer", "minimum": 0, "maximum": 4294967295u64});
    let mut offset = count.clone();
    offset["description"] = json!("Where to start.");
    assert_eq!(
        standard::<Query>(),
        json!({"type": "object",
            "properties": {"text": {"description": "What to look for.", "type": "string"},
                "offset": offset, "limit": count},
            "required": ["text", "offset"],
            "additionalProperties": {"type": "string"}})
    );
}

#[test]
fn an_alias_is_a_deprecated_property_and_exactly_one_name_may_be_sent() {
    let byte = json!({"type": "integer", "minimum": 0, "maximum": 255});
    let mut old_byte = byte.clone();
    old_byte["deprecated"] = json!(true);
    let both = |a: &str, b: &str| json!({"required": [a, b]});
    let none = |names: &[&str]| {
        let each: Vec<Value> = names
            .iter()
            .map(|name| json!({"required": [name]}))
            .collect();
        json!({"not": {"anyOf": each}})
    };
    assert_eq!(
        standard::<Aliased>(),
        json!({"type": "object",
        "properties": {"name": {"description": "The name.", "type": "string"},
            "title": {"type": "string", "deprecated": true},
            "count": byte, "n": old_byte, "num": old_byte},
        // Not `oneOf`: the APIs refuse it at the top of a tool's schema.
        "not": {"anyOf": [
            both("name", "title"), none(&["name", "title"]),
            both("count", "n"), both("n", "num"), both("count", "num"),
        ]}})
    );
    // Strict: the canonical names only.
    assert_eq!(
        strict::<Aliased>(),
        json!({"type": "object",
            "properties": {"name": {"description": "The name.", "type": "string"},
                "count": {"type": "integer"}},
            "required": ["name", "count"], "additionalProperties": false})
    );
}

#[test]
fn schemars_and_validate_attributes_are_read_not_ignored() {
    assert_eq!(
        standard::<Person>(),
        json!({"type": "object", "properties": {
            "age": {"description": "The person's age", "type": "integer", "minimum": 0, "maximum": 150},
            "name": {"type": "string", "minLength": 1, "examples": ["Ada"]},
            "email": {"type": "string", "format": "email"},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3}},
            "required": ["age", "name", "email", "tags"]})
    );
}

#[test]
fn schema_keys_become_keywords_and_a_stated_bound_replaces_the_types() {
    assert_eq!(
        standard::<Constrained>(),
        json!({"type": "object", "properties": {
            "count": {"description": "A count.", "type": "integer", "minimum": 1, "maximum": 10,
                "default": 3, "examples": [1, 5]},
            "ratio": {"title": "Ratio", "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1.5},
            "host": {"type": "string", "minLength": 2, "maxLength": 8, "pattern": "^[a-z]+$",
                "format": "hostname"},
            "ids": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 1,
                "maxItems": 4, "deprecated": true},
            "note": {"description": "Replaces the doc comment", "type": "string"},
            "old": {"type": "boolean", "deprecated": true}},
            "required": ["count", "ratio", "ids", "note"], "additionalProperties": false})
    );
}

#[test]
fn strict_form_of_a_tagged_enum_is_an_any_of_with_one_value_enum_tags() {
    assert!(strict_refusal(&<Action as InputSchema>::SCHEMA).is_none());
    assert_eq!(
        strict::<Action>(),
        json!({"anyOf": [
            {"description": "Open a file.", "type": "object", "properties": {
                "action": {"type": "string", "enum": ["open"]},
                "path": {"type": "string"},
                "line": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
             "required": ["action", "path", "line"], "additionalProperties": false},
            {"type": "object", "properties": {"action": {"type": "string", "enum": ["close"]}},
             "required": ["action"], "additionalProperties": false},
        ]})
    );
}

#[test]
fn what_the_strict_subsets_refuse_is_named_with_its_place() {
    let refusal = |schema: &toolreg::schema::Schema| {
        let found = strict_refusal(schema).expect("no strict form");
        (found.at, found.what)
    };
    assert_eq!(
        refusal(&Filter::SCHEMA),
        (Some("Between"), "a tuple variant")
    );
    assert_eq!(refusal(&Shape::SCHEMA), (Some("labels"), "a map"));
    assert_eq!(refusal(&Person::SCHEMA), (Some("age"), "`maximum`"));
    assert_eq!(refusal(&Query::SCHEMA), (Some("extra"), "a map"));
    assert_eq!(refusal(&Constrained::SCHEMA), (Some("count"), "`minimum`"));
}

#[test]
fn every_form_is_valid_against_the_meta_schema() {
    let forms = [
        (standard::<Filter>(), strict::<Filter>()),
        (standard::<Shape>(), strict::<Shape>()),
        (standard::<Command>(), strict::<Command>()),
        (standard::<Loose>(), strict::<Loose>()),
        (standard::<Renamed>(), strict::<Renamed>()),
        (standard::<Query>(), strict::<Query>()),
        (standard::<Aliased>(), strict::<Aliased>()),
        (standard::<Person>(), strict::<Person>()),
        (standard::<Constrained>(), strict::<Constrained>()),
        (standard::<Action>(), strict::<Action>()),
    ];
    for (standard, strict) in forms {
        for schema in [standard, strict] {
            if let Err(error) = jsonschema::meta::validate(&schema) {
                panic!("{schema}: {error}");
            }
        }
    }
}
