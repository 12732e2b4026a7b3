//! The read-only list's tables, public for this workspace's differential test
//! (`tests/tests/read_only_differential.rs`). Not a stable API.

/// Each program: its name, its option list (the notation of `options.rs`), whether a
/// value-taking short option takes the next word even inside a cluster (tree), whether
/// options may not be clustered at all (jq: flags only), whether `-NUM` is an option.
pub fn programs() -> Vec<(&'static str, &'static str, &'static str, bool)> {
    super::programs::PROGRAMS
        .iter()
        .map(|p| {
            let style = match p.style {
                super::options::Style::Getopt => "getopt",
                super::options::Style::NextWord => "next-word",
                super::options::Style::Single => "single",
                super::options::Style::Jq => "jq",
            };
            (p.name, p.options, style, p.digits)
        })
        .collect()
}

/// git's subcommands and their option lists (options one to a word).
pub fn git_subcommands() -> &'static [(&'static str, &'static str)] {
    super::git::SUBCOMMANDS
}

/// `find`'s primaries and how many words each takes.
pub fn find_primaries() -> &'static [(&'static str, usize)] {
    super::builtins::FIND_PRIMARIES
}
