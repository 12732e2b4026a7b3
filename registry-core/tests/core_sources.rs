//! A rule over the core's own sources (comments and test modules left out): its modules import
//! one way, with no cycle among them. A module's imports are the `crate::<module>` paths in its
//! code. (That the core names no product is checked from the product's side, in the tools
//! crate's `core_knows_no_product.rs`.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module each source file belongs to, and the modules its code names.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap().as_os_str();
        let module = first.to_string_lossy().trim_end_matches(".rs").to_owned();
        if module == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let deps = graph.entry(module.clone()).or_default();
        for line in code
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
        {
            for (at, _) in line.match_indices("crate::") {
                let rest = &line[at + "crate::".len()..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if !name.is_empty() && name != module {
                    deps.insert(name);
                }
            }
        }
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for deps in graph.values_mut() {
        deps.retain(|dep| modules.contains(dep));
    }
    graph
}

#[test]
fn core_modules_have_no_import_cycle() {
    let graph = graph();
    assert!(graph.len() > 20, "{:?}", graph.keys());
    // Kahn's algorithm: whatever cannot be ordered is on a cycle.
    let mut remaining = graph.clone();
    loop {
        let leaves: Vec<String> = remaining
            .iter()
            .filter(|(_, deps)| deps.iter().all(|dep| !remaining.contains_key(dep)))
            .map(|(module, _)| module.clone())
            .collect();
        if leaves.is_empty() {
            break;
        }
        for leaf in leaves {
            remaining.remove(&leaf);
        }
    }
    assert!(
        remaining.is_empty(),
        "modules on an import cycle: {remaining:#?}"
    );
}
