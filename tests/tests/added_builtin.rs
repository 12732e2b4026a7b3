//! Adding a built-in touches its own file and one line of one table. A copy of the tools crate
//! gets a new tool's file and one line in `BASE_ORDER`'s table, nothing else; built as it is,
//! its catalog lists the tool in that place, and a turn runs it under the design's profile.
//!
//! A slow suite (it builds the copy): it runs with `TOOLREG_SLOW_TESTS=1`, which CI sets. The
//! copy's workspace is this one with the tools crate swapped for the copy, built with the
//! packages the README's `cargo test --workspace` selects, into the same target directory:
//! every other crate resolves to the same features and is already built, so only the copy
//! compiles (5 s where a workspace of its own took 97 s).

use std::fs;
use std::path::Path;
use std::process::Command;

/// The new built-in: its whole file.
const NEW_TOOL: &str = r#"//! WordCount: counts the words of a text.

use serde::Deserialize;
use toolreg::{Tool, ToolContext, ToolError, tool};

/// Counts the words of a text, split on white space.
#[tool(read_only, concurrency_safe, search_hint = "count the words in a piece of text")]
#[derive(Debug, Deserialize)]
pub struct WordCountTool {
    /// The text to count.
    pub text: String,
}

impl Tool for WordCountTool {
    type Output = String;

    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.text.split_whitespace().count().to_string())
    }
}
"#;

/// The one line, and the line it follows in the table.
const AFTER: &str = "        mod grep::GrepTool,\n";
const NEW_LINE: &str = "        mod word_count::WordCountTool,\n";

/// What the copy runs: its catalog's order, then a turn that calls the new tool (an example
/// added beside the crate by this test, not part of the change).
const PROBE: &str = r#"use serde_json::json;
use toolreg::{Dispatcher, ToolOutput, ToolCall, TurnOptions, assemble_tool_pool};
use toolreg_tools::profile;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let catalog = toolreg_tools::catalog().unwrap();
    for tool in catalog.tools() {
        println!("{}", tool.name);
    }
    let env = profile::env(toolreg_tools::features());
    let rules = profile::permissions();
    let pool = assemble_tool_pool(&env, &rules, &catalog, &[]);
    let dispatcher = Dispatcher::new(env, rules, pool, std::env::current_dir().unwrap());
    let call = ToolCall::new("t1", "WordCount", json!({"text": "one two  three"}));
    let turn = dispatcher.run_turn(&[call], &TurnOptions::default()).await;
    let ToolOutput::Text(count) = &turn.results[0].content else {
        panic!("{:?}", turn.results[0])
    };
    println!("= {count}");
}
"#;

/// Where the copy goes in its workspace.
const COPY: &str = "added/tools";

/// `text` with `from`, which it holds once, replaced.
fn replace_once(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "{from:?} in the manifest");
    text.replacen(from, to, 1)
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The files under `dir`, relative, with their text.
fn files(dir: &Path, prefix: &Path, out: &mut Vec<(String, String)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, prefix, out);
        } else {
            let text = fs::read_to_string(&path).unwrap_or_default();
            let name = path.strip_prefix(prefix).unwrap().display().to_string();
            out.push((name, text));
        }
    }
}

#[test]
fn a_new_built_in_is_its_file_and_one_line_of_the_base_order() {
    if !toolreg_tests::slow_tests("adding a built-in to a copy of the tools crate") {
        return;
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    // This test's own target directory (`<target>/debug/deps/<this test>`), wherever it is.
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).unwrap().to_path_buf();
    let scratch = tempfile::tempdir_in(&target).unwrap();
    // Not at `tools`: a crate's build is named after its place in the workspace, and the copy's
    // must not replace the tools crate's own.
    let copy = scratch.path().join(COPY);
    copy_dir(&workspace.join("tools"), &copy);

    // The change: one new file, one line.
    fs::write(copy.join("src/word_count.rs"), NEW_TOOL).unwrap();
    let lib = copy.join("src/lib.rs");
    let text = fs::read_to_string(&lib).unwrap();
    assert_eq!(
        text.matches(AFTER).count(),
        1,
        "the table has moved: {AFTER:?}"
    );
    fs::write(&lib, text.replacen(AFTER, &format!("{AFTER}{NEW_LINE}"), 1)).unwrap();

    // Nothing else differs from the crate.
    let (mut before, mut after) = (Vec::new(), Vec::new());
    files(
        &workspace.join("tools/src"),
        &workspace.join("tools"),
        &mut before,
    );
    files(&copy.join("src"), &copy, &mut after);
    before.sort();
    after.sort();
    let added: Vec<&String> = after
        .iter()
        .filter(|(name, _)| !before.iter().any(|(old, _)| old == name))
        .map(|(name, _)| name)
        .collect();
    assert_eq!(added, ["src/word_count.rs"]);
    let changed: Vec<&String> = after
        .iter()
        .filter(|(name, text)| before.iter().any(|(old, was)| old == name && was != text))
        .map(|(name, _)| name)
        .collect();
    assert_eq!(changed, ["src/lib.rs"]);
    let old_lib = &before
        .iter()
        .find(|(name, _)| name == "src/lib.rs")
        .unwrap()
        .1;
    let new_lib = fs::read_to_string(&lib).unwrap();
    assert_eq!(new_lib.lines().count(), old_lib.lines().count() + 1);

    // The harness around the copy: this workspace, every entry a link to this one's but the
    // tools crate, which is the copy (same dependencies, lock file and profile), and the probe as
    // an example.
    for entry in fs::read_dir(workspace).unwrap() {
        let name = entry.unwrap().file_name();
        let own = ["tools", "target", ".git", "Cargo.toml", "Cargo.lock"];
        if !own.contains(&name.to_str().unwrap_or("")) {
            std::os::unix::fs::symlink(workspace.join(&name), scratch.path().join(&name)).unwrap();
        }
    }
    fs::copy(
        workspace.join("Cargo.lock"),
        scratch.path().join("Cargo.lock"),
    )
    .unwrap();
    let manifest = fs::read_to_string(workspace.join("Cargo.toml")).unwrap();
    let members = manifest
        .lines()
        .find(|line| line.starts_with("members = "))
        .unwrap();
    let manifest = manifest.replace(
        members,
        &replace_once(members, "\"tools\"", &format!("\"{COPY}\"")),
    );
    let manifest = replace_once(&manifest, "path = \"tools\"", &format!("path = \"{COPY}\""));
    fs::write(scratch.path().join("Cargo.toml"), manifest).unwrap();
    // The crate's own path dependencies (its dev-dependencies' `../…`), one level deeper.
    let crate_manifest = fs::read_to_string(copy.join("Cargo.toml")).unwrap();
    fs::write(
        copy.join("Cargo.toml"),
        crate_manifest.replace("path = \"../", "path = \"../../"),
    )
    .unwrap();
    fs::create_dir_all(copy.join("examples")).unwrap();
    fs::write(copy.join("examples/added_builtin_probe.rs"), PROBE).unwrap();

    // `--workspace`, as the README's test command: the same packages selected, the same features.
    let build = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--offline", "--workspace"])
        .args(["--example", "added_builtin_probe"])
        .current_dir(scratch.path())
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .unwrap();
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let output = Command::new(target.join("debug/examples/added_builtin_probe"))
        .current_dir(scratch.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    let grep = lines.iter().position(|name| *name == "Grep").unwrap();
    assert_eq!(lines.get(grep + 1), Some(&"WordCount"), "{stdout}");
    assert_eq!(lines.last(), Some(&"= 3"), "{stdout}");
}
