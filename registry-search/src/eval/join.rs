//! Pools of several sets, and halves of a set's requests: the pool a user has when unrelated
//! servers meet, and a split that lets a change be chosen on one half of the requests and
//! reported on the other.

use serde_json::{Map, Value};

/// Which of a set's requests to score, by line: all, the odd lines (`Dev`, where changes are
/// chosen) or the even lines (`Test`, what is reported).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    /// Every request.
    All,
    /// The odd lines (1, 3, …, counting from 0).
    Dev,
    /// The even lines (0, 2, …).
    Test,
}

impl Half {
    /// Whether the request on line `line` (from 0) is in this half.
    pub fn keeps(self, line: usize) -> bool {
        match self {
            Half::All => true,
            Half::Dev => !line.is_multiple_of(2),
            Half::Test => line.is_multiple_of(2),
        }
    }
}

/// One set's files, as text.
#[derive(Debug, Clone, Copy)]
pub struct SetFiles<'a> {
    /// The set's name (its folder's).
    pub name: &'a str,
    /// `tools.jsonl`.
    pub tools: &'a str,
    /// `queries.jsonl`.
    pub queries: &'a str,
}

/// `sets` joined into one pool: the `tools.jsonl` of all their tools, and each set's
/// `queries.jsonl` (its `half`) with the ids it names. With more than one set, ids become
/// `<set>/<id>` and a set's tools that name no server (a set of separate products or APIs, not
/// one server's tools) each become a server of their own, with a name that says nothing (`zq`,
/// the set's initial and the tool's line in letters), so that no query matches it; a single
/// set is kept as it is.
///
/// # Errors
/// A line that is not JSON, named with its set and file.
pub fn join(sets: &[SetFiles<'_>], half: Half) -> Result<(String, Vec<String>), String> {
    let joined = sets.len() > 1;
    let lines = |set: &str, file: &str, text: &str| -> Result<Vec<Value>, String> {
        (text.lines().filter(|line| !line.trim().is_empty()))
            .map(|line| serde_json::from_str(line).map_err(|e| format!("{set}/{file}: {e}")))
            .collect()
    };
    let mut tools = String::new();
    for set in sets {
        let all = lines(set.name, "tools.jsonl", set.tools)?;
        for (i, mut tool) in all.into_iter().enumerate() {
            if let (true, Some(fields)) = (joined, tool.as_object_mut()) {
                let id = fields.get("id").and_then(Value::as_str).unwrap_or_default();
                let id = format!("{}/{id}", set.name);
                fields.insert("id".into(), id.into());
                let extra = fields
                    .entry("extra")
                    .or_insert_with(|| Value::Object(Map::new()));
                if !extra.is_object() {
                    *extra = Value::Object(Map::new());
                }
                if let Some(extra) = extra.as_object_mut() {
                    let server = Value::from(opaque(set.name, i));
                    extra.entry("tool_name").or_insert(server);
                }
            }
            tools.push_str(&tool.to_string());
            tools.push('\n');
        }
    }
    let mut queries = Vec::with_capacity(sets.len());
    for set in sets {
        let mut text = String::new();
        let all = lines(set.name, "queries.jsonl", set.queries)?;
        for (i, mut query) in all.into_iter().enumerate() {
            if !half.keeps(i) {
                continue;
            }
            if let (true, Some(fields)) = (joined, query.as_object_mut()) {
                let relevant: Vec<Value> = (fields.get("relevant").and_then(Value::as_array))
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(|id| Value::from(format!("{}/{id}", set.name)))
                    .collect();
                fields.insert("relevant".into(), relevant.into());
            }
            text.push_str(&query.to_string());
            text.push('\n');
        }
        queries.push(text);
    }
    Ok((tools, queries))
}

/// A server name that says nothing (no word, no digit a query could match) for tool `i` of the
/// set `name`: `zq`, the set's initial and `i` in letters.
fn opaque(name: &str, i: usize) -> String {
    let mut out = format!("zq{}", name.chars().next().unwrap_or('x'));
    let mut i = i;
    loop {
        out.push(char::from(b'a' + (i % 26) as u8));
        i /= 26;
        if i == 0 {
            return out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_sets_keep_ids_apart_and_give_server_less_tools_servers_of_their_own() {
        let a = SetFiles {
            name: "alpha",
            tools: "{\"id\": \"t\", \"name\": \"T\", \"extra\": {\"tool_name\": \"srv\"}}\n",
            queries: "{\"query\": \"q0\", \"relevant\": [\"t\"]}\n{\"query\": \"q1\", \"relevant\": [\"t\"]}\n",
        };
        let b = SetFiles {
            name: "beta",
            tools: "{\"id\": \"t\", \"name\": \"T\"}\n{\"id\": \"u\", \"name\": \"U\"}\n",
            queries: "{\"query\": \"r0\", \"relevant\": [\"u\"]}\n",
        };
        let (tools, queries) = join(&[a, b], Half::Test).unwrap();
        let tools: Vec<Value> = tools
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let ids: Vec<&str> = tools.iter().map(|t| t["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["alpha/t", "beta/t", "beta/u"]);
        let servers: Vec<&str> = (tools.iter())
            .map(|t| t["extra"]["tool_name"].as_str().unwrap())
            .collect();
        assert_eq!(servers, ["srv", "zqba", "zqbb"]);
        assert_eq!(queries.len(), 2);
        assert!(
            queries[0].contains("q0") && !queries[0].contains("q1"),
            "the test half"
        );
        assert!(queries[1].contains("\"beta/u\""));
        let (_, dev) = join(&[a], Half::Dev).unwrap();
        assert!(dev[0].contains("q1") && !dev[0].contains("q0") && dev[0].contains("[\"t\"]"));
        assert!(
            join(&[a, SetFiles { tools: "{", ..b }], Half::All)
                .unwrap_err()
                .starts_with("beta/tools.jsonl: ")
        );
    }
}
