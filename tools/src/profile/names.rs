//! The design's built-in tools' names, one constant each, and the legacy names still accepted.
//!
//! The profile's rules single out tools by name (ToolSearch is never deferred, simple mode keeps
//! Bash, Read and Edit, …); these constants are what the rules compare against. `#[tool(name =
//! "...")]` takes a string literal, so a tool spells its name once more in its attribute; the
//! tools crate's tests check that every registered tool is named in its base order and that
//! every name there is registered when its feature is on.

/// Launches a sub-agent (legacy name `Task`).
pub const AGENT: &str = "Agent";
/// Reads a background task's output (legacy names `AgentOutputTool`, `BashOutputTool`).
pub const TASK_OUTPUT: &str = "TaskOutput";
/// Runs a shell command.
pub const BASH: &str = "Bash";
/// Finds files by glob pattern.
pub const GLOB: &str = "Glob";
/// Searches file contents.
pub const GREP: &str = "Grep";
/// Leaves plan mode with a plan for approval.
pub const EXIT_PLAN_MODE: &str = "ExitPlanMode";
/// Reads a file.
pub const READ: &str = "Read";
/// Replaces text in a file.
pub const EDIT: &str = "Edit";
/// Writes a whole file.
pub const WRITE: &str = "Write";
/// Edits a Jupyter notebook cell.
pub const NOTEBOOK_EDIT: &str = "NotebookEdit";
/// Fetches a URL.
pub const WEB_FETCH: &str = "WebFetch";
/// Keeps the session's checklist.
pub const TODO_WRITE: &str = "TodoWrite";
/// Searches the web.
pub const WEB_SEARCH: &str = "WebSearch";
/// Stops a background task (legacy name `KillShell`).
pub const TASK_STOP: &str = "TaskStop";
/// Asks the user multiple-choice questions.
pub const ASK_USER_QUESTION: &str = "AskUserQuestion";
/// Runs a skill.
pub const SKILL: &str = "Skill";
/// Enters plan mode.
pub const ENTER_PLAN_MODE: &str = "EnterPlanMode";
/// Reads or changes settings (internal build).
pub const CONFIG: &str = "Config";
/// The internal Tungsten tool (internal build).
pub const TUNGSTEN: &str = "Tungsten";
/// Drives a web browser (`WEB_BROWSER_TOOL`).
pub const WEB_BROWSER: &str = "WebBrowser";
/// Creates a task in the task list (todo v2).
pub const TASK_CREATE: &str = "TaskCreate";
/// Reads one task (todo v2).
pub const TASK_GET: &str = "TaskGet";
/// Updates a task (todo v2).
pub const TASK_UPDATE: &str = "TaskUpdate";
/// Lists the tasks (todo v2).
pub const TASK_LIST: &str = "TaskList";
/// Queries a language server.
pub const LSP: &str = "LSP";
/// Moves the session into a git worktree.
pub const ENTER_WORKTREE: &str = "EnterWorktree";
/// Leaves the session's git worktree.
pub const EXIT_WORKTREE: &str = "ExitWorktree";
/// Messages another agent of the team.
pub const SEND_MESSAGE: &str = "SendMessage";
/// Creates an agent team.
pub const TEAM_CREATE: &str = "TeamCreate";
/// Deletes the agent team.
pub const TEAM_DELETE: &str = "TeamDelete";
/// Runs code in the REPL that wraps the primitive tools (internal build).
pub const REPL: &str = "REPL";
/// Runs a workflow script (`WORKFLOW_SCRIPTS`).
pub const WORKFLOW: &str = "Workflow";
/// Waits (`PROACTIVE` or `KAIROS`).
pub const SLEEP: &str = "Sleep";
/// Schedules a prompt on a cron expression (`AGENT_TRIGGERS`).
pub const CRON_CREATE: &str = "CronCreate";
/// Removes a scheduled prompt (`AGENT_TRIGGERS`).
pub const CRON_DELETE: &str = "CronDelete";
/// Lists scheduled prompts (`AGENT_TRIGGERS`).
pub const CRON_LIST: &str = "CronList";
/// Manages remote agent triggers (`AGENT_TRIGGERS`).
pub const REMOTE_TRIGGER: &str = "RemoteTrigger";
/// Watches a command's output in the background (`MONITOR_TOOL`).
pub const MONITOR: &str = "Monitor";
/// Sends the user a message.
pub const BRIEF: &str = "Brief";
/// Sends the user files (`KAIROS`).
pub const SEND_USER_FILE: &str = "SendUserFile";
/// Runs a PowerShell command.
pub const POWERSHELL: &str = "PowerShell";
/// Lists the resources MCP servers offer.
pub const LIST_MCP_RESOURCES: &str = "ListMcpResources";
/// Reads one MCP resource.
pub const READ_MCP_RESOURCE: &str = "ReadMcpResource";
/// Returns the final structured result.
pub const STRUCTURED_OUTPUT: &str = "StructuredOutput";
/// Loads deferred tools.
pub const TOOL_SEARCH: &str = toolreg::tool_search::NAME;

/// Old names still accepted in permission rules, with the current name (a permission context
/// from [`permissions`](super::permissions) renames them); each built-in also lists its old
/// names as aliases, so calls naming them reach it.
pub const LEGACY: &[(&str, &str)] = &[
    ("Task", AGENT),
    ("KillShell", TASK_STOP),
    ("AgentOutputTool", TASK_OUTPUT),
    ("BashOutputTool", TASK_OUTPUT),
];
