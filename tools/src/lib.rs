//! # toolreg's built-in tools
//!
//! Every tool of a coding agent's built-in set, each a `#[tool]` struct whose fields are its
//! input schema, registered with `toolreg`'s inventory when this crate is linked.
//!
//! * **Working on the machine alone:** [`bash`], [`read`], [`write`](mod@write), [`edit`], [`glob`],
//!   [`grep`], [`notebook`], [`todo`](mod@todo) (its checklist is a [`TodoList`](todo::TodoList)
//!   in the call's state, which [`default_state`] holds) and, under `PROACTIVE` or `KAIROS`,
//!   `sleep`.
//! * **Needing the agent around them:** every other tool hands its call to the
//!   [`Delegate`](toolreg::Delegate) the embedding application implements for its type and
//!   registers in the call's [`State`](toolreg::State). Without one a call answers "the
//!   application does not provide …", naming the trait to implement.
//! * **ToolSearch** is the core's own tool (`toolreg::tool_search`), registered with
//!   these; the pool's search engine answers it.
//!
//! # Gates
//! Compile-time gates are this crate's cargo features (`MONITOR_TOOL`, `PROACTIVE`, `KAIROS`,
//! `KAIROS_BRIEF`, `AGENT_TRIGGERS`, `WEB_BROWSER_TOOL`, `COORDINATOR_MODE`, `FORK_SUBAGENT`,
//! `WORKFLOW_SCRIPTS`, `INTERNAL_BUILD`; none by default): a gated tool's module compiles to
//! nothing without its feature. Run-time gates read [`Switches`](toolreg::Switches):
//! the task tools `todo_v2`, LSP `lsp`, the worktree tools `worktree_mode`, the team tools
//! (SendMessage, TeamCreate, TeamDelete) `agent_swarms`, PowerShell `powershell`. The gates that
//! depend on more than one tool's own switch (Glob and Grep without embedded search tools,
//! ToolSearch when tool search might be on) are the catalog's, in `toolreg`.
//!
//! # Adding a built-in
//! A new tool touches its own file and one table:
//! 1. `src/<tool>.rs` with the `#[tool]` struct and its `impl Tool` (a gated tool puts
//!    `feature = "..."` in its attribute and declares the feature in `Cargo.toml`), and its
//!    `pub mod` line here;
//! 2. its name in [`BASE_ORDER`], where it belongs in the prompt-cache order (a test fails for a
//!    registered tool that is not there).
//!
//! Its schema snapshot (`tests/snapshots/schemas/`) is generated: `UPDATE_SNAPSHOTS=1 cargo test
//! -p toolreg-tests --all-features --test schemas`. A constant in [`profile::names`] is needed only when
//! the design's profile singles the tool out by name.

#![deny(missing_docs)]
// Nothing input can reach may panic: no `unwrap`, `expect` or unchecked indexing outside tests,
// and every local exception says why it cannot fire.
#![cfg_attr(
    not(test),
    deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)
)]

pub mod agent;
pub mod ask;
pub mod bash;
pub mod brief;
pub mod browser;
pub mod cron;
pub mod edit;
pub mod glob;
pub mod grep;
pub mod internal;
pub mod lsp;
pub mod mcp_resources;
pub mod monitor;
pub mod notebook;
pub mod plan;
pub mod powershell;
pub mod profile;
pub mod read;
pub mod remote_trigger;
pub mod skill;
pub mod sleep;
pub mod structured_output;
pub mod tasks;
pub mod team;
pub mod todo;
pub mod web;
pub mod workflow;
pub mod worktree;
pub mod write;

mod fs;
mod util;

pub use fs::MAX_EDIT_BYTES;

/// The state the built-ins need to work on their own: an empty [`TodoList`](todo::TodoList) for
/// TodoWrite. Add the application's [`Delegate`](toolreg::Delegate)s and values to it.
pub fn default_state() -> toolreg::State {
    toolreg::State::new().with(std::sync::Arc::new(todo::TodoList::default()))
}

use profile::feature;
use profile::names::*;

/// The canonical order of the built-in set, as `get_all_base_tools` lists it (`docs/design.md`
/// §2.1). It names every tool, gated or not: a caller keeps the names whose tool is registered in
/// this build and whose gates hold. The order is part of the prompt-cache key, so it only ever
/// changes on purpose.
pub const BASE_ORDER: &[&str] = &[
    AGENT,
    TASK_OUTPUT,
    BASH,
    GLOB,
    GREP,
    EXIT_PLAN_MODE,
    READ,
    EDIT,
    WRITE,
    NOTEBOOK_EDIT,
    WEB_FETCH,
    TODO_WRITE,
    WEB_SEARCH,
    TASK_STOP,
    ASK_USER_QUESTION,
    SKILL,
    ENTER_PLAN_MODE,
    CONFIG,
    TUNGSTEN,
    WEB_BROWSER,
    TASK_CREATE,
    TASK_GET,
    TASK_UPDATE,
    TASK_LIST,
    LSP,
    ENTER_WORKTREE,
    EXIT_WORKTREE,
    SEND_MESSAGE,
    TEAM_CREATE,
    TEAM_DELETE,
    REPL,
    WORKFLOW,
    SLEEP,
    CRON_CREATE,
    CRON_DELETE,
    CRON_LIST,
    REMOTE_TRIGGER,
    MONITOR,
    BRIEF,
    SEND_USER_FILE,
    POWERSHELL,
    LIST_MCP_RESOURCES,
    READ_MCP_RESOURCE,
    STRUCTURED_OUTPUT,
    TOOL_SEARCH,
];

