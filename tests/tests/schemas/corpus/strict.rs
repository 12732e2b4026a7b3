//! The corpus types that a strict tool may take (28 of 39), as `#[tool(strict)]` tools whose
//! input flattens the type (the macro refuses `strict` on an input outside the strict subsets,
//! so each compiles only because its type has a strict form), or, for the 7 types with
//! `deny_unknown_fields` (which serde, and so the macro, refuses to flatten), as host-described
//! strict tools ([`ToolInfo::new`]) with the same schemas. Rendered strict for OpenAI Chat
//! Completions, OpenAI Responses and Anthropic Messages, and checked:
//! * in-process, serde reads every value the strict schema accepts (generated from it) and the
//!   strict schema accepts every value serde writes (its `null`s kept);
//! * in-process, each strict schema is valid JSON Schema (`jsonschema`'s meta-schema check) and
//!   keeps the subset the `schema` module documents: every object lists all its properties in
//!   `required` and has `"additionalProperties": false`, and no keyword outside the subset
//!   appears (`minItems` only 0 or 1, `format` only one of [`STRICT_FORMATS`]);
//! * by `tests/sdk-check/check.mjs`: the three requests type-check against the official SDK types
//!   (`@anthropic-ai/sdk`, `openai`) and keep the API rules, the strict-schema rules among them.
//!
//! The SDKs come from `tests/sdk-check/install.sh`, run when they are missing; when they cannot
//! be installed the SDK test skips, saying why, unless `TOOLREG_REQUIRE_SDK_CHECK` is set (CI
//! sets it).

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Map, Value, json};
use toolreg::env::Switches;
use toolreg::schema::{Mode, STRICT_FORMATS, strict_refusal, to_json};
use toolreg::wire::anthropic::CacheSettings;
use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions};
use toolreg::{
    RenderOptions, SchemaCache, ToolDescriptor, ToolInfo, ToolSpec, render_anthropic, render_openai,
};

use super::super::roundtrip::{Rng, generate};
use super::python_servers as py;
use super::reference_servers as rs;
use super::rust_sdks as sdk;
use super::{CASES, Case};
use super::{github as gh, notion as nt};

/// Each `Tool = "name" (Input)`: a `#[tool(strict)]` whose input is the corpus type, flattened
/// (so the tool's schema is the type's). Only for types without `deny_unknown_fields`, which
/// serde (and so the macro) refuses to flatten; the others are sent as host-described tools with
/// the same schemas ([`pool`]).
macro_rules! strict_tools {
    ($($tool:ident = $name:tt ($input:ty)),* $(,)?) => {
        $(
            #[toolreg::tool(name = $name, description = $name, strict)]
            #[derive(serde::Deserialize)]
            pub struct $tool {
                #[serde(flatten)]
                pub input: $input,
            }

            impl toolreg::Tool for $tool {
                type Output = String;
                async fn call(
                    self,
                    _: &toolreg::ToolContext<'_>,
                ) -> Result<String, toolreg::ToolError> {
                    Ok(format!("{:?}", self.input))
                }
            }
        )*

        /// (the input type's name as the corpus lists it, the strict tool's descriptor).
        fn strict_tools() -> Vec<(&'static str, &'static ToolDescriptor)> {
            vec![$((stringify!($input), &<$tool as ToolSpec>::DESCRIPTOR)),*]
        }
    };
}

strict_tools! {
    MergePullRequestTool = "merge_pull_request" (gh::MergePullRequest),
    ReadTextFileTool = "read_text_file" (rs::ReadTextFile),
    ReadMultipleFilesTool = "read_multiple_files" (rs::ReadMultipleFiles),
    EditFileTool = "edit_file" (rs::EditFile),
    DirectoryTreeTool = "directory_tree" (rs::DirectoryTree),
    GetAnnotatedMessageTool = "get-annotated-message" (rs::GetAnnotatedMessage),
    TriggerLongRunningOperationTool = "trigger-long-running-operation" (rs::TriggerLongRunningOperation),
    CreateEntitiesTool = "create_entities" (rs::CreateEntities),
    DeleteRelationsTool = "delete_relations" (rs::DeleteRelations),
    DeleteObservationsTool = "delete_observations" (rs::DeleteObservations),
    GitDiffTool = "git_diff" (py::GitDiff),
    GitAddTool = "git_add" (py::GitAdd),
    GitLogTool = "git_log" (py::GitLog),
    GitBranchTool = "git_branch" (py::GitBranch),
    ConvertTimeTool = "convert_time" (py::ConvertTime),
    ReadQueryTool = "read_query" (py::ReadQuery),
    GetUsersTool = "API-get-users" (nt::GetUsers),
    PostSearchTool = "API-post-search" (nt::PostSearch),
    SumTool = "sum" (sdk::SumRequest),
    StructSumTool = "struct_sum" (sdk::StructRequest),
    AddTool = "add" (sdk::OperationArgs),
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("a schema is JSON")
}

fn strict_of(case: &Case) -> Value {
    parse(&to_json(case.tree, Mode::Strict))
}

