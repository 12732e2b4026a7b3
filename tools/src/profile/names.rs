//! The names the design's profile singles out, and the legacy names its rules still accept.
//!
//! Each name is read from its tool's descriptor at compile time (`#[tool(name = "...")]` is the
//! one spelling). A tool behind a cargo feature has no type without it, while the profile's
//! rules still name it (they read the build's features as data, so every combination stays
//! testable): those few names are written out, and checked against the tool's descriptor at
//! compile time whenever the tool is compiled in.

use toolreg::ToolSpec;

use crate::*;

/// The name of a tool type, at compile time.
const fn name<T: ToolSpec>() -> &'static str {
    T::DESCRIPTOR.name
}

/// Launches a sub-agent (legacy name `Task`).
pub const AGENT: &str = name::<agent::AgentTool>();

/// Reads a background task's output (legacy names `AgentOutputTool`, `BashOutputTool`).
pub const TASK_OUTPUT: &str = name::<agent::TaskOutputTool>();

/// Runs a shell command.
pub const BASH: &str = name::<bash::BashTool>();

/// Finds files by glob pattern.
pub const GLOB: &str = name::<glob::GlobTool>();

/// Searches file contents.
pub const GREP: &str = name::<grep::GrepTool>();

/// Leaves plan mode with a plan for approval.
pub const EXIT_PLAN_MODE: &str = name::<plan::ExitPlanModeTool>();

/// Reads a file.
pub const READ: &str = name::<read::ReadTool>();

/// Replaces text in a file.
pub const EDIT: &str = name::<edit::EditTool>();

/// Writes a whole file.
pub const WRITE: &str = name::<write::WriteTool>();

/// Edits a Jupyter notebook cell.
pub const NOTEBOOK_EDIT: &str = name::<notebook::NotebookEditTool>();

/// Fetches a URL.
pub const WEB_FETCH: &str = name::<web::WebFetchTool>();

/// Keeps the session's checklist.
pub const TODO_WRITE: &str = name::<todo::TodoWriteTool>();

/// Searches the web.
pub const WEB_SEARCH: &str = name::<web::WebSearchTool>();

/// Stops a background task (legacy name `KillShell`).
pub const TASK_STOP: &str = name::<agent::TaskStopTool>();

/// Asks the user multiple-choice questions.
pub const ASK_USER_QUESTION: &str = name::<ask::AskUserQuestionTool>();

/// Runs a skill.
pub const SKILL: &str = name::<skill::SkillTool>();

/// Enters plan mode.
pub const ENTER_PLAN_MODE: &str = name::<plan::EnterPlanModeTool>();

/// Creates a task in the task list (todo v2).
pub const TASK_CREATE: &str = name::<tasks::TaskCreateTool>();

/// Reads one task (todo v2).
pub const TASK_GET: &str = name::<tasks::TaskGetTool>();

/// Updates a task (todo v2).
pub const TASK_UPDATE: &str = name::<tasks::TaskUpdateTool>();

/// Lists the tasks (todo v2).
pub const TASK_LIST: &str = name::<tasks::TaskListTool>();

/// Queries a language server.
pub const LSP: &str = name::<lsp::LspTool>();

/// Moves the session into a git worktree.
pub const ENTER_WORKTREE: &str = name::<worktree::EnterWorktreeTool>();

/// Leaves the session's git worktree.
pub const EXIT_WORKTREE: &str = name::<worktree::ExitWorktreeTool>();

/// Messages another agent of the team.
pub const SEND_MESSAGE: &str = name::<team::SendMessageTool>();

/// Creates an agent team.
pub const TEAM_CREATE: &str = name::<team::TeamCreateTool>();

/// Deletes the agent team.
pub const TEAM_DELETE: &str = name::<team::TeamDeleteTool>();

/// Runs code in the REPL that wraps the primitive tools (internal build).
pub const REPL: &str = "REPL";

/// Runs a workflow script (`WORKFLOW_SCRIPTS`).
pub const WORKFLOW: &str = "Workflow";

/// Schedules a prompt on a cron expression (`AGENT_TRIGGERS`).
pub const CRON_CREATE: &str = "CronCreate";

/// Removes a scheduled prompt (`AGENT_TRIGGERS`).
pub const CRON_DELETE: &str = "CronDelete";

/// Lists scheduled prompts (`AGENT_TRIGGERS`).
pub const CRON_LIST: &str = "CronList";

/// Sends the user a message.
pub const BRIEF: &str = name::<brief::BriefTool>();

/// Sends the user files (`KAIROS`).
pub const SEND_USER_FILE: &str = "SendUserFile";

/// Runs a PowerShell command.
pub const POWERSHELL: &str = name::<powershell::PowerShellTool>();

/// Lists the resources MCP servers offer.
pub const LIST_MCP_RESOURCES: &str = name::<mcp_resources::ListMcpResourcesTool>();

/// Reads one MCP resource.
pub const READ_MCP_RESOURCE: &str = name::<mcp_resources::ReadMcpResourceTool>();

/// Returns the final structured result.
pub const STRUCTURED_OUTPUT: &str = name::<structured_output::StructuredOutputTool>();

/// Loads deferred tools.
pub const TOOL_SEARCH: &str = name::<toolreg::search::ToolSearchTool>();

/// Old names still accepted in permission rules, with the current name (a permission context
/// from [`permissions`](super::permissions) renames them); each built-in also lists its old
/// names as aliases, so calls naming them reach it.
pub const LEGACY: &[(&str, &str)] = &[
    ("Task", AGENT),
    ("KillShell", TASK_STOP),
    ("AgentOutputTool", TASK_OUTPUT),
    ("BashOutputTool", TASK_OUTPUT),
];

/// Compares two strings during const evaluation (used by the checks of gated tools compiled in).
#[cfg_attr(
    not(any(
        feature = "INTERNAL_BUILD",
        feature = "WORKFLOW_SCRIPTS",
        feature = "AGENT_TRIGGERS",
        feature = "KAIROS"
    )),
    allow(dead_code)
)]
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

/// Asserts at compile time that a gated tool, when compiled in, carries the name written here.
macro_rules! check_names {
    ($($(#[$cfg:meta])* $ty:ty => $name:expr;)*) => {
        $(
            $(#[$cfg])*
            const _: () = assert!(
                same(name::<$ty>(), $name),
                "a gated tool's #[tool(name)] differs from its name in `profile::names`"
            );
        )*
    };
}

check_names! {
    #[cfg(feature = "INTERNAL_BUILD")]
    internal::ReplTool => REPL;
    #[cfg(feature = "WORKFLOW_SCRIPTS")]
    workflow::WorkflowTool => WORKFLOW;
    #[cfg(feature = "AGENT_TRIGGERS")]
    cron::CronCreateTool => CRON_CREATE;
    #[cfg(feature = "AGENT_TRIGGERS")]
    cron::CronDeleteTool => CRON_DELETE;
    #[cfg(feature = "AGENT_TRIGGERS")]
    cron::CronListTool => CRON_LIST;
    #[cfg(feature = "KAIROS")]
    brief::SendUserFileTool => SEND_USER_FILE;
}
