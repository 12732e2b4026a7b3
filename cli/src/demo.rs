//! The demo catalog: four MCP-style servers written for this project, compiled into the binary
//! so every command shows deferred loading on a fresh machine.

/// (server, tools/list result) pairs.
pub const SERVERS: [(&str, &str); 4] = [
    ("chat", include_str!("../demo/chat.json")),
    ("tracker", include_str!("../demo/tracker.json")),
    ("calendar", include_str!("../demo/calendar.json")),
    ("notebook", include_str!("../demo/notebook.json")),
];
