//! A tool's input checked against its JSON Schema before the call: what serde accepts is not
//! all the schema says (a `maximum`, a `pattern`, a `minLength`), and the model can send
//! `"age": 9000` to a field whose schema says at most 150. Built-ins are checked here; an MCP
//! tool's input against its server's schema in `mcp_check.rs`, compiled with the same
//! [`options`].
//!
//! A built-in's standard input schema is compiled with `jsonschema` the first time a tool that
//! has it is called in this process, and kept for the rest of it. Members whose value is `null`
//! are left out before checking: the input already passed serde, which accepts `null` for an
//! `Option` field the standard schema does not mark nullable. The first violation is the error,
//! with its JSON path and the rule broken. A value that fits none of a `oneOf`'s or `anyOf`'s
//! variants (a tagged enum's) is reported inside the one variant whose tag it carries, at the
//! field that failed there, with the tag named.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::error::ValidationErrorKind;
use jsonschema::{PatternOptions, ValidationError, ValidationOptions, Validator};
use serde_json::Value;

/// The largest program one `pattern` may compile to, in bytes: 256 KiB, over twice what a
/// pattern of Unicode classes needs (`^[\p{L}\p{N}]+(?: [\p{L}\p{N}]+)*$`: 96 KiB). A
/// pattern past it does not compile.
pub(crate) const PATTERN_SIZE_LIMIT: usize = 256 * 1024;

/// The cache of one pattern's lazy DFA, in bytes; past it the match goes on in another linear
/// engine.
const PATTERN_DFA_LIMIT: usize = 1024 * 1024;

/// How every input schema is compiled, a built-in's or an MCP server's:
///
/// * `pattern` and `patternProperties` run on the `regex` crate, whose matching takes time
///   linear in the input whatever the pattern (`(a+)+$` included), each pattern compiled to at
///   most [`PATTERN_SIZE_LIMIT`]. A pattern that needs backtracking (look-around,
///   backreferences) does not compile;
/// * no `$ref` is fetched: a reference outside the schema does not compile, whatever
///   `jsonschema`'s features elsewhere in the build;
/// * `format` is an annotation, as in JSON Schema 2020-12 (MCP's default dialect), also in a
///   draft-07 schema: a server's own reading of `uri` or `email` may be looser than this
///   crate's, and the check refuses only what the schema's rules refuse;
/// * the dialect is the schema's `$schema` (2020-12, 2019-09, draft 7, 6 or 4), else 2020-12.
pub(crate) fn options() -> ValidationOptions<'static> {
    jsonschema::options()
        .offline()
        .should_validate_formats(false)
        .with_pattern_options(
            PatternOptions::regex()
                .size_limit(PATTERN_SIZE_LIMIT)
                .dfa_size_limit(PATTERN_DFA_LIMIT),
        )
}

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
    first_violation(&validator, schema, &without_nulls(input))
}

/// The first violation of `validator` (compiled from `schema`) in `input`, if any.
pub(crate) fn first_violation(
    validator: &Validator,
    schema: &str,
    input: &Value,
) -> Result<(), Violation> {
    if validator.is_valid(input) {
        return Ok(());
    }
    match validator.iter_errors(input).next() {
        Some(error) => Err(violation(&error, schema)),
        None => Err(Violation {
            path: ".".into(),
            message: "the input does not fit the tool's input schema".into(),
        }),
    }
}

/// Checks `input` against `schema` as it is, `null` members included (a strict schema's
/// nullable members).
pub(crate) fn check_exact(schema: &'static str, input: &Value) -> Result<(), Violation> {
    let validator = validator(schema).map_err(|message| Violation {
        path: ".".into(),
        message: format!("the tool's input schema does not compile: {message}"),
    })?;
    match validator.iter_errors(input).next() {
        None => Ok(()),
        Some(error) => Err(violation(&error, schema)),
    }
}

/// The violation `error` reports: inside a `oneOf` / `anyOf`, the failure in the variant whose
/// tag matched, when exactly one did.
fn violation(error: &ValidationError<'_>, schema: &str) -> Violation {
    let inner = in_the_tagged_variant(error);
    let mut message = inner.to_string();
    if !std::ptr::eq(inner, error)
        && let Some(tag) = serde_json::from_str::<Value>(schema)
            .ok()
            .and_then(|root| variant_tag(&root, inner.schema_path().as_str()))
    {
        message = format!("{message} (in the variant whose {tag})");
    }
    Violation {
        path: json_path(inner.instance_path().as_str()),
        message,
    }
}

