//! The seed index in shards, so that a change to one MCP server's tools re-indexes that
//! server's tools only.
//!
//! The base shard indexes the deferred tools of the last full build. When the tools of some
//! servers change (and nothing else does), their tools in every shard are marked dead and each
//! changed server gets a shard of its own over its new tools. Seed scores have no global
//! statistics (each tool's score depends on the tool and the query alone), so ranking each
//! shard and merging by score, then pool position, gives exactly the ranking of one index
//! over every tool: within a shard, local order is pool order. Past `MAX_OVERLAYS` server
//! shards, or once a quarter of the base is dead, the engine builds one index again.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use super::index::{Scorer, SeedIndex};
use crate::collector::{key, sorted};
use crate::document::Document;
use crate::text::query::Terms;
use crate::util::dense::Dense;

/// The most server shards beside the base before everything is indexed again.
pub(super) const MAX_OVERLAYS: usize = 4;

/// Marks a dead tool in [`Shard::global`].
const DEAD: u32 = u32::MAX;

#[derive(Debug)]
struct Shard<D> {
    /// `None` for the base; otherwise the server whose tools it holds.
    server: Option<String>,
    /// The index, which holds the indexed tools: their names and servers are read from it
    /// (a document never changes).
    index: SeedIndex<D>,
    /// Each indexed tool's position among the engine's deferred tools, or [`DEAD`].
    global: Vec<u32>,
    dead: usize,
}

impl<D: Document> Shard<D> {
    fn new(server: Option<String>, tools: &[Arc<D>]) -> Shard<D> {
        Shard {
            server,
            index: SeedIndex::build(tools),
            global: (0..tools.len() as u32).collect(),
            dead: 0,
        }
    }
}

/// The seed index of an engine: one shard, or a base and a few server shards.
#[derive(Debug)]
pub(crate) struct Shards<D> {
    shards: Vec<Shard<D>>,
    /// For each deferred position: its shard and local position (only with several shards).
    owner: Vec<(u32, u32)>,
}

impl<D: Document> Shards<D> {
    /// One index over `deferred`.
    pub(crate) fn build(deferred: &[Arc<D>]) -> Shards<D> {
        Shards {
            shards: vec![Shard::new(None, deferred)],
            owner: Vec::new(),
        }
    }

    fn single(&self) -> Option<&SeedIndex<D>> {
        match self.shards.as_slice() {
            [only] if only.dead == 0 && only.server.is_none() => Some(&only.index),
            _ => None,
        }
    }

    /// The base shard's index (the whole index when there is one shard).
    #[cfg(any(test, feature = "internals"))]
    pub(crate) fn base(&self) -> Option<&SeedIndex<D>> {
        self.shards.first().map(|shard| &shard.index)
    }

    /// Each shard: its server (`None` for the base) and how many live tools it holds.
    #[cfg(any(test, feature = "internals"))]
    pub(crate) fn layout(&self) -> Vec<(Option<String>, usize)> {
        (self.shards.iter())
            .map(|shard| (shard.server.clone(), shard.global.len() - shard.dead))
            .collect()
    }

    /// Re-indexes the tools of `changed` servers only, for the new `deferred` list (whose other
    /// tools are those already indexed). `false` when a full build is due instead.
    pub(crate) fn replace_servers(
        &mut self,
        deferred: &[Arc<D>],
        changed: &BTreeSet<String>,
    ) -> bool {
        for shard in &mut self.shards {
            for (local, global) in shard.global.iter_mut().enumerate() {
                let server = shard
                    .index
                    .tool(local as u32)
                    .and_then(|tool| tool.server());
                if server.is_some_and(|server| changed.contains(server)) && *global != DEAD {
                    *global = DEAD;
                    shard.dead += 1;
                }
            }
        }
        let base_full = |shards: &[Shard<D>]| {
            shards
                .first()
                .is_none_or(|base| base.dead * 4 > base.global.len())
        };
        if base_full(&self.shards) {
            return false;
        }
        self.shards
            .retain(|shard| shard.server.is_none() || shard.dead < shard.global.len());
        for server in changed {
            let tools: Vec<Arc<D>> = (deferred.iter())
                .filter(|tool| tool.server() == Some(server.as_str()))
                .cloned()
                .collect();
            if !tools.is_empty() {
                self.shards.push(Shard::new(Some(server.clone()), &tools));
            }
        }
        if self.shards.len() - 1 > MAX_OVERLAYS {
            return false;
        }
        // Every live tool's new position; a shard's live tools stay in pool order.
        let positions: HashMap<&str, u32, foldhash::fast::RandomState> =
            (deferred.iter().enumerate())
                .map(|(i, tool)| (tool.name(), i as u32))
                .collect();
        self.owner = vec![(u32::MAX, u32::MAX); deferred.len()];
        for (s, shard) in self.shards.iter_mut().enumerate() {
            for (local, global) in shard.global.iter_mut().enumerate() {
                if *global == DEAD {
                    continue;
                }
                let name = shard
                    .index
                    .tool(local as u32)
                    .map_or("", |tool| tool.name());
                match positions.get(name) {
                    Some(&at) => {
                        *global = at;
                        if let Some(slot) = self.owner.get_mut(at as usize) {
                            *slot = (s as u32, local as u32);
                        }
                    }
                    None => {
                        *global = DEAD;
                        shard.dead += 1;
                    }
                }
            }
        }
        true
    }