/// This build's built-ins in [`BASE_ORDER`], ready for the registry's rules; an error names
/// both definitions when two registered tools (these or the application's own) share a name.
pub fn catalog() -> Result<toolreg::Catalog, &'static toolreg::DuplicateTool> {
    link();
    toolreg::builtins().map(|builtins| toolreg::Catalog::new(builtins, BASE_ORDER))
}

/// The compile-time gates of this build, as the registry's rules read them.
pub fn features() -> toolreg::Features {
    let mut features = toolreg::Features::none();
    features.set(feature::KAIROS, cfg!(feature = "KAIROS"));
    features.set(feature::KAIROS_BRIEF, cfg!(feature = "KAIROS_BRIEF"));
    features.set(feature::FORK_SUBAGENT, cfg!(feature = "FORK_SUBAGENT"));
    features.set(
        feature::COORDINATOR_MODE,
        cfg!(feature = "COORDINATOR_MODE"),
    );
    features.set(feature::AGENT_TRIGGERS, cfg!(feature = "AGENT_TRIGGERS"));
    features.set(
        feature::WORKFLOW_SCRIPTS,
        cfg!(feature = "WORKFLOW_SCRIPTS"),
    );
    features.set(feature::INTERNAL_BUILD, cfg!(feature = "INTERNAL_BUILD"));
    features
}

/// Does nothing; call it from a binary that uses this crate only for its tools.
///
/// The tools register themselves through `inventory`, whose submissions are static data that
/// nothing references by name. A linker may drop a crate none of whose items are used, and the
/// registrations with it, leaving `toolreg::builtins()` without these tools. Calling
/// `toolreg_tools::link()` once (e.g. at the start of `main`) references the crate and keeps it linked.
#[inline(never)]
pub fn link() {}

/// Compares two strings during const evaluation.
const fn same(a: &str, b: &str) -> bool {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.split_first(), b.split_first()) {
            (Some((x, a_rest)), Some((y, b_rest))) => {
                if *x != *y {
                    return false;
                }
                (a, b) = (a_rest, b_rest);
            }
            (None, None) => return true,
            _ => return false,
        }
    }
}

/// Asserts at compile time that each tool's descriptor carries the name its constant gives.
macro_rules! check_names {
    ($($(#[$cfg:meta])* $ty:ty => $name:expr;)*) => {
        $(
            $(#[$cfg])*
            const _: () = assert!(
                same(<$ty as toolreg::ToolSpec>::DESCRIPTOR.name, $name),
                "a tool's #[tool(strict, name)] differs from its constant in `names`"
            );
        )*
    };
}

check_names! {
    agent::AgentTool => AGENT;
    agent::TaskOutputTool => TASK_OUTPUT;
    bash::BashTool => BASH;
    glob::GlobTool => GLOB;
    grep::GrepTool => GREP;
    plan::ExitPlanModeTool => EXIT_PLAN_MODE;
    read::ReadTool => READ;
    edit::EditTool => EDIT;
    write::WriteTool => WRITE;
    notebook::NotebookEditTool => NOTEBOOK_EDIT;
    web::WebFetchTool => WEB_FETCH;
    todo::TodoWriteTool => TODO_WRITE;
    web::WebSearchTool => WEB_SEARCH;
    agent::TaskStopTool => TASK_STOP;
    ask::AskUserQuestionTool => ASK_USER_QUESTION;
    skill::SkillTool => SKILL;
    plan::EnterPlanModeTool => ENTER_PLAN_MODE;
    #[cfg(feature = "INTERNAL_BUILD")]
    internal::ConfigTool => CONFIG;
    #[cfg(feature = "INTERNAL_BUILD")]
    internal::TungstenTool => TUNGSTEN;
    #[cfg(feature = "WEB_BROWSER_TOOL")]
    browser::WebBrowserTool => WEB_BROWSER;
    tasks::TaskCreateTool => TASK_CREATE;
    tasks::TaskGetTool => TASK_GET;
    tasks::TaskUpdateTool => TASK_UPDATE;
    tasks::TaskListTool => TASK_LIST;
    lsp::LspTool => LSP;
    worktree::EnterWorktreeTool => ENTER_WORKTREE;
    worktree::ExitWorktreeTool => EXIT_WORKTREE;
    team::SendMessageTool => SEND_MESSAGE;
    team::TeamCreateTool => TEAM_CREATE;
    team::TeamDeleteTool => TEAM_DELETE;
    #[cfg(feature = "INTERNAL_BUILD")]
    internal::ReplTool => REPL;
    #[cfg(feature = "WORKFLOW_SCRIPTS")]
    workflow::WorkflowTool => WORKFLOW;
    #[cfg(any(feature = "PROACTIVE", feature = "KAIROS"))]
    sleep::SleepTool => SLEEP;
    #[cfg(feature = "AGENT_TRIGGERS")]
    cron::CronCreateTool => CRON_CREATE;
    #[cfg(feature = "AGENT_TRIGGERS")]
    cron::CronDeleteTool => CRON_DELETE;
    #[cfg(feature = "AGENT_TRIGGERS")]
    cron::CronListTool => CRON_LIST;
    #[cfg(feature = "AGENT_TRIGGERS")]
    remote_trigger::RemoteTriggerTool => REMOTE_TRIGGER;
    #[cfg(feature = "MONITOR_TOOL")]
    monitor::MonitorTool => MONITOR;
    brief::BriefTool => BRIEF;
    #[cfg(feature = "KAIROS")]
    brief::SendUserFileTool => SEND_USER_FILE;
    powershell::PowerShellTool => POWERSHELL;
    mcp_resources::ListMcpResourcesTool => LIST_MCP_RESOURCES;
    mcp_resources::ReadMcpResourceTool => READ_MCP_RESOURCE;
    structured_output::StructuredOutputTool => STRUCTURED_OUTPUT;
    toolreg::tool_search::ToolSearchTool => TOOL_SEARCH;
}
