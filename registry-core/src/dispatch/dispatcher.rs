//! The [`Dispatcher`]: one call, from the model's call to its result.

use std::collections::HashSet;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use futures_util::FutureExt as _;
use serde_json::Value;

use super::approval::Approver;
use super::mcp::{McpCall, McpCaller};
use super::result::cap_output;
use super::turn::CancellationToken;
use super::{mcp_check, permission, schema_check};
use crate::permissions::Subject;
use crate::sandbox::{EnvPolicy, Sandboxing};
use crate::search::{SearchOutput, ToolSearcher};
use crate::tool::{ProgressSink, json_kind};
use crate::{DispatchError, Env, PermissionContext, PermissionDecision, Pool, SearchEngine};
use crate::{State, Strategy, ToolCall, ToolContext, ToolInfo, ToolOutput, ToolResult};

/// Everything a call needs besides itself: the rules, the pool, the host's state and its MCP
/// caller and approver. Owned, `Send + Sync`, cheap to clone.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use toolreg::{Catalog, Dispatcher, Env, PermissionContext, ToolCall, TurnOptions, assemble_tool_pool, builtins};
/// use serde_json::json;
///
/// let (env, rules) = (Env::default(), PermissionContext::new());
/// let pool = assemble_tool_pool(&env, &rules, &Catalog::new(builtins().unwrap(), &[]), &[]);
/// let dispatcher = Dispatcher::new(env, rules, pool, ".");
/// let calls = [
///     ToolCall::new("t1", "ToolSearch", json!({"query": "anything"})),
///     ToolCall::new("t2", "NoSuchTool", json!({})),
/// ];
/// let turn = dispatcher.run_turn(&calls, &TurnOptions::default()).await;
/// assert!(!turn.results[0].is_error());
/// // A tool outside the pool is refused, never run; the model reads why.
/// assert!(turn.results[1].is_error());
/// assert_eq!(toolreg::wire::anthropic::tool_results(&turn)["content"][1]["tool_use_id"], "t2");
/// # }
/// ```
#[derive(Clone)]
pub struct Dispatcher {
    env: Arc<Env>,
    rules: Arc<PermissionContext>,
    pool: Pool,
    cwd: Arc<PathBuf>,
    state: Arc<State>,
    searcher: Arc<dyn ToolSearcher>,
    loaded: Arc<HashSet<String>>,
    mcp: Option<Arc<dyn McpCaller>>,
    approver: Option<Arc<dyn Approver>>,
    /// `None`: the sandbox this process detected ([`Sandboxing::detected`]).
    sandboxing: Option<Arc<Sandboxing>>,
    environment: Arc<EnvPolicy>,
}

impl std::fmt::Debug for Dispatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dispatcher")
            .field("pool", &self.pool.len())
            .field("cwd", &self.cwd)
            .field("mcp", &self.mcp.is_some())
            .field("approver", &self.approver.is_some())
            .finish_non_exhaustive()
    }
}

impl Dispatcher {
    /// A dispatcher for `pool` (as assembled for `env` and `rules`), checking every call
    /// against `rules`, with tools working in `cwd`.
    pub fn new(
        env: impl Into<Arc<Env>>,
        rules: impl Into<Arc<PermissionContext>>,
        pool: Pool,
        cwd: impl Into<PathBuf>,
    ) -> Self {
        Dispatcher {
            searcher: Arc::new(PoolSearch {
                pool: pool.clone(),
                engine: OnceLock::new(),
            }),
            env: env.into(),
            rules: rules.into(),
            pool,
            cwd: Arc::new(cwd.into()),
            state: Arc::default(),
            loaded: Arc::default(),
            mcp: None,
            approver: None,
            sandboxing: None,
            environment: Arc::default(),
        }
    }

    /// The dispatcher with other permission rules (the same pool: a rule that denies a tool
    /// as a whole refuses its calls here, but leaves it in the pool).
    pub fn with_permissions(mut self, rules: PermissionContext) -> Self {
        self.rules = Arc::new(rules);
        self
    }

    /// The host's typed state, which tools read with `ctx.state::<T>()`.
    pub fn with_state(mut self, state: State) -> Self {
        self.state = Arc::new(state);
        self
    }

    /// The ToolSearch engine of this pool. Without one, the dispatcher builds a
    /// [`SearchEngine`] over its pool (the keyword strategy) the first time ToolSearch runs.
    pub fn with_searcher(mut self, searcher: Arc<dyn ToolSearcher>) -> Self {
        self.searcher = searcher;
        self
    }

