//! The documents can be checked against the repository: every file or folder of the repository
//! that the README, `BENCHMARKS.md`, `CHANGELOG.md`, `docs/` (the benchmarks' history aside)
//! and the crates' READMEs name exists, so a file that moves or is renamed fails here, naming
//! the document, the line and the path, instead of leaving `docs/design.md`'s "implemented in"
//! and "pinned by" pointing nowhere. The same documents speak of the project only, not of how
//! its work was organized (no "issue O", no "this session").
//!
//! A *path* is a word of a code span, a link's target, a word of a fenced block or a word of
//! the text (its surrounding punctuation and a final `'s` left off), made only of letters,
//! digits, `_`, `-`, `.` and `/`, not starting with `/`, that ends with `/` (a folder) or whose
//! last part ends in one of [`EXTENSIONS`]. It must exist relative to the repository's root or
//! to the document's folder (`[rules](rules.md)` in `docs/`). So the documents write each path
//! in full from the root: `registry-core/src/pool/catalog.rs`, not `catalog.rs`. Paths under
//! `target/` (what cargo builds) are not checked.
//!
//! Not seen: a path with neither a trailing `/` nor one of the extensions (`data/eval`), and
//! one built from pieces. `RELIABILITY.md` and `data/README.md` are not checked: they name
//! files by their names within a folder the text has given.

use std::path::{Path, PathBuf};

/// The endings that make a word a file's path.
const EXTENSIONS: &[&str] = &[
    "rs", "md", "toml", "json", "jsonl", "yml", "yaml", "sh", "txt", "py", "lock", "csv",
];

/// Words that look like paths but name no file of the repository: (document, word, what it
/// names). An entry no line uses fails the test.
const NOT_REPOSITORY_FILES: &[(&str, &str, &str)] = &[
    (
        "README.md",
        "mcp.json",
        "the user's server list, in an example command",
    ),
    (
        "README.md",
        "tokens.json",
        "the user's tokens file, in an example command",
    ),
    (
        "docs/guide.md",
        "config.json",
        "a file of an embedding model's folder",
    ),
    (
        "docs/guide.md",
        "tokenizer.json",
        "a file of an embedding model's folder",
    ),
];

/// Phrases about how the work was organized rather than about the project, lower-cased.
const WORK_TALK: &[&str] = &[
    "this session",
    "second session",
    "third session",
    "the session's checkout",
    "by mistake",
    "the lead",
];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace")
        .to_path_buf()
}

