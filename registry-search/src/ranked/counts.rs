//! Counting the BM25F index's terms while it is built, and writing its postings from the
//! counts.
//!
//! Each term gets an id the first time a tool has it. Each tool's distinct terms are counted
//! once, per field, and kept tool after tool in one byte list: the term's id, a byte of the
//! fields that have it, and each of those fields' frequency, the numbers in LEB128 (one byte
//! below 128), about four bytes a (term, tool) pair. Beside them each term's number of tools
//! is counted, so that once every tool is read each term's postings are written, tool after
//! tool, into a list of exactly their number, with their impacts final: no list grows, and no
//! pair is held in a wider form.

use std::mem::take;

use super::postings::{Posting, TermPostings};
use super::{DESCRIPTION, FIELDS, HashMap, NAME, Weights, idf};

/// The terms of the tools read so far, and each tool's frequencies of them.
#[derive(Debug, Default)]
pub(super) struct Counts {
    /// Each term's id, in the order the tools first have them.
    ids: HashMap<Box<str>, u32>,
    /// For each term id: how many tools have the term.
    tools_with: Vec<u32>,
    /// For each term id: how many tools' names have the term more than once.
    repeated: Vec<u32>,
    /// For each term id: the last tool that had it (`u32::MAX` for none yet) and the term's
    /// place among that tool's terms in `tool_terms`.
    seen: Vec<(u32, u32)>,
    /// The tool being read: its distinct term ids, each with its frequency in every field.
    tool_terms: Vec<(u32, [u16; FIELDS])>,
    /// How many tools are read.
    tools: u32,
    /// The tools' counts, tool after tool: the number of the tool's distinct terms, then for
    /// each its id, the bit set of its fields and each of those fields' frequency.
    encoded: Vec<u8>,
}

