//! The integration tests of `tools`, in one binary: each file under `tests/` is a module of it,
//! so a test run links once instead of once per file. One file's tests:
//! `cargo test -p toolreg-tools --test tools <file>::`.

mod common;

mod bash;
mod catalog;
mod composition;
mod concurrent_edits;
mod core_knows_no_product;
mod delegate;
mod dependencies;
mod files;
mod lifetime;
mod mode;
mod notebook;
mod profile;
mod sandbox;
mod search;
mod size_caps;
mod sleep;
mod special_files;
