//! The search engine of one pool: indexes built once, rebuilt only when the deferred set
//! changes, queried by the chosen strategy.

use std::sync::{Arc, OnceLock};

mod semantic;
mod shards;

use std::collections::{BTreeMap, BTreeSet};

use self::semantic::Semantic;
use self::shards::{ShardScorer, Shards};
use super::distinct::push_new;
#[cfg(feature = "internals")]
use super::index::SeedIndex;
use super::names::NameTable;
use super::query::{Terms, parse_terms, select_names};
use super::ranked::{RankedIndex, RankedScores, Weights};
use super::text::js_trim;
use super::topk::{key, unkey};
use super::{Document, SearchOutput};

/// The most query terms the seed score is blended into the ranked strategy for: keyword
/// queries. Past this the seed weight is divided by 25 or more.
pub const SEED_BLEND_TERMS: usize = 4;

/// How many candidates each side first proposes to the ranked strategy's blend (the seed side
/// at most this many).
const CANDIDATES: usize = 10;

/// The ranked strategy picks its `max_results` tools from this many times as many of the best
/// blended ones ([`RankedIndex::diversify`]).
const DIVERSIFY_DEPTH: usize = 3;

/// How keyword queries are ranked. `select:`, exact names, the `mcp__` prefix and `+required`
/// terms mean the same in every strategy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Strategy {
    /// The design's scoring, exactly (the default).
    #[default]
    Seed,
    /// BM25F over the tools' fields with server priors, blended with the seed score.
    Ranked,
}

/// ToolSearch over one pool.
///
/// The indexes are the memo of the tools' searchable text: [`update`](Self::update) keeps
/// them while the set of deferred names stays the same (a changed description of a tool that
/// stays deferred is not picked up, as in the design). When only some MCP servers' deferred
/// tools changed (a server re-listed after `tools/list_changed`), the seed index re-indexes
/// those servers' tools only, with results equal to a full build; any other change, or many
/// such changes piled up, rebuilds it whole. The ranked index is rebuilt, on its next use,
/// whenever the deferred set changes (its statistics span every tool).
#[derive(Debug)]
pub struct SearchEngine<D> {
    pool: Vec<Arc<D>>,
    deferred: Vec<Arc<D>>,
    pool_names: NameTable,
    deferred_names: NameTable,
    seed: Shards<D>,
    ranked: OnceLock<RankedIndex>,
    strategy: Strategy,
    weights: Weights,
    pending_servers: Vec<String>,
    builds: usize,
    semantic: Option<Semantic>,
}

impl<D: Document> SearchEngine<D> {
    /// Indexes the [deferred](Document::is_deferred) tools of `pool`.
    pub fn new(pool: Vec<Arc<D>>, strategy: Strategy) -> Self {
        let deferred = deferred_of(&pool);
        let engine = SearchEngine {
            seed: Shards::build(&deferred),
            pool_names: NameTable::build(&pool, false),
            deferred_names: NameTable::build(&deferred, true),
            pool,
            deferred,
            ranked: OnceLock::new(),
            strategy,
            weights: Weights::default(),
            pending_servers: Vec::new(),
            builds: 1,
            semantic: None,
        };
        if strategy == Strategy::Ranked {
            engine.ranked();
        }
        engine
    }

    /// Uses other ranked-strategy weights (drops the ranked index).
    #[cfg(feature = "internals")]
    pub fn with_weights(mut self, weights: Weights) -> Self {
        self.weights = weights;
        self.ranked = OnceLock::new();
        self
    }

    /// Replaces the pool; the indexes change only when the deferred names changed, and when
    /// only some MCP servers' deferred tools did, the seed index re-indexes just those.
    pub fn update(&mut self, pool: Vec<Arc<D>>) {
        let deferred = deferred_of(&pool);
        let same = deferred.len() == self.deferred.len()
            && deferred
                .iter()
                .zip(&self.deferred)
                .all(|(a, b)| a.name() == b.name());
        self.pool_names = NameTable::build(&pool, false);
        self.pool = pool;
        if same {
            return;
        }
        let by_server = changed_servers(&self.deferred, &deferred);
        if !by_server.is_some_and(|servers| self.seed.replace_servers(&deferred, &servers)) {
            self.seed = Shards::build(&deferred);
            self.builds += 1;
        }
        self.deferred_names = NameTable::build(&deferred, true);
        self.ranked = OnceLock::new();
        self.deferred = deferred;
        self.refresh_vectors();
    }

    /// The seed index's shards: the base (`None`) and one per re-indexed server, each with
    /// how many live tools it holds.
    #[cfg(feature = "internals")]
    pub fn shards(&self) -> Vec<(Option<String>, usize)> {
        self.seed.layout()
    }

