//! The tool set carries no command line: a program that links `toolreg-tools` gets no clap, no
//! MCP client, and none of the tokio features only the `toolreg` binary uses (the
//! multi-threaded runtime, signals, sockets), with any of the crate's features. The command
//! line and what it needs are `toolreg-cli`'s.
//!
//! Checked with `cargo tree` on this workspace, run by the `cargo` the tests were built with,
//! offline and from the lock file, so the check needs no network.

use std::path::Path;
use std::process::Command;

/// Each package of `cargo tree -p toolreg-tools -e normal` (the dependencies a program that
/// links the crate builds), as (name, its features), with `features` passed to cargo.
fn normal_dependencies(features: &[&str]) -> Vec<(String, Vec<String>)> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    let output = Command::new(env!("CARGO"))
        .args(["tree", "-p", "toolreg-tools", "-e", "normal", "--frozen"])
        .args(["--prefix", "none", "--format", "{p} [{f}]"])
        .args(features)
        .arg("--manifest-path")
        .arg(&manifest)
        .output()
        .expect("run cargo tree");
    assert!(
        output.status.success(),
        "cargo tree failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("UTF-8 from cargo tree");
    let packages: Vec<(String, Vec<String>)> = text
        .lines()
        .filter_map(|line| {
            let name = line.split_whitespace().next()?;
            let features = line.rsplit_once('[')?.1.split_once(']')?.0;
            let features = features
                .split(',')
                .filter(|feature| !feature.is_empty())
                .map(str::to_owned)
                .collect();
            Some((name.to_owned(), features))
        })
        .collect();
    assert!(
        packages.iter().any(|(name, _)| name == "toolreg"),
        "cargo tree listed no toolreg:\n{text}"
    );
    packages
}

fn assert_no_cli_dependency(features: &[&str]) {
    let packages = normal_dependencies(features);
    for forbidden in ["clap", "clap_builder", "toolreg-mcp", "rmcp", "toolreg-cli"] {
        assert!(
            packages.iter().all(|(name, _)| name != forbidden),
            "toolreg-tools {features:?} depends on {forbidden}"
        );
    }
    let tokio: Vec<&String> = packages
        .iter()
        .filter(|(name, _)| name == "tokio")
        .flat_map(|(_, features)| features)
        .collect();
    assert!(
        tokio.iter().any(|feature| *feature == "process"),
        "{tokio:?}"
    );
    for binary_only in ["rt-multi-thread", "signal", "net"] {
        assert!(
            tokio.iter().all(|feature| *feature != binary_only),
            "toolreg-tools {features:?} turns on tokio's `{binary_only}`: {tokio:?}"
        );
    }
}

#[test]
fn the_tool_set_links_no_command_line_dependency() {
    assert_no_cli_dependency(&[]);
}

#[test]
fn no_feature_of_the_tool_set_links_a_command_line_dependency() {
    assert_no_cli_dependency(&["--all-features"]);
}
