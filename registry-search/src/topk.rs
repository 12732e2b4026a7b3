//! The best `k` tools of a search that visits tools in increasing index order.
//!
//! A later tool displaces the k-th only with a strictly greater score, so ties keep index
//! (pool) order; the k-th score is the threshold a later tool must beat.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The best `k` tools, best first, ties in index order.
pub(super) struct TopK {
    k: usize,
    heap: BinaryHeap<Reverse<(u32, Reverse<u32>)>>,
}

impl TopK {
    /// Keeps the best `k` (more than 0).
    pub(super) fn new(k: usize) -> TopK {
        TopK {
            k,
            heap: BinaryHeap::with_capacity(k.min(1024) + 1),
        }
    }

    /// The score a later tool must beat.
    pub(super) fn threshold(&self) -> u32 {
        match self.heap.len() < self.k {
            true => 0,
            false => self.heap.peek().map_or(0, |entry| entry.0.0),
        }
    }

    /// Adds a tool later than every tool so far, whose score beats the threshold.
    pub(super) fn push(&mut self, tool: u32, score: u32) {
        if self.heap.len() == self.k {
            self.heap.pop();
        }
        self.heap.push(Reverse((score, Reverse(tool))));
    }

    /// The tools with their scores, best first, ties in index order.
    pub(super) fn into_sorted(self) -> Vec<(usize, u32)> {
        let mut entries: Vec<(usize, u32)> = self
            .heap
            .into_iter()
            .map(|Reverse((score, Reverse(tool)))| (tool as usize, score))
            .collect();
        entries.sort_unstable_by_key(|&(tool, score)| (Reverse(score), tool));
        entries
    }
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
}
