//! The embedding application's side of the tools that need an agent around them.
//!
//! Tools such as Agent, AskUserQuestion or WebFetch cannot work from the machine alone: they need
//! the conversation loop, the user, the network or session state. Each such tool calls one method
//! of [`ToolHost`], which the application implements. Every method has a default body that
//! answers "this host does not provide …", so an application implements only what it offers, and
//! a tool never pretends to work.
//!
//! The host reaches the tools through the call's [`State`]: register it as `dyn ToolHost`
//! ([`host_state`] does). Without one, every host-needing tool answers the same "not
//! provided" error. The methods are async: each returns a boxed future.
//!
//! ```
//! use toolreg::{BoxFuture, Switches, Tool, ToolContext, ToolError, ToolOutput};
//! use toolreg_tools::host::{ToolHost, host_state};
//! use toolreg_tools::web::WebSearchTool;
//!
//! struct MyHost;
//! impl ToolHost for MyHost {
//!     fn web_search<'a>(
//!         &'a self,
//!         input: WebSearchTool,
//!         _: &'a ToolContext<'a>,
//!     ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
//!         Box::pin(async move { Ok(ToolOutput::Text(format!("no results for {}", input.query))) })
//!     }
//! }
//!
//! let state = host_state(MyHost);
//! let switches = Switches::default();
//! let ctx = ToolContext::new(std::path::Path::new("."), &switches).with_state(&state);
//! let input: WebSearchTool = serde_json::from_value(serde_json::json!({"query": "rust"})).unwrap();
//! let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
//! assert_eq!(
//!     runtime.block_on(input.call(&ctx)).unwrap(),
//!     ToolOutput::Text("no results for rust".into())
//! );
//! ```
//!
//! # Session state
//! The host also owns the session's state. TodoWrite keeps its checklist through
//! [`ToolHost::todos`] and [`ToolHost::set_todos`]; [`MemoryHost`], which [`default_state`]
//! uses, keeps it in memory, so TodoWrite works without a custom host. A custom host that wants
//! the same can hold a [`MemoryHost`] and forward those two methods to it.

use std::sync::{Arc, Mutex};

use toolreg::{BoxFuture, State, ToolContext, ToolError, ToolOutput};

use crate::todo::Todo;

/// The error every default method returns: which capability is missing and how to provide it.
pub fn not_provided(capability: &str, method: &str) -> ToolError {
    ToolError::new(format!(
        "this host does not provide {capability}; the application embedding these tools must implement `ToolHost::{method}` and attach its host with `ToolContext::with_host(&Host(..))`"
    ))
}

