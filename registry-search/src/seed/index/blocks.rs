//! Upper bounds of one query's seed score per block of consecutive tools, so that the MaxScore
//! search (`maxscore/`) passes over whole blocks that cannot beat its threshold.
//!
//! A block's bound adds up, term by term, the most each of the term's groups can give a tool
//! of the block: its part group (the exact source's bound where some tool of the block has an
//! equal part, else the partial source's where one has a containing part), its hint words and
//! its description words. No tool of a block scores more, since its score adds up the same
//! groups, each at most that. The search makes the bounds once the candidates it has turned
//! away have cost about what reading the query's lists costs: in a large pool most candidates of
//! a frequent word's lists come after the threshold has reached its final value, and sit in
//! blocks where no tool can pass it (tools that match one of the query's words without the
//! others). A source with more tools than there are blocks is not read: it counts in every
//! block.

use super::postings::END;

/// Tools in a block, as a shift: 16, the fastest of 8, 16, 32 and 64 on frequent-word queries
/// at 99,160 tools, and no slower than the others at 9,916.
const SHIFT: u32 = 4;

/// Per-block bounds of one query's seed score ([`Blocks::skip`]), a byte a block: a query that
/// MaxScore ranks has at most eight scoring terms (`rank::BY_TERM_RANK`), so its bound is at
/// most 144; a bound that would pass 254 is kept at 255 and never skipped.
pub(super) struct Blocks {
    /// Each block's bound, and the group that last added to it (0 for none), so that a group
    /// adds once a block however many of its tools or lists are there.
    blocks: Vec<(u8, u8)>,
    /// What every block adds to its own bound.
    everywhere: u32,
}

/// A bound that may be more than a byte holds.
const SATURATED: u8 = u8::MAX;

impl Blocks {
    /// How many blocks `tools` tools make when groups are numbered from 1 to `groups`: none
    /// with more groups than a byte numbers (then nothing is skipped).
    pub(super) fn count(tools: usize, groups: usize) -> usize {
        match groups < usize::from(u8::MAX) {
            true => tools.div_ceil(1 << SHIFT),
            false => 0,
        }
    }

    /// No bounds yet, for `tools` tools and groups numbered from 1 to `groups`
    /// ([`count`](Self::count) blocks).
    pub(super) fn new(tools: usize, groups: usize) -> Blocks {
        let blocks = Self::count(tools, groups);
        Blocks {
            blocks: vec![(0, 0); blocks],
            everywhere: 0,
        }
    }

    /// Adds `bound` to every block holding a tool of `list` from tool `from` on, unless
    /// `group` has already added to it. A group's lists are added in order of decreasing
    /// bound (an exact source before the partial one of the same term), so that each block
    /// gets the group's largest.
    pub(super) fn add(&mut self, group: u8, bound: u32, list: &[u32], from: u32) {
        let bound = u8::try_from(bound).unwrap_or(SATURATED);
        let list = list.get(list.partition_point(|&tool| tool < from)..);
        // A list's tools of one block are next to each other: the block is looked at once.
        let mut last = u32::MAX;
        for &tool in list.unwrap_or_default() {
            let block = tool >> SHIFT;
            if block == last {
                continue;
            }
            last = block;
            if let Some((sum, by)) = self.blocks.get_mut(block as usize)
                && *by != group
            {
                *by = group;
                *sum = sum.saturating_add(bound);
            }
        }
    }

    /// The number of blocks.
    pub(super) fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Adds `bound` to every block: for a source with more tools than there are blocks,
    /// which would cost more to read than it could tell (`get` is in tens of thousands of
    /// longer name parts at 100,000 tools).
    pub(super) fn add_everywhere(&mut self, bound: u32) {
        self.everywhere = self.everywhere.saturating_add(bound);
    }

    /// Where to go on from when `tool` is the next candidate and a tool must score above
    /// `theta`: `None` when `tool`'s block may hold such a tool, else the first tool of the
    /// next block ([`END`] past the last). The next candidate is the essential lists' to
    /// find: looking through the bounds for the next block that may beat `theta` read
    /// thousands of them for a rare word's few candidates at 100,000 tools.
    #[inline]
    pub(super) fn skip(&self, tool: u32, theta: u32) -> Option<u32> {
        let block = tool >> SHIFT;
        match self.blocks.get(block as usize) {
            Some(&(bound, _))
                if bound != SATURATED
                    && u32::from(bound).saturating_add(self.everywhere) <= theta =>
            {
                Some((block + 1).checked_shl(SHIFT).unwrap_or(END))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_adds_its_largest_bound_once_a_block() {
        let mut blocks = Blocks::new(64, 2);
        // Group 1: an exact list (12) and a partial list (6) over blocks 0, 1 and 2.
        blocks.add(1, 12, &[1, 2, 17], 0);
        blocks.add(1, 6, &[3, 18, 33], 0);
        // Group 2: description words (2) in blocks 0 and 2.
        blocks.add(2, 2, &[5, 6, 34], 0);
        let bounds: Vec<u8> = blocks.blocks.iter().map(|&(bound, _)| bound).collect();
        assert_eq!(bounds, [14, 12, 8, 0]);
    }

    #[test]
    fn what_every_block_adds_counts_in_the_skip() {
        let mut blocks = Blocks::new(48, 1);
        blocks.add(1, 6, &[20], 0);
        blocks.add_everywhere(6);
        assert_eq!(blocks.skip(0, 6), Some(16));
        assert_eq!(blocks.skip(20, 6), None);
        assert_eq!(blocks.skip(20, 12), Some(32));
    }

    #[test]
    fn a_bound_past_a_byte_is_never_skipped() {
        let mut blocks = Blocks::new(16, 2);
        blocks.add(1, 200, &[0], 0);
        blocks.add(2, 200, &[1], 0);
        assert_eq!(blocks.skip(0, 1000), None);
        assert!(Blocks::new(16, 255).blocks.is_empty());
    }

    #[test]
    fn skip_goes_to_the_next_block_when_no_tool_of_this_one_can_beat_the_threshold() {
        let mut blocks = Blocks::new(75, 2);
        blocks.add(1, 12, &[0, 16, 50], 0);
        blocks.add(2, 4, &[10, 50], 0);
        // Bounds: 16, 12, 0, 16, 0.
        assert_eq!(blocks.skip(10, 15), None);
        assert_eq!(blocks.skip(16, 15), Some(32));
        assert_eq!(blocks.skip(16, 11), None);
        assert_eq!(blocks.skip(50, 16), Some(64));
        assert_eq!(blocks.skip(74, 0), Some(80));
        assert_eq!(blocks.skip(80, 0), None);
    }
}
