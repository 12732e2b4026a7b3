//! Test support for toolreg.
//!
//! * Integration tests live in `tests/`.
//! * [`fuzz`] holds the fuzz harnesses: one `pub fn <target>(data: &[u8])` per cargo-fuzz
//!   target of `fuzz/` (which only forwards to them), so the same code runs under libFuzzer and,
//!   over the committed seed corpora, as the ordinary test `tests/fuzz_corpus.rs`.
//! * The Rust examples of the README and of `docs/guide.md` run as doctests of this library, so
//!   the documents cannot drift from the API.

#![deny(missing_docs)]

pub mod fuzz;
pub mod sdk_check;
mod work;

pub use work::in_order;

use std::path::PathBuf;

/// The workspace's root: `data/`, `target/` and the test support under `tests/` are there.
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The availability matrix of `docs/design.md` §5.7: for each tool, main thread, sub-agent,
/// async agent, coordinator; "Ant" means only in the internal build.
pub const MATRIX: &[(&str, [&str; 4])] = &[
    ("Bash", ["Yes", "Yes", "Yes", "No"]),
    ("Read", ["Yes", "Yes", "Yes", "No"]),
    ("Edit", ["Yes", "Yes", "Yes", "No"]),
    ("Agent", ["Yes", "Ant", "No", "Yes"]),
    ("AskUserQuestion", ["Yes", "No", "No", "No"]),
    ("EnterPlanMode", ["Yes", "No", "No", "No"]),
    ("TaskStop", ["Yes", "No", "No", "Yes"]),
    ("ToolSearch", ["Yes", "Yes", "Yes", "No"]),
];

/// The switch for the slow suites: `TOOLREG_SLOW_TESTS=1` (CI sets it).
pub const SLOW_TESTS: &str = "TOOLREG_SLOW_TESTS";

/// Whether the slow suites run: the compile-fail cases, the long shell differential, and the
/// tests that install npm and PyPI packages themselves. Off, a suite says so and what turns it
/// on; a plain `cargo test` stays within minutes.
pub fn slow_tests(suite: &str) -> bool {
    let on = std::env::var_os(SLOW_TESTS).is_some_and(|value| !value.is_empty() && value != "0");
    if !on {
        eprintln!("skipped: {suite} is a slow suite; set {SLOW_TESTS}=1 to run it (CI does)");
    }
    on
}

#[doc = include_str!("../../README.md")]
mod readme {}

#[doc = include_str!("../../docs/guide.md")]
mod guide {}
