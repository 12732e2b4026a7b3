//! Exact top-k for seed keyword queries: document-at-a-time MaxScore over per-term sources.
//!
//! A tool's score is a sum over the distinct scoring terms, each counted as often as it occurs,
//! of: its *part group* (12 / 10 when a name part equals the term, else 6 / 5 when a part
//! contains it — a maximum, not a sum), +4 when the hint has the term as a word, +2 when the
//! description does. Each term has up to four *sources*, sorted lists of tools, each with an
//! upper bound on what it adds: `Exact` (tools with an equal part), `Partial` (tools with a
//! part that contains the term but is not equal, merged lazily from the parts' lists), and the
//! hint and description word lists (postings, or for a term with non-word characters, a scan).
//!
//! Tools are visited in increasing index order. Once the top-k heap is full, a later tool
//! enters only with a score strictly above the k-th (ties keep pool order): the threshold θ.
//! The *non-essential* sources are a set whose combined bound (an exact and a partial source of
//! one term count once, at the larger bound) is at most θ: a tool found only in them cannot
//! enter, so candidates come from the other, *essential*, sources alone. The set is chosen
//! greedily, whole terms first, then single sources, to hold the most postings per unit of
//! bound, and is chosen again each time θ rises; when every source is non-essential the search
//! stops. A candidate is scored term by term — terms with only essential sources first, from
//! those sources' current heads; then the rest, from the tool's own name parts and by seeking
//! the word lists — and dropped as soon as its score plus the bound of the terms still unscored
//! cannot pass θ, or a required term has no hit. When the cheapest required term's sources are
//! smaller than the essential ones, they drive the candidates too (leapfrogging with them),
//! since every result is in them. Once the candidates turned away at a θ above 0 have cost about
//! what reading the query's lists again would, each block of 16 tools gets a bound on its tools'
//! scores from those lists (`blocks.rs`), and from then on a candidate in a block that cannot
//! pass θ is passed over with the rest of its block, unscored.

mod essential;

use super::blocks::Blocks;
use super::hits::GapHits;
use super::partset::PartSet;
use super::postings::{Cursor, END};
use super::scorer::{Scorer, TermParts};
use super::{PART_MCP, PART_PLAIN, SeedIndex};
use crate::collector::TopK;
use crate::document::Document;
use crate::text::is_word_term;
use crate::util::distinct::Distinct;

/// One distinct scoring term.
struct Term<'a> {
    mult: u32,
    required: bool,
    exact: Option<u32>,
    partial: Option<&'a PartSet>,
    /// Whether the tools with a matching part are all MCP tools (`Some(true)`), all not
    /// (`Some(false)`), or both.
    mcp: Option<bool>,
    /// The exact and partial sources.
    parts: [Option<usize>; 2],
    /// The hint and description sources.
    words: [Option<usize>; 2],
    /// Whether every part source is essential, so their heads tell the part score.
    parts_by_heads: bool,
    bound: u32,
    cost: u64,
}

impl Term<'_> {
    fn sources(&self) -> impl Iterator<Item = usize> + '_ {
        self.parts.iter().chain(&self.words).flatten().copied()
    }
}

struct Source<'a> {
    cursor: Cursor<'a>,
    term: usize,
    bound: u32,
    cost: u64,
    essential: bool,
}

/// A query's terms and sources. Terms and sources refer to each other by their positions in
/// `terms` and `sources` (`heads` runs beside `sources`), which only [`Query::new`] assigns; a
/// position that were not there would read as a term that scores nothing or a source past its
/// end.
struct Query<'a, D> {
    index: &'a SeedIndex<D>,
    terms: Vec<Term<'a>>,
    sources: Vec<Source<'a>>,
    /// Each source's current tool: the first not below every target so far.
    heads: Vec<u32>,
    /// The terms with sources, in scoring order.
    order: Vec<usize>,
    total: u32,
}

/// What scoring a candidate that is turned away costs, in postings read into block bounds: at
/// 99,160 tools a frequent-word query's candidate took about 700 instructions, a posting read
/// into the bounds about 8. Of 8 to 128, 128 made the bounds soon enough for frequent words and
/// late enough for name keywords, whose few candidates did not pay for reading their lists.
const CANDIDATE_COST: u64 = 128;

