//! The collector: how every strategy keeps its best `k` tools.
//!
//! There is one order for every ranking, the keyword strategy's (the design's: scores above
//! 0, best first, ties in pool order) and the BM25F strategy's alike: by score, then by the
//! lower tool. [`key`] makes a tool and its score one integer that orders that way, for the
//! keyword strategy's whole-number scores and the BM25F strategy's float ones ([`Score`]), so
//! selecting and sorting compare integers.
//!
//! Two ways of collecting are kept, because the searches feeding them differ:
//!
//! - [`TopK`], a heap of the best `k`, for a search that visits tools in increasing order and
//!   needs the exact `k`-th score after every tool: the keyword strategy's MaxScore search
//!   skips every tool that cannot beat it, and the sooner it is exact the more it skips.
//! - [`best_k`], a buffer cut down to its best `k` each time it fills, for tools given in any
//!   order and in large numbers (the tools a BM25F query's postings reached, in the order they
//!   were first reached): most are turned away by one comparison with the `k`-th of the last
//!   cut, and no heap is kept up for the rest.
//!
//! [`sorted`] cuts either's keys, or any list of keys, to the best `k` in ranking order.
//! Every ranking of the engine goes through here: the keyword index and its shards' merge,
//! the BM25F scores, their blend with the keyword score, and the nearest embeddings. The
//! readable references (`seed/scan.rs`, `ranked/reference.rs`) and the evaluation's BM25
//! baseline sort plainly on their own instead, so that a fault here cannot hide in the code
//! that checks it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A score a ranking orders by: its bits as a `u32` order as the scores do.
pub(crate) trait Score: Copy {
    /// The bits, ordered as the scores are.
    fn bits(self) -> u32;
    /// The score of [`bits`](Score::bits).
    fn from_bits(bits: u32) -> Self;
}

/// The keyword strategy's scores.
impl Score for u32 {
    fn bits(self) -> u32 {
        self
    }
    fn from_bits(bits: u32) -> Self {
        bits
    }
}

/// The BM25F strategy's scores, never negative: a float that is not negative has bits that
/// order as its value does.
impl Score for f32 {
    fn bits(self) -> u32 {
        self.to_bits()
    }
    fn from_bits(bits: u32) -> Self {
        f32::from_bits(bits)
    }
}

/// A tool and its score as one number that orders as rankings do: the greater, the higher the
/// score, then the lower the tool. The score in the high half and the tool's complement in the
/// low half.
pub(crate) fn key<S: Score>(tool: u32, score: S) -> u64 {
    (u64::from(score.bits()) << 32) | u64::from(!tool)
}

/// The tool and score of a [`key`].
pub(crate) fn unkey<S: Score>(kept: u64) -> (u32, S) {
    (!(kept as u32), S::from_bits((kept >> 32) as u32))
}

/// The best `k` of `keys`, in ranking order (best first), with their scores. `keys` is left
/// holding them, as keys (a buffer kept between uses).
pub(crate) fn sorted<S: Score>(keys: &mut Vec<u64>, k: usize) -> Vec<(usize, S)> {
    if keys.len() > k {
        if k > 0 {
            keys.select_nth_unstable_by(k - 1, |a, b| b.cmp(a));
        }
        keys.truncate(k);
    }
    keys.sort_unstable_by(|a, b| b.cmp(a));
    (keys.iter())
        .map(|&kept| {
            let (tool, score) = unkey(kept);
            (tool as usize, score)
        })
        .collect()
}

/// The best `k` tools of a search that visits tools in increasing index order, with the `k`-th
/// score as the threshold a later tool must beat: a later tool displaces the `k`-th only with
/// a strictly greater score, so ties keep index (pool) order.
pub(crate) struct TopK<S> {
    k: usize,
    /// Each tool with its score, as [`key`]s: the least is the worst kept.
    heap: BinaryHeap<Reverse<u64>>,
    score: std::marker::PhantomData<S>,
}

impl<S: Score> TopK<S> {
    /// Keeps the best `k` (more than 0).
    pub(crate) fn new(k: usize) -> TopK<S> {
        TopK {
            k,
            heap: BinaryHeap::with_capacity(k.min(1024) + 1),
            score: std::marker::PhantomData,
        }
    }

    /// The score a later tool must beat (the least score until `k` are kept).
    pub(crate) fn threshold(&self) -> S {
        let kth = match self.heap.len() < self.k {
            true => None,
            false => self.heap.peek().map(|&Reverse(kept)| kept),
        };
        S::from_bits(kth.map_or(0, |kept| unkey::<S>(kept).1.bits()))
    }

    /// Adds a tool later than every tool so far, whose score beats the threshold.
    pub(crate) fn push(&mut self, tool: u32, score: S) {
        if self.heap.len() == self.k {
            self.heap.pop();
        }
        self.heap.push(Reverse(key(tool, score)));
    }

    /// The tools with their scores, best first, ties in index order.
    pub(crate) fn into_sorted(self) -> Vec<(usize, S)> {
        let mut kept: Vec<u64> = self.heap.into_iter().map(|Reverse(kept)| kept).collect();
        sorted(&mut kept, self.k)
    }
}

