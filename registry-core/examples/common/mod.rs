//! Reading an evaluation set directory, shared by the examples.

use toolreg::search::eval::{self, EvalSet};

/// Reads `DIR/tools.jsonl` and `DIR/queries.jsonl`; the directory's last component names the
/// set. The error says which file or line was wrong.
fn read_set(dir: &str) -> Result<(String, EvalSet), String> {
    let read = |file: &str| {
        std::fs::read_to_string(format!("{dir}/{file}"))
            .map_err(|error| format!("{dir}/{file}: {error}"))
    };
    let (tools, queries) = (read("tools.jsonl")?, read("queries.jsonl")?);
    let name = dir
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("set");
    let set = eval::parse(name, &tools, &queries).map_err(|error| format!("{dir}: {error}"))?;
    Ok((name.to_owned(), set))
}

/// Reads the set directory given as the first command-line argument ([`read_set`]).
#[allow(dead_code)] // not every example reads one
pub fn set_from_args(example: &str) -> Result<EvalSet, String> {
    let dir = std::env::args()
        .nth(1)
        .ok_or_else(|| format!("usage: {example} <eval set directory>"))?;
    read_set(&dir).map(|(_, set)| set)
}

/// Reads every set directory given on the command line, each named by its last component.
#[allow(dead_code)] // not every example reads several
pub fn sets_from_args(example: &str) -> Result<Vec<(String, EvalSet)>, String> {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        return Err(format!("usage: {example} <eval set directory>..."));
    }
    sets_from_dirs(dirs)
}

/// Reads every set directory in `dirs`, each named by its last component.
pub fn sets_from_dirs(dirs: Vec<String>) -> Result<Vec<(String, EvalSet)>, String> {
    dirs.iter().map(|dir| read_set(dir)).collect()
}
