//! Splitting names and texts for the seed index, with no allocation per tool: name parts as
//! [`parse_tool_name`] makes them, lower-casing into a reused buffer, and word runs.

use std::collections::HashMap;

use super::text::{is_js_whitespace, parse_tool_name};

/// Ids of byte strings (text split at ASCII characters stays UTF-8), hashed with foldhash.
pub(super) type Map = HashMap<Box<[u8]>, u32, foldhash::fast::RandomState>;

/// Whether every byte of `term` is an ASCII word character.
pub(crate) fn is_word_term(term: &str) -> bool {
    term.bytes().all(is_word_byte)
}

#[inline]
pub(super) fn is_word_byte(byte: u8) -> bool {
    // Every byte has an entry: the lookup compiles to a load.
    WORD_BYTES.get(usize::from(byte)).copied().unwrap_or(false)
}

/// `[A-Za-z0-9_]`, by byte.
static WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut slots: &mut [bool] = &mut table;
    let mut byte = 0u8;
    while let Some((slot, rest)) = { slots }.split_first_mut() {
        *slot = byte.is_ascii_alphanumeric() || byte == b'_';
        byte = byte.wrapping_add(1);
        slots = rest;
    }
    table
};

/// The maximal runs of ASCII word characters of a lower-cased text.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
        .filter(|word| !word.is_empty())
}

/// `text.to_lowercase()` into `out`, without allocating for ASCII text.
pub(crate) fn lower_into(text: &str, out: &mut String) {
    out.clear();
    if text.is_ascii() {
        out.push_str(text);
        out.make_ascii_lowercase();
    } else {
        out.push_str(&text.to_lowercase());
    }
}

/// The non-empty name parts of `name` as [`parse_tool_name`] splits them, written to `out`
/// with their byte ranges in `ranges`; returns whether it is an MCP name.
pub(super) fn split_name(name: &str, out: &mut String, ranges: &mut Vec<(u32, u32)>) -> bool {
    out.clear();
    ranges.clear();
    let (mcp, rest) = match name.strip_prefix("mcp__") {
        Some(rest) => (true, rest),
        None => (false, name),
    };
    if !rest.is_ascii() {
        let parsed = parse_tool_name(name);
        for part in parsed.parts.iter().filter(|part| !part.is_empty()) {
            let start = out.len() as u32;
            out.push_str(part);
            ranges.push((start, out.len() as u32));
        }
        return parsed.is_mcp;
    }
    let mut start = 0;
    let mut close = |out: &mut String, start: &mut usize| {
        if out.len() > *start {
            ranges.push((*start as u32, out.len() as u32));
        }
        *start = out.len();
    };
    let mut previous = 0u8;
    for &byte in rest.as_bytes() {
        if byte == b'_' || (!mcp && is_js_whitespace(byte as char)) {
            close(out, &mut start);
        } else {
            if !mcp && previous.is_ascii_lowercase() && byte.is_ascii_uppercase() {
                close(out, &mut start);
            }
            out.push(byte.to_ascii_lowercase() as char);
        }
        previous = byte;
    }
    close(out, &mut start);
    mcp
}

/// The id of `key` in `map`, adding it (with the next id) when new; `added` runs for a new key.
#[inline]
pub(super) fn intern(map: &mut Map, key: &[u8], added: impl FnOnce(u32)) -> u32 {
    if let Some(&id) = map.get(key) {
        return id;
    }
    let id = map.len() as u32;
    map.insert(key.into(), id);
    added(id);
    id
}

/// The first 8 bytes of `bytes` as a big-endian number, zero-padded: ordering by it orders by
/// those bytes.
#[inline]
pub(super) fn key8(bytes: &[u8]) -> u64 {
    if let Some(head) = bytes.first_chunk::<8>() {
        return u64::from_be_bytes(*head);
    }
    let mut key = [0u8; 8];
    for (slot, &byte) in key.iter_mut().zip(bytes) {
        *slot = byte;
    }
    u64::from_be_bytes(key)
}

/// Word postings of one field while building: `(word, tool)` pairs, each once per tool.
#[derive(Default)]
pub(super) struct FieldBuilder {
    pub(super) pairs: Vec<(u32, u32)>,
    last: Vec<u32>,
}

impl FieldBuilder {
    pub(super) fn add(&mut self, ids: &mut Map, text: &str, tool: u32) {
        for word in text.as_bytes().split(|&b| !is_word_byte(b)) {
            if word.is_empty() {
                continue;
            }
            let id = intern(ids, word, |_| {});
            if id as usize >= self.last.len() {
                self.last.resize(id as usize + 1, u32::MAX);
            }
            if let Some(last) = self.last.get_mut(id as usize)
                && *last != tool
            {
                *last = tool;
                self.pairs.push((id, tool));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_name_split_matches_parse_tool_name() {
        let names = [
            "WebFetch",
            "LSP",
            "NotebookEdit",
            "get_user_Name",
            "_lead",
            "trail_",
            "a__b",
            "Spaced Name\tTab",
            "ABCdef",
            "aB1cD",
            "x",
            "",
            "mcp__",
            "mcp__s__send_message",
            "mcp__A_B__C__d_",
            "mcp__my server__Tool Name",
            "mcp____x",
            "Mcp__NotMcp",
            "naïveName",
            "mcp__café__Été",
            "K\u{212a}elvin",
            "ÉtéFort",
        ];
        let (mut out, mut ranges) = (String::new(), Vec::new());
        for name in names {
            let expected = parse_tool_name(name);
            let mcp = split_name(name, &mut out, &mut ranges);
            let parts: Vec<&str> = ranges
                .iter()
                .map(|&(start, end)| &out[start as usize..end as usize])
                .collect();
            let wanted: Vec<&str> = expected
                .parts
                .iter()
                .map(String::as_str)
                .filter(|part| !part.is_empty())
                .collect();
            assert_eq!(parts, wanted, "{name:?}");
            assert_eq!(mcp, expected.is_mcp, "{name:?}");
        }
    }
}