    /// The MCP servers still connecting, reported when a search finds nothing.
    pub fn set_pending_servers(&mut self, servers: Vec<String>) {
        self.pending_servers = servers;
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Changes the strategy.
    pub fn set_strategy(&mut self, strategy: Strategy) {
        self.strategy = strategy;
    }

    /// The deferred tools, in pool order.
    pub fn deferred(&self) -> &[Arc<D>] {
        &self.deferred
    }

    /// How many times the indexes were built (for tests of the memo).
    #[cfg(feature = "internals")]
    pub fn builds(&self) -> usize {
        self.builds
    }

    /// The seed index (its base shard, the whole index until a server is re-indexed).
    #[cfg(feature = "internals")]
    pub fn seed_index(&self) -> &SeedIndex<D> {
        self.seed
            .base()
            .unwrap_or_else(|| unreachable!("the engine always has a base shard"))
    }

    /// The ranked index, built on first use.
    #[cfg(feature = "internals")]
    pub fn ranked_index(&self) -> &RankedIndex {
        self.ranked()
    }

    fn ranked(&self) -> &RankedIndex {
        self.ranked
            .get_or_init(|| RankedIndex::build(&self.deferred, self.weights))
    }

    /// The fast paths of the seed scan's `fast_path`, from the name tables
    /// (built over `deferred` and `pool`, so their positions are found in them).
    fn fast_path(&self, raw: &str, max_results: usize) -> Option<Vec<String>> {
        if let Some(names) = select_names(raw) {
            // Each name once, in request order, in time linear in the number of names.
            let (mut found, mut seen) = (Vec::new(), None);
            for name in names {
                let tool = match self.deferred_names.exact(name) {
                    Some(i) => self.deferred.get(i),
                    None => (self.pool_names.exact(name)).and_then(|i| self.pool.get(i)),
                };
                if let Some(tool) = tool {
                    push_new(&mut found, &mut seen, tool.name());
                }
            }
            return Some(found);
        }
        let lower = raw.to_lowercase();
        let query = js_trim(&lower);
        let exact = match self.deferred_names.lower(query) {
            Some(i) => self.deferred.get(i),
            None => (self.pool_names.lower(query)).and_then(|i| self.pool.get(i)),
        };
        if let Some(tool) = exact {
            return Some(vec![tool.name().to_owned()]);
        }
        if query.starts_with("mcp__") && query.len() > 5 {
            let prefixed = self.deferred_names.with_prefix(query);
            let matches = names_at(&self.deferred, prefixed.into_iter().take(max_results));
            if !matches.is_empty() {
                return Some(matches);
            }
        }
        None
    }

    /// The ranked strategy: BM25F plus the seed score weighted by [`Weights::seed`] over the
    /// squared number of terms, exactly, for queries of at most [`SEED_BLEND_TERMS`] terms;
    /// BM25F alone for longer ones, where the seed's share has faded to noise and its top-k
    /// over a long request would cost more than everything else.
    ///
    /// Candidates are the best `k` tools by BM25F and the best `k` by the seed score (that
    /// side, the costlier, starts from at most [`CANDIDATES`]), each re-scored with both. A
    /// tool in neither list scores at most the `k`-th BM25F score plus the weighted `k`-th seed
    /// score (zero for a list shorter than `k`, which holds every tool with a positive score),
    /// so once the last of the best `max_results` candidates scores above that, no other tool
    /// can enter. Until then a list grows: the BM25F one while the seed list's bound leaves
    /// room (its scores are computed once per query), else the seed one. A BM25F candidate
    /// outside the seed list is seed-scored only while its BM25F score plus the seed list's
    /// bound can still reach the `max_results`-th blended score: the others cannot place.
    fn blend(
        &self,
        ranked: &RankedScores,
        terms: &Terms,
        max_results: usize,
        allowed: Option<&[u32]>,
    ) -> Vec<(usize, f32)> {
        if max_results == 0 {
            return Vec::new();
        }
        if terms.scoring.len() > SEED_BLEND_TERMS {
            return ranked.top(max_results, allowed);
        }
        let first = max_results.saturating_mul(2).max(CANDIDATES);
        self.blend_from(first, ranked, terms, max_results, allowed)
    }

    /// [`blend`](Self::blend), starting from `first` candidates a side.
    fn blend_from(
        &self,
        first: usize,
        ranked: &RankedScores,
        terms: &Terms,
        max_results: usize,
        allowed: Option<&[u32]>,
    ) -> Vec<(usize, f32)> {
        let seed_weight = self.weights.seed / (terms.scoring.len().max(1) as f32).powi(2);
        let (mut k_rank, mut k_seed) = (first.max(1), CANDIDATES.min(first).max(1));
        let scorer = self.seed.scorer(&terms.scoring);
        let mut by_seed = self.seed.rank_scored_with(&scorer, terms, k_seed);
        // Every candidate scored so far with its blended score, by tool: the lists only grow
        // from one round to the next, so a tool's seed score is computed once.
        let mut candidates: Vec<(usize, f32)> = Vec::new();
        let blended = |(i, seed): (usize, u32)| (i, ranked.of(i) + seed_weight * seed as f32);
        // Kept from round to round: a round's new candidates, the BM25F side's not yet
        // scored, the merge's other half, tool ids to seed-score, and scores to select from.
        let (mut fresh, mut missing, mut spare) = (Vec::new(), Vec::new(), Vec::new());
        let (mut ids, mut keys): (Vec<u32>, Vec<u64>) = (Vec::new(), Vec::new());
        loop {
            let by_rank = ranked.top(k_rank, allowed);
            let known = |list: &[(usize, f32)], i: usize| list.binary_search_by_key(&i, |c| c.0);
            // The seed side's come with their scores.
            fresh.clear();
            fresh.reserve(by_seed.len());
            fresh.extend(
                (by_seed.iter())
                    .filter(|&&(i, _)| known(&candidates, i).is_err())
                    .map(|&candidate| blended(candidate)),
            );
            fresh.sort_unstable_by_key(|&(i, _)| i);
            merge_in(&mut candidates, &fresh, &mut spare);
            let seed_last = by_seed.get(k_seed - 1);
            let seed_floor = seed_last.map_or(0.0, |&(_, seed)| seed_weight * seed as f32);
            // The BM25F side's, best first. One outside the seed list scores at most its
            // BM25F score plus `seed_floor`: once that is below the `max_results`-th blended
            // score so far, neither it nor any after it can place, and their seed scores are
            // not computed. The first batch fills the result; the second goes on while the
            // bound reaches the `max_results`-th.
            missing.clear();
            missing.reserve(by_rank.len());
            missing.extend(
                (by_rank.iter())
                    .filter(|&&(i, _)| known(&candidates, i).is_err())
                    .copied(),
            );
            let positive = candidates.iter().filter(|(_, s)| *s > 0.0).count();
            let fill = max_results.saturating_sub(positive).min(missing.len());
            let (first_batch, rest) = missing.split_at(fill);
            seed_blended(&scorer, first_batch, &mut ids, blended, &mut fresh);
            merge_in(&mut candidates, &fresh, &mut spare);
            // Positive scores, as bits (which order as the scores do).
            keys.clear();
            keys.reserve(candidates.len());
            keys.extend(
                (candidates.iter())
                    .filter(|(_, score)| *score > 0.0)
                    .map(|(_, score)| u64::from(score.to_bits())),
            );
            let theta = match keys.len() >= max_results {
                true => f32::from_bits(
                    *keys
                        .select_nth_unstable_by(max_results - 1, |a, b| b.cmp(a))
                        .1 as u32,
                ),
                false => f32::NEG_INFINITY,
            };
            let reach = rest.partition_point(|&(_, score)| score + seed_floor >= theta);
            let second_batch = rest.get(..reach).unwrap_or_default();
            seed_blended(&scorer, second_batch, &mut ids, blended, &mut fresh);
            merge_in(&mut candidates, &fresh, &mut spare);
            keys.clear();
            keys.extend(
                (candidates.iter())
                    // A seed candidate scores zero when the seed weight is zero.
                    .filter(|(_, score)| *score > 0.0)
                    .map(|&(i, score)| key(i as u32, score)),
            );
            // The best `max_results` in order (each tool once, so the order is total).
            if keys.len() > max_results {
                keys.select_nth_unstable_by(max_results, |a, b| b.cmp(a));
                keys.truncate(max_results);
            }
            keys.sort_unstable_by(|a, b| b.cmp(a));
            let scored: Vec<(usize, f32)> = (keys.iter().map(|&kept| unkey(kept)))
                .map(|(i, score)| (i as usize, score))
                .collect();
            // The last of each full list: its score bounds the tools after it, which also come
            // after it in pool order when they tie with it.
            let rank_last = by_rank.get(k_rank - 1).copied();
            let rank_floor = rank_last.map_or(0.0, |(_, score)| score);
            let outside = rank_floor + seed_floor;
            let after = rank_last.map(|(i, _)| i).max(seed_last.map(|&(i, _)| i));
            let last = scored.get(max_results.saturating_sub(1)).copied();
            let settled = outside <= 0.0
                || last.is_some_and(|(last, score)| {
                    score > outside || (score == outside && after.is_some_and(|i| last <= i))
                });
            if settled {
                return scored;
            }
            // Widen the cheap side, BM25F, while the seed side's floor alone would let the
            // result settle; otherwise the seed side.
            let rank_full = rank_last.is_some();
            if rank_full && (seed_last.is_none() || last.is_some_and(|(_, s)| s > seed_floor)) {
                k_rank = k_rank.saturating_mul(4);
            } else {
                k_seed = k_seed.saturating_mul(4);
                by_seed = self.seed.rank_scored_with(&scorer, terms, k_seed);
            }
        }
    }

    /// Runs a query.
    ///
    /// `max_results` is taken as at most the number of deferred tools, which no result list
    /// exceeds (`select:` and exact names are not capped): neither time nor memory grows
    /// with it beyond that.
    pub fn search(&self, query: &str, max_results: usize) -> SearchOutput {
        let max_results = max_results.min(self.deferred.len());
        let matches = self.fast_path(query, max_results).unwrap_or_else(|| {
            let lower = query.to_lowercase();
            let terms = parse_terms(js_trim(&lower));
            let ranked = match self.strategy {
                Strategy::Seed => self.seed.rank(&terms, max_results),
                Strategy::Ranked => {
                    let allowed = self.seed.required(&terms.required);
                    if allowed.as_ref().is_some_and(Vec::is_empty) {
                        Vec::new()
                    } else {
                        let scores = self.ranked().score(query);
                        let depth = max_results.saturating_mul(DIVERSIFY_DEPTH);
                        let allowed = allowed.as_deref();
                        let blended = match &self.semantic {
                            Some(semantic) => {
                                self.fuse(semantic, query, &scores, &terms, depth, allowed)
                            }
                            None => self.blend(&scores, &terms, depth, allowed),
                        };
                        scores.diversify(&blended, max_results)
                    }
                }
            };
            names_at(&self.deferred, ranked.into_iter())
        });
        SearchOutput::new(matches, query, self.deferred.len(), &self.pending_servers)
    }
}

/// The seed scores of `batch`'s tools (in any order), each blended by `blend`, into `out`
/// sorted by tool; `ids` is scratch.
fn seed_blended<D: Document>(
    scorer: &ShardScorer<D>,
    batch: &[(usize, f32)],
    ids: &mut Vec<u32>,
    blend: impl Fn((usize, u32)) -> (usize, f32),
    out: &mut Vec<(usize, f32)>,
) {
    out.clear();
    if batch.is_empty() {
        return;
    }
    ids.clear();
    ids.extend(batch.iter().map(|&(i, _)| i as u32));
    ids.sort_unstable();
    let scores = scorer.scores(ids);
    out.extend((ids.iter().zip(scores)).map(|(&i, score)| blend((i as usize, score))));
}

/// Merges `new` (sorted by tool, none in `list`) into `list` (sorted by tool); `spare` is
/// scratch, and holds `list`'s old buffer afterwards.
fn merge_in<T: Copy>(list: &mut Vec<(usize, T)>, new: &[(usize, T)], spare: &mut Vec<(usize, T)>) {
    if new.is_empty() {
        return;
    }
    spare.clear();
    spare.reserve(list.len() + new.len());
    let (mut a, mut b) = (list.iter().peekable(), new.iter().peekable());
    while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
        let next = if x.0 < y.0 { a.next() } else { b.next() };
        spare.extend(next.copied());
    }
    spare.extend(a.chain(b).copied());
    std::mem::swap(list, spare);
}

