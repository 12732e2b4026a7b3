//! Everything the registry's rules read besides the permission rules, as one value.
//!
//! The design reads build flags, environment variables and settings files from wherever it runs.
//! Here they are plain data in [`Env`](crate::Env): every rule is a pure function of an `Env` and its other
//! inputs (the permission rules, a [`PermissionContext`](crate::PermissionContext), are one of
//! those, passed on their own to the stages that read them). Reading them from the process is a profile's business, at the edge
//! (`toolreg_tools::profile::env_from_env` for the design's: its
//! variables, their grammar and the provider hosts live there).

pub(crate) mod callers;
pub(crate) mod profile;
pub(crate) mod settings;

pub use crate::tool::switches::{Features, Switches, is_falsy, is_truthy};
pub use callers::CallerRules;
pub use profile::{AgentKind, Betas, Gates};
pub use settings::{Provider, ToolSearchMode, ToolSearchSettings};
