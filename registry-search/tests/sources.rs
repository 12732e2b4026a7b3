//! Rules over the crate's own sources (comments and test modules left out): its modules import
//! one way, with no cycle among them, at every level. The top-level modules form one graph; the
//! modules inside each folder form another (a child importing its folder's `mod.rs`, or the
//! folder importing its children, is not an edge: those are one module and its parts).
//!
//! A module's imports are the `crate::` and `super::` paths in its code, groups (`{a, b}`)
//! included, resolved from where the file sits.

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

/// The module path of a source file: `seed/index/mod.rs` is `seed::index`, `seed/scan.rs` is
/// `seed::scan`, `lib.rs` is the crate.
fn module_path(relative: &Path) -> Vec<String> {
    let mut path: Vec<String> = relative
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    let file = path.pop().unwrap();
    let stem = file.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        path.push(stem.to_owned());
    }
    path
}

/// Code without line comments, cut at the first `#[cfg(test)]` (its test modules follow it).
fn code(text: &str) -> String {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path of a `use` tree starting at `rest` (after `crate::` or `super::`), each as its
/// segments: `a::{b, c::d}` gives `[a, b]` and `[a, c, d]`.
fn paths(rest: &str) -> Vec<Vec<String>> {
    fn tree(
        chars: &mut std::iter::Peekable<std::str::Chars>,
        prefix: &[String],
    ) -> Vec<Vec<String>> {
        let mut path = prefix.to_vec();
        loop {
            while chars.next_if(|c| c.is_whitespace()).is_some() {}
            if chars.next_if_eq(&'{').is_some() {
                let mut all = Vec::new();
                loop {
                    all.extend(tree(chars, &path));
                    while chars.next_if(|c| c.is_whitespace()).is_some() {}
                    match chars.next() {
                        Some(',') => continue,
                        _ => return all,
                    }
                }
            }
            let segment: String =
                std::iter::from_fn(|| chars.next_if(|c| c.is_alphanumeric() || *c == '_'))
                    .collect();
            if segment.is_empty() {
                // Nothing after a group's last comma.
                if path.len() == prefix.len() {
                    return Vec::new();
                }
                break;
            }
            path.push(segment);
            if chars.clone().take(2).collect::<String>() != "::" {
                break;
            }
            chars.nth(1);
        }
        vec![path]
    }
    tree(&mut rest.chars().peekable(), &[])
}

/// For each folder (by module path), the modules inside it that each of them imports.
fn graphs() -> BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in files {
        let module = module_path(file.strip_prefix(&src).unwrap());
        // Every module is a node of its folder's graph, whatever it imports.
        if let Some((name, folder)) = module.split_last() {
            (graphs.entry(folder.to_vec()).or_default())
                .entry(name.clone())
                .or_default();
        }
        let is_mod = file.file_name().is_some_and(|name| name == "mod.rs");
        let code = code(&std::fs::read_to_string(&file).unwrap());
        for (at, _) in code
            .match_indices("crate::")
            .chain(code.match_indices("super::"))
        {
            // `$crate::` and a longer name ending in `crate` or `super` are no module path.
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            let mut base: Vec<String> = Vec::new();
            let mut rest = &code[at..];
            if let Some(after) = rest.strip_prefix("crate::") {
                rest = after;
            } else {
                // `super` of a file's module is its folder's parent for `mod.rs`, its folder
                // otherwise.
                base = module.clone();
                if !is_mod {
                    base.pop();
                }
                let mut first = true;
                while let Some(after) = rest.strip_prefix("super::") {
                    if !first {
                        base.pop();
                    }
                    first = false;
                    rest = after;
                }
                // `super::x` from `a/b.rs` (module `a::b`) is `a::x`.
                if is_mod {
                    base.pop();
                }
            }
            for path in paths(rest) {
                let target: Vec<String> = base.iter().cloned().chain(path).collect();
                let common = module
                    .iter()
                    .zip(&target)
                    .take_while(|(a, b)| a == b)
                    .count();
                if let (Some(from), Some(to)) = (module.get(common), target.get(common)) {
                    let folder = module[..common].to_vec();
                    (graphs.entry(folder).or_default())
                        .entry(from.clone())
                        .or_default()
                        .insert(to.clone());
                }
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

/// The modules of `graph` on an import cycle (Kahn's algorithm: whatever cannot be ordered).
fn on_cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let mut remaining = graph.clone();
    loop {
        let leaves: Vec<String> = remaining
            .iter()
            .filter(|(_, deps)| deps.iter().all(|dep| !remaining.contains_key(dep)))
            .map(|(module, _)| module.clone())
            .collect();
        if leaves.is_empty() {
            return remaining;
        }
        for leaf in leaves {
            remaining.remove(&leaf);
        }
    }
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

#[test]
fn paths_are_read_from_use_trees() {
    let read = |text: &str| -> Vec<String> { paths(text).iter().map(|p| p.join("::")).collect() };
    assert_eq!(read("a::b::C;"), ["a::b::C"]);
    assert_eq!(read("a::{b, c::{D, e}};"), ["a::b", "a::c::D", "a::c::e"]);
    assert_eq!(read("{\n    a::B,\n    c,\n};"), ["a::B", "c"]);
    assert_eq!(
        module_path(Path::new("seed/index/mod.rs")),
        ["seed", "index"]
    );
    assert_eq!(module_path(Path::new("seed/scan.rs")), ["seed", "scan"]);
    assert!(module_path(Path::new("lib.rs")).is_empty());
}
