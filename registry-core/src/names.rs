//! The names of the built-in tools that the registry's rules mention.
//!
//! The rules of the design single out some tools by name (ToolSearch is never deferred, simple
//! mode keeps Bash, Read and Edit, …). The tools themselves are defined elsewhere with
//! `#[tool]`; these constants are the names the rules compare against.

#![allow(missing_docs)]

pub const AGENT: &str = "Agent";
pub const TASK_OUTPUT: &str = "TaskOutput";
pub const BASH: &str = "Bash";
pub const GLOB: &str = "Glob";
pub const GREP: &str = "Grep";
pub const EXIT_PLAN_MODE: &str = "ExitPlanMode";
pub const READ: &str = "Read";
pub const EDIT: &str = "Edit";
pub const WRITE: &str = "Write";
pub const NOTEBOOK_EDIT: &str = "NotebookEdit";
pub const WEB_FETCH: &str = "WebFetch";
pub const TODO_WRITE: &str = "TodoWrite";
pub const WEB_SEARCH: &str = "WebSearch";
pub const TASK_STOP: &str = "TaskStop";
pub const ASK_USER_QUESTION: &str = "AskUserQuestion";
pub const SKILL: &str = "Skill";
pub const ENTER_PLAN_MODE: &str = "EnterPlanMode";
pub const TASK_CREATE: &str = "TaskCreate";
pub const TASK_GET: &str = "TaskGet";
pub const TASK_UPDATE: &str = "TaskUpdate";
pub const TASK_LIST: &str = "TaskList";
pub const ENTER_WORKTREE: &str = "EnterWorktree";
pub const EXIT_WORKTREE: &str = "ExitWorktree";
pub const SEND_MESSAGE: &str = "SendMessage";
pub const REPL: &str = "REPL";
pub const WORKFLOW: &str = "Workflow";
pub const CRON_CREATE: &str = "CronCreate";
pub const CRON_DELETE: &str = "CronDelete";
pub const CRON_LIST: &str = "CronList";
pub const BRIEF: &str = "Brief";
pub const SEND_USER_FILE: &str = "SendUserFile";
pub const POWERSHELL: &str = "PowerShell";
pub const LIST_MCP_RESOURCES: &str = "ListMcpResources";
pub const READ_MCP_RESOURCE: &str = "ReadMcpResource";
pub const STRUCTURED_OUTPUT: &str = "StructuredOutput";
pub const TOOL_SEARCH: &str = "ToolSearch";

/// Old names still accepted in permission rules, with the current name.
pub const LEGACY: &[(&str, &str)] = &[
    ("Task", AGENT),
    ("KillShell", TASK_STOP),
    ("AgentOutputTool", TASK_OUTPUT),
    ("BashOutputTool", TASK_OUTPUT),
];

/// The current name for a possibly legacy one.
pub fn canonical(name: &str) -> &str {
    LEGACY
        .iter()
        .find(|(old, _)| *old == name)
        .map_or(name, |(_, new)| new)
}