/// The error to report for `error`: when it is a `oneOf` / `anyOf` none of whose variants fit
/// and exactly one variant failed only past its tag (no `const` or `enum` of a direct member
/// failed in it), that variant's first failure, itself looked into; else `error`.
fn in_the_tagged_variant<'e>(error: &'e ValidationError<'e>) -> &'e ValidationError<'e> {
    let (ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context }) =
        error.kind()
    else {
        return error;
    };
    let depth = error.instance_path().as_str().matches('/').count();
    let tag_missed = |inner: &ValidationError<'_>| {
        matches!(
            inner.kind(),
            ValidationErrorKind::Constant { .. } | ValidationErrorKind::Enum { .. }
        ) && inner.instance_path().as_str().matches('/').count() == depth + 1
    };
    let mut tagged = context
        .iter()
        .filter(|variant| !variant.is_empty() && !variant.iter().any(tag_missed));
    match (
        tagged.next().and_then(|variant| variant.first()),
        tagged.next(),
    ) {
        (Some(first), None) => in_the_tagged_variant(first),
        _ => error,
    }
}

/// `` `kind` is "admin" ``: the member of the variant that `schema_path` (an error's keyword
/// location) passes through whose schema is a single value, if it has one.
fn variant_tag(root: &Value, schema_path: &str) -> Option<String> {
    let segments: Vec<&str> = schema_path.split('/').skip(1).collect();
    // The last `oneOf`/`anyOf` and the variant's index after it.
    let at = segments.windows(2).rposition(|pair| {
        matches!(pair, [keyword, index] if matches!(*keyword, "oneOf" | "anyOf")
            && index.parse::<usize>().is_ok())
    })?;
    let variant = walk(root, segments.get(..at + 2)?)?;
    let properties = variant.get("properties")?.as_object()?;
    properties.iter().find_map(|(name, member)| {
        let value =
            member
                .get("const")
                .or_else(|| match member.get("enum")?.as_array()?.as_slice() {
                    [one] => Some(one),
                    _ => None,
                })?;
        Some(format!("`{name}` is {value}"))
    })
}

/// The schema at `segments` of a keyword location, following `$ref`s to `#…` pointers.
fn walk<'s>(root: &'s Value, segments: &[&str]) -> Option<&'s Value> {
    let mut node = root;
    for segment in segments {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        node = if segment == "$ref" {
            root.pointer(node.get("$ref")?.as_str()?.strip_prefix('#')?)?
        } else {
            match node {
                Value::Object(members) => members.get(&segment)?,
                Value::Array(items) => items.get(segment.parse::<usize>().ok()?)?,
                _ => return None,
            }
        };
    }
    Some(node)
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
    let compiled = Arc::new(options().build(&value).map_err(|e| e.to_string())?);
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
pub(crate) fn json_path(pointer: &str) -> String {
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

    /// An internally tagged enum as schemars writes one, behind a `$ref`.
    const TAGGED: &str = r##"{"type":"object","properties":{"assignee":{"$ref":"#/$defs/Assignee"}},"required":["assignee"],
        "$defs":{"Assignee":{"oneOf":[
            {"type":"object","properties":{"kind":{"type":"string","const":"user"},"name":{"type":"string"}},"required":["kind","name"]},
            {"type":"object","properties":{"kind":{"type":"string","const":"team"},"level":{"type":"integer","maximum":3}},"required":["kind","level"]}
        ]}}}"##;

    #[test]
    fn a_value_in_no_variant_is_reported_at_the_field_of_the_variant_its_tag_names() {
        let error = check(TAGGED, &json!({"assignee": {"kind": "team", "level": 9}})).unwrap_err();
        assert_eq!(error.path, "assignee.level");
        assert!(
            error.message.contains("9 is greater than the maximum of 3")
                && error.message.contains(r#"`kind` is "team""#),
            "{}",
            error.message
        );
    }

    #[test]
    fn a_value_whose_tag_names_no_variant_is_reported_at_the_enum() {
        let error = check(TAGGED, &json!({"assignee": {"kind": "robot"}})).unwrap_err();
        assert_eq!(error.path, "assignee");
        assert!(
            error
                .message
                .contains("is not valid under any of the schemas"),
            "{}",
            error.message
        );
    }

    #[test]
    fn json_pointer_becomes_a_dotted_path() {
        assert_eq!(json_path(""), ".");
        assert_eq!(json_path("/edits/2/old_string"), "edits[2].old_string");
        assert_eq!(json_path("/a~1b"), "a/b");
    }
}
