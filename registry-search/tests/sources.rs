//! Rules over the crate's own sources (comments and test modules left out): its modules import
//! one way, with no cycle among them, at every level. The top-level modules form one graph; the
//! modules inside each folder form another (a child importing its folder's `mod.rs`, or the
//! folder importing its children, is not an edge: those are one module and its parts).
//!
//! The sources are read by the workspace's one scanner, `toolreg-source-graph`: a module's
//! imports are the `crate::` and `super::` paths in its code, groups (`{a, b}`) included, each
//! taken to the module that defines what it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use toolreg_source_graph::{Graph, Sources, on_cycles};

/// For each folder (by module path), the modules inside it that each of them imports.
fn graphs() -> BTreeMap<Vec<String>, Graph> {
    let sources = Sources::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let mut graphs: BTreeMap<Vec<String>, Graph> = BTreeMap::new();
    for module in sources.modules() {
        // Every module is a node of its folder's graph, whatever it imports.
        if let Some((name, folder)) = module.path.split_last() {
            (graphs.entry(folder.to_vec()).or_default())
                .entry(name.clone())
                .or_default();
        }
        for target in sources.imports(module) {
            let common = module
                .path
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if let (Some(from), Some(to)) = (module.path.get(common), target.get(common)) {
                let folder = module.path[..common].to_vec();
                (graphs.entry(folder).or_default())
                    .entry(from.clone())
                    .or_default()
                    .insert(to.clone());
            }
        }
    }
    // Only the folder's own modules are nodes: a path to an item of the folder's `mod.rs` is
    // no edge.
    for graph in graphs.values_mut() {
        let modules: BTreeSet<String> = graph.keys().cloned().collect();
        for deps in graph.values_mut() {
            deps.retain(|dep| modules.contains(dep));
        }
    }
    graphs
}

#[test]
fn search_modules_have_no_import_cycle() {
    let graphs = graphs();
    let top = graphs
        .get(&Vec::new())
        .expect("the crate's top-level modules");
    assert!(top.len() >= 8, "{:?}", top.keys());
    // The graph sees the layers' imports: the engine uses the seed index and the fusion.
    let engine = top.get("engine").expect("an engine module");
    assert!(
        engine.contains("seed") && engine.contains("fusion"),
        "{engine:?}"
    );
    let mut cycles = Vec::new();
    for (folder, graph) in &graphs {
        let remaining = on_cycles(graph);
        if !remaining.is_empty() {
            cycles.push(format!("in crate::{}: {remaining:#?}", folder.join("::")));
        }
    }
    assert!(
        cycles.is_empty(),
        "modules on an import cycle:\n{}",
        cycles.join("\n")
    );
}
