//! The generic core knows no product: no code of `toolreg` (comments, doc examples and test
//! modules left out, as the workspace's source scanner `toolreg-source-graph` reads code)
//! spells one of the design's built-in names, its environment variables, the API host it
//! compares base URLs with or its beta headers. The core's own ToolSearch tool is the one name
//! every profile shares. Checked from here, where the design's profile lives.

use std::path::Path;

use toolreg::env::Betas;
use toolreg_source_graph::Sources;
use toolreg_tools::profile::{self, names, switch};

/// Every name of the design's profile, quoted as code would spell it: the tool set's built-ins
/// (all of them when the tools crate is built with every feature, as CI does), the legacy names,
/// the names the profile writes out for tools behind a feature, and its variables.
fn product_strings() -> Vec<String> {
    let mut names: Vec<&str> = toolreg_tools::catalog()
        .unwrap()
        .tools()
        .iter()
        .map(|tool| tool.name)
        .chain(names::LEGACY.iter().map(|(old, _)| *old))
        .chain([
            names::REPL,
            names::WORKFLOW,
            names::CRON_CREATE,
            names::CRON_DELETE,
            names::CRON_LIST,
            names::SEND_USER_FILE,
        ])
        .filter(|name| *name != names::TOOL_SEARCH)
        .collect();
    names.sort_unstable();
    names.dedup();
    assert!(names.contains(&names::BASH), "{names:?}");
    let variables = switch::VARIABLES.iter().map(|(_, variable)| *variable);
    let mut quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
    quoted.extend(variables.map(|variable| format!("\"{variable}\"")));
    quoted.extend(["CLAUDE_CODE_", "ENABLE_TOOL_SEARCH", "toolreg_tools::"].map(str::to_owned));
    quoted.extend(provider_strings());
    quoted
}

/// The design's provider settings: its variables, the API host it compares base URLs with, and
/// its beta header values that differ from the API's current ones.
fn provider_strings() -> Vec<String> {
    let mut strings: Vec<String> = ["ANTHROPIC_", profile::API_HOST]
        .into_iter()
        .map(str::to_owned)
        .collect();
    let current = [Betas::CURRENT.first_party, Betas::CURRENT.other_clouds];
    for beta in [profile::BETAS.first_party, profile::BETAS.other_clouds]
        .into_iter()
        .flatten()
        .filter(|beta| !current.contains(&Some(beta)))
    {
        strings.push(beta.to_owned());
    }
    assert!(strings.len() >= 3, "{strings:?}");
    strings
}

#[test]
fn core_code_names_no_product_tool_or_setting() {
    let sources =
        Sources::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../registry-core/src"));
    let forbidden = product_strings();
    let mut found = Vec::new();
    for module in sources.modules() {
        for line in module.code.lines() {
            for word in forbidden.iter().filter(|word| line.contains(word.as_str())) {
                found.push(format!(
                    "{}: {word}: {}",
                    module.file.display(),
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "product names or settings in the core:\n{}",
        found.join("\n")
    );
}
