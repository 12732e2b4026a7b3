//! The search engine of one pool: indexes built once, rebuilt only when the deferred set
//! changes, queried by the chosen strategy.

use std::sync::{Arc, OnceLock};

use super::index::SeedIndex;
use super::names::NameTable;
use super::ranked::{RankedIndex, Weights};
use super::seed::{parse_terms, select_names};
use super::text::js_trim;
use super::{SearchOutput, ToolSearcher};
use crate::defer::is_deferred;
use crate::env::Env;
use crate::pool::ToolInfo;

/// How many candidates each side proposes to the ranked strategy's blend.
const CANDIDATES: usize = 50;

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
/// stays deferred is not picked up, as in the design) and rebuilds them when it changes.
#[derive(Debug)]
pub struct SearchEngine {
    pool: Vec<Arc<ToolInfo>>,
    deferred: Vec<Arc<ToolInfo>>,
    pool_names: NameTable,
    deferred_names: NameTable,
    seed: SeedIndex,
    ranked: OnceLock<RankedIndex>,
    strategy: Strategy,
    weights: Weights,
    pending_servers: Vec<String>,
    builds: usize,
}

impl SearchEngine {
    /// Indexes the deferred tools of `pool`.
    pub fn new(env: &Env, pool: Vec<Arc<ToolInfo>>, strategy: Strategy) -> Self {
        let deferred = deferred_of(env, &pool);
        let engine = SearchEngine {
            seed: SeedIndex::build(&deferred),
            pool_names: NameTable::build(&pool, false),
            deferred_names: NameTable::build(&deferred, true),
            pool,
            deferred,
            ranked: OnceLock::new(),
            strategy,
            weights: Weights::default(),
            pending_servers: Vec::new(),
            builds: 1,
        };
        if strategy == Strategy::Ranked {
            engine.ranked_index();
        }
        engine
    }

    /// Uses other ranked-strategy weights (drops the ranked index).
    pub fn with_weights(mut self, weights: Weights) -> Self {
        self.weights = weights;
        self.ranked = OnceLock::new();
        self
    }

    /// Replaces the pool; the indexes are rebuilt only when the deferred names changed.
    pub fn update(&mut self, env: &Env, pool: Vec<Arc<ToolInfo>>) {
        let deferred = deferred_of(env, &pool);
        let same = deferred.len() == self.deferred.len()
            && deferred
                .iter()
                .zip(&self.deferred)
                .all(|(a, b)| a.name == b.name);
        self.pool_names = NameTable::build(&pool, false);
        self.pool = pool;
        if !same {
            self.seed = SeedIndex::build(&deferred);
            self.deferred_names = NameTable::build(&deferred, true);
            self.ranked = OnceLock::new();
            self.deferred = deferred;
            self.builds += 1;
        }
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
    pub fn deferred(&self) -> &[Arc<ToolInfo>] {
        &self.deferred
    }

    /// How many times the indexes were built (for tests of the memo).
    pub fn builds(&self) -> usize {
        self.builds
    }

    /// The seed index.
    pub fn seed_index(&self) -> &SeedIndex {
        &self.seed
    }

    /// The ranked index, built on first use.
    pub fn ranked_index(&self) -> &RankedIndex {
        self.ranked
            .get_or_init(|| RankedIndex::build(&self.deferred, self.weights))
    }

    /// The fast paths of [`seed::fast_path`](super::seed::fast_path), from the name tables.
    fn fast_path(&self, raw: &str, max_results: usize) -> Option<Vec<String>> {
        if let Some(names) = select_names(raw) {
            let mut found: Vec<String> = Vec::new();
            for name in names {
                let tool = match self.deferred_names.exact(name) {
                    Some(i) => &self.deferred[i],
                    None => match self.pool_names.exact(name) {
                        Some(i) => &self.pool[i],
                        None => continue,
                    },
                };
                if !found.contains(&tool.name) {
                    found.push(tool.name.clone());
                }
            }
            return Some(found);
        }
        let lower = raw.to_lowercase();
        let query = js_trim(&lower);
        if let Some(i) = self.deferred_names.lower(query) {
            return Some(vec![self.deferred[i].name.clone()]);
        }
        if let Some(i) = self.pool_names.lower(query) {
            return Some(vec![self.pool[i].name.clone()]);
        }
        if query.starts_with("mcp__") && query.len() > 5 {
            let matches: Vec<String> = self
                .deferred_names
                .with_prefix(query)
                .into_iter()
                .take(max_results)
                .map(|i| self.deferred[i].name.clone())
                .collect();
            if !matches.is_empty() {
                return Some(matches);
            }
        }
        None
    }

    /// The ranked strategy: the best BM25F candidates and the best seed candidates, re-scored
    /// as BM25F plus the seed score weighted by [`Weights::seed`] over the squared number of
    /// terms.
    fn blend(
        &self,
        lower: &str,
        terms: &super::seed::Terms,
        max_results: usize,
        allowed: Option<&[u32]>,
    ) -> Vec<usize> {
        let pool = max_results.max(CANDIDATES);
        let mut candidates: Vec<(usize, f32)> =
            self.ranked_index().rank_scored(lower, pool, allowed);
        for i in self.seed.rank(terms, pool) {
            if !candidates.iter().any(|(c, _)| *c == i) {
                candidates.push((i, 0.0));
            }
        }
        let seed_weight = self.weights.seed / (terms.scoring.len().max(1) as f32).powi(2);
        let mut scored: Vec<(usize, f32)> = candidates
            .into_iter()
            .map(|(i, bm25)| {
                let seed = self.seed.text(i).score(&terms.scoring) as f32;
                (i, bm25 + seed_weight * seed)
            })
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored
            .into_iter()
            .take(max_results)
            .map(|(i, _)| i)
            .collect()
    }

    /// Runs a query.
    pub fn search(&self, query: &str, max_results: usize) -> SearchOutput {
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
                        self.blend(&lower, &terms, max_results, allowed.as_deref())
                    }
                }
            };
            ranked
                .into_iter()
                .map(|i| self.deferred[i].name.clone())
                .collect()
        });
        SearchOutput::new(matches, query, self.deferred.len(), &self.pending_servers)
    }
}

impl ToolSearcher for SearchEngine {
    fn search(&self, query: &str, max_results: usize) -> SearchOutput {
        SearchEngine::search(self, query, max_results)
    }
}

fn deferred_of(env: &Env, pool: &[Arc<ToolInfo>]) -> Vec<Arc<ToolInfo>> {
    pool.iter()
        .filter(|tool| is_deferred(tool, env))
        .cloned()
        .collect()
}
