//! The registered built-in set is exactly the expected one for the default features and with
//! every gated tool compiled in (`--features all-tools`, which forwards each gate to the tools
//! crate): each gate adds exactly its tools.

use std::collections::BTreeSet;

const DEFAULT_SET: &[&str] = &[
    "Agent",
    "AskUserQuestion",
    "Bash",
    "Brief",
    "Edit",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Glob",
    "Grep",
    "LSP",
    "ListMcpResources",
    "NotebookEdit",
    "PowerShell",
    "Read",
    "ReadMcpResource",
    "SendMessage",
    "Skill",
    "StructuredOutput",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskOutput",
    "TaskStop",
    "TaskUpdate",
    "TeamCreate",
    "TeamDelete",
    "TodoWrite",
    "ToolSearch",
    "WebFetch",
    "WebSearch",
    "Write",
];

fn registered() -> BTreeSet<&'static str> {
    toolreg_tools::catalog()
        .unwrap()
        .tools()
        .iter()
        .map(|tool| tool.name)
        .collect()
}

#[test]
#[cfg(not(feature = "all-tools"))]
fn default_features_register_the_ungated_set() {
    assert_eq!(registered(), DEFAULT_SET.iter().copied().collect());
}

/// Each cargo feature of the tools crate that gates tools, and the tools it adds.
#[cfg(feature = "all-tools")]
const GATED: &[(&str, &[&str])] = &[
    ("INTERNAL_BUILD", &["Config", "Tungsten", "REPL"]),
    ("WEB_BROWSER_TOOL", &["WebBrowser"]),
    ("WORKFLOW_SCRIPTS", &["Workflow"]),
    ("PROACTIVE", &["Sleep"]),
    ("KAIROS", &["Sleep", "SendUserFile"]),
    (
        "AGENT_TRIGGERS",
        &["CronCreate", "CronDelete", "CronList", "RemoteTrigger"],
    ),
    ("MONITOR_TOOL", &["Monitor"]),
];

#[test]
#[cfg(feature = "all-tools")]
fn every_gate_adds_exactly_its_tools() {
    // With every gate on (`all-tools`), the set is the default one and every gate's tools: a
    // gate that added nothing, or a tool that no gate lists, fails here. (`features()` reports
    // only the gates the rules read, not the tool-only ones such as WEB_BROWSER_TOOL.)
    let mut expected: BTreeSet<&str> = DEFAULT_SET.iter().copied().collect();
    for (_, tools) in GATED {
        expected.extend(tools.iter().copied());
    }
    assert_eq!(registered(), expected);
}
