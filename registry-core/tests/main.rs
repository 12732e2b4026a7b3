//! The integration tests of `toolreg`, in one binary: each file under `tests/` is a module of it,
//! so a test run links once instead of once per file. One file's tests:
//! `cargo test -p toolreg --test core <file>::`.
//!
//! `duplicates.rs` links alone: two tools of one name make the whole binary's registry an error.

mod assembly;
mod callers;
mod catalog;
mod conversation;
mod conversation_loop;
mod core_sources;
mod dispatch;
mod mcp;
mod mcp_check;
mod mcp_hostile;
mod mcp_text;
mod output;
mod permissions;
mod pool;
mod render;
mod render_apis;
mod rules_hold;
mod schemars;
mod search_quality;
mod search_ranked;
mod search_shards;
mod turn;
