//! Glob and Grep against a temporary directory.

use crate::common;

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

use common::{error, text};
use serde_json::json;
use toolreg_tools::glob::GlobTool;
use toolreg_tools::grep::GrepTool;

fn write(root: &Path, path: &str, content: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

/// Sets a file's modification time to `seconds` after an arbitrary fixed moment.
fn touch(root: &Path, path: &str, seconds: u64) {
    let time = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000 + seconds);
    fs::File::options()
        .write(true)
        .open(root.join(path))
        .unwrap()
        .set_modified(time)
        .unwrap();
}

fn lines(out: &str, root: &Path) -> Vec<String> {
    let prefix = format!("{}/", root.display());
    out.lines().map(|line| line.replace(&prefix, "")).collect()
}

#[test]
fn glob_respects_gitignore_outside_a_git_repository() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".gitignore", "ignored/\n*.log\n");
    write(root, "src/a.rs", "");
    write(root, "ignored/b.rs", "");
    write(root, "debug.log", "");
    write(root, "keep.log.rs", "");
    let out = text::<GlobTool>(root, json!({"pattern": "**/*.rs"}));
    let mut found = lines(&out, root);
    found.sort();
    assert_eq!(found, ["keep.log.rs", "src/a.rs"]);
    assert_eq!(
        text::<GlobTool>(root, json!({"pattern": "*.log"})),
        "No files found"
    );
}

#[test]
fn glob_sorts_newest_first() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (name, age) in [("old.txt", 10), ("new.txt", 30), ("mid.txt", 20)] {
        write(root, name, "");
        touch(root, name, age);
    }
    let out = text::<GlobTool>(root, json!({"pattern": "*.txt"}));
    assert_eq!(lines(&out, root), ["new.txt", "mid.txt", "old.txt"]);
}

#[test]
fn glob_star_stays_in_one_directory_but_a_bare_name_pattern_matches_at_any_depth() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "top.rs", "");
    write(root, "src/deep/x.rs", "");
    let mut any_depth = lines(&text::<GlobTool>(root, json!({"pattern": "*.rs"})), root);
    any_depth.sort();
    assert_eq!(any_depth, ["src/deep/x.rs", "top.rs"]);
    let one_level = text::<GlobTool>(root, json!({"pattern": "src/*.rs"}));
    assert_eq!(one_level, "No files found");
    let out = text::<GlobTool>(root, json!({"pattern": "src/**/*.rs"}));
    assert_eq!(lines(&out, root), ["src/deep/x.rs"]);
}

#[test]
fn glob_path_narrows_the_search_and_an_absolute_pattern_is_split() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a/one.md", "");
    write(root, "b/two.md", "");
    let out = text::<GlobTool>(root, json!({"pattern": "*.md", "path": "b"}));
    assert_eq!(lines(&out, root), ["b/two.md"]);
    let absolute = format!("{}/a/*.md", root.display());
    let out = text::<GlobTool>(Path::new("/"), json!({"pattern": absolute}));
    assert_eq!(lines(&out, root), ["a/one.md"]);
}

#[test]
fn glob_dot_slash_keeps_a_pattern_relative_whatever_slashes_follow() {
    // Found by the `dispatch` fuzz target: `.//a/*.md` lost its `./` and walked `/a`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a/one.md", "");
    for pattern in [".//a/*.md", "././a/*.md", ".///a/*.md", "./a/*.md"] {
        let out = text::<GlobTool>(root, json!({"pattern": pattern}));
        assert_eq!(lines(&out, root), ["a/one.md"], "{pattern}");
    }
}

#[test]
fn glob_caps_results_at_100_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for i in 0..105 {
        write(root, &format!("f{i:03}.txt"), "");
    }
    let out = text::<GlobTool>(root, json!({"pattern": "*.txt"}));
    let found = lines(&out, root);
    assert_eq!(found.len(), 101);
    assert!(found[100].contains("showing the 100 most recently modified of 105 files"));
}