    /// Deferred tools whose schema the model already has (loaded by ToolSearch): a call of a
    /// deferred tool outside this set whose input fails validation gets the hint to load it.
    pub fn with_loaded(mut self, names: impl IntoIterator<Item = String>) -> Self {
        self.loaded = Arc::new(names.into_iter().collect());
        self
    }

    /// Calls MCP tools.
    pub fn with_mcp(mut self, caller: Arc<dyn McpCaller>) -> Self {
        self.mcp = Some(caller);
        self
    }

    /// Answers "may this run?" questions.
    pub fn with_approver(mut self, approver: Arc<dyn Approver>) -> Self {
        self.approver = Some(approver);
        self
    }

    /// Whether commands run sandboxed (Bash's). Without this, the sandbox this process
    /// detects on first use ([`Sandboxing::detected`]): on where bubblewrap works.
    pub fn with_sandboxing(mut self, sandboxing: Sandboxing) -> Self {
        self.sandboxing = Some(Arc::new(sandboxing));
        self
    }

    /// Whether commands run sandboxed.
    pub fn sandboxing(&self) -> &Sandboxing {
        match &self.sandboxing {
            Some(sandboxing) => sandboxing,
            None => Sandboxing::detected(),
        }
    }

    /// Which variables of this process's environment the processes tools start see
    /// ([`EnvPolicy::default`], secrets dropped, unless set).
    pub fn with_environment(mut self, policy: EnvPolicy) -> Self {
        self.environment = Arc::new(policy);
        self
    }

    /// Which variables of this process's environment the processes tools start see.
    pub fn environment(&self) -> &EnvPolicy {
        &self.environment
    }

    /// The pool.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// The environment the pool was assembled for.
    pub fn env(&self) -> &Env {
        &self.env
    }

    /// The permission rules every call is checked against.
    pub fn permissions(&self) -> &PermissionContext {
        &self.rules
    }

    /// Runs one call and returns its result.
    pub async fn dispatch(&self, call: &ToolCall) -> ToolResult {
        let tool = self.pool.find(&call.name);
        self.dispatch_in(call, tool, &CancellationToken::new(), None)
            .await
    }

    /// [`dispatch`](Self::dispatch) within a turn, of the tool the turn found for the call:
    /// tools see `cancel` and report to `progress`.
    pub(crate) async fn dispatch_in(
        &self,
        call: &ToolCall,
        tool: Option<&Arc<ToolInfo>>,
        cancel: &CancellationToken,
        progress: Option<&ProgressSink>,
    ) -> ToolResult {
        let input = match &call.input {
            Ok(input) => input,
            Err(problem) => return ToolResult::from_error(&call.id, unreadable(call, problem)),
        };
        let Some(tool) = tool else {
            return ToolResult::from_error(
                &call.id,
                DispatchError::NotInPool {
                    name: call.name.clone(),
                },
            );
        };
        if !tool.callers().allows(&call.caller) {
            return ToolResult::from_error(
                &call.id,
                DispatchError::CallerNotAllowed {
                    tool: tool.name.clone(),
                    caller: call.caller.clone(),
                    allowed: tool.callers(),
                },
            );
        }
        let mut ctx = ToolContext::new(&self.cwd, &self.env.switches)
            .with_tool_use_id(&call.id)
            .with_state(&self.state)
            .with_permissions(&self.rules)
            .with_cancellation(cancel)
            .with_searcher(&*self.searcher)
            .with_sandboxing(self.sandboxing())
            .with_environment(&self.environment);
        if let Some(progress) = progress {
            ctx = ctx.with_progress(progress);
        }
        let run = AssertUnwindSafe(self.run(tool, input, &ctx)).catch_unwind();
        let outcome = match run.await {
            Ok(outcome) => outcome,
            Err(panic) => Err(DispatchError::Panicked {
                tool: tool.name.clone(),
                message: panic_message(panic.as_ref()),
            }),
        };
        match outcome {
            Ok(content) => ToolResult {
                tool_use_id: call.id.clone(),
                tool: tool.name.clone(),
                content: cap_output(content, tool.max_result_size_chars),
                error: None,
            },
            Err(error) => ToolResult::from_error(&call.id, error),
        }
    }

    fn invalid_input(
        &self,
        tool: &ToolInfo,
        path: Option<String>,
        message: String,
    ) -> DispatchError {
        DispatchError::InvalidInput {
            tool: tool.name.clone(),
            path,
            message,
            load_hint: tool.is_deferred() && !self.loaded.contains(&tool.name),
        }
    }

