//! What one server may cost the host: time ([`Timeouts`]) and size ([`Limits`]).
//!
//! Every wait on a server ends, and everything kept from it is bounded, whatever it sends:
//!
//! * connecting ends at [`Timeouts::connect`], listing at [`Timeouts::list`];
//! * a call ends when the server sends neither its answer nor progress for [`Timeouts::call`],
//!   and in any case at [`Timeouts::call_total`], however much progress it sends (the spec's
//!   "SHOULD always enforce a maximum timeout"); the error says which of the two ended it, and
//!   the server is told with `notifications/cancelled`;
//! * a `tools/list` page over [`Limits::max_page_bytes`], a listing of more than
//!   [`Limits::max_pages`] pages or over [`Limits::max_list_bytes`] in all fails the server
//!   (it is not connected, and its status names the limit): a list cut by size would be a
//!   silently different tool set. Entries past [`Limits::max_listed_tools`] are cut, and loading
//!   reports the excess (the registry's own cap on tools per server);
//! * a call's result over [`Limits::max_result_chars`] is cut as dispatch cuts a built-in's
//!   output, the cut marked in the result (an image past it is replaced by a note).
//!
//! Not bounded here: one message before it is parsed. rmcp reads a server's messages a line
//! at a time up to 16 MiB and drops a longer one unread; a call whose answer it dropped ends
//! at [`Timeouts::call`].

use std::time::Duration;

/// How long connecting and calling may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// Starting the process and the handshake. Default 30 s (Python servers take 2–4 s to
    /// answer on a loaded machine).
    pub connect: Duration,
    /// One `tools/list` (all its pages). Default 30 s.
    pub list: Duration,
    /// One `tools/call` without an answer or progress: each progress notification restarts
    /// it. Default 120 s.
    pub call: Duration,
    /// One `tools/call` in all, progress or not. Default 15 min.
    pub call_total: Duration,
    /// How long after a failed connection [`McpHub::reconnect`](crate::McpHub::reconnect)
    /// first tries again; the wait doubles with each failure. Default 1 s.
    pub retry_after: Duration,
    /// The longest wait between tries. Default 60 s.
    pub retry_max: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            connect: Duration::from_secs(30),
            list: Duration::from_secs(30),
            call: Duration::from_secs(120),
            call_total: Duration::from_secs(15 * 60),
            retry_after: Duration::from_secs(1),
            retry_max: Duration::from_secs(60),
        }
    }
}

/// The most tool entries kept from one server's `tools/list` pages by default: one more than
/// [`McpLimits::max_tools_per_server`](toolreg::mcp::McpLimits)'s default, so loading
/// reports the excess.
pub const MAX_LISTED_TOOLS: usize = 10_001;

/// How much of a server's output is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of one `tools/list` page, as compact JSON. Default 8 MiB (the eleven real
    /// servers of the fixtures send 300 KB together).
    pub max_page_bytes: usize,
    /// Pages of one listing. Default 1,000.
    pub max_pages: usize,
    /// Bytes of one listing, all its pages, as compact JSON. Default 32 MiB.
    pub max_list_bytes: usize,
    /// Tool entries kept from one listing; the rest are cut. Default [`MAX_LISTED_TOOLS`].
    pub max_listed_tools: usize,
    /// Characters of one `tools/call` result (its text, or its JSON as text; across all its
    /// blocks). Default 100,000.
    pub max_result_chars: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_page_bytes: 8 * 1024 * 1024,
            max_pages: 1000,
            max_list_bytes: 32 * 1024 * 1024,
            max_listed_tools: MAX_LISTED_TOOLS,
            max_result_chars: 100_000,
        }
    }
}
