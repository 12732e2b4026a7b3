//! The keyword strategy: the design's ToolSearch, exactly (`docs/design.md` §9).
//!
//! 1. `select:a,b` (case-insensitive prefix, no leading space): each name looked up exactly
//!    among deferred tools, then the whole pool; canonical names, de-duplicated, request order,
//!    not capped.
//! 2. The query lower-cased and trimmed; a tool whose lower-cased name equals it (deferred
//!    first, then the pool) is the one answer.
//! 3. A query starting with `mcp__`, longer than 5: deferred tools whose lower-cased name starts
//!    with it, pool order, capped; none → go on.
//! 4. Terms split on whitespace; `+x` (longer than `+`) is required. Scoring terms are required
//!    then optional when any are required, else all.
//! 5. Required terms filter the deferred tools: each must be a name part, inside a name part,
//!    or a word of the description or search hint.
//! 6. Scores per term: equal name part +12 (MCP) / +10, else inside a part +6 / +5; then, only
//!    while the tool's running total is 0, +3 when the full name contains the term; +4 for a
//!    hint word match; +2 for a description word match.
//! 7. Scores above 0, best first, ties in pool order, cut to `max_results`.
//!
//! The rules live here ([`ToolText`]); `scan` applies them to every tool, the readable
//! reference; [`index`] answers the same queries from an inverted index with equal results;
//! [`shards`] splits that index so that one MCP server's changed tools re-index alone.

pub mod index;
#[cfg(any(test, feature = "internals"))]
pub mod scan;
pub mod shards;

#[cfg(any(test, feature = "internals"))]
pub use scan::{fast_path, rank, search};

use crate::document::Document;
use crate::text::{NameParts, matches_word, parse_tool_name};

/// The text of one tool that the keyword rules read, lower-cased once.
#[derive(Debug, Clone, Default)]
pub struct ToolText {
    /// The name's parts.
    pub name: NameParts,
    /// The lower-cased description.
    pub description: String,
    /// The lower-cased search hint, empty when none.
    pub hint: String,
}

impl ToolText {
    /// Prepares a tool.
    pub fn new(tool: &impl Document) -> Self {
        ToolText {
            name: parse_tool_name(tool.name()),
            description: tool.description().to_lowercase(),
            hint: tool.search_hint().unwrap_or("").to_lowercase(),
        }
    }

    /// Whether the tool passes the required-terms filter.
    pub fn has_all(&self, required: &[String]) -> bool {
        required.iter().all(|term| {
            self.name
                .parts
                .iter()
                .any(|part| part.contains(term.as_str()))
                || matches_word(&self.description, term)
                || (!self.hint.is_empty() && matches_word(&self.hint, term))
        })
    }

    /// The seed score over the scoring terms.
    pub fn score(&self, scoring: &[String]) -> u32 {
        let (exact, partial) = if self.name.is_mcp { (12, 6) } else { (10, 5) };
        let mut score = 0;
        for term in scoring {
            let term = term.as_str();
            if self.name.parts.iter().any(|part| part == term) {
                score += exact;
            } else if self.name.parts.iter().any(|part| part.contains(term)) {
                score += partial;
            }
            if score == 0 && self.name.full.contains(term) {
                score += 3;
            }
            if !self.hint.is_empty() && matches_word(&self.hint, term) {
                score += 4;
            }
            if matches_word(&self.description, term) {
                score += 2;
            }
        }
        score
    }
}
