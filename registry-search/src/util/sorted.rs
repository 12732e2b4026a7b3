//! Sorted strings searched by their first eight bytes: the keys sit side by side in memory, so
//! a binary search reads a string only where keys tie, instead of following a pointer to a
//! string at every step.

/// The first 8 bytes of `bytes` as a big-endian number, zero-padded: ordering by it orders by
/// those bytes.
#[inline]
pub(crate) fn key8(bytes: &[u8]) -> u64 {
    if let Some(head) = bytes.first_chunk::<8>() {
        return u64::from_be_bytes(*head);
    }
    let mut key = [0u8; 8];
    for (slot, &byte) in key.iter_mut().zip(bytes) {
        *slot = byte;
    }
    u64::from_be_bytes(key)
}

/// Distinct strings in byte order, each with its [`key8`].
///
/// A string below another never has a larger key (keys tie when the first eight bytes do, or
/// where a shorter string's zero padding meets zero bytes), so the strings whose keys are below
/// a query's are below it, and only those tying with it are compared as strings.
#[derive(Debug, Default)]
pub(crate) struct SortedStrs {
    keys: Vec<u64>,
    strs: Vec<Box<str>>,
}

impl SortedStrs {
    /// The table of `strs`, sorted in byte order and deduplicated.
    pub(crate) fn new(mut strs: Vec<Box<str>>) -> SortedStrs {
        strs.sort_unstable();
        strs.dedup();
        let keys = strs.iter().map(|s| key8(s.as_bytes())).collect();
        SortedStrs { keys, strs }
    }

    /// The position of the first string not below `s`.
    pub(crate) fn lower_bound(&self, s: &str) -> usize {
        let key = key8(s.as_bytes());
        let from = self.keys.partition_point(|&k| k < key);
        // Few strings share their first eight bytes: the run of ties is walked.
        let ties = (self.keys.get(from..).unwrap_or_default().iter())
            .take_while(|&&k| k == key)
            .count();
        let tied = self.strs.get(from..from + ties).unwrap_or_default();
        from + tied.partition_point(|t| &**t < s)
    }

    /// The string at `at`.
    pub(crate) fn get(&self, at: usize) -> Option<&str> {
        self.strs.get(at).map(|s| &**s)
    }

    /// The strings from `at` on, in order.
    pub(crate) fn from(&self, at: usize) -> impl Iterator<Item = &str> {
        (self.strs.get(at..).unwrap_or_default().iter()).map(|s| &**s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The lower bound is where a plain binary search over the strings puts it, for
        /// strings that share long prefixes, are prefixes of each other, or hold zero bytes.
        #[test]
        fn lower_bound_equals_a_search_of_the_strings(
            strs in proptest::collection::vec("(abcdefgh|ab|\0|x){0,4}", 0..40),
            query in "(abcdefgh|ab|\0|x){0,4}",
        ) {
            let table = SortedStrs::new(strs.iter().map(|s| s.as_str().into()).collect());
            let mut sorted: Vec<&str> = strs.iter().map(String::as_str).collect();
            sorted.sort_unstable();
            sorted.dedup();
            let expected = sorted.partition_point(|s| *s < query.as_str());
            proptest::prop_assert_eq!(table.lower_bound(&query), expected);
            proptest::prop_assert_eq!(table.from(0).collect::<Vec<_>>(), sorted);
        }
    }
}
