//! The npm reference servers of `modelcontextprotocol/servers`: `server-filesystem`,
//! `server-everything`, `server-memory`, `server-sequential-thinking` (zod schemas without
//! `additionalProperties`).

use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};
use toolreg::InputSchema;

/// The optional line window of the read tools, flattened into them.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct LineWindow {
    /// If provided, returns only the last N lines of the file
    pub tail: Option<f64>,
    /// If provided, returns only the first N lines of the file
    pub head: Option<f64>,
}

/// filesystem `read_text_file`: a flattened struct.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct ReadTextFile {
    pub path: String,
    #[serde(flatten)]
    pub window: LineWindow,
}

/// filesystem `read_multiple_files`: `minItems`.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
pub struct ReadMultipleFiles {
    /// Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.
    #[schema(min_items = 1)]
    pub paths: Vec<String>,
}

/// One replacement of `edit_file`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub struct EditOperation {
    /// Text to search for - must match exactly
    pub old_text: String,
    /// Text to replace with
    pub new_text: String,
}

/// filesystem `edit_file`: an array of objects and a default.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub struct EditFile {
    pub path: String,
    pub edits: Vec<EditOperation>,
    /// Preview changes using git-style diff format
    #[serde(default)]
    #[schema(default = false)]
    pub dry_run: bool,
}

/// filesystem `directory_tree`: an empty array as the default.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub struct DirectoryTree {
    pub path: String,
    #[serde(default)]
    #[schema(default = [])]
    pub exclude_patterns: Vec<String>,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "lowercase")]
pub enum MessageType {
    Error,
    Success,
    Debug,
}

/// everything `get-annotated-message`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub struct GetAnnotatedMessage {
    /// Type of message to demonstrate different annotation patterns
    pub message_type: MessageType,
    /// Whether to include an example image
    #[serde(default)]
    #[schema(default = false)]
    pub include_image: bool,
}

/// everything `get-resource-links`: a default and bounds.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
pub struct GetResourceLinks {
    /// Number of resource links to return (1-10)
    #[schema(default = 3, minimum = 1, maximum = 10)]
    pub count: Option<f64>,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub enum OutputType {
    #[serde(rename = "resourceLink")]
    ResourceLink,
    #[serde(rename = "resource")]
    Resource,
}

/// everything `gzip-file-as-resource`: string defaults and a `uri` format.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
#[serde(rename_all = "camelCase")]
pub struct GzipFileAsResource {
    /// Name of the output file
    #[schema(default = "README.md.gz")]
    pub name: Option<String>,
    /// URL or data URI of the file content to compress
    #[schema(
        default = "https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md",
        format = "uri"
    )]
    pub data: Option<String>,
    /// How the resulting gzipped file should be returned. 'resourceLink' returns a link to a resource that can be read later, 'resource' returns a full resource object.
    #[schema(default = "resourceLink")]
    pub output_type: Option<OutputType>,
}

/// everything `trigger-long-running-operation`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct TriggerLongRunningOperation {
    /// Duration of the operation in seconds
    #[schema(default = 10)]
    pub duration: Option<f64>,
    /// Number of steps in the operation
    #[schema(default = 5)]
    pub steps: Option<f64>,
}

/// One entity of `create_entities`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub struct Entity {
    /// The name of the entity
    pub name: String,
    /// The type of the entity
    pub entity_type: String,
    /// An array of observation contents associated with the entity
    pub observations: Vec<String>,
}

/// memory `create_entities`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct CreateEntities {
    pub entities: Vec<Entity>,
}

/// A relation of `create_relations` and `delete_relations`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub struct Relation {
    /// The name of the entity where the relation starts
    pub from: String,
    /// The name of the entity where the relation ends
    pub to: String,
    /// The type of the relation
    pub relation_type: String,
}

/// memory `delete_relations`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct DeleteRelations {
    /// An array of relations to delete
    pub relations: Vec<Relation>,
}

/// One deletion of `delete_observations`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub struct ObservationDeletion {
    /// The name of the entity containing the observations
    pub entity_name: String,
    /// An array of observations to delete
    pub observations: Vec<String>,
}

/// memory `delete_observations`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct DeleteObservations {
    pub deletions: Vec<ObservationDeletion>,
}

/// A boolean the server also takes as a string (`"true"`).
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(untagged)]
pub enum Flag {
    Bool(bool),
    Text(String),
}

/// sequential-thinking `sequentialthinking`: large integer bounds, boolean-or-string unions.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
#[serde(rename_all = "camelCase")]
pub struct SequentialThinking {
    /// Your current thinking step
    pub thought: String,
    /// Whether another thought step is needed
    pub next_thought_needed: Flag,
    /// Current thought number (numeric value, e.g., 1, 2, 3)
    #[schema(minimum = 1, maximum = 9007199254740991)]
    pub thought_number: u64,
    /// Estimated total thoughts needed (numeric value, e.g., 5, 10)
    #[schema(minimum = 1, maximum = 9007199254740991)]
    pub total_thoughts: u64,
    /// Whether this revises previous thinking
    pub is_revision: Option<Flag>,
    /// Which thought is being reconsidered
    #[schema(minimum = 1, maximum = 9007199254740991)]
    pub revises_thought: Option<u64>,
    /// Branching point thought number
    #[schema(minimum = 1, maximum = 9007199254740991)]
    pub branch_from_thought: Option<u64>,
    /// Branch identifier
    pub branch_id: Option<String>,
    /// If more thoughts are needed
    pub needs_more_thoughts: Option<Flag>,
}
