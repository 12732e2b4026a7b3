//! Agent contexts: the pool each kind of agent gets.

use crate::{Env, Pool, ToolInfo};

pub use crate::env::AgentKind;

/// Whether an agent of `kind` may use `tool` under `env`'s profile.
pub fn is_allowed_for_agent(tool: &ToolInfo, kind: AgentKind, env: &Env) -> bool {
    env.profile.allowed_for_agent(tool, kind, env.gates())
}

/// The pool an agent of `kind` gets from `pool`, order kept.
///
/// Which tools an agent of each [`AgentKind`] may use is the profile's rule
/// ([`Profile::allowed_for_agent`](crate::env::profile::Profile::allowed_for_agent)); filtering
/// keeps the pool's order.
pub fn filter_tools_for_agent(pool: &Pool, kind: AgentKind, env: &Env) -> Pool {
    pool.filter(|tool| is_allowed_for_agent(tool, kind, env))
}
