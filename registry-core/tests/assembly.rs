//! One way through: pool assembly decides each tool's deferral once, for the environment, and
//! every later stage reads that answer; the permission rules are an input of their own.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::json;
use toolreg::env::Gates;
use toolreg::mcp::load_server;
use toolreg::pool::merge_and_filter_tools;
use toolreg::{
    Behavior, Catalog, Dispatcher, Env, PermissionContext, PermissionMode, Profile, RenderOptions,
    RuleSource, SchemaCache, SearchEngine, Strategy, Tool, ToolCall, ToolContext, ToolError,
    ToolInfo, assemble_tool_pool, builtins, render_anthropic, tool,
};

/// Looks up an order by its number.
#[tool(defer, read_only, search_hint = "find an order by its number")]
#[derive(Deserialize)]
pub struct OrderLookupTool {
    /// The order number.
    pub number: u32,
}

impl Tool for OrderLookupTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(format!("order {}: shipped", self.number))
    }
}

/// A profile that keeps `OrderLookup` loaded whatever its `defer` flag says.
#[derive(Debug)]
struct KeepOrdersLoaded;

impl Profile for KeepOrdersLoaded {
    fn name(&self) -> &str {
        "keep-orders-loaded"
    }

    fn deferral(&self, tool: &ToolInfo, _: Gates<'_>) -> Option<bool> {
        (tool.name == "OrderLookup").then_some(false)
    }
}

/// The crate's tools and this file's: the test binary's registry also holds other files' tools.
fn catalog() -> Catalog {
    let ours = |file: &str| !file.starts_with("registry-core/tests/") || file == file!();
    let tools = builtins().unwrap().tools().iter();
    Catalog::from_descriptors(
        tools.filter(|t| ours(t.source.file)).copied().collect(),
        &[],
    )
}

fn tracker() -> Vec<Arc<ToolInfo>> {
    let listed = json!({"tools": [
        {"name": "create_issue", "description": "Create an issue", "inputSchema": {"type": "object"}},
        {"name": "delete_issue", "description": "Delete an issue", "inputSchema": {"type": "object"}},
    ]});
    load_server("tracker", &listed).tools
}

fn find<'a>(pool: &'a [Arc<ToolInfo>], name: &str) -> &'a ToolInfo {
    pool.iter().find(|tool| tool.name == name).unwrap()
}

#[test]
fn assembly_records_the_profiles_deferral_in_each_tool() {
    let rules = PermissionContext::new();
    let generic = assemble_tool_pool(&Env::default(), &rules, &catalog(), &tracker());
    assert!(
        find(&generic, "OrderLookup").is_deferred(),
        "the defer flag decides"
    );
    assert!(find(&generic, "mcp__tracker__create_issue").is_deferred());
    assert!(!find(&generic, "ToolSearch").is_deferred());

    let kept = Env::with_profile(KeepOrdersLoaded);
    let pool = assemble_tool_pool(&kept, &rules, &catalog(), &tracker());
    assert!(
        !find(&pool, "OrderLookup").is_deferred(),
        "the profile overrides"
    );
    assert_eq!(find(&pool, "OrderLookup").deferral, Some(false));
    let merged = merge_and_filter_tools(&kept, &[], &generic);
    assert!(
        !find(&merged, "OrderLookup").is_deferred(),
        "merging decides again for its environment"
    );
}

#[test]
fn assembly_shares_the_mcp_tools_it_was_given() {
    let listed = tracker();
    let pool = assemble_tool_pool(
        &Env::default(),
        &PermissionContext::new(),
        &catalog(),
        &listed,
    );
    for tool in &listed {
        let pooled = pool.iter().find(|t| t.name == tool.name).unwrap();
        assert!(Arc::ptr_eq(tool, pooled), "{} was copied", tool.name);
    }
}

#[test]
fn search_and_render_read_the_deferral_assembly_decided() {
    let kept = Env::with_profile(KeepOrdersLoaded);
    let pool = assemble_tool_pool(&kept, &PermissionContext::new(), &catalog(), &tracker());

    let engine = SearchEngine::new(pool.to_vec(), Strategy::Keyword);
    let deferred: Vec<&str> = engine.deferred().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        deferred,
        ["mcp__tracker__create_issue", "mcp__tracker__delete_issue"]
    );

    // Rendered under the default environment, the pool still sends OrderLookup in full: the
    // answer travels with the pool, not with whatever environment a later stage is given.
    let options = RenderOptions {
        tool_search: true,
        ..Default::default()
    };
    let rendered = render_anthropic(&Env::default(), &pool, &SchemaCache::new(), &options).unwrap();
    let announced = rendered.deferred_tools_message.unwrap();
    assert!(!announced.contains("OrderLookup"), "{announced}");
    assert!(announced.contains("mcp__tracker__create_issue"));
    let tools = rendered.tools.to_value().unwrap();
    let order = (tools.as_array().unwrap().iter())
        .find(|tool| tool["name"] == "OrderLookup")
        .unwrap();
    assert!(order.get("defer_loading").is_none(), "{order}");
    assert!(order["input_schema"]["properties"]["number"].is_object());
}

#[test]
fn the_same_environment_under_other_rules_assembles_another_pool() {
    let env = Env::default();
    let open = assemble_tool_pool(&env, &PermissionContext::new(), &catalog(), &tracker());
    let strict = PermissionContext::new().with(
        Behavior::Deny,
        RuleSource::Policy,
        "mcp__tracker__delete_issue",
    );
    let closed = assemble_tool_pool(&env, &strict, &catalog(), &tracker());
    assert!(open.iter().any(|t| t.name == "mcp__tracker__delete_issue"));
    assert!(
        !closed
            .iter()
            .any(|t| t.name == "mcp__tracker__delete_issue")
    );
    assert_eq!(open.len(), closed.len() + 1);
}

#[tokio::test]
async fn the_dispatcher_checks_calls_against_the_rules_it_was_given() {
    let env = Env::default();
    let pool = assemble_tool_pool(&env, &PermissionContext::new(), &catalog(), &[]);
    let call = ToolCall::new("t1", "OrderLookup", json!({"number": 7}));

    let asks = PermissionContext::new().with(Behavior::Ask, RuleSource::User, "OrderLookup");
    let dispatcher = Dispatcher::new(env.clone(), asks, pool.clone(), ".");
    assert_eq!(dispatcher.permissions().rules().count(), 1);
    let refused = dispatcher.dispatch(&call).await;
    assert!(refused.is_error(), "an ask rule with no approver refuses");

    let mut bypass = PermissionContext::new().with(Behavior::Ask, RuleSource::User, "OrderLookup");
    bypass.mode = PermissionMode::BypassPermissions;
    let ran = Dispatcher::new(env, bypass, pool, ".")
        .dispatch(&call)
        .await;
    assert!(!ran.is_error(), "{:?}", ran.error);
}
