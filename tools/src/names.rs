//! The built-in tools' names: the registry's constants, re-exported so the tools and the rules
//! that single them out share one spelling.

pub use registry_core::names::*;
