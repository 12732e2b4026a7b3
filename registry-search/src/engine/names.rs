//! Name lookups for the fast paths (`select:`, exact name, `mcp__` prefix) without a scan.
//!
//! The tables hold positions only, never a copy of a name: a lookup hashes the query, and
//! compares it with the names of the tools its slots point at, read from the tools themselves.
//! At 100,000 tools that is about 21 bytes a tool for the two tables of an engine, where maps
//! keyed by copies of the names took about 360.

use std::hash::BuildHasher;
use std::sync::Arc;

use crate::document::Document;

/// Hashed with foldhash, as the ranked index's maps are: the keys are the pool's own names.
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// An empty slot.
const EMPTY: u32 = u32::MAX;

/// Maps from names to the first tool (in list order) that has them. Each lookup takes the
/// tools the table was built over.
#[derive(Debug, Default)]
pub struct NameTable {
    hasher: foldhash::fast::RandomState,
    /// Positions by the hash of their tool's name.
    exact: Slots,
    /// Positions by the hash of their tool's lower-cased name.
    lower: Slots,
    /// Each alias and the first tool that has it (aliases are few).
    aliases: HashMap<Box<str>, u32>,
    /// The lower-cased names of the tools whose names are not ASCII (lower-cased otherwise than
    /// byte by byte), by position.
    lowered: Vec<(u32, Box<str>)>,
    /// Every position, by lower-cased name then position, when built for prefix queries.
    sorted_lower: Vec<u32>,
}

impl NameTable {
    /// Indexes `tools`; `prefixes` also sorts the lower-cased names for prefix queries.
    pub fn build<D: Document>(tools: &[Arc<D>], prefixes: bool) -> NameTable {
        NameTable::build_where(tools, prefixes, |_| true)
    }

    /// Indexes the tools of `tools` that are not deferred (positions stay those in `tools`):
    /// a pool's table, asked only for names that no deferred tool answers to.
    pub fn not_deferred<D: Document>(tools: &[Arc<D>]) -> NameTable {
        NameTable::build_where(tools, false, |tool| !tool.is_deferred())
    }

    fn build_where<D: Document>(
        tools: &[Arc<D>],
        prefixes: bool,
        keep: impl Fn(&D) -> bool,
    ) -> NameTable {
        let kept = tools.iter().filter(|tool| keep(tool)).count();
        let mut table = NameTable {
            exact: Slots::with_capacity(kept),
            lower: Slots::with_capacity(kept),
            ..NameTable::default()
        };
        let mut scratch = String::new();
        for (i, tool) in tools.iter().enumerate() {
            if !keep(tool) {
                continue;
            }
            let i = i as u32;
            let name = tool.name();
            let same_name = |j: u32| name_at(tools, j) == name;
            table
                .exact
                .insert_first(table.hasher.hash_one(name), i, same_name);
            for alias in tool.aliases() {
                table.aliases.entry(alias.as_str().into()).or_insert(i);
            }
            let lowered = if name.is_ascii() {
                scratch.clear();
                scratch.extend(name.chars().map(|ch| ch.to_ascii_lowercase()));
                scratch.as_str()
            } else {
                table.lowered.push((i, name.to_lowercase().into()));
                table.lowered.last().map_or("", |(_, lower)| lower)
            };
            let hash = table.hasher.hash_one(lowered);
            let lowered_here = &table.lowered;
            table.lower.insert_first(hash, i, |j| {
                lower_name(tools, lowered_here, j).eq(lowered.bytes())
            });
        }
        if prefixes {
            // (Every tool is kept when prefixes are asked for.)
            // Sorted by a copy of the lower-cased names, one buffer dropped after the sort:
            // comparing the names as they are read is several times slower.
            // Sized up front: growing it by doubling would hold two copies at once.
            let bytes = tools.iter().map(|tool| tool.name().len()).sum();
            let (mut text, mut ends) = (Vec::with_capacity(bytes), Vec::with_capacity(tools.len()));
            for i in 0..tools.len() as u32 {
                text.extend(lower_name(tools, &table.lowered, i));
                ends.push(text.len());
            }
            let key = |i: u32| {
                let i = i as usize;
                let start = i.checked_sub(1).and_then(|j| ends.get(j)).copied();
                let end = ends.get(i).copied().unwrap_or(0);
                text.get(start.unwrap_or(0)..end).unwrap_or_default()
            };
            table.sorted_lower = (0..tools.len() as u32).collect();
            (table.sorted_lower).sort_unstable_by(|&a, &b| key(a).cmp(key(b)).then(a.cmp(&b)));
        }
        table
    }

