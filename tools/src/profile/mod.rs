//! The design's profile: the tool policy of `docs/design.md`, exactly as its rules (§1–§11)
//! state it.
//!
//! * [`names`]: the built-in tools' names and the legacy names rules still accept.
//! * [`switch`] and [`feature`]: the names of its run-time switches and build features, and
//!   [`env_from_env`], which reads the switches and tool-search settings from the variables
//!   the design reads (`CLAUDE_CODE_*`, `ENABLE_TOOL_SEARCH` by [`parse_tool_search_mode`],
//!   `ANTHROPIC_BASE_URL` against [`API_HOST`], …); [`BETAS`], its beta headers.
//! * [`ClaudeCode`]: the rules — simple mode's reduced set, the special tools a host adds
//!   itself, Glob and Grep left out with embedded search tools, REPL mode's hiding, the tools
//!   kept loaded under some features, the agent contexts and coordinator mode.
//!
//! ```
//! use toolreg_tools::profile::{self, switch};
//!
//! let env = profile::env_from_lookup(Default::default(), |name| {
//!     (name == "CLAUDE_CODE_SIMPLE").then(|| "1".to_owned())
//! });
//! assert!(env.switches.is_on(switch::SIMPLE));
//! assert_eq!(env.profile.name(), "claude-code");
//! ```

use std::sync::Arc;

use toolreg::{Profile, ToolDescriptor, ToolInfo};

use toolreg::env::{AgentKind, Betas, Gates};

mod agents;
pub mod names;
mod settings;

pub use settings::{
    API_HOST, BETAS, DEFAULT_AUTO_PERCENT, env, env_from_env, env_from_lookup, is_api_url,
    parse_tool_search_mode, permissions, permissions_from_env,
};

pub use agents::{
    ASYNC_AGENT_ALLOWED, COORDINATOR_MODE_ALLOWED, all_agent_disallowed, custom_agent_disallowed,
    in_process_teammate_allowed, is_coordinator_tool,
};

/// The names of the design's run-time switches, and the variables that set them.
pub mod switch {
    /// Simple mode (`CLAUDE_CODE_SIMPLE`): only Bash, Read and Edit.
    pub const SIMPLE: &str = "simple";
    /// REPL mode (`CLAUDE_CODE_REPL`): the REPL tool wraps the primitive tools, which are hidden.
    pub const REPL: &str = "repl";
    /// Coordinator mode (`CLAUDE_CODE_COORDINATOR_MODE`, with the `COORDINATOR_MODE` feature).
    pub const COORDINATOR: &str = "coordinator";
    /// The host embeds fast search tools (`CLAUDE_CODE_EMBEDDED_SEARCH_TOOLS`): no Glob, Grep.
    pub const EMBEDDED_SEARCH_TOOLS: &str = "embedded_search_tools";
    /// The task list v2 tools (`CLAUDE_CODE_ENABLE_TASKS`).
    pub const TODO_V2: &str = "todo_v2";
    /// Worktree mode (`CLAUDE_CODE_WORKTREE_MODE`).
    pub const WORKTREE_MODE: &str = "worktree_mode";
    /// Agent swarms (`CLAUDE_CODE_AGENT_SWARMS`).
    pub const AGENT_SWARMS: &str = "agent_swarms";
    /// The LSP tool (`ENABLE_LSP_TOOL`).
    pub const LSP: &str = "lsp";
    /// A Windows PowerShell is present (`CLAUDE_CODE_USE_POWERSHELL`).
    pub const POWERSHELL: &str = "powershell";
    /// Fork-first sub-agents (`CLAUDE_CODE_FORK_SUBAGENT`, with the `FORK_SUBAGENT` feature).
    pub const FORK_SUBAGENT: &str = "fork_subagent";
    /// The remote bridge is active (`CLAUDE_CODE_BRIDGE`).
    pub const BRIDGE_ACTIVE: &str = "bridge_active";

    /// Each switch with the variable that turns it on.
    pub const VARIABLES: [(&str, &str); 11] = [
        (SIMPLE, "CLAUDE_CODE_SIMPLE"),
        (REPL, "CLAUDE_CODE_REPL"),
        (COORDINATOR, "CLAUDE_CODE_COORDINATOR_MODE"),
        (EMBEDDED_SEARCH_TOOLS, "CLAUDE_CODE_EMBEDDED_SEARCH_TOOLS"),
        (TODO_V2, "CLAUDE_CODE_ENABLE_TASKS"),
        (WORKTREE_MODE, "CLAUDE_CODE_WORKTREE_MODE"),
        (AGENT_SWARMS, "CLAUDE_CODE_AGENT_SWARMS"),
        (LSP, "ENABLE_LSP_TOOL"),
        (POWERSHELL, "CLAUDE_CODE_USE_POWERSHELL"),
        (FORK_SUBAGENT, "CLAUDE_CODE_FORK_SUBAGENT"),
        (BRIDGE_ACTIVE, "CLAUDE_CODE_BRIDGE"),
    ];
}

/// The names of the design's build features: the tools crate's cargo features of those names.
pub mod feature {
    /// `KAIROS`: Brief and SendUserFile stay loaded.
    pub const KAIROS: &str = "KAIROS";
    /// `KAIROS_BRIEF`: Brief stays loaded.
    pub const KAIROS_BRIEF: &str = "KAIROS_BRIEF";
    /// `FORK_SUBAGENT`: the fork-first Agent.
    pub const FORK_SUBAGENT: &str = "FORK_SUBAGENT";
    /// `COORDINATOR_MODE`: coordinator mode exists.
    pub const COORDINATOR_MODE: &str = "COORDINATOR_MODE";
    /// `AGENT_TRIGGERS`: the cron tools.
    pub const AGENT_TRIGGERS: &str = "AGENT_TRIGGERS";
    /// `WORKFLOW_SCRIPTS`: the Workflow tool.
    pub const WORKFLOW_SCRIPTS: &str = "WORKFLOW_SCRIPTS";
    /// The internal build: Config, Tungsten, REPL, and nested agents for sub-agents.
    pub const INTERNAL_BUILD: &str = "INTERNAL_BUILD";
}

