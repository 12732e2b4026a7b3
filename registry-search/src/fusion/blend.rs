//! The BM25F strategy's lexical score: BM25F blended with the seed score for short queries,
//! and its exact top-k over both.

use crate::collector::{key, sorted};
use crate::document::Document;
use crate::ranked::{RankedScores, Weights};
use crate::seed::shards::{ShardScorer, Shards};
use crate::text::query::Terms;

/// The most query terms the seed score is blended into the BM25F strategy for: keyword
/// queries. Past this the seed weight is divided by 25 or more.
pub const SEED_BLEND_TERMS: usize = 4;

/// How many candidates the BM25F side first proposes to the BM25F strategy's blend, at least.
const CANDIDATES: usize = 10;

/// How many candidates the seed side first proposes. A seed list shorter than asked holds
/// every tool with a seed score, which spares looking up any other candidate's.
const SEED_CANDIDATES: usize = 10;

/// The seed score is added up from its lists of tools ([`Lexical::blend`]) when they hold at
/// most this many entries for each tool BM25F scored, or at most [`SEED_ENTRIES`]: beyond that,
/// lists of name parts that merely contain a term (`get` in `target`, `budget`, `widget`…) cost
/// more to add up than the top-k search over them: always adding them up took name keywords at
/// 99,160 tools from 196.5 to 375.7 µs a query. Timed both ways, query by query, on the
/// `bench-tantivy` lists and on name keywords at 9,916 and 99,160 tools, these limits came within
/// 2.5 µs of the faster way for every query (`docs/benchmarks-history.md`, "Ranked latency: what
/// is kept").
const SEED_ENTRIES_PER_TOOL: usize = 2;

/// See [`SEED_ENTRIES_PER_TOOL`].
const SEED_ENTRIES: usize = 4096;

/// One query's lexical scores: its BM25F scores ([`RankedScores`]) and the seed index they are
/// blended with.
pub(crate) struct Lexical<'a, D> {
    /// The seed index.
    pub(crate) seed: &'a Shards<D>,
    /// The BM25F strategy's weights ([`Weights::seed`] is the blend's).
    pub(crate) weights: Weights,
    /// The query's BM25F scores.
    pub(crate) ranked: &'a RankedScores<'a>,
    /// The query's terms.
    pub(crate) terms: &'a Terms,
}

