//! The integration tests of `toolreg-tests`, in one binary: each file under `tests/` is a module of it,
//! so a test run links once instead of once per file. One file's tests:
//! `cargo test -p toolreg-tests --test end_to_end <file>::`.
//!
//! `schemas.rs` links alone: its tools (one per schema under test) would join the registry
//! that the other tests read whole.

mod common;

mod added_builtin;
mod bash_capability;
mod bash_policy;
mod bash_sandbox;
mod concurrency;
mod doc_paths;
mod fuzz_corpus;
mod invariants;
mod linked_rules;
mod opened_paths;
mod pool;
mod read_only_differential;
mod registered;
mod render;
mod sdk_check;
mod search_pools;
mod self_contained;
mod shell_differential;
mod walk_race;
