//! # toolreg's built-in tools
//!
//! Every tool of a coding agent's built-in set, each a `#[tool]` struct whose fields are its
//! input schema. Linking this crate offers none of them to a pool: a program chooses them, the
//! whole set ([`catalog`], the design's) or some by name ([`select`], [`STANDALONE`]), and joins
//! them to its own tools with [`Catalog::with`](toolreg::Catalog::with).
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
//! nothing without its feature. Run-time gates read [`Switches`](toolreg::env::Switches):
//! the task tools `todo_v2`, LSP `lsp`, the worktree tools `worktree_mode`, the team tools
//! (SendMessage, TeamCreate, TeamDelete) `agent_swarms`, PowerShell `powershell`. The gates that
//! depend on more than one tool's own switch (Glob and Grep without embedded search tools,
//! ToolSearch when tool search might be on) are the catalog's, in `toolreg`.
//!
//! # Adding a built-in
//! A new tool touches its own file and one line of one table:
//! 1. `src/<file>.rs` with the `#[tool]` struct and its `impl Tool` (a tool the application
//!    completes calls `ctx.delegate(self)`; a gated tool puts `feature = "..."` in its attribute
//!    and declares the feature in `Cargo.toml`);
//! 2. `mod <file>::<Type>,` in [`BASE_ORDER`]'s table, where it belongs in the prompt-cache
//!    order (with the `#[cfg(...)]` of a gated tool). The table declares the module; a test
//!    fails for a registered tool that is not in it.
//!
//! Nothing else names it: its name is read from its descriptor, no count in a test depends on
//! the set, and its schema snapshot (`tests/snapshots/schemas/`) is generated:
//! `UPDATE_SNAPSHOTS=1 cargo test -p toolreg-tests --all-features --test schemas`. A name in
//! [`profile::names`] is needed only when the design's profile singles the tool out.

#![deny(missing_docs)]
// Nothing input can reach may panic: no `unwrap`, `expect` or unchecked indexing outside tests,
// and every local exception says why it cannot fire.
#![cfg_attr(
    not(test),
    deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)
)]

pub mod profile;

mod fs;
mod util;
mod walk;

pub use fs::MAX_EDIT_BYTES;

/// The state the built-ins need to work on their own: an empty [`TodoList`](todo::TodoList) for
/// TodoWrite. Add the application's [`Delegate`](toolreg::Delegate)s and values to it.
pub fn default_state() -> toolreg::State {
    toolreg::State::new().with(std::sync::Arc::new(todo::TodoList::default()))
}

use profile::feature;

