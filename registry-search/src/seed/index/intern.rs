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