/// Up to this many required terms, a scoring term is looked for among them by a scan.
const FEW_REQUIRED: usize = 8;

impl<'a, D: Document> Query<'a, D> {
    /// Looks up every distinct scoring term of `scorer`; `None` when a required term matches
    /// nothing.
    fn new(
        index: &'a SeedIndex<D>,
        scorer: &'a Scorer<'_, D>,
        required: &[String],
    ) -> Option<Query<'a, D>> {
        let texts: Vec<TermParts> = scorer.terms().collect();
        // Few required terms are scanned, many looked up.
        let required_set: Option<Distinct> =
            (required.len() > FEW_REQUIRED).then(|| required.iter().map(String::as_str).collect());
        let distinct = texts.len();
        let mut query = Query {
            index,
            terms: Vec::with_capacity(distinct),
            sources: Vec::with_capacity(distinct * 2),
            heads: Vec::with_capacity(distinct * 2),
            order: Vec::new(),
            total: 0,
        };
        let mut gaps = index.gap_hits(texts.iter().map(|term| term.text));
        for term in texts {
            let is_required = match &required_set {
                Some(set) => set.contains(term.text),
                None => required.iter().any(|text| text == term.text),
            };
            if query.add_term(term, is_required, &mut gaps) == 0 && is_required {
                return None;
            }
        }
        query.order = (query.terms.iter().enumerate())
            .filter(|(_, term)| term.bound > 0)
            .map(|(t, _)| t)
            .collect();
        query.order_terms();
        query.total = query.terms.iter().map(|term| term.bound).sum();
        Some(query)
    }

    /// Adds a source of `term`, the term at position `t`, with this bound per occurrence of
    /// the term.
    fn push(&mut self, term: &mut Term<'a>, t: usize, cursor: Cursor<'a>, bound: u32) -> usize {
        let cost = cursor.postings() as u64;
        self.heads.push(cursor.first());
        term.cost += cost;
        self.sources.push(Source {
            cursor,
            term: t,
            bound: bound * term.mult,
            cost,
            essential: true,
        });
        self.sources.len() - 1
    }

    /// Adds a scoring term with its sources; returns its bound.
    fn add_term(&mut self, parts: TermParts<'a>, required: bool, gaps: &mut GapHits) -> u32 {
        let t = self.terms.len();
        let index = self.index;
        let TermParts {
            text,
            mult,
            exact,
            partial,
            set,
        } = parts;
        let flags = exact
            .iter()
            .chain(partial)
            .fold(0, |flags, &part| flags | index.part_flags(part));
        let [exact_weight, partial_weight] = match flags & PART_MCP {
            0 => [10, 5],
            _ => [12, 6],
        };
        let mut term = Term {
            mult,
            required,
            exact,
            partial: None,
            mcp: match flags {
                PART_MCP => Some(true),
                PART_PLAIN => Some(false),
                _ => None,
            },
            parts: [None; 2],
            words: [None; 2],
            parts_by_heads: true,
            bound: 0,
            cost: 0,
        };
        let mut part_bound = 0;
        if let Some(part) = exact {
            let slice = Cursor::Slice {
                list: index.part_tools(part),
                pos: 0,
            };
            term.parts[0] = Some(self.push(&mut term, t, slice, exact_weight));
            part_bound = exact_weight;
        }
        if !partial.is_empty() {
            let lists: Vec<&[u32]> = partial.iter().map(|&p| index.part_tools(p)).collect();
            let union = Cursor::union(lists);
            term.parts[1] = Some(self.push(&mut term, t, union, partial_weight));
            part_bound = part_bound.max(partial_weight);
            term.partial = Some(set);
        }
        let [hint, description] = if is_word_term(text) {
            [true, false].map(|hint| Cursor::Slice {
                list: index.word_tools(text, hint),
                pos: 0,
            })
        } else {
            let (hint, description) = index.word_hits_in(text, gaps);
            [hint, description].map(|list| Cursor::Owned { list, pos: 0 })
        };
        let mut word_bound = 0;
        let mut words = [None; 2];
        for ((slot, cursor), weight) in words.iter_mut().zip([hint, description]).zip([4, 2]) {
            if cursor.postings() > 0 {
                *slot = Some(self.push(&mut term, t, cursor, weight));
                word_bound += weight;
            }
        }
        term.words = words;
        let bound = (part_bound + word_bound) * mult;
        term.bound = bound;
        self.terms.push(term);
        bound
    }

    // The four functions below run for every candidate tool and term. Written with `get` and
    // fallbacks they made a 30-word request over 100,000 tools 6% more instructions and 9%
    // slower (the panicking index's failure path stays out of the loop, a fallback does
    // not). Their positions are the query's own: see each `In range` comment.

    /// Moves source `s` to its first tool `>= target` and returns it.
    #[inline(always)]
    #[allow(clippy::indexing_slicing)]
    fn advance(&mut self, s: usize, target: u32) -> u32 {
        // In range: `s` is a source position, and `Query::new` pushes every source to
        // `sources` and `heads` together and hands out only the positions it pushed.
        let head = self.heads[s];
        if head >= target {
            return head;
        }
        self.move_source(s, target)
    }

    #[inline]
    #[allow(clippy::indexing_slicing)]
    fn move_source(&mut self, s: usize, target: u32) -> u32 {
        // In range: as in `advance`, `s` is a position `Query::new` pushed to both.
        let head = self.sources[s].cursor.next_ge(target);
        self.heads[s] = head;
        head
    }

    /// The score term `t` gives `tool`, whose index is not below any essential source's head.
    #[inline]
    #[allow(clippy::indexing_slicing)]
    fn gain(&mut self, t: usize, tool: u32) -> u32 {
        // In range: `t` comes from `order`, which holds positions in `terms` only, and the
        // sources a term names were pushed with it (to `sources` and `heads` together).
        let term = &self.terms[t];
        let mut part = 0;
        if term.parts_by_heads {
            for (slot, source) in term.parts.iter().enumerate() {
                if let Some(source) = *source
                    && self.heads[source] == tool
                {
                    // In range: `parts` has two slots.
                    part = [12, 6][slot];
                    break;
                }
            }
        } else {
            let (inline, more) = self.index.tool_parts(tool);
            for &vocab_id in inline.iter().chain(more) {
                if Some(vocab_id) == term.exact {
                    part = 12;
                    break;
                }
                if part == 0
                    && term
                        .partial
                        .as_ref()
                        .is_some_and(|set| set.contains(vocab_id))
                {
                    part = 6;
                }
            }
        }
        if part > 0 && !term.mcp.unwrap_or_else(|| self.index.is_mcp(tool)) {
            part = part / 6 * 5;
        }
        let (mult, sources) = (term.mult, term.words);
        for (source, weight) in sources.into_iter().zip([4, 2]) {
            if let Some(source) = source
                && self.advance(source, tool) == tool
            {
                part += weight;
            }
        }
        part * mult
    }

    /// The score of `tool` when it passes the required terms and can beat `theta`.
    #[allow(clippy::indexing_slicing)]
    fn score(&mut self, tool: u32, theta: u32) -> Option<u32> {
        let (mut score, mut remaining) = (0, self.total);
        for i in 0..self.order.len() {
            if score + remaining <= theta {
                return None;
            }
            // In range: `i` is below the length of `order`, whose entries are positions in
            // `terms` (see `Query::new` and `order_terms`, which only reorders them).
            let t = self.order[i];
            let gained = self.gain(t, tool);
            let term = &self.terms[t];
            if gained == 0 && term.required {
                return None;
            }
            score += gained;
            remaining -= term.bound;
        }
        (score > theta).then_some(score)
    }

    /// What [`blocks`](Self::blocks) costs, in postings read: those of the sources it reads,
    /// and one for each block.
    fn blocks_cost(&self) -> u64 {
        let dense = Blocks::count(self.index.len(), self.groups()) as u64;
        let read = self.sources.iter().map(|source| source.cost);
        dense + read.filter(|&cost| cost <= dense).sum::<u64>()
    }

    /// The number of groups [`blocks`](Self::blocks) adds up: three a term.
    fn groups(&self) -> usize {
        3 * self.terms.len()
    }

    /// Each block's bound ([`Blocks`]) over the tools from `from`: per term, its part group
    /// (exact, then partial), its hint words and its description words. A source with more
    /// tools than there are blocks counts in every block, and a source of its group with a
    /// larger bound only with the difference.
    fn blocks(&self, from: u32) -> Blocks {
        let mut blocks = Blocks::new(self.index.len(), self.groups());
        let dense = blocks.len() as u64;
        for (t, term) in self.terms.iter().enumerate() {
            let groups = [term.parts, [term.words[0], None], [term.words[1], None]];
            for (g, sources) in groups.into_iter().enumerate() {
                let sources = sources.map(|s| s.and_then(|s| self.sources.get(s)));
                let everywhere = (sources.iter().flatten())
                    .filter(|source| source.cost > dense)
                    .map(|source| source.bound)
                    .max()
                    .unwrap_or(0);
                blocks.add_everywhere(everywhere);
                // Numbered from 1 (more than a byte's groups make `blocks` empty).
                let group = u8::try_from(1 + 3 * t + g).unwrap_or(0);
                for source in sources.into_iter().flatten() {
                    if source.cost <= dense && source.bound > everywhere {
                        let bound = source.bound - everywhere;
                        (source.cursor).for_each_list(|list| blocks.add(group, bound, list, from));
                    }
                }
            }
        }
        blocks
    }

    /// The smallest tool `>= target` in any of `sources`, or [`END`].
    #[inline]
    fn next_in(&mut self, sources: &[usize], target: u32) -> u32 {
        let mut next = END;
        for &s in sources {
            next = next.min(self.advance(s, target));
        }
        next
    }
}

