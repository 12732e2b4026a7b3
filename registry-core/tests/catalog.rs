//! Catalogs are composed by name: a crate's own tools, the core's, a selection, a union. Linking
//! a crate never adds its tools to one; two tools of one name in one are an error naming both;
//! a name no tool answers to is an error naming it.

use serde::Deserialize;
use toolreg::tool::Source;
use toolreg::{
    Catalog, CatalogError, Tool, ToolContext, ToolDescriptor, ToolError, ToolSpec, tool,
};

/// Gives the tide times of a harbour.
#[tool(read_only, aliases = ["Tides"], search_hint = "high and low tide times of a harbour")]
#[derive(Deserialize)]
pub struct TideTool {
    /// The harbour.
    pub harbour: String,
}

impl Tool for TideTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(format!("{}: high tide at noon", self.harbour))
    }
}

/// Another crate's tool that calls itself `Tide`: the same name, another definition.
static OTHER_TIDE: ToolDescriptor = ToolDescriptor {
    aliases: &[],
    source: Source {
        type_path: "harbour_tools::TideTool",
        file: "harbour-tools/src/lib.rs",
        line: 7,
    },
    ..<TideTool as ToolSpec>::DESCRIPTOR
};

fn names(catalog: &Catalog) -> Vec<&'static str> {
    catalog.tools().iter().map(|tool| tool.name).collect()
}

#[test]
fn a_crates_catalog_holds_its_own_tools_and_no_other_crates() {
    assert_eq!(
        names(&Catalog::defined_in("toolreg").unwrap()),
        ["ToolSearch"]
    );
    assert_eq!(names(&Catalog::core_tools()), ["ToolSearch"]);
    assert!(
        Catalog::defined_in("no_such_crate")
            .unwrap()
            .tools()
            .is_empty()
    );
    // This test binary's own tools, every one defined here, then the core's.
    let own = toolreg::own_tools!().unwrap();
    let krate = module_path!().split("::").next().unwrap();
    let (core, mine): (Vec<&ToolDescriptor>, Vec<&ToolDescriptor>) = own
        .tools()
        .iter()
        .partition(|tool| tool.source.type_path.starts_with("toolreg::"));
    assert_eq!(
        core.iter().map(|tool| tool.name).collect::<Vec<_>>(),
        ["ToolSearch"]
    );
    assert!(mine.iter().any(|tool| tool.name == "Tide"));
    for tool in mine {
        assert!(
            tool.source.type_path.starts_with(&format!("{krate}::")),
            "{} is not this crate's",
            tool.source
        );
    }
}

#[test]
fn a_definition_reached_twice_is_kept_once() {
    let own = toolreg::own_tools!().unwrap();
    let count = own.tools().len();
    let joined = own.with(Catalog::core_tools()).unwrap();
    assert_eq!(joined.tools().len(), count);
}

#[test]
fn two_tools_of_one_name_in_a_catalog_are_an_error_naming_both() {
    let ours = toolreg::own_tools!().unwrap().select(&["Tide"]).unwrap();
    let theirs = Catalog::from_descriptors(vec![&OTHER_TIDE], &[]);
    let error = ours.with(theirs).unwrap_err();
    let CatalogError::Duplicate(clash) = &error else {
        panic!("a clash expected: {error}")
    };
    assert_eq!(clash.name, "Tide");
    let message = error.to_string();
    assert!(message.contains("catalog::TideTool ("), "{message}");
    assert!(message.contains("harbour_tools::TideTool"), "{message}");
    assert!(std::error::Error::source(&error).is_some());
}

#[test]
fn select_keeps_the_catalogs_order_and_answers_to_aliases() {
    let own = toolreg::own_tools!().unwrap();
    let picked = own.select(&["ToolSearch", "Tides"]).unwrap();
    assert_eq!(names(&picked), ["Tide", "ToolSearch"]);
    assert!(own.select(&[]).unwrap().tools().is_empty());
}

#[test]
fn a_name_no_tool_answers_to_is_an_error_naming_it() {
    let error = Catalog::core_tools()
        .select(&["ToolSearch", "Tide"])
        .unwrap_err();
    let CatalogError::UnknownTool { name, known } = &error else {
        panic!("an unknown name expected: {error}")
    };
    assert_eq!(name, "Tide");
    assert_eq!(known, &["ToolSearch"]);
    assert_eq!(
        error.to_string(),
        "no tool named `Tide` in the catalog; it has ToolSearch"
    );
}
