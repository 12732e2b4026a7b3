//! The [`Dispatcher`]: one call, from the model's JSON to a result.

use std::collections::HashSet;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use futures_util::FutureExt as _;
use serde_json::Value;

use super::schema_check;
use super::turn::CancellationToken;
use crate::DispatchError;
use crate::dispatch::{McpCall, McpCaller};
use crate::{Approval, Approver, ToolResult, ToolUse};

use crate::Env;
use crate::ToolInfo;
use crate::permissions::{Access, Grant, Subject, Verdict};
use crate::sandbox::{EnvPolicy, Sandboxing};
use crate::search::{SearchOutput, ToolSearcher};
use crate::tool::ProgressSink;
use crate::tool::json_kind;
use crate::{PermissionContext, PermissionMode, Pool};
use crate::{PermissionDecision, ToolOutput};
use crate::{SearchEngine, Strategy};
use crate::{State, ToolContext};

/// Everything a call needs besides itself: the rules, the pool, the host's state and its MCP
/// caller and approver. Owned, `Send + Sync`, cheap to clone.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use toolreg::{Catalog, Dispatcher, Env, PermissionContext, ToolUse, TurnOptions, assemble_tool_pool, builtins};
/// use serde_json::json;
///
/// let (env, rules) = (Env::default(), PermissionContext::new());
/// let pool = assemble_tool_pool(&env, &rules, &Catalog::new(builtins().unwrap(), &[]), &[]);
/// let dispatcher = Dispatcher::new(env, rules, pool, ".");
/// let calls = [
///     ToolUse::new("t1", "ToolSearch", json!({"query": "anything"})),
///     ToolUse::new("t2", "NoSuchTool", json!({})),
/// ];
/// let turn = dispatcher.run_turn(&calls, &TurnOptions::default()).await;
/// assert!(!turn.results[0].is_error());
/// // A tool outside the pool is refused, never run; the model reads why.
/// assert!(turn.results[1].is_error());
/// assert_eq!(turn.to_message()["content"][1]["tool_use_id"], "t2");
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
    /// [`SearchEngine`] over its pool (the seed strategy) the first time ToolSearch runs.
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

    /// Runs one `tool_use` and returns its `tool_result`.
    pub async fn dispatch(&self, call: &ToolUse) -> ToolResult {
        let tool = self.pool.find(&call.name);
        self.dispatch_in(call, tool, &CancellationToken::new(), None)
            .await
    }

    /// [`dispatch`](Self::dispatch) within a turn, of the tool the turn found for the call:
    /// tools see `cancel` and report to `progress`.
    pub(crate) async fn dispatch_in(
        &self,
        call: &ToolUse,
        tool: Option<&Arc<ToolInfo>>,
        cancel: &CancellationToken,
        progress: Option<&ProgressSink>,
    ) -> ToolResult {
        let Some(tool) = tool else {
            return ToolResult::from_error(
                &call.id,
                DispatchError::NotInPool {
                    name: call.name.clone(),
                },
            );
        };
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
        let run = AssertUnwindSafe(self.run(tool, &call.input, &ctx)).catch_unwind();
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
        tool: &ToolInfo,
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
        let grant = self
            .check_permissions(tool, input, subject.as_ref(), ctx, || {
                parsed.check_permissions(ctx)
            })
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
        tool: &ToolInfo,
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
        let grant = self
            .check_permissions(tool, input, None, ctx, || PermissionDecision::Passthrough)
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

    async fn check_permissions(
        &self,
        tool: &ToolInfo,
        input: &Value,
        subject: Option<&Subject>,
        ctx: &ToolContext<'_>,
        own_check: impl FnOnce() -> PermissionDecision,
    ) -> Result<Grant, DispatchError> {
        let rules = &*self.rules;
        let mut by_rule = false;
        let decision = match rules.check(tool.rule_target(), subject, ctx.cwd) {
            Verdict::Deny(refusal) => {
                return Err(DispatchError::Denied {
                    tool: tool.name.clone(),
                    refusal,
                });
            }
            Verdict::Ask(reason) => PermissionDecision::Ask(reason),
            Verdict::Allow => {
                by_rule = true;
                PermissionDecision::Allow
            }
            Verdict::Undecided => match own_check() {
                PermissionDecision::Passthrough
                    if tool.flags.destructive && !accepted_edit(rules.mode, subject) =>
                {
                    PermissionDecision::Ask(format!(
                        "{} is marked destructive and no rule allows it",
                        tool.name
                    ))
                }
                decision => decision,
            },
        };
        let reason = match decision {
            PermissionDecision::Allow | PermissionDecision::Passthrough if by_rule => {
                return Ok(Grant::Rule);
            }
            PermissionDecision::Allow | PermissionDecision::Passthrough => {
                return Ok(Grant::Unasked);
            }
            PermissionDecision::Deny(reason) => {
                return Err(DispatchError::DeniedByTool {
                    tool: tool.name.clone(),
                    reason,
                });
            }
            PermissionDecision::Ask(_) if rules.mode == PermissionMode::BypassPermissions => {
                return Ok(Grant::Bypass);
            }
            PermissionDecision::Ask(reason) => reason,
        };
        let Some(approver) = &self.approver else {
            return Err(DispatchError::NeedsApproval {
                tool: tool.name.clone(),
                reason,
            });
        };
        let request = Approval {
            tool,
            input,
            reason: &reason,
            tool_use_id: ctx.tool_use_id(),
        };
        if approver.approve(request).await {
            Ok(Grant::Approved)
        } else {
            Err(DispatchError::NotApproved {
                tool: tool.name.clone(),
                reason,
            })
        }
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
            .get_or_init(|| SearchEngine::new(self.pool.to_vec(), Strategy::Seed))
            .search(query, max_results)
    }
}

/// In [`PermissionMode::AcceptEdits`], a file write (inside the working directories: one
/// outside already asks) needs no asking for being destructive.
fn accepted_edit(mode: PermissionMode, subject: Option<&Subject>) -> bool {
    mode == PermissionMode::AcceptEdits
        && matches!(subject, Some(Subject::Path(path)) if path.access == Access::Write)
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

/// Marks an output cut to the tool's limit.
pub const OUTPUT_TRUNCATED: &str = "\n… [output truncated]";

/// `output` cut to `limit` characters (as text, for JSON), the cut marked with
/// [`OUTPUT_TRUNCATED`]; images and block lists are returned as they are. What dispatch does
/// with a tool's `max_result_size_chars`, for a host that caps output of its own.
pub fn cap_output(output: ToolOutput, limit: Option<usize>) -> ToolOutput {
    let Some(limit) = limit else {
        return output;
    };
    let text = match output {
        ToolOutput::Blocks(blocks) => return ToolOutput::Blocks(blocks),
        image @ ToolOutput::Image { .. } => return image,
        ToolOutput::Text(text) => text,
        ToolOutput::Json(value) => {
            let text = value.to_string();
            if text.chars().count() <= limit {
                return ToolOutput::Json(value);
            }
            text
        }
    };
    if text.chars().count() <= limit {
        return ToolOutput::Text(text);
    }
    let mut cut: String = text.chars().take(limit).collect();
    cut.push_str(OUTPUT_TRUNCATED);
    ToolOutput::Text(cut)
}
