//! A rule over the core's own sources (comments and test modules left out): its files import
//! one way, with no cycle among them. A file's imports are the items its `crate::…` and
//! `super::…` paths name, each taken to the file that defines it, so an import through a
//! re-export (`crate::ToolInfo`) counts as one of the defining file (`pool/info.rs`). (That the
//! core names no product is checked from the product's side, in the tools crate's
//! `core_knows_no_product.rs`.)

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

/// A file's module path: `tool/context.rs` is `tool::context`, `tool/mod.rs` and `tool.rs` are
/// `tool`, `lib.rs` is the empty path.
fn module_of(relative: &Path) -> String {
    let mut parts: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|last| last == "mod" || last == "lib")
    {
        parts.pop();
    }
    parts.join("::")
}

/// The node of the graph a module belongs to: itself, or for a module deeper than two levels
/// its two-level ancestor (`schema::write::enums` is in `schema::write`: a recursive writer
/// split over files is one module).
fn node(module: &str) -> String {
    module.split("::").take(2).collect::<Vec<_>>().join("::")
}

/// A file's code without comments, without its test module and without what only the docs
/// see (`#[cfg(doc)] use …;`).
fn code_of(text: &str) -> String {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut lines = code
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"));
    let mut kept = Vec::new();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(doc)]" {
            lines.next();
        } else {
            kept.push(line);
        }
    }
    kept.join("\n")
}

/// The names a file defines at its top level.
fn definitions(code: &str) -> Vec<String> {
    const KINDS: [&str; 8] = [
        "struct ",
        "enum ",
        "trait ",
        "fn ",
        "const fn ",
        "const ",
        "static ",
        "type ",
    ];
    let mut names = Vec::new();
    for line in code.lines().filter(|line| !line.starts_with(' ')) {
        let mut rest = line;
        for prefix in ["pub(crate) ", "pub(super) ", "pub "] {
            rest = rest.strip_prefix(prefix).unwrap_or(rest);
        }
        if let Some(kind) = KINDS.iter().find(|kind| rest.starts_with(**kind)) {
            let name: String = rest[kind.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            names.push(name);
        }
        if let Some(rest) = line.strip_prefix("macro_rules! ") {
            names.push(rest.chars().take_while(|c| *c != ' ').collect());
        }
    }
    names
}

/// Every path the code names from `crate::` or `super::`, with group imports expanded:
/// `use crate::{a::B, C};` gives `a::B` and `C` (and the prefix: `crate` or `super::…`).
fn paths(code: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        for (at, _) in code.match_indices(start) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut prefix = start.trim_end_matches("::").to_owned();
            let mut index = at + start.len();
            while code[index..].starts_with("super::") {
                prefix.push_str("::super");
                index += "super::".len();
            }
            let path: String = code[index..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let after = index + path.len();
            if bytes.get(after) == Some(&b'{') {
                let close = code[after..]
                    .find('}')
                    .map_or(code.len(), |end| after + end);
                for item in code[after + 1..close].split(',') {
                    let item = item.split(" as ").next().unwrap_or_default().trim();
                    if !item.is_empty() && item != "self" {
                        out.push((prefix.clone(), format!("{path}{item}")));
                    }
                }
            } else {
                out.push((prefix, path.trim_end_matches(':').to_owned()));
            }
        }
    }
    out
}

/// Each node (a file, or a folder two levels down) and the nodes its code imports from.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let codes: BTreeMap<String, String> = files
        .iter()
        .map(|file| {
            let module = module_of(file.strip_prefix(&src).unwrap());
            (module, code_of(&std::fs::read_to_string(file).unwrap()))
        })
        .collect();
    // Who defines each name (a name some files share is told apart by the path that names it).
    let mut defined: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (module, code) in &codes {
        for name in definitions(code) {
            defined.entry(name).or_default().push(module.clone());
        }
    }
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, code) in &codes {
        if module.is_empty() {
            continue; // lib.rs: the crate root only re-exports
        }
        let deps = graph.entry(node(module)).or_default();
        for (prefix, path) in paths(code) {
            // The module the path is written from: `super` is the parent of this file's module
            // (for `tool/mod.rs`, module `tool`, the crate root).
            let mut base: Vec<&str> = match prefix.as_str() {
                "crate" => Vec::new(),
                _ => module.split("::").collect(),
            };
            for _ in prefix.split("::").skip(1) {
                base.pop();
            }
            if prefix != "crate" {
                base.pop();
            }
            let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            let Some(last) = segments.last() else {
                continue;
            };
            let written: Vec<&str> = base.iter().chain(&segments).copied().collect();
            let written_module = written[..written.len() - 1].join("::");
            let named = written.join("::");
            let target = match defined.get(*last) {
                // A path that names a module file (`super::builtins`, the shell's module) is
                // that module, whatever items elsewhere share its last name.
                _ if codes.contains_key(&named) => named,
                Some(owners) if owners.len() == 1 => owners[0].clone(),
                Some(owners) => owners
                    .iter()
                    .max_by_key(|owner| common_prefix(owner, &written_module))
                    .cloned()
                    .unwrap_or_default(),
                // A module named by its path (`crate::permissions::shell`).
                None => written.join("::"),
            };
            if codes.contains_key(&target) && node(&target) != node(module) {
                deps.insert(node(&target));
            }
        }
    }
    graph
}

/// How many leading `::` segments two module paths share.
fn common_prefix(a: &str, b: &str) -> usize {
    a.split("::")
        .zip(b.split("::"))
        .take_while(|(x, y)| x == y)
        .count()
}

#[test]
fn core_files_have_no_import_cycle() {
    let graph = graph();
    assert!(graph.len() > 40, "{:?}", graph.keys());
    let edges: usize = graph.values().map(BTreeSet::len).sum();
    assert!(edges > 60, "{graph:#?}");
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
        "files on an import cycle: {remaining:#?}"
    );
}

#[test]
fn an_import_through_a_re_export_counts_for_the_defining_file() {
    let graph = graph();
    // `dispatch/dispatcher.rs` imports `crate::ToolInfo` (re-exported at the root) and
    // `super::schema_check`.
    let deps = &graph["dispatch::dispatcher"];
    assert!(deps.contains("pool::info"), "{deps:?}");
    assert!(deps.contains("dispatch::schema_check"), "{deps:?}");
}
