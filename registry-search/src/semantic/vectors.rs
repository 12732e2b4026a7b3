//! The deferred tools' embeddings, and the nearest tools to a query's.

use std::sync::Arc;

use super::Embedder;
use crate::collector::{key, sorted};
use crate::document::Document;
use crate::text::plain_words;

/// What a tool is embedded from: its server, its name's words and its description
/// (`weather api: get forecast. Returns the forecast for a city`).
pub(crate) fn tool_text(tool: &impl Document) -> String {
    let mut text = String::new();
    if let Some(server) = tool.server() {
        text.push_str(server);
        text.push_str(": ");
    }
    let mut first = true;
    plain_words(tool.own_name(), |word| {
        if !std::mem::take(&mut first) {
            text.push(' ');
        }
        text.push_str(&word);
    });
    text.push_str(". ");
    text.push_str(tool.description());
    text
}

/// Unit vectors, one per tool, in pool order (a tool whose vector is zero or of the wrong
/// length has a zero row: it is near nothing).
#[derive(Debug, Default)]
pub(crate) struct Vectors {
    dimension: usize,
    rows: Vec<f32>,
    /// The text each row was embedded from, to reuse rows whose text did not change.
    texts: Vec<String>,
}

/// `vector` scaled to unit length, or `None` when it has the wrong length or no length.
fn unit(vector: Vec<f32>, dimension: usize) -> Option<Vec<f32>> {
    let norm = vector.iter().map(|v| v * v).sum::<f32>().sqrt();
    (vector.len() == dimension && norm > 0.0 && norm.is_finite())
        .then(|| vector.into_iter().map(|v| v / norm).collect())
}

impl Vectors {
    /// The number of tools.
    pub(crate) fn len(&self) -> usize {
        self.texts.len()
    }

    /// Embeds `tools`, reusing the rows of `previous` whose text is the same.
    pub(crate) fn build<D: Document>(
        embedder: &dyn Embedder,
        tools: &[Arc<D>],
        previous: Option<&Vectors>,
    ) -> Vectors {
        let dimension = embedder.dimension();
        let texts: Vec<String> = tools.iter().map(|tool| tool_text(&**tool)).collect();
        let reusable = previous.filter(|p| p.dimension == dimension);
        let old: std::collections::HashMap<&str, usize> = reusable
            .map(|p| {
                p.texts
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (t.as_str(), i))
                    .collect()
            })
            .unwrap_or_default();
        let todo: Vec<usize> = (0..texts.len())
            .filter(|i| texts.get(*i).is_none_or(|t| !old.contains_key(t.as_str())))
            .collect();
        let fresh = embed_all(embedder, &texts, &todo);
        let mut rows = vec![0.0; texts.len() * dimension];
        for (row, text) in rows.chunks_exact_mut(dimension.max(1)).zip(&texts) {
            if let (Some(&at), Some(previous)) = (old.get(text.as_str()), reusable)
                && let Some(source) = previous.row(at)
            {
                row.copy_from_slice(source);
            }
        }
        for (i, vector) in todo.into_iter().zip(fresh) {
            if let (Some(vector), Some(row)) = (
                unit(vector, dimension),
                rows.chunks_exact_mut(dimension.max(1)).nth(i),
            ) {
                row.copy_from_slice(&vector);
            }
        }
        Vectors {
            dimension,
            rows,
            texts,
        }
    }

    fn row(&self, tool: usize) -> Option<&[f32]> {
        self.rows.chunks_exact(self.dimension.max(1)).nth(tool)
    }

    /// The query's unit vector (`None` when the embedder gave none usable).
    pub(crate) fn query(&self, embedder: &dyn Embedder, text: &str) -> Option<Vec<f32>> {
        unit(embedder.embed(text), self.dimension)
    }

    /// The cosine of tool `tool` with the query's unit vector.
    pub(crate) fn cosine(&self, query: &[f32], tool: usize) -> f32 {
        self.row(tool).map_or(0.0, |row| dot(row, query))
    }

    /// The `k` tools nearest the query with a positive cosine, nearest first, ties in pool
    /// order; `allowed` (sorted), when given, restricts them.
    pub(crate) fn nearest(
        &self,
        query: &[f32],
        k: usize,
        allowed: Option<&[u32]>,
    ) -> Vec<(usize, f32)> {
        let rows = self.rows.chunks_exact(self.dimension.max(1)).enumerate();
        let mut near: Vec<u64> = rows
            .filter(|(tool, _)| {
                allowed.is_none_or(|list| list.binary_search(&(*tool as u32)).is_ok())
            })
            .map(|(tool, row)| (tool as u32, dot(row, query)))
            .filter(|(_, cosine)| *cosine > 0.0)
            .map(|(tool, cosine)| key(tool, cosine))
            .collect();
        sorted(&mut near, k)
    }
}