/// The built-ins' table: each entry is a tool type, its name read from its descriptor at compile
/// time; `mod m::Tool` also declares the tool's module `m` (on the first entry of each module);
/// an entry may carry the `#[cfg(...)]` of its tool, which a `mod` entry's module gets too.
macro_rules! builtins {
    ($(#[$doc:meta])* $vis:vis const $name:ident = [$($entries:tt)*];) => {
        builtins!(@entries ($(#[$doc])* $vis const $name) [] $($entries)*);
    };
    (@entries ($($head:tt)*) [$($names:tt)*]) => {
        $($head)*: &[&str] = &[$($names)*];
    };
    (@entries $head:tt [$($names:tt)*]
        $(#[$gate:meta])* mod $module:ident :: $tool:ident $(, $($rest:tt)*)?) => {
        $(#[$gate])*
        pub mod $module;
        builtins!(@entries $head [$($names)*
            $(#[$gate])* <$module::$tool as toolreg::ToolSpec>::DESCRIPTOR.name,] $($($rest)*)?);
    };
    (@entries $head:tt [$($names:tt)*] $(#[$gate:meta])* $tool:path $(, $($rest:tt)*)?) => {
        builtins!(@entries $head [$($names)*
            $(#[$gate])* <$tool as toolreg::ToolSpec>::DESCRIPTOR.name,] $($($rest)*)?);
    };
}

builtins! {
    /// The canonical order of the built-in set, as `base_tools` lists it
    /// (`docs/design.md` §2.1): every tool compiled into this build, by type, each name read from
    /// its descriptor. A caller keeps the names whose gates hold. The order is part of the
    /// prompt-cache key, so it only ever changes on purpose; a new built-in takes its place here,
    /// in one line (`mod file::Type` when its file is new), and this table declares its module.
    pub const BASE_ORDER = [
        mod agent::AgentTool,
        agent::TaskOutputTool,
        mod bash::BashTool,
        mod glob::GlobTool,
        mod grep::GrepTool,
        mod plan::ExitPlanModeTool,
        mod read::ReadTool,
        mod edit::EditTool,
        mod write::WriteTool,
        mod notebook::NotebookEditTool,
        mod web::WebFetchTool,
        mod todo::TodoWriteTool,
        web::WebSearchTool,
        agent::TaskStopTool,
        mod ask::AskUserQuestionTool,
        mod skill::SkillTool,
        plan::EnterPlanModeTool,
        #[cfg(feature = "INTERNAL_BUILD")]
        mod internal::ConfigTool,
        #[cfg(feature = "INTERNAL_BUILD")]
        internal::TungstenTool,
        #[cfg(feature = "WEB_BROWSER_TOOL")]
        mod browser::WebBrowserTool,
        mod tasks::TaskCreateTool,
        tasks::TaskGetTool,
        tasks::TaskUpdateTool,
        tasks::TaskListTool,
        mod lsp::LspTool,
        mod worktree::EnterWorktreeTool,
        worktree::ExitWorktreeTool,
        mod team::SendMessageTool,
        team::TeamCreateTool,
        team::TeamDeleteTool,
        #[cfg(feature = "INTERNAL_BUILD")]
        internal::ReplTool,
        #[cfg(feature = "WORKFLOW_SCRIPTS")]
        mod workflow::WorkflowTool,
        #[cfg(any(feature = "PROACTIVE", feature = "KAIROS"))]
        mod sleep::SleepTool,
        #[cfg(feature = "AGENT_TRIGGERS")]
        mod cron::CronCreateTool,
        #[cfg(feature = "AGENT_TRIGGERS")]
        cron::CronDeleteTool,
        #[cfg(feature = "AGENT_TRIGGERS")]
        cron::CronListTool,
        #[cfg(feature = "AGENT_TRIGGERS")]
        mod remote_trigger::RemoteTriggerTool,
        #[cfg(feature = "MONITOR_TOOL")]
        mod monitor::MonitorTool,
        mod brief::BriefTool,
        #[cfg(feature = "KAIROS")]
        brief::SendUserFileTool,
        mod powershell::PowerShellTool,
        mod mcp_resources::ListMcpResourcesTool,
        mcp_resources::ReadMcpResourceTool,
        mod structured_output::StructuredOutputTool,
        toolreg::search::ToolSearchTool,
    ];
}

/// Every tool of this build, ToolSearch included, in [`BASE_ORDER`]: the design's own set,
/// ready for the registry's rules. Only this crate's tools and the core's are in it, whatever
/// else the program links. An error names both definitions when two of them share a name.
///
/// ```
/// let catalog = toolreg_tools::catalog()?;
/// let names: Vec<&str> = catalog.tools().iter().map(|tool| tool.name).collect();
/// assert_eq!(names[..3], ["Agent", "TaskOutput", "Bash"]);
/// assert_eq!(names.last(), Some(&"ToolSearch"));
/// # Ok::<(), toolreg::CatalogError>(())
/// ```
pub fn catalog() -> Result<toolreg::Catalog, toolreg::CatalogError> {
    let tools =
        toolreg::Catalog::defined_in(module_path!())?.with(toolreg::Catalog::core_tools())?;
    Ok(toolreg::Catalog::from_descriptors(
        tools.tools().to_vec(),
        BASE_ORDER,
    ))
}

/// The tools of this build named in `names` (by name or alias; [`STANDALONE`] is a set of
/// them), in [`BASE_ORDER`]. An error names the first name this build has no tool for (a tool
/// whose feature is off included).
///
/// With [`own_tools!`](toolreg::own_tools), a program's own tools plus some of these:
///
/// ```rust,standalone_crate
/// use serde::Deserialize;
/// use toolreg::{Tool, ToolContext, ToolError, tool};
///
/// /// Gives the weather for a city.
/// #[tool(read_only)]
/// #[derive(Deserialize)]
/// pub struct WeatherTool {
///     /// The city.
///     pub city: String,
/// }
///
/// impl Tool for WeatherTool {
///     type Output = String;
///     async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
///         Ok(format!("{}: sunny", self.city))
///     }
/// }
///
/// fn main() -> Result<(), toolreg::CatalogError> {
///     // My tools (and the core's ToolSearch) plus Read and Grep: nothing else of the tool set.
///     let catalog = toolreg::own_tools!()?.with(toolreg_tools::select(&["Read", "Grep"])?)?;
///     let names: Vec<&str> = catalog.tools().iter().map(|tool| tool.name).collect();
///     assert_eq!(names, ["Weather", "ToolSearch", "Grep", "Read"]);
///
///     // A name the tool set does not have is an error naming it.
///     let error = toolreg_tools::select(&["Read", "Reed"]).unwrap_err();
///     assert!(error.to_string().contains("`Reed`"));
///     Ok(())
/// }
/// ```
pub fn select(names: &[&str]) -> Result<toolreg::Catalog, toolreg::CatalogError> {
    catalog()?.select(names)
}

/// The tools that work on the machine alone, with no [`Delegate`](toolreg::Delegate) from the
/// application: Bash, Read, Write, Edit, Glob, Grep, NotebookEdit, TodoWrite (its list is in
/// [`default_state`]), ToolSearch (the dispatcher's searcher answers it) and, under `PROACTIVE`
/// or `KAIROS`, Sleep. A set to [`select`].
pub const STANDALONE: &[&str] = &[
    <bash::BashTool as toolreg::ToolSpec>::DESCRIPTOR.name,
    <read::ReadTool as toolreg::ToolSpec>::DESCRIPTOR.name,
    <write::WriteTool as toolreg::ToolSpec>::DESCRIPTOR.name,
    <edit::EditTool as toolreg::ToolSpec>::DESCRIPTOR.name,
    <glob::GlobTool as toolreg::ToolSpec>::DESCRIPTOR.name,
    <grep::GrepTool as toolreg::ToolSpec>::DESCRIPTOR.name,
    <notebook::NotebookEditTool as toolreg::ToolSpec>::DESCRIPTOR.name,
    <todo::TodoWriteTool as toolreg::ToolSpec>::DESCRIPTOR.name,
    <toolreg::search::ToolSearchTool as toolreg::ToolSpec>::DESCRIPTOR.name,
    #[cfg(any(feature = "PROACTIVE", feature = "KAIROS"))]
    <sleep::SleepTool as toolreg::ToolSpec>::DESCRIPTOR.name,
];

/// The compile-time gates of this build, as the registry's rules read them.
pub fn features() -> toolreg::env::Features {
    let mut features = toolreg::env::Features::none();
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