/// The names of the tools at `positions` in `tools` (positions from an index built over them).
pub(crate) fn names_at<D: Document>(
    tools: &[Arc<D>],
    positions: impl ExactSizeIterator<Item = usize>,
) -> Vec<String> {
    let mut names = Vec::with_capacity(positions.len());
    names.extend(
        positions
            .filter_map(|i| tools.get(i))
            .map(|tool| tool.name().to_owned()),
    );
    names
}

/// The MCP servers whose deferred tools differ between `old` and `new`, when nothing else
/// does; `None` when a tool that is not an MCP server's changed.
fn changed_servers<D: Document>(old: &[Arc<D>], new: &[Arc<D>]) -> Option<BTreeSet<String>> {
    fn group<D: Document>(tools: &[Arc<D>]) -> BTreeMap<Option<&str>, Vec<&str>> {
        let mut groups: BTreeMap<Option<&str>, Vec<&str>> = BTreeMap::new();
        for tool in tools {
            groups.entry(tool.server()).or_default().push(tool.name());
        }
        groups
    }
    let (old, new) = (group(old), group(new));
    if old.get(&None) != new.get(&None) {
        return None;
    }
    let servers = old.keys().chain(new.keys()).flatten();
    Some(
        servers
            .filter(|&&server| old.get(&Some(server)) != new.get(&Some(server)))
            .map(|server| (*server).to_owned())
            .collect(),
    )
}

fn deferred_of<D: Document>(pool: &[Arc<D>]) -> Vec<Arc<D>> {
    pool.iter()
        .filter(|tool| tool.is_deferred())
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod input_size_tests;
