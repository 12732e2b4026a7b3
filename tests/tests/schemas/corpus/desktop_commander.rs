//! `@wonderwhy-er/desktop-commander` (zod schemas with `additionalProperties: false`, defaults,
//! `anyOf` unions, open option maps).

use std::collections::BTreeMap;

use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use toolreg::InputSchema;

/// Who asked: the `origin` most tools take.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    Ui,
    Llm,
}

/// A configuration value: an untagged union of five JSON types.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(untagged)]
pub enum ConfigValue {
    Text(String),
    Number(f64),
    Flag(bool),
    List(Vec<String>),
    Null,
}

/// `set_config_value`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(deny_unknown_fields)]
pub struct SetConfigValue {
    pub key: String,
    pub value: ConfigValue,
    pub origin: Option<Origin>,
}

/// `read_file`: defaults and an open options map.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReadFile {
    pub path: String,
    #[schema(default = false)]
    pub is_url: Option<bool>,
    #[schema(default = 0)]
    pub offset: Option<f64>,
    #[schema(default = 1000)]
    pub length: Option<f64>,
    pub sheet: Option<String>,
    pub range: Option<String>,
    pub options: Option<BTreeMap<String, Value>>,
    pub origin: Option<Origin>,
}

/// One operation of `write_pdf`, tagged by `type`.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum PdfOperation {
    #[serde(rename_all = "camelCase")]
    Insert {
        page_index: f64,
        markdown: Option<String>,
        source_pdf_path: Option<String>,
        pdf_options: Option<BTreeMap<String, Value>>,
    },
    #[serde(rename_all = "camelCase")]
    Delete { page_indexes: Vec<f64> },
}

/// The content of `write_pdf`: markdown text, or a list of page operations.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
#[serde(untagged)]
pub enum PdfContent {
    Markdown(String),
    Operations(Vec<PdfOperation>),
}

/// `write_pdf`: an untagged union holding an array of an internally tagged union.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WritePdf {
    pub path: String,
    pub content: PdfContent,
    pub output_path: Option<String>,
    pub options: Option<BTreeMap<String, Value>>,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "lowercase")]
pub enum SearchType {
    Files,
    Content,
}

/// `start_search`: defaults on a string enum, booleans and numbers.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StartSearch {
    pub path: String,
    pub pattern: String,
    #[schema(default = "files")]
    pub search_type: Option<SearchType>,
    pub file_pattern: Option<String>,
    #[schema(default = true)]
    pub ignore_case: Option<bool>,
    pub max_results: Option<f64>,
    #[schema(default = false)]
    pub include_hidden: Option<bool>,
    #[schema(default = 5)]
    pub context_lines: Option<f64>,
    #[serde(rename = "timeout_ms")]
    pub timeout_ms: Option<f64>,
    pub early_termination: Option<bool>,
    #[schema(default = false)]
    pub literal_search: Option<bool>,
    pub origin: Option<Origin>,
}

/// `get_recent_tool_calls`: bounds, a default and a `date-time` format.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GetRecentToolCalls {
    #[schema(minimum = 1, maximum = 1000, default = 50)]
    pub max_results: Option<f64>,
    pub tool_name: Option<String>,
    #[schema(format = "date-time")]
    pub since: Option<String>,
}

/// `edit_block`: an untyped `content` and an open options map.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
#[serde(deny_unknown_fields)]
pub struct EditBlock {
    pub file_path: String,
    pub old_string: Option<String>,
    pub new_string: Option<String>,
    #[schema(default = 1)]
    pub expected_replacements: Option<f64>,
    pub range: Option<String>,
    pub content: Option<Value>,
    pub options: Option<BTreeMap<String, Value>>,
    pub origin: Option<Origin>,
}