    /// The first tool of `tools` (the tools the table was built over) whose name or alias is
    /// exactly `name`.
    pub fn exact<D: Document>(&self, tools: &[Arc<D>], name: &str) -> Option<usize> {
        let by_name = self
            .exact
            .find(self.hasher.hash_one(name), |j| name_at(tools, j) == name);
        let by_alias = self.aliases.get(name).copied();
        by_name
            .into_iter()
            .chain(by_alias)
            .min()
            .map(|i| i as usize)
    }

    /// The first tool of `tools` whose lower-cased name is `lower`.
    pub fn lower<D: Document>(&self, tools: &[Arc<D>], lower: &str) -> Option<usize> {
        self.lower
            .find(self.hasher.hash_one(lower), |j| {
                lower_name(tools, &self.lowered, j).eq(lower.bytes())
            })
            .map(|i| i as usize)
    }

    /// Tools of `tools` whose lower-cased name starts with `prefix`, in list order.
    pub fn with_prefix<D: Document>(&self, tools: &[Arc<D>], prefix: &str) -> Vec<usize> {
        let lower = |i: u32| lower_name(tools, &self.lowered, i);
        let start = self
            .sorted_lower
            .partition_point(|&i| lower(i).lt(prefix.bytes()));
        let mut found: Vec<usize> = (self.sorted_lower.get(start..).unwrap_or_default())
            .iter()
            .take_while(|&&i| starts_with(lower(i), prefix))
            .map(|&i| i as usize)
            .collect();
        found.sort_unstable();
        found
    }
}

/// The name of the tool at `i`.
fn name_at<D: Document>(tools: &[Arc<D>], i: u32) -> &str {
    tools.get(i as usize).map_or("", |tool| tool.name())
}

/// The bytes of the lower-cased name of the tool at `i`: an ASCII name's lowered as they are
/// read, another's from `lowered`.
fn lower_name<'a, D: Document>(
    tools: &'a [Arc<D>],
    lowered: &'a [(u32, Box<str>)],
    i: u32,
) -> impl Iterator<Item = u8> + 'a {
    let name = name_at(tools, i);
    let text = if name.is_ascii() {
        name
    } else {
        match lowered.binary_search_by_key(&i, |(at, _)| *at) {
            Ok(at) => lowered.get(at).map_or("", |(_, lower)| lower),
            Err(_) => "",
        }
    };
    // The lowered text of a name that is not ASCII has no ASCII capitals left: a no-op there.
    text.bytes().map(|byte| byte.to_ascii_lowercase())
}

fn starts_with(mut text: impl Iterator<Item = u8>, prefix: &str) -> bool {
    prefix.bytes().all(|byte| text.next() == Some(byte))
}

/// An open-addressing table of positions, found by hash and told apart by the caller. Each
/// slot keeps 8 bits of its hash, so that a probe reads a tool's name only when they agree.
#[derive(Debug, Default)]
struct Slots {
    slots: Vec<u32>,
    tags: Vec<u8>,
}

/// The slot a hash starts probing at, and its tag.
fn start_and_tag(hash: u64, mask: usize) -> (usize, u8) {
    (hash as usize & mask, (hash >> 56) as u8)
}

impl Slots {
    /// Room for `n` positions at most half full.
    fn with_capacity(n: usize) -> Slots {
        let size = (n * 2).next_power_of_two().max(8);
        Slots {
            slots: vec![EMPTY; size],
            tags: vec![0; size],
        }
    }

