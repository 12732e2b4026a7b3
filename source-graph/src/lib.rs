//! The module graph of a crate, read from its source files, for the workspace's architecture
//! tests: which module each file is, which modules its code imports, and which modules are on
//! an import cycle.
//!
//! Code is read as text, the way a reviewer reads it: comments, test modules (a file from its
//! first `#[cfg(test)]` on) and items only the docs see (`#[cfg(doc)]`) are left out. A file's
//! imports are the paths its code names from `crate::`, `super::` and `self::`, groups
//! (`{a, b::C}`) included; a module's `use` of its own children (`pub use info::ToolInfo;` in a
//! `mod.rs`) joins it and its parts, and is no import. Each path is taken to the module that
//! defines what it names, through re-exports: `crate::ToolInfo`, when the crate root re-exports
//! `ToolInfo` from `tool::info`, is an import of `tool::info`.
//!
//! Each test chooses the nodes of its graph ([`Sources::graph`]: files, folders, the modules of
//! one folder) and asks [`on_cycles`] what cannot be ordered.
//!
//! ```
//! use std::path::Path;
//! use toolreg_source_graph::{Sources, on_cycles};
//!
//! let sources = Sources::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixture/src"));
//! let folders = sources.graph(|module| module.first().cloned());
//! // `c` imports `a::B` through the root's re-export: an import of `a`.
//! assert!(folders["c"].contains("a"));
//! assert!(on_cycles(&folders).is_empty());
//! ```

#![deny(missing_docs)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod tree;

pub use tree::{Leaf, use_tree};

/// A module's path from the crate root: `["tool", "info"]` for `tool/info.rs`, empty for
/// `lib.rs`.
pub type ModulePath = Vec<String>;

/// Each node of a graph and the nodes it imports from.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// One source file, read.
#[derive(Debug, Clone)]
pub struct Module {
    /// Its module path.
    pub path: ModulePath,
    /// The file, relative to the crate's `src`.
    pub file: PathBuf,
    /// Its code, without comments, test modules and doc-only items.
    pub code: String,
    /// The names its top-level items define (inline modules included).
    definitions: BTreeSet<String>,
    /// What each name its `use` declarations bring in stands for, as an absolute path (`None`:
    /// an item of another crate).
    aliases: BTreeMap<String, Option<ModulePath>>,
    /// The absolute paths of its glob imports (`use a::*`).
    globs: Vec<ModulePath>,
    /// Every absolute path its code names.
    named: Vec<ModulePath>,
}

/// A crate's modules, read from its `src` folder.
#[derive(Debug, Clone)]
pub struct Sources {
    modules: BTreeMap<ModulePath, Module>,
}

/// Every `.rs` file under `dir`, in path order.
///
/// # Panics
/// When a folder cannot be read (these are tests).
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.expect("a folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
    out
}

/// The module path of a source file, from its path relative to `src`: `seed/index/mod.rs` is
/// `seed::index`, `seed/scan.rs` is `seed::scan`, `lib.rs` is the crate root.
pub fn module_path(relative: &Path) -> ModulePath {
    let mut path: ModulePath = relative
        .with_extension("")
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path
        .last()
        .is_some_and(|last| last == "mod" || last == "lib" || last == "main")
    {
        path.pop();
    }
    path
}

/// A file's code without line comments, without its test modules (everything from the first
/// `#[cfg(test)]` on) and without what only the docs see (the item after `#[cfg(doc)]`).
pub fn code(text: &str) -> String {
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

/// The names the top-level items of `code` define.
fn definitions(code: &str) -> BTreeSet<String> {
    const KINDS: [&str; 13] = [
        "struct ",
        "enum ",
        "union ",
        "trait ",
        "fn ",
        "const fn ",
        "async fn ",
        "unsafe fn ",
        "const ",
        "static ",
        "type ",
        "mod ",
        "macro_rules! ",
    ];
    let mut names = BTreeSet::new();
    for line in code.lines().filter(|line| !line.starts_with([' ', '\t'])) {
        let mut rest = line;
        for prefix in ["pub(crate) ", "pub(super) ", "pub "] {
            rest = rest.strip_prefix(prefix).unwrap_or(rest);
        }
        if let Some(kind) = KINDS.iter().find(|kind| rest.starts_with(**kind)) {
            let name: String = rest[kind.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                names.insert(name);
            }
        }
    }
    names
}

/// The child modules `code` declares (`mod x;`).
fn children(code: &str) -> BTreeSet<String> {
    code.lines()
        .filter(|line| !line.starts_with([' ', '\t']))
        .filter_map(|line| {
            let mut rest = line.trim_end();
            for prefix in ["pub(crate) ", "pub(super) ", "pub "] {
                rest = rest.strip_prefix(prefix).unwrap_or(rest);
            }
            rest.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_owned)
        })
        .collect()
}

