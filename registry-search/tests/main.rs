//! The integration tests of `toolreg-search`, in one binary: each file under `tests/` is a module
//! of it, so a test run links once instead of once per file. One file's tests:
//! `cargo test -p toolreg-search --test search <file>::`.

mod index;
mod seed;
mod sources;
