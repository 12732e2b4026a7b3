//! The best `k` tools of a search that visits tools in increasing index order, and [`key`]: a
//! tool and its score as one integer that orders as rankings do.
//!
//! A later tool displaces the k-th only with a strictly greater score, so ties keep index
//! (pool) order; the k-th score is the threshold a later tool must beat.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The best `k` tools, best first, ties in index order.
pub(crate) struct TopK {
    k: usize,
    /// Each tool with its score, [`pack`]ed: the least is the worst kept.
    heap: BinaryHeap<Reverse<u64>>,
}

impl TopK {
    /// Keeps the best `k` (more than 0).
    pub(crate) fn new(k: usize) -> TopK {
        TopK {
            k,
            heap: BinaryHeap::with_capacity(k.min(1024) + 1),
        }
    }

    /// The score a later tool must beat.
    pub(crate) fn threshold(&self) -> u32 {
        match self.heap.len() < self.k {
            true => 0,
            false => self.heap.peek().map_or(0, |&Reverse(kept)| unpack(kept).1),
        }
    }

    /// Adds a tool later than every tool so far, whose score beats the threshold.
    pub(crate) fn push(&mut self, tool: u32, score: u32) {
        if self.heap.len() == self.k {
            self.heap.pop();
        }
        self.heap.push(Reverse(pack(tool, score)));
    }

    /// The tools with their scores, best first, ties in index order.
    pub(crate) fn into_sorted(self) -> Vec<(usize, u32)> {
        let mut kept: Vec<u64> = self.heap.into_iter().map(|Reverse(kept)| kept).collect();
        kept.sort_unstable_by(|a, b| b.cmp(a));
        (kept.into_iter())
            .map(|kept| {
                let (tool, score) = unpack(kept);
                (tool as usize, score)
            })
            .collect()
    }
}

/// A tool and its score (not negative) as one number that orders as rankings do: the greater,
/// the higher the score, then the lower the tool. (A float that is not negative has bits that
/// order as its value does.) Selecting and sorting these compares integers.
pub(crate) fn key(tool: u32, score: f32) -> u64 {
    pack(tool, score.to_bits())
}

/// The tool and score of a [`key`].
pub(crate) fn unkey(kept: u64) -> (u32, f32) {
    let (tool, bits) = unpack(kept);
    (tool, f32::from_bits(bits))
}

/// A score (or a float score's bits) in the high half and the tool's complement in the low
/// half: the greater, the higher the score, then the lower the tool.
fn pack(tool: u32, score: u32) -> u64 {
    (u64::from(score) << 32) | u64::from(!tool)
}

/// The tool and score of [`pack`].
fn unpack(kept: u64) -> (u32, u32) {
    (!(kept as u32), (kept >> 32) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_keep_index_order_and_only_greater_scores_displace() {
        let mut top = TopK::new(2);
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
        let mut by_key: Vec<u64> = items
            .iter()
            .map(|&(tool, score)| key(tool, score))
            .collect();
        by_key.sort_unstable_by(|a, b| b.cmp(a));
        let mut by_order = items.to_vec();
        by_order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let keyed: Vec<(u32, f32)> = by_key.into_iter().map(unkey).collect();
        assert_eq!(keyed, by_order);
    }
}
