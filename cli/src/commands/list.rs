//! `list`: the pool, as text or JSON.

use std::io::Write;
use std::process::ExitCode;

use serde::Serialize;
use serde_json::{Value, json};
use toolreg::ToolInfo;

use super::{Result, out_with};
use crate::setup::Setup;

/// `list --json`: `{"tool_search": ..., "tools": [...]}`, each tool written as it is read.
#[derive(Serialize)]
struct Listing<'a> {
    tool_search: Value,
    tools: Tools<'a>,
}

/// The pool's tools as `list --json` shows them.
struct Tools<'a> {
    pool: &'a toolreg::Pool,
    /// Whether tool search is in force (else nothing is shown deferred).
    searching: bool,
}

impl Serialize for Tools<'_> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(self.pool.iter().map(|tool| Listed {
            name: &tool.name,
            aliases: &tool.aliases,
            mcp: tool.is_mcp(),
            deferred: self.searching && tool.is_deferred(),
            search_hint: tool.search_hint.as_deref(),
            description: &tool.description,
            read_only: tool.flags.read_only,
        }))
    }
}

/// One tool of `list --json`.
#[derive(Serialize)]
struct Listed<'a> {
    name: &'a str,
    aliases: &'a [String],
    mcp: bool,
    deferred: bool,
    search_hint: Option<&'a str>,
    description: &'a str,
    read_only: bool,
}

fn flags(tool: &ToolInfo, deferred: bool) -> String {
    let mut flags = Vec::new();
    if deferred {
        flags.push("deferred");
    }
    if tool.flags.read_only {
        flags.push("read-only");
    }
    if tool.flags.concurrency_safe {
        flags.push("concurrent");
    }
    if tool.flags.destructive {
        flags.push("destructive");
    }
    if tool.flags.always_load {
        flags.push("always-load");
    }
    flags.join(",")
}

/// Whether tool search is in force for this pool's environment, as `list` reports it: off in
/// standard mode and when it cannot be on (then nothing is deferred), on, or on only when the
/// deferred tools reach a share of the model's context window.
fn search_mode(setup: &Setup) -> (Value, Option<String>) {
    use toolreg::env::ToolSearchMode;
    use toolreg::search::{tool_search_might_be_on, tool_search_mode};
    let settings = &setup.env.tool_search;
    match (
        tool_search_might_be_on(settings),
        tool_search_mode(settings),
    ) {
        (false, _) | (_, ToolSearchMode::Standard) => (json!({"mode": "off"}), None),
        (true, ToolSearchMode::Always) => (json!({"mode": "on"}), Some("tool search on".into())),
        (true, ToolSearchMode::Auto { percent }) => (
            json!({"mode": "auto", "percent": percent}),
            Some(format!(
                "tool search auto: on when the deferred tools reach {percent}% of the context window"
            )),
        ),
    }
}

pub(super) fn list(setup: &Setup, json: bool) -> Result<ExitCode> {
    let (mode, searching) = search_mode(setup);
    let deferred = |tool: &ToolInfo| searching.is_some() && tool.is_deferred();
    if json {
        let listing = Listing {
            tool_search: mode,
            tools: Tools {
                pool: &setup.pool,
                searching: searching.is_some(),
            },
        };
        return out_with(|stdout| {
            serde_json::to_writer_pretty(stdout, &listing).map_err(std::io::Error::from)
        });
    }
    let width = setup
        .pool
        .iter()
        .map(|tool| tool.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    out_with(|stdout| {
        writeln!(
            stdout,
            "{:<width$}  {:<8}  {:<36}  ALIASES",
            "NAME", "KIND", "FLAGS"
        )?;
        let (mut mcp, mut deferred_count) = (0, 0);
        for tool in &setup.pool {
            let deferral = deferred(tool);
            mcp += usize::from(tool.is_mcp());
            deferred_count += usize::from(deferral);
            let kind = if tool.is_mcp() { "mcp" } else { "built-in" };
            let row = format!(
                "{:<width$}  {kind:<8}  {:<36}  {}",
                tool.name,
                flags(tool, deferral),
                tool.aliases.join(",")
            );
            writeln!(stdout, "{}", row.trim_end())?;
        }
        let (total, builtins) = (setup.pool.len(), setup.pool.len() - mcp);
        match &searching {
            None => write!(
                stdout,
                "{total} tools: {builtins} built-in, {mcp} MCP; tool search off: every tool loaded up front"
            ),
            Some(mode) => write!(
                stdout,
                "{total} tools: {builtins} built-in, {mcp} MCP; {deferred_count} deferred, {} loaded up front ({mode})",
                total - deferred_count
            ),
        }
    })
}
