//! One bearer token's grant on the HTTP gateway: which servers' tools and which built-ins it
//! gets, its permission rules on top of the host's, and what its `tools/list` offers. The
//! `--tokens` file of `toolreg mcp serve --http` is a list of these.
//!
//! A token's [`Gateway`] exposes exactly what its policy grants: the tools of its servers (all
//! servers when `servers` is absent) and its built-ins, none that a deny rule names as a whole.
//! Everything else — another token's tools, unknown names — is refused by that gateway as a
//! tool it does not offer.

use serde::Deserialize;
use toolreg::{Behavior, Dispatcher, RuleSource, ToolInfo};

use crate::{Gateway, GatewayMode};

/// One token's grant, as the tokens file writes it.
#[derive(Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenPolicy {
    /// The bearer token (the CLI expands `${VAR}` in it before use).
    pub token: String,
    /// The MCP servers whose tools it gets, by configured name; all when absent.
    pub servers: Option<Vec<String>>,
    /// Built-ins it gets too, by name.
    #[serde(default)]
    pub builtins: Vec<String>,
    /// Permission rules (`allow`) on top of the host's.
    #[serde(default)]
    pub allow: Vec<String>,
    /// Permission rules (`deny`) on top of the host's; a tool denied as a whole is not exposed.
    #[serde(default)]
    pub deny: Vec<String>,
    /// What its `tools/list` offers; the host's choice when absent.
    pub mode: Option<GatewayMode>,
}

impl std::fmt::Debug for TokenPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the token.
        f.debug_struct("TokenPolicy")
            .field("servers", &self.servers)
            .field("builtins", &self.builtins)
            .field("allow", &self.allow)
            .field("deny", &self.deny)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl TokenPolicy {
    /// Whether the policy grants `tool` before any rule: one of its servers' tools, or one of
    /// its built-ins.
    pub fn grants(&self, tool: &ToolInfo) -> bool {
        match tool.mcp() {
            Some(mcp) => (self.servers.as_ref()).is_none_or(|names| names.contains(&mcp.server)),
            None => self.builtins.contains(&tool.name),
        }
    }

    /// This token's gateway over `dispatcher`'s pool: the host's rules with the policy's added,
    /// exposing the tools it grants that no deny rule names as a whole, in the policy's mode
    /// (or `mode` when it names none).
    pub fn gateway(&self, dispatcher: &Dispatcher, mode: GatewayMode) -> Gateway {
        let mut rules = dispatcher.permissions().clone();
        for rule in &self.allow {
            rules.add(Behavior::Allow, RuleSource::Session, rule);
        }
        for rule in &self.deny {
            rules.add(Behavior::Deny, RuleSource::Session, rule);
        }
        let denied = rules.clone();
        let expose = |tool: &ToolInfo| {
            self.grants(tool) && denied.deny_rule_for_tool(tool.rule_target()).is_none()
        };
        Gateway::new(
            dispatcher.clone().with_permissions(rules),
            expose,
            self.mode.unwrap_or(mode),
        )
    }
}
