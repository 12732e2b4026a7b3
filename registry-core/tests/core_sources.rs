//! Rules over the core's own sources (comments and test modules left out):
//!
//! * its modules import one way: no cycle among them. A module's imports are the
//!   `crate::<module>` paths in its code;
//! * the generic machinery knows no product's tool names: outside `src/claude_code/` (the
//!   design's profile), no code spells a built-in's name, one of the design's environment
//!   variables, the API host it compares base URLs with or its beta headers. Doc examples may;
//!   the core's own ToolSearch tool is the one name every profile shares.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use toolreg::claude_code::{self, names, switch};
use toolreg::profile::Betas;

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

/// Every name of the design's profile, quoted as code would spell it.
fn product_strings() -> Vec<String> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/claude_code/names.rs"),
    )
    .unwrap();
    let mut names: Vec<String> = text
        .lines()
        .filter_map(|line| line.strip_prefix("pub const "))
        .filter_map(|rest| rest.split_once("= \""))
        .filter_map(|(_, value)| value.split_once('"'))
        .map(|(name, _)| name.to_owned())
        .chain(names::LEGACY.iter().map(|(old, _)| (*old).to_owned()))
        .filter(|name| name != names::TOOL_SEARCH)
        .collect();
    // The constants are read from the file so that a name added there is checked here too.
    assert!(names.len() >= 40, "read {} names", names.len());
    assert!(names.iter().any(|name| name == names::BASH));
    let variables = switch::VARIABLES.iter().map(|(_, variable)| *variable);
    let mut quoted: Vec<String> = names.drain(..).map(|name| format!("\"{name}\"")).collect();
    quoted.extend(variables.map(|variable| format!("\"{variable}\"")));
    quoted.extend(["CLAUDE_CODE_", "ENABLE_TOOL_SEARCH", "claude_code::"].map(str::to_owned));
    quoted.extend(provider_strings());
    quoted
}

/// The design's provider settings: its variables, the API host it compares base URLs with, and
/// its beta header values that differ from the API's current ones.
fn provider_strings() -> Vec<String> {
    let mut strings: Vec<String> = ["ANTHROPIC_", claude_code::API_HOST]
        .into_iter()
        .map(str::to_owned)
        .collect();
    let current = [Betas::CURRENT.first_party, Betas::CURRENT.other_clouds];
    for beta in [
        claude_code::BETAS.first_party,
        claude_code::BETAS.other_clouds,
    ]
    .into_iter()
    .flatten()
    .filter(|beta| !current.contains(&Some(beta)))
    {
        strings.push(beta.to_owned());
    }
    assert!(strings.len() >= 3, "{strings:?}");
    strings
}

#[test]
fn core_code_outside_the_profile_names_no_product_tool() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let forbidden = product_strings();
    let mut found = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        if relative.starts_with("claude_code") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (number, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for word in forbidden.iter().filter(|word| line.contains(word.as_str())) {
                found.push(format!(
                    "{}:{}: {word}: {}",
                    relative.display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "product names or settings outside src/claude_code/:\n{}",
        found.join("\n")
    );
}