/// The corpus types with a strict form: each as its `#[tool(strict)]` where it has one, or as a
/// host-described strict tool with the type's standard and strict schemas.
fn pool() -> toolreg::Pool {
    let tools = strict_tools();
    let infos = CASES
        .iter()
        .filter(|case| strict_refusal(case.tree).is_none())
        .map(|case| {
            let info = match tools.iter().find(|(name, _)| *name == case.type_name) {
                Some((_, tool)) => ToolInfo::from_builtin(tool, &Switches::default()),
                None => {
                    let mut info = ToolInfo::new(case.tool, case.tool);
                    info.input_schema = Arc::from(to_json(case.tree, Mode::Standard).as_str());
                    info.strict_input_schema =
                        Some(Arc::from(to_json(case.tree, Mode::Strict).as_str()));
                    info.flags.strict = true;
                    info
                }
            };
            Arc::new(info)
        });
    toolreg::Pool::new(&toolreg::Env::default(), infos)
}

#[test]
fn every_strict_tool_of_the_corpus_sends_its_types_schemas_and_no_strict_capable_type_is_left_out()
{
    let tools = strict_tools();
    for (type_name, tool) in &tools {
        let case = CASES
            .iter()
            .find(|case| case.type_name == *type_name)
            .expect("a corpus type");
        assert_eq!(tool.name, case.tool, "{type_name}");
        assert!(tool.flags.strict, "{type_name}");
        assert_eq!(parse(tool.input_schema), (case.schema)(), "{type_name}");
        assert_eq!(
            parse(tool.strict_input_schema),
            strict_of(case),
            "{type_name}"
        );
    }
    let capable = CASES
        .iter()
        .filter(|case| strict_refusal(case.tree).is_none())
        .count();
    let sent = pool();
    assert_eq!(sent.len(), capable);
    assert!(sent.iter().all(|tool| tool.flags.strict));
    // The corpus has strict-capable types of every kind: with an enum carrying data, with a
    // flattened struct, with a keyword the strict subsets keep (`minItems: 1`).
    assert!(
        capable >= 20,
        "only {capable} corpus types have a strict form"
    );
}

/// The keywords the strict renderings may hold (the `schema` module's strict subset).
const STRICT_KEYWORDS: [&str; 11] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "enum",
    "const",
    "description",
    "minItems",
    "format",
];

/// The subset rules a strict schema breaks, each with its place.
fn subset_violations(schema: &Value, at: &str, found: &mut Vec<String>) {
    let Value::Object(map) = schema else {
        found.push(format!("{at}: not a schema object"));
        return;
    };
    for key in map.keys() {
        if !STRICT_KEYWORDS.contains(&key.as_str()) {
            found.push(format!("{at}: `{key}` is outside the strict subset"));
        }
    }
    if let Some(min) = map.get("minItems")
        && !matches!(min.as_u64(), Some(0 | 1))
    {
        found.push(format!("{at}: minItems {min}"));
    }
    if let Some(format) = map.get("format")
        && !STRICT_FORMATS
            .iter()
            .any(|known| Some(*known) == format.as_str())
    {
        found.push(format!("{at}: format {format}"));
    }
    let is_object = map.get("type") == Some(&json!("object")) || map.contains_key("properties");
    if is_object {
        if map.get("additionalProperties") != Some(&json!(false)) {
            found.push(format!(
                "{at}: an object without additionalProperties: false"
            ));
        }
        let properties = map.get("properties").and_then(Value::as_object);
        let names: Vec<&String> = properties.map(Map::keys).into_iter().flatten().collect();
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|list| list.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for name in names {
            if !required.contains(&name.as_str()) {
                found.push(format!("{at}: property {name} is not required"));
            }
        }
    }
    if let Some(properties) = map.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            subset_violations(property, &format!("{at}/properties/{name}"), found);
        }
    }
    if let Some(items) = map.get("items") {
        subset_violations(items, &format!("{at}/items"), found);
    }
    if let Some(branches) = map.get("anyOf").and_then(Value::as_array) {
        for (index, branch) in branches.iter().enumerate() {
            subset_violations(branch, &format!("{at}/anyOf/{index}"), found);
        }
    }
}