#[test]
fn glob_missing_directory_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let message = error::<GlobTool>(dir.path(), json!({"pattern": "*", "path": "nowhere"}));
    assert!(message.contains("nowhere"), "{message}");
}

fn grep_fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "a.rs",
        "fn main() {\n    let todo = 1;\n    // TODO: fix\n}\n",
    );
    write(root, "b.py", "# todo later\nprint('hi')\n");
    write(root, "c.txt", "nothing here\n");
    write(root, ".gitignore", "skip.rs\n");
    write(root, "skip.rs", "// TODO ignored\n");
    touch(root, "a.rs", 10);
    touch(root, "b.py", 20);
    dir
}

#[test]
fn grep_files_with_matches_is_the_default_and_lists_newest_first() {
    let dir = grep_fixture();
    let out = text::<GrepTool>(dir.path(), json!({"pattern": "todo", "-i": true}));
    assert_eq!(lines(&out, dir.path()), ["Found 2 files", "b.py", "a.rs"]);
}

#[test]
fn grep_is_case_sensitive_unless_dash_i() {
    let dir = grep_fixture();
    let out = text::<GrepTool>(dir.path(), json!({"pattern": "TODO"}));
    assert_eq!(lines(&out, dir.path()), ["Found 1 file", "a.rs"]);
    let none = text::<GrepTool>(dir.path(), json!({"pattern": "Nothing"}));
    assert_eq!(none, "No files found");
}

#[test]
fn grep_content_mode_shows_path_line_number_and_text() {
    let dir = grep_fixture();
    let out = text::<GrepTool>(
        dir.path(),
        json!({"pattern": "todo", "output_mode": "content", "-i": true}),
    );
    assert_eq!(
        lines(&out, dir.path()),
        [
            "a.rs:2:    let todo = 1;",
            "a.rs:3:    // TODO: fix",
            "b.py:1:# todo later"
        ]
    );
    let bare = text::<GrepTool>(
        dir.path(),
        json!({"pattern": "print", "output_mode": "content", "-n": false}),
    );
    assert_eq!(lines(&bare, dir.path()), ["b.py:print('hi')"]);
}

#[test]
fn grep_count_mode_counts_matching_lines_per_file() {
    let dir = grep_fixture();
    let out = text::<GrepTool>(
        dir.path(),
        json!({"pattern": "todo", "output_mode": "count", "-i": true}),
    );
    assert_eq!(
        lines(&out, dir.path()),
        [
            "a.rs:2",
            "b.py:1",
            "",
            "Found 3 total matches across 2 files."
        ]
    );
}

#[test]
fn grep_context_lines_use_dashes_and_groups_are_separated() {
    let dir = tempfile::tempdir().unwrap();
    let body: String = (1..=9).map(|i| format!("l{i}\n")).collect();
    write(dir.path(), "f.txt", &body);
    let out = text::<GrepTool>(
        dir.path(),
        json!({"pattern": "l2|l8", "output_mode": "content", "-C": 1}),
    );
    assert_eq!(
        lines(&out, dir.path()),
        [
            "f.txt-1-l1",
            "f.txt:2:l2",
            "f.txt-3-l3",
            "--",
            "f.txt-7-l7",
            "f.txt:8:l8",
            "f.txt-9-l9"
        ]
    );
    let after = text::<GrepTool>(
        dir.path(),
        json!({"pattern": "l5", "output_mode": "content", "-A": 2, "-B": 0}),
    );
    assert_eq!(
        lines(&after, dir.path()),
        ["f.txt:5:l5", "f.txt-6-l6", "f.txt-7-l7"]
    );
}

