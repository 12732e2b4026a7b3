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
//! since every result is in them.

use std::cmp::Reverse;

use super::index::{PART_MCP, PART_PLAIN, SeedIndex, is_word_term};
use super::postings::{Cursor, END};
use super::seed::Terms;
use super::topk::TopK;

/// Vocabulary ids of the parts containing a term, for testing a tool's own parts.
enum PartSet {
    Small(Vec<u32>),
    Bits(Vec<u64>),
}

impl PartSet {
    fn new(parts: Vec<u32>, vocab_len: usize) -> PartSet {
        if parts.len() <= 16 {
            return PartSet::Small(parts);
        }
        let mut bits = vec![0u64; vocab_len.div_ceil(64)];
        for part in parts {
            bits[(part / 64) as usize] |= 1 << (part % 64);
        }
        PartSet::Bits(bits)
    }

    #[inline]
    fn contains(&self, part: u32) -> bool {
        match self {
            PartSet::Small(parts) => parts.contains(&part),
            PartSet::Bits(bits) => bits[(part / 64) as usize] & (1 << (part % 64)) != 0,
        }
    }
}

/// One distinct scoring term.
struct Term {
    mult: u32,
    required: bool,
    exact: Option<u32>,
    partial: Option<PartSet>,
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

impl Term {
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

struct Query<'a> {
    index: &'a SeedIndex,
    terms: Vec<Term>,
    sources: Vec<Source<'a>>,
    /// Each source's current tool: the first not below every target so far.
    heads: Vec<u32>,
    /// The terms with sources, in scoring order.
    order: Vec<usize>,
    total: u32,
}

/// The parts containing `term` other than `exact`, sorted, each once.
fn partial_parts(index: &SeedIndex, term: &str, exact: Option<u32>) -> Vec<u32> {
    let mut parts = Vec::new();
    index.containing_parts(term, |part| {
        if Some(part) != exact {
            parts.push(part);
        }
    });
    parts.sort_unstable();
    parts.dedup();
    parts
}

impl<'a> Query<'a> {
    /// Looks up every distinct scoring term; `None` when a required term matches nothing.
    fn new(index: &'a SeedIndex, terms: &Terms) -> Option<Query<'a>> {
        let mut query = Query {
            index,
            terms: Vec::with_capacity(terms.scoring.len()),
            sources: Vec::with_capacity(terms.scoring.len() * 2),
            heads: Vec::with_capacity(terms.scoring.len() * 2),
            order: Vec::new(),
            total: 0,
        };
        let mut texts: Vec<&str> = Vec::with_capacity(terms.scoring.len());
        for text in &terms.scoring {
            match texts.iter().position(|seen| seen == text) {
                Some(t) => query.terms[t].mult += 1,
                None => {
                    texts.push(text);
                    query.terms.push(Term {
                        mult: 1,
                        required: terms.required.contains(text),
                        exact: None,
                        partial: None,
                        mcp: None,
                        parts: [None; 2],
                        words: [None; 2],
                        parts_by_heads: true,
                        bound: 0,
                        cost: 0,
                    });
                }
            }
        }
        for (t, text) in texts.iter().enumerate() {
            query.add_sources(t, text);
            let term = &query.terms[t];
            if term.required && term.bound == 0 {
                return None;
            }
        }
        query.order = (0..query.terms.len())
            .filter(|&t| query.terms[t].bound > 0)
            .collect();
        query.order_terms();
        query.total = query.terms.iter().map(|term| term.bound).sum();
        Some(query)
    }

    /// Adds a source of term `t` with this bound per occurrence of the term.
    fn push(&mut self, t: usize, cursor: Cursor<'a>, bound: u32) -> usize {
        let cost = cursor.postings() as u64;
        self.heads.push(cursor.first());
        let term = &mut self.terms[t];
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

    fn add_sources(&mut self, t: usize, text: &str) {
        let index = self.index;
        let exact = index.exact_part(text);
        let partial = partial_parts(index, text, exact);
        let flags = exact
            .iter()
            .chain(&partial)
            .fold(0, |flags, &part| flags | index.part_flags(part));
        let [exact_weight, partial_weight] = match flags & PART_MCP {
            0 => [10, 5],
            _ => [12, 6],
        };
        let mut part_bound = 0;
        if let Some(part) = exact {
            let slice = Cursor::Slice {
                list: index.part_tools(part),
                pos: 0,
            };
            self.terms[t].parts[0] = Some(self.push(t, slice, exact_weight));
            part_bound = exact_weight;
        }
        if !partial.is_empty() {
            let lists: Vec<&[u32]> = partial.iter().map(|&p| index.part_tools(p)).collect();
            self.terms[t].parts[1] = Some(self.push(t, Cursor::union(lists), partial_weight));
            part_bound = part_bound.max(partial_weight);
            self.terms[t].partial = Some(PartSet::new(partial, index.vocab_len()));
        }
        self.terms[t].exact = exact;
        self.terms[t].mcp = match flags {
            PART_MCP => Some(true),
            PART_PLAIN => Some(false),
            _ => None,
        };
        let [hint, description] = if is_word_term(text) {
            [true, false].map(|hint| Cursor::Slice {
                list: index.word_tools(text, hint),
                pos: 0,
            })
        } else {
            let (hint, description) = index.word_hits(text);
            [hint, description].map(|list| Cursor::Owned { list, pos: 0 })
        };
        let mut word_bound = 0;
        for (slot, cursor, weight) in [(0, hint, 4), (1, description, 2)] {
            if cursor.postings() > 0 {
                self.terms[t].words[slot] = Some(self.push(t, cursor, weight));
                word_bound += weight;
            }
        }
        self.terms[t].bound = (part_bound + word_bound) * self.terms[t].mult;
    }

    /// Moves source `s` to its first tool `>= target` and returns it.
    #[inline(always)]
    fn advance(&mut self, s: usize, target: u32) -> u32 {
        let head = self.heads[s];
        if head >= target {
            return head;
        }
        self.move_source(s, target)
    }

    #[inline]
    fn move_source(&mut self, s: usize, target: u32) -> u32 {
        let head = self.sources[s].cursor.next_ge(target);
        self.heads[s] = head;
        head
    }

    /// The score term `t` gives `tool`, whose index is not below any essential source's head.
    #[inline]
    fn gain(&mut self, t: usize, tool: u32) -> u32 {
        let term = &self.terms[t];
        let mut part = 0;
        if term.parts_by_heads {
            for (slot, source) in term.parts.iter().enumerate() {
                if let Some(source) = *source
                    && self.heads[source] == tool
                {
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
    fn score(&mut self, tool: u32, theta: u32) -> Option<u32> {
        let (mut score, mut remaining) = (0, self.total);
        for i in 0..self.order.len() {
            if score + remaining <= theta {
                return None;
            }
            let t = self.order[i];
            let gained = self.gain(t, tool);
            if gained == 0 && self.terms[t].required {
                return None;
            }
            score += gained;
            remaining -= self.terms[t].bound;
        }
        (score > theta).then_some(score)
    }

    /// Orders the terms for scoring: those with only essential sources first (their heads
    /// answer at no cost), then those with some, then the rest; larger bounds first.
    fn order_terms(&mut self) {
        let (terms, sources) = (&self.terms, &self.sources);
        self.order.sort_by_key(|&t| {
            let term = &terms[t];
            let essential = term.sources().filter(|&s| sources[s].essential).count();
            let class = match essential {
                0 => 2,
                n if n == term.sources().count() => 0,
                _ => 1,
            };
            (class, Reverse(term.bound))
        });
    }

    /// Marks the non-essential sources for threshold `theta`: a greedily chosen set whose
    /// combined bound is at most `theta` — whole terms first (their sources hold mostly the
    /// same tools), then single sources, each time the most postings per unit of bound.
    /// Returns the essential sources.
    fn choose_essential(&mut self, order: &Density, theta: u32) -> Vec<usize> {
        let mut bound = 0;
        for source in &mut self.sources {
            source.essential = true;
        }
        for &t in &order.terms {
            let term = &self.terms[t];
            if bound + term.bound <= theta {
                bound += term.bound;
                for s in term.sources() {
                    self.sources[s].essential = false;
                }
            }
        }
        for &s in &order.sources {
            let source = &self.sources[s];
            if !source.essential {
                continue;
            }
            // An exact and a partial source of one term add their larger bound, not both.
            let sibling = match self.terms[source.term].parts {
                [Some(exact), Some(partial)] if s == exact => Some(partial),
                [Some(exact), Some(partial)] if s == partial => Some(exact),
                _ => None,
            };
            let added = match sibling.filter(|&other| !self.sources[other].essential) {
                Some(other) => source.bound.saturating_sub(self.sources[other].bound),
                None => source.bound,
            };
            if bound + added <= theta {
                bound += added;
                self.sources[s].essential = false;
            }
        }
        for term in &mut self.terms {
            let sources = &self.sources;
            term.parts_by_heads = term.parts.iter().flatten().all(|&s| sources[s].essential);
        }
        self.order_terms();
        (0..self.sources.len())
            .filter(|&s| self.sources[s].essential)
            .collect()
    }

    /// Terms and sources, most postings per unit of bound first.
    fn density(&self) -> Density {
        let denser = |(cost_a, bound_a): (u64, u32), (cost_b, bound_b): (u64, u32)| {
            (cost_b * u64::from(bound_a)).cmp(&(cost_a * u64::from(bound_b)))
        };
        let mut sources: Vec<usize> = (0..self.sources.len()).collect();
        sources.sort_by(|&a, &b| {
            let (a, b) = (&self.sources[a], &self.sources[b]);
            denser((a.cost, a.bound), (b.cost, b.bound))
        });
        // Terms with no sources have no bound and nothing to skip.
        let mut terms: Vec<usize> = (0..self.terms.len())
            .filter(|&t| self.terms[t].bound > 0)
            .collect();
        terms.sort_by(|&a, &b| {
            let (a, b) = (&self.terms[a], &self.terms[b]);
            denser((a.cost, a.bound), (b.cost, b.bound))
        });
        Density { terms, sources }
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

/// Terms and sources in the order the non-essential set takes them.
struct Density {
    terms: Vec<usize>,
    sources: Vec<usize>,
}

/// Ranks tools for a keyword query with the seed weights; indices into the indexed tools.
pub(super) fn rank(index: &SeedIndex, terms: &Terms, max_results: usize) -> Vec<usize> {
    if max_results == 0 || index.is_empty() {
        return Vec::new();
    }
    let Some(mut query) = Query::new(index, terms) else {
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
        next = tool + 1;
        if let Some(score) = query.score(tool, theta) {
            top.push(tool, score);
            let raised = top.threshold();
            if raised > theta {
                theta = raised;
                essential = query.choose_essential(&density, theta);
                let cost: u64 = essential.iter().map(|&s| query.sources[s].cost).sum();
                drive = driver
                    .as_ref()
                    .filter(|(_, driver_cost)| *driver_cost < cost);
            }
        }
    }
    top.into_sorted()
}
