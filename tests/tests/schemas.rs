//! The generated schemas of every built-in: golden snapshots, meta-schema validity, agreement
//! with serde (checked by `jsonschema`, an independent validator), and `const` availability;
//! the schema forms (`forms.rs`), a corpus of real-world tool input types against their servers'
//! schemas (`corpus/`), and both against serde (`roundtrip.rs`).
//!
//! Regenerate the snapshots with `UPDATE_SNAPSHOTS=1 cargo test -p toolreg-tests --all-features
//! --test schemas`, then review the diff.

#[path = "schemas/corpus/mod.rs"]
mod corpus;
#[path = "schemas/forms.rs"]
mod forms;
#[path = "schemas/roundtrip.rs"]
mod roundtrip;

use std::path::PathBuf;

use serde_json::{Map, Value, json};
use toolreg::{ToolDescriptor, ToolSpec};

/// A schema in a `const` item: it exists at compile time.
const READ_SCHEMA: &str = <toolreg_tools::read::ReadTool as ToolSpec>::DESCRIPTOR.input_schema;
const EDIT_STRICT_SCHEMA: &str =
    <toolreg_tools::edit::EditTool as ToolSpec>::DESCRIPTOR.strict_input_schema;

/// The catalog's tools: those of the `toolreg-tools` crate and the core, not this file's own.
fn builtins() -> Vec<&'static ToolDescriptor> {
    toolreg_tools::catalog()
        .expect("no two tools share a name")
        .tools()
        .to_vec()
}

fn snapshot_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("snapshots/schemas")
}

/// The strict schema, when the input has a strict form (the descriptor holds "" otherwise).
fn strict_schema(tool: &ToolDescriptor) -> Option<&'static str> {
    (!tool.strict_input_schema.is_empty()).then_some(tool.strict_input_schema)
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("a schema is JSON")
}

#[test]
fn schema_is_usable_in_a_const_item() {
    const { assert!(!READ_SCHEMA.is_empty()) };
    assert!(READ_SCHEMA.starts_with(r#"{"type":"object","properties":{"file_path":"#));
    assert!(EDIT_STRICT_SCHEMA.ends_with(r#""additionalProperties":false}"#));
}

#[test]
fn every_builtin_schema_matches_its_snapshot() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut stale = Vec::new();
    for tool in builtins() {
        let actual = json!({
            "input_schema": parse(tool.input_schema),
            "strict_input_schema": strict_schema(tool).map(parse),
        });
        let path = snapshot_dir().join(format!("{}.json", tool.name));
        if update {
            std::fs::create_dir_all(snapshot_dir()).unwrap();
            std::fs::write(&path, serde_json::to_string_pretty(&actual).unwrap() + "\n").unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
            panic!("no snapshot for {}: run with UPDATE_SNAPSHOTS=1", tool.name)
        });
        if parse(&expected) != actual {
            stale.push(tool.name);
        }
    }
    assert!(
        stale.is_empty(),
        "schemas differ from their snapshots: {stale:?} (UPDATE_SNAPSHOTS=1 to accept)"
    );
}

/// With every tool compiled in, so that the base order names them all (CI runs it so).
#[test]
#[cfg_attr(
    not(feature = "all-tools"),
    ignore = "needs every tool compiled: --features all-tools"
)]
fn every_snapshot_belongs_to_a_catalog_tool() {
    for entry in std::fs::read_dir(snapshot_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        assert!(
            toolreg_tools::BASE_ORDER.contains(&name.as_str()),
            "orphan snapshot {}",
            path.display()
        );
    }
}

