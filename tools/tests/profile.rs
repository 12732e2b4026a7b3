//! Profiles: the generic profile singles no tool out by name; the design's does.

use std::sync::Arc;

use toolreg::env::AgentKind;
use toolreg::pool::{deferral, filter_tools_for_agent, merge_and_filter_tools};
use toolreg::tool::Flags;
use toolreg::{Behavior, Env, PermissionContext, Pool, RuleSource, ToolInfo};
use toolreg_tools::profile::{self, feature, switch};

/// Tools a user might name like the design's built-ins.
fn user_tools() -> Vec<Arc<ToolInfo>> {
    ["Agent", "AskUserQuestion", "Brief", "Bash", "weather"]
        .into_iter()
        .map(|name| {
            let mut tool = ToolInfo::new(name, "a user's tool");
            tool.flags = Flags {
                defer: true,
                ..Flags::NONE
            };
            Arc::new(tool)
        })
        .collect()
}

fn names(pool: &[Arc<ToolInfo>]) -> Vec<&str> {
    pool.iter().map(|tool| tool.name.as_str()).collect()
}

/// The switches and features that change the design's pools, all on.
fn everything_on(mut env: Env) -> Env {
    for name in [
        switch::SIMPLE,
        switch::REPL,
        switch::COORDINATOR,
        switch::FORK_SUBAGENT,
    ] {
        env.switches.set(name, true);
    }
    for name in [
        feature::KAIROS,
        feature::COORDINATOR_MODE,
        feature::FORK_SUBAGENT,
    ] {
        env.features.set(name, true);
    }
    env
}

#[test]
fn generic_profile_gives_every_agent_every_tool_whatever_its_name() {
    let env = everything_on(Env::default());
    let tools = user_tools();
    let pool = Pool::new(&env, tools.clone());
    for kind in AgentKind::ALL {
        assert_eq!(
            names(&filter_tools_for_agent(&pool, kind, &env)),
            names(&pool),
            "{kind:?}"
        );
    }
    assert_eq!(
        names(&merge_and_filter_tools(&env, &[], &tools)),
        ["Agent", "AskUserQuestion", "Bash", "Brief", "weather"]
    );
}

#[test]
fn generic_profile_lets_the_defer_flag_decide_whatever_the_name() {
    let env = everything_on(Env::default());
    for tool in user_tools() {
        assert!(deferral(&tool, &env), "{}", tool.name);
    }
}

#[test]
fn design_profile_singles_out_the_design_names() {
    let env = everything_on(profile::env(Default::default()));
    let tools = user_tools();
    let sub = filter_tools_for_agent(&Pool::new(&env, tools.clone()), AgentKind::SubAgent, &env);
    assert!(!names(&sub).contains(&"AskUserQuestion"));
    let brief = tools.iter().find(|tool| tool.name == "Brief").unwrap();
    assert!(!deferral(brief, &env), "Brief stays loaded under KAIROS");
    // Coordinator mode keeps only the coordinator's set.
    assert_eq!(names(&merge_and_filter_tools(&env, &[], &tools)), ["Agent"]);
}

#[test]
fn legacy_names_map_to_current_ones_under_the_design_profile() {
    let mut ctx = toolreg_tools::profile::permissions();
    for text in ["Task", "KillShell", "AgentOutputTool(x)"] {
        ctx.add(Behavior::Deny, RuleSource::User, text);
    }
    // Set after a rule was added, the table renames it too.
    let mut late =
        PermissionContext::new().with(Behavior::Deny, RuleSource::User, "BashOutputTool");
    late.set_legacy_names(toolreg_tools::profile::names::LEGACY);
    let tools: Vec<String> = ctx
        .rules()
        .chain(late.rules())
        .map(|r| r.value.tool.clone())
        .collect();
    assert_eq!(tools, ["Agent", "TaskStop", "TaskOutput", "TaskOutput"]);
}

#[test]
fn the_design_profile_sends_the_designs_beta_headers() {
    use toolreg::Profile;
    use toolreg::env::Betas;
    assert_eq!(profile::ClaudeCode.betas(), Some(profile::BETAS));
    assert_eq!(
        profile::BETAS,
        Betas {
            first_party: Some("advanced-tool-use-2025-11-20"),
            other_clouds: Some("tool-search-tool-2025-10-19"),
        }
    );
}
