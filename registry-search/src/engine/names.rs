//! Name lookups for the fast paths (`select:`, exact name, `mcp__` prefix) without a scan.

use std::sync::Arc;

use crate::document::Document;

/// Hashed with foldhash, as the ranked index's maps are: the keys are the pool's own names.
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// Maps from names to the first tool (in list order) that has them.
#[derive(Debug, Default)]
pub struct NameTable {
    exact: HashMap<Box<str>, u32>,
    lower: HashMap<Box<str>, u32>,
    sorted_lower: Vec<(Box<str>, u32)>,
}

impl NameTable {
    /// Indexes `tools`; `prefixes` also keeps the sorted lower-cased names for prefix queries.
    pub fn build<D: Document>(tools: &[Arc<D>], prefixes: bool) -> NameTable {
        let mut table = NameTable::default();
        for (i, tool) in tools.iter().enumerate() {
            let i = i as u32;
            for name in
                std::iter::once(tool.name()).chain(tool.aliases().iter().map(String::as_str))
            {
                if !table.exact.contains_key(name) {
                    table.exact.insert(name.into(), i);
                }
            }
            let lower = tool.name().to_lowercase();
            if prefixes {
                table.sorted_lower.push((lower.as_str().into(), i));
            }
            table.lower.entry(lower.into()).or_insert(i);
        }
        table.sorted_lower.sort_unstable();
        table
    }

    /// The first tool whose name or alias is exactly `name`.
    pub fn exact(&self, name: &str) -> Option<usize> {
        self.exact.get(name).map(|&i| i as usize)
    }

    /// The first tool whose lower-cased name is `lower`.
    pub fn lower(&self, lower: &str) -> Option<usize> {
        self.lower.get(lower).map(|&i| i as usize)
    }

    /// Tools whose lower-cased name starts with `prefix`, in list order.
    pub fn with_prefix(&self, prefix: &str) -> Vec<usize> {
        let start = self
            .sorted_lower
            .partition_point(|(name, _)| name.as_ref() < prefix);
        let mut found: Vec<usize> = (self.sorted_lower.get(start..).unwrap_or_default())
            .iter()
            .take_while(|(name, _)| name.starts_with(prefix))
            .map(|&(_, i)| i as usize)
            .collect();
        found.sort_unstable();
        found
    }
}
