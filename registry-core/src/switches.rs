//! Run-time switches: the values the design reads from its environment while it runs.
//!
//! Compile-time gates are cargo features of the crate that defines the tools; everything that
//! can change between two runs of the same binary lives here as plain data, so every function
//! that depends on it is pure and testable. [`Switches::from_env`] is the one place that reads
//! the process environment.

/// Run-time switches that decide which tools exist and how they behave.
///
/// `Default` is "everything off": the ordinary interactive main thread.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Switches {
    /// Simple mode (`CLAUDE_CODE_SIMPLE`): only Bash, Read and Edit.
    pub simple: bool,
    /// REPL mode: the REPL tool wraps the primitive tools, which are hidden.
    pub repl: bool,
    /// Coordinator mode (with the `COORDINATOR_MODE` build feature).
    pub coordinator: bool,
    /// The host embeds fast search tools, so Glob and Grep are left out.
    pub embedded_search_tools: bool,
    /// The task list v2 tools (TaskCreate, TaskGet, TaskUpdate, TaskList).
    pub todo_v2: bool,
    /// Worktree mode (EnterWorktree, ExitWorktree).
    pub worktree_mode: bool,
    /// Agent swarms (TeamCreate, TeamDelete).
    pub agent_swarms: bool,
    /// The LSP tool.
    pub lsp: bool,
    /// A Windows PowerShell is present.
    pub powershell: bool,
    /// Fork-first sub-agents are on (with the `FORK_SUBAGENT` build feature).
    pub fork_subagent: bool,
    /// The remote bridge is active (SendUserFile stays loaded under `KAIROS`).
    pub bridge_active: bool,
}

impl Switches {
    /// Reads the switches from the process environment.
    ///
    /// | variable | switch |
    /// |---|---|
    /// | `CLAUDE_CODE_SIMPLE` | [`simple`](Self::simple) |
    /// | `CLAUDE_CODE_REPL` | [`repl`](Self::repl) |
    /// | `CLAUDE_CODE_COORDINATOR_MODE` | [`coordinator`](Self::coordinator) |
    /// | `CLAUDE_CODE_EMBEDDED_SEARCH_TOOLS` | [`embedded_search_tools`](Self::embedded_search_tools) |
    /// | `CLAUDE_CODE_ENABLE_TASKS` | [`todo_v2`](Self::todo_v2) |
    /// | `CLAUDE_CODE_WORKTREE_MODE` | [`worktree_mode`](Self::worktree_mode) |
    /// | `CLAUDE_CODE_AGENT_SWARMS` | [`agent_swarms`](Self::agent_swarms) |
    /// | `ENABLE_LSP_TOOL` | [`lsp`](Self::lsp) |
    /// | `CLAUDE_CODE_USE_POWERSHELL` | [`powershell`](Self::powershell) |
    /// | `CLAUDE_CODE_FORK_SUBAGENT` | [`fork_subagent`](Self::fork_subagent) |
    /// | `CLAUDE_CODE_BRIDGE` | [`bridge_active`](Self::bridge_active) |
    ///
    /// A variable is on when its value is truthy: `1`, `true`, `yes` or `on`, in any case.
    pub fn from_env() -> Self {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Like [`from_env`](Self::from_env), over any variable lookup (for tests and embedding).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Self {
        let on = |name: &str| get(name).is_some_and(|value| is_truthy(&value));
        Switches {
            simple: on("CLAUDE_CODE_SIMPLE"),
            repl: on("CLAUDE_CODE_REPL"),
            coordinator: on("CLAUDE_CODE_COORDINATOR_MODE"),
            embedded_search_tools: on("CLAUDE_CODE_EMBEDDED_SEARCH_TOOLS"),
            todo_v2: on("CLAUDE_CODE_ENABLE_TASKS"),
            worktree_mode: on("CLAUDE_CODE_WORKTREE_MODE"),
            agent_swarms: on("CLAUDE_CODE_AGENT_SWARMS"),
            lsp: on("ENABLE_LSP_TOOL"),
            powershell: on("CLAUDE_CODE_USE_POWERSHELL"),
            fork_subagent: on("CLAUDE_CODE_FORK_SUBAGENT"),
            bridge_active: on("CLAUDE_CODE_BRIDGE"),
        }
    }
}

/// `1`, `true`, `yes`, `on` (ASCII case-insensitive, surrounding whitespace ignored).
pub fn is_truthy(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "on"
    )
}

/// `0`, `false`, `no`, `off` (ASCII case-insensitive, surrounding whitespace ignored).
pub fn is_falsy(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "0" | "false" | "no" | "off"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truthy_values_turn_a_switch_on() {
        let s = Switches::from_lookup(|name| {
            (name == "CLAUDE_CODE_SIMPLE").then(|| " TRUE ".to_string())
        });
        assert!(s.simple);
        assert!(!s.repl);
    }

    #[test]
    fn falsy_and_unknown_values_leave_a_switch_off() {
        for value in ["0", "false", "off", "maybe", ""] {
            let s = Switches::from_lookup(|name| (name == "ENABLE_LSP_TOOL").then(|| value.into()));
            assert!(!s.lsp, "{value:?}");
        }
    }
}