#[test]
fn schemas_are_byte_identical_to_their_minified_json() {
    for tool in builtins() {
        for text in [Some(tool.input_schema), strict_schema(tool)]
            .into_iter()
            .flatten()
        {
            assert_eq!(
                serde_json::to_string(&parse(text)).unwrap(),
                text,
                "{}",
                tool.name
            );
        }
        assert!(
            tool.input_schema
                .starts_with(r#"{"type":"object","properties":{"#),
            "{}",
            tool.name
        );
    }
}

#[test]
fn every_schema_is_valid_against_the_meta_schema() {
    for tool in builtins() {
        for text in [Some(tool.input_schema), strict_schema(tool)]
            .into_iter()
            .flatten()
        {
            if let Err(error) = jsonschema::meta::validate(&parse(text)) {
                panic!("{}: {error}", tool.name);
            }
        }
    }
}

/// A value the schema accepts, built from its type; `full` fills optional properties too.
fn sample(schema: &Value, full: bool) -> Value {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values[0].clone();
    }
    if let Some(options) = schema.get("anyOf").and_then(Value::as_array) {
        return sample(&options[0], full);
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let mut object = Map::new();
            let required = required(schema);
            let groups = alias_groups(schema);
            for (name, property) in properties(schema) {
                // Of an aliased property's names, the first; when the rule requires one.
                let group = groups.iter().find(|(names, _)| names.contains(name));
                let wanted = match group {
                    Some((names, needed)) => &names[0] == name && (full || *needed),
                    None => full || required.contains(&name),
                };
                if wanted {
                    object.insert(name.clone(), sample(property, full));
                }
            }
            Value::Object(object)
        }
        Some("array") => {
            let items = schema.get("items").cloned().unwrap_or(json!({}));
            if full {
                json!([sample(&items, full)])
            } else {
                json!([])
            }
        }
        Some("string") => json!("x"),
        Some("integer") => json!(
            schema
                .get("minimum")
                .and_then(Value::as_i64)
                .unwrap_or(0)
                .clamp(0, 1)
        ),
        Some("number") => json!(0.5),
        Some("boolean") => json!(true),
        _ => json!("anything"),
    }
}

/// The names of each aliased property, and whether one of them is required: read from the
/// object's `not` rule (two names of one property, or none of a required one's).
fn alias_groups(schema: &Value) -> Vec<(Vec<String>, bool)> {
    let names = |rules: &Value| -> Vec<String> {
        rules
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|rule| rule.get("required")?.as_array())
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    };
    let mut groups: Vec<(Vec<String>, bool)> = Vec::new();
    let violations = schema.pointer("/not/anyOf").and_then(Value::as_array);
    for violation in violations.into_iter().flatten() {
        let (found, needed) = match violation.pointer("/not/anyOf") {
            Some(none_of) => (names(none_of), true),
            None => (names(&Value::Array(vec![violation.clone()])), false),
        };
        match groups
            .iter_mut()
            .find(|(group, _)| found.iter().any(|name| group.contains(name)))
        {
            Some((group, group_needed)) => {
                for name in found {
                    if !group.contains(&name) {
                        group.push(name);
                    }
                }
                *group_needed |= needed;
            }
            None => groups.push((found, needed)),
        }
    }
    // The canonical name first: the property listed first.
    let order: Vec<&String> = properties(schema)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    for (group, _) in &mut groups {
        group.sort_by_key(|name| order.iter().position(|listed| *listed == name));
    }
    groups
}

fn properties(schema: &Value) -> Vec<(&String, &Value)> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|map| map.iter().collect())
        .unwrap_or_default()
}

fn required(schema: &Value) -> Vec<&String> {
    let names: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    properties(schema)
        .into_iter()
        .map(|(name, _)| name)
        .filter(|name| names.contains(&name.as_str()))
        .collect()
}

/// A value of the wrong JSON type for this schema.
fn wrong_type(schema: &Value) -> Option<Value> {
    if schema.get("enum").is_some() {
        return Some(json!("not-one-of-the-values"));
    }
    match schema.get("type").and_then(Value::as_str)? {
        "string" => Some(json!(12)),
        "integer" | "number" => Some(json!("12")),
        "boolean" => Some(json!("yes")),
        "array" => Some(json!({"not": "an array"})),
        "object" => Some(json!([1, 2])),
        _ => None,
    }
}

