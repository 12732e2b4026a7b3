//! The integration tests of `toolreg-mcp`, in one binary: each file under `tests/` is a module of it,
//! so a test run links once instead of once per file. One file's tests:
//! `cargo test -p toolreg-mcp --test mcp <file>::`.

mod peers;

mod gateway;
mod hostile;
mod http;
mod http_events;
mod http_limits;
mod http_reconnect;
mod http_requests;
mod lifetime;
mod live;
mod oauth;
mod scale;
mod schema_check;
