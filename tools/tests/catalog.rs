//! The registered built-ins: names, order, deferral, flags, gates, hints and schemas.

use std::collections::BTreeSet;
use toolreg_tools::profile::switch;

use toolreg::env::Switches;
use toolreg::{Catalog, ToolDescriptor};
use toolreg_tools::BASE_ORDER;

/// The tool set's catalog, in base order.
fn registered() -> Vec<&'static ToolDescriptor> {
    toolreg_tools::catalog()
        .expect("no duplicate names")
        .tools()
        .to_vec()
}

/// Every tool this crate registers, and the core's ToolSearch: whatever the catalog's order.
fn registrations() -> Vec<&'static ToolDescriptor> {
    let own = Catalog::defined_in("toolreg_tools").expect("no duplicate names");
    let all = own.with(Catalog::core_tools()).expect("no duplicate names");
    all.tools().to_vec()
}

fn get(name: &str) -> &'static ToolDescriptor {
    toolreg_tools::select(&[name])
        .unwrap_or_else(|error| panic!("{name} is registered: {error}"))
        .tools()[0]
}

/// The tools whose cargo feature is off in this build.
fn compiled_out() -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    let mut off = |on: bool, names: &[&'static str]| {
        if !on {
            out.extend(names);
        }
    };
    off(
        cfg!(feature = "INTERNAL_BUILD"),
        &["Config", "Tungsten", "REPL"],
    );
    off(cfg!(feature = "WEB_BROWSER_TOOL"), &["WebBrowser"]);
    off(cfg!(feature = "WORKFLOW_SCRIPTS"), &["Workflow"]);
    off(
        cfg!(any(feature = "PROACTIVE", feature = "KAIROS")),
        &["Sleep"],
    );
    off(
        cfg!(feature = "AGENT_TRIGGERS"),
        &["CronCreate", "CronDelete", "CronList", "RemoteTrigger"],
    );
    off(cfg!(feature = "MONITOR_TOOL"), &["Monitor"]);
    off(cfg!(feature = "KAIROS"), &["SendUserFile"]);
    out
}

/// The design's base list (`docs/design.md` §2.1), every tool gated or not, in its order.
const DESIGN_ORDER: &[&str] = &[
    "Agent",
    "TaskOutput",
    "Bash",
    "Glob",
    "Grep",
    "ExitPlanMode",
    "Read",
    "Edit",
    "Write",
    "NotebookEdit",
    "WebFetch",
    "TodoWrite",
    "WebSearch",
    "TaskStop",
    "AskUserQuestion",
    "Skill",
    "EnterPlanMode",
    "Config",
    "Tungsten",
    "WebBrowser",
    "TaskCreate",
    "TaskGet",
    "TaskUpdate",
    "TaskList",
    "LSP",
    "EnterWorktree",
    "ExitWorktree",
    "SendMessage",
    "TeamCreate",
    "TeamDelete",
    "REPL",
    "Workflow",
    "Sleep",
    "CronCreate",
    "CronDelete",
    "CronList",
    "RemoteTrigger",
    "Monitor",
    "Brief",
    "SendUserFile",
    "PowerShell",
    "ListMcpResources",
    "ReadMcpResource",
    "StructuredOutput",
    "ToolSearch",
];

#[test]
fn base_order_keeps_the_designs_tools_in_the_designs_order() {
    let distinct: BTreeSet<_> = BASE_ORDER.iter().collect();
    assert_eq!(
        distinct.len(),
        BASE_ORDER.len(),
        "a name twice: {BASE_ORDER:?}"
    );
    let compiled_in: Vec<&str> = DESIGN_ORDER
        .iter()
        .copied()
        .filter(|name| !compiled_out().contains(name))
        .collect();
    // The design's tools of this build, in the design's order; tools added beside them may sit
    // anywhere.
    let designs: Vec<&str> = BASE_ORDER
        .iter()
        .copied()
        .filter(|name| DESIGN_ORDER.contains(name))
        .collect();
    assert_eq!(designs, compiled_in);
    assert_eq!(BASE_ORDER[..3], ["Agent", "TaskOutput", "Bash"]);
    assert_eq!(BASE_ORDER.last(), Some(&"ToolSearch"));
}

