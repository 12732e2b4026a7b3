//! The seed strategy: the design's ToolSearch, exactly (`docs/design.md` §9).
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

#[cfg(any(test, feature = "internals"))]
pub use scan::{fast_path, rank, search};

use super::document::Document;
use super::text::{NameParts, matches_word, parse_tool_name};

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

/// The straight scan every index answer is checked against: the design's algorithm over the
/// tools as given, with no index (the workspace's tests, benchmarks and fuzzers).
#[cfg(any(test, feature = "internals"))]
mod scan {
    use std::sync::Arc;

    use super::ToolText;
    use crate::SearchOutput;
    use crate::distinct::push_new;
    use crate::document::Document;
    use crate::engine::names_at;
    use crate::query::{parse_terms, select_names};
    use crate::text::js_trim;

    fn find<'a, D: Document>(tools: &'a [Arc<D>], name: &str) -> Option<&'a Arc<D>> {
    tools.iter().find(|tool| tool.answers_to(name))
}

/// The fast paths every strategy shares: `select:`, exact name, `mcp__` prefix. `None` when the
/// query is a keyword search.
pub fn fast_path<D: Document>(
    raw: &str,
    max_results: usize,
    pool: &[Arc<D>],
    deferred: &[Arc<D>],
) -> Option<Vec<String>> {
    if let Some(names) = select_names(raw) {
        let (mut found, mut seen) = (Vec::new(), None);
        for name in names {
            if let Some(tool) = find(deferred, name).or_else(|| find(pool, name)) {
                push_new(&mut found, &mut seen, tool.name());
            }
        }
        return Some(found);
    }
    let query = raw.to_lowercase();
    let query = js_trim(&query);
    let exact = |tool: &&Arc<D>| tool.name().to_lowercase() == query;
    if let Some(tool) = deferred
        .iter()
        .find(exact)
        .or_else(|| pool.iter().find(exact))
    {
        return Some(vec![tool.name().to_owned()]);
    }
    if query.starts_with("mcp__") && query.len() > 5 {
        let matches: Vec<String> = deferred
            .iter()
            .filter(|tool| tool.name().to_lowercase().starts_with(query))
            .take(max_results)
            .map(|tool| tool.name().to_owned())
            .collect();
        if !matches.is_empty() {
            return Some(matches);
        }
    }
    None
}

/// Keeps scores above 0, best first with ties in the given order, at most `max_results`.
pub fn rank(scored: impl IntoIterator<Item = (usize, u32)>, max_results: usize) -> Vec<usize> {
    let mut kept: Vec<(usize, u32)> = scored.into_iter().filter(|(_, score)| *score > 0).collect();
    kept.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    kept.into_iter()
        .take(max_results)
        .map(|(index, _)| index)
        .collect()
}

/// Runs the seed algorithm over `deferred` (the pool's deferred tools, in pool order) by a
/// straight scan.
pub fn search<D: Document>(
    raw: &str,
    max_results: usize,
    pool: &[Arc<D>],
    deferred: &[Arc<D>],
    pending_mcp_servers: &[String],
) -> SearchOutput {
    let matches = fast_path(raw, max_results, pool, deferred).unwrap_or_else(|| {
        let terms = parse_terms(js_trim(&raw.to_lowercase()));
        let texts: Vec<ToolText> = deferred.iter().map(|tool| ToolText::new(&**tool)).collect();
        let scored = texts
            .iter()
            .enumerate()
            .filter(|(_, text)| text.has_all(&terms.required))
            .map(|(index, text)| (index, text.score(&terms.scoring)));
        names_at(deferred, rank(scored, max_results).into_iter())
    });
    SearchOutput::new(matches, raw, deferred.len(), pending_mcp_servers)
}
}
