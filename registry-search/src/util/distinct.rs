//! Query-time sets of distinct strings: found by a scan while they are few, by a hash map
//! beyond, so that a query of thousands of terms or names stays linear while a short one pays
//! no hashing.

use std::collections::HashMap;

/// Up to this many strings are found by a scan.
const FEW: usize = 8;

/// Distinct strings in the order they were first added, each with the number of times it
/// was added.
#[derive(Debug, Default)]
pub(crate) struct Distinct<'a> {
    entries: Vec<(&'a str, u32)>,
    /// The position of each string, once there are more than [`FEW`].
    map: Option<HashMap<&'a str, usize, foldhash::fast::RandomState>>,
}

impl<'a> Distinct<'a> {
    /// Adds `text` once more: its position, and whether it is new (then it is at the end).
    pub(crate) fn insert(&mut self, text: &'a str) -> (usize, bool) {
        if let Some(at) = self.position(text) {
            if let Some((_, count)) = self.entries.get_mut(at) {
                *count += 1;
            }
            return (at, false);
        }
        let at = self.entries.len();
        self.entries.push((text, 1));
        match &mut self.map {
            Some(map) => {
                map.insert(text, at);
            }
            None if at >= FEW => {
                let positions = self.entries.iter().enumerate().map(|(i, (s, _))| (*s, i));
                self.map = Some(positions.collect());
            }
            None => {}
        }
        (at, true)
    }

    /// The position of `text`, when it was added.
    pub(crate) fn position(&self, text: &str) -> Option<usize> {
        match &self.map {
            Some(map) => map.get(text).copied(),
            None => self.entries.iter().position(|(seen, _)| *seen == text),
        }
    }

    /// Whether `text` was added.
    pub(crate) fn contains(&self, text: &str) -> bool {
        self.position(text).is_some()
    }

    /// The strings with their counts, in the order they were first added.
    pub(crate) fn entries(&self) -> &[(&'a str, u32)] {
        &self.entries
    }

    /// The strings, in the order they were first added.
    pub(crate) fn texts(&self) -> impl ExactSizeIterator<Item = &'a str> + '_ {
        self.entries.iter().map(|(text, _)| *text)
    }
}

/// Pushes `name` to `found` unless it is there. Past a few names, `seen` holds them too, so
/// that a long list of names is checked in linear time.
pub(crate) fn push_new(found: &mut Vec<String>, seen: &mut Option<HashSet<String>>, name: &str) {
    let new = match seen {
        Some(seen) => !seen.contains(name) && seen.insert(name.to_owned()),
        None => !found.iter().any(|known| known == name),
    };
    if new {
        found.push(name.to_owned());
        if seen.is_none() && found.len() > FEW {
            *seen = Some(found.iter().cloned().collect());
        }
    }
}

/// A set of names, hashed with foldhash.
pub(crate) type HashSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;

impl<'a> FromIterator<&'a str> for Distinct<'a> {
    fn from_iter<I: IntoIterator<Item = &'a str>>(texts: I) -> Self {
        let texts = texts.into_iter();
        let mut distinct = Distinct {
            entries: Vec::with_capacity(texts.size_hint().0.min(FEW)),
            map: None,
        };
        for text in texts {
            distinct.insert(text);
        }
        distinct
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_counts_are_kept_below_and_above_the_scan_limit() {
        let words: Vec<String> = (0..100).map(|i| format!("w{}", i % 40)).collect();
        let mut distinct = Distinct::default();
        for (i, word) in words.iter().enumerate() {
            let (at, new) = distinct.insert(word);
            assert_eq!((at, new), (i % 40, i < 40), "{word}");
        }
        let expected: Vec<(String, u32)> = (0..40)
            .map(|i| (format!("w{i}"), if i < 20 { 3 } else { 2 }))
            .collect();
        let found: Vec<(String, u32)> = (distinct.entries().iter())
            .map(|(text, count)| (text.to_string(), *count))
            .collect();
        assert_eq!(found, expected);
        assert!(distinct.contains("w39") && !distinct.contains("w40"));
        let few: Distinct = ["a", "b", "a"].into_iter().collect();
        assert_eq!(few.entries(), [("a", 2), ("b", 1)]);
        assert_eq!(few.position("b"), Some(1));
        let exactly: Distinct = (0..FEW + 1).map(|i| ["x", "y"][i % 2]).collect();
        assert_eq!(exactly.entries(), [("x", 5), ("y", 4)]);
    }

    #[test]
    fn names_are_pushed_once_in_order_below_and_above_the_scan_limit() {
        let (mut found, mut seen) = (Vec::new(), None);
        for i in 0..100 {
            push_new(&mut found, &mut seen, &format!("n{}", i % 30));
        }
        let expected: Vec<String> = (0..30).map(|i| format!("n{i}")).collect();
        assert_eq!(found, expected);
    }
}
