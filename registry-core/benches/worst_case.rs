//! Each entry point's worst case over its input size, to find super-linear paths: time at n and
//! 10 n should differ by about 10×.
//!
//! `cargo bench -p toolreg --bench worst_case`

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use toolreg::mcp::load_servers;
use toolreg::permissions::{RuleTarget, Subject};
use toolreg::wire::anthropic::DeferStrategy;
use toolreg::{
    Behavior, Catalog, Env, PermissionContext, RenderOptions, RuleSource, SchemaCache,
    SearchEngine, Strategy, ToolInfo, assemble_tool_pool, render_anthropic,
};

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

fn main() {
    divan::main();
}

/// `n` tools of one server that all share one name.
fn same_name(n: usize) -> Value {
    Value::Array(
        (0..n)
            .map(|_| json!({"name": "same", "inputSchema": {"type": "object"}}))
            .collect(),
    )
}

/// `n` distinct deferred MCP tools over 100 servers.
fn pool(n: usize) -> Vec<Arc<ToolInfo>> {
    let servers: Vec<(String, Value)> = (0..100)
        .map(|s| {
            let tools: Vec<Value> = (0..n / 100)
                .map(|i| json!({"name": format!("tool_{i}"), "description": format!("does thing {i} of server {s}"), "inputSchema": {"type": "object"}}))
                .collect();
            (format!("server{s}"), Value::Array(tools))
        })
        .collect();
    load_servers(servers.iter().map(|(s, v)| (s.as_str(), v))).tools
}

/// Ingestion of `n` copies of one name (was quadratic).
#[divan::bench(args = SIZES, sample_count = 5)]
fn ingest_duplicate_names(bencher: divan::Bencher, n: usize) {
    let list = same_name(n);
    let limits = toolreg::mcp::McpLimits {
        max_tools_per_server: n,
        ..Default::default()
    };
    bencher.bench(|| {
        toolreg::mcp::load_servers_with(&limits, [("s", &list)])
            .tools
            .len()
    });
}

/// Pool assembly against `n` deny rules over `n` tools (each rule was checked against each tool).
#[divan::bench(args = SIZES, sample_count = 5)]
fn assemble_with_many_rules(bencher: divan::Bencher, n: usize) {
    let mut rules = PermissionContext::new();
    let tools = pool(n);
    let env = Env::default();
    for i in 0..n {
        rules.add(
            Behavior::Deny,
            RuleSource::ALL[i % RuleSource::ALL.len()],
            &format!("mcp__server{}__nothing_{i}", i % 100),
        );
    }
    let catalog = Catalog::from_descriptors(Vec::new(), &[]);
    bencher.bench(|| assemble_tool_pool(&env, &rules, &catalog, &tools).len());
}

/// Adding `n` rules, sources out of order (each add used to sort every rule).
#[divan::bench(args = SIZES, sample_count = 5)]
fn add_rules_out_of_order(n: usize) -> usize {
    let mut ctx = PermissionContext::new();
    for i in 0..n {
        ctx.add(
            Behavior::Deny,
            RuleSource::ALL[RuleSource::ALL.len() - 1 - i % RuleSource::ALL.len()],
            &format!("Tool{i}"),
        );
    }
    ctx.rules().count()
}

/// A `select:` query naming `n` tools of an `n`-tool pool.
#[divan::bench(args = SIZES, sample_count = 5)]
fn select_many(bencher: divan::Bencher, n: usize) {
    let tools = pool(n);
    let query = format!(
        "select:{}",
        tools
            .iter()
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>()
            .join(",")
    );
    let engine = SearchEngine::new(tools, Strategy::Keyword);
    bencher.bench(|| engine.search(black_box(&query), 5).matches.len());
}

/// A keyword query of `n` words over 10k tools, both strategies.
#[divan::bench(args = [100, 1_000, 10_000], sample_count = 5)]
fn long_query(bencher: divan::Bencher, n: usize) {
    let engine = SearchEngine::new(pool(10_000), Strategy::Bm25f);
    let query: String = (0..n)
        .map(|i| format!("thing{} server{} ", i % 97, i % 13))
        .collect();
    bencher.bench(|| engine.search(black_box(&query), 5).matches.len());
}

