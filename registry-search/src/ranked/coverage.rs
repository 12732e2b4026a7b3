//! Name coverage: how much of a tool's name a query says, as the IDF-weighted fraction of the
//! name's terms that the query contains.

use super::score::Scored;
use super::{RankedIndex, idf};

/// The fewest characters of the shorter of two terms for name coverage to count one that
/// begins the other (`short` and `shortener`), so that short words do not reach far
/// (`art` and `artist`).
const PREFIX_CHARS: usize = 5;

impl RankedIndex {
    /// [`Weights::name_coverage`] × `top` × the IDF-weighted fraction of each tool's name terms
    /// that the query contains, where a name term is contained when a query term equals it,
    /// begins with it or begins it, the shorter of the two having at least [`PREFIX_CHARS`]
    /// characters (`shortener` covers `shorten`, `transfer` covers `transfermarkt`).
    ///
    /// [`Weights::name_coverage`]: super::Weights::name_coverage
    pub(super) fn add_name_coverage(&self, terms: &[(String, f32)], top: f32, scored: &mut Scored) {
        let weight = self.weights.name_coverage * top;
        if weight <= 0.0 {
            return;
        }
        let mut named: Vec<&str> = Vec::new();
        for (term, _) in terms {
            self.name_terms_matching(term, &mut named);
        }
        named.sort_unstable();
        named.dedup();
        let n = self.len() as f32;
        let mut covered = self.buffers.tools(self.len());
        for term in named {
            let Some(postings) = self.postings.get(term) else {
                continue;
            };
            let idf = idf(n, postings.len() as f32);
            for (tool, name_tf) in postings.named() {
                covered.add(tool, idf * f32::from(name_tf));
            }
        }
        for &tool in covered.touched() {
            if let Some(&total) = self.name_mass.get(tool as usize)
                && total > 0.0
            {
                scored.tools.add(tool, weight * covered.get(tool) / total);
            }
        }
    }

    /// Pushes the name terms that a query term covers: itself, and, when it has at least
    /// [`PREFIX_CHARS`] characters, the name terms it begins and those of at least as many
    /// characters that begin it.
    fn name_terms_matching<'a>(&'a self, term: &str, out: &mut Vec<&'a str>) {
        let names = &self.name_terms;
        let from = names.lower_bound(term);
        if term.chars().nth(PREFIX_CHARS - 1).is_none() {
            out.extend(names.get(from).filter(|name| *name == term));
            return;
        }
        out.extend(names.from(from).take_while(|name| name.starts_with(term)));
        // The prefixes of the term from PREFIX_CHARS characters, shortest first. They stop at
        // the first that no name term longer than it begins with: then no name term equals a
        // longer prefix. Most words of a request (and the compounds of two) stop at the first,
        // so a word costs as many steps as the longest name term it begins with has characters.
        let prefixes = term.char_indices().map(|(at, _)| at).skip(PREFIX_CHARS);
        for prefix in prefixes.filter_map(|at| term.get(..at)) {
            let mut next = names.lower_bound(prefix);
            if let Some(found) = names.get(next).filter(|name| *name == prefix) {
                out.push(found);
                next += 1;
            }
            if !names.get(next).is_some_and(|name| name.starts_with(prefix)) {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::{Value, json};

    use super::*;
    use crate::ranked::Weights;
    use crate::testing::load_servers;

    /// The index of one server whose tools have these names and nothing else.
    fn index_of(names: &[&str]) -> RankedIndex {
        let tools: Vec<Value> = (names.iter())
            .map(|name| json!({"name": name, "description": "", "inputSchema": {}}))
            .collect();
        let pool: Vec<Arc<_>> = load_servers([("s", &Value::Array(tools))]);
        RankedIndex::build(&pool, Weights::default())
    }

    /// The name terms that `term` covers, sorted.
    fn matching<'a>(index: &'a RankedIndex, term: &str) -> Vec<&'a str> {
        let mut out = Vec::new();
        index.name_terms_matching(term, &mut out);
        out.sort_unstable();
        out
    }

    #[test]
    fn name_terms_match_by_prefix_only_from_five_characters() {
        let index = index_of(&[
            "artist",
            "shorten",
            "transfermarkt_search",
            "größenänderung",
        ]);
        let matching = |term: &str| matching(&index, term);
        assert!(
            matching("art").is_empty(),
            "three letters match exactly only"
        );
        assert_eq!(matching("artist"), ["artist"]);
        assert_eq!(matching("shortener"), ["shorten"], "a name term begins it");
        assert_eq!(matching("short"), ["shorten"], "it begins a name term");
        assert!(matching("shor").is_empty());
        assert_eq!(matching("transfer"), ["transfermarkt"]);
        assert_eq!(matching("größenänderungen"), ["größenänderung"]);
        assert_eq!(
            matching("größe"),
            ["größenänderung"],
            "characters, not bytes"
        );
        assert!(matching("größ").is_empty());
    }

    #[test]
    fn every_name_term_that_begins_a_word_is_found_past_gaps_and_equal_prefixes() {
        // `alpha` equals a prefix and `alphabet` sorts right after it; `alphabetiq` is
        // reached past prefixes (`alphab`, `alphabe`) that no name term equals. (Name terms are
        // stems: the made-up `alphabetiq` is its own.)
        let index = index_of(&["alpha", "alphabet_x", "alphabetiq", "alphz"]);
        assert_eq!(
            matching(&index, "alphabetiqness"),
            ["alpha", "alphabet", "alphabetiq"]
        );
        let none = matching(&index, "alphqrstuv");
        assert!(none.is_empty(), "{none:?}");
    }

    #[test]
    fn a_long_word_matches_only_the_name_terms_that_begin_it() {
        // Name terms are stems (`shortener` is `shorten`): `shortenx` is its own.
        let index = index_of(&["shorten", "shortenx_links"]);
        let long = format!("shortenx{}", "x".repeat(10_000_000));
        assert_eq!(matching(&index, &long), ["shorten", "shortenx"]);
    }
}
