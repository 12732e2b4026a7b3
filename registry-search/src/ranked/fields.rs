//! What the BM25F strategy reads of a tool: the terms of its fields (name, search hint,
//! description, parameters) and of its server's name.

use std::borrow::Cow;

use serde_json::value::RawValue;

use super::{FIELDS, HashMap};
use crate::document::Document;
use crate::text::terms::tokenize;

/// The properties of an input schema, each left unparsed until read.
#[derive(serde::Deserialize)]
struct Schema<'a> {
    #[serde(borrow)]
    properties: Option<HashMap<Cow<'a, str>, &'a RawValue>>,
}

/// What the BM25F strategy reads of one property.
#[derive(serde::Deserialize)]
struct Property<'a> {
    #[serde(borrow)]
    description: Option<Cow<'a, str>>,
}

/// The terms of a schema's property names and descriptions. A schema that does not parse, or
/// whose `properties` is not an object, gives none; a property that is not an object, or whose
/// description is not a string, gives its name only.
fn schema_params(schema: &str, out: &mut Vec<String>) {
    let Ok(Schema {
        properties: Some(properties),
    }) = serde_json::from_str::<Schema>(schema)
    else {
        return;
    };
    for (name, property) in &properties {
        tokenize(name, out);
        if let Ok(Property {
            description: Some(description),
        }) = serde_json::from_str(property.get())
        {
            tokenize(&description, out);
        }
    }
}

/// One tool's field terms: name, hint, description, parameters and its server's name, those
/// of [`Document::server`], else of the `<server>` of an `mcp__<server>__<tool>` name.
pub(super) fn fields(tool: &impl Document) -> [Vec<String>; FIELDS] {
    let mut out: [Vec<String>; FIELDS] = Default::default();
    let [name, hint, description, params, server_name] = &mut out;
    tokenize(tool.own_name(), name);
    let server = tool.server().or_else(|| {
        let rest = tool.name().strip_prefix("mcp__")?;
        Some(rest.split_once("__").map_or("", |(server, _)| server))
    });
    if let Some(server) = server {
        tokenize(server, server_name);
    }
    if let Some(text) = tool.search_hint() {
        tokenize(text, hint);
    }
    tokenize(tool.description(), description);
    schema_params(tool.input_schema(), params);
    out
}

#[cfg(test)]
mod tests {
    use super::schema_params;

    fn params(schema: &str) -> Vec<String> {
        let mut out = Vec::new();
        schema_params(schema, &mut out);
        out
    }

    #[test]
    fn schema_params_read_property_names_and_descriptions() {
        let schema = r#"{"type": "object", "properties": {"cityName": {"type": "string",
            "description": "The city, e.g. \"Paris\""}, "days": {"type": "integer"}}}"#;
        let mut terms = params(schema);
        terms.sort();
        // Stemmed (Snowball: `city` → `citi`).
        assert_eq!(terms, ["citi", "citi", "day", "e", "g", "name", "pari"]);
    }

    #[test]
    fn schema_params_skip_what_is_not_a_property_object_or_a_text() {
        // A boolean schema and a numeric description give the name alone.
        assert_eq!(params(r#"{"properties": {"flag": true}}"#), ["flag"]);
        assert_eq!(
            params(r#"{"properties": {"limit": {"description": 5}}}"#),
            ["limit"]
        );
        for nothing in [
            r#"{"properties": ["a"]}"#,
            r#"{"properties": null}"#,
            r#"{"type": "object"}"#,
            "not json",
        ] {
            assert!(params(nothing).is_empty(), "{nothing}");
        }
    }
}
