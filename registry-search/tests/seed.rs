//! `docs/design.md` §9: ToolSearch's keyword strategy, one test per rule.

use std::sync::Arc;

use serde_json::json;
use toolreg_search::ToolDoc;
use toolreg_search::seed::{ToolText, search};
use toolreg_search::text::NameParts;
use toolreg_search::text::query::parse_terms;

/// A tool as a host registers it: deferred when its name is an MCP tool's (`mcp__`), as the
/// host's pool defers MCP tools.
fn host_tool(name: impl Into<String>, description: impl Into<String>) -> ToolDoc {
    let name = name.into();
    let deferred = name.starts_with("mcp__");
    ToolDoc::new(name, description).with_deferred(deferred)
}

fn tool(name: &str, description: &str, hint: Option<&str>) -> Arc<ToolDoc> {
    let mut tool = host_tool(name, description);
    tool.search_hint = hint.map(str::to_owned);
    Arc::new(tool)
}

fn names(output: &toolreg_search::SearchOutput) -> Vec<&str> {
    output.matches.iter().map(String::as_str).collect()
}

fn pool() -> Vec<Arc<ToolDoc>> {
    vec![
        tool("Bash", "Run a shell command", None),
        tool(
            "Read",
            "Read a file from disk",
            Some("read files, images, PDFs"),
        ),
        tool(
            "NotebookEdit",
            "Edit a cell of a notebook",
            Some("edit jupyter notebook cells"),
        ),
        tool("WebFetch", "Fetch a web page and read it", None),
        tool(
            "mcp__slack__send_message",
            "Send a message to a Slack channel",
            None,
        ),
        tool("mcp__slack__list_channels", "List channels", None),
        tool("mcp__github__create_issue", "Create an issue", None),
    ]
}

fn deferred(pool: &[Arc<ToolDoc>]) -> Vec<Arc<ToolDoc>> {
    pool.iter()
        .filter(|t| {
            ["NotebookEdit", "WebFetch"].contains(&t.name.as_str()) || t.name.starts_with("mcp__")
        })
        .cloned()
        .collect()
}

fn run(query: &str, max: usize) -> Vec<String> {
    let pool = pool();
    search(query, max, &pool, &deferred(&pool), &[]).matches
}

#[test]
fn select_is_case_insensitive_and_keeps_request_order_uncapped() {
    assert_eq!(
        run("SELECT:WebFetch,Read,NotebookEdit", 1),
        ["WebFetch", "Read", "NotebookEdit"]
    );
}

#[test]
fn select_trims_drops_empties_and_deduplicates() {
    assert_eq!(run("select: Read ,,Read, Bash ", 5), ["Read", "Bash"]);
}

#[test]
fn select_looks_up_exact_case_sensitive_names_and_aliases() {
    let mut aliased = host_tool("Agent", "spawns");
    aliased.aliases = vec!["Task".into()];
    let pool = vec![Arc::new(aliased)];
    assert_eq!(
        search("select:Task,agent", 5, &pool, &[], &[]).matches,
        ["Agent"]
    );
}

#[test]
fn select_prefers_the_deferred_tool_then_the_pool() {
    let loaded = tool("Dup", "loaded copy", None);
    let hidden = tool("Dup", "deferred copy", None);
    let out = search(
        "select:Dup",
        5,
        &[loaded],
        std::slice::from_ref(&hidden),
        &[],
    );
    assert_eq!(out.matches, ["Dup"]);
}

#[test]
fn leading_space_defeats_select() {
    // " select:read" becomes a keyword search; "read" is the Read tool's exact name.
    assert_eq!(run(" select:Read", 5), Vec::<String>::new());
    assert_eq!(run("select:", 5), Vec::<String>::new());
}

#[test]
fn exact_name_fast_path_is_case_insensitive_deferred_first() {
    assert_eq!(run("notebookedit", 5), ["NotebookEdit"]);
    assert_eq!(run("  BASH ", 5), ["Bash"]);
}

#[test]
fn mcp_prefix_fast_path_returns_deferred_tools_in_pool_order_capped() {
    assert_eq!(
        run("mcp__slack", 5),
        ["mcp__slack__send_message", "mcp__slack__list_channels"]
    );
    assert_eq!(run("MCP__SLACK__", 1), ["mcp__slack__send_message"]);
}

