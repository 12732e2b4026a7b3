//! `#[tool(crate = "...")]` and `#[schema(crate = "...")]`: in a crate that depends on toolreg
//! under another name (`tr`), where `::toolreg` does not exist, the tools of `src/lib.rs`
//! compile, register, render their schemas and run, whether the path is the new name, a
//! re-export through a module of the crate, or a name imported into the tool's module.

use serde_json::json;
use toolreg_renamed::through_reexport::NameJunctionTool;
use toolreg_renamed::{Distance, Measure, Point, Unit};
use tr::schema::{Mode, to_json};
use tr::{
    Dispatcher, Env, InputSchema, PermissionContext, ToolCall, ToolOutput, ToolSpec, TurnOptions,
    assemble_tool_pool,
};

const POINT: &str = r#"{"type":"object","properties":{"lat":{"description":"Degrees north.","type":"number","minimum":-90,"maximum":90},"lon":{"description":"Degrees east.","type":"number"}},"required":["lat","lon"]}"#;

#[test]
fn a_type_deriving_input_schema_under_a_renamed_dependency_has_its_schema() {
    assert_eq!(
        to_json(&<Point as InputSchema>::SCHEMA, Mode::Standard),
        POINT
    );
    assert_eq!(
        to_json(&<Unit as InputSchema>::SCHEMA, Mode::Standard),
        r#"{"type":"string","enum":["metres","feet"]}"#
    );
    assert_eq!(
        to_json(&<Measure as InputSchema>::SCHEMA, Mode::Standard),
        r#"{"type":"object","properties":{"value":{"description":"How far.","type":"number"},"unit":{"description":"In what.","type":"string","enum":["metres","feet"]}},"required":["value","unit"]}"#
    );
}

#[test]
fn a_tool_under_a_renamed_dependency_registers_and_renders_its_schema() {
    let builtins = tr::builtins().expect("no two tools share a name");
    let tool = builtins.get("Distance").expect("Distance is registered");
    assert_eq!(tool.source.type_path, "toolreg_renamed::Distance");
    assert!(tool.flags.read_only && tool.flags.concurrency_safe);
    assert_eq!(tool.search_hint, Some("distance between two map points"));
    let expected = format!(
        concat!(
            r#"{{"type":"object","properties":{{"#,
            r#""from":{{"description":"Where it starts.",{point}}},"#,
            r#""to":{{"description":"Where it ends.",{point}}},"#,
            r#""unit":{{"description":"The unit of the answer; metres when left out.","type":"string","enum":["metres","feet"]}}}},"#,
            r#""required":["from","to"]}}"#,
        ),
        point = &POINT[1..POINT.len() - 1],
    );
    assert_eq!(tool.schema(), expected);
    assert_eq!(
        tool.schema(),
        <Distance as ToolSpec>::DESCRIPTOR.input_schema
    );
    assert_eq!(
        tool.output_schema,
        Some(to_json(&<Measure as InputSchema>::SCHEMA, Mode::Standard).as_str())
    );
    // Its examples and callers, and the check of its examples, under the renamed path too.
    assert_eq!(tool.input_examples.len(), 1);
    assert_eq!(
        tool.allowed_callers
            .map(|callers| callers.to_string())
            .as_deref(),
        Some("direct, code_execution_20260120")
    );
    assert!(tr::__private::check_examples(tool).is_ok());
}

#[test]
fn a_tool_reached_through_a_reexport_registers_with_its_gate_and_prompt() {
    let builtins = tr::builtins().expect("no two tools share a name");
    let tool = builtins
        .get("NameJunction")
        .expect("NameJunction is registered");
    assert_eq!(
        tool.source.type_path,
        "toolreg_renamed::through_reexport::NameJunctionTool"
    );
    let switches = Env::default().switches;
    assert!(tool.is_enabled(&switches));
    assert_eq!(tool.description_for(&switches), "Names a junction.");
    assert_eq!(
        tool.schema(),
        concat!(
            r#"{"type":"object","properties":{"junction":{"description":"The junction.","oneOf":["#,
            r#"{"description":"A roundabout with its number of exits.","type":"object","properties":{"kind":{"type":"string","const":"roundabout"},"exits":{"type":"integer","minimum":0,"maximum":255}},"required":["kind","exits"]},"#,
            r#"{"description":"Traffic lights.","type":"object","properties":{"kind":{"type":"string","const":"lights"}},"required":["kind"]}"#,
            r#"]}},"required":["junction"]}"#,
        )
    );
    assert_eq!(
        tool.schema(),
        <NameJunctionTool as ToolSpec>::DESCRIPTOR.input_schema
    );
}

#[tokio::test(flavor = "current_thread")]
async fn the_tools_under_a_renamed_dependency_parse_their_input_and_run_in_a_turn() {
    let catalog = tr::Catalog::defined_in("toolreg_renamed").expect("no two tools share a name");
    let names: Vec<&str> = catalog.tools().iter().map(|tool| tool.name).collect();
    assert_eq!(names, ["Distance", "NameJunction"]);
    let (env, rules) = (Env::default(), PermissionContext::new());
    let pool = assemble_tool_pool(&env, &rules, &catalog, &[]);
    let dispatcher = Dispatcher::new(env, rules, pool, ".");
    let calls = [
        ToolCall::new(
            "a",
            "Distance",
            json!({"from": {"lat": 0.0, "lon": 0.0}, "to": {"lat": 3.0, "lon": 4.0}, "unit": "metres"}),
        ),
        ToolCall::new(
            "b",
            "NameJunction",
            json!({"junction": {"kind": "roundabout", "exits": 4}}),
        ),
        ToolCall::new("c", "Distance", json!({"from": {"lat": 0.0}})),
    ];
    let turn = dispatcher.run_turn(&calls, &TurnOptions::default()).await;
    assert_eq!(
        turn.results[0].content,
        ToolOutput::Json(json!({"value": 555000.0, "unit": "metres"}))
    );
    assert_eq!(
        turn.results[1].content,
        ToolOutput::Text("a roundabout of 4 exits".into())
    );
    assert!(turn.results[2].is_error(), "{:?}", turn.results[2]);
}
