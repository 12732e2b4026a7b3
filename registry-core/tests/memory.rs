//! What a large MCP catalog costs in memory, counted by this binary's global allocator: loading
//! `tools/list` texts, the pool, and the search indexes, each against its own bound in bytes a
//! tool or a share of the catalog's text. No clock is read: the figures are bytes, the same on
//! every machine and in debug and release builds.
//!
//! The catalog is the one `BENCHMARKS.md` measures at 100,000 tools
//! (`cargo run -p toolreg-cli --example catalog`), at 20,000: stabletoolbench's 2,479 tools
//! as MCP entries, server `s<k>` holding its k-th copy. The bounds hold with room at either
//! size; each fails with the structure it guards against: a `Value` tree of a server's list
//! (about eight times its text), maps keyed by copies of every name, per-tool copies of names
//! and servers in the seed index, `(word, tool)` pairs while it is built, a name table grown
//! by doubling, the seed index kept while the BM25F index is built, BM25F term frequencies
//! counted in a list per term (twelve bytes a term and tool, and the lists' room for growth)
//! instead of each tool's counts in LEB128, BM25F postings of 12 bytes (the tool, the impact
//! and a name frequency each) instead of 8, a compiled-schema slot sized for a schema no tool
//! has yet been called with, and a second copy of every name for permission rules.
//!
//! It links alone (`[[test]] name = "memory"`) so that no other test allocates while it counts,
//! and is one test for the same reason.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use toolreg::mcp::McpLoader;
use toolreg::{Env, Pool, SearchEngine, Strategy};

/// Counts live heap bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call goes to `System` unchanged; only counters are updated beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Counted as a move: both blocks live while it copies.
        grew(new_size);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The tools of the catalog.
const TOOLS: usize = 20_000;

/// The live bytes now, and the peak since the last call.
fn mark() -> (usize, usize) {
    let live = LIVE.load(Ordering::Relaxed);
    (live, PEAK.swap(live, Ordering::Relaxed))
}

/// The catalog's `tools/list` texts, one per server: `(server, text)`.
fn catalog(tools: usize) -> Vec<(String, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/eval/stabletoolbench/tools.jsonl"
    );
    let set = std::fs::read_to_string(path).expect("data/eval/stabletoolbench");
    let entries: Vec<Value> = set
        .lines()
        .map(|line| {
            let tool: Value = serde_json::from_str(line).expect("a JSON line");
            let properties: serde_json::Map<String, Value> = tool["extra"]["params"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|param| (param.to_owned(), json!({"type": "string"})))
                .collect();
            json!({
                "name": tool["name"],
                "description": tool["description"],
                "inputSchema": {"type": "object", "properties": properties},
            })
        })
        .collect();
    (0..tools.div_ceil(entries.len()))
        .map(|k| {
            let take = entries.len().min(tools - k * entries.len());
            let list = json!({"tools": entries[..take]});
            (format!("s{k}"), list.to_string())
        })
        .collect()
}

#[test]
fn a_large_catalog_costs_little_more_than_its_text() {
    let servers = catalog(TOOLS);
    let text: usize = servers.iter().map(|(_, text)| text.len()).sum();
    let largest = servers
        .iter()
        .map(|(_, text)| text.len())
        .max()
        .unwrap_or(0);

    // Loading: the tools, and besides them less than one server's text (one entry's tree at a
    // time, the entries' places, the table of the names given, the list of tools as it grows).
    let (before, _) = mark();
    let mut loader = McpLoader::new();
    for (server, listed) in &servers {
        loader
            .add_json(server, listed)
            .expect("the catalog is JSON");
    }
    let loaded = loader.finish();
    assert_eq!(loaded.tools.len(), TOOLS);
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors.first());
    let (after, peak) = mark();
    let tools = after - before;
    let per_tool = tools / TOOLS;
    eprintln!(
        "catalog: {TOOLS} tools, {text} bytes of text ({} a tool), largest server {largest}",
        text / TOOLS
    );
    eprintln!(
        "loaded: {per_tool} bytes a tool, {} bytes more at the peak",
        peak - after
    );
    // 597 bytes a tool at 247 bytes of text: a compiled-schema slot allocated for each tool
    // (+23, and an allocation of its own), an empty slot of a schema's compiled size, or a
    // second copy of each name for permission rules (+26) fails it.
    assert!(
        20 * tools <= 49 * text,
        "the tools take {tools} bytes, more than 2.45 times their text ({text})"
    );
    assert!(
        peak - after <= largest,
        "loading took {} bytes beside the tools, more than the largest server's text ({largest})",
        peak - after
    );
    drop(servers);

    // The pool: a place for each tool, no copy of its name.
    let (before, _) = mark();
    let pool = Pool::new(&Env::default(), loaded.tools.iter().cloned());
    drop(loaded);
    let (after, _) = mark();
    let pool_bytes = after.saturating_sub(before) / TOOLS;
    eprintln!("pool: {pool_bytes} bytes a tool");
    assert!(pool_bytes <= 16, "the pool takes {pool_bytes} bytes a tool");

    // The indexes: each strategy's, kept and at the peak of its build, in bytes a tool. The
    // BM25F engine peaks at 389, its index kept while the seed index builds: the seed index
    // built first and kept while the BM25F index counts (408), or the counts in twelve-byte
    // pairs in a list per term (459), fail the bound.
    for (strategy, kept_bound, peak_bound) in
        [(Strategy::Keyword, 240, 260), (Strategy::Bm25f, 380, 400)]
    {
        let (before, _) = mark();
        let engine = SearchEngine::new(pool.to_vec(), strategy);
        let (after, peak) = mark();
        let (kept, built) = ((after - before) / TOOLS, (peak - before) / TOOLS);
        eprintln!("{strategy:?} engine: {kept} bytes a tool kept, {built} at the peak");
        assert!(
            kept <= kept_bound,
            "the {strategy:?} engine keeps {kept} bytes a tool, more than {kept_bound}"
        );
        assert!(
            built <= peak_bound,
            "the {strategy:?} engine's build peaks at {built} bytes a tool, more than {peak_bound}"
        );
        assert_eq!(
            engine
                .search("select:mcp__s3__Songkick_concert", 5)
                .matches
                .len(),
            1
        );
        drop(engine);
    }
}
