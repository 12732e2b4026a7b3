//! The [`Env`] value and its typed settings.

use std::sync::Arc;

use super::{CallerRules, Gates};
use crate::tool::switches::{Features, Switches};

use crate::{Generic, Profile};

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

/// How tool search is configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolSearchMode {
    /// Off: every tool is sent in full.
    Standard,
    /// On whenever the model and pool allow it.
    Always,
    /// On when the deferred tools take at least this percentage of the context window.
    Auto {
        /// 1..=99.
        percent: u8,
    },
}

/// The tool-search settings, typed. A profile reads them from wherever its product keeps them
/// (the design's: `toolreg_tools::profile::env_from_env`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolSearchSettings {
    /// The mode the user chose; `None` when they chose none, which is
    /// [`Always`](ToolSearchMode::Always) except behind a proxy
    /// ([`tool_search_might_be_on`](crate::search::tool_search_might_be_on)).
    pub mode: Option<ToolSearchMode>,
    /// The kill switch: no beta fields at all, so tool search is off and requests carry only
    /// each tool's name, description, schema and cache mark.
    pub kill_switch: bool,
    /// The API provider.
    pub provider: Provider,
    /// Requests go to a base URL other than the provider's own API host (a proxy or gateway,
    /// which may reject beta fields).
    pub proxied: bool,
}

/// The inputs of every registry rule.
///
/// ```
/// use toolreg::Env;
///
/// let mut env = Env::default();
/// env.switches.set("beta_tools", true);
/// assert!(env.switches.is_on("beta_tools"));
/// ```
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
    /// Who may call which tools, beyond what each tool declares.
    pub callers: CallerRules,
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
            callers: CallerRules::new(),
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