#[test]
fn grep_head_limit_keeps_the_first_n_lines_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let body: String = (1..=20).map(|i| format!("match {i}\n")).collect();
    write(dir.path(), "f.txt", &body);
    let out = text::<GrepTool>(
        dir.path(),
        json!({"pattern": "match", "output_mode": "content", "head_limit": 3}),
    );
    let found = lines(&out, dir.path());
    assert_eq!(
        found[..3],
        ["f.txt:1:match 1", "f.txt:2:match 2", "f.txt:3:match 3"]
    );
    assert!(found[4].contains("truncated to the first 3 lines"), "{out}");
    let unlimited = text::<GrepTool>(
        dir.path(),
        json!({"pattern": "match", "output_mode": "content", "head_limit": 0}),
    );
    assert_eq!(unlimited.lines().count(), 20);
}

#[test]
fn grep_head_limit_applies_to_files() {
    let dir = grep_fixture();
    let out = text::<GrepTool>(
        dir.path(),
        json!({"pattern": "todo", "-i": true, "head_limit": 1}),
    );
    let found = lines(&out, dir.path());
    assert_eq!(found[..2], ["Found 1 file", "b.py"]);
    assert!(found[3].contains("truncated to the first 1 files"), "{out}");
}

#[test]
fn grep_glob_and_type_filter_files() {
    let dir = grep_fixture();
    let by_glob = text::<GrepTool>(dir.path(), json!({"pattern": "o", "glob": "*.py"}));
    assert_eq!(lines(&by_glob, dir.path()), ["Found 1 file", "b.py"]);
    let by_type = text::<GrepTool>(dir.path(), json!({"pattern": "o", "type": "rust"}));
    assert_eq!(lines(&by_type, dir.path()), ["Found 1 file", "a.rs"]);
    let message = error::<GrepTool>(dir.path(), json!({"pattern": "o", "type": "klingon"}));
    assert!(message.contains("unknown file type"), "{message}");
}

#[test]
fn grep_multiline_matches_across_lines() {
    let dir = grep_fixture();
    let single = text::<GrepTool>(dir.path(), json!({"pattern": "main.*todo"}));
    assert_eq!(single, "No files found");
    let multi = text::<GrepTool>(
        dir.path(),
        json!({"pattern": "main.*todo", "multiline": true, "output_mode": "content"}),
    );
    assert_eq!(
        lines(&multi, dir.path()),
        ["a.rs:1:fn main() {", "a.rs:2:    let todo = 1;"]
    );
}

#[test]
fn grep_a_single_file_path_searches_that_file() {
    let dir = grep_fixture();
    let out = text::<GrepTool>(
        dir.path(),
        json!({"pattern": "TODO", "path": "skip.rs", "output_mode": "content"}),
    );
    assert_eq!(lines(&out, dir.path()), ["skip.rs:1:// TODO ignored"]);
}

#[test]
fn grep_invalid_regex_is_an_error() {
    let dir = grep_fixture();
    let message = error::<GrepTool>(dir.path(), json!({"pattern": "("}));
    assert!(message.starts_with("invalid regex"), "{message}");
}

#[test]
fn absolute_glob_pattern_matches_only_in_its_own_directory() {
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    write(&root, "a.txt", "");
    write(&root, "sub/b.txt", "");
    let pattern = format!("{}/*.txt", root.display());
    let out = text::<GlobTool>(&root, json!({"pattern": pattern}));
    assert_eq!(lines(&out, &root), ["a.txt"]);
    // A bare relative pattern still matches names at any depth.
    let out = text::<GlobTool>(&root, json!({"pattern": "*.txt"}));
    assert_eq!(lines(&out, &root).len(), 2, "{out}");
}

#[test]
fn glob_nested_twenty_thousand_deep_is_refused_before_it_is_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let deep = format!("{}a{}", "{".repeat(20_000), "}".repeat(20_000));
    let message = error::<GlobTool>(dir.path(), json!({"pattern": deep}));
    assert!(message.contains("nest deeper than 32"), "{message}");
    let message = error::<GrepTool>(dir.path(), json!({"pattern": "x", "glob": deep}));
    assert!(message.contains("nest deeper than 32"), "{message}");
    // Within the limit, alternatives nest as before.
    write(dir.path(), "x.rs", "x");
    let out = text::<GlobTool>(dir.path(), json!({"pattern": "*.{r{s,x},toml}"}));
    assert!(out.ends_with("x.rs"), "{out}");
}

