//! What checking an input against an MCP server's schema may cost, read from the schema alone,
//! before it is compiled.
//!
//! `jsonschema` checks each place of an input against every subschema that applies there, and
//! a `$ref` applies its target once more for each way it is reached. A schema of a few hundred
//! bytes whose `$defs` each refer twice to the one before (`"a2": {"allOf": [{"$ref":
//! "#/$defs/a1"}, {"$ref": "#/$defs/a1"}]}`, forty of them) applies 2^40 subschemas to one
//! string; a recursive one whose `anyOf` refers twice to itself doubles the count with every
//! level of the input. So before a schema is compiled:
//!
//! * the subschemas applied at one place of an input, `$ref`s followed, are counted for each
//!   depth of that place up to [`MAX_INPUT_DEPTH`], over the schema's graph (time linear in the
//!   schema for each depth). The count is an upper bound: an object's member gets the
//!   `properties` entry of its name, but across an `anyOf`'s variants entries of different
//!   names are added up. More than [`MAX_APPLICATIONS`] at the root refuses the schema; at a
//!   deeper level, the inputs nested that deep (`mcp_check.rs`), and so do inputs whose places
//!   add up to more than [`MAX_TOTAL_APPLICATIONS`];
//! * a `$ref` must point into the schema (a JSON pointer from its root, or an anchor), and a
//!   `$ref` cycle must step into the input (one that does not would never end); a second
//!   resource (`$id` below the root), whose references are relative to it, is refused;
//! * at most [`MAX_PATTERNS`] patterns (`pattern`, `patternProperties`), each compiled to a
//!   bounded size (`schema_check.rs`), so compiling takes bounded time too.
//!
//! With those, checking one input applies at most [`MAX_TOTAL_APPLICATIONS`] subschemas.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::schema_check::json_path;
use crate::tool::mcp_info::SchemaFault;

/// The most subschemas one place of an input may be checked against, `$ref`s followed. The
/// real servers of the fixtures need at most 9 (notion's `API-post-page`).
pub(crate) const MAX_APPLICATIONS: u64 = 10_000;

/// The most subschemas checking one input may apply, all its places together: a hundred places
/// at the bound of one.
pub(crate) const MAX_TOTAL_APPLICATIONS: u64 = 100 * MAX_APPLICATIONS;

/// The most patterns (`pattern` values and `patternProperties` keys) in one schema. None of the
/// real servers of the fixtures has one.
pub(crate) const MAX_PATTERNS: usize = 128;

/// The input depth the count covers: serde_json's recursion limit, the deepest a call's
/// arguments parsed from a model's response go.
pub(crate) const MAX_INPUT_DEPTH: usize = 128;