/// Declares host methods that take a tool's typed input and return its output, each with a
/// default body that reports the capability as not provided.
macro_rules! host_methods {
    ($(
        $(#[$meta:meta])*
        fn $method:ident($input:ty) => $capability:literal;
    )*) => {
        $(
            $(#[$meta])*
            fn $method<'a>(
                &'a self,
                input: $input,
                ctx: &'a ToolContext<'a>,
            ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
                let _ = (input, ctx);
                Box::pin(std::future::ready(Err(not_provided($capability, stringify!($method)))))
            }
        )*
    };
}

/// What the embedding application provides to the tools that need an agent around them.
///
/// One method per capability; each takes the tool's typed input and the call's context. Every
/// method has a default body that returns the "not provided" error, so implement only what your
/// application offers.
pub trait ToolHost: Send + Sync {
    /// The session's checklist, as TodoWrite last stored it.
    fn todos(&self) -> Result<Vec<Todo>, ToolError> {
        Err(not_provided("a session todo list", "todos"))
    }

    /// Replaces the session's checklist (TodoWrite).
    fn set_todos(&self, todos: Vec<Todo>) -> Result<(), ToolError> {
        let _ = todos;
        Err(not_provided("a session todo list", "set_todos"))
    }

    host_methods! {
        /// Launches a sub-agent (Agent).
        fn agent(crate::agent::AgentTool) => "sub-agents (Agent)";
        /// Reads a background task's output (TaskOutput).
        fn task_output(crate::agent::TaskOutputTool) => "background tasks (TaskOutput)";
        /// Stops a background task (TaskStop).
        fn task_stop(crate::agent::TaskStopTool) => "background tasks (TaskStop)";
        /// Asks the user questions and returns their answers (AskUserQuestion).
        fn ask_user_question(crate::ask::AskUserQuestionTool) => "questions to the user (AskUserQuestion)";
        /// Switches the session into plan mode (EnterPlanMode).
        fn enter_plan_mode(crate::plan::EnterPlanModeTool) => "plan mode (EnterPlanMode)";
        /// Presents the plan for approval and leaves plan mode (ExitPlanMode).
        fn exit_plan_mode(crate::plan::ExitPlanModeTool) => "plan mode (ExitPlanMode)";
        /// Runs a skill (Skill).
        fn skill(crate::skill::SkillTool) => "skills (Skill)";
        /// Fetches a URL and answers a prompt about it (WebFetch).
        fn web_fetch(crate::web::WebFetchTool) => "web access (WebFetch)";
        /// Searches the web (WebSearch).
        fn web_search(crate::web::WebSearchTool) => "web search (WebSearch)";
        /// Drives a browser (WebBrowser).
        #[cfg(feature = "WEB_BROWSER_TOOL")]
        fn web_browser(crate::browser::WebBrowserTool) => "a web browser (WebBrowser)";
        /// Reads or changes a setting (Config).
        #[cfg(feature = "INTERNAL_BUILD")]
        fn config(crate::internal::ConfigTool) => "settings (Config)";
        /// Runs a Tungsten action (Tungsten).
        #[cfg(feature = "INTERNAL_BUILD")]
        fn tungsten(crate::internal::TungstenTool) => "Tungsten (Tungsten)";
        /// Runs code in the REPL (REPL).
        #[cfg(feature = "INTERNAL_BUILD")]
        fn repl(crate::internal::ReplTool) => "a REPL (REPL)";
        /// Creates a task in the shared task list (TaskCreate).
        fn task_create(crate::tasks::TaskCreateTool) => "a task list (TaskCreate)";
        /// Reads one task (TaskGet).
        fn task_get(crate::tasks::TaskGetTool) => "a task list (TaskGet)";
        /// Updates a task (TaskUpdate).
        fn task_update(crate::tasks::TaskUpdateTool) => "a task list (TaskUpdate)";
        /// Lists the tasks (TaskList).
        fn task_list(crate::tasks::TaskListTool) => "a task list (TaskList)";
        /// Asks a language server (LSP).
        fn lsp(crate::lsp::LspTool) => "language servers (LSP)";
        /// Moves the session into a new git worktree (EnterWorktree).
        fn enter_worktree(crate::worktree::EnterWorktreeTool) => "git worktrees (EnterWorktree)";
        /// Leaves the session's worktree (ExitWorktree).
        fn exit_worktree(crate::worktree::ExitWorktreeTool) => "git worktrees (ExitWorktree)";
        /// Delivers a message to another agent (SendMessage).
        fn send_message(crate::team::SendMessageTool) => "agent messaging (SendMessage)";
        /// Creates an agent team (TeamCreate).
        fn team_create(crate::team::TeamCreateTool) => "agent teams (TeamCreate)";
        /// Deletes the agent team (TeamDelete).
        fn team_delete(crate::team::TeamDeleteTool) => "agent teams (TeamDelete)";
        /// Runs a workflow script (Workflow).
        #[cfg(feature = "WORKFLOW_SCRIPTS")]
        fn workflow(crate::workflow::WorkflowTool) => "workflow scripts (Workflow)";
        /// Schedules a prompt (CronCreate).
        #[cfg(feature = "AGENT_TRIGGERS")]
        fn cron_create(crate::cron::CronCreateTool) => "scheduled prompts (CronCreate)";
        /// Removes a scheduled prompt (CronDelete).
        #[cfg(feature = "AGENT_TRIGGERS")]
        fn cron_delete(crate::cron::CronDeleteTool) => "scheduled prompts (CronDelete)";
        /// Lists the scheduled prompts (CronList).
        #[cfg(feature = "AGENT_TRIGGERS")]
        fn cron_list(crate::cron::CronListTool) => "scheduled prompts (CronList)";
        /// Manages remote triggers (RemoteTrigger).
        #[cfg(feature = "AGENT_TRIGGERS")]
        fn remote_trigger(crate::remote_trigger::RemoteTriggerTool) => "remote triggers (RemoteTrigger)";
        /// Starts watching a command's output (Monitor).
        #[cfg(feature = "MONITOR_TOOL")]
        fn monitor(crate::monitor::MonitorTool) => "background monitors (Monitor)";
        /// Shows the user a message (Brief).
        fn brief(crate::brief::BriefTool) => "messages to the user (Brief)";
        /// Sends the user files (SendUserFile).
        #[cfg(feature = "KAIROS")]
        fn send_user_file(crate::brief::SendUserFileTool) => "file delivery to the user (SendUserFile)";
        /// Runs a PowerShell command (PowerShell).
        fn powershell(crate::powershell::PowerShellTool) => "a PowerShell (PowerShell)";
        /// Lists MCP resources (ListMcpResources).
        fn list_mcp_resources(crate::mcp_resources::ListMcpResourcesTool) => "MCP resources (ListMcpResources)";
        /// Reads an MCP resource (ReadMcpResource).
        fn read_mcp_resource(crate::mcp_resources::ReadMcpResourceTool) => "MCP resources (ReadMcpResource)";
        /// Accepts the final structured result (StructuredOutput).
        fn structured_output(crate::structured_output::StructuredOutputTool) => "structured output (StructuredOutput)";
    }
}

/// The host state for these tools: `host` registered as `dyn ToolHost`, where every
/// host-needing tool finds it (`ctx.state::<dyn ToolHost>()`). Add the application's own
/// values to the same [`State`].
pub fn host_state(host: impl ToolHost + 'static) -> State {
    State::new().with::<dyn ToolHost>(Arc::new(host))
}

/// [`host_state`] with a [`MemoryHost`]: session state in memory, every other capability not
/// provided.
pub fn default_state() -> State {
    host_state(MemoryHost::default())
}

/// A host that keeps the session's state in memory and provides nothing else.
#[derive(Debug, Default)]
pub struct MemoryHost {
    todos: Mutex<Vec<Todo>>,
}

impl ToolHost for MemoryHost {
    fn todos(&self) -> Result<Vec<Todo>, ToolError> {
        Ok(self.todos.lock().unwrap_or_else(|e| e.into_inner()).clone())
    }

    fn set_todos(&self, todos: Vec<Todo>) -> Result<(), ToolError> {
        *self.todos.lock().unwrap_or_else(|e| e.into_inner()) = todos;
        Ok(())
    }
}

/// The host with every default: what a tool talks to when no host is registered.
struct NoHost;

impl ToolHost for NoHost {}

/// The registered host, or one that provides nothing.
pub(crate) fn host_of<'a>(ctx: &ToolContext<'a>) -> &'a dyn ToolHost {
    ctx.state::<dyn ToolHost>().unwrap_or(&NoHost)
}