/// The dot product of two vectors (the cosine, for unit vectors).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

/// Embeds the texts at `todo`, spread over the machine's cores; the vectors in `todo`'s order,
/// one per text (empty, so near nothing, where an embedder gave too few).
/// Each core takes every `threads`-th text rather than a run of them: a pool's texts come server
/// by server, and a server of long descriptions left to one core kept the others waiting.
fn embed_all(embedder: &dyn Embedder, texts: &[String], todo: &[usize]) -> Vec<Vec<f32>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    embed_spread(embedder, texts, todo, threads)
}

/// [`embed_all`] on `threads` threads.
fn embed_spread(
    embedder: &dyn Embedder,
    texts: &[String],
    todo: &[usize],
    threads: usize,
) -> Vec<Vec<f32>> {
    let embed = |part: &[usize]| -> Vec<Vec<f32>> {
        let part: Vec<&str> = (part.iter())
            .map(|&i| texts.get(i).map_or("", String::as_str))
            .collect();
        embedder.embed_batch(&part)
    };
    let threads = threads.clamp(1, todo.len().max(1));
    let parts: Vec<Vec<Vec<f32>>> = match threads {
        1 => vec![embed(todo)],
        _ => std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|first| {
                    let part: Vec<usize> =
                        todo.iter().skip(first).step_by(threads).copied().collect();
                    scope.spawn(move || embed(&part))
                })
                .collect();
            (handles.into_iter())
                .map(|handle| {
                    handle
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        }),
    };
    // Back in `todo`'s order: its `i`-th text went to part `i % threads`, in order. A part
    // short of vectors leaves its own texts without one, never another part's.
    let mut parts: Vec<_> = parts.into_iter().map(Vec::into_iter).collect();
    (0..todo.len())
        .map(|i| {
            (parts.get_mut(i % threads))
                .and_then(Iterator::next)
                .unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text's vector: its length and its first byte.
    #[derive(Debug)]
    struct Lengths;

    impl Embedder for Lengths {
        fn dimension(&self) -> usize {
            2
        }
        fn embed(&self, text: &str) -> Vec<f32> {
            vec![
                text.len() as f32,
                f32::from(text.bytes().next().unwrap_or(0)),
            ]
        }
    }

    /// [`Lengths`], short of the last vector of every batch.
    #[derive(Debug)]
    struct Short;

    impl Embedder for Short {
        fn dimension(&self) -> usize {
            2
        }
        fn embed(&self, text: &str) -> Vec<f32> {
            Lengths.embed(text)
        }
        fn embed_batch(&self, texts: &[&str]) -> Vec<Vec<f32>> {
            let mut vectors: Vec<Vec<f32>> = texts.iter().map(|text| self.embed(text)).collect();
            vectors.pop();
            vectors
        }
    }

    #[test]
    fn an_embedder_short_of_vectors_leaves_only_its_own_texts_without_one() {
        let texts: Vec<String> = ["a", "bb", "ccc", "dddd", "eeeee"]
            .map(String::from)
            .to_vec();
        let todo = [0, 1, 2, 3, 4];
        // One thread: the last text has none. Two: each part's last (texts 3 and 4).
        let one: Vec<Vec<f32>> = todo.iter().map(|&i| Lengths.embed(&texts[i])).collect();
        let mut expected = one.clone();
        expected[4] = Vec::new();
        assert_eq!(embed_spread(&Short, &texts, &todo, 1), expected);
        expected[3] = Vec::new();
        assert_eq!(embed_spread(&Short, &texts, &todo, 2), expected);
    }

    #[test]
    fn texts_spread_over_threads_come_back_in_their_order() {
        let texts: Vec<String> = ["a", "bb", "ccc", "dddd", "eeeee", "ffffff", "g"]
            .map(String::from)
            .to_vec();
        let todo = [0, 2, 3, 5, 6];
        let one_by_one: Vec<Vec<f32>> = todo.iter().map(|&i| Lengths.embed(&texts[i])).collect();
        for threads in 1..=6 {
            assert_eq!(
                embed_spread(&Lengths, &texts, &todo, threads),
                one_by_one,
                "{threads} threads"
            );
        }
    }
}