/// The files the `ignore` crate's own walker finds under `root`, in its order, with the
/// options Grep used before it walked from descriptors.
fn ignore_crate_walk(root: &Path, glob: Option<&str>, file_type: Option<&str>) -> Vec<String> {
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .hidden(false)
        .require_git(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|entry| entry.file_name() != ".git");
    if let Some(glob) = glob {
        let mut overrides = ignore::overrides::OverrideBuilder::new(root);
        overrides.add(glob).unwrap();
        builder.overrides(overrides.build().unwrap());
    }
    if let Some(file_type) = file_type {
        let mut types = ignore::types::TypesBuilder::new();
        types.add_defaults();
        types.select(file_type);
        builder.types(types.build().unwrap());
    }
    builder
        .build()
        .map(Result::unwrap)
        .filter(|entry| entry.file_type().is_some_and(|t| t.is_file()))
        .map(|entry| {
            entry
                .path()
                .strip_prefix(root)
                .unwrap()
                .display()
                .to_string()
        })
        .collect()
}

/// Grep's count mode lists files in walk order: the descriptor walk leaves out and orders files
/// exactly as the `ignore` crate's walker does, across `.gitignore` (nested, negated, anchored),
/// `.ignore` over `.gitignore`, `.git/info/exclude`, a parent directory's `.gitignore`, links
/// (not followed), `glob` overrides and `type`.
#[test]
fn grep_walks_and_ignores_files_as_the_ignore_crate_does() {
    let dir = tempfile::tempdir().unwrap();
    let parent = dir.path().canonicalize().unwrap();
    let root = parent.join("root");
    write(&parent, ".gitignore", "*.parent-ignored\n");
    write(
        &root,
        ".gitignore",
        "ignored/\n*.log\n!keep.log\n/only-top.txt\n",
    );
    write(&root, ".ignore", "!from-ignore.log\n");
    write(&root, ".git/info/exclude", "excluded.txt\n");
    write(&root, ".git/HEAD", "ref\n");
    write(&root, "sub/.gitignore", "deep.txt\n!b.log\n");
    for file in [
        "a.txt",
        "b.log",
        "keep.log",
        "from-ignore.log",
        "excluded.txt",
        "x.parent-ignored",
        "only-top.txt",
        "ignored/in.txt",
        "sub/deep.txt",
        "sub/b.log",
        "sub/c.rs",
        "sub/only-top.txt",
        "sub/.hidden",
        "sub/inner/z.rs",
        "Upper.txt",
    ] {
        write(&root, file, "x\n");
    }
    std::os::unix::fs::symlink("sub", root.join("link")).unwrap();
    std::os::unix::fs::symlink("a.txt", root.join("file-link")).unwrap();
    for (glob, file_type) in [
        (None, None),
        (Some("*.log"), None),
        (Some("!*.txt"), None),
        (None, Some("rust")),
    ] {
        let mut input = json!({"pattern": ".", "output_mode": "count", "head_limit": 0});
        if let Some(glob) = glob {
            input["glob"] = json!(glob);
        }
        if let Some(file_type) = file_type {
            input["type"] = json!(file_type);
        }
        let out = text::<GrepTool>(&root, input);
        let walked: Vec<String> = lines(&out, &root)
            .into_iter()
            .take_while(|line| !line.is_empty())
            .map(|line| line.rsplit_once(':').unwrap().0.to_owned())
            .collect();
        let expected = ignore_crate_walk(&root, glob, file_type);
        assert!(!expected.is_empty());
        assert_eq!(walked, expected, "{glob:?} {file_type:?}:\n{out}");
    }
}
