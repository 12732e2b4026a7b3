//! The search crate's benches and examples load the retrieval sets with a loader of their own
//! (`registry-search/benches/common/mod.rs`), so that they need no `toolreg`. This holds it to
//! `toolreg`'s MCP loader: on every set under `data/eval`, and on lists made to hit its naming
//! rules, the two pools are the same documents, field by field as ToolSearch reads them, in the
//! same order, and the sets' queries name the same tools. The figures in `BENCHMARKS.md` are
//! measured over the core's pools; this is what keeps them comparable.

#[path = "../../registry-search/benches/common/mod.rs"]
mod search_pool;

use std::sync::Arc;

use serde_json::{Value, json};
use toolreg::search::eval;
use toolreg_search::Document;

/// What ToolSearch reads of a document.
#[derive(Debug, PartialEq)]
struct Seen {
    name: String,
    own_name: String,
    aliases: Vec<String>,
    description: String,
    search_hint: Option<String>,
    server: Option<String>,
    input_schema: String,
    deferred: bool,
}

fn seen<D: Document>(pool: &[Arc<D>]) -> Vec<Seen> {
    pool.iter()
        .map(|tool| Seen {
            name: tool.name().to_owned(),
            own_name: tool.own_name().to_owned(),
            aliases: tool.aliases().to_vec(),
            description: tool.description().to_owned(),
            search_hint: tool.search_hint().map(str::to_owned),
            server: tool.server().map(str::to_owned),
            input_schema: tool.input_schema().to_owned(),
            deferred: tool.is_deferred(),
        })
        .collect()
}

fn assert_same<A: Document, B: Document>(core: &[Arc<A>], search: &[Arc<B>], what: &str) {
    let (core, search) = (seen(core), seen(search));
    assert_eq!(core.len(), search.len(), "{what}: pool sizes");
    for (core, search) in core.iter().zip(&search) {
        assert_eq!(core, search, "{what}");
    }
}

#[test]
fn every_retrieval_set_loads_into_the_cores_pool() {
    for name in ["stabletoolbench", "sealtools_test", "metatool_single"] {
        let dir = search_pool::data_dir(name);
        let read = |file: &str| std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        let (tools, queries) = (read("tools.jsonl"), read("queries.jsonl"));
        let core = eval::parse(name, &tools, &queries).expect("the core loads the set");
        let (_, search) = search_pool::read_set(&dir).expect("the benches load the set");
        assert_same(&core.pool, &search.pool, name);
        let relevant = |queries: &[eval::EvalQuery]| -> Vec<Vec<String>> {
            queries.iter().map(|query| query.relevant.clone()).collect()
        };
        assert_eq!(relevant(&core.queries), relevant(&search.queries), "{name}");
        assert_eq!(core.queries.len(), search.queries.len());
    }
}

/// Names that normalize alike, repeat, run past 64 characters or carry other characters; a
/// description past the cap; several servers, one of them repeated.
#[test]
fn naming_and_capping_rules_match() {
    let long = "a_tool_name_that_runs_well_past_the_sixty_four_characters_allowed";
    let entry = |name: &str, description: &str| {
        json!({"name": name, "description": description,
               "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}})
    };
    let tools = Value::Array(vec![
        entry("get weather", "a"),
        entry("get_weather", "b"),
        entry("get.weather", "c"),
        entry("get_weather", "d"),
        entry(long, "e"),
        entry(long, "f"),
        entry(long, "g"),
        entry("météo/prévision", "h"),
        entry("describe", &"long words ".repeat(300)),
        entry("describe_é", &"é".repeat(2100)),
    ]);
    let servers = [
        ("weather api", &tools),
        ("weather_api", &tools),
        ("a__b", &tools),
        ("weather api", &tools),
    ];
    let core = toolreg::mcp::load_servers(servers);
    assert!(core.errors.is_empty(), "{:?}", core.errors);
    let search = search_pool::load_servers(servers).expect("the benches load the lists");
    assert_same(&core.tools, &search, "crafted lists");
}