#[test]
fn mcp_prefix_without_match_falls_through_to_keywords() {
    // No deferred name starts with `mcp__nothing message`: the keyword rules run, and
    // `message` scores the Slack tool.
    assert_eq!(run("mcp__nothing message", 5), ["mcp__slack__send_message"]);
    // `mcp__` alone is not longer than 5, so it is a keyword, and no part contains it.
    assert!(run("mcp__", 9).is_empty());
}

#[test]
fn plus_prefix_marks_required_terms_and_lone_plus_is_ordinary() {
    let terms = parse_terms("+slack send + +x");
    assert_eq!(terms.required, ["slack", "x"]);
    assert_eq!(terms.scoring, ["slack", "x", "send", "+"]);
    let plain = parse_terms("a b");
    assert!(plain.required.is_empty());
    assert_eq!(plain.scoring, ["a", "b"]);
}

#[test]
fn required_terms_filter_by_name_part_description_or_hint() {
    assert_eq!(
        run("+slack message", 5),
        ["mcp__slack__send_message", "mcp__slack__list_channels"]
    );
    assert_eq!(run("+jupyter edit", 5), ["NotebookEdit"]);
    assert!(run("+nowhere edit", 5).is_empty());
}

#[test]
fn exact_part_scores_twelve_for_mcp_and_ten_otherwise() {
    let text = |name: &str| ToolText::new(&host_tool(name, ""));
    assert_eq!(text("mcp__s__send_message").score(&["send".into()]), 12);
    assert_eq!(text("SendMessage").score(&["send".into()]), 10);
}

#[test]
fn partial_part_scores_six_for_mcp_and_five_otherwise() {
    let text = |name: &str| ToolText::new(&host_tool(name, ""));
    assert_eq!(text("mcp__s__sending").score(&["send".into()]), 6);
    assert_eq!(text("Sending").score(&["send".into()]), 5);
}

#[test]
fn full_name_bonus_applies_only_while_running_total_is_zero() {
    let text = ToolText {
        name: NameParts {
            parts: vec!["alpha".into()],
            full: "xy zw".into(),
            is_mcp: false,
        },
        description: String::new(),
        hint: String::new(),
    };
    assert_eq!(text.score(&["xy".into()]), 3);
    assert_eq!(
        text.score(&["xy".into(), "zw".into()]),
        3,
        "second term sees a total of 3"
    );
    assert_eq!(text.score(&["alpha".into(), "xy".into()]), 10);
}

#[test]
fn hint_word_scores_four_and_description_word_two() {
    let text = ToolText::new(&*tool(
        "Zed",
        "Opens a notebook",
        Some("jupyter notebook editing"),
    ));
    assert_eq!(text.score(&["jupyter".into()]), 4);
    assert_eq!(text.score(&["notebook".into()]), 6);
    assert_eq!(
        text.score(&["note".into()]),
        0,
        "word boundaries, not substrings"
    );
}

#[test]
fn regex_metacharacters_in_terms_are_literal() {
    let text = ToolText::new(&*tool("Zed", "matches a.b and (x) only", None));
    assert_eq!(text.score(&["a.b".into()]), 2);
    assert_eq!(text.score(&["a*b".into()]), 0);
    assert_eq!(
        text.score(&["(x)".into()]),
        0,
        "\\b cannot sit between a space and `(`"
    );
}

#[test]
fn word_boundary_uses_ascii_word_characters_only() {
    let text = ToolText::new(&*tool("Zed", "naïve café", None));
    assert_eq!(text.score(&["caf".into()]), 2, "é is not a word character");
    assert_eq!(text.score(&["na".into()]), 2);
}

#[test]
fn ties_keep_pool_order_and_results_are_cut_to_max() {
    let pool = vec![
        tool("mcp__a__x", "common", None),
        tool("mcp__b__x", "common", None),
        tool("mcp__c__x", "common", None),
    ];
    let out = search("common", 2, &pool, &pool, &[]);
    assert_eq!(names(&out), ["mcp__a__x", "mcp__b__x"]);
}

