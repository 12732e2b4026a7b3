//! `@modelcontextprotocol/server-github` (zod schemas, `additionalProperties: false` on every
//! object, which `deny_unknown_fields` gives).

use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};
use toolreg::InputSchema;

/// `create_or_update_file`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(deny_unknown_fields)]
pub struct CreateOrUpdateFile {
    /// Repository owner (username or organization)
    pub owner: String,
    /// Repository name
    pub repo: String,
    /// Path where to create/update the file
    pub path: String,
    /// Content of the file
    pub content: String,
    /// Commit message
    pub message: String,
    /// Branch to create/update the file in
    pub branch: String,
    /// SHA of the file being replaced (required when updating existing files)
    pub sha: Option<String>,
}

/// One file of `push_files`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(deny_unknown_fields)]
pub struct FileContent {
    pub path: String,
    pub content: String,
}

/// `push_files`: an array of objects.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(deny_unknown_fields)]
pub struct PushFiles {
    /// Repository owner (username or organization)
    pub owner: String,
    /// Repository name
    pub repo: String,
    /// Branch to push to (e.g., 'main' or 'master')
    pub branch: String,
    /// Array of files to push
    pub files: Vec<FileContent>,
    /// Commit message
    pub message: String,
}

/// `create_issue`: optional arrays and a number.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(deny_unknown_fields)]
pub struct CreateIssue {
    pub owner: String,
    pub repo: String,
    pub title: String,
    pub body: Option<String>,
    pub assignees: Option<Vec<String>>,
    pub milestone: Option<f64>,
    pub labels: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Asc,
    Desc,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "lowercase")]
pub enum IssueSort {
    Created,
    Updated,
    Comments,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "lowercase")]
pub enum IssueState {
    Open,
    Closed,
    All,
}

/// `list_issues`: string enums.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(deny_unknown_fields)]
pub struct ListIssues {
    pub owner: String,
    pub repo: String,
    pub direction: Option<Direction>,
    pub labels: Option<Vec<String>>,
    pub page: Option<f64>,
    pub per_page: Option<f64>,
    pub since: Option<String>,
    pub sort: Option<IssueSort>,
    pub state: Option<IssueState>,
}

/// `search_code`: numeric bounds.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchCode {
    pub q: String,
    pub order: Option<Direction>,
    #[schema(minimum = 1)]
    pub page: Option<f64>,
    #[schema(minimum = 1, maximum = 100)]
    pub per_page: Option<f64>,
}

/// The sort keys of `search_issues`, some of which no Rust identifier spells.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "kebab-case")]
pub enum SearchIssuesSort {
    Comments,
    Reactions,
    #[serde(rename = "reactions-+1")]
    ReactionsPlusOne,
    #[serde(rename = "reactions--1")]
    ReactionsMinusOne,
    ReactionsSmile,
    #[serde(rename = "reactions-thinking_face")]
    ReactionsThinkingFace,
    ReactionsHeart,
    ReactionsTada,
    Interactions,
    Created,
    Updated,
}

/// `search_issues`: bounds and an eleven-value enum.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchIssues {
    pub q: String,
    pub order: Option<Direction>,
    #[schema(minimum = 1)]
    pub page: Option<f64>,
    #[schema(minimum = 1, maximum = 100)]
    pub per_page: Option<f64>,
    pub sort: Option<SearchIssuesSort>,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ReviewEvent {
    Approve,
    RequestChanges,
    Comment,
}

/// A review comment: at a diff position or at a line, not both (an untagged enum).
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(untagged, deny_unknown_fields)]
pub enum ReviewComment {
    AtPosition {
        /// The relative path to the file being commented on
        path: String,
        /// The position in the diff where you want to add a review comment
        position: f64,
        /// Text of the review comment
        body: String,
    },
    AtLine {
        /// The relative path to the file being commented on
        path: String,
        /// The line number in the file where you want to add a review comment
        line: f64,
        /// Text of the review comment
        body: String,
    },
}

/// `create_pull_request_review`: an array of an untagged union.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(deny_unknown_fields)]
pub struct CreatePullRequestReview {
    /// Repository owner (username or organization)
    pub owner: String,
    /// Repository name
    pub repo: String,
    /// Pull request number
    pub pull_number: f64,
    /// The SHA of the commit that needs a review
    pub commit_id: Option<String>,
    /// The body text of the review
    pub body: String,
    /// The review action to perform
    pub event: ReviewEvent,
    /// Comments to post as part of the review (specify either position or line, not both)
    pub comments: Option<Vec<ReviewComment>>,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "lowercase")]
pub enum MergeMethod {
    Merge,
    Squash,
    Rebase,
}

/// The repository and pull request every pull-request tool names.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct PullRef {
    /// Repository owner (username or organization)
    pub owner: String,
    /// Repository name
    pub repo: String,
    /// Pull request number
    pub pull_number: f64,
}

/// `merge_pull_request`: the shared fields flattened (so without `additionalProperties`:
/// serde refuses `deny_unknown_fields` beside `flatten`).
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct MergePullRequest {
    #[serde(flatten)]
    pub pull: PullRef,
    /// Title for the automatic commit message
    pub commit_title: Option<String>,
    /// Extra detail to append to automatic commit message
    pub commit_message: Option<String>,
    /// Merge method to use
    pub merge_method: Option<MergeMethod>,
}
