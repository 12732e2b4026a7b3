//! Profiles: a product's tool policy, as data and a few functions the generic machinery calls.

use std::fmt;
use std::sync::Arc;

use crate::tool::switches::{Features, Switches};
use crate::{ToolDescriptor, ToolInfo};

#[cfg(doc)]
use crate::Env;

/// Which agent a pool is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AgentKind {
    /// The main thread.
    Main,
    /// A sub-agent started by an agent tool.
    SubAgent,
    /// A user-defined agent.
    CustomAgent,
    /// A background (async) agent.
    Async,
    /// An in-process teammate of an agent swarm.
    InProcessTeammate,
    /// The coordinator of a coordinator mode.
    Coordinator,
}

impl AgentKind {
    /// Every kind.
    pub const ALL: [AgentKind; 6] = [
        AgentKind::Main,
        AgentKind::SubAgent,
        AgentKind::CustomAgent,
        AgentKind::Async,
        AgentKind::InProcessTeammate,
        AgentKind::Coordinator,
    ];
}

/// The flags a profile's rules read: the build's features and the run's switches.
#[derive(Debug, Clone, Copy)]
pub struct Gates<'a> {
    /// The compile-time gates.
    pub features: &'a Features,
    /// The run-time switches.
    pub switches: &'a Switches,
}

/// A product's tool policy. Each method's default singles nothing out.
///
/// The catalog, pool assembly, deferral and agent contexts know no tool by name. Where a
/// product singles tools out — a reduced set in some mode, tools a host adds itself, tools one
/// wrapper hides, tools kept loaded whatever their flag, what each kind of agent may use — the
/// machinery asks the [`Profile`] in [`Env::profile`](crate::Env::profile). Every method has a
/// default that singles nothing out, which is [`Generic`], the profile of [`Env::default`]:
/// a user's own catalog gets exactly the rules its tools' attributes state.
///
/// `toolreg_tools::profile` is the design's profile (`docs/design.md`):
/// its built-in names, agent sets, simple and REPL modes, and the environment variables that
/// set its switches. The built-in tools and the CLI use it; a user may use it, wrap it (call it
/// from their own `impl Profile` and change what they need), or use none.
///
/// ```
/// use toolreg::env::{AgentKind, Gates};
/// use toolreg::{Env, Profile, ToolInfo};
///
/// /// Background agents may not use tools whose name starts with `admin_`.
/// #[derive(Debug)]
/// struct NoAdminInBackground;
///
/// impl Profile for NoAdminInBackground {
///     fn name(&self) -> &str {
///         "no-admin-in-background"
///     }
///     fn allowed_for_agent(&self, tool: &ToolInfo, kind: AgentKind, _: Gates<'_>) -> bool {
///         kind != AgentKind::Async || !tool.name.starts_with("admin_")
///     }
/// }
///
/// let env = Env::with_profile(NoAdminInBackground);
/// let tool = ToolInfo::new("admin_reset", "Resets everything.");
/// assert!(env.profile.allowed_for_agent(&tool, AgentKind::Main, env.gates()));
/// assert!(!env.profile.allowed_for_agent(&tool, AgentKind::Async, env.gates()));
/// ```
pub trait Profile: fmt::Debug + Send + Sync {
    /// The profile's name, for diagnostics.
    fn name(&self) -> &str;

    /// Whether a compiled-in built-in whose own gate holds is in the base list. Default: yes.
    fn in_base_list(&self, tool: &ToolDescriptor, gates: Gates<'_>) -> bool {
        let _ = (tool, gates);
        true
    }

    /// Whether a built-in is in the base list but never offered by
    /// [`offered_builtins`](crate::pool::offered_builtins): a host adds it itself when it needs it. Default: no.
    fn is_special(&self, name: &str) -> bool {
        let _ = name;
        false
    }

    /// A reduced set that replaces the whole offer of built-ins in some mode, in order; names
    /// `compiled` says are not compiled in are skipped. `None` (the default) is the ordinary
    /// offer.
    fn reduced_offer(
        &self,
        gates: Gates<'_>,
        compiled: &dyn Fn(&str) -> bool,
    ) -> Option<Vec<&'static str>> {
        let _ = (gates, compiled);
        None
    }

    /// Built-ins hidden from an offer that holds `offered` (a wrapper that subsumes them is
    /// present). Default: none.
    fn hidden(&self, gates: Gates<'_>, offered: &[Arc<ToolInfo>]) -> &'static [&'static str] {
        let _ = (gates, offered);
        &[]
    }

    /// Overrides a built-in's `defer` flag: `Some(false)` keeps it loaded, `Some(true)` defers
    /// it. Consulted after the rules every profile shares (always-load, MCP, ToolSearch).
    /// Default: `None`, the flag decides.
    fn deferral(&self, tool: &ToolInfo, gates: Gates<'_>) -> Option<bool> {
        let _ = (tool, gates);
        None
    }

    /// Whether an agent of `kind` may use `tool` (a built-in or an MCP tool). Default: yes.
    fn allowed_for_agent(&self, tool: &ToolInfo, kind: AgentKind, gates: Gates<'_>) -> bool {
        let _ = (tool, kind, gates);
        true
    }

    /// Whether `tool` stays in the final pool of
    /// [`merge_and_filter_tools`](crate::pool::merge_and_filter_tools). Default: yes.
    fn keeps_in_final_pool(&self, tool: &ToolInfo, gates: Gates<'_>) -> bool {
        let _ = (tool, gates);
        true
    }

    /// Model names (matched as lower-case substrings) that cannot use tool references, so tool
    /// search is off for them (`docs/design.md` §8.4). Default: none, every model is assumed able;
    /// a request can name its own list ([`RequestModel`](crate::search::RequestModel)).
    fn models_without_tool_references(&self) -> &'static [&'static str] {
        &[]
    }

    /// The `anthropic-beta` header values a request with deferred tools carries, per provider.
    /// Default: `None`, the API's current ones ([`Betas::CURRENT`]).
    fn betas(&self) -> Option<Betas> {
        None
    }
}

/// The `anthropic-beta` header values deferred loading needs: one for the first-party API, one
/// for the other clouds (Bedrock, Vertex, Foundry). `None` sends no header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Betas {
    /// On the first-party API.
    pub first_party: Option<&'static str>,
    /// On Bedrock, Vertex and Foundry.
    pub other_clouds: Option<&'static str>,
}

impl Betas {
    /// Today's API: tool search is generally available on the first-party API (no header); the
    /// other clouds still take the tool-search beta.
    pub const CURRENT: Betas = Betas {
        first_party: None,
        other_clouds: Some("tool-search-tool-2025-10-19"),
    };

    /// The header for a request to the first-party API or to another cloud.
    pub fn header(self, first_party: bool) -> Option<&'static str> {
        if first_party {
            self.first_party
        } else {
            self.other_clouds
        }
    }
}

/// The profile that singles nothing out: every tool as its attributes state it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Generic;

impl Profile for Generic {
    fn name(&self) -> &str {
        "generic"
    }
}
