//! schemars interop (the `schemars` feature): fields typed by `schemars::JsonSchema` alone, and
//! `schemars::Schema`s from `InputSchema` types.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use toolreg::Pool;
use toolreg::schema::{Mode, RECURSION_DEPTH, to_json};
use toolreg::{
    Dispatcher, Env, InputSchema, PermissionContext, Tool, ToolCall, ToolContext, ToolError,
    ToolInfo, ToolOutput, ToolResult, ToolSpec, impl_json_schema, tool,
};

/// Who to look for: a tagged union, as rmcp and rig users write them.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "by", rename_all = "snake_case")]
#[allow(dead_code)]
enum Filter {
    /// By name.
    Name {
        /// The name, at least one character.
        #[schemars(length(min = 1))]
        name: String,
    },
    /// By age.
    Age {
        /// The youngest age.
        #[schemars(range(max = 150))]
        min: u8,
    },
}

/// A tree of labels: recursive, so schemars cannot inline it.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Label {
    text: String,
    children: Vec<Label>,
}

/// Finds people.
#[tool]
#[derive(Deserialize)]
#[allow(dead_code)]
struct FindPeople {
    /// Who.
    filter: Filter,
    /// Labels to match.
    label: Option<Label>,
    /// How many.
    limit: u32,
}

impl Tool for FindPeople {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(match self.filter {
            Filter::Name { name } => name,
            Filter::Age { min } => min.to_string(),
        })
    }
}

/// Only typed fields.
#[tool]
#[derive(Deserialize)]
#[allow(dead_code)]
struct Typed {
    /// A count.
    count: u8,
}

impl Tool for Typed {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.count.to_string())
    }
}

fn schema() -> Value {
    serde_json::from_str(<FindPeople as ToolSpec>::DESCRIPTOR.schema()).unwrap()
}

fn refs(value: &Value) -> usize {
    match value {
        Value::Object(map) => {
            usize::from(map.contains_key("$ref") || map.contains_key("$defs"))
                + map.values().map(refs).sum::<usize>()
        }
        Value::Array(items) => items.iter().map(refs).sum(),
        _ => 0,
    }
}

#[test]
fn a_field_typed_by_schemars_alone_is_accepted_with_its_schema_generated_at_first_use() {
    let descriptor = <FindPeople as ToolSpec>::DESCRIPTOR;
    assert_eq!(
        descriptor.input_schema, "",
        "rendered at run time, not const"
    );
    assert!(descriptor.generated_input_schema.is_some());
    let schema = schema();
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["filter", "limit"]));
    let filter = &schema["properties"]["filter"];
    assert_eq!(filter["description"], "Who.", "the field's doc comment");
    let branches = filter["oneOf"].as_array().expect("a tagged union");
    assert_eq!(branches.len(), 2);
    assert_eq!(branches[0]["properties"]["by"]["const"], "name");
    assert_eq!(branches[0]["properties"]["name"]["minLength"], 1);
    assert_eq!(branches[1]["properties"]["min"]["maximum"], 150);
    assert_eq!(
        schema["properties"]["limit"],
        json!({"type": "integer", "minimum": 0, "maximum": 4294967295_u32, "description": "How many."})
    );
}

#[test]
fn a_generated_schema_is_normalized_for_the_model_apis() {
    let schema = schema();
    let text = schema.to_string();
    assert_eq!(refs(&schema), 0, "no $ref or $defs left: {text}");
    assert!(!text.contains("\"format\":\"uint8\""), "{text}");
    assert!(!text.contains("$schema"), "{text}");
    assert!(!text.contains("\"title\":\"Filter\""), "{text}");
    // The recursive type is unrolled RECURSION_DEPTH levels, then accepts any value.
    let mut label = &schema["properties"]["label"];
    for _ in 0..RECURSION_DEPTH {
        assert_eq!(label["required"], json!(["text", "children"]), "{label}");
        label = &label["properties"]["children"]["items"];
    }
    assert_eq!(label, &json!({}), "{text}");
}

#[test]
fn an_option_of_a_schemars_type_is_not_required() {
    assert!(
        !schema()["required"]
            .as_array()
            .unwrap()
            .contains(&json!("label"))
    );
}