/// Inputs the schema accepts and inputs it rejects, derived from the schema.
fn cases(schema: &Value) -> (Vec<Value>, Vec<Value>) {
    let minimal = sample(schema, false);
    let full = sample(schema, true);
    let mut invalid = vec![json!(null), json!([]), json!("text")];
    for name in required(schema) {
        let mut missing = full.clone();
        missing.as_object_mut().unwrap().remove(name.as_str());
        invalid.push(missing);
    }
    for (name, property) in properties(schema) {
        let property = property
            .get("anyOf")
            .and_then(|o| o.get(0))
            .unwrap_or(property);
        if let Some(bad) = wrong_type(property) {
            let mut input = full.clone();
            input[name.as_str()] = bad;
            invalid.push(input);
        }
        if let Some(max) = property
            .get("maximum")
            .and_then(Value::as_u64)
            .filter(|max| *max < u64::MAX)
        {
            let mut input = full.clone();
            input[name.as_str()] = json!(max + 1);
            invalid.push(input);
        }
        if property.get("minimum").and_then(Value::as_i64) == Some(0) {
            let mut input = full.clone();
            input[name.as_str()] = json!(-1);
            invalid.push(input);
        }
    }
    (vec![minimal, full], invalid)
}

#[test]
fn schema_and_serde_agree_on_valid_and_invalid_inputs() {
    let mut checked = 0;
    for tool in builtins() {
        let schema = parse(tool.input_schema);
        let validator = jsonschema::validator_for(&schema).unwrap();
        let (valid, invalid) = cases(&schema);
        for input in valid {
            assert!(
                validator.is_valid(&input),
                "{}: the schema rejects its own sample {input}",
                tool.name
            );
            if let Err(error) = (tool.parse)(&input) {
                panic!(
                    "{}: serde rejects {input} that the schema accepts: {error}",
                    tool.name
                );
            }
            checked += 1;
        }
        for input in invalid {
            let by_schema = validator.is_valid(&input);
            let by_serde = (tool.parse)(&input).is_ok();
            assert_eq!(
                by_schema, by_serde,
                "{}: schema says {by_schema}, serde says {by_serde} for {input}",
                tool.name
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "only {checked} inputs were checked");
}

#[test]
fn strict_schema_requires_every_property_and_forbids_others() {
    for tool in builtins() {
        let Some(text) = strict_schema(tool) else {
            assert!(
                !tool.flags.strict,
                "{} is strict without a strict schema",
                tool.name
            );
            continue;
        };
        let strict = parse(text);
        let names: Vec<&String> = properties(&strict)
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        assert_eq!(required(&strict), names, "{}", tool.name);
        assert_eq!(strict["additionalProperties"], false, "{}", tool.name);
    }
}

/// Every built-in whose input has a strict form is sent strict where strict tools are on; the
/// others (a map or an untyped value in their input) are listed in `docs/guide.md` (strict tools).
#[test]
fn every_builtin_with_a_strict_form_is_strict_and_its_schema_keeps_the_strict_subset() {
    const NOT_STRICT: [&str; 7] = [
        "Config",
        "RemoteTrigger",
        "StructuredOutput",
        "TaskCreate",
        "TaskUpdate",
        "Tungsten",
        "Workflow",
    ];
    fn refused(schema: &Value, found: &mut Vec<String>) {
        match schema {
            Value::Object(map) => {
                for key in [
                    "minimum",
                    "maximum",
                    "minLength",
                    "maxLength",
                    "uniqueItems",
                ] {
                    if map.contains_key(key) {
                        found.push(key.to_owned());
                    }
                }
                map.values().for_each(|value| refused(value, found));
            }
            Value::Array(items) => items.iter().for_each(|value| refused(value, found)),
            _ => {}
        }
    }
    for tool in builtins() {
        let listed = NOT_STRICT.contains(&tool.name);
        assert_eq!(tool.flags.strict, !listed, "{}", tool.name);
        assert_eq!(strict_schema(tool).is_none(), listed, "{}", tool.name);
        if let Some(text) = strict_schema(tool) {
            let mut found = Vec::new();
            refused(&parse(text), &mut found);
            assert!(found.is_empty(), "{}: {found:?}", tool.name);
        }
    }
}

/// A hand-written schema: an integer or a string of two characters or more.
pub struct Either;

impl toolreg::InputSchema for Either {
    const SCHEMA: toolreg::schema::Schema = toolreg::schema::Schema::Leaf(
        r#""oneOf":[{"type":"integer","minimum":1},{"type":"string","minLength":2}]"#,
    );
}

impl<'de> serde::Deserialize<'de> for Either {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(|_| Either)
    }
}

/// Takes an integer or a string.
#[toolreg::tool]
#[derive(serde::Deserialize)]
pub struct LeafTool {
    /// An integer or a string.
    pub value: Either,
}

impl toolreg::Tool for LeafTool {
    type Output = String;
    async fn call(self, _: &toolreg::ToolContext<'_>) -> Result<String, toolreg::ToolError> {
        Ok(String::new())
    }
}

/// The bug this pins: the strict rendering cut a hand-written leaf at its first `,"minimum":`,
/// so `render_openai` in strict mode failed for the whole request, blaming this tool.
#[test]
fn strict_rendering_keeps_a_hand_written_leaf_whole_and_sends_its_tool_non_strict() {
    let descriptor = &<LeafTool as ToolSpec>::DESCRIPTOR;
    let leaf = parse(descriptor.input_schema);
    assert_eq!(leaf["properties"]["value"]["oneOf"][1]["minLength"], 2);
    assert_eq!(
        descriptor.strict_input_schema, "",
        "a hand-written leaf has no strict form"
    );
    let tool = toolreg::ToolInfo::from_builtin(descriptor, &toolreg::env::Switches::default());
    let pool = toolreg::Pool::new(&toolreg::Env::default(), [std::sync::Arc::new(tool)]);
    let options = toolreg::wire::openai::OpenAiOptions {
        strict: true,
        ..Default::default()
    };
    let rendered = toolreg::render_openai(&pool, &options).expect("renders");
    let tools = rendered.tools.to_value().unwrap();
    assert_eq!(tools[0]["function"]["strict"], false);
    assert_eq!(tools[0]["function"]["parameters"], leaf);
}

/// Every `u64` sent `"maximum":18446744073709551615`: no bound past ±2^53 reaches the model.
#[test]
fn no_schema_sends_an_integer_bound_past_two_to_the_53() {
    fn bounds(schema: &Value, found: &mut Vec<f64>) {
        match schema {
            Value::Object(map) => {
                for (key, value) in map {
                    if matches!(key.as_str(), "minimum" | "maximum")
                        && let Some(bound) = value.as_f64()
                    {
                        found.push(bound);
                    }
                    bounds(value, found);
                }
            }
            Value::Array(items) => items.iter().for_each(|item| bounds(item, found)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    for tool in builtins() {
        bounds(&parse(tool.input_schema), &mut found);
    }
    assert!(found.contains(&0.0), "unsigned fields keep their minimum");
    let limit = 2f64.powi(53);
    assert!(found.iter().all(|bound| bound.abs() <= limit), "{found:?}");
    let read = parse(<toolreg_tools::read::ReadTool as ToolSpec>::DESCRIPTOR.input_schema);
    assert_eq!(
        read["properties"]["offset"],
        json!({
            "description": read["properties"]["offset"]["description"],
            "type": "integer",
            "minimum": 0
        })
    );
}

/// The Anthropic API refuses a tool whose `input_schema` has `oneOf`, `anyOf` or `allOf` at the
/// top ("input_schema does not support oneOf, allOf, or anyOf at the top level"), failing the
/// whole request: aliased properties use `not` there.
#[test]
fn no_schema_has_a_union_at_its_top() {
    let mut schemas: Vec<Value> = builtins()
        .iter()
        .flat_map(|tool| [Some(tool.input_schema), strict_schema(tool)])
        .flatten()
        .map(parse)
        .collect();
    schemas.push(forms::standard::<forms::Aliased>());
    for schema in schemas {
        for key in ["oneOf", "anyOf", "allOf"] {
            assert!(schema.get(key).is_none(), "{key} at the top of {schema}");
        }
    }
}
