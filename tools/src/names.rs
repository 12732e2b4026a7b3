//! The built-in tools' names and the design's switch and feature names: the profile's
//! constants ([`toolreg::claude_code`]), re-exported so the tools and the rules that
//! single them out share one spelling.

pub use toolreg::claude_code::names::*;
pub use toolreg::claude_code::{feature, switch};