impl Sources {
    /// Reads every `.rs` file under `src`.
    ///
    /// # Panics
    /// When a file cannot be read (these are tests).
    pub fn read(src: &Path) -> Sources {
        let mut modules = BTreeMap::new();
        for file in rust_files(src) {
            let relative = file.strip_prefix(src).expect("under src").to_path_buf();
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|error| panic!("{}: {error}", file.display()));
            let path = module_path(&relative);
            let module = read_module(path.clone(), relative, code(&text));
            modules.insert(path, module);
        }
        Sources { modules }
    }

    /// Every module, in path order.
    pub fn modules(&self) -> impl Iterator<Item = &Module> {
        self.modules.values()
    }

    /// The module at `path`.
    pub fn module(&self, path: &[String]) -> Option<&Module> {
        self.modules.get(path)
    }

    /// The modules `module`'s code imports from: for each path it names, the module that
    /// defines what the path names (itself included when it names its own items).
    pub fn imports(&self, module: &Module) -> BTreeSet<ModulePath> {
        module
            .named
            .iter()
            .filter_map(|path| self.defining_module(path, 0))
            .collect()
    }

    /// The module that defines what `path` (absolute) names: the longest prefix of it that is a
    /// module, or, when that module only re-exports the next name, the module its re-export
    /// leads to; `None` when that is an item of another crate.
    pub fn defining_module(&self, path: &[String], depth: usize) -> Option<ModulePath> {
        let mut length = path.len();
        while length > 0 && !self.modules.contains_key(&path[..length]) {
            length -= 1;
        }
        let found = path[..length].to_vec();
        let Some(module) = self.modules.get(&found) else {
            return Some(found);
        };
        let Some(name) = path.get(length) else {
            return Some(found);
        };
        if module.definitions.contains(name) || depth > 16 {
            return Some(found);
        }
        let rest = &path[length + 1..];
        match module.aliases.get(name) {
            Some(Some(target)) => {
                let mut next = target.clone();
                next.extend(rest.iter().cloned());
                return self.defining_module(&next, depth + 1);
            }
            Some(None) => return None,
            None => {}
        }
        for glob in &module.globs {
            let mut next = glob.clone();
            next.push(name.clone());
            next.extend(rest.iter().cloned());
            let target = self.defining_module(&next, depth + 1);
            let defines = target
                .as_ref()
                .and_then(|target| self.modules.get(target))
                .is_some_and(|module| module.definitions.contains(name));
            if defines {
                return target;
            }
        }
        Some(found)
    }

    /// The graph whose nodes `node` names: every module `node` gives a name is one (`None`
    /// leaves the module out), with an edge to the node of each module it imports from. Edges
    /// from a node to itself are left out.
    pub fn graph(&self, node: impl Fn(&[String]) -> Option<String>) -> Graph {
        let mut graph = Graph::new();
        for module in self.modules() {
            let Some(from) = node(&module.path) else {
                continue;
            };
            let deps = graph.entry(from.clone()).or_default();
            for target in self.imports(module) {
                if let Some(to) = node(&target).filter(|to| *to != from) {
                    deps.insert(to);
                }
            }
        }
        graph
    }
}

