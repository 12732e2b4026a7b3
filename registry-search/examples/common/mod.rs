//! Reading the evaluation sets named on the command line, shared by the examples (`toolreg-models`' too): each as a pool
//! of MCP servers' tools, loaded as the benches load them ([`pool`]).

#[path = "../../benches/common/mod.rs"]
pub mod pool;

use pool::Set;

/// Reads the set directory given as the first command-line argument ([`pool::read_set`]).
#[allow(dead_code)] // not every example reads one
pub fn set_from_args(example: &str) -> Result<Set, String> {
    let dir = std::env::args()
        .nth(1)
        .ok_or_else(|| format!("usage: {example} <eval set directory>"))?;
    pool::read_set(&dir).map(|(_, set)| set)
}

/// Reads every set directory given on the command line, each named by its last component.
#[allow(dead_code)] // not every example reads several
pub fn sets_from_args(example: &str) -> Result<Vec<(String, Set)>, String> {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        return Err(format!("usage: {example} <eval set directory>..."));
    }
    sets_from_dirs(dirs)
}

/// Reads every set directory in `dirs`, each named by its last component.
pub fn sets_from_dirs(dirs: Vec<String>) -> Result<Vec<(String, Set)>, String> {
    dirs.iter().map(|dir| pool::read_set(dir)).collect()
}
