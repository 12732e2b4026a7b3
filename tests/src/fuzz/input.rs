//! The `dispatch` target's tool inputs: JSON shaped by each tool's input schema, with values
//! that fit the fields' names, or any JSON.

use serde_json::{Map, Value, json};

use super::scratch::Scratch;
use super::{FRAGMENTS, Gen};

/// Paths relative to the working directory (`$WORK` and `$PARENT` are replaced).
const PATHS: &[&str] = &[
    "file.txt",
    "crlf.txt",
    "empty.txt",
    "bin.dat",
    "nb.ipynb",
    "old.ipynb",
    "sub",
    "sub/inner.txt",
    "sub/ignored.txt",
    "link",
    "link/inner.txt",
    "link.txt",
    "missing.txt",
    "new/dir/file.txt",
    "new.ipynb",
    "",
    ".",
    "..",
    "../escape.txt",
    "sub/../../escape.txt",
    "$WORK/file.txt",
    "$WORK/nb.ipynb",
    "$WORK/new.txt",
    "$WORK/sub",
    "$PARENT/escape.txt",
    "$PARENT",
    "/etc/hostname",
    "/etc/passwd",
    "/proc/self/status",
    "/dev/zero",
    "/dev/null",
    "/sys/kernel",
    "/dev/shm",
    "~/x",
    "/",
];

/// Values for fields whose name says what they hold.
const COMMANDS: &[&str] = &[
    "echo hi",
    "rm -rf /",
    "ls",
    "cat file.txt",
    "sleep 100",
    "echo $(id)",
];
const PATTERNS: &[&str] = &[
    "*.txt",
    "**/*",
    "sub/*",
    "*",
    "[",
    "*.{txt,ipynb}",
    "file",
    "^line",
    "(?i)LINE",
    "\\",
    "TODO|fix",
    "(",
    "a{99999}",
    ".*",
    "line\\s+two",
    "**/.gitignore",
];
const EDITS: &[&str] = &[
    "line one",
    "line two",
    "\n",
    "",
    "the",
    "first\nsecond",
    "x",
    "# Title",
];
const QUERIES: &[&str] = &[
    "select:Read,NotebookEdit",
    "notebook jupyter",
    "+task list",
    "mcp__",
];

fn path(g: &mut Gen<'_>, scratch: &Scratch) -> String {
    let path = match g.below(8) {
        0 => g.text(4, PATHS),
        _ => (*g.pick(PATHS)).to_owned(),
    };
    (path.replace("$WORK", &scratch.work.to_string_lossy()))
        .replace("$PARENT", &scratch.parent.to_string_lossy())
}

fn string_for(g: &mut Gen<'_>, field: &str, scratch: &Scratch) -> String {
    if g.chance(1, 8) {
        return g.text(8, FRAGMENTS);
    }
    match field {
        f if f.contains("path") || f == "files" => path(g, scratch),
        "command" => g.word(COMMANDS),
        "pattern" | "glob" => g.word(PATTERNS),
        "old_string" | "new_string" | "new_source" | "content" => g.word(EDITS),
        "query" => g.word(QUERIES),
        "cell_id" => g.word(&["cell-a", "b", "cell-0", "0", "cell-9", "7"]),
        _ => g.text(6, FRAGMENTS),
    }
}

/// A value for `schema` (a JSON Schema of the kinds the `#[tool]` macro writes), mostly of the
/// right shape, sometimes of another.
fn value_for(
    g: &mut Gen<'_>,
    schema: &Value,
    field: &str,
    scratch: &Scratch,
    depth: usize,
) -> Value {
    if depth > 6 || g.chance(1, 24) {
        return arbitrary_json(g, 2);
    }
    if let Some(Value::Array(choices)) = schema.get("enum")
        && !choices.is_empty()
    {
        return g.pick(choices).clone();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = schema.get(key)
            && !branches.is_empty()
        {
            let branch = g.pick(branches);
            return value_for(g, branch, field, scratch, depth + 1);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::Array(kinds)) if !kinds.is_empty() => g.pick(kinds).as_str().unwrap_or(""),
        Some(kind) => kind.as_str().unwrap_or(""),
        None => "",
    };
    match kind {
        "string" => Value::String(string_for(g, field, scratch)),
        "integer" => json!(*g.pick(&[0i64, 1, 2, 3, 5, 100, 3600, 600_001, -1, i64::MAX])),
        "number" => json!(*g.pick(&[0.0, 0.5, 1.0, 2.5, 3600.0, 3600.5, -1.0, 1e300])),
        "boolean" => Value::Bool(g.bool()),
        "null" => Value::Null,
        "array" => {
            let items = schema.get("items").cloned().unwrap_or(Value::Null);
            let n = g.below(5);
            Value::Array(
                (0..n)
                    .map(|_| value_for(g, &items, field, scratch, depth + 1))
                    .collect(),
            )
        }
        "object" => object_for(g, schema, scratch, depth),
        _ => arbitrary_json(g, 2),
    }
}

pub(crate) fn object_for(
    g: &mut Gen<'_>,
    schema: &Value,
    scratch: &Scratch,
    depth: usize,
) -> Value {
    let required: Vec<&str> = (schema.get("required").and_then(Value::as_array))
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut object = Map::new();
    if let Some(Value::Object(properties)) = schema.get("properties") {
        for (name, property) in properties {
            let keep = if required.contains(&name.as_str()) {
                g.chance(15, 16)
            } else {
                g.bool()
            };
            if keep {
                let value = value_for(g, property, name, scratch, depth + 1);
                object.insert(name.clone(), value);
            }
        }
    }
    if g.chance(1, 16) {
        object.insert(g.word(FRAGMENTS), arbitrary_json(g, 1));
    }
    Value::Object(object)
}

/// Any JSON value, nested at most `depth` levels.
pub(crate) fn arbitrary_json(g: &mut Gen<'_>, depth: usize) -> Value {
    match g.below(if depth == 0 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => Value::Bool(g.bool()),
        2 => json!(g.usize_any()),
        3 => json!(-(g.below(1000) as i64) - 1),
        4 => Value::String(g.text(6, FRAGMENTS)),
        5 => Value::Array(
            (0..g.below(4))
                .map(|_| arbitrary_json(g, depth - 1))
                .collect(),
        ),
        _ => {
            let mut map = Map::new();
            for _ in 0..g.below(4) {
                map.insert(g.word(FRAGMENTS), arbitrary_json(g, depth - 1));
            }
            Value::Object(map)
        }
    }
}