/// The checked documents, relative to the root, in a stable order.
fn documents(root: &Path) -> Vec<String> {
    let mut found: Vec<String> = ["README.md", "BENCHMARKS.md", "CHANGELOG.md"]
        .iter()
        .map(|name| (*name).to_owned())
        .collect();
    for crate_dir in [
        "registry-macros",
        "registry-search",
        "registry-models",
        "registry-mcp",
        "tools",
    ] {
        found.push(format!("{crate_dir}/README.md"));
    }
    let docs = std::fs::read_dir(root.join("docs")).expect("the docs folder");
    let mut in_docs: Vec<String> = docs
        .map(|entry| {
            entry
                .expect("a docs entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".md") && name != "benchmarks-history.md")
        .map(|name| format!("docs/{name}"))
        .collect();
    in_docs.sort();
    found.extend(in_docs);
    found
}

/// Whether `word` is written as a path of the repository.
fn is_path(word: &str) -> bool {
    let path_chars = word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'));
    if word.is_empty() || !path_chars || word.starts_with('/') || word.contains("//") {
        return false;
    }
    if word.ends_with('/') {
        return true;
    }
    let last = word.rsplit('/').next().unwrap_or(word);
    last.rsplit_once('.')
        .is_some_and(|(stem, extension)| !stem.is_empty() && EXTENSIONS.contains(&extension))
}

/// A word of the text without the punctuation around it and a final `'s`.
fn trim_word(word: &str) -> &str {
    const CLOSING: &[char] = &[')', ']', '}', '"', '\'', ',', ';', ':', '.', '!', '?', '*'];
    let word = word.trim_start_matches(['(', '[', '{', '"', '\'', '*']);
    let word = word.trim_end_matches(CLOSING);
    let word = word.strip_suffix("'s").unwrap_or(word);
    word.trim_end_matches(CLOSING)
}

/// The path-like words of one document, as (line number, word).
fn paths_in(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut fenced = false;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let mut words: Vec<String> = Vec::new();
        if fenced {
            words.extend(line.split_whitespace().map(str::to_owned));
        } else {
            // Code spans: between pairs of backticks.
            let mut prose = String::new();
            for (part, piece) in line.split('`').enumerate() {
                if part % 2 == 1 {
                    words.push(piece.to_owned());
                } else {
                    prose.push_str(piece);
                    prose.push(' ');
                }
            }
            // Link targets, then the words of the text around them.
            let mut rest = prose.as_str();
            let mut text_words = String::new();
            while let Some(at) = rest.find("](") {
                text_words.push_str(&rest[..at]);
                let after = &rest[at + 2..];
                let end = after.find(')').unwrap_or(after.len());
                let target = &after[..end];
                words.push(target.split('#').next().unwrap_or_default().to_owned());
                rest = after.get(end + 1..).unwrap_or_default();
                text_words.push(' ');
            }
            text_words.push_str(rest);
            words.extend(
                text_words
                    .split_whitespace()
                    .map(|word| trim_word(word).to_owned()),
            );
        }
        for word in words {
            if is_path(&word) {
                found.push((number, word));
            }
        }
    }
    found
}

#[test]
fn every_path_the_documents_name_exists() {
    let root = workspace_root();
    let mut missing = Vec::new();
    let mut allowed_used = vec![false; NOT_REPOSITORY_FILES.len()];
    let mut checked = 0;
    for document in documents(&root) {
        let text = std::fs::read_to_string(root.join(&document))
            .unwrap_or_else(|error| panic!("{document}: {error}"));
        let folder = root.join(&document).parent().map(Path::to_path_buf);
        for (line, path) in paths_in(&text) {
            checked += 1;
            if let Some(at) = NOT_REPOSITORY_FILES
                .iter()
                .position(|(doc, word, _)| *doc == document && *word == path)
            {
                allowed_used[at] = true;
                continue;
            }
            // What cargo builds is not part of the repository, and may be elsewhere
            // (`CARGO_TARGET_DIR`).
            if path.starts_with("target/") {
                continue;
            }
            let exists = root.join(&path).exists()
                || folder
                    .as_ref()
                    .is_some_and(|folder| folder.join(&path).exists());
            if !exists {
                missing.push(format!("{document}:{line}: `{path}` does not exist"));
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} paths found: is the scanner still reading the documents?"
    );
    assert!(
        missing.is_empty(),
        "paths named by the documents that are not in the repository (write each in full from \
         the root, or from the document's folder):\n{}",
        missing.join("\n")
    );
    let unused: Vec<_> = NOT_REPOSITORY_FILES
        .iter()
        .zip(&allowed_used)
        .filter(|(_, used)| !**used)
        .map(|(entry, _)| entry)
        .collect();
    assert!(unused.is_empty(), "entries no document uses: {unused:?}");
}

#[test]
fn the_documents_speak_of_the_project_not_of_how_its_work_was_organized() {
    let root = workspace_root();
    let mut found = Vec::new();
    for document in documents(&root) {
        let text = std::fs::read_to_string(root.join(&document))
            .unwrap_or_else(|error| panic!("{document}: {error}"));
        for (index, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            let talk = WORK_TALK.iter().find(|phrase| lower.contains(**phrase));
            if let Some(phrase) = talk.copied().or(issue_letter(line)) {
                found.push(format!("{document}:{}: {phrase:?} in {line:?}", index + 1));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// "issue O" or "(P)": a work item named by a capital letter.
fn issue_letter(line: &str) -> Option<&'static str> {
    let bytes = line.as_bytes();
    let letter_alone = |at: usize| {
        bytes.get(at).is_some_and(u8::is_ascii_uppercase)
            && !bytes.get(at + 1).is_some_and(u8::is_ascii_alphanumeric)
    };
    let lower = line.to_lowercase();
    for (at, _) in lower.match_indices("issue ") {
        if letter_alone(at + "issue ".len()) {
            return Some("issue <letter>");
        }
    }
    for (at, _) in line.match_indices('(') {
        if letter_alone(at + 1) && bytes.get(at + 2) == Some(&b')') {
            return Some("(<letter>)");
        }
    }
    None
}

#[test]
fn the_scanner_finds_paths_in_code_links_fences_and_text() {
    let text = "See `registry-core/src/pool/` and [the guide](guide.md#tool-keys).\n\
                ```sh\nbash tests/model/install.sh\n```\n\
                The figures (BENCHMARKS.md), `tools/list`, `data/eval`, `/tmp/x.rs`, e.g. this.\n";
    let found: Vec<String> = paths_in(text).into_iter().map(|(_, path)| path).collect();
    assert_eq!(
        found,
        [
            "registry-core/src/pool/",
            "guide.md",
            "tests/model/install.sh",
            "BENCHMARKS.md"
        ]
    );
    assert_eq!(
        issue_letter("the ranked strategy (issue O) and"),
        Some("issue <letter>")
    );
    assert_eq!(issue_letter("mixed pools (P)."), Some("(<letter>)"));
    assert_eq!(issue_letter("an issue tracker (A and B)"), None);
}
