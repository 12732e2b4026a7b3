//! The display names of loaded MCP tools: each new tool's plain name, or a shortened, hashed
//! one when the plain name is too long or taken (the module docs of [`crate::mcp`]).

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::Arc;

use crate::ToolInfo;
use crate::tool::mcp_info::McpInfo;

/// The longest tool name the APIs accept.
pub const MAX_NAME_LEN: usize = 64;

/// The display names given so far: the names of the tools loaded, found by hash without a
/// copy of any name (the tools hold them).
#[derive(Default)]
pub(super) struct Names {
    hasher: foldhash::fast::RandomState,
    /// The positions of the loaded tools by the hash of their names (open addressing, at most
    /// half full; [`EMPTY`] where none).
    slots: Vec<u32>,
    len: usize,
    /// For each raw `server NUL tool`, the counter its next hashed candidate starts from: every
    /// counter below it is taken, so naming the n-th copy of one name takes constant time.
    next: HashMap<String, u32>,
}

/// An empty slot of [`Names`].
const EMPTY: u32 = u32::MAX;

impl Names {
    /// A name for the tool `mcp` describes that no tool of `tools` (the tools loaded) has.
    pub(super) fn unique(&mut self, tools: &[Arc<ToolInfo>], mcp: &McpInfo) -> String {
        let plain = mcp.plain_name();
        if plain.len() <= MAX_NAME_LEN && !self.taken(tools, &plain) {
            return plain;
        }
        // `plain` is ASCII, so any byte offset is a character boundary.
        let stem = plain.get(..MAX_NAME_LEN - 9).unwrap_or(&plain);
        let key = format!("{}\0{}", mcp.server, mcp.tool);
        let mut counter = self.next.get(&key).copied().unwrap_or(0);
        let candidate = loop {
            let hash = match counter {
                0 => fnv1a(key.as_bytes()),
                n => fnv1a(format!("{key}\0{n}").as_bytes()),
            };
            counter += 1;
            let candidate = format!("{stem}_{:08x}", hash as u32);
            if !self.taken(tools, &candidate) {
                break candidate;
            }
        };
        self.next.insert(key, counter);
        candidate
    }

    /// Whether a tool of `tools` is named `name`.
    fn taken(&self, tools: &[Arc<ToolInfo>], name: &str) -> bool {
        let Some(mask) = self.slots.len().checked_sub(1) else {
            return false;
        };
        let mut at = self.hasher.hash_one(name) as usize & mask;
        loop {
            match self.slots.get(at) {
                None | Some(&EMPTY) => return false,
                Some(&i) if tools.get(i as usize).is_some_and(|tool| tool.name == name) => {
                    return true;
                }
                Some(_) => at = (at + 1) & mask,
            }
        }
    }

    /// Records the name of `tools[position]`, the tool just loaded under a name from
    /// [`unique`](Self::unique).
    pub(super) fn add(&mut self, tools: &[Arc<ToolInfo>], position: usize) {
        if (self.len + 1) * 2 > self.slots.len() {
            let size = (self.slots.len() * 2).max(16);
            let old = std::mem::replace(&mut self.slots, vec![EMPTY; size]);
            for i in old.into_iter().filter(|&i| i != EMPTY) {
                self.place(tools, i);
            }
        }
        self.place(tools, position as u32);
        self.len += 1;
    }

    fn place(&mut self, tools: &[Arc<ToolInfo>], position: u32) {
        let name = tools.get(position as usize).map_or("", |tool| &tool.name);
        let mask = self.slots.len() - 1;
        let mut at = self.hasher.hash_one(name) as usize & mask;
        while let Some(slot) = self.slots.get_mut(at) {
            if *slot == EMPTY {
                *slot = position;
                return;
            }
            at = (at + 1) & mask;
        }
    }
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}
