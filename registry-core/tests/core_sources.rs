//! Rules over the core's own sources (comments and test modules left out), read by the
//! workspace's one scanner, `toolreg-source-graph`: a file's imports are the items its
//! `crate::…` and `super::…` paths name, each taken to the file that defines it, so an import
//! through a re-export (`crate::ToolInfo`) counts as one of the defining file.
//!
//! * Its files import one way, with no cycle among them (a folder two levels down, such as the
//!   schema writer's, is one node: a recursive writer split over files is one module).
//! * Its folders import one way too: a call's path from a parsed response to the next request
//!   never comes back to a folder it left (`docs/design.md`, "The path of one call").
//!
//! (That the core names no product is checked from the product's side, in the tools crate's
//! `core_knows_no_product.rs`.)

use std::collections::BTreeSet;
use std::path::Path;

use toolreg_source_graph::{Graph, Sources, cycle_edges, on_cycles};

fn sources() -> Sources {
    Sources::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// The file graph: each module (or its two-level ancestor) and those it imports from. The
/// crate root only re-exports and is left out.
fn files() -> Graph {
    sources().graph(|module| {
        (!module.is_empty()).then(|| {
            module
                .iter()
                .take(2)
                .cloned()
                .collect::<Vec<_>>()
                .join("::")
        })
    })
}

/// The folder graph: each top-level module (a folder, or a file such as `schema.rs` with the
/// folder of its children) and those it imports from.
fn folders() -> Graph {
    sources().graph(|module| module.first().cloned())
}

#[test]
fn core_files_have_no_import_cycle() {
    let graph = files();
    assert!(graph.len() > 40, "{:?}", graph.keys());
    let edges: usize = graph.values().map(BTreeSet::len).sum();
    assert!(edges > 60, "{graph:#?}");
    let remaining = on_cycles(&graph);
    assert!(
        remaining.is_empty(),
        "files on an import cycle: {remaining:#?}"
    );
}

#[test]
fn core_folders_have_no_import_cycle() {
    let graph = folders();
    assert!(graph.len() >= 10, "{:?}", graph.keys());
    // The graph sees the pipeline's imports: the conversation calls the wire formats, which
    // answer the dispatcher's results, which finds tools in the pool.
    for (from, to) in [
        ("conversation", "wire"),
        ("wire", "dispatch"),
        ("dispatch", "pool"),
    ] {
        assert!(graph[from].contains(to), "{from} -> {to}: {graph:#?}");
    }
    let found = cycle_edges(&graph);
    assert!(
        found.is_empty(),
        "folder edges on an import cycle: {found:#?}\nthe whole folder graph: {graph:#?}"
    );
}

#[test]
fn an_import_through_a_re_export_counts_for_the_defining_file() {
    let graph = files();
    // `dispatch/dispatcher.rs` imports `crate::ToolInfo` (re-exported at the root) and
    // `super::schema_check`.
    let deps = &graph["dispatch::dispatcher"];
    assert!(deps.contains("tool::info"), "{deps:?}");
    assert!(deps.contains("dispatch::schema_check"), "{deps:?}");
}