#[test]
fn exactly_the_tools_whose_feature_is_on_are_registered() {
    let registrations = registrations();
    let out = compiled_out();
    for name in DESIGN_ORDER {
        assert_eq!(
            registrations.iter().any(|tool| tool.name == *name),
            !out.contains(name),
            "{name}: registered iff its cargo feature is on"
        );
    }
}

/// The one table a new built-in is added to: a registered tool missing from it (or spelling its
/// name otherwise than the table) would slide to the end of the catalog's order.
#[test]
fn every_registered_tool_has_its_place_in_the_base_order() {
    for tool in registrations() {
        assert!(
            BASE_ORDER.contains(&tool.name),
            "{} ({}) is registered but not in toolreg_tools::BASE_ORDER",
            tool.name,
            tool.source.file
        );
    }
}

#[test]
fn deferred_tools_are_exactly_the_specified_set() {
    let deferred: BTreeSet<&str> = [
        "AskUserQuestion",
        "Config",
        "EnterPlanMode",
        "EnterWorktree",
        "ExitPlanMode",
        "ExitWorktree",
        "LSP",
        "ListMcpResources",
        "NotebookEdit",
        "ReadMcpResource",
        "RemoteTrigger",
        "CronCreate",
        "CronDelete",
        "CronList",
        "SendMessage",
        "TaskCreate",
        "TaskGet",
        "TaskList",
        "TaskUpdate",
        "TaskOutput",
        "TaskStop",
        "TeamCreate",
        "TeamDelete",
        "TodoWrite",
        "WebFetch",
        "WebSearch",
    ]
    .into_iter()
    .collect();
    for tool in registered() {
        assert_eq!(
            tool.flags.defer,
            deferred.contains(tool.name),
            "{}: deferred iff in the list",
            tool.name
        );
        assert!(
            !tool.flags.always_load,
            "{}: no built-in is always-load",
            tool.name
        );
    }
}

#[test]
fn legacy_names_are_aliases() {
    assert_eq!(get("Task").name, "Agent");
    assert_eq!(get("KillShell").name, "TaskStop");
    assert_eq!(get("AgentOutputTool").name, "TaskOutput");
    assert_eq!(get("BashOutputTool").name, "TaskOutput");
}

#[test]
fn search_tools_are_read_only_and_concurrency_safe_and_writers_are_not() {
    for name in [
        "Read",
        "Glob",
        "Grep",
        "ToolSearch",
        "WebFetch",
        "WebSearch",
    ] {
        let flags = get(name).flags;
        assert!(flags.read_only && flags.concurrency_safe, "{name}");
    }
    for name in ["Bash", "Edit", "Write", "NotebookEdit", "TodoWrite"] {
        let flags = get(name).flags;
        assert!(!flags.read_only && !flags.concurrency_safe, "{name}");
    }
    assert!(get("Write").flags.destructive);
    assert!(get("TaskStop").flags.destructive);
}

/// Tool names and how to turn their switch on.
type GateCase = (&'static [&'static str], fn(&mut Switches));

#[test]
fn send_message_has_no_run_time_gate() {
    assert!(get("SendMessage").enabled.is_none());
}

#[test]
fn run_time_gates_follow_their_switches() {
    let cases: [GateCase; 5] = [
        (&["TaskCreate", "TaskGet", "TaskUpdate", "TaskList"], |s| {
            s.set(switch::TODO_V2, true);
        }),
        (&["LSP"], |s| {
            s.set(switch::LSP, true);
        }),
        (&["EnterWorktree", "ExitWorktree"], |s| {
            s.set(switch::WORKTREE_MODE, true);
        }),
        (&["TeamCreate", "TeamDelete"], |s| {
            s.set(switch::AGENT_SWARMS, true);
        }),
        (&["PowerShell"], |s| {
            s.set(switch::POWERSHELL, true);
        }),
    ];
    let off = Switches::default();
    for (names, turn_on) in cases {
        let mut on = Switches::default();
        turn_on(&mut on);
        for name in names {
            let tool = get(name);
            assert!(!tool.is_enabled(&off), "{name} is off by default");
            assert!(tool.is_enabled(&on), "{name} follows its switch");
        }
    }
    for name in ["Bash", "Glob", "Grep", "Read", "Brief", "ToolSearch"] {
        assert!(get(name).is_enabled(&off), "{name} has no run-time gate");
    }
}