/// Rendering `n` deferred tools.
#[divan::bench(args = SIZES, sample_count = 5)]
fn render_many(bencher: divan::Bencher, n: usize) {
    let env = Env::default();
    let tools = toolreg::Pool::new(&env, pool(n));
    let options = RenderOptions {
        tool_search: true,
        strategy: DeferStrategy::DiscoveredOnly,
        ..Default::default()
    };
    bencher.bench(|| {
        render_anthropic(&env, &tools, &SchemaCache::new(), &options)
            .unwrap()
            .tools
            .to_json()
            .len()
    });
}

/// A command line of `n` bytes against a deny and an allow rule.
#[divan::bench(args = [1_000, 10_000, 100_000], sample_count = 5)]
fn check_long_command(bencher: divan::Bencher, n: usize) {
    let ctx = PermissionContext::new()
        .with(Behavior::Deny, RuleSource::User, "Bash(rm:*)")
        .with(Behavior::Allow, RuleSource::User, "Bash(echo:*)");
    let line: String = "echo 'a b' \"c\" && ".repeat(n / 18) + "echo";
    let subject = Subject::Command(line);
    bencher.bench(|| ctx.check(RuleTarget::named("Bash"), Some(&subject), Path::new("/")));
}

/// A text rule of `n` stars against an `n`-byte input (the wildcard match).
#[divan::bench(args = [1_000, 10_000], sample_count = 5)]
fn wildcard_rule(bencher: divan::Bencher, n: usize) {
    let ctx = PermissionContext::new().with(
        Behavior::Deny,
        RuleSource::User,
        &format!("Web({}b)", "a*".repeat(n / 2)),
    );
    let subject = Subject::Text("a".repeat(n));
    bencher.bench(|| ctx.check(RuleTarget::named("Web"), Some(&subject), Path::new("/")));
}

/// A file path against `n` path rules of Read (as a session with many `Read(...)` rules has):
/// each rule's glob is compiled once, not at every check.
#[divan::bench(args = [10, 100, 1_000], sample_count = 5)]
fn check_path_many_rules(bencher: divan::Bencher, n: usize) {
    let mut ctx = PermissionContext::new();
    ctx.set_project_root("/nonexistent-project");
    for i in 0..n {
        ctx.add(
            Behavior::Deny,
            RuleSource::User,
            &format!("Read(./secret-{i}/**)"),
        );
    }
    let subject = Subject::read("/nonexistent-project/src/lib.rs");
    bencher.bench(|| ctx.check(RuleTarget::named("Read"), Some(&subject), Path::new("/")));
}

/// Long command lines of each construct the shell checker handles, checked against a deny
/// rule: separators, subshells, wrapper words, nested `bash -c`/`eval`, a program that may run
/// its arguments (whose words and argument strings the rule is looked for in), and quoting.
/// Each argument is `construct:n`, n the number of repetitions.
#[divan::bench(
    args = [
        "separators:1000", "separators:10000", "separators:100000",
        "subshells:1000", "subshells:10000", "subshells:100000",
        "wrapper-words:1000", "wrapper-words:10000", "wrapper-words:100000",
        "nested:1000", "nested:10000", "nested:100000",
        "arguments:1000", "arguments:10000", "arguments:100000",
        "quotes:1000", "quotes:10000", "quotes:100000",
    ],
    sample_count = 5
)]
fn check_command_by_construct(bencher: divan::Bencher, case: &str) {
    let (kind, n) = case.split_once(':').unwrap();
    let n: usize = n.parse().unwrap();
    let line = match kind {
        "separators" => "a;".repeat(n),
        "subshells" => format!("{}a{}", "( ".repeat(n), " )".repeat(n)),
        "wrapper-words" => format!("env {}rm", "A=1 ".repeat(n)),
        "nested" => format!("bash -c '{}'", "eval a; ".repeat(n)),
        "arguments" => format!("setsid {}", "'a b; c' ".repeat(n)),
        _ => format!("echo {}", "'x'\"y\"\\z ".repeat(n)),
    };
    let ctx = PermissionContext::new().with(Behavior::Deny, RuleSource::User, "Bash(rm:*)");
    let subject = Subject::Command(line);
    bencher.bench(|| ctx.check(RuleTarget::named("Bash"), Some(&subject), Path::new("/")));
}
