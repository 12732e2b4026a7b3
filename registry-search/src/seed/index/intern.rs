//! Interning while building the seed index: byte strings to dense ids, and the word postings
//! of one field.

use std::collections::HashMap;

use crate::text::is_word_byte;

/// Ids of byte strings (text split at ASCII characters stays UTF-8), hashed with foldhash.
pub(super) type Map = HashMap<Box<[u8]>, u32, foldhash::fast::RandomState>;

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

/// Word postings of one field while building: each tool's distinct word ids, tool after tool,
/// each id in LEB128 (one byte below 128, two below 16,384): about 2 bytes a word, where
/// `(word, tool)` pairs took 8.
#[derive(Default)]
pub(super) struct FieldBuilder {
    ids: Vec<u8>,
    /// Where each tool's ids end in `ids`, for every tool up to the last one added.
    ends: Vec<u32>,
    last: Vec<u32>,
}

impl FieldBuilder {
    /// Adds the words of `text` to tool `tool`; tools are added in order, each at most once.
    pub(super) fn add(&mut self, ids: &mut Map, text: &str, tool: u32) {
        while self.ends.len() < tool as usize {
            self.ends.push(self.ids.len() as u32);
        }
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
                let mut rest = id;
                while rest >= 0x80 {
                    self.ids.push(rest as u8 | 0x80);
                    rest >>= 7;
                }
                self.ids.push(rest as u8);
            }
        }
        self.ends.push(self.ids.len() as u32);
    }

    /// The distinct word ids of tool `tool` (none for a tool not added).
    pub(super) fn run(&self, tool: u32) -> impl Iterator<Item = u32> + '_ {
        let tool = tool as usize;
        let end = self.ends.get(tool).copied();
        let start = match tool.checked_sub(1) {
            Some(before) => self.ends.get(before).copied().unwrap_or(0),
            None => 0,
        };
        let mut bytes = (self.ids.get(start as usize..end.unwrap_or(start) as usize))
            .unwrap_or_default()
            .iter();
        std::iter::from_fn(move || {
            let (mut id, mut shift) = (0u32, 0);
            loop {
                let byte = *bytes.next()?;
                id |= u32::from(byte & 0x7f) << shift;
                if byte < 0x80 {
                    return Some(id);
                }
                shift += 7;
            }
        })
    }
}
