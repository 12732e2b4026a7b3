//! The pool: the ordered list of tools offered to the model for one request, and how it is
//! assembled.
//!
//! Built-ins and MCP tools are sorted separately and concatenated, built-ins first, so the
//! built-ins stay one contiguous prefix: a flat sort would slide MCP tools between built-ins and
//! change every byte of the rendered block after them, and with it the prompt-cache key. Both
//! partitions sort with [`compare_names`](crate::tool::compare_names), which ignores locale.

pub(crate) mod agents;
pub(crate) mod assemble;
pub(crate) mod catalog;
pub(crate) mod info;

pub use agents::{filter_tools_for_agent, is_allowed_for_agent};
pub use assemble::merge_and_filter_tools;
pub use catalog::{get_all_base_tools, get_tools};
pub use info::Origin;
pub(crate) use info::find_tool;
