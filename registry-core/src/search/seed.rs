//! The seed strategy: the design's ToolSearch, exactly (SEMANTICS.md §9).
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

use std::sync::Arc;

use super::SearchOutput;
use super::distinct::push_new;
use super::engine::names_at;
use super::text::{js_trim, js_words, matches_word, parse_tool_name};
use crate::tool_info::ToolInfo;

/// A parsed keyword query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    /// Terms every result must match.
    pub required: Vec<String>,
    /// The terms that score, in order.
    pub scoring: Vec<String>,
}

/// Splits a lower-cased, trimmed query into required and scoring terms.
pub fn parse_terms(query: &str) -> Terms {
    let mut required = Vec::new();
    let mut optional = Vec::new();
    for term in js_words(query) {
        match term.strip_prefix('+') {
            Some(rest) if !rest.is_empty() => required.push(rest.to_owned()),
            _ => optional.push(term.to_owned()),
        }
    }
    let scoring = if required.is_empty() {
        optional
    } else {
        required.iter().cloned().chain(optional).collect()
    };
    Terms { required, scoring }
}

/// The names listed after `select:`, when the raw query is a select query.
pub fn select_names(raw: &str) -> Option<Vec<&str>> {
    let (prefix, rest) = raw.split_at_checked(7)?;
    if !prefix.eq_ignore_ascii_case("select:") {
        return None;
    }
    // JavaScript's `.` matches no line terminator, so `^select:(.+)$` needs a one-line rest.
    if rest.is_empty() || rest.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
        return None;
    }
    Some(
        rest.split(',')
            .map(js_trim)
            .filter(|name| !name.is_empty())
            .collect(),
    )
}

fn find<'a>(tools: &'a [Arc<ToolInfo>], name: &str) -> Option<&'a Arc<ToolInfo>> {
    tools.iter().find(|tool| tool.answers_to(name))
}

/// The fast paths every strategy shares: `select:`, exact name, `mcp__` prefix. `None` when the
/// query is a keyword search.
pub fn fast_path(
    raw: &str,
    max_results: usize,
    pool: &[Arc<ToolInfo>],
    deferred: &[Arc<ToolInfo>],
) -> Option<Vec<String>> {
    if let Some(names) = select_names(raw) {
        let (mut found, mut seen) = (Vec::new(), None);
        for name in names {
            if let Some(tool) = find(deferred, name).or_else(|| find(pool, name)) {
                push_new(&mut found, &mut seen, &tool.name);
            }
        }
        return Some(found);
    }
    let query = raw.to_lowercase();
    let query = js_trim(&query);
    let exact = |tool: &&Arc<ToolInfo>| tool.name.to_lowercase() == query;
    if let Some(tool) = deferred
        .iter()
        .find(exact)
        .or_else(|| pool.iter().find(exact))
    {
        return Some(vec![tool.name.clone()]);
    }
    if query.starts_with("mcp__") && query.len() > 5 {
        let matches: Vec<String> = deferred
            .iter()
            .filter(|tool| tool.name.to_lowercase().starts_with(query))
            .take(max_results)
            .map(|tool| tool.name.clone())
            .collect();
        if !matches.is_empty() {
            return Some(matches);
        }
    }
    None
}

/// The text of one tool that the keyword rules read, lower-cased once.
#[derive(Debug, Clone, Default)]
pub struct ToolText {
    /// The name's parts.
    pub name: super::text::NameParts,
    /// The lower-cased description.
    pub description: String,
    /// The lower-cased search hint, empty when none.
    pub hint: String,
}

impl ToolText {
    /// Prepares a tool.
    pub fn new(tool: &ToolInfo) -> Self {
        ToolText {
            name: parse_tool_name(&tool.name),
            description: tool.description.to_lowercase(),
            hint: tool.search_hint.as_deref().unwrap_or("").to_lowercase(),
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
pub fn search(
    raw: &str,
    max_results: usize,
    pool: &[Arc<ToolInfo>],
    deferred: &[Arc<ToolInfo>],
    pending_mcp_servers: &[String],
) -> SearchOutput {
    let matches = fast_path(raw, max_results, pool, deferred).unwrap_or_else(|| {
        let terms = parse_terms(js_trim(&raw.to_lowercase()));
        let texts: Vec<ToolText> = deferred.iter().map(|tool| ToolText::new(tool)).collect();
        let scored = texts
            .iter()
            .enumerate()
            .filter(|(_, text)| text.has_all(&terms.required))
            .map(|(index, text)| (index, text.score(&terms.scoring)));
        names_at(deferred, rank(scored, max_results).into_iter())
    });
    SearchOutput::new(matches, raw, deferred.len(), pending_mcp_servers)
}
