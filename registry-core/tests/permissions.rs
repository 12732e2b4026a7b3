//! `docs/design.md` §4: permission rules.

use std::path::Path;
use std::sync::Arc;

use serde_json::json;
use toolreg::mcp::load_server;
use toolreg::permissions::{Refusal, RuleValue, Subject, Verdict, content_matches};
use toolreg::{Behavior, PermissionContext, RuleSource, ToolInfo};

fn rule(text: &str) -> RuleValue {
    RuleValue::parse(text)
}

fn mcp_tool(server: &str, tool: &str) -> Arc<ToolInfo> {
    let loaded = load_server(
        server,
        &json!([{"name": tool, "inputSchema": {"type": "object"}}]),
    );
    loaded.tools[0].clone()
}

#[test]
fn plain_rule_is_the_whole_tool() {
    assert_eq!(
        rule("Bash"),
        RuleValue {
            tool: "Bash".into(),
            content: None
        }
    );
}

#[test]
fn content_runs_from_first_open_paren_to_final_close_paren() {
    let parsed = rule("Bash(npm run (build))");
    assert_eq!(parsed.tool, "Bash");
    assert_eq!(parsed.content.as_deref(), Some("npm run (build)"));
}

#[test]
fn escaped_parens_and_backslashes_are_unescaped_in_content() {
    let parsed = rule(r"Bash(echo \(x\) \\)");
    assert_eq!(parsed.content.as_deref(), Some(r"echo (x) \"));
}

#[test]
fn escaped_open_paren_is_not_the_content_start() {
    assert_eq!(rule(r"Odd\(name").tool, r"Odd\(name");
}

#[test]
fn empty_and_star_content_mean_the_whole_tool() {
    assert_eq!(rule("Read()").content, None);
    assert_eq!(rule("Read(*)").content, None);
    assert_eq!(rule("Read(*)").tool, "Read");
}

#[test]
fn malformed_rule_is_taken_whole_as_a_tool_name() {
    for text in [
        "Bash(unclosed",
        "(no tool)",
        "Bash(x)trailing",
        r"Bash(escaped\)",
    ] {
        let parsed = rule(text);
        assert_eq!(parsed.tool, text, "{text}");
        assert_eq!(parsed.content, None, "{text}");
    }
}

#[test]
fn a_new_permission_context_maps_no_legacy_names() {
    assert_eq!(rule("Task").tool, "Task");
    let ctx = PermissionContext::new().with(Behavior::Deny, RuleSource::User, "Task");
    assert_eq!(ctx.rules().next().unwrap().value.tool, "Task");
}

#[test]
fn legacy_names_rename_rules_added_before_and_after_the_table() {
    const LEGACY: &[(&str, &str)] = &[("OldRun", "Run")];
    let mut ctx = PermissionContext::new().with(Behavior::Deny, RuleSource::User, "OldRun(x)");
    ctx.set_legacy_names(LEGACY);
    ctx.add(Behavior::Deny, RuleSource::User, "OldRun");
    let tools: Vec<String> = ctx.rules().map(|r| r.value.tool.clone()).collect();
    assert_eq!(tools, ["Run", "Run"]);
}

#[test]
fn display_round_trips_through_parse() {
    for text in ["Bash", r"Bash(echo \(x\))", "Edit(src/*.rs)"] {
        assert_eq!(rule(&rule(text).to_string()), rule(text));
    }
}

#[test]
fn sources_are_scanned_in_order_and_first_match_wins() {
    let tool = ToolInfo::new("Bash", "runs");
    let ctx = PermissionContext::new()
        .with(Behavior::Deny, RuleSource::Session, "Bash")
        .with(Behavior::Deny, RuleSource::Project, "Bash")
        .with(Behavior::Deny, RuleSource::Policy, "Bash");
    assert_eq!(
        ctx.deny_rule_for_tool(tool.rule_target()).unwrap().source,
        RuleSource::Project
    );
    let order: Vec<RuleSource> = ctx.rules().map(|rule| rule.source).collect();
    assert_eq!(
        order,
        [RuleSource::Project, RuleSource::Policy, RuleSource::Session]
    );
}

#[test]
fn deny_rule_with_content_keeps_tool_in_pool() {
    let tool = ToolInfo::new("Bash", "runs");
    let ctx = PermissionContext::new().with(Behavior::Deny, RuleSource::User, "Bash(rm -rf:*)");
    assert!(ctx.deny_rule_for_tool(tool.rule_target()).is_none());
    assert!(matches!(
        ctx.check(
            tool.rule_target(),
            Some(&Subject::Command("rm -rf /".into())),
            Path::new("/")
        ),
        Verdict::Deny(Refusal::Rule(_))
    ));
}

#[test]
fn aliases_are_not_consulted_by_whole_tool_rules() {
    let mut tool = ToolInfo::new("Agent", "spawns");
    tool.aliases = vec!["Helper".into()];
    let ctx = PermissionContext::new().with(Behavior::Deny, RuleSource::User, "Helper");
    assert!(ctx.deny_rule_for_tool(tool.rule_target()).is_none());
}

#[test]
fn allow_and_ask_lookups_return_rule_and_source() {
    let tool = ToolInfo::new("Read", "reads");
    let ctx = PermissionContext::new()
        .with(Behavior::Allow, RuleSource::Local, "Read")
        .with(Behavior::Ask, RuleSource::CliArg, "Read");
    assert_eq!(
        ctx.allow_rule_for_tool(tool.rule_target()).unwrap().source,
        RuleSource::Local
    );
    assert_eq!(
        ctx.ask_rule_for_tool(tool.rule_target()).unwrap().source,
        RuleSource::CliArg
    );
    assert!(ctx.deny_rule_for_tool(tool.rule_target()).is_none());
}

#[test]
fn mcp_server_rule_matches_every_tool_of_that_server() {
    let git = mcp_tool("git", "git_status");
    let other = mcp_tool("github", "git_status");
    for text in ["mcp__git", "mcp__git__*"] {
        let ctx = PermissionContext::new().with(Behavior::Deny, RuleSource::User, text);
        assert!(
            ctx.deny_rule_for_tool(git.rule_target()).is_some(),
            "{text}"
        );
        assert!(
            ctx.deny_rule_for_tool(other.rule_target()).is_none(),
            "{text}"
        );
    }
}

#[test]
fn mcp_full_name_rule_matches_only_that_tool() {
    let status = mcp_tool("git", "git_status");
    let log = mcp_tool("git", "git_log");
    let ctx =
        PermissionContext::new().with(Behavior::Deny, RuleSource::User, "mcp__git__git_status");
    assert!(ctx.deny_rule_for_tool(status.rule_target()).is_some());
    assert!(ctx.deny_rule_for_tool(log.rule_target()).is_none());
}

#[test]
fn there_is_no_mcp_star_wildcard() {
    let git = mcp_tool("git", "git_status");
    let ctx = PermissionContext::new().with(Behavior::Deny, RuleSource::User, "mcp__*");
    assert!(ctx.deny_rule_for_tool(git.rule_target()).is_none());
}

#[test]
fn mcp_server_rule_compares_the_normalized_server_name() {
    let tool = mcp_tool("my.server", "x");
    let ctx = PermissionContext::new().with(Behavior::Deny, RuleSource::User, "mcp__my_server");
    assert!(ctx.deny_rule_for_tool(tool.rule_target()).is_some());
}

#[test]
fn mcp_server_rule_does_not_match_builtins() {
    let tool = ToolInfo::new("Bash", "runs");
    let ctx = PermissionContext::new().with(Behavior::Deny, RuleSource::User, "mcp__Bash");
    assert!(ctx.deny_rule_for_tool(tool.rule_target()).is_none());
}

#[test]
fn content_prefix_rule_matches_by_prefix() {
    assert!(content_matches("npm test:*", "npm test -- --watch"));
    assert!(!content_matches("npm test:*", "npm install"));
    assert!(content_matches("git status", "git status"));
    assert!(!content_matches("git status", "git status -s"));
    assert!(content_matches("src/*.rs", "src/lib.rs"));
    assert!(!content_matches("src/*.rs", "tests/a.rs"));
}

#[test]
fn a_malformed_rule_is_an_error_naming_it_and_what_is_wrong() {
    use toolreg::permissions::RuleError;
    let error = |text: &str| text.parse::<RuleValue>().unwrap_err();
    assert_eq!(error(""), RuleError::Empty);
    assert!(matches!(error("(npm test)"), RuleError::NoTool { .. }));
    assert!(matches!(
        error("Bash(npm test"),
        RuleError::Unclosed { at: 4, .. }
    ));
    assert!(matches!(
        error("Bash(npm test\\)"),
        RuleError::Unclosed { at: 4, .. }
    ));
    assert!(matches!(error("Bash("), RuleError::Unclosed { at: 4, .. }));
    assert!(matches!(
        error("Bash npm test)"),
        RuleError::Unopened { .. }
    ));
    assert!(matches!(error("Bash (ls)"), RuleError::Space { .. }));
    assert!(matches!(error(" Read"), RuleError::Space { .. }));
    assert_eq!(
        error("Bash(npm test").to_string(),
        "rule `Bash(npm test`: the `(` at byte 4 is not closed by a `)` ending the rule \
         (escape a literal one as `\\(`)"
    );
    // What parses strictly reads as the design reads it.
    for text in [
        "Bash",
        "Bash(npm test:*)",
        r"Bash(echo \(hi\))",
        "Read(*)",
        "mcp__git__*",
        "Bash()",
    ] {
        assert_eq!(text.parse::<RuleValue>().unwrap(), rule(text), "{text}");
    }
    // The design's reading never fails: a malformed rule is a tool name that matches nothing.
    assert_eq!(rule("Bash(npm test").tool, "Bash(npm test");
    let mut rules = PermissionContext::new();
    assert!(
        rules
            .try_add(Behavior::Deny, RuleSource::CliArg, "Bash(rm")
            .is_err()
    );
    assert!(
        rules.rules().next().is_none(),
        "a refused rule is not added"
    );
}