#[test]
fn a_generated_schema_is_the_same_bytes_on_every_read() {
    let descriptor = <FindPeople as ToolSpec>::DESCRIPTOR;
    let first = descriptor.schema();
    assert!(std::ptr::eq(first, descriptor.schema()));
    let info = ToolInfo::from_builtin(
        &<FindPeople as ToolSpec>::DESCRIPTOR,
        &Env::default().switches,
    );
    assert_eq!(&*info.input_schema, first);
}

#[test]
fn a_tool_with_a_generated_schema_has_no_strict_form_and_a_typed_one_stays_const() {
    let descriptor = <FindPeople as ToolSpec>::DESCRIPTOR;
    assert_eq!(descriptor.strict_input_schema, "");
    let typed = <Typed as ToolSpec>::DESCRIPTOR;
    assert!(typed.generated_input_schema.is_none());
    assert!(typed.input_schema.starts_with("{\"type\":\"object\""));
    assert_eq!(typed.schema(), typed.input_schema);
}

async fn dispatch(input: Value) -> ToolResult {
    let env = Env::default();
    let tool = ToolInfo::from_builtin(&<FindPeople as ToolSpec>::DESCRIPTOR, &env.switches);
    let pool = Pool::new(&env, [Arc::new(tool)]);
    Dispatcher::new(env, PermissionContext::new(), pool, ".")
        .dispatch(&ToolCall::new("id", "FindPeople", input))
        .await
}

#[tokio::test]
async fn dispatch_enforces_a_generated_schema_before_the_call() {
    let refused = dispatch(json!({"filter": {"by": "age", "min": 200}, "limit": 1})).await;
    assert!(refused.is_error() && !refused.called(), "{refused:?}");
    let ToolOutput::Text(message) = &refused.content else {
        panic!("{refused:?}")
    };
    // A schemars tagged enum: the field that failed in the variant its tag names.
    assert!(
        message.contains("`filter.min`")
            && message.contains("200 is greater than the maximum of 150")
            && message.contains(r#"`by` is "age""#),
        "{message}"
    );
    let ran = dispatch(json!({"filter": {"by": "name", "name": "Ada"}, "limit": 1})).await;
    assert_eq!(ran.content, ToolOutput::Text("Ada".into()), "{ran:?}");
}

/// A type shared with rmcp or rig, described once.
#[derive(Deserialize, InputSchema)]
#[allow(dead_code)]
enum Shape {
    /// A circle.
    Circle { radius: f64 },
    /// A square.
    Square(u32),
}
impl_json_schema!(Shape);

#[test]
fn an_input_schema_type_gives_schemars_its_compile_time_schema() {
    let mut from_schemars = schemars::SchemaGenerator::default()
        .into_root_schema_for::<Shape>()
        .to_value();
    let root = from_schemars.as_object_mut().unwrap();
    assert_eq!(root.remove("title"), Some(json!("Shape")));
    assert!(root.remove("$schema").is_some());
    let ours: Value = serde_json::from_str(&to_json(&Shape::SCHEMA, Mode::Standard)).unwrap();
    assert_eq!(from_schemars, ours);
    assert_eq!(ours["oneOf"][1]["properties"]["Square"]["minimum"], 0);
}

/// A type with both: its `InputSchema` is used.
#[derive(Deserialize, InputSchema, JsonSchema)]
#[allow(dead_code)]
struct Both {
    #[schema(max_length = 3)]
    code: String,
}

/// Takes a `Both`.
#[tool]
#[derive(Deserialize)]
#[allow(dead_code)]
struct TakesBoth {
    both: Both,
}

impl Tool for TakesBoth {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.both.code)
    }
}

#[test]
fn a_type_with_both_traits_uses_its_compile_time_schema() {
    let descriptor = <TakesBoth as ToolSpec>::DESCRIPTOR;
    assert!(descriptor.generated_input_schema.is_none());
    assert!(
        descriptor.input_schema.contains("\"maxLength\":3"),
        "{}",
        descriptor.input_schema
    );
}

#[test]
fn the_fields_description_replaces_the_types_and_no_key_is_written_twice() {
    let text = <FindPeople as ToolSpec>::DESCRIPTOR.schema();
    assert!(
        text.contains(r#""filter":{"description":"Who.","oneOf":"#),
        "{text}"
    );
    assert_eq!(text.matches("Who to look for").count(), 0, "{text}");
}
