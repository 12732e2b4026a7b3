//! The registered built-in set is exactly the expected one for the default features and for
//! `--features MONITOR_TOOL,KAIROS` (this crate's features forward to the tools crate).

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
    toolreg_tools::link();
    toolreg::builtins()
        .unwrap()
        .tools()
        .iter()
        .map(|tool| tool.name)
        .collect()
}

#[test]
#[cfg(not(any(feature = "MONITOR_TOOL", feature = "KAIROS")))]
fn default_features_register_the_ungated_set() {
    assert_eq!(registered(), DEFAULT_SET.iter().copied().collect());
}

#[test]
#[cfg(all(feature = "MONITOR_TOOL", feature = "KAIROS"))]
fn monitor_and_kairos_add_monitor_sleep_and_send_user_file() {
    let mut expected: BTreeSet<&str> = DEFAULT_SET.iter().copied().collect();
    expected.extend(["Monitor", "Sleep", "SendUserFile"]);
    assert_eq!(registered(), expected);
    assert!(toolreg_tools::features().is_on(toolreg_tools::profile::feature::KAIROS));
}