/// The most subschemas `schema` applies at one place of an input, `$ref`s followed, by the
/// place's depth (counted no further than past [`MAX_APPLICATIONS`]): a place deeper than the
/// list counts its last entry. Or why the schema's check is not bounded at all.
pub(crate) fn bound(schema: &Value) -> Result<Vec<u64>, SchemaFault> {
    let nodes = Graph::of(schema)?;
    let order = in_place_order(&nodes)?;
    let cap = |count: u64| count.min(MAX_APPLICATIONS + 1);
    let n = nodes.len();
    let (mut previous, mut current) = (vec![0u64; n], vec![0u64; n]);
    let (mut member, mut item) = (vec![0u64; n], vec![0u64; n]);
    let mut by_depth = Vec::new();
    for depth in 0..=MAX_INPUT_DEPTH {
        for (&v, node) in order.iter().filter_map(|v| Some((v, nodes.get(*v)?))) {
            let in_place = |counts: &[u64], start: u64| {
                (node.in_place.iter()).fold(start, |sum, &u| cap(sum + get(counts, u)))
            };
            let here = if depth == 0 {
                in_place(&current, 1)
            } else {
                let most = |edges: &[usize]| {
                    (edges.iter())
                        .map(|&u| get(&previous, u))
                        .max()
                        .unwrap_or(0)
                };
                let all = |edges: &[usize], start: u64| {
                    (edges.iter()).fold(start, |sum, &u| cap(sum + get(&previous, u)))
                };
                let members = in_place(&member, all(&node.any_member, most(&node.named)));
                let tuples = (node.tuples.iter()).fold(0, |sum, tuple| cap(sum + most(tuple)));
                let items = in_place(&item, all(&node.any_item, tuples));
                set(&mut member, v, members);
                set(&mut item, v, items);
                members.max(items)
            };
            set(&mut current, v, here);
        }
        let count = get(&current, 0);
        if count > MAX_APPLICATIONS && depth == 0 {
            return Err(SchemaFault {
                at: ".".into(),
                rule: format!(
                    "checking a value against it applies more than {MAX_APPLICATIONS} \
                     subschemas, `$ref`s followed"
                ),
            });
        }
        by_depth.push(count);
        if count > MAX_APPLICATIONS || count == 0 {
            return Ok(by_depth);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    // A recursion bounded down to the deepest input counted: deeper is not counted.
    by_depth.push(MAX_APPLICATIONS + 1);
    Ok(by_depth)
}

fn get(counts: &[u64], node: usize) -> u64 {
    counts.get(node).copied().unwrap_or(0)
}

fn set(counts: &mut [u64], node: usize, count: u64) {
    if let Some(slot) = counts.get_mut(node) {
        *slot = count;
    }
}

/// A subschema and the subschemas it applies: at the same place of the input, or at a member
/// or an item of it.
#[derive(Default)]
struct Node {
    /// Where it is in the schema, a JSON pointer.
    at: String,
    /// At the same place: `allOf`, `anyOf`, `oneOf`, `not`, `if`, `then`, `else`,
    /// `dependentSchemas`, `dependencies`, `contentSchema`, and what `$ref`, `$dynamicRef` and
    /// `$recursiveRef` point to.
    in_place: Vec<usize>,
    /// `properties`: a member gets at most one of them.
    named: Vec<usize>,
    /// What any member may get: `patternProperties`, `additionalProperties`,
    /// `unevaluatedProperties`, `propertyNames`.
    any_member: Vec<usize>,
    /// `prefixItems`, and `items` as an array: an item gets at most one of each.
    tuples: Vec<Vec<usize>>,
    /// What any item may get: `items` as one schema, `additionalItems`, `contains`,
    /// `unevaluatedItems`.
    any_item: Vec<usize>,
}

/// The subschemas of one schema, found from its root (node 0) by a walk that follows
/// `$ref`s.
struct Graph<'s> {
    root: &'s Value,
    /// The root's `$id`, without a trailing `#`: a `$ref` may name the schema by it.
    base: Option<&'s str>,
    /// Subschemas by their anchors (`$anchor`, `$dynamicAnchor`, a `#name` `$id`).
    anchors: HashMap<&'s str, Vec<(&'s Value, String)>>,
    /// Node indices by the value's address in `root`.
    ids: HashMap<*const Value, usize>,
    nodes: Vec<Node>,
    /// Nodes found whose subschemas are not read yet.
    unread: Vec<(usize, &'s Value)>,
    patterns: usize,
}

impl<'s> Graph<'s> {
    fn of(root: &'s Value) -> Result<Vec<Node>, SchemaFault> {
        let base = ["$id", "id"]
            .iter()
            .find_map(|key| root.get(key)?.as_str())
            .map(|id| id.trim_end_matches('#'));
        let mut graph = Graph {
            root,
            base,
            anchors: anchors(root),
            ids: HashMap::new(),
            nodes: Vec::new(),
            unread: Vec::new(),
            patterns: 0,
        };
        graph.node(root, String::new());
        while let Some((id, value)) = graph.unread.pop() {
            graph.read(id, value)?;
        }
        Ok(graph.nodes)
    }

    /// The node of `value`, found at `at` (the first place it was found from).
    fn node(&mut self, value: &'s Value, at: String) -> usize {
        let key = std::ptr::from_ref(value);
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(Node {
            at,
            ..Node::default()
        });
        self.ids.insert(key, id);
        self.unread.push((id, value));
        id
    }

    /// Reads the subschemas of node `id`, `value`.
    fn read(&mut self, id: usize, value: &'s Value) -> Result<(), SchemaFault> {
        let Value::Object(keywords) = value else {
            return Ok(());
        };
        let at = self
            .nodes
            .get(id)
            .map(|node| node.at.clone())
            .unwrap_or_default();
        let here = |key: &str| format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
        if !std::ptr::eq(value, self.root) {
            for key in ["$id", "id"] {
                if let Some(Value::String(id)) = keywords.get(key)
                    && !id.starts_with('#')
                {
                    return Err(fault(
                        &here(key),
                        "a second resource (a `$id` below the root) is not followed: its \
                         references are relative to it",
                    ));
                }
            }
        }
        self.count_patterns(keywords, &here)?;
        let mut node = Node::default();
        for (key, sub) in keywords {
            let at = here(key);
            match key.as_str() {
                "allOf" | "anyOf" | "oneOf" => node.in_place.extend(self.each(sub, &at)),
                "not" | "if" | "then" | "else" | "contentSchema" => {
                    node.in_place.push(self.node(sub, at));
                }
                "dependentSchemas" | "dependencies" => node.in_place.extend(
                    self.members(sub, &at)
                        .into_iter()
                        .filter(|&(_, schema)| schema.is_object() || schema.is_boolean())
                        .map(|(at, schema)| self.node(schema, at))
                        .collect::<Vec<_>>(),
                ),
                "$ref" | "$dynamicRef" | "$recursiveRef" => {
                    node.in_place.extend(self.resolve(sub, &at)?);
                }
                "properties" => node.named.extend(self.each(sub, &at)),
                "patternProperties" => node.any_member.extend(self.each(sub, &at)),
                "additionalProperties" | "unevaluatedProperties" | "propertyNames" => {
                    node.any_member.push(self.node(sub, at));
                }
                "items" if sub.is_array() => node.tuples.push(self.each(sub, &at)),
                "prefixItems" => node.tuples.push(self.each(sub, &at)),
                "items" | "additionalItems" | "contains" | "unevaluatedItems" => {
                    node.any_item.push(self.node(sub, at));
                }
                _ => {}
            }
        }
        node.at = at;
        if let Some(slot) = self.nodes.get_mut(id) {
            *slot = node;
        }
        Ok(())
    }

    /// The nodes of the members of an array or object of subschemas.
    fn each(&mut self, value: &'s Value, at: &str) -> Vec<usize> {
        let members = self.members(value, at);
        (members.into_iter())
            .map(|(at, schema)| self.node(schema, at))
            .collect()
    }

    /// The members of an array or an object, with where each is.
    fn members(&self, value: &'s Value, at: &str) -> Vec<(String, &'s Value)> {
        let escape = |key: &str| key.replace('~', "~0").replace('/', "~1");
        match value {
            Value::Array(items) => (items.iter().enumerate())
                .map(|(index, item)| (format!("{at}/{index}"), item))
                .collect(),
            Value::Object(map) => (map.iter())
                .map(|(key, member)| (format!("{at}/{}", escape(key)), member))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn count_patterns(
        &mut self,
        keywords: &Map<String, Value>,
        here: &impl Fn(&str) -> String,
    ) -> Result<(), SchemaFault> {
        for key in ["pattern", "patternProperties"] {
            self.patterns += match keywords.get(key) {
                Some(Value::String(_)) if key == "pattern" => 1,
                Some(Value::Object(patterns)) if key == "patternProperties" => patterns.len(),
                _ => 0,
            };
            if self.patterns > MAX_PATTERNS {
                let rule = format!("more than {MAX_PATTERNS} patterns in one schema");
                return Err(fault(&here(key), &rule));
            }
        }
        Ok(())
    }

    /// The nodes a `$ref` (or `$dynamicRef`, `$recursiveRef`) at `at` points to: a JSON pointer
    /// from the root, or every subschema with that anchor.
    fn resolve(&mut self, reference: &'s Value, at: &str) -> Result<Vec<usize>, SchemaFault> {
        let Value::String(reference) = reference else {
            return Err(fault(at, "a reference that is not a string"));
        };
        let fragment = match reference.split_once('#') {
            Some(("", fragment)) => fragment,
            Some((base, fragment)) if Some(base) == self.base => fragment,
            None if Some(reference.as_str()) == self.base => "",
            _ => {
                let rule = format!("`{reference}` is outside the schema, and nothing is fetched");
                return Err(fault(at, &rule));
            }
        };
        let fragment = percent_decoded(fragment);
        let targets: Vec<(&'s Value, String)> = if fragment.is_empty() || fragment.starts_with('/')
        {
            let root = self.root;
            (root.pointer(&fragment).into_iter())
                .map(|target| (target, fragment.clone()))
                .collect()
        } else {
            self.anchors
                .get(fragment.as_str())
                .cloned()
                .unwrap_or_default()
        };
        if targets.is_empty() {
            let rule = format!("`{reference}` points to no place in the schema");
            return Err(fault(at, &rule));
        }
        Ok((targets.into_iter())
            .map(|(target, at)| self.node(target, at))
            .collect())
    }
}

/// The subschemas of `root` with an anchor, by anchor, wherever they are (found without
/// recursion).
fn anchors(root: &Value) -> HashMap<&str, Vec<(&Value, String)>> {
    let mut found: HashMap<&str, Vec<(&Value, String)>> = HashMap::new();
    let mut stack = vec![(root, String::new())];
    while let Some((value, at)) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, member) in map {
                    let anchor = match (key.as_str(), member) {
                        ("$anchor" | "$dynamicAnchor", Value::String(name)) => Some(name.as_str()),
                        ("$id" | "id", Value::String(id)) => id.strip_prefix('#'),
                        _ => None,
                    };
                    if let Some(anchor) = anchor {
                        found.entry(anchor).or_default().push((value, at.clone()));
                    }
                    if member.is_object() || member.is_array() {
                        let key = key.replace('~', "~0").replace('/', "~1");
                        stack.push((member, format!("{at}/{key}")));
                    }
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    stack.push((item, format!("{at}/{index}")));
                }
            }
            _ => {}
        }
    }
    found
}