    /// The best `max_results` deferred positions for a keyword query, as one index ranks them.
    pub(crate) fn rank(&self, terms: &Terms, max_results: usize) -> Vec<usize> {
        let ranked = self.rank_scored(terms, max_results);
        ranked.into_iter().map(|(at, _)| at).collect()
    }

    /// Like [`rank`](Self::rank), with each tool's seed score.
    pub(crate) fn rank_scored(&self, terms: &Terms, max_results: usize) -> Vec<(usize, u32)> {
        self.rank_scored_with(&self.scorer(&terms.scoring), terms, max_results)
    }

    /// [`rank_scored`](Self::rank_scored) with the terms as `scorer` (made from
    /// `terms.scoring`) looked them up.
    pub(crate) fn rank_scored_with(
        &self,
        scorer: &ShardScorer<D>,
        terms: &Terms,
        max_results: usize,
    ) -> Vec<(usize, u32)> {
        if let (Some(index), [scorer]) = (self.single(), scorer.scorers.as_slice()) {
            return index.rank_scored_with(scorer, terms, max_results);
        }
        let mut scored: Vec<u64> = Vec::new();
        for (shard, scorer) in self.shards.iter().zip(&scorer.scorers) {
            let more = max_results.saturating_add(shard.dead);
            let local = (shard.index).rank_scored_with(scorer, terms, more);
            scored.extend(local.into_iter().filter_map(|(i, score)| {
                let global = *shard.global.get(i)?;
                (global != DEAD).then(|| key(global, score))
            }));
        }
        sorted(&mut scored, max_results)
    }

    /// The deferred positions that pass the required-term filter, sorted; `None` when nothing
    /// is required.
    pub(crate) fn required(&self, required: &[String]) -> Option<Vec<u32>> {
        if let Some(index) = self.single() {
            return index.required(required);
        }
        let mut passing = Vec::new();
        for shard in &self.shards {
            let local = shard.index.required(required)?;
            passing.extend(
                (local.into_iter())
                    .filter_map(|i| shard.global.get(i as usize).copied())
                    .filter(|&g| g != DEAD),
            );
        }
        passing.sort_unstable();
        Some(passing)
    }

    /// The seed scores of chosen deferred positions for the scoring terms `scoring`.
    pub(crate) fn scorer<'a>(&'a self, scoring: &'a [String]) -> ShardScorer<'a, D> {
        ShardScorer {
            shards: self,
            scorers: (self.shards.iter())
                .map(|shard| shard.index.scorer(scoring))
                .collect(),
        }
    }
}

/// Seed scores of chosen deferred positions for one query's terms, from each shard's
/// [`Scorer`].
pub(crate) struct ShardScorer<'a, D> {
    shards: &'a Shards<D>,
    /// One per shard.
    scorers: Vec<Scorer<'a, D>>,
}

impl<D: Document> ShardScorer<'_, D> {
    /// Adds every deferred position's seed score into `scores` (one amount per deferred
    /// position); `parts` is scratch as large, zeros before and after. `false`, with nothing
    /// added, when the terms' lists of tools in every shard hold more than `limit` entries
    /// together, or a term has non-word characters ([`Scorer::entries`]).
    pub(crate) fn add_to(&self, scores: &mut Dense, parts: &mut Dense, limit: usize) -> bool {
        let positions = match self.shards.single() {
            Some(index) => index.len(),
            None => self.shards.owner.len(),
        };
        if scores.len() != positions || parts.len() != positions {
            return false;
        }
        let mut left = limit;
        for scorer in &self.scorers {
            match scorer.entries(left) {
                Some(entries) => left -= entries,
                None => return false,
            }
        }
        if let (Some(_), [scorer]) = (self.shards.single(), self.scorers.as_slice()) {
            scorer.add_to(scores, parts, Some);
            return true;
        }
        for (shard, scorer) in self.shards.shards.iter().zip(&self.scorers) {
            let global = |local: u32| shard.global.get(local as usize).copied();
            scorer.add_to(scores, parts, |local| {
                global(local).filter(|&at| at != DEAD)
            });
        }
        true
    }

    /// The seed score of each of the deferred positions `tools` (ascending, each once).
    pub(crate) fn scores(&self, tools: &[u32]) -> Vec<u32> {
        if let (Some(_), [scorer]) = (self.shards.single(), self.scorers.as_slice()) {
            return scorer.scores(tools);
        }
        let mut per_shard: Vec<Vec<(u32, usize)>> = vec![Vec::new(); self.scorers.len()];
        for (at, &tool) in tools.iter().enumerate() {
            if let Some(&(s, local)) = self.shards.owner.get(tool as usize)
                && let Some(list) = per_shard.get_mut(s as usize)
            {
                list.push((local, at));
            }
        }
        let mut scores = vec![0; tools.len()];
        for (scorer, list) in self.scorers.iter().zip(&mut per_shard) {
            list.sort_unstable();
            let local: Vec<u32> = list.iter().map(|&(local, _)| local).collect();
            for (&(_, at), score) in list.iter().zip(scorer.scores(&local)) {
                if let Some(slot) = scores.get_mut(at) {
                    *slot = score;
                }
            }
        }
        scores
    }
}