/// Tools that are in the base list but not offered by [`offered_builtins`](toolreg::pool::offered_builtins): the MCP
/// resource tools come back with a server that offers resources, StructuredOutput is added by
/// the hosts that need it.
pub const SPECIAL_TOOLS: [&str; 3] = [
    names::LIST_MCP_RESOURCES,
    names::READ_MCP_RESOURCE,
    names::STRUCTURED_OUTPUT,
];

/// The tools REPL mode hides once the REPL tool is present: it wraps them.
pub const REPL_ONLY_TOOLS: [&str; 8] = [
    names::READ,
    names::WRITE,
    names::EDIT,
    names::GLOB,
    names::GREP,
    names::BASH,
    names::NOTEBOOK_EDIT,
    names::AGENT,
];

/// Coordinator mode: built with `COORDINATOR_MODE` and switched on.
pub fn coordinator(gates: Gates<'_>) -> bool {
    gates.features.is_on(feature::COORDINATOR_MODE) && gates.switches.is_on(switch::COORDINATOR)
}

/// The design's profile.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClaudeCode;

impl Profile for ClaudeCode {
    fn name(&self) -> &str {
        "claude-code"
    }

    /// Glob and Grep only without embedded search tools.
    fn in_base_list(&self, tool: &ToolDescriptor, gates: Gates<'_>) -> bool {
        !matches!(tool.name, names::GLOB | names::GREP)
            || !gates.switches.is_on(switch::EMBEDDED_SEARCH_TOOLS)
    }

    fn is_special(&self, name: &str) -> bool {
        SPECIAL_TOOLS.contains(&name)
    }

    /// Simple mode: REPL alone in REPL mode (when compiled in), else Bash, Read and Edit; in
    /// coordinator mode also Agent (without REPL), TaskStop and SendMessage.
    fn reduced_offer(
        &self,
        gates: Gates<'_>,
        compiled: &dyn Fn(&str) -> bool,
    ) -> Option<Vec<&'static str>> {
        if !gates.switches.is_on(switch::SIMPLE) {
            return None;
        }
        let repl = gates.switches.is_on(switch::REPL) && compiled(names::REPL);
        let mut chosen = if repl {
            vec![names::REPL]
        } else {
            vec![names::BASH, names::READ, names::EDIT]
        };
        if coordinator(gates) {
            if !repl {
                chosen.push(names::AGENT);
            }
            chosen.extend([names::TASK_STOP, names::SEND_MESSAGE]);
        }
        Some(chosen)
    }

    /// REPL mode, once the REPL tool is offered, hides the tools it wraps.
    fn hidden(&self, gates: Gates<'_>, offered: &[Arc<ToolInfo>]) -> &'static [&'static str] {
        let repl = gates.switches.is_on(switch::REPL)
            && offered.iter().any(|tool| tool.name == names::REPL);
        if repl { &REPL_ONLY_TOOLS } else { &[] }
    }

    /// Agent under `FORK_SUBAGENT` with fork-first on, Brief under `KAIROS`/`KAIROS_BRIEF`,
    /// SendUserFile under `KAIROS` with the bridge active: kept loaded.
    fn deferral(&self, tool: &ToolInfo, gates: Gates<'_>) -> Option<bool> {
        let (features, switches) = (gates.features, gates.switches);
        let loaded = match tool.name.as_str() {
            names::AGENT => {
                features.is_on(feature::FORK_SUBAGENT) && switches.is_on(switch::FORK_SUBAGENT)
            }
            names::BRIEF => {
                features.is_on(feature::KAIROS) || features.is_on(feature::KAIROS_BRIEF)
            }
            names::SEND_USER_FILE => {
                features.is_on(feature::KAIROS) && switches.is_on(switch::BRIDGE_ACTIVE)
            }
            _ => false,
        };
        loaded.then_some(false)
    }

    /// The coordinator gets its set; every other agent keeps every MCP tool; sub-agents and
    /// custom agents lose the disallowed set; background agents and teammates keep only theirs.
    fn allowed_for_agent(&self, tool: &ToolInfo, kind: AgentKind, gates: Gates<'_>) -> bool {
        agents::is_allowed_for_agent(tool, kind, gates)
    }

    /// In coordinator mode only the coordinator's tools.
    fn keeps_in_final_pool(&self, tool: &ToolInfo, gates: Gates<'_>) -> bool {
        !coordinator(gates) || is_coordinator_tool(tool.permission_name())
    }

    /// The design's default, [`MODELS_WITHOUT_TOOL_REFERENCES`].
    fn models_without_tool_references(&self) -> &'static [&'static str] {
        &MODELS_WITHOUT_TOOL_REFERENCES
    }

    /// The design's headers, [`BETAS`].
    fn betas(&self) -> Option<Betas> {
        Some(BETAS)
    }
}

/// The design's default list of models without tool references: names containing `haiku`
/// (`docs/design.md` §8.4; the list is configurable there). This is the design's choice, not a fact
/// about the API: today's API documentation lists Claude Haiku 4.5 among the models with tool
/// search. A request can pass its own list in [`RequestModel`](toolreg::search::RequestModel).
pub const MODELS_WITHOUT_TOOL_REFERENCES: [&str; 1] = ["haiku"];
