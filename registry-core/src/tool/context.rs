//! What a tool sees of the world while it runs: its working directory, the call's id, the
//! turn's cancellation, a progress channel to the host, and the host's typed state.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::searcher::ToolSearcher;
use super::switches::Switches;
use crate::PermissionContext;
use crate::permissions::Grant;
use crate::permissions::path::PathGuard;
use crate::sandbox::{EnvPolicy, Sandboxing};

/// The host's typed state, found by type: register an `Arc<T>`, and tools get `&T` back from
/// [`ToolContext::state::<T>()`](ToolContext::state). Any `T` works, unsized ones too
/// (`Arc<dyn MyHost>` is found by `state::<dyn MyHost>()`).
///
/// ```
/// use std::sync::Arc;
/// use toolreg::State;
///
/// struct AppState { name: &'static str }
/// let mut state = State::new();
/// state.insert(Arc::new(AppState { name: "demo" }));
/// assert_eq!(state.get::<AppState>().unwrap().name, "demo");
/// assert!(state.get::<String>().is_none());
/// ```
#[derive(Clone, Default)]
pub struct State {
    values: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl State {
    /// An empty state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers `value` under its type `T`, replacing an earlier one of that type.
    pub fn insert<T: ?Sized + Send + Sync + 'static>(&mut self, value: Arc<T>) -> &mut Self {
        self.values.insert(TypeId::of::<T>(), Arc::new(value));
        self
    }

    /// Builder form of [`insert`](Self::insert).
    pub fn with<T: ?Sized + Send + Sync + 'static>(mut self, value: Arc<T>) -> Self {
        self.insert(value);
        self
    }

    /// The value registered under `T`.
    pub fn get<T: ?Sized + 'static>(&self) -> Option<&T> {
        self.values
            .get(&TypeId::of::<T>())
            .and_then(|value| value.downcast_ref::<Arc<T>>())
            .map(|value| &**value)
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State")
            .field("values", &self.values.len())
            .finish()
    }
}

/// A progress report from a running tool to the host.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The `tool_use` block whose call reports it.
    pub tool_use_id: String,
    /// What is happening, for a person.
    pub message: String,
    /// How far along, when the tool knows: done so far and, if known, the total.
    pub done: Option<(f64, Option<f64>)>,
}

/// Where progress reports go: a callback the host provides (it may forward to a channel).
pub type ProgressSink = dyn Fn(Progress) + Send + Sync;

/// What a tool sees of the world while it runs.
#[derive(Clone, Copy)]
pub struct ToolContext<'a> {
    /// The working directory relative paths are resolved against.
    pub cwd: &'a Path,
    /// The run-time switches.
    pub switches: &'a Switches,
    tool_use_id: &'a str,
    state: Option<&'a State>,
    searcher: Option<&'a dyn ToolSearcher>,
    permissions: Option<&'a PermissionContext>,
    cancel: Option<&'a CancellationToken>,
    progress: Option<&'a ProgressSink>,
    checked_path: Option<&'a Path>,
    sandboxing: Option<&'a Sandboxing>,
    environment: Option<&'a EnvPolicy>,
    grant: Grant,
}

impl fmt::Debug for ToolContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContext")
            .field("cwd", &self.cwd)
            .field("tool_use_id", &self.tool_use_id)
            .field("switches", &self.switches)
            .field("state", &self.state)
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

impl<'a> ToolContext<'a> {
    /// A context with nothing attached.
    pub fn new(cwd: &'a Path, switches: &'a Switches) -> Self {
        ToolContext {
            cwd,
            switches,
            tool_use_id: "",
            state: None,
            searcher: None,
            permissions: None,
            cancel: None,
            progress: None,
            checked_path: None,
            sandboxing: None,
            environment: None,
            grant: Grant::Unasked,
        }
    }

