//! The search engine of one pool: indexes built once, rebuilt only when the deferred set
//! changes, queried by the chosen strategy.

use std::sync::{Arc, OnceLock};

mod names;

use std::collections::{BTreeMap, BTreeSet};

use self::names::NameTable;
use crate::document::{Document, names_at};
use crate::fusion::blend::Lexical;
use crate::fusion::semantic::Semantic;
use crate::output::SearchOutput;
use crate::ranked::{RankedIndex, RankedScores, Weights};
#[cfg(feature = "internals")]
use crate::seed::index::SeedIndex;
use crate::seed::shards::Shards;
use crate::semantic::{Embedder, Vectors};
use crate::text::js_trim;
use crate::text::query::{Terms, parse_terms, select_names};
use crate::util::distinct::push_new;

/// The BM25F strategy picks its `max_results` tools from this many times as many of the best
/// blended ones ([`RankedIndex::diversify`]).
const DIVERSIFY_DEPTH: usize = 3;

/// How keyword queries are ranked. `select:`, exact names, the `mcp__` prefix and `+required`
/// terms mean the same in every strategy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Strategy {
    /// Keyword scoring: each query word weighed by where it matches in a tool's name, search
    /// hint and description, exactly as the design's ToolSearch scores (the default; the
    /// `seed` modules).
    #[default]
    Keyword,
    /// BM25F over the tools' fields with server priors, blended with the keyword score (the
    /// `ranked` modules).
    Bm25f,
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
    /// The pool's tools that are not deferred: a name is looked up among the deferred tools
    /// first, so the pool's are asked only for names no deferred tool answers to.
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
    ///
    /// With the BM25F strategy the BM25F index is built first and the seed index after it, so
    /// that the BM25F build's counts are never held beside the kept seed index: the memory
    /// peaks at the kept BM25F index beside the seed index's build, the smaller of the two
    /// orders.
    pub fn new(pool: Vec<Arc<D>>, strategy: Strategy) -> Self {
        let deferred = deferred_of(&pool);
        let weights = Weights::default();
        let ranked = match strategy {
            Strategy::Bm25f => OnceLock::from(RankedIndex::build(&deferred, weights)),
            Strategy::Keyword => OnceLock::new(),
        };
        SearchEngine {
            seed: Shards::build(&deferred),
            pool_names: NameTable::not_deferred(&pool),
            deferred_names: NameTable::build(&deferred, true),
            pool,
            deferred,
            ranked,
            strategy,
            weights,
            pending_servers: Vec::new(),
            builds: 1,
            semantic: None,
        }
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
        self.pool_names = NameTable::not_deferred(&pool);
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
                let tool = match self.deferred_names.exact(&self.deferred, name) {
                    Some(i) => self.deferred.get(i),
                    None => {
                        (self.pool_names.exact(&self.pool, name)).and_then(|i| self.pool.get(i))
                    }
                };
                if let Some(tool) = tool {
                    push_new(&mut found, &mut seen, tool.name());
                }
            }
            return Some(found);
        }
        let lower = raw.to_lowercase();
        let query = js_trim(&lower);
        let exact = match self.deferred_names.lower(&self.deferred, query) {
            Some(i) => self.deferred.get(i),
            None => (self.pool_names.lower(&self.pool, query)).and_then(|i| self.pool.get(i)),
        };
        if let Some(tool) = exact {
            return Some(vec![tool.name().to_owned()]);
        }
        if query.starts_with("mcp__") && query.len() > 5 {
            let prefixed = self.deferred_names.with_prefix(&self.deferred, query);
            let matches = names_at(&self.deferred, prefixed.into_iter().take(max_results));
            if !matches.is_empty() {
                return Some(matches);
            }
        }
        None
    }

    /// Fuses `embedder`'s meaning of queries and tools into the BM25F strategy, embedding
    /// every deferred tool now (see the `semantic` module for the rule and the cost). The seed
    /// strategy is unchanged.
    pub fn with_embedder(mut self, embedder: Arc<dyn Embedder>) -> Self {
        let vectors = Vectors::build(&*embedder, &self.deferred, None);
        self.semantic = Some(Semantic { embedder, vectors });
        self
    }

    /// Embeds the deferred tools again after the pool changed, reusing the vectors of tools
    /// whose text did not.
    fn refresh_vectors(&mut self) {
        if let Some(semantic) = &mut self.semantic {
            semantic.vectors =
                Vectors::build(&*semantic.embedder, &self.deferred, Some(&semantic.vectors));
        }
    }

    /// The lexical side of the BM25F strategy for one query: `ranked`'s BM25F scores blended
    /// with the seed index's scores of `terms`.
    fn lexical<'a>(&'a self, ranked: &'a RankedScores<'a>, terms: &'a Terms) -> Lexical<'a, D> {
        Lexical {
            seed: &self.seed,
            weights: self.weights,
            ranked,
            terms,
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
                Strategy::Keyword => self.seed.rank(&terms, max_results),
                Strategy::Bm25f => {
                    let allowed = self.seed.required(&terms.required);
                    if allowed.as_ref().is_some_and(Vec::is_empty) {
                        Vec::new()
                    } else {
                        let scores = self.ranked().score(query);
                        let depth = max_results.saturating_mul(DIVERSIFY_DEPTH);
                        let allowed = allowed.as_deref();
                        let lexical = self.lexical(&scores, &terms);
                        let blended = match &self.semantic {
                            Some(semantic) => semantic.fuse(&lexical, query, depth, allowed),
                            None => lexical.blend(depth, allowed),
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

#[cfg(test)]
mod semantic_tests;
