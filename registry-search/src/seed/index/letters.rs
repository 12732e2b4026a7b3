//! Each tool's name letters: which of the ASCII letters `a`–`z` its name parts hold, one bit
//! each, beside whether its name is an MCP name, in one word per tool.
//!
//! A one-letter term is contained in nearly every name part (`a` in `data`, `search`,
//! `weather`), so its list of containing parts, read part by part, holds more entries than the
//! pool has tools; a request says `a` and `i` in nearly every sentence. With these bits, a
//! one-letter term's part score is one pass over the tools instead.

/// The bit of an MCP name.
const MCP: u32 = 1 << 31;

/// One tool's name letters and MCP flag.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct NameLetters(u32);

impl NameLetters {
    /// The letters of the name `parts`, and `mcp`, whether the name is an MCP name.
    pub(super) fn new<'a>(parts: impl IntoIterator<Item = &'a [u8]>, mcp: bool) -> NameLetters {
        let mut bits = if mcp { MCP } else { 0 };
        for part in parts {
            for &byte in part {
                bits |= letter_bit(byte).unwrap_or(0);
            }
        }
        NameLetters(bits)
    }

    /// Whether the name is an MCP name.
    pub(super) fn is_mcp(self) -> bool {
        self.0 & MCP != 0
    }

    /// Whether a name part holds the letter `bit` ([`term_bit`]).
    pub(super) fn has(self, bit: u32) -> bool {
        self.0 & bit != 0
    }
}

/// The bit of a term of one letter `a`–`z` (none for any other term).
pub(super) fn term_bit(term: &str) -> Option<u32> {
    match term.as_bytes() {
        &[byte] => letter_bit(byte),
        _ => None,
    }
}

fn letter_bit(byte: u8) -> Option<u32> {
    byte.is_ascii_lowercase().then(|| 1 << (byte - b'a'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_letter_is_held_when_any_part_has_it_and_only_lower_case_ascii_letters_have_bits() {
        let letters = NameLetters::new([&b"get"[..], b"weather", b"v2"], true);
        assert!(letters.is_mcp());
        for held in ["a", "e", "g", "h", "r", "t", "v", "w"] {
            assert!(letters.has(term_bit(held).unwrap()), "{held}");
        }
        for missing in ["b", "i", "z"] {
            assert!(!letters.has(term_bit(missing).unwrap()), "{missing}");
        }
        for other in ["A", "2", "ab", "", "é", "_"] {
            assert_eq!(term_bit(other), None, "{other:?}");
        }
        assert!(!NameLetters::new([&b"a"[..]], false).is_mcp());
    }
}
