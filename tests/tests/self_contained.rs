//! The repository is self-contained: no file of the project points at data or documents kept
//! beside the repository (the folder `shared` next to a checkout, which a clone does not have),
//! and none cites the design documents kept there: the design and its rules are
//! `docs/design.md`, which code and tests cite as `docs/design.md §N`. The data the tests read
//! lives in `data/` (see `data/README.md`).
//!
//! Guaranteed: every file under the workspace root that Git would not ignore (hidden files and
//! folders such as `.ci/` included; `.git/` and `target/` folders skipped) is read, and each line
//! that names the outside folder or one of the outside design documents (by file name, the rules
//! file's short name before a section sign, or a section of the lesson) is reported as `file:line`,
//! except the allow-list below. Not guaranteed: a path to the outside built at run time from pieces
//! (`"..".join(…)`) is not seen; the scratch-clone run (a clone with nothing beside it passes the
//! tests) is what shows that.

use std::path::{Path, PathBuf};

/// The ways the outside folder and the outside design documents were named. Built from pieces
/// so that this file does not name them.
fn needles() -> [String; 7] {
    let outside = ["..", "shared"].join("/");
    [
        outside,
        ["shared", "eval"].join("/"),
        ["shared", "mcp-fixtures"].join("/"),
        ["SEMANTICS", "md"].join("."),
        ["SEMANTICS", "§"].join(" "),
        ["lesson", "14", "tool", "registry"].join("-"),
        ["lesson's", "§"].join(" "),
    ]
}

/// Lines allowed to name the outside folder: (file relative to the workspace root, text the
/// line holds). None: the design is `docs/design.md`. An entry no line uses fails the test.
const ALLOWED: &[(&str, &str)] = &[];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace")
        .to_path_buf()
}

/// Every line of the project's files that names the outside folder, as (file, line number,
/// line), the file relative to `root`.
fn references(root: &Path) -> Vec<(String, usize, String)> {
    let needles = needles();
    let walk = ignore::WalkBuilder::new(root)
        .hidden(false)
        .require_git(false)
        .filter_entry(|entry| {
            let name = entry.file_name();
            !(entry.file_type().is_some_and(|kind| kind.is_dir())
                && (name == ".git" || name == "target"))
        })
        .build();
    let mut found = Vec::new();
    for entry in walk {
        let entry = entry.expect("a readable entry of the workspace");
        if !entry.file_type().is_some_and(|kind| kind.is_file()) {
            continue;
        }
        let path = entry.path();
        let bytes =
            std::fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        let text = String::from_utf8_lossy(&bytes);
        let relative = path
            .strip_prefix(root)
            .expect("the walk stays under the root")
            .to_string_lossy()
            .into_owned();
        for (index, line) in text.lines().enumerate() {
            if needles.iter().any(|needle| line.contains(needle.as_str())) {
                found.push((relative.clone(), index + 1, line.to_owned()));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn no_file_of_the_project_refers_to_data_beside_the_repository() {
    let found = references(&workspace_root());
    let allowed = |file: &str, line: &str| {
        ALLOWED
            .iter()
            .any(|(allowed_file, text)| *allowed_file == file && line.contains(text))
    };
    let offending: Vec<String> = found
        .iter()
        .filter(|(file, _, line)| !allowed(file, line))
        .map(|(file, number, line)| format!("{file}:{number}: {}", line.trim()))
        .collect();
    assert!(
        offending.is_empty(),
        "files that point outside the repository (data belongs in data/, the design is \
         docs/design.md):\n{}",
        offending.join("\n")
    );
    let stale: Vec<String> = ALLOWED
        .iter()
        .filter(|(file, text)| {
            !found
                .iter()
                .any(|(found_file, _, line)| found_file == file && line.contains(text))
        })
        .map(|(file, text)| format!("{file}: {text}"))
        .collect();
    assert!(
        stale.is_empty(),
        "allow-list entries no longer used (remove them from ALLOWED):\n{}",
        stale.join("\n")
    );
}
