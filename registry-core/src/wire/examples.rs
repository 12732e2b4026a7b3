//! A tool's input examples, checked before they can be sent: each must be a JSON object that
//! the tool's input type reads and its input schema accepts. The schema cache checks them when
//! it renders a tool's base (once a session), and `#[tool]` generates a test that checks them
//! at `cargo test`.

use serde_json::Value;
use serde_json::value::RawValue;

use crate::dispatch::{mcp_check, schema_check};
use crate::wire::InvalidExample;
use crate::{ToolDescriptor, ToolInfo};

/// The tool's examples, as the JSON array `input_examples` sends, each checked; `None` when it
/// has none. With `strict`, the tool's strict schema is sent, which lists every property as
/// required (an optional one as nullable): each example is sent with `null` for the nullable
/// properties it leaves out, and checked against that schema too (so an example of a strict tool
/// gives every property that has a default rather than a `null`).
pub(crate) fn checked(
    tool: &ToolInfo,
    strict: bool,
) -> Result<Option<Box<RawValue>>, InvalidExample> {
    let Some(text) = &tool.input_examples else {
        return Ok(None);
    };
    let invalid = |index: Option<usize>, path: &str, message: String| InvalidExample {
        tool: tool.name.clone(),
        index,
        path: path.to_owned(),
        message,
    };
    let mut examples: Vec<Value> = serde_json::from_str(text)
        .map_err(|error| invalid(None, ".", format!("not a JSON array: {error}")))?;
    let strict_schema = tool
        .builtin()
        .map(|descriptor| descriptor.strict_input_schema)
        .filter(|schema| strict && !schema.is_empty());
    let strict_root = match strict_schema {
        Some(schema) => Some(
            serde_json::from_str::<Value>(schema)
                .map_err(|error| invalid(None, ".", format!("strict schema: {error}")))?,
        ),
        None => None,
    };
    let mut host_schema = None;
    for (index, example) in examples.iter_mut().enumerate() {
        if !example.is_object() {
            return Err(invalid(Some(index), ".", "not a JSON object".to_owned()));
        }
        match (tool.builtin(), tool.mcp()) {
            (Some(descriptor), _) => check(descriptor, index, example)?,
            (None, Some(mcp)) => mcp_check::check(tool, mcp, example).map_err(|refusal| {
                let (path, message) = refusal.into_parts();
                invalid(Some(index), &path, message)
            })?,
            (None, None) => {
                let validator = match &host_schema {
                    Some(validator) => validator,
                    None => host_schema.insert(host_validator(tool)?),
                };
                schema_check::first_violation(validator, &tool.input_schema, example).map_err(
                    |violation| invalid(Some(index), &violation.path, violation.message),
                )?;
            }
        }
        if let (Some(schema), Some(root)) = (strict_schema, &strict_root) {
            fill_nulls(example, root, root);
            schema_check::check_exact(schema, example)
                .map_err(|violation| invalid(Some(index), &violation.path, violation.message))?;
        }
    }
    let text =
        serde_json::to_string(&examples).map_err(|error| invalid(None, ".", error.to_string()))?;
    RawValue::from_string(text)
        .map(Some)
        .map_err(|error| invalid(None, ".", error.to_string()))
}

/// `value` in the strict form of `schema` (within `root`, for `$ref`s): every property an
/// object's schema lists and the value leaves out, set to `null`, at every depth.
fn fill_nulls(value: &mut Value, schema: &Value, root: &Value) {
    let schema = resolve(schema, root);
    if let Some(variants) = schema.get("anyOf").and_then(Value::as_array) {
        for variant in variants {
            let variant = resolve(variant, root);
            let fits = match value {
                Value::Object(_) => variant.get("properties").is_some(),
                Value::Array(_) => variant.get("items").is_some(),
                _ => false,
            };
            if fits {
                fill_nulls(value, variant, root);
                return;
            }
        }
    }
    match value {
        Value::Object(members) => {
            let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
                return;
            };
            for (name, property) in properties {
                match members.get_mut(name) {
                    Some(member) => fill_nulls(member, property, root),
                    None if accepts_null(resolve(property, root)) => {
                        members.insert(name.clone(), Value::Null);
                    }
                    // Required and not nullable (a field with a serde default): the example
                    // must give it, and the check says so.
                    None => {}
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                for value in items {
                    fill_nulls(value, item, root);
                }
            }
        }
        _ => {}
    }
}

/// Whether `schema` lets a value be `null` (`"type": "null"`, a type list with it, or an
/// `anyOf` variant that does).
fn accepts_null(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(kind)) if kind == "null" => return true,
        Some(Value::Array(kinds)) if kinds.iter().any(|kind| kind == "null") => return true,
        _ => {}
    }
    schema
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|variants| variants.iter().any(accepts_null))
}

/// The schema a `$ref` to `#…` points to, or `schema` itself.
fn resolve<'s>(schema: &'s Value, root: &'s Value) -> &'s Value {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|pointer| pointer.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer))
        .unwrap_or(schema)
}

/// The validator of a host tool's input schema (neither a built-in nor an MCP tool).
fn host_validator(tool: &ToolInfo) -> Result<jsonschema::Validator, InvalidExample> {
    let invalid = |message: String| InvalidExample {
        tool: tool.name.clone(),
        index: None,
        path: ".".to_owned(),
        message,
    };
    let schema: Value = serde_json::from_str(&tool.input_schema)
        .map_err(|error| invalid(format!("the input schema is not JSON: {error}")))?;
    schema_check::options()
        .build(&schema)
        .map_err(|error| invalid(format!("the input schema cannot be checked: {error}")))
}

/// Checks each of a built-in's examples against its input type and input schema.
///
/// # Errors
/// The first example that is not JSON, not an object, or not an input the tool takes: its
/// position, the JSON path and the rule broken.
pub fn check_examples(descriptor: &ToolDescriptor) -> Result<(), InvalidExample> {
    for (index, text) in descriptor.input_examples.iter().enumerate() {
        let example: Value = serde_json::from_str(text).map_err(|error| InvalidExample {
            tool: descriptor.name.to_owned(),
            index: Some(index),
            path: ".".to_owned(),
            message: format!("not JSON: {error}"),
        })?;
        check(descriptor, index, &example)?;
    }
    Ok(())
}

fn check(descriptor: &ToolDescriptor, index: usize, example: &Value) -> Result<(), InvalidExample> {
    let invalid = |path: String, message: String| InvalidExample {
        tool: descriptor.name.to_owned(),
        index: Some(index),
        path,
        message,
    };
    if !example.is_object() {
        return Err(invalid(".".to_owned(), "not a JSON object".to_owned()));
    }
    (descriptor.parse)(example).map_err(|error| invalid(error.path, error.message))?;
    schema_check::check(descriptor.schema(), example)
        .map_err(|violation| invalid(violation.path, violation.message))
}
