//! The name parts that contain a query term: a list to walk and a set to test a tool's own
//! parts against, built without sorting when the parts are many.

/// Vocabulary ids of the parts containing a term, for testing a tool's own parts.
#[derive(Debug)]
pub(crate) enum PartSet {
    /// A few, scanned.
    Small(Vec<u32>),
    /// Sorted, searched: once the query's bit sets would take [`BIT_WORDS`].
    Sorted(Vec<u32>),
    /// One bit per part of the vocabulary.
    Bits(Vec<u64>),
}

/// The most 64-bit words the bit sets of one query's terms take together (2 MiB), so that a
/// query of many terms takes memory in proportion to their parts, not to the vocabulary.
pub(crate) const BIT_WORDS: usize = 1 << 18;

/// Up to this many parts (counted with repeats), a set is a list scanned.
const SMALL: usize = 16;

impl PartSet {
    /// The set of `parts` (vocabulary ids below `vocab_len`, in any order, repeats allowed),
    /// with `parts` left holding each once (sorted unless the set is a bit set). A bit set is
    /// paid from `bit_words`.
    pub(crate) fn new(parts: &mut Vec<u32>, vocab_len: usize, bit_words: &mut usize) -> PartSet {
        let words = vocab_len.div_ceil(64);
        let budget = bit_words.checked_sub(words);
        if parts.len() <= SMALL || budget.is_none() {
            parts.sort_unstable();
            parts.dedup();
            return match parts.len() <= SMALL {
                true => PartSet::Small(parts.clone()),
                false => PartSet::Sorted(parts.clone()),
            };
        }
        *bit_words = budget.unwrap_or_default();
        let mut bits = vec![0u64; words];
        // Each part once: the first time its bit is set.
        parts.retain(|&part| {
            bits.get_mut((part / 64) as usize).is_some_and(|word| {
                let bit = 1 << (part % 64);
                let new = *word & bit == 0;
                *word |= bit;
                new
            })
        });
        PartSet::Bits(bits)
    }

    /// Whether `part` is in the set.
    #[inline]
    pub(crate) fn contains(&self, part: u32) -> bool {
        match self {
            PartSet::Small(parts) => parts.contains(&part),
            PartSet::Sorted(parts) => parts.binary_search(&part).is_ok(),
            PartSet::Bits(bits) => bits
                .get((part / 64) as usize)
                .is_some_and(|word| word & (1 << (part % 64)) != 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_sets_past_the_bit_budget_are_searched_and_agree() {
        // Every part twice, in descending order.
        let parts: Vec<u32> = (0..500).rev().flat_map(|i| [i * 7, i * 7]).collect();
        let distinct = |list: &[u32]| {
            let mut list = list.to_vec();
            list.sort_unstable();
            list
        };
        let expected: Vec<u32> = (0..500).map(|i| i * 7).collect();
        let mut budget = 100;
        let mut list = parts.clone();
        let bits = PartSet::new(&mut list, 4_000, &mut budget);
        assert!(matches!(bits, PartSet::Bits(_)) && budget == 100 - 63);
        assert_eq!(distinct(&list), expected, "each part once");
        let mut list = parts.clone();
        let sorted = PartSet::new(&mut list, 4_000, &mut budget);
        assert!(matches!(sorted, PartSet::Sorted(_)) && budget == 37);
        assert_eq!(list, expected);
        let mut few = vec![9, 3, 9];
        assert!(matches!(
            PartSet::new(&mut few, 4_000, &mut budget),
            PartSet::Small(_)
        ));
        assert_eq!(few, [3, 9]);
        for part in 0..4_100 {
            let expected = expected.contains(&part);
            assert_eq!(bits.contains(part), expected, "{part}");
            assert_eq!(sorted.contains(part), expected, "{part}");
        }
    }
}