#[test]
fn only_positive_scores_are_kept_best_first() {
    assert_eq!(run("notebook", 5), ["NotebookEdit"]);
    assert_eq!(
        run("slack channel", 5),
        ["mcp__slack__list_channels", "mcp__slack__send_message"]
    );
}

#[test]
fn keyword_search_sees_only_deferred_tools() {
    assert!(run("shell command", 5).is_empty(), "Bash is not deferred");
}

#[test]
fn output_reports_pending_servers_only_without_matches() {
    let pool = pool();
    let pending = vec!["jira".to_owned(), "drive".to_owned()];
    let hit = search("notebook", 5, &pool, &deferred(&pool), &pending);
    assert_eq!(hit.pending_mcp_servers, None);
    let miss = search("zzz", 5, &pool, &deferred(&pool), &pending);
    assert_eq!(miss.pending_mcp_servers.as_deref(), Some(&pending[..]));
    assert_eq!(miss.total_deferred_tools, 5);
    assert_eq!(
        serde_json::to_value(&miss).unwrap(),
        json!({"matches": [], "query": "zzz", "total_deferred_tools": 5, "pending_mcp_servers": ["jira", "drive"]})
    );
}

#[test]
fn tool_result_maps_matches_to_tool_reference_blocks() {
    let pool = pool();
    let out = search("notebook", 5, &pool, &deferred(&pool), &[]);
    assert_eq!(
        out.to_tool_result("t1"),
        json!({"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "tool_reference", "tool_name": "NotebookEdit"}]})
    );
}

#[test]
fn no_match_text_names_the_servers_still_connecting() {
    let pool = pool();
    let plain = search("zzz", 5, &pool, &deferred(&pool), &[]);
    assert_eq!(
        plain.to_tool_result("t")["content"],
        "No matching deferred tools found"
    );
    let pending = search(
        "zzz",
        5,
        &pool,
        &deferred(&pool),
        &["jira".into(), "drive".into()],
    );
    assert_eq!(
        pending.to_tool_result("t")["content"],
        "No matching deferred tools found. Some MCP servers are still connecting: jira, drive. Their tools will become available shortly — try searching again."
    );
}

/// A worked example of `docs/design.md` §9.4–§9.7, against
/// `mcp__claude_ai_OKEngine_LARK_MCP__lark_bitable_search_records`, whose name parts are
/// claude, ai, okengine, lark, mcp, lark, bitable, search, records (an MCP name: exact part
/// +12, partial +6) and whose description here is "Search records in a Lark Bitable table."
///
/// 1. "lark search": lark = exact part +12, description word +2 → 14; search = exact part
///    +12, description word +2 → 28.
/// 2. "+lark bitable": lark is required and is a name part, so the tool passes the filter;
///    scoring terms are lark, bitable: (12 + 2) + (12 + 2) = 28.
/// 3. "select:<the name>": the name itself, whatever the scores.
#[test]
fn worked_example_of_design_9_scores_a_long_mcp_name() {
    let lark = tool(
        "mcp__claude_ai_OKEngine_LARK_MCP__lark_bitable_search_records",
        "Search records in a Lark Bitable table.",
        None,
    );
    let other = tool(
        "mcp__claude_ai_OKEngine_LARK_MCP__lark_docs_read",
        "Read a Lark document.",
        None,
    );
    let pool = vec![other.clone(), lark.clone()];
    let text = ToolText::new(&*lark);
    assert_eq!(text.score(&parse_terms("lark search").scoring), 28);
    assert_eq!(text.score(&parse_terms("+lark bitable").scoring), 28);
    // The other Lark tool: lark 12 + 2, search: no part, no word → 14; it ranks second.
    assert_eq!(
        ToolText::new(&*other).score(&parse_terms("lark search").scoring),
        14
    );
    assert_eq!(
        names(&search("lark search", 5, &pool, &pool, &[])),
        [lark.name.as_str(), other.name.as_str()]
    );
    assert_eq!(
        names(&search("+lark bitable", 5, &pool, &pool, &[])),
        [lark.name.as_str(), other.name.as_str()]
    );
    let select = format!("select:{}", lark.name);
    assert_eq!(
        names(&search(&select, 5, &pool, &pool, &[])),
        [lark.name.as_str()]
    );
}
