//! The built-in tools' names and the design's switch and feature names: the profile's
//! constants ([`registry_core::claude_code`]), re-exported so the tools and the rules that
//! single them out share one spelling.

pub use registry_core::claude_code::names::*;
pub use registry_core::claude_code::{feature, switch};
