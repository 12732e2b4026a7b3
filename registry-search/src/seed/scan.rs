//! The straight scan every index answer is checked against: the design's algorithm over the
//! tools as given, with no index. It is the readable reference of the seed rules; the
//! workspace's tests, benchmarks and fuzzers hold [`SeedIndex`](super::index::SeedIndex) to
//! it.

use std::sync::Arc;

use super::ToolText;
use crate::document::{Document, names_at};
use crate::output::SearchOutput;
use crate::text::js_trim;
use crate::text::query::{parse_terms, select_names};
use crate::util::distinct::push_new;

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
