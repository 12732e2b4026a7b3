//! Who may call each tool of a pool: the application's [`CallerRules`](crate::env::CallerRules)
//! where one names the tool, else what the tool declares. Pool assembly decides it once per
//! tool and records it in the tool ([`ToolInfo::allowed_callers`]); rendering sends it and
//! dispatch enforces it, neither asks the environment.

use std::sync::Arc;

use crate::{Env, ToolInfo};

/// Records in each tool of `tools` that a caller rule of `env` names the callers the rules
/// allow; the others are left as they are and stay shared.
pub(crate) fn decide_callers(tools: &mut [Arc<ToolInfo>], env: &Env) {
    if env.callers.is_empty() {
        return;
    }
    for tool in tools {
        let decided = env.callers.callers_of(tool.rule_target());
        if decided.is_some() && decided != tool.allowed_callers {
            Arc::make_mut(tool).allowed_callers = decided;
        }
    }
}
