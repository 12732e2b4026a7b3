//! The gaps of a text: its runs of non-word characters between two word characters, and a
//! 32-bit signature of which gaps a description has, so that a term with non-word characters
//! is checked only against the descriptions that can hold it.
//!
//! Where `\bterm\b` matches, every maximal run of non-word characters of the term is a whole
//! gap of the text: inside the term it sits between two of the term's word characters; at the
//! term's start the `\b` before it needs a word character before it, and at its end the `\b`
//! after it needs one after it. So a description lacking one of the term's runs as a gap cannot
//! match, and its signature (one bit per gap, by a hash of the gap) tells so without reading
//! the text. Requests are full of such terms (`paris?`, `data,`, `don't`); without the
//! signature each one read the description of every tool having its words.

use crate::text::{is_js_whitespace, is_word_byte};

/// The runs of non-word characters of `text` that have a word character on each side.
pub(super) fn inner_gaps(text: &str) -> impl Iterator<Item = &str> {
    let mut pieces = (text.split(|ch: char| ch.is_ascii_alphanumeric() || ch == '_')).peekable();
    // Before the first word character (the whole text when it has none).
    pieces.next();
    std::iter::from_fn(move || {
        loop {
            let piece = pieces.next()?;
            // The last piece is after the last word character.
            pieces.peek()?;
            if !piece.is_empty() {
                return Some(piece);
            }
        }
    })
}

/// The signature of a lower-cased text: the bits of its gaps without white space. A query term
/// has none (terms are split at white space), and most gaps are a space: leaving them out
/// keeps a signature's few bits for the gaps a term can need.
///
/// It runs over every description when the index is built, so it looks only at the bytes that
/// are neither word characters nor spaces (a few a description) and reads each one's gap.
pub(super) fn signature(text: &str) -> u32 {
    let bytes = text.as_bytes();
    let mut bits = 0;
    let mut at = 0;
    while let Some(found) = bytes.get(at..).and_then(next_mark) {
        // The run of non-word bytes holding it, from the word byte before (if any) to the one
        // after (if any).
        let found = at + found;
        let before = bytes.get(..found).unwrap_or_default();
        let start = before.iter().rposition(|&byte| is_word_byte(byte));
        let after = bytes.get(found..).unwrap_or_default();
        let end = after
            .iter()
            .position(|&byte| is_word_byte(byte))
            .map(|n| found + n);
        if let (Some(start), Some(end)) = (start, end)
            && let Some(run) = text.get(start + 1..end)
            && !run.chars().any(is_js_whitespace)
        {
            bits |= bit(run);
        }
        match end {
            Some(end) => at = end,
            None => break,
        }
    }
    bits
}

/// The first byte of `bytes` that is neither a word character nor a space, 16 bytes at a time (a
/// test of a block without an early exit compiles to vector instructions).
fn next_mark(bytes: &[u8]) -> Option<usize> {
    let mark = |byte: u8| {
        let letter = (byte | 0x20).wrapping_sub(b'a') < 26;
        let digit = byte.wrapping_sub(b'0') < 10;
        !(letter || digit || byte == b'_' || byte == b' ')
    };
    let mut blocks = bytes.chunks_exact(16);
    let mut base = 0;
    for block in &mut blocks {
        if block.iter().fold(false, |any, &byte| any | mark(byte)) {
            return block.iter().position(|&byte| mark(byte)).map(|i| base + i);
        }
        base += 16;
    }
    blocks
        .remainder()
        .iter()
        .position(|&byte| mark(byte))
        .map(|i| base + i)
}

/// The bits a lower-cased term needs in a text's signature for `\bterm\b` to match there: those
/// of every maximal run of non-word characters of the term (none for a word term).
pub(super) fn needed(term: &str) -> u32 {
    (term.split(|ch: char| ch.is_ascii_alphanumeric() || ch == '_'))
        .filter(|run| !run.is_empty())
        .fold(0, |bits, run| bits | bit(run))
}

/// Whether a text of signature `signature` can hold a term needing `needed`.
#[inline]
pub(super) fn may_hold(signature: u32, needed: u32) -> bool {
    signature & needed == needed
}

/// One bit for a gap: each of the 31 printable ASCII characters that are not word characters
/// its own when it is the whole gap (most gaps a term needs are one such character: `,` `.` `'`
/// `-` `?`), any other gap the bit of its hash.
fn bit(gap: &str) -> u32 {
    if let [byte] = gap.as_bytes()
        && let Some(&own) = PUNCTUATION_BIT.get(usize::from(*byte))
        && own < 32
    {
        return 1 << own;
    }
    let hash = (gap.bytes()).fold(0x811c_9dc5u32, |hash, byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    });
    // FNV-1a's high bits vary little between short gaps: mixed first (a 32-bit finalizer).
    let mut mixed = hash ^ (hash >> 16);
    mixed = mixed.wrapping_mul(0x7feb_352d);
    mixed ^= mixed >> 15;
    mixed = mixed.wrapping_mul(0x846c_a68b);
    mixed ^= mixed >> 16;
    1 << (mixed >> 27)
}