/// Reads one module's names and imports from its code.
fn read_module(path: ModulePath, file: PathBuf, code: String) -> Module {
    let children = children(&code);
    let parent = |levels: usize| path[..path.len().saturating_sub(levels)].to_vec();
    // The absolute path a written path stands for, when it is one of this crate's.
    let absolute = |segments: &[String]| -> Option<ModulePath> {
        let (first, rest) = segments.split_first()?;
        let mut base = match first.as_str() {
            "crate" => Vec::new(),
            "self" => path.clone(),
            "super" => parent(1),
            child if children.contains(child) => {
                let mut base = path.clone();
                base.push(child.to_owned());
                base
            }
            _ => return None,
        };
        let mut rest = rest;
        while let Some((next, after)) = rest.split_first().filter(|(next, _)| *next == "super") {
            let _ = next;
            base.pop();
            rest = after;
        }
        base.extend(rest.iter().cloned());
        Some(base)
    };
    let mut module = Module {
        definitions: definitions(&code),
        aliases: BTreeMap::new(),
        globs: Vec::new(),
        named: Vec::new(),
        path: path.clone(),
        file,
        code: String::new(),
    };
    // `use` declarations: what each name stands for.
    for (at, _) in code.match_indices("use ") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        for leaf in use_tree(&code[at + "use ".len()..]) {
            let target = absolute(&leaf.path);
            match (&target, &leaf.name) {
                (Some(target), _) if leaf.glob => module.globs.push(target.clone()),
                (_, Some(name)) => {
                    module.aliases.insert(name.clone(), target);
                }
                _ => {}
            }
        }
    }
    // Every other path from `crate::`, `super::` or `self::`.
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(start) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '$') {
                continue;
            }
            for leaf in use_tree(&code[at..]) {
                if let Some(target) = absolute(&leaf.path) {
                    module.named.push(target);
                }
            }
        }
    }
    module.code = code;
    module
}

/// The part of `graph` that cannot be ordered (Kahn's algorithm): the nodes on an import cycle,
/// or that only lead to one, with their edges.
pub fn on_cycles(graph: &Graph) -> Graph {
    let mut remaining = graph.clone();
    loop {
        let leaves: Vec<String> = remaining
            .iter()
            .filter(|(_, deps)| deps.iter().all(|dep| !remaining.contains_key(dep)))
            .map(|(node, _)| node.clone())
            .collect();
        if leaves.is_empty() {
            break;
        }
        for leaf in leaves {
            remaining.remove(&leaf);
        }
    }
    let nodes: BTreeSet<String> = remaining.keys().cloned().collect();
    for deps in remaining.values_mut() {
        deps.retain(|dep| nodes.contains(dep));
    }
    remaining
}

/// The edges of `graph` that lie on a cycle (`a -> b` where `b` leads back to `a`), as
/// `"a -> b"`.
pub fn cycle_edges(graph: &Graph) -> BTreeSet<String> {
    let reaches = |from: &str, to: &str| -> bool {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_owned()];
        while let Some(node) = stack.pop() {
            if node == to {
                return true;
            }
            if seen.insert(node.clone()) {
                stack.extend(graph.get(&node).into_iter().flatten().cloned());
            }
        }
        false
    };
    let mut edges = BTreeSet::new();
    for (from, deps) in graph {
        for to in deps {
            if reaches(to, from) {
                edges.insert(format!("{from} -> {to}"));
            }
        }
    }
    edges
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> Sources {
        Sources::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixture/src"))
    }

    fn path(text: &str) -> ModulePath {
        text.split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn an_import_through_a_re_export_is_one_of_the_defining_module() {
        let sources = fixture();
        let c = sources.module(&path("c")).unwrap();
        assert_eq!(sources.imports(c), BTreeSet::from([path("a::b")]));
    }

    #[test]
    fn super_comments_and_test_modules_are_read_as_rust_reads_them() {
        let sources = fixture();
        let b = sources.module(&path("a::b")).unwrap();
        // `super::f` from `a/b.rs` is `a::f`, defined in `a/mod.rs`; the test module's
        // `crate::c::g` is not read.
        assert_eq!(sources.imports(b), BTreeSet::from([path("a")]));
        assert_eq!(
            module_path(Path::new("seed/index/mod.rs")),
            path("seed::index")
        );
        assert_eq!(module_path(Path::new("seed/scan.rs")), path("seed::scan"));
        assert!(module_path(Path::new("lib.rs")).is_empty());
    }

    #[test]
    fn nodes_that_cannot_be_ordered_are_on_cycles() {
        let graph: Graph = [("a", "b"), ("b", "c"), ("c", "b"), ("d", "a")]
            .into_iter()
            .fold(Graph::new(), |mut graph, (from, to)| {
                graph.entry(from.into()).or_default().insert(to.into());
                graph.entry(to.into()).or_default();
                graph
            });
        let remaining = on_cycles(&graph);
        // `a` and `d` only lead to the cycle.
        assert_eq!(
            remaining.keys().cloned().collect::<Vec<_>>(),
            ["a", "b", "c", "d"]
        );
        assert_eq!(
            cycle_edges(&graph),
            BTreeSet::from(["b -> c".to_owned(), "c -> b".to_owned()])
        );
    }
}