#[test]
fn every_strict_render_of_the_corpus_is_json_schema_in_the_strict_subset() {
    let mut found = Vec::new();
    for case in CASES
        .iter()
        .filter(|case| strict_refusal(case.tree).is_none())
    {
        let strict = strict_of(case);
        if let Err(error) = jsonschema::meta::validate(&strict) {
            found.push(format!("{}: not a valid schema: {error}", case.type_name));
        }
        let mut broken = Vec::new();
        subset_violations(&strict, "", &mut broken);
        found.extend(
            broken
                .into_iter()
                .map(|v| format!("{}: {v}", case.type_name)),
        );
        assert_eq!(strict["type"], "object", "{}", case.type_name);
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// Under strict mode the model can only send what the strict schema accepts, so serde must read
/// all of it; and what serde writes (its `null`s included) the strict schema accepts.
#[test]
fn every_strict_render_of_the_corpus_agrees_with_serde_both_ways() {
    let mut checked = 0;
    for case in CASES
        .iter()
        .filter(|case| strict_refusal(case.tree).is_none())
    {
        let strict = strict_of(case);
        let validator = jsonschema::validator_for(&strict).expect("the schema compiles");
        let mut rng = Rng(0x5eed ^ case.type_name.len() as u64);
        for _ in 0..64 {
            let value = generate(&strict, &mut rng, 0);
            if validator.is_valid(&value) {
                if let Err(error) = (case.parse)(&value) {
                    panic!(
                        "{}: the strict schema accepts {value}, serde refuses it: {error}",
                        case.type_name
                    );
                }
                checked += 1;
            }
            let bytes: Vec<u8> = (0..256).map(|_| rng.next() as u8).collect();
            if let Some(value) = case.written.and_then(|make| make(&bytes))
                && (case.parse)(&value).is_ok()
            {
                let errors: Vec<String> = validator
                    .iter_errors(&value)
                    .map(|e| e.to_string())
                    .collect();
                assert!(
                    errors.is_empty(),
                    "{}: serde wrote {value}, the strict schema refuses it: {errors:?}",
                    case.type_name
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "only {checked} values were checked");
}

/// The subset check can fail: a standard schema with keywords and optional properties breaks it.
#[test]
fn the_strict_subset_check_names_what_a_standard_schema_breaks() {
    let case = CASES
        .iter()
        .find(|case| case.type_name == "gh::SearchCode")
        .expect("a corpus type");
    let mut found = Vec::new();
    subset_violations(&(case.schema)(), "", &mut found);
    for expected in [
        "/properties/page: `minimum` is outside the strict subset",
        "/properties/per_page: `maximum` is outside the strict subset",
        ": property page is not required",
    ] {
        assert!(
            found.iter().any(|v| v == expected),
            "{expected} not in {found:#?}"
        );
    }
}

/// The three requests: every strict-capable corpus type as a strict tool.
fn requests() -> Vec<Value> {
    let pool = pool();
    let user = json!([{"role": "user", "content": "Use the tools."}]);
    let openai = |format| {
        let options = OpenAiOptions {
            format,
            strict: true,
            ..Default::default()
        };
        let rendered = render_openai(&pool, &options).expect("renders");
        rendered.tools.to_value().expect("the tools are values")
    };
    let settings = CacheSettings {
        strict_tools: true,
        model_supports_strict: true,
        first_party: true,
        eager_input_streaming: false,
    };
    let options = RenderOptions {
        settings,
        ..Default::default()
    };
    let env = toolreg_tools::profile::env(toolreg_tools::features());
    let anthropic = render_anthropic(&env, &pool, &SchemaCache::new(), &options).expect("renders");
    let headers = match anthropic.beta {
        Some(beta) => json!({ toolreg::wire::anthropic::BETA_HEADER: beta }),
        None => json!({}),
    };
    vec![
        json!({
            "name": "openai-chat/corpus/strict",
            "api": "openai-chat",
            "headers": {},
            "body": {"model": "gpt-4.1", "messages": user, "tools": openai(OpenAiFormat::ChatCompletions)},
            "expect": {"strict_rules": "openai"},
        }),
        json!({
            "name": "openai-responses/corpus/strict",
            "api": "openai-responses",
            "headers": {},
            "body": {"model": "gpt-4.1", "input": "Use the tools.", "tools": openai(OpenAiFormat::Responses)},
            "expect": {"strict_rules": "openai"},
        }),
        json!({
            "name": "anthropic/corpus/first-party/strict",
            "api": "anthropic",
            "headers": headers,
            "body": {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": user,
                     "tools": anthropic.tools.to_value().expect("the tools are values")},
            "expect": {"strict_rules": "anthropic"},
        }),
    ]
}

#[test]
fn strict_renders_of_the_corpus_type_check_against_the_sdks_and_keep_the_api_rules() {
    let requests = requests();
    let strict_tools = pool().len();
    for request in &requests {
        let tools = request["body"]["tools"].as_array().expect("tools");
        assert_eq!(tools.len(), strict_tools, "{}", request["name"]);
        for tool in tools {
            let strict = tool
                .get("strict")
                .or_else(|| tool.pointer("/function/strict"));
            assert_eq!(
                strict,
                Some(&json!(true)),
                "{} sends {tool} non-strict",
                request["name"]
            );
        }
    }
    let Some(node_modules) = toolreg_tests::sdk_check::node_modules() else {
        return;
    };
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sdk-check-corpus");
    let _ = std::fs::remove_dir_all(&root);
    let cases = root.join("cases");
    std::fs::create_dir_all(&cases).unwrap();
    for (index, request) in requests.iter().enumerate() {
        std::fs::write(cases.join(format!("{index}.json")), request.to_string()).unwrap();
    }
    let stdout = toolreg_tests::sdk_check::check(&cases, &node_modules, "");
    assert!(
        stdout.contains("sdk-check: 3 cases (1 anthropic, 1 chat, 1 responses)"),
        "{stdout}"
    );
}
