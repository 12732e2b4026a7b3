//! A corpus of real-world tool input types: Rust types mirroring the input schemas of tools of
//! the eleven captured MCP servers and of the `rmcp` and `rig` examples. The references are in
//! `tests/data/schema-corpus/<source>.json` (`{"source", "captured", "schemas": {tool: schema}}`).
//!
//! For each type, [`every_corpus_schema_equals_its_reference_up_to_the_documented_differences`]
//! compares the standard schema the derive builds with the reference, as `serde_json::Value`s
//! (so key order does not count), after this normalization of the reference:
//! * `$schema` at the top is dropped (the derive writes none; a tool's schema is not a document);
//! * `required` is compared as a set (sorted), and an empty `required` is dropped (it requires
//!   nothing).
//!
//! and after the type's own edits ([`Fix`]), each listed below with why. No type is skipped: a
//! type matches exactly, or every difference is an edit in this table, and an edit that no
//! longer changes the reference fails the test (`every_documented_difference_is_in_the_module_docs_table`
//! keeps this table and the edits in step).
//!
//! The round-trip property tests (`roundtrip.rs`) check every type against serde, with
//! `jsonschema` as the judge. A case's `exact: false` marks the types whose schema has a keyword
//! narrower than serde on purpose (a stated bound, `minLength`, `minItems`, a `u64` bound of
//! 2^53 - 1): for them only "what the schema accepts, serde reads" holds, not its converse
//! (dispatch enforces the keywords). `strict.rs` renders the types with a strict form strict for
//! the three APIs, checks each render against the strict subset, and type-checks the requests
//! against the official SDKs.
//!
//! | source / tool | at (JSON pointer into the reference) | what differs, and why |
//! |---|---|---|
//! | github/merge_pull_request | `/additionalProperties` | removed: the shared fields are flattened, and serde refuses `deny_unknown_fields` beside `flatten`, so the input cannot forbid other members (the unflattened types of this source do) |
//! | desktop-commander/write_pdf | `/properties/content/anyOf/1/items/anyOf` | `oneOf` here: an internally tagged enum is a `oneOf` (its tags exclude each other, so both accept the same values) |
//! | desktop-commander/write_pdf | `/properties/content/anyOf/1/items/oneOf/0/properties/pdfOptions`, `/properties/options` | an open object (`properties: {}`, `additionalProperties: true`) is a map of `serde_json::Value`: `additionalProperties: {}`, which accepts the same |
//! | sequential-thinking/sequentialthinking | `/properties/nextThoughtNeeded`, `/properties/isRevision`, `/properties/needsMoreThoughts` | `type: [boolean, string]`; the derive writes an untagged enum as `anyOf` of its variants, which accepts the same |
//! | git/git_diff, git/git_add, git/git_log, git/git_branch, time/convert_time, fetch/fetch | `/title` | removed: pydantic titles the model (`xArguments`); the derive takes `title` on fields, not on the input |
//! | git/git_log | `/properties/start_timestamp`, `/properties/end_timestamp` | pydantic writes `Optional[str]` as `anyOf [string, null]` with `default: null`; the standard rendering advertises `string` alone (the model omits the field; the strict rendering has the `null`) |
//! | git/git_branch | `/properties/contains`, `/properties/not_contains` | the same as git_log's optional strings |
//! | notion/API-get-users, notion/API-post-search, notion/API-create-a-comment | `/$defs` | removed: a block the server sends with every tool, which no property of these refers to |
//! | notion/API-post-search | `/properties/sort/anyOf/0/additionalProperties`, `/properties/filter/anyOf/0/additionalProperties` | removed: `additionalProperties: true` spelled out; the derive leaves it out, which means the same |
//! | notion/API-post-search | `/properties/page_size/format` | removed: `format: int32` on an integer; the derive takes `format` on strings only (an `i32` would state its range instead) |
//! | notion/API-create-a-comment | `/properties/parent/anyOf/0/additionalProperties`, `/properties/rich_text/items/anyOf/0/additionalProperties`, `/properties/rich_text/items/anyOf/0/properties/text/additionalProperties` | removed: `additionalProperties: true` spelled out, as above |
//! | notion/API-create-a-comment | `/properties/rich_text/items/anyOf/2/additionalProperties` | `{}` for `true`: any other object is a map of `serde_json::Value`, which accepts the same |
//! | rmcp/sum, rmcp/struct_sum | `/properties/a`, `/properties/b` | schemars marks an `i32` with `format: int32`; the derive states its range (`minimum`/`maximum`) instead, which a validator checks |
//! | rig/add | `/properties/x`, `/properties/y` | `integer` with the `i32` range for `number`: the hand-written schema disagrees with the tool's `Args` (`i32` fields), so serde refuses `1.5` and `2^31`, which that schema invites |
//! | rig/add | `/required` | `[x, y]`: the hand-written schema requires nothing, but serde refuses an input without `x` or `y` |
//!
//! What the derive cannot express that these references say (left as differences, not macro
//! changes): a title on the whole input (pydantic's `"title": "xArguments"`); `format` on a
//! number; `"additionalProperties": true` spelled out (the derive leaves it absent, which means
//! the same); `"type": [..]` lists (the derive writes a union as `anyOf`); pydantic's
//! `anyOf [T, null]` with `"default": null` for an `Option` (the standard rendering advertises
//! `T` alone: the model omits the field).