/// The best `k` of `items` (tools, each once, in any order, with scores not negative) by
/// score, then by the lower tool, as [`key`]s in no order. One pass with a buffer of a few
/// times `k`: each time it fills, the best `k` are selected, and from then on an item that
/// would come after the `k`-th of them is turned away by one or two comparisons.
pub(crate) fn best_k<S: Score>(items: impl Iterator<Item = (u32, S)>, k: usize) -> Vec<u64> {
    if k == 0 {
        return Vec::new();
    }
    // Always more than `k`, so that a full buffer is cut down to its best `k`.
    let capacity = k.saturating_mul(4).max(64);
    let mut kept: Vec<u64> = Vec::with_capacity(capacity.min(1 << 16));
    // The k-th best so far, and its score's bits: an item below it cannot enter.
    let (mut kth, mut kth_bits) = (0, 0);
    let best = |kept: &mut Vec<u64>| {
        if kept.len() > k {
            kept.select_nth_unstable_by(k - 1, |a, b| b.cmp(a));
            kept.truncate(k);
        }
    };
    for (tool, score) in items {
        // Most items are turned away by their score alone.
        if score.bits() < kth_bits {
            continue;
        }
        let item = key(tool, score);
        if item < kth {
            continue;
        }
        kept.push(item);
        if kept.len() >= capacity {
            best(&mut kept);
            // `select_nth_unstable_by` leaves the k-th best last.
            kth = kept.last().copied().unwrap_or(kth);
            kth_bits = (kth >> 32) as u32;
        }
    }
    best(&mut kept);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_keep_index_order_and_only_greater_scores_displace() {
        let mut top = TopK::<u32>::new(2);
        assert_eq!(top.threshold(), 0);
        for (tool, score) in [(0, 5), (1, 7), (2, 5), (3, 9), (4, 7)] {
            if score > top.threshold() {
                top.push(tool, score);
            }
        }
        assert_eq!(top.threshold(), 7);
        assert_eq!(top.into_sorted(), [(3, 9), (1, 7)]);
    }

    #[test]
    fn keys_order_by_score_then_lower_tool() {
        let items = [
            (3, 0.5),
            (1, 2.0),
            (0, 0.5),
            (u32::MAX, 2.0),
            (7, 0.0),
            (2, f32::MAX),
        ];
        let mut keys: Vec<u64> = items
            .iter()
            .map(|&(tool, score)| key(tool, score))
            .collect();
        let mut by_order = items.to_vec();
        by_order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let keyed: Vec<(u32, f32)> = (sorted::<f32>(&mut keys, items.len()).into_iter())
            .map(|(tool, score)| (tool as u32, score))
            .collect();
        assert_eq!(keyed, by_order);
    }

    #[test]
    fn best_k_is_exact_for_a_k_larger_than_the_buffer_reserved_up_front() {
        // 200,000 items in three scores, the best `k` = 70,000 of them.
        let items: Vec<(u32, f32)> = (0..200_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761), (i % 3) as f32))
            .collect();
        let order = |a: &(u32, f32), b: &(u32, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        let mut expected = items.clone();
        expected.sort_by(order);
        expected.truncate(70_000);
        let kept = best_k(items.into_iter(), 70_000);
        let mut kept: Vec<(u32, f32)> = kept.into_iter().map(unkey).collect();
        kept.sort_by(order);
        assert_eq!(kept, expected);
    }

    proptest::proptest! {
        /// Many items, few distinct scores (ties everywhere), in any order: the buffer fills
        /// and is cut down many times, and ties still go to the lower tool; [`sorted`] then
        /// orders them as rankings do. The keyword strategy's whole-number scores collect the
        /// same way, and [`TopK`] fed the same scores in tool order keeps the same tools.
        #[test]
        fn best_k_keeps_the_best_k_by_score_then_lower_tool(
            scores in proptest::collection::vec(0u8..6, 0..2000),
            seed in 0u32..1000,
            k in 0usize..80,
        ) {
            let items: Vec<(u32, f32)> = (scores.iter().enumerate())
                .map(|(i, &score)| ((i as u32).wrapping_mul(2_654_435_761) ^ seed, f32::from(score)))
                .collect();
            let order = |a: &(u32, f32), b: &(u32, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
            let mut expected = items.clone();
            expected.sort_by(order);
            expected.truncate(k);
            let kept: Vec<(u32, f32)> = (sorted::<f32>(&mut best_k(items.iter().copied(), k), k))
                .into_iter()
                .map(|(tool, score)| (tool as u32, score))
                .collect();
            proptest::prop_assert_eq!(&kept, &expected);
            let whole: Vec<(u32, u32)> = (items.iter()).map(|&(tool, score)| (tool, score as u32)).collect();
            let kept: Vec<(u32, u32)> = (sorted::<u32>(&mut best_k(whole.iter().copied(), k), k))
                .into_iter()
                .map(|(tool, score)| (tool as u32, score))
                .collect();
            let expected_whole: Vec<(u32, u32)> =
                (expected.iter()).map(|&(tool, score)| (tool, score as u32)).collect();
            proptest::prop_assert_eq!(&kept, &expected_whole);
            if k > 0 {
                let mut in_order = whole.clone();
                in_order.sort_unstable();
                let mut top = TopK::<u32>::new(k);
                for (tool, score) in in_order {
                    if score > top.threshold() {
                        top.push(tool, score);
                    }
                }
                let positive: Vec<(usize, u32)> = (expected_whole.iter())
                    .filter(|(_, score)| *score > 0)
                    .map(|&(tool, score)| (tool as usize, score))
                    .collect();
                proptest::prop_assert_eq!(top.into_sorted(), positive);
            }
        }
    }
}