/// Ranks tools for a keyword query with the seed weights; indices into the indexed tools, with
/// their scores.
pub(super) fn rank<'a, D: Document>(
    index: &'a SeedIndex<D>,
    scorer: &'a Scorer<'_, D>,
    required: &[String],
    max_results: usize,
) -> Vec<(usize, u32)> {
    if max_results == 0 || index.is_empty() {
        return Vec::new();
    }
    let Some(mut query) = Query::new(index, scorer, required) else {
        return Vec::new();
    };
    let density = query.density();
    // Every result is in the sources of each required term: the cheapest may drive.
    let driver: Option<(Vec<usize>, u64)> = query
        .terms
        .iter()
        .filter(|term| term.required)
        .min_by_key(|term| term.cost)
        .map(|term| (term.sources().collect(), term.cost));
    let mut top = TopK::new(max_results);
    let mut theta = 0;
    let mut essential: Vec<usize> = (0..query.sources.len()).collect();
    let mut drive = driver
        .as_ref()
        .filter(|(_, cost)| *cost < query.sources.iter().map(|source| source.cost).sum::<u64>());
    let mut next = 0u32;
    // Made for the tools not yet visited once the candidates turned away at a threshold above
    // 0 have cost what making them costs: a query with few such candidates never pays for them.
    let mut blocks: Option<Blocks> = None;
    let (mut turned_away, blocks_cost) = (0, query.blocks_cost());
    while query.total > theta {
        let mut tool = query.next_in(&essential, next);
        if let Some((driver, _)) = drive {
            while tool != END {
                let found = query.next_in(driver, tool);
                if found == tool {
                    break;
                }
                tool = match found {
                    END => END,
                    _ => query.next_in(&essential, found),
                };
            }
        }
        if tool == END {
            break;
        }
        if let Some(from) = blocks.as_ref().and_then(|blocks| blocks.skip(tool, theta)) {
            next = from;
            continue;
        }
        next = tool + 1;
        let Some(score) = query.score(tool, theta) else {
            if theta > 0 && blocks.is_none() {
                turned_away += CANDIDATE_COST;
                if turned_away >= blocks_cost {
                    blocks = Some(query.blocks(next));
                }
            }
            continue;
        };
        top.push(tool, score);
        let raised = top.threshold();
        if raised > theta {
            theta = raised;
            query.choose_essential(&density, theta, &mut essential);
            let cost: u64 = (essential.iter())
                .filter_map(|&s| query.sources.get(s))
                .map(|source| source.cost)
                .sum();
            drive = driver
                .as_ref()
                .filter(|(_, driver_cost)| *driver_cost < cost);
        }
    }
    top.into_sorted()
}
