//! The BM25F strategy with an embedder: the lexical score fused with the cosine of the
//! query's and the tools' embeddings (the `semantic` module tells the rule).

use std::sync::Arc;

use super::blend::Lexical;
use crate::document::Document;
use crate::semantic::{Embedder, Vectors};

/// An embedder and the deferred tools' vectors.
#[derive(Debug)]
pub(crate) struct Semantic {
    /// The embedder of queries and tools.
    pub(crate) embedder: Arc<dyn Embedder>,
    /// The deferred tools' vectors, in pool order.
    pub(crate) vectors: Vectors,
}

impl Semantic {
    /// The best `depth` tools by `lexical / best lexical + semantic weight × cosine`, exactly:
    /// the candidates are the best `k` by each part, and `k` grows until no tool outside both
    /// lists can score above the last of the best `depth`.
    pub(crate) fn fuse<D: Document>(
        &self,
        lexical: &Lexical<D>,
        query: &str,
        depth: usize,
        allowed: Option<&[u32]>,
    ) -> Vec<(usize, f32)> {
        let n = self.vectors.len();
        let Some(vector) = self.vectors.query(&*self.embedder, query) else {
            return lexical.blend(depth, allowed);
        };
        let mut k = depth;
        loop {
            let blended = lexical.blend(k, allowed);
            let near = self.vectors.nearest(&vector, k, allowed);
            let best = blended.first().map_or(0.0, |(_, score)| *score);
            let scale = if best > 0.0 { 1.0 / best } else { 0.0 };
            let mut candidates: Vec<u32> = (blended.iter().chain(&near))
                .map(|(tool, _)| *tool as u32)
                .collect();
            candidates.sort_unstable();
            candidates.dedup();
            let lexical_scores = lexical.scores(&candidates);
            let mut fused: Vec<(usize, f32)> = (candidates.iter().zip(lexical_scores))
                .map(|(&tool, score)| {
                    let tool = tool as usize;
                    let cosine = self.vectors.cosine(&vector, tool).max(0.0);
                    (tool, score * scale + lexical.weights.semantic * cosine)
                })
                .filter(|(_, score)| *score > 0.0)
                .collect();
            fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            // A tool in neither list scores at most the last of each full list.
            let last = |list: &[(usize, f32)]| match list.len() == k {
                true => list.last().map_or(0.0, |(_, score)| *score),
                false => 0.0,
            };
            let bound = last(&blended) * scale + lexical.weights.semantic * last(&near);
            let settled = k >= n
                || fused
                    .get(depth.saturating_sub(1))
                    .is_some_and(|(_, s)| *s > bound);
            if settled || bound <= 0.0 {
                fused.truncate(depth);
                return fused;
            }
            k = k.saturating_mul(4);
        }
    }
}