    async fn run(
        &self,
        tool: &Arc<ToolInfo>,
        input: &Value,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, DispatchError> {
        if let Some(rule) = self.rules.deny_rule_for_tool(tool.rule_target()) {
            return Err(DispatchError::Denied {
                tool: tool.name.clone(),
                refusal: crate::permissions::Refusal::Rule(rule.clone()),
            });
        }
        let Some(descriptor) = tool.builtin() else {
            return self.run_mcp(tool, input, ctx).await;
        };
        let parsed = (descriptor.parse)(input)
            .map_err(|error| self.invalid_input(tool, Some(error.path), error.message))?;
        schema_check::check(descriptor.schema(), input).map_err(|violation| {
            self.invalid_input(tool, Some(violation.path), violation.message)
        })?;
        parsed
            .validate_input(ctx)
            .map_err(|error| self.invalid_input(tool, None, error.to_string()))?;
        let subject = parsed
            .rule_subject(ctx)
            .map(|subject| subject.resolved(ctx.cwd))
            .transpose()
            .map_err(|error| DispatchError::Denied {
                tool: tool.name.clone(),
                refusal: crate::permissions::Refusal::Unresolvable(error),
            })?;
        let own_check = || parsed.check_permissions(ctx);
        let grant = self
            .check_permissions(tool, input, subject.as_ref(), ctx, own_check)
            .await?;
        let ctx = ctx.with_grant(grant);
        let ctx = match subject.as_ref().and_then(Subject::path) {
            Some(path) => ctx.with_checked_path(path),
            None => ctx,
        };
        parsed
            .call(&ctx)
            .await
            .map_err(|error| DispatchError::Failed {
                tool: tool.name.clone(),
                message: error.to_string(),
            })
    }

    async fn run_mcp(
        &self,
        tool: &Arc<ToolInfo>,
        input: &Value,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, DispatchError> {
        let Some(mcp) = tool.mcp() else {
            return Err(DispatchError::Unavailable {
                tool: tool.name.clone(),
                reason: format!("{} has no implementation in this host", tool.name),
            });
        };
        if !input.is_object() {
            return Err(self.invalid_input(
                tool,
                Some(".".into()),
                format!("expected a JSON object, got {}", json_kind(input)),
            ));
        }
        mcp_check::check(tool, mcp, input).map_err(|refusal| match refusal {
            mcp_check::Refusal::Input { path, message } => {
                self.invalid_input(tool, Some(path), message)
            }
            mcp_check::Refusal::Schema(fault) => DispatchError::UncheckableSchema {
                tool: tool.name.clone(),
                at: fault.at,
                rule: fault.rule,
            },
        })?;
        let own_check = || PermissionDecision::Passthrough;
        let grant = self
            .check_permissions(tool, input, None, ctx, own_check)
            .await?;
        let ctx = &ctx.with_grant(grant);
        let Some(caller) = &self.mcp else {
            return Err(DispatchError::Unavailable {
                tool: tool.name.clone(),
                reason: format!("this host cannot call tools of MCP server `{}`", mcp.server),
            });
        };
        let call = McpCall {
            server: &mcp.server,
            tool: &mcp.tool,
            input,
            ctx,
        };
        caller
            .call_tool(call)
            .await
            .map_err(|error| DispatchError::Failed {
                tool: tool.name.clone(),
                message: error.to_string(),
            })
    }

    /// The permission checks of [`permission::check`] under this dispatcher's rules and
    /// approver.
    async fn check_permissions(
        &self,
        tool: &Arc<ToolInfo>,
        input: &Value,
        subject: Option<&Subject>,
        ctx: &ToolContext<'_>,
        own_check: impl FnOnce() -> PermissionDecision,
    ) -> Result<crate::permissions::Grant, DispatchError> {
        let approver = self.approver.as_deref();
        permission::check(&self.rules, approver, tool, input, subject, ctx, own_check).await
    }
}

/// Why a call whose arguments could not be read is answered without running.
pub(crate) fn unreadable(call: &ToolCall, problem: &str) -> DispatchError {
    DispatchError::InvalidInput {
        tool: call.name.clone(),
        path: None,
        message: problem.to_owned(),
        load_hint: false,
    }
}

/// The search engine of a dispatcher's pool, built on first use.
struct PoolSearch {
    pool: Pool,
    engine: OnceLock<SearchEngine>,
}

impl ToolSearcher for PoolSearch {
    fn search(&self, query: &str, max_results: usize) -> SearchOutput {
        self.engine
            .get_or_init(|| SearchEngine::new(self.pool.to_vec(), Strategy::Keyword))
            .search(query, max_results)
    }
}

/// The text of a panic's payload (`panic!` with a message gives a `&str` or a `String`).
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "no message".to_owned()
    }
}