#[test]
fn compile_time_gates_are_recorded_in_the_descriptor() {
    assert_eq!(get("Bash").feature, None);
    if cfg!(any(feature = "PROACTIVE", feature = "KAIROS")) {
        assert_eq!(
            get("Sleep").feature,
            Some(r#"any(feature = "PROACTIVE", feature = "KAIROS")"#)
        );
    }
    if cfg!(feature = "AGENT_TRIGGERS") {
        assert_eq!(
            get("CronCreate").feature,
            Some(r#"feature = "AGENT_TRIGGERS""#)
        );
    }
}

/// `WebFetch` → web, fetch; `LSP` → lsp; `ListMcpResources` → list, mcp, resources.
fn name_parts(name: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut previous_lower = false;
    for ch in name.chars() {
        if ch.is_ascii_uppercase() && previous_lower {
            parts.push(String::new());
        }
        previous_lower = ch.is_ascii_lowercase();
        parts.last_mut().unwrap().push(ch.to_ascii_lowercase());
    }
    parts
}

#[test]
fn every_search_hint_is_a_3_to_10_word_phrase_without_the_names_words() {
    for tool in registered() {
        let hint = tool
            .search_hint
            .unwrap_or_else(|| panic!("{} has a search hint", tool.name));
        let words: Vec<String> = hint
            .split_whitespace()
            .map(|w| {
                w.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
            })
            .collect();
        assert!((3..=10).contains(&words.len()), "{}: {hint}", tool.name);
        assert!(!hint.ends_with('.'), "{}: {hint}", tool.name);
        for part in name_parts(tool.name) {
            assert!(
                !words.contains(&part),
                "{}: hint {hint:?} repeats the name's word {part:?}",
                tool.name
            );
        }
    }
}

#[test]
fn every_tool_has_a_real_description_and_documented_properties() {
    for tool in registered() {
        assert!(
            tool.description.len() >= 80,
            "{}: a description of a few sentences",
            tool.name
        );
        let schema: serde_json::Value = serde_json::from_str(tool.schema()).unwrap();
        assert_eq!(schema["type"], "object", "{}", tool.name);
        for (property, value) in schema["properties"].as_object().unwrap() {
            // An alias (an old name serde still reads) is the canonical property repeated, marked
            // deprecated; the canonical property's description speaks for both.
            if value["deprecated"] == true {
                continue;
            }
            assert!(
                value["description"].as_str().is_some_and(|d| !d.is_empty()),
                "{}.{property} has a description",
                tool.name
            );
        }
        // Empty when the input has no strict form (a map or an untyped value in it).
        if tool.strict_input_schema.is_empty() {
            assert!(
                !tool.flags.strict,
                "{} is strict without a strict schema",
                tool.name
            );
        } else {
            serde_json::from_str::<serde_json::Value>(tool.strict_input_schema).unwrap();
        }
    }
}

#[test]
fn grep_takes_ripgrep_style_flag_names() {
    let schema: serde_json::Value = serde_json::from_str(get("Grep").input_schema).unwrap();
    let properties: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    for flag in [
        "-i",
        "-n",
        "-A",
        "-B",
        "-C",
        "type",
        "output_mode",
        "head_limit",
    ] {
        assert!(properties.iter().any(|p| *p == flag), "Grep has {flag}");
    }
    assert_eq!(
        schema["properties"]["output_mode"]["enum"],
        serde_json::json!(["content", "files_with_matches", "count"])
    );
    assert_eq!(schema["required"], serde_json::json!(["pattern"]));
}

#[test]
fn tool_search_input_is_query_and_optional_max_results() {
    let schema: serde_json::Value = serde_json::from_str(get("ToolSearch").input_schema).unwrap();
    let properties: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(properties, ["query", "max_results"]);
    assert_eq!(schema["required"], serde_json::json!(["query"]));
    assert_eq!(schema["properties"]["query"]["type"], "string");
    assert_eq!(schema["properties"]["max_results"]["type"], "integer");
}

#[test]
fn todo_items_use_the_camel_case_active_form() {
    let schema: serde_json::Value = serde_json::from_str(get("TodoWrite").input_schema).unwrap();
    let item = &schema["properties"]["todos"]["items"];
    assert_eq!(
        item["required"],
        serde_json::json!(["content", "status", "activeForm"])
    );
    assert_eq!(
        item["properties"]["status"]["enum"],
        serde_json::json!(["pending", "in_progress", "completed"])
    );
}
