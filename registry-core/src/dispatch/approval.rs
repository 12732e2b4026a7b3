//! Asking the user: the [`ApprovalRequest`] for a call that needs asking, and the host's
//! [`Approver`] that answers it.

use std::future::Future;
use std::sync::Arc;

use serde_json::Value;

use crate::ToolInfo;
use crate::tool::BoxFuture;

/// A question for the user: may this call run?
#[derive(Debug, Clone)]
pub struct ApprovalRequest {
    /// The tool, as the pool holds it.
    pub tool: Arc<ToolInfo>,
    /// The call's input.
    pub input: Value,
    /// Why it asks (a rule, the working-directory boundary, the tool's own check, its
    /// `destructive` flag).
    pub reason: String,
    /// The id of the call.
    pub tool_use_id: String,
}

/// Answers "may this call run?" for the [`Dispatcher`](crate::Dispatcher).
///
/// Any `Fn(ApprovalRequest) -> impl Future<Output = bool>` is an approver:
///
/// ```
/// use std::sync::Arc;
/// use toolreg::{ApprovalRequest, Dispatcher, Env, PermissionContext, Pool};
///
/// async fn ask_on_terminal(request: ApprovalRequest) -> bool {
///     eprintln!("run {}? ({})", request.tool.name, request.reason);
///     false // read the answer here
/// }
///
/// let dispatcher = Dispatcher::new(Env::default(), PermissionContext::new(), Pool::default(), ".")
///     .with_approver(Arc::new(ask_on_terminal));
/// ```
pub trait Approver: Send + Sync {
    /// Resolves to `true` to run the call.
    fn approve(&self, request: ApprovalRequest) -> BoxFuture<'_, bool>;
}

impl<F, Fut> Approver for F
where
    F: Fn(ApprovalRequest) -> Fut + Send + Sync,
    Fut: Future<Output = bool> + Send + 'static,
{
    fn approve(&self, request: ApprovalRequest) -> BoxFuture<'_, bool> {
        Box::pin(self(request))
    }
}
