//! An MCP tool's input checked against the `inputSchema` its server sent, before anyone is asked
//! and before anything is sent: input the schema refuses is refused here, naming the JSON path
//! and the rule, as a built-in's is (`schema_check.rs`).
//!
//! The schema is compiled the first time the tool is called, once per listing (the compile is
//! kept with the tool's entry, [`McpInfo`]), with the built-ins' options: patterns in linear
//! time, no `$ref` fetched, `format` an annotation. Its cost is bounded first (`schema_cost.rs`).
//! The schema's size and nesting are bounded when it is listed ([`McpLimits`]): one past them
//! is not a tool.
//!
//! A schema that cannot be checked — it does not compile (a pattern with look-around or a
//! backreference, a `$ref` outside the schema, a `$schema` this crate does not know), or its
//! cost is not bounded (for inputs nested past a depth or too large, for those) — refuses
//! every call of its tool with
//! [`DispatchError::UncheckableSchema`](crate::DispatchError::UncheckableSchema), naming the
//! place in the schema and the rule: the call is neither sent unchecked nor checked against
//! part of the schema. Every schema of the eleven real servers of the fixtures is checked.
//!
//! [`McpLimits`]: crate::mcp::McpLimits

use std::sync::Arc;

use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use super::schema_check::{PATTERN_SIZE_LIMIT, json_path};
use super::schema_cost::{MAX_APPLICATIONS, MAX_TOTAL_APPLICATIONS};
use super::{schema_check, schema_cost};
use crate::ToolInfo;
use crate::mcp::McpInfo;
use crate::tool::mcp_info::{CheckedSchema, CompiledSchema, SchemaFault};

/// Why a call was refused.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// The input breaks the schema.
    Input {
        /// The JSON path of the offending value.
        path: String,
        /// The rule it breaks.
        message: String,
    },
    /// The schema cannot be checked.
    Schema(SchemaFault),
}

impl Refusal {
    /// Where, and what rule: the JSON path in the input and the rule it breaks, or the place
    /// in the schema and why the schema cannot be checked.
    pub(crate) fn into_parts(self) -> (String, String) {
        match self {
            Refusal::Input { path, message } => (path, message),
            Refusal::Schema(fault) => (
                fault.at,
                format!("the input schema cannot be checked: {}", fault.rule),
            ),
        }
    }
}

/// Checks `input` against the input schema of `tool`, an MCP tool from `mcp`.
pub(crate) fn check(tool: &ToolInfo, mcp: &McpInfo, input: &Value) -> Result<(), Refusal> {
    let cell = mcp.compiled.cell();
    let cached = cell.get_or_init(|| compile(&tool.input_schema));
    let replaced;
    let compiled = if cached.text == tool.input_schema {
        cached
    } else {
        replaced = compile(&tool.input_schema);
        &replaced
    };
    let checked = compiled
        .check
        .as_ref()
        .map_err(|fault| Refusal::Schema(fault.clone()))?;
    bounded(&checked.applications, input).map_err(Refusal::Schema)?;
    schema_check::first_violation(&checked.validator, &compiled.text, input).map_err(|violation| {
        Refusal::Input {
            path: violation.path,
            message: violation.message,
        }
    })
}

/// `schema` compiled, or why it cannot be checked.
fn compile(schema: &Arc<str>) -> CompiledSchema {
    CompiledSchema {
        text: Arc::clone(schema),
        check: checked(schema),
    }
}

fn checked(schema: &str) -> Result<CheckedSchema, SchemaFault> {
    let value: Value = serde_json::from_str(schema).map_err(|error| SchemaFault {
        at: ".".into(),
        rule: format!("it cannot be read: {error}"),
    })?;
    let applications = schema_cost::bound(&value)?;
    let validator = schema_check::options().build(&value).map_err(|error| {
        let mut rule = error.to_string();
        if matches!(error.kind(), ValidationErrorKind::Format { format } if format == "regex") {
            rule.push_str(&format!(
                " this crate runs: patterns are matched in linear time, so look-around and \
                     backreferences are refused, and each compiles to at most {} KiB",
                PATTERN_SIZE_LIMIT / 1024
            ));
        }
        SchemaFault {
            at: json_path(error.instance_path().as_str()),
            rule,
        }
    })?;
    Ok(CheckedSchema {
        validator,
        applications,
    })
}

/// Whether checking `input` stays within the bounds, given the most subschemas applied at one
/// place by depth (`schema_cost.rs`); its places are walked without recursion.
fn bounded(by_depth: &[u64], input: &Value) -> Result<(), SchemaFault> {
    let at_depth = |depth: usize| by_depth.get(depth).or(by_depth.last()).copied();
    let (mut total, mut deepest, mut over) = (0u64, 0, false);
    let mut places = vec![(input, 0)];
    while let Some((value, depth)) = places.pop() {
        let count = at_depth(depth).unwrap_or(0);
        total = total.saturating_add(count);
        deepest = deepest.max(depth);
        over |= count > MAX_APPLICATIONS;
        match value {
            Value::Array(items) => places.extend(items.iter().map(|item| (item, depth + 1))),
            Value::Object(map) => places.extend(map.values().map(|member| (member, depth + 1))),
            _ => {}
        }
    }
    let rule = if over {
        let from = (0..=deepest)
            .find(|&depth| at_depth(depth).unwrap_or(0) > MAX_APPLICATIONS)
            .unwrap_or(deepest);
        format!(
            "checking a value nested {from} or more levels deep against it would apply more \
             than {MAX_APPLICATIONS} subschemas at one place, `$ref`s followed, and this input \
             nests {deepest} levels deep"
        )
    } else if total > MAX_TOTAL_APPLICATIONS {
        format!(
            "checking this input against it would apply more than {MAX_TOTAL_APPLICATIONS} \
             subschemas in all, `$ref`s followed"
        )
    } else {
        return Ok(());
    };
    Err(SchemaFault {
        at: ".".into(),
        rule,
    })
}