    /// The id of the `tool_use` block being answered (empty outside dispatch).
    pub fn tool_use_id(&self) -> &'a str {
        self.tool_use_id
    }

    /// Sets the `tool_use` id.
    pub fn with_tool_use_id(mut self, id: &'a str) -> Self {
        self.tool_use_id = id;
        self
    }

    /// Attaches the host's typed state.
    pub fn with_state(mut self, state: &'a State) -> Self {
        self.state = Some(state);
        self
    }

    /// The host's value of type `T`, when one was registered ([`State`]).
    pub fn state<T: ?Sized + 'static>(&self) -> Option<&'a T> {
        self.state.and_then(State::get)
    }

    /// Attaches the ToolSearch engine of the current pool.
    pub fn with_searcher(mut self, searcher: &'a dyn ToolSearcher) -> Self {
        self.searcher = Some(searcher);
        self
    }

    /// The ToolSearch engine of the current pool, when one was attached.
    pub fn searcher(&self) -> Option<&'a dyn ToolSearcher> {
        self.searcher
    }

    /// Attaches the session's permission rules (dispatch does), so a tool that walks a
    /// directory can leave out what path rules deny ([`path_guard`](Self::path_guard)).
    pub fn with_permissions(mut self, permissions: &'a PermissionContext) -> Self {
        self.permissions = Some(permissions);
        self
    }

    /// The session's permission rules, when attached.
    pub fn permissions(&self) -> Option<&'a PermissionContext> {
        self.permissions
    }

    /// The deny path rules for `tool` (and the `also` tools) below this context's working
    /// directory; empty when no rules were attached.
    pub fn path_guard(&self, tool: &str, also: &[&str]) -> PathGuard {
        self.permissions
            .map(|rules| rules.path_guard(tool, also, self.cwd))
            .unwrap_or_default()
    }

    /// What a walk below `root`, the directory this call was checked for, must leave out
    /// under the path rules of `tool` (and the `also` tools): what deny rules cover, and what
    /// ask rules cover unless nothing asks or the call was asked about `root` itself
    /// ([`PermissionContext::walk_guard`]); empty when no rules were attached.
    pub fn walk_guard(&self, tool: &str, also: &[&str], root: &Path) -> PathGuard {
        self.permissions
            .map(|rules| rules.walk_guard(tool, also, root, self.cwd))
            .unwrap_or_default()
    }

    /// Attaches the turn's cancellation.
    pub fn with_cancellation(mut self, cancel: &'a CancellationToken) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// The turn's cancellation, when one is attached.
    pub(crate) fn cancellation(&self) -> Option<&'a CancellationToken> {
        self.cancel
    }

    /// Whether the turn was cancelled: a tool that runs long should stop soon after.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_some_and(CancellationToken::is_cancelled)
    }

    /// Completes when the turn is cancelled (never, without a cancellation attached): race it
    /// against long work with `tokio::select!`.
    pub async fn cancelled(&self) {
        match self.cancel {
            Some(cancel) => cancel.cancelled().await,
            None => std::future::pending().await,
        }
    }

    /// Attaches where progress reports go.
    pub fn with_progress(mut self, sink: &'a ProgressSink) -> Self {
        self.progress = Some(sink);
        self
    }

    /// Reports progress to the host (nothing happens without a sink).
    pub fn report_progress(&self, message: impl Into<String>, done: Option<(f64, Option<f64>)>) {
        if let Some(sink) = self.progress {
            sink(Progress {
                tool_use_id: self.tool_use_id.to_owned(),
                message: message.into(),
                done,
            });
        }
    }

    /// Sets the file the permission check approved ([`checked_path`](Self::checked_path)).
    pub fn with_checked_path(mut self, path: &'a Path) -> Self {
        self.checked_path = Some(path);
        self
    }

    /// The file the permission check approved for this call, resolved as the kernel would
    /// open it (every link followed, see [`resolve`](crate::permissions::path::resolve)):
    /// dispatch sets it for a tool whose [`rule_subject`](crate::Tool::rule_subject) is a
    /// path. A tool should open exactly this path, following no link, so that a link swapped
    /// in after the check fails the open instead of leading elsewhere. `None` outside dispatch.
    pub fn checked_path(&self) -> Option<&'a Path> {
        self.checked_path
    }

    /// Attaches whether commands run sandboxed (dispatch does).
    pub fn with_sandboxing(mut self, sandboxing: &'a Sandboxing) -> Self {
        self.sandboxing = Some(sandboxing);
        self
    }

    /// Whether commands run sandboxed: [`Sandboxing::Off`] when nothing was attached.
    pub fn sandboxing(&self) -> &'a Sandboxing {
        static OFF: Sandboxing = Sandboxing::Off;
        self.sandboxing.unwrap_or(&OFF)
    }

    /// Sets how the call came to run (dispatch does, after the permission check).
    pub fn with_grant(mut self, grant: Grant) -> Self {
        self.grant = grant;
        self
    }

    /// How the call came to run: [`Grant::Unasked`], the least, outside dispatch. A tool that
    /// can do more than its input says (a shell) should give an unasked call only what it
    /// needs.
    pub fn grant(&self) -> Grant {
        self.grant
    }

    /// Attaches which variables of this process's environment child processes see
    /// (dispatch does).
    pub fn with_environment(mut self, policy: &'a EnvPolicy) -> Self {
        self.environment = Some(policy);
        self
    }

    /// Which variables of this process's environment the processes a tool starts see: the
    /// attached policy, else [`EnvPolicy::default`] (secrets dropped).
    pub fn environment(&self) -> &'a EnvPolicy {
        static DEFAULT: std::sync::LazyLock<EnvPolicy> =
            std::sync::LazyLock::new(EnvPolicy::default);
        self.environment.unwrap_or(&DEFAULT)
    }

    /// Resolves `path` against [`cwd`](Self::cwd).
    pub fn resolve(&self, path: &Path) -> PathBuf {
        self.cwd.join(path)
    }
}
