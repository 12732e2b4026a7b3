//! Helpers shared by the integration tests (included with `mod common;`).

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;
use toolreg::env::Features;
use toolreg::mcp::{McpTools, load_servers};
use toolreg::{Catalog, Env, ToolInfo};
use toolreg_tools::profile;

pub use toolreg_tests::MATRIX;

/// The built-in catalog of this build.
pub fn catalog() -> Catalog {
    toolreg_tools::catalog().expect("no two tools share a name")
}

/// The design's environment with this build's features and everything else at its default.
pub fn env() -> Env {
    profile::env(toolreg_tools::features())
}

/// The design's environment with explicit features.
pub fn env_with(features: Features) -> Env {
    profile::env(features)
}

/// The repository's test data, `data/` at the workspace root (`data/README.md` says what it holds).
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data")
}

/// `data/mcp-fixtures/`: the captured `tools/list` results of eleven real MCP servers.
pub fn fixtures_dir() -> PathBuf {
    data_dir().join("mcp-fixtures")
}

/// The eleven fixture servers, in file-name order: (server name, tools/list result).
pub fn fixtures() -> Vec<(String, Value)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("data/mcp-fixtures in the repository")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            (name, value)
        })
        .collect()
}

/// Loads servers, asserting none of their entries was malformed.
pub fn load(servers: &[(String, Value)]) -> Vec<Arc<ToolInfo>> {
    let McpTools { tools, errors } =
        load_servers(servers.iter().map(|(name, value)| (name.as_str(), value)));
    assert!(errors.is_empty(), "{errors:?}");
    tools
}

/// The names of a pool.
pub fn names(pool: &[Arc<ToolInfo>]) -> Vec<&str> {
    pool.iter().map(|tool| tool.name.as_str()).collect()
}

/// The sandbox detected here, or `None` (saying why) where bubblewrap does not work; with
/// `TOOLREG_REQUIRE_SANDBOX` set, an unavailable sandbox fails the test instead.
pub fn sandbox() -> Option<toolreg::sandbox::Sandbox> {
    use toolreg::sandbox::Sandboxing;
    match Sandboxing::detect() {
        Sandboxing::On(sandbox) => Some(sandbox),
        Sandboxing::Unavailable(why) => {
            assert!(
                std::env::var_os("TOOLREG_REQUIRE_SANDBOX").is_none(),
                "TOOLREG_REQUIRE_SANDBOX is set but the sandbox is unavailable: {why}"
            );
            eprintln!("skipped: the sandbox is unavailable here: {why}");
            None
        }
        Sandboxing::Off => unreachable!("detection never answers Off"),
    }
}