    /// The position in the probe sequence of `hash` that `matches`.
    fn find(&self, hash: u64, mut matches: impl FnMut(u32) -> bool) -> Option<u32> {
        let mask = self.slots.len().checked_sub(1)?;
        let (mut at, tag) = start_and_tag(hash, mask);
        loop {
            match (self.slots.get(at).copied(), self.tags.get(at)) {
                (None | Some(EMPTY), _) => return None,
                (Some(position), Some(&found)) if found == tag && matches(position) => {
                    return Some(position);
                }
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Adds `position` unless the probe sequence of `hash` holds one that is `same` (added
    /// first, so earlier in list order).
    fn insert_first(&mut self, hash: u64, position: u32, mut same: impl FnMut(u32) -> bool) {
        let Some(mask) = self.slots.len().checked_sub(1) else {
            return;
        };
        let (mut at, tag) = start_and_tag(hash, mask);
        loop {
            match (self.slots.get_mut(at), self.tags.get_mut(at)) {
                (Some(slot), Some(found)) if *slot == EMPTY => {
                    *slot = position;
                    *found = tag;
                    return;
                }
                (Some(slot), Some(found)) if *found == tag && same(*slot) => return,
                (Some(_), Some(_)) => at = (at + 1) & mask,
                _ => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::NameTable;
    use crate::document::{Document, ToolDoc};

    /// Names whose lower-casing is not byte by byte, duplicates by name, by case and by alias.
    fn tools() -> Vec<Arc<ToolDoc>> {
        let names = [
            "mcp__s__Read",
            "ΣΟΦΟΣ",
            "mcp__s__read",
            "İstanbul",
            "Straße",
            "mcp__s_Read",
            "ΣΟΦΟΣ",
            "plain",
            "mcp__s__READ",
            "mcp__t__a",
            "mcp__s__",
            "ǅ",
        ];
        names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let aliases: Vec<String> = match i {
                    4 => vec!["plain".into(), "alias".into()],
                    9 => vec!["alias".into()],
                    _ => Vec::new(),
                };
                Arc::new(ToolDoc::new(*name, "").with_aliases(aliases))
            })
            .collect()
    }

    #[test]
    fn lookups_equal_a_scan_of_the_names() {
        let tools = tools();
        let table = NameTable::build(&tools, true);
        let mut queries: Vec<String> = ["alias", "missing", "", "mcp__", "mcp__s", "σοφ", "i̇"]
            .map(str::to_owned)
            .to_vec();
        for tool in &tools {
            let name = tool.name();
            let lower = name.to_lowercase();
            for cut in (0..=lower.len()).filter(|&cut| lower.is_char_boundary(cut)) {
                queries.push(lower[..cut].to_owned());
            }
            queries.extend([name.to_owned(), name.to_uppercase(), lower]);
        }
        for query in &queries {
            let exact = tools.iter().position(|tool| tool.answers_to(query));
            assert_eq!(table.exact(&tools, query), exact, "exact {query:?}");
            let lower = (tools.iter()).position(|tool| tool.name().to_lowercase() == *query);
            assert_eq!(table.lower(&tools, query), lower, "lower {query:?}");
            let prefixed: Vec<usize> = (0..tools.len())
                .filter(|&i| tools[i].name().to_lowercase().starts_with(query.as_str()))
                .collect();
            assert_eq!(
                table.with_prefix(&tools, query),
                prefixed,
                "prefix {query:?}"
            );
        }
    }

    #[test]
    fn a_pool_table_holds_only_the_tools_that_are_not_deferred() {
        let tools: Vec<_> = ["Read", "mcp__s__read", "Write"]
            .iter()
            .map(|name| Arc::new(ToolDoc::new(*name, "").with_deferred(name.starts_with("mcp__"))))
            .collect();
        let table = NameTable::not_deferred(&tools);
        assert_eq!(table.exact(&tools, "Write"), Some(2));
        assert_eq!(table.lower(&tools, "read"), Some(0));
        assert_eq!(table.exact(&tools, "mcp__s__read"), None);
        assert_eq!(table.lower(&tools, "mcp__s__read"), None);
    }

    #[test]
    fn many_copies_of_one_name_build_in_linear_time_and_find_the_first() {
        let tools: Vec<_> = (0..50_000)
            .map(|_| Arc::new(ToolDoc::new("Same", "")))
            .collect();
        let table = NameTable::build(&tools, true);
        assert_eq!(table.exact(&tools, "Same"), Some(0));
        assert_eq!(table.lower(&tools, "same"), Some(0));
        assert_eq!(table.with_prefix(&tools, "sa").len(), 50_000);
    }
}