pub mod desktop_commander;
pub mod github;
pub mod notion;
pub mod python_servers;
pub mod reference_servers;
pub mod rust_sdks;
mod strict;

use std::path::PathBuf;
use std::sync::LazyLock;

use arbitrary::{Arbitrary, Unstructured};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use toolreg::InputSchema;
use toolreg::schema::Schema;

use super::forms::standard;

/// Makes a value of a type from bytes, through serde.
pub type FromBytes = fn(&[u8]) -> Option<Value>;

/// One edit to a reference schema before the comparison.
pub enum Edit {
    /// Drop the member.
    Remove,
    /// Put this JSON (text) there.
    Set(&'static str),
    /// Merge this JSON object (text) into the object there; a `null` member removes that key.
    Merge(&'static str),
    /// Move the member to this key of the same object.
    Rename(&'static str),
}

/// A documented difference between a reference and the derive's schema.
pub struct Fix {
    /// JSON pointers into the reference schema: each gets the edit.
    pub at: &'static [&'static str],
    pub edit: Edit,
    /// What differs and why, as the module docs' table says.
    pub why: &'static str,
}

/// One corpus type.
pub struct Case {
    /// The reference file's stem.
    pub source: &'static str,
    /// The tool's name in the reference.
    pub tool: &'static str,
    /// The Rust type, for messages.
    pub type_name: &'static str,
    pub tree: &'static Schema,
    pub schema: fn() -> Value,
    pub parse: fn(&Value) -> Result<(), String>,
    /// Values from the type, when it derives `Arbitrary`, `null` members left out.
    pub arbitrary: Option<FromBytes>,
    /// The same values exactly as serde writes them.
    pub written: Option<FromBytes>,
    /// Whether the schema is exactly serde's (no keyword narrows it): the round trip's converse.
    pub exact: bool,
    pub fixes: &'static [Fix],
}

fn parse<T: DeserializeOwned>(value: &Value) -> Result<(), String> {
    T::deserialize(value)
        .map(drop)
        .map_err(|error| error.to_string())
}

/// A value of the type as serde writes it, `null` members left out (see `roundtrip.rs`).
pub fn from_type<T: for<'a> Arbitrary<'a> + Serialize>(bytes: &[u8]) -> Option<Value> {
    let value = T::arbitrary(&mut Unstructured::new(bytes)).ok()?;
    let mut value = serde_json::to_value(value).ok()?;
    super::roundtrip::drop_null_members(&mut value);
    Some(value)
}

/// A value of the type exactly as serde writes it (`null` for `None` kept), for the strict
/// rendering, which advertises those `null`s.
pub fn written<T: for<'a> Arbitrary<'a> + Serialize>(bytes: &[u8]) -> Option<Value> {
    let value = T::arbitrary(&mut Unstructured::new(bytes)).ok()?;
    serde_json::to_value(value).ok()
}

macro_rules! from_bytes {
    (yes, $make:ident, $ty:ty) => {
        Some($make::<$ty> as FromBytes)
    };
    (no, $make:ident, $ty:ty) => {
        None
    };
}

/// `arbitrary: yes` where the type derives `Arbitrary`.
macro_rules! case {
    ($source:literal, $tool:literal, $ty:ty, arbitrary: $arb:ident, exact: $exact:expr, fixes: $fixes:expr $(,)?) => {
        Case {
            source: $source,
            tool: $tool,
            type_name: stringify!($ty),
            tree: &<$ty as InputSchema>::SCHEMA,
            schema: standard::<$ty>,
            parse: parse::<$ty>,
            arbitrary: from_bytes!($arb, from_type, $ty),
            written: from_bytes!($arb, written, $ty),
            exact: $exact,
            fixes: $fixes,
        }
    };
}

use desktop_commander as dc;
use github as gh;
use notion as nt;
use python_servers as py;
use reference_servers as rs;
use rust_sdks as sdk;

/// pydantic's title of the whole input.
const MODEL_TITLE: Fix = Fix {
    at: &["/title"],
    edit: Edit::Remove,
    why: "pydantic titles the model (`xArguments`); the derive takes `title` on fields, not on the input",
};

/// An `Option<String>` as pydantic writes it.
const fn optional_string(at: &'static [&'static str]) -> Fix {
    Fix {
        at,
        edit: Edit::Merge(r#"{"anyOf": null, "default": null, "type": "string"}"#),
        why: "pydantic writes `Optional[str]` as `anyOf [string, null]` with `default: null`; the standard rendering advertises `string` alone (the model omits the field; the strict rendering has the `null`)",
    }
}

/// Notion's `$defs`, sent with every tool and used by none of these.
const NOTION_DEFS: Fix = Fix {
    at: &["/$defs"],
    edit: Edit::Remove,
    why: "a `$defs` block the server sends with every tool, which no property of this one refers to",
};

/// `additionalProperties: true`, spelled out.
const fn open_object(at: &'static [&'static str]) -> Fix {
    Fix {
        at,
        edit: Edit::Remove,
        why: "`additionalProperties: true` spelled out; the derive leaves it out, which means the same",
    }
}

/// An `i32` as schemars writes it.
const fn int32(at: &'static [&'static str]) -> Fix {
    Fix {
        at,
        edit: Edit::Merge(r#"{"format": null, "minimum": -2147483648, "maximum": 2147483647}"#),
        why: "schemars marks an `i32` with `format: int32`; the derive states its range instead, which a validator checks",
    }
}

const MERGE_PULL_REQUEST: &[Fix] = &[Fix {
    at: &["/additionalProperties"],
    edit: Edit::Remove,
    why: "the shared fields are flattened, and serde refuses `deny_unknown_fields` beside `flatten`: the input cannot forbid other members (the unflattened types of this source do)",
}];

const WRITE_PDF: &[Fix] = &[
    Fix {
        at: &["/properties/content/anyOf/1/items/anyOf"],
        edit: Edit::Rename("oneOf"),
        why: "an internally tagged enum is a `oneOf` (its tags exclude each other, so both accept the same values)",
    },
    Fix {
        at: &[
            "/properties/content/anyOf/1/items/oneOf/0/properties/pdfOptions",
            "/properties/options",
        ],
        edit: Edit::Set(r#"{"type": "object", "additionalProperties": {}}"#),
        why: "an open object (`properties: {}`, `additionalProperties: true`) is a map of `serde_json::Value`: `additionalProperties: {}`, which accepts the same",
    },
];

const SEQUENTIAL_THINKING: &[Fix] = &[Fix {
    at: &[
        "/properties/nextThoughtNeeded",
        "/properties/isRevision",
        "/properties/needsMoreThoughts",
    ],
    edit: Edit::Merge(r#"{"type": null, "anyOf": [{"type": "boolean"}, {"type": "string"}]}"#),
    why: "a `type` list; the derive writes an untagged enum as `anyOf` of its variants, which accepts the same",
}];

const GIT_LOG: &[Fix] = &[
    MODEL_TITLE,
    optional_string(&["/properties/start_timestamp", "/properties/end_timestamp"]),
];

const GIT_BRANCH: &[Fix] = &[
    MODEL_TITLE,
    optional_string(&["/properties/contains", "/properties/not_contains"]),
];

const POST_SEARCH: &[Fix] = &[
    NOTION_DEFS,
    open_object(&[
        "/properties/sort/anyOf/0/additionalProperties",
        "/properties/filter/anyOf/0/additionalProperties",
    ]),
    Fix {
        at: &["/properties/page_size/format"],
        edit: Edit::Remove,
        why: "`format: int32` on an integer: the derive takes `format` on strings only (an `i32` would state its range instead)",
    },
];

const CREATE_COMMENT: &[Fix] = &[
    NOTION_DEFS,
    open_object(&[
        "/properties/parent/anyOf/0/additionalProperties",
        "/properties/rich_text/items/anyOf/0/additionalProperties",
        "/properties/rich_text/items/anyOf/0/properties/text/additionalProperties",
    ]),
    Fix {
        at: &["/properties/rich_text/items/anyOf/2/additionalProperties"],
        edit: Edit::Set("{}"),
        why: "any other object is a map of `serde_json::Value`: `additionalProperties: {}` where the reference says `true`, the same",
    },
];

const RMCP_INT32: &[Fix] = &[int32(&["/properties/a", "/properties/b"])];

const RIG_ADD: &[Fix] = &[
    Fix {
        at: &["/properties/x", "/properties/y"],
        edit: Edit::Merge(r#"{"type": "integer", "minimum": -2147483648, "maximum": 2147483647}"#),
        why: "the hand-written schema says `number`, but the tool's `Args` field is an `i32`: serde refuses `1.5` and `2^31`, which that schema invites",
    },
    Fix {
        at: &["/required"],
        edit: Edit::Set(r#"["x", "y"]"#),
        why: "the hand-written schema requires nothing, but serde refuses an input without `x` or `y`",
    },
];

/// Every corpus type.
pub static CASES: LazyLock<Vec<Case>> = LazyLock::new(|| {
    vec![
        case!("github", "create_or_update_file", gh::CreateOrUpdateFile, arbitrary: yes, exact: true, fixes: &[]),
        case!("github", "push_files", gh::PushFiles, arbitrary: yes, exact: true, fixes: &[]),
        case!("github", "create_issue", gh::CreateIssue, arbitrary: yes, exact: true, fixes: &[]),
        case!("github", "list_issues", gh::ListIssues, arbitrary: yes, exact: true, fixes: &[]),
        case!("github", "search_code", gh::SearchCode, arbitrary: no, exact: false, fixes: &[]),
        case!("github", "search_issues", gh::SearchIssues, arbitrary: no, exact: false, fixes: &[]),
        case!("github", "create_pull_request_review", gh::CreatePullRequestReview, arbitrary: yes, exact: true, fixes: &[]),
        case!("github", "merge_pull_request", gh::MergePullRequest, arbitrary: yes, exact: true, fixes: MERGE_PULL_REQUEST),
        case!("desktop-commander", "set_config_value", dc::SetConfigValue, arbitrary: yes, exact: true, fixes: &[]),
        case!("desktop-commander", "read_file", dc::ReadFile, arbitrary: no, exact: true, fixes: &[]),
        case!("desktop-commander", "write_pdf", dc::WritePdf, arbitrary: no, exact: true, fixes: WRITE_PDF),
        case!("desktop-commander", "start_search", dc::StartSearch, arbitrary: yes, exact: true, fixes: &[]),
        case!("desktop-commander", "get_recent_tool_calls", dc::GetRecentToolCalls, arbitrary: no, exact: false, fixes: &[]),
        case!("desktop-commander", "edit_block", dc::EditBlock, arbitrary: no, exact: true, fixes: &[]),
        case!("filesystem", "read_text_file", rs::ReadTextFile, arbitrary: yes, exact: true, fixes: &[]),
        case!("filesystem", "read_multiple_files", rs::ReadMultipleFiles, arbitrary: no, exact: false, fixes: &[]),
        case!("filesystem", "edit_file", rs::EditFile, arbitrary: yes, exact: true, fixes: &[]),
        case!("filesystem", "directory_tree", rs::DirectoryTree, arbitrary: yes, exact: true, fixes: &[]),
        case!("everything", "get-annotated-message", rs::GetAnnotatedMessage, arbitrary: yes, exact: true, fixes: &[]),
        case!("everything", "get-resource-links", rs::GetResourceLinks, arbitrary: no, exact: false, fixes: &[]),
        case!("everything", "gzip-file-as-resource", rs::GzipFileAsResource, arbitrary: no, exact: true, fixes: &[]),
        case!("everything", "trigger-long-running-operation", rs::TriggerLongRunningOperation, arbitrary: yes, exact: true, fixes: &[]),
        case!("memory", "create_entities", rs::CreateEntities, arbitrary: yes, exact: true, fixes: &[]),
        case!("memory", "delete_relations", rs::DeleteRelations, arbitrary: yes, exact: true, fixes: &[]),
        case!("memory", "delete_observations", rs::DeleteObservations, arbitrary: yes, exact: true, fixes: &[]),
        case!("sequential-thinking", "sequentialthinking", rs::SequentialThinking, arbitrary: no, exact: false, fixes: SEQUENTIAL_THINKING),
        case!("git", "git_diff", py::GitDiff, arbitrary: yes, exact: true, fixes: &[MODEL_TITLE]),
        case!("git", "git_add", py::GitAdd, arbitrary: no, exact: false, fixes: &[MODEL_TITLE]),
        case!("git", "git_log", py::GitLog, arbitrary: yes, exact: true, fixes: GIT_LOG),
        case!("git", "git_branch", py::GitBranch, arbitrary: yes, exact: true, fixes: GIT_BRANCH),
        case!("time", "convert_time", py::ConvertTime, arbitrary: yes, exact: true, fixes: &[MODEL_TITLE]),
        case!("fetch", "fetch", py::Fetch, arbitrary: no, exact: false, fixes: &[MODEL_TITLE]),
        case!("sqlite", "read_query", py::ReadQuery, arbitrary: yes, exact: true, fixes: &[]),
        case!("notion", "API-get-users", nt::GetUsers, arbitrary: yes, exact: true, fixes: &[NOTION_DEFS]),
        case!("notion", "API-post-search", nt::PostSearch, arbitrary: yes, exact: true, fixes: POST_SEARCH),
        case!("notion", "API-create-a-comment", nt::CreateComment, arbitrary: no, exact: true, fixes: CREATE_COMMENT),
        case!("rmcp", "sum", sdk::SumRequest, arbitrary: yes, exact: true, fixes: RMCP_INT32),
        case!("rmcp", "struct_sum", sdk::StructRequest, arbitrary: yes, exact: true, fixes: RMCP_INT32),
        case!("rig", "add", sdk::OperationArgs, arbitrary: yes, exact: true, fixes: RIG_ADD),
    ]
});

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/schema-corpus")
}

/// The reference schema of a case, as stored.
pub fn reference(case: &Case) -> Value {
    let path = data_dir().join(format!("{}.json", case.source));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let file: Value = serde_json::from_str(&text).expect("a reference file is JSON");
    file["schemas"]
        .get(case.tool)
        .unwrap_or_else(|| panic!("{} has no schema for {}", path.display(), case.tool))
        .clone()
}

/// The normalization every reference gets: no `$schema`, `required` as a sorted set.
fn normalize(value: &mut Value) {
    if let Value::Object(map) = value {
        map.remove("$schema");
        sort_required(map);
    }
}

fn sort_required(map: &mut Map<String, Value>) {
    if let Some(Value::Array(names)) = map.get_mut("required") {
        names.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
        if names.is_empty() {
            map.remove("required");
        }
    }
    for value in map.values_mut() {
        match value {
            Value::Object(inner) => sort_required(inner),
            Value::Array(items) => {
                for item in items {
                    if let Value::Object(inner) = item {
                        sort_required(inner);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Applies one fix at each of its places; an error when one would change nothing (a stale
/// entry of the table).
fn apply(schema: &mut Value, fix: &Fix) -> Result<(), String> {
    for at in fix.at {
        let before = schema.clone();
        edit(schema, at, &fix.edit)?;
        if *schema == before {
            return Err(format!("{at}: the edit changes nothing"));
        }
    }
    Ok(())
}

fn edit(schema: &mut Value, at: &str, edit: &Edit) -> Result<(), String> {
    let json = |text: &str| -> Result<Value, String> {
        serde_json::from_str(text).map_err(|error| format!("{at}: {error}"))
    };
    let (parent, key) = at
        .rsplit_once('/')
        .ok_or_else(|| format!("{at}: not a JSON pointer"))?;
    let Some(Value::Object(parent)) = schema.pointer_mut(parent) else {
        return Err(format!("{at}: no object holds it"));
    };
    match edit {
        Edit::Remove => {
            parent
                .remove(key)
                .ok_or_else(|| format!("{at}: nothing to remove"))?;
        }
        Edit::Set(text) => {
            parent.insert(key.to_owned(), json(text)?);
        }
        Edit::Merge(text) => {
            let Some(Value::Object(target)) = parent.get_mut(key) else {
                return Err(format!("{at}: not an object"));
            };
            let Value::Object(members) = json(text)? else {
                return Err(format!("{at}: the merge is not an object"));
            };
            for (name, value) in members {
                if value.is_null() {
                    target.remove(&name);
                } else {
                    target.insert(name, value);
                }
            }
        }
        Edit::Rename(to) => {
            let value = parent
                .remove(key)
                .ok_or_else(|| format!("{at}: nothing to rename"))?;
            parent.insert((*to).to_owned(), value);
        }
    }
    Ok(())
}

/// The reference as the derive should build it: normalized, then the type's fixes applied.
pub fn expected(case: &Case) -> Result<Value, String> {
    let mut schema = reference(case);
    normalize(&mut schema);
    for fix in case.fixes {
        apply(&mut schema, fix)?;
    }
    Ok(schema)
}

/// The derive's standard schema, `required` sorted as the reference's is.
pub fn generated(case: &Case) -> Value {
    let mut ours = (case.schema)();
    if let Value::Object(map) = &mut ours {
        sort_required(map);
    }
    ours
}

#[test]
fn every_corpus_schema_equals_its_reference_up_to_the_documented_differences() {
    let mut failures = Vec::new();
    for case in CASES.iter() {
        let label = format!("{}/{} ({})", case.source, case.tool, case.type_name);
        match expected(case) {
            Err(error) => failures.push(format!("{label}: stale fix: {error}")),
            Ok(expected) => {
                let ours = generated(case);
                if ours != expected {
                    failures.push(format!(
                        "{label}:\n  derive:    {ours}\n  reference: {expected}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The table in the module docs lists every difference: each fix's tool and places.
#[test]
fn every_documented_difference_is_in_the_module_docs_table() {
    let docs: Vec<&str> = include_str!("mod.rs")
        .lines()
        .filter(|line| line.starts_with("//! | "))
        .collect();
    for case in CASES.iter() {
        let tool = format!("{}/{}", case.source, case.tool);
        for fix in case.fixes {
            for at in fix.at {
                let pointer = format!("`{at}`");
                assert!(
                    docs.iter()
                        .any(|row| row.contains(&tool) && row.contains(&pointer)),
                    "{tool}: the difference at {at} is not in the module docs table ({})",
                    fix.why
                );
            }
        }
    }
}
