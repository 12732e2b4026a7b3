//! The permission checks of a call: the rules decide first, then the tool's own check, then a
//! destructive tool asks; a call that needs asking goes to the host's [`Approver`].

use std::sync::Arc;

use serde_json::Value;

use super::approval::{ApprovalRequest, Approver};
use crate::permissions::{Access, Grant, Subject, Verdict};
use crate::{DispatchError, PermissionContext, PermissionDecision, PermissionMode};
use crate::{ToolContext, ToolInfo};

/// What the permission checks grant a call of `tool` with `input` (its `subject` resolved),
/// or why it may not run. The rules decide first ([`PermissionContext::check`]): a deny
/// refuses, an ask asks, an allow allows; when no rule decides, `own_check` (the tool's
/// `check_permissions`) does, and a destructive tool asks unless it allows. In
/// `BypassPermissions` mode nothing asks; without an approver a call that needs asking is
/// refused.
pub(super) async fn check(
    rules: &PermissionContext,
    approver: Option<&dyn Approver>,
    tool: &Arc<ToolInfo>,
    input: &Value,
    subject: Option<&Subject>,
    ctx: &ToolContext<'_>,
    own_check: impl FnOnce() -> PermissionDecision,
) -> Result<Grant, DispatchError> {
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
    let Some(approver) = approver else {
        return Err(DispatchError::NeedsApproval {
            tool: tool.name.clone(),
            reason,
        });
    };
    let request = ApprovalRequest {
        tool: Arc::clone(tool),
        input: input.clone(),
        reason: reason.clone(),
        tool_use_id: ctx.tool_use_id().to_owned(),
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

/// In [`PermissionMode::AcceptEdits`], a file write (inside the working directories: one
/// outside already asks) needs no asking for being destructive.
fn accepted_edit(mode: PermissionMode, subject: Option<&Subject>) -> bool {
    mode == PermissionMode::AcceptEdits
        && matches!(subject, Some(Subject::Path(path)) if path.access == Access::Write)
}
