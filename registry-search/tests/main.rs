//! The integration tests of `toolreg-search`, in one binary: each file under `tests/` is a module
//! of it, so a test run links once instead of once per file. One file's tests:
//! `cargo test -p toolreg-search --test search <file>::`.

#[cfg(feature = "semantic")]
mod encoder;
mod index;
mod seed;
mod sources;
#[cfg(feature = "semantic")]
mod static_model;
