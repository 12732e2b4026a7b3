//! The PyPI servers: `mcp-server-git`, `mcp-server-time`, `mcp-server-fetch` (pydantic models:
//! a `title` on every property and on the object) and `mcp-server-sqlite` (hand-written).

use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};
use toolreg::InputSchema;

/// The repository every git tool names, flattened into them.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct RepoPath {
    #[schema(title = "Repo Path")]
    pub repo_path: String,
}

/// git `git_diff`: a flattened struct and an integer default.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct GitDiff {
    #[serde(flatten)]
    pub repo: RepoPath,
    #[schema(title = "Target")]
    pub target: String,
    #[schema(title = "Context Lines", default = 3)]
    pub context_lines: Option<i64>,
}

/// git `git_add`: a flattened struct and `minItems`.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
pub struct GitAdd {
    #[serde(flatten)]
    pub repo: RepoPath,
    #[schema(title = "Files", min_items = 1)]
    pub files: Vec<String>,
}

/// git `git_log`: optional strings that pydantic spells with `null`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct GitLog {
    #[schema(title = "Repo Path")]
    pub repo_path: String,
    #[schema(title = "Max Count", default = 10)]
    pub max_count: Option<i64>,
    /// Start timestamp for filtering commits. Accepts: ISO 8601 format (e.g., '2024-01-15T14:30:25'), relative dates (e.g., '2 weeks ago', 'yesterday'), or absolute dates (e.g., '2024-01-15', 'Jan 15 2024')
    #[schema(title = "Start Timestamp")]
    pub start_timestamp: Option<String>,
    /// End timestamp for filtering commits. Accepts: ISO 8601 format (e.g., '2024-01-15T14:30:25'), relative dates (e.g., '2 weeks ago', 'yesterday'), or absolute dates (e.g., '2024-01-15', 'Jan 15 2024')
    #[schema(title = "End Timestamp")]
    pub end_timestamp: Option<String>,
}

/// git `git_branch`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct GitBranch {
    /// The path to the Git repository.
    #[schema(title = "Repo Path")]
    pub repo_path: String,
    /// Whether to list local branches ('local'), remote branches ('remote') or all branches('all').
    #[schema(title = "Branch Type")]
    pub branch_type: String,
    /// The commit sha that branch should contain. Do not pass anything to this param if no commit sha is specified
    #[schema(title = "Contains")]
    pub contains: Option<String>,
    /// The commit sha that branch should NOT contain. Do not pass anything to this param if no commit sha is specified
    #[schema(title = "Not Contains")]
    pub not_contains: Option<String>,
}

/// time `convert_time`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct ConvertTime {
    /// Source IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'UTC' as local timezone if no source timezone provided by the user.
    #[schema(title = "Source Timezone")]
    pub source_timezone: String,
    /// Time to convert in 24-hour format (HH:MM)
    #[schema(title = "Time")]
    pub time: String,
    /// Target IANA timezone name (e.g., 'Asia/Tokyo', 'America/San_Francisco'). Use 'UTC' as local timezone if no target timezone provided by the user.
    #[schema(title = "Target Timezone")]
    pub target_timezone: String,
}

/// fetch `fetch`: `format`, `minLength`, integer bounds and defaults.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
pub struct Fetch {
    /// URL to fetch
    #[schema(title = "Url", format = "uri", min_length = 1)]
    pub url: String,
    /// Maximum number of characters to return.
    #[schema(title = "Max Length", default = 5000, minimum = 1, maximum = 999999)]
    pub max_length: Option<u32>,
    /// On return output starting at this character index, useful if a previous fetch was truncated and more context is required.
    #[schema(title = "Start Index", default = 0)]
    pub start_index: Option<u64>,
    /// Get the actual HTML content of the requested page, without simplification.
    #[schema(title = "Raw", default = false)]
    pub raw: Option<bool>,
}

/// sqlite `read_query`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct ReadQuery {
    /// SELECT SQL query to execute
    pub query: String,
}