/// For each ASCII byte, its rank among the printable characters that are not word characters
/// (`!` is 0, `~` is 30); 32 for the others.
static PUNCTUATION_BIT: [u8; 128] = {
    let mut table = [32u8; 128];
    let mut slots: &mut [u8] = &mut table;
    let (mut byte, mut rank) = (0u8, 0u8);
    while let Some((slot, rest)) = { slots }.split_first_mut() {
        if byte.is_ascii_graphic() && !(byte.is_ascii_alphanumeric() || byte == b'_') {
            *slot = rank;
            rank += 1;
        }
        byte = byte.wrapping_add(1);
        slots = rest;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{lower_into, matches_word};

    const TEXTS: [&str; 9] = [
        "Reads a file: a+b, then c++ -> d.",
        "Don't send e-mail (optional), see example.com/path?q=1",
        "Prévision MÉTÉO—jour+nuit (été)",
        "data,json and data, csv",
        "x->y x - y x--y é+é É+É",
        "++lead trail++ a++b",
        "",
        "no gaps",
        "What's the weather in Paris?",
    ];

    const TERMS: [&str; 22] = [
        "don't",
        "e-mail",
        "(optional),",
        "example.com",
        "data,",
        "data,json",
        "paris?",
        "c++",
        "->",
        "x->y",
        "a+b",
        "jour+nuit",
        "météo—jour",
        "é+é",
        "(été)",
        "what's",
        "+",
        "path?q",
        "q=1",
        "trail++",
        "++lead",
        "a++b",
    ];

    #[test]
    fn a_text_holding_a_term_has_every_bit_the_term_needs() {
        let mut lower = String::new();
        for text in TEXTS {
            lower_into(text, &mut lower);
            for term in TERMS {
                if matches_word(&lower, term) {
                    assert!(
                        may_hold(signature(&lower), needed(term)),
                        "{term:?} in {text:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_signature_holds_the_bit_of_each_gap_without_white_space() {
        let mut lower = String::new();
        for text in TEXTS
            .iter()
            .chain(&["a\u{a0}b a\u{2003}b a\u{b}b a\tb\u{feff}c a,\u{85}b"])
        {
            lower_into(text, &mut lower);
            let expected = (inner_gaps(&lower))
                .filter(|gap| !gap.chars().any(is_js_whitespace))
                .fold(0, |bits, gap| bits | bit(gap));
            assert_eq!(signature(&lower), expected, "{text:?}");
        }
    }

    proptest::proptest! {
        /// Texts of words, spaces, punctuation and non-ASCII spaces and letters, in any order.
        #[test]
        fn the_signature_of_any_text_is_that_of_its_gaps(text in "[ab_ ,.'\\-\t\u{a0}\u{85}éZ9@\\[`{]{0,24}") {
            let expected = (inner_gaps(&text))
                .filter(|gap| !gap.chars().any(is_js_whitespace))
                .fold(0, |bits, gap| bits | bit(gap));
            proptest::prop_assert_eq!(signature(&text), expected);
        }
    }

    #[test]
    fn each_punctuation_character_alone_has_a_bit_of_its_own() {
        let punctuation: Vec<u8> = (0x21..0x7f)
            .filter(|byte: &u8| !(byte.is_ascii_alphanumeric() || *byte == b'_'))
            .collect();
        assert_eq!(punctuation.len(), 31);
        let bits = (punctuation.iter())
            .map(|&byte| bit(std::str::from_utf8(&[byte]).unwrap_or_default()))
            .fold(0u32, |all, one| {
                assert_eq!(all & one, 0, "a bit shared");
                all | one
            });
        assert_eq!(bits, u32::MAX >> 1);
    }

    #[test]
    fn a_text_without_a_terms_gap_is_turned_away() {
        let mut lower = String::new();
        lower_into("Sends data, then the weather in Paris.", &mut lower);
        // `data,` needs `,` as a gap (a word character after it): here the gap is `, `.
        assert!(!may_hold(signature(&lower), needed("data,")));
        assert!(!may_hold(signature(&lower), needed("paris?")));
        assert!(may_hold(signature(&lower), needed("data")));
        lower_into("data,json", &mut lower);
        assert!(may_hold(signature(&lower), needed("data,")));
    }
}