/// The nodes in an order where each comes after the nodes it applies in place, or the `$ref`
/// cycle that never steps into the input.
fn in_place_order(nodes: &[Node]) -> Result<Vec<usize>, SchemaFault> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Open,
        Done,
    }
    let mut state = vec![State::New; nodes.len()];
    let mut order = Vec::with_capacity(nodes.len());
    for start in 0..nodes.len() {
        if state.get(start) != Some(&State::New) {
            continue;
        }
        let mut stack = vec![(start, 0)];
        set_state(&mut state, start, State::Open);
        while let Some((v, next)) = stack.last_mut() {
            let v = *v;
            let Some(&u) = nodes.get(v).and_then(|node| node.in_place.get(*next)) else {
                set_state(&mut state, v, State::Done);
                order.push(v);
                stack.pop();
                continue;
            };
            *next += 1;
            match state.get(u) {
                Some(State::New) => {
                    set_state(&mut state, u, State::Open);
                    stack.push((u, 0));
                }
                Some(State::Open) => {
                    return Err(fault(
                        nodes.get(u).map_or("", |node| &node.at),
                        "a `$ref` cycle that never steps into the input: checking it would not \
                         end",
                    ));
                }
                _ => {}
            }
        }
    }
    Ok(order)
}

fn set_state<T: Copy>(states: &mut [T], node: usize, state: T) {
    if let Some(slot) = states.get_mut(node) {
        *slot = state;
    }
}

/// `text` with its `%XX` escapes decoded (a URI fragment's).
fn percent_decoded(text: &str) -> String {
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&byte, tail)) = rest.split_first() {
        let escaped = match (byte, tail) {
            (b'%', [high, low, ..]) if high.is_ascii_hexdigit() && low.is_ascii_hexdigit() => {
                let hex = [*high, *low];
                std::str::from_utf8(&hex)
                    .ok()
                    .and_then(|hex| u8::from_str_radix(hex, 16).ok())
            }
            _ => None,
        };
        match escaped {
            Some(decoded) => {
                out.push(decoded);
                rest = tail.get(2..).unwrap_or_default();
            }
            None => {
                out.push(byte);
                rest = tail;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A fault at JSON pointer `at` of the schema.
fn fault(at: &str, rule: &str) -> SchemaFault {
    SchemaFault {
        at: json_path(at),
        rule: rule.to_owned(),
    }
}

#[cfg(test)]
mod tests;
