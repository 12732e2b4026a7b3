//! A built-in's input checked against its own JSON Schema before the call: what serde accepts
//! is not all the schema says (a `maximum`, a `pattern`, a `minLength`), and the model can send
//! `"age": 9000` to a field whose schema says at most 150.
//!
//! The standard input schema is compiled with `jsonschema` the first time a tool that has it is
//! called in this process, and kept for the rest of it. Members whose value is `null` are left
//! out before checking: the input already passed serde, which accepts `null` for an `Option`
//! field the standard schema does not mark nullable. The first violation is the error, with its
//! JSON path and the rule broken.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::Validator;
use serde_json::Value;

/// A violation of the schema: where, and what rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Violation {
    /// The JSON path (`.` for the root, `edits[2].old_string`).
    pub(crate) path: String,
    /// The rule broken, as the validator words it.
    pub(crate) message: String,
}

/// Checks `input` against `schema` (a built-in's standard input schema, `'static`).
pub(crate) fn check(schema: &'static str, input: &Value) -> Result<(), Violation> {
    let validator = validator(schema).map_err(|message| Violation {
        path: ".".into(),
        message: format!("the tool's input schema does not compile: {message}"),
    })?;
    let input = without_nulls(input);
    match validator.iter_errors(&input).next() {
        None => Ok(()),
        Some(error) => Err(Violation {
            path: json_path(error.instance_path().as_str()),
            message: error.to_string(),
        }),
    }
}

/// Compiled validators by their schema's address and length: built-in schemas are statics.
type Compiled = Mutex<HashMap<(usize, usize), Arc<Validator>>>;

/// The compiled validator of `schema`, from the process-wide cache.
fn validator(schema: &'static str) -> Result<Arc<Validator>, String> {
    static CACHE: OnceLock<Compiled> = OnceLock::new();
    let key = (schema.as_ptr() as usize, schema.len());
    let cache = CACHE.get_or_init(Mutex::default);
    if let Some(found) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(Arc::clone(found));
    }
    let value: Value = serde_json::from_str(schema).map_err(|e| e.to_string())?;
    let compiled = Arc::new(jsonschema::validator_for(&value).map_err(|e| e.to_string())?);
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, Arc::clone(&compiled));
    Ok(compiled)
}

/// `value` with every object member whose value is `null` left out (borrowed when it has none).
fn without_nulls(value: &Value) -> Cow<'_, Value> {
    fn has_null(value: &Value) -> bool {
        match value {
            Value::Object(map) => map.values().any(|v| v.is_null() || has_null(v)),
            Value::Array(items) => items.iter().any(has_null),
            _ => false,
        }
    }
    fn strip(value: &Value) -> Value {
        match value {
            Value::Object(map) => Value::Object(
                map.iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| (k.clone(), strip(v)))
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(strip).collect()),
            other => other.clone(),
        }
    }
    if has_null(value) {
        Cow::Owned(strip(value))
    } else {
        Cow::Borrowed(value)
    }
}

/// A JSON pointer (`/edits/2/old_string`) as the path dispatch errors use (`edits[2].old_string`).
fn json_path(pointer: &str) -> String {
    let mut path = String::new();
    for part in pointer.split('/').skip(1) {
        let part = part.replace("~1", "/").replace("~0", "~");
        if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
            path.push_str(&format!("[{part}]"));
        } else {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(&part);
        }
    }
    if path.is_empty() { ".".into() } else { path }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SCHEMA: &str = r#"{"type":"object","properties":{"age":{"type":"integer","minimum":0,"maximum":150},"tags":{"type":"array","items":{"type":"string","maxLength":3}},"note":{"type":"string"}},"required":["age"]}"#;

    #[test]
    fn input_outside_the_schema_names_the_path_and_the_rule() {
        let error = check(SCHEMA, &json!({"age": 9000})).unwrap_err();
        assert_eq!(error.path, "age");
        assert!(
            error.message.contains("maximum of 150"),
            "{}",
            error.message
        );
        let error = check(SCHEMA, &json!({"age": 1, "tags": ["ok", "long"]})).unwrap_err();
        assert_eq!(error.path, "tags[1]");
    }

    #[test]
    fn null_that_serde_accepted_for_an_option_is_not_a_violation() {
        assert_eq!(check(SCHEMA, &json!({"age": 3, "note": null})), Ok(()));
    }

    #[test]
    fn json_pointer_becomes_a_dotted_path() {
        assert_eq!(json_path(""), ".");
        assert_eq!(json_path("/edits/2/old_string"), "edits[2].old_string");
        assert_eq!(json_path("/a~1b"), "a/b");
    }
}
