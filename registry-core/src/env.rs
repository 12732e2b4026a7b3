//! Everything the registry's rules read besides the permission rules, as one value.
//!
//! The design reads build flags, environment variables and settings files from wherever it runs.
//! Here they are plain data in [`Env`]: every rule is a pure function of an `Env` and its other
//! inputs (the permission rules, a [`PermissionContext`](crate::PermissionContext), are one of
//! those, passed on their own to the stages that read them). Reading them from the process is a profile's business, at the edge
//! ([`claude_code::env_from_env`](crate::claude_code::env_from_env) for the design's).

use std::sync::Arc;

use crate::profile::{Gates, Generic, Profile};
pub use crate::switches::{Features, Switches};

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
    /// The tool-search mode setting, unparsed ([`tool_search_mode`](crate::defer::tool_search_mode)
    /// reads it); `None` when unset.
    pub enable_tool_search: Option<String>,
    /// The kill switch is on: no beta fields at all.
    pub kill_switch: bool,
    /// The API provider.
    pub provider: Provider,
    /// The API's base URL, when set.
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
#[derive(Debug, Clone)]
pub struct Env {
    /// The product's tool policy; [`Generic`] (nothing singled out) by default.
    pub profile: Arc<dyn Profile>,
    /// The compile-time gates.
    pub features: Features,
    /// The run-time switches.
    pub switches: Switches,
    /// The tool-search settings.
    pub tool_search: ToolSearchSettings,
}

impl Default for Env {
    fn default() -> Self {
        Env::with_profile(Generic)
    }
}

impl Env {
    /// An environment under `profile`: no features, every switch off, default tool-search
    /// settings.
    pub fn with_profile(profile: impl Profile + 'static) -> Self {
        Env {
            profile: Arc::new(profile),
            features: Features::none(),
            switches: Switches::none(),
            tool_search: ToolSearchSettings::default(),
        }
    }

    /// The flags the profile's rules read.
    pub fn gates(&self) -> Gates<'_> {
        Gates {
            features: &self.features,
            switches: &self.switches,
        }
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
}
