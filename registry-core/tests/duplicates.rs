//! Two built-ins claiming one name are an error that names both definitions: in the snapshot of
//! every registered tool, and in the catalog of the crate that defines them.

use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// The first.
#[tool(name = "Same")]
#[derive(Deserialize)]
struct First {}

/// The second, with the first's name as an alias.
#[tool(name = "Other", aliases = ["Same"])]
#[derive(Deserialize)]
struct Second {}

impl Tool for First {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

impl Tool for Second {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

#[test]
fn a_name_shared_with_an_alias_is_an_error_naming_both_definitions() {
    let clash = toolreg::builtins().unwrap_err();
    assert_eq!(clash.name, "Same");
    let message = clash.to_string();
    assert!(message.contains("duplicates::First"), "{message}");
    assert!(message.contains("duplicates::Second"), "{message}");
    assert!(message.contains("tests/duplicates.rs:"), "{message}");
}

#[test]
fn a_crate_whose_tools_share_a_name_has_no_catalog_and_the_error_names_both() {
    let Err(toolreg::CatalogError::Duplicate(clash)) = toolreg::own_tools!() else {
        panic!("two tools of one name in the crate's catalog")
    };
    assert_eq!(clash.name, "Same");
    let message = clash.to_string();
    assert!(message.contains("duplicates::First"), "{message}");
    assert!(message.contains("duplicates::Second"), "{message}");
}
