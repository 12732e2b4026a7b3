//! A program offers the built-ins it names: its own tools and those it chooses from the tool
//! set, by name or by set. This test binary links the tool set, as such a program does; its own
//! tools are the two below.

use serde::Deserialize;
use toolreg::env::ToolSearchMode;
use toolreg::{
    Catalog, CatalogError, Env, PermissionContext, Tool, ToolContext, ToolDescriptor, ToolError,
    ToolSpec, assemble_tool_pool, tool,
};
use toolreg_tools::BASE_ORDER;

/// Gives the weather forecast for a city.
#[tool(read_only, search_hint = "weather forecast for the days ahead")]
#[derive(Deserialize)]
pub struct ForecastTool {
    /// The city.
    pub city: String,
}

impl Tool for ForecastTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(format!("{}: sunny", self.city))
    }
}

/// Shows the rain radar around a city.
#[tool(read_only, search_hint = "rain radar map around a city")]
#[derive(Deserialize)]
pub struct RadarTool {
    /// The city.
    pub city: String,
}

impl Tool for RadarTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(format!("{}: no rain", self.city))
    }
}

fn names(catalog: &Catalog) -> Vec<&'static str> {
    catalog.tools().iter().map(|tool| tool.name).collect()
}

/// The names of the pool `catalog` makes in `env`, without MCP tools or rules.
fn pool(catalog: &Catalog, env: &Env) -> Vec<String> {
    let pool = assemble_tool_pool(env, &PermissionContext::new(), catalog, &[]);
    pool.iter().map(|tool| tool.name.clone()).collect()
}

/// An environment with tool search off: ToolSearch is in no pool.
fn without_tool_search() -> Env {
    let mut env = Env::default();
    env.tool_search.mode = Some(ToolSearchMode::Standard);
    env
}

#[test]
fn my_tools_plus_read_and_grep_are_exactly_those() {
    let catalog = toolreg::own_tools!()
        .and_then(|own| own.with(toolreg_tools::select(&["Read", "Grep"])?))
        .unwrap();
    assert_eq!(
        names(&catalog),
        ["Forecast", "Radar", "ToolSearch", "Grep", "Read"]
    );
    assert_eq!(
        pool(&catalog, &without_tool_search()),
        ["Forecast", "Grep", "Radar", "Read"]
    );
    // With tool search on, the core's ToolSearch joins them, as in a program that links no
    // tool set.
    assert_eq!(
        pool(&catalog, &Env::default()),
        ["Forecast", "Grep", "Radar", "Read", "ToolSearch"]
    );
}

#[test]
fn linking_the_tool_set_leaves_the_programs_own_catalog_alone() {
    // The registry holds every tool the program links: a catalog built from it would hold the
    // tool set's.
    let registered = toolreg::builtins().unwrap();
    for name in ["Forecast", "Radar", "Bash", "Read", "Agent"] {
        assert!(registered.get(name).is_some(), "{name} is registered");
    }
    // The program's own catalog holds its tools and the core's, none of the tool set's.
    let own = toolreg::own_tools!().unwrap();
    assert_eq!(names(&own), ["Forecast", "Radar", "ToolSearch"]);
    assert!(
        (own.tools().iter()).all(|tool| !tool.source.type_path.starts_with("toolreg_tools::")),
        "{own:?}"
    );
    assert_eq!(pool(&own, &without_tool_search()), ["Forecast", "Radar"]);
}

#[test]
fn a_name_the_tool_set_does_not_have_is_an_error_naming_it() {
    let error = toolreg_tools::select(&["Read", "Reed"]).unwrap_err();
    let CatalogError::UnknownTool { name, known } = &error else {
        panic!("an unknown name expected: {error}")
    };
    assert_eq!(name, "Reed");
    assert_eq!(known, BASE_ORDER);
    assert!(
        error
            .to_string()
            .starts_with("no tool named `Reed` in the catalog; it has ")
    );
    // A tool whose feature is off in this build is not in the set either.
    if !cfg!(feature = "MONITOR_TOOL") {
        assert!(matches!(
            toolreg_tools::select(&["Monitor"]),
            Err(CatalogError::UnknownTool { name, .. }) if name == "Monitor"
        ));
    }
}

#[test]
fn a_tool_of_mine_named_like_a_chosen_built_in_is_an_error_naming_both() {
    static MY_READ: ToolDescriptor = ToolDescriptor {
        name: "Read",
        ..<ForecastTool as ToolSpec>::DESCRIPTOR
    };
    let mine = Catalog::from_descriptors(vec![&MY_READ], &[]);
    let error = mine
        .with(toolreg_tools::select(&["Read", "Grep"]).unwrap())
        .unwrap_err();
    let CatalogError::Duplicate(clash) = &error else {
        panic!("a clash expected: {error}")
    };
    assert_eq!(clash.name, "Read");
    let message = error.to_string();
    assert!(message.contains("composition::ForecastTool ("), "{message}");
    assert!(
        message.contains("toolreg_tools::read::ReadTool ("),
        "{message}"
    );
}

#[test]
fn the_tools_that_need_no_delegate_are_a_set_to_choose() {
    let standalone = toolreg_tools::select(toolreg_tools::STANDALONE).unwrap();
    let mut expected = vec![
        "Bash",
        "Glob",
        "Grep",
        "Read",
        "Edit",
        "Write",
        "NotebookEdit",
        "TodoWrite",
    ];
    if cfg!(any(feature = "PROACTIVE", feature = "KAIROS")) {
        expected.push("Sleep");
    }
    expected.push("ToolSearch");
    assert_eq!(names(&standalone), expected);
    // Joined with the program's own, ToolSearch (in both) is there once.
    let joined = toolreg::own_tools!().unwrap().with(standalone).unwrap();
    let searches = names(&joined)
        .iter()
        .filter(|name| **name == "ToolSearch")
        .count();
    assert_eq!(searches, 1);
}

#[test]
fn the_whole_tool_set_is_one_explicit_call_in_the_base_order() {
    let all = toolreg_tools::catalog().unwrap();
    assert_eq!(names(&all), BASE_ORDER);
    assert!(!names(&all).contains(&"Forecast"));
}