impl<D: Document> Lexical<'_, D> {
    /// The BM25F strategy: BM25F plus the seed score weighted by [`Weights::seed`] over the
    /// squared number of terms, exactly, for queries of at most [`SEED_BLEND_TERMS`] terms;
    /// BM25F alone for longer ones, where the seed's share has faded to noise.
    ///
    /// When the seed's lists of tools are not much longer than the postings BM25F has already
    /// visited ([`SEED_ENTRIES_PER_TOOL`]), the seed scores are added up term by term into
    /// an array beside BM25F's, and one top-k reads both. Otherwise (and for a term with
    /// non-word characters) the candidates of both rankings are grown until no other tool can
    /// enter ([`blend_from`](Self::blend_from)).
    pub(crate) fn blend(&self, max_results: usize, allowed: Option<&[u32]>) -> Vec<(usize, f32)> {
        let (ranked, terms) = (self.ranked, self.terms);
        if max_results == 0 {
            return Vec::new();
        }
        if terms.scoring.len() > SEED_BLEND_TERMS {
            return ranked.top(max_results, allowed);
        }
        let scorer = self.seed.scorer(&terms.scoring);
        let limit = (ranked.scored_tools())
            .saturating_mul(SEED_ENTRIES_PER_TOOL)
            .max(SEED_ENTRIES);
        let (mut seed, mut parts) = (ranked.scratch(), ranked.scratch());
        if scorer.add_to(&mut seed, &mut parts, limit) {
            return ranked.top_plus(max_results, allowed, &seed, self.seed_weight());
        }
        let first = max_results.saturating_mul(2).max(CANDIDATES);
        self.grow(&scorer, [first, SEED_CANDIDATES], max_results, allowed)
    }

    /// [`Weights::seed`] over the squared number of terms.
    fn seed_weight(&self) -> f32 {
        self.weights.seed / (self.terms.scoring.len().max(1) as f32).powi(2)
    }

    /// [`blend`](Self::blend) from the two rankings' candidates, starting from `first` on the
    /// BM25F and the seed side.
    ///
    /// Candidates are the best `k` tools by BM25F and the best `k` by the seed score (the
    /// lists start from [`CANDIDATES`] or more and [`SEED_CANDIDATES`]), each re-scored with
    /// both. A tool in neither list scores at most the `k`-th BM25F score plus the weighted
    /// `k`-th seed score (zero for a list shorter than `k`, which holds every tool with a
    /// positive score), so once the last of the best `max_results` candidates scores above
    /// that, no other tool can enter. Until then a list grows: the BM25F one while the seed
    /// list's bound leaves room (its scores are computed once per query), else the seed one.
    /// A BM25F candidate outside the seed list is seed-scored only while its BM25F score plus
    /// the seed list's bound can still reach the `max_results`-th blended score: the others
    /// cannot place.
    #[cfg(test)]
    pub(crate) fn blend_from(
        &self,
        first: [usize; 2],
        max_results: usize,
        allowed: Option<&[u32]>,
    ) -> Vec<(usize, f32)> {
        let scorer = self.seed.scorer(&self.terms.scoring);
        self.grow(&scorer, first, max_results, allowed)
    }

    /// [`blend_from`](Self::blend_from) with the query's terms looked up by `scorer`.
    fn grow(
        &self,
        scorer: &ShardScorer<D>,
        [first_rank, first_seed]: [usize; 2],
        max_results: usize,
        allowed: Option<&[u32]>,
    ) -> Vec<(usize, f32)> {
        let (ranked, terms) = (self.ranked, self.terms);
        let seed_weight = self.seed_weight();
        let (mut k_rank, mut k_seed) = (first_rank.max(1), first_seed.max(1));
        let mut by_seed = self.seed.rank_scored_with(scorer, terms, k_seed);
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
            // A seed list shorter than asked holds every tool with a positive seed score (among
            // all tools: with `allowed`, the seed side filters by its own required terms), so
            // a BM25F candidate outside it scores zero there without being looked up: a rare
            // word's candidates are mostly its tools' server siblings, which match nothing.
            let exhaustive = allowed.is_none() && seed_last.is_none();
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
            seed_blended(
                scorer,
                first_batch,
                exhaustive,
                &mut ids,
                blended,
                &mut fresh,
            );
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
            seed_blended(
                scorer,
                second_batch,
                exhaustive,
                &mut ids,
                blended,
                &mut fresh,
            );
            merge_in(&mut candidates, &fresh, &mut spare);
            keys.clear();
            keys.extend(
                (candidates.iter())
                    // A seed candidate scores zero when the seed weight is zero.
                    .filter(|(_, score)| *score > 0.0)
                    .map(|&(i, score)| key(i as u32, score)),
            );
            // The best `max_results` in order (each tool once, so the order is total).
            let scored: Vec<(usize, f32)> = sorted(&mut keys, max_results);
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
                by_seed = self.seed.rank_scored_with(scorer, terms, k_seed);
            }
        }
    }

    /// The lexical score of each of `tools` (sorted): BM25F with its signals, plus the seed
    /// blend for short queries ([`blend`](Self::blend)).
    pub(crate) fn scores(&self, tools: &[u32]) -> Vec<f32> {
        let count = self.terms.scoring.len();
        let seed: Vec<u32> = match count <= SEED_BLEND_TERMS {
            true => self.seed.scorer(&self.terms.scoring).scores(tools),
            false => vec![0; tools.len()],
        };
        let seed_weight = self.seed_weight();
        (tools.iter().zip(seed))
            .map(|(&tool, seed)| self.ranked.of(tool as usize) + seed_weight * seed as f32)
            .collect()
    }
}

/// The seed scores of `batch`'s tools (in any order), each blended by `blend`, into `out`
/// sorted by tool; `ids` is scratch. With `zero`, every one of them is known to score zero
/// (none is in an exhaustive seed list) and none is looked up.
fn seed_blended<D: Document>(
    scorer: &ShardScorer<D>,
    batch: &[(usize, f32)],
    zero: bool,
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
    if zero {
        out.extend(ids.iter().map(|&i| blend((i as usize, 0))));
        return;
    }
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
