//! The integration tests of `toolreg-models`, in one binary: each file under `tests/` is a module
//! of it, so a test run links once instead of once per file. One file's tests:
//! `cargo test -p toolreg-models --test models <file>::`.

mod encoder;
mod static_model;