/// Appends `value` in LEB128.
fn put(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads a LEB128 number from `bytes` (0 past their end).
fn get(bytes: &mut std::slice::Iter<'_, u8>) -> u32 {
    let (mut value, mut shift) = (0u32, 0u32);
    for &byte in bytes.by_ref() {
        value |= u32::from(byte & 0x7f).checked_shl(shift).unwrap_or(0);
        if byte < 0x80 {
            break;
        }
        shift += 7;
    }
    value
}

impl Counts {
    /// Counts `term` once in field `field` of the tool being read.
    pub(super) fn add(&mut self, term: &str, field: usize) {
        let id = match self.ids.get(term) {
            Some(&id) => id,
            None => {
                let id = self.ids.len() as u32;
                self.ids.insert(term.into(), id);
                self.tools_with.push(0);
                self.repeated.push(0);
                self.seen.push((u32::MAX, 0));
                id
            }
        };
        let Some((last, place)) = self.seen.get_mut(id as usize) else {
            return;
        };
        if *last != self.tools {
            *last = self.tools;
            *place = self.tool_terms.len() as u32;
            self.tool_terms.push((id, [0; FIELDS]));
        }
        if let Some((_, tf)) = self.tool_terms.get_mut(*place as usize)
            && let Some(tf) = tf.get_mut(field)
        {
            *tf = tf.saturating_add(1);
        }
    }

    /// Ends the tool being read: its counts are kept, and the next term counts for the next
    /// tool. The name's frequencies are kept as counted, the other fields' up to 255 each
    /// (where BM25's saturation leaves a field's weight within about 1% of its limit).
    pub(super) fn end_tool(&mut self) {
        put(&mut self.encoded, self.tool_terms.len() as u32);
        for (id, tf) in self.tool_terms.drain(..) {
            put(&mut self.encoded, id);
            let mut fields = 0u8;
            for (field, &tf) in tf.iter().enumerate() {
                if tf > 0 {
                    fields |= 1 << field;
                }
            }
            self.encoded.push(fields);
            for (field, &tf) in tf.iter().enumerate() {
                if tf > 0 {
                    let tf = if field == NAME { tf } else { tf.min(255) };
                    put(&mut self.encoded, u32::from(tf));
                }
            }
            if let Some(tools) = self.tools_with.get_mut(id as usize) {
                *tools += 1;
            }
            if tf[NAME] > 1
                && let Some(repeated) = self.repeated.get_mut(id as usize)
            {
                *repeated += 1;
            }
        }
        self.tools += 1;
    }

    /// Each term's postings with their impacts: IDF × the saturated, length-normalized,
    /// field-weighted term frequency (`w (k1 + 1) / (k1 + w)`), over tools of field lengths
    /// `lengths` (one entry per tool read) and average field lengths `average`.
    pub(super) fn postings(
        self,
        lengths: &[[u16; FIELDS]],
        average: [f32; FIELDS],
        field_weights: [f32; FIELDS],
        w: Weights,
    ) -> HashMap<Box<str>, TermPostings> {
        let n = lengths.len() as f32;
        let impact = |idf: f32, tool: u32, tf: &[u16; FIELDS]| -> f32 {
            let Some(tool_lengths) = lengths.get(tool as usize) else {
                return 0.0;
            };
            let mut weighted = 0.0;
            let fields = tf.iter().zip(tool_lengths).zip(&average);
            for (((&tf, &length), &average), &field_weight) in fields.zip(&field_weights) {
                if tf > 0 {
                    let norm = 1.0 - w.b + w.b * f32::from(length) / average;
                    weighted += field_weight * f32::from(tf) / norm;
                }
            }
            idf * weighted * (w.k1 + 1.0) / (w.k1 + weighted)
        };
        let idfs: Vec<f32> = (self.tools_with.iter())
            .map(|&tools| idf(n, tools as f32))
            .collect();
        let mut lists: Vec<Vec<Posting>> = (self.tools_with.iter())
            .map(|&tools| Vec::with_capacity(tools as usize))
            .collect();
        let mut repeated: Vec<Vec<(u32, u16)>> = (self.repeated.iter())
            .map(|&tools| Vec::with_capacity(tools as usize))
            .collect();
        let mut bytes = self.encoded.iter();
        for tool in 0..self.tools {
            for _ in 0..get(&mut bytes) {
                let id = get(&mut bytes) as usize;
                let fields = bytes.next().copied().unwrap_or(0);
                let mut tf = [0u16; FIELDS];
                for (field, tf) in tf.iter_mut().enumerate() {
                    if fields & 1 << field != 0 {
                        *tf = u16::try_from(get(&mut bytes)).unwrap_or(u16::MAX);
                    }
                }
                let (Some(&idf), Some(list)) = (idfs.get(id), lists.get_mut(id)) else {
                    continue;
                };
                let impact = impact(idf, tool, &tf);
                list.push(Posting::new(
                    tool,
                    impact,
                    tf[NAME] > 0,
                    tf[DESCRIPTION] > 0,
                ));
                if tf[NAME] > 1
                    && let Some(repeated) = repeated.get_mut(id)
                {
                    repeated.push((tool, tf[NAME]));
                }
            }
        }
        drop(self.encoded);
        (self.ids.into_iter())
            .map(|(term, id)| {
                let id = id as usize;
                let list = lists.get_mut(id).map(take).unwrap_or_default();
                let repeated = repeated.get_mut(id).map(take).unwrap_or_default();
                (term, TermPostings::new(list, repeated))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{get, put};

    #[test]
    fn numbers_come_back_as_written() {
        let numbers = [0, 1, 127, 128, 255, 16_383, 16_384, 65_535, u32::MAX];
        let mut bytes = Vec::new();
        for &number in &numbers {
            put(&mut bytes, number);
        }
        let mut read = bytes.iter();
        for &number in &numbers {
            assert_eq!(get(&mut read), number);
        }
        assert_eq!(get(&mut read), 0, "past the end");
    }
}
