//! One bearer token's grant on the HTTP gateway: which servers' tools and which built-ins it
//! gets, its permission rules on top of the host's, and what its `tools/list` offers. The
//! `--tokens` file of `toolreg mcp serve --http` is a list of these.
//!
//! A token's [`Gateway`] exposes exactly what its policy grants: the tools of its servers (all
//! servers when `servers` is absent) and its built-ins, none that a deny rule names as a whole.
//! Everything else — another token's tools, unknown names — is refused by that gateway as a
//! tool it does not offer.

use serde::Deserialize;
use toolreg::permissions::RuleValue;
use toolreg::{Behavior, Dispatcher, RuleSource, ToolInfo};

use crate::config::{ConfigError, variables, without_quoted_strings};
use crate::{Gateway, GatewayMode};

/// The tokens file of `toolreg mcp serve --http --tokens FILE`: `{"tokens": [policy, …]}`, each
/// a [`TokenPolicy`].
///
/// ```
/// use toolreg_mcp::policy::TokensFile;
/// let file = TokensFile::parse(r#"{"tokens": [{"token": "${CI_TOKEN}", "servers": ["git"]}]}"#)?;
/// assert_eq!(file.tokens.len(), 1);
/// assert_eq!(file.referenced_variables(), ["CI_TOKEN"]);
/// # Ok::<(), toolreg_mcp::ConfigError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokensFile {
    /// The policies, in the file's order: a token is named by its index (`tokens[2]`) in
    /// messages and logs, never by its value.
    pub tokens: Vec<TokenPolicy>,
}

impl TokensFile {
    /// Reads a tokens file from JSON text.
    ///
    /// # Errors
    /// What is wrong and where (`tokens[1].mode: unknown variant …`); a message never quotes a
    /// string of the file (a token written where something else belongs would be printed).
    pub fn parse(text: &str) -> Result<TokensFile, ConfigError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let file: TokensFile = serde_path_to_error::deserialize(&mut de).map_err(|error| {
            let path = error.path().to_string();
            let message = if path.ends_with(".token") {
                "expected a string: the token, or `${VAR}` to read it from the environment".into()
            } else {
                without_quoted_strings(&error.inner().to_string())
            };
            ConfigError::Invalid { path, message }
        })?;
        for (index, policy) in file.tokens.iter().enumerate() {
            for (list, rules) in [("allow", &policy.allow), ("deny", &policy.deny)] {
                for (at, rule) in rules.iter().enumerate() {
                    if let Err(error) = rule.parse::<RuleValue>() {
                        return Err(ConfigError::Invalid {
                            path: format!("tokens[{index}].{list}[{at}]"),
                            message: format!("not a permission rule: {}", error.reason()),
                        });
                    }
                }
            }
        }
        Ok(file)
    }

    /// The environment variables the tokens are read from (`${VAR}` in `token`), each once,
    /// sorted: what a host hides from the processes it starts.
    pub fn referenced_variables(&self) -> Vec<String> {
        let names: std::collections::BTreeSet<&str> = (self.tokens.iter())
            .flat_map(|policy| variables(&policy.token))
            .collect();
        names.into_iter().map(str::to_owned).collect()
    }
}

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
            Some(mcp) => (self.servers.as_ref())
                .is_none_or(|names| names.iter().any(|name| **name == *mcp.server)),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_rule_in_a_tokens_file_is_an_error_naming_its_place_not_its_text() {
        let error = TokensFile::parse(
            r#"{"tokens": [{"token": "t", "deny": ["Read(./secrets/**)", "Bash(sk-live-x"]}]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.starts_with("tokens[0].deny[1]: not a permission rule: the `(` at byte 4"),
            "{error}"
        );
        assert!(!error.contains("sk-live"), "{error}");
    }

    #[test]
    fn a_tokens_file_error_names_the_place_and_never_the_token() {
        let error = |text: &str| TokensFile::parse(text).unwrap_err().to_string();
        let leaked = error(r#"{"tokens": [{"token": "abc", "servers": "sk-live-not-a-list"}]}"#);
        assert!(
            leaked.starts_with("tokens[0].servers: invalid type: string, expected a sequence")
                && !leaked.contains("sk-live"),
            "{leaked}"
        );
        let number = error(r#"{"tokens": [{"token": 1234567890123456789}]}"#);
        assert!(
            number.starts_with("tokens[0].token: expected a string") && !number.contains("1234"),
            "{number}"
        );
        assert!(
            error(r#"{"tokens": [{"tokn": "x"}]}"#).starts_with("tokens[0].tokn: unknown field")
        );
    }

    #[test]
    fn a_policy_prints_everything_but_its_token() {
        let policy = TokenPolicy {
            token: "policy-secret-0123456789".into(),
            builtins: vec!["Read".into()],
            ..TokenPolicy::default()
        };
        let debug = format!("{policy:?}");
        assert!(
            debug.contains("Read") && !debug.contains("policy-secret"),
            "{debug}"
        );
    }
}
