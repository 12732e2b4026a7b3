//! Everything the registry's rules read, as one value.
//!
//! The design reads build flags, environment variables and settings files from wherever it runs.
//! Here they are plain data in [`Env`]: every rule is a pure function of an `Env` and its other
//! inputs, and [`Env::from_env`] is the one constructor that looks at the process.

use crate::permissions::PermissionContext;
use crate::switches::{Switches, is_truthy};

/// The compile-time gates of the tool catalog, as seen by the rules that depend on them.
///
/// The tool set itself is chosen by cargo features of the crate that defines the tools (a
/// disabled tool is not in the binary at all). Some rules also depend on those features (Brief's
/// always-load rule under `KAIROS`); the tools crate reports its features with a function that
/// fills this struct from `cfg!(feature = ...)`, so the rules stay testable for every
/// combination without recompiling.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Features {
    /// `KAIROS`: Brief and SendUserFile stay loaded.
    pub kairos: bool,
    /// `KAIROS_BRIEF`: Brief stays loaded.
    pub kairos_brief: bool,
    /// `FORK_SUBAGENT`: the fork-first Agent.
    pub fork_subagent: bool,
    /// `COORDINATOR_MODE`: coordinator mode exists.
    pub coordinator_mode: bool,
    /// `AGENT_TRIGGERS`: the cron tools.
    pub agent_triggers: bool,
    /// `WORKFLOW_SCRIPTS`: the Workflow tool.
    pub workflow_scripts: bool,
    /// The internal build: Config, Tungsten, REPL, and nested agents for sub-agents.
    pub internal_build: bool,
}

impl Features {
    /// Every feature off.
    pub fn none() -> Self {
        Features::default()
    }
}

/// Which API serves the model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Provider {
    /// The first-party API.
    #[default]
    FirstParty,
    /// Amazon Bedrock.
    Bedrock,
    /// Google Vertex AI.
    Vertex,
    /// Microsoft Foundry.
    Foundry,
}

impl Provider {
    /// Whether this is the first-party API.
    pub fn is_first_party(self) -> bool {
        self == Provider::FirstParty
    }
}

/// The host of the first-party API.
pub const FIRST_PARTY_HOST: &str = "api.anthropic.com";

/// The tool-search settings, as the variables give them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolSearchSettings {
    /// `ENABLE_TOOL_SEARCH`, unparsed; `None` when unset.
    pub enable_tool_search: Option<String>,
    /// `CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS` is truthy: no beta fields at all.
    pub kill_switch: bool,
    /// The API provider.
    pub provider: Provider,
    /// `ANTHROPIC_BASE_URL`, when set.
    pub base_url: Option<String>,
}

impl ToolSearchSettings {
    /// Whether the base URL (if any) points at the first-party host.
    pub fn base_url_is_first_party(&self) -> bool {
        match &self.base_url {
            None => true,
            Some(url) => {
                url_host(url).is_none_or(|host| host.eq_ignore_ascii_case(FIRST_PARTY_HOST))
            }
        }
    }
}

/// The host part of a URL: after `scheme://`, before the port, path, query or fragment.
fn url_host(url: &str) -> Option<&str> {
    let rest = url
        .trim()
        .split_once("://")
        .map_or(url.trim(), |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_port = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let host = if let Some(bracketed) = host_port.strip_prefix('[') {
        bracketed.split(']').next()?
    } else {
        host_port.split(':').next()?
    };
    (!host.is_empty()).then_some(host)
}

/// The inputs of every registry rule.
#[derive(Debug, Clone, Default)]
pub struct Env {
    /// The compile-time gates.
    pub features: Features,
    /// The run-time switches.
    pub switches: Switches,
    /// The tool-search settings.
    pub tool_search: ToolSearchSettings,
    /// The permission rules and mode.
    pub permissions: PermissionContext,
}

impl Env {
    /// Reads switches and tool-search settings from the process environment; `features` come
    /// from the tools crate, the permission context starts without rules, with `HOME` as the
    /// home directory of `~/` path rules.
    ///
    /// Variables: those of [`Switches::from_env`], `ENABLE_TOOL_SEARCH`,
    /// `CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS`, `CLAUDE_CODE_USE_BEDROCK`,
    /// `CLAUDE_CODE_USE_VERTEX`, `CLAUDE_CODE_USE_FOUNDRY`, `ANTHROPIC_BASE_URL`, `HOME`.
    pub fn from_env(features: Features) -> Self {
        Self::from_lookup(features, |name| std::env::var(name).ok())
    }

    /// Like [`from_env`](Self::from_env), over any variable lookup.
    pub fn from_lookup(features: Features, get: impl Fn(&str) -> Option<String>) -> Self {
        let on = |name: &str| get(name).is_some_and(|value| is_truthy(&value));
        let provider = if on("CLAUDE_CODE_USE_BEDROCK") {
            Provider::Bedrock
        } else if on("CLAUDE_CODE_USE_VERTEX") {
            Provider::Vertex
        } else if on("CLAUDE_CODE_USE_FOUNDRY") {
            Provider::Foundry
        } else {
            Provider::FirstParty
        };
        let mut permissions = PermissionContext::default();
        if let Some(home) = get("HOME").filter(|home| !home.is_empty()) {
            permissions.set_home(home);
        }
        Env {
            features,
            switches: Switches::from_lookup(&get),
            tool_search: ToolSearchSettings {
                enable_tool_search: get("ENABLE_TOOL_SEARCH"),
                kill_switch: on("CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS"),
                provider,
                base_url: get("ANTHROPIC_BASE_URL").filter(|url| !url.trim().is_empty()),
            },
            permissions,
        }
    }

    /// Coordinator mode: built with `COORDINATOR_MODE` and switched on.
    pub fn coordinator(&self) -> bool {
        self.features.coordinator_mode && self.switches.coordinator
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_url_host_is_compared_without_port_path_or_credentials() {
        let with = |url: &str| ToolSearchSettings {
            base_url: Some(url.into()),
            ..Default::default()
        };
        assert!(with("https://api.anthropic.com/v1").base_url_is_first_party());
        assert!(with("https://API.anthropic.com:443").base_url_is_first_party());
        assert!(!with("https://proxy.example.com/anthropic").base_url_is_first_party());
        assert!(!with("http://user@localhost:8080").base_url_is_first_party());
        assert!(ToolSearchSettings::default().base_url_is_first_party());
    }

    #[test]
    fn provider_comes_from_the_use_variables() {
        let env = Env::from_lookup(Features::none(), |name| {
            (name == "CLAUDE_CODE_USE_VERTEX").then(|| "1".into())
        });
        assert_eq!(env.tool_search.provider, Provider::Vertex);
    }
}
