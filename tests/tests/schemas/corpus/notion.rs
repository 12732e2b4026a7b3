//! `@notionhq/notion-mcp-server` (converted from Notion's OpenAPI description: `anyOf` of an
//! object or a string, open objects, a `$defs` block every tool carries).

use std::collections::BTreeMap;

use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use toolreg::InputSchema;

/// The cursor paging every list endpoint takes, flattened into them.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct Paging {
    /// If supplied, this endpoint will return a page of results starting after the cursor provided. If not supplied, this endpoint will return the first page of results.
    pub start_cursor: Option<String>,
    /// The number of items from the full list desired in the response. Maximum: 100
    #[schema(default = 100)]
    pub page_size: Option<i64>,
}

/// `API-get-users`: nothing but the flattened paging.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct GetUsers {
    #[serde(flatten)]
    pub paging: Paging,
}

/// The sort of `API-post-search`, as an object.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct SearchSort {
    /// The direction to sort. Possible values include `ascending` and `descending`.
    pub direction: Option<String>,
    /// The name of the timestamp to sort against. Possible values include `last_edited_time`.
    pub timestamp: Option<String>,
}

/// An object, or the same as JSON text (the server parses strings).
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(untagged)]
pub enum SortArgument {
    /// A set of criteria, `direction` and `timestamp` keys, that orders the results. The **only** supported timestamp value is `"last_edited_time"`. Supported `direction` values are `"ascending"` and `"descending"`. If `sort` is not provided, then the most recently edited results are returned first.
    Criteria(SearchSort),
    Text(String),
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(rename_all = "snake_case")]
pub enum ObjectKind {
    Page,
    DataSource,
}

/// The filter of `API-post-search`, as an object.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct SearchFilter {
    /// The value of the property to filter the results by.  Possible values for object type include `page` or `data_source`.  **Limitation**: Currently the only filter allowed is `object` which will filter by type of object (either `page` or `data_source`)
    pub value: Option<ObjectKind>,
    /// The name of the property to filter by. Currently the only property you can filter by is the object type.  Possible values include `object`.   Limitation: Currently the only filter allowed is `object` which will filter by type of object (either `page` or `data_source`)
    pub property: Option<String>,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(untagged)]
pub enum FilterArgument {
    /// A set of criteria, `value` and `property` keys, that limits the results to either only pages or only data sources. Possible `value` values are `"page"` or `"data_source"`. The only supported `property` value is `"object"`.
    Criteria(SearchFilter),
    Text(String),
}

/// `API-post-search`: two untagged unions.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct PostSearch {
    /// The text that the API compares page and database titles against.
    pub query: Option<String>,
    pub sort: Option<SortArgument>,
    pub filter: Option<FilterArgument>,
    /// A `cursor` value returned in a previous response that If supplied, limits the response to results starting after the `cursor`. If not supplied, then the first page of results is returned. Refer to [pagination](https://developers.notion.com/reference/intro#pagination) for more details.
    pub start_cursor: Option<String>,
    /// The number of items from the full list to include in the response. Maximum: `100`.
    #[schema(default = 100)]
    pub page_size: Option<i64>,
}

/// The page a comment goes on.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct PageParent {
    /// the page ID
    pub page_id: String,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
#[serde(untagged)]
pub enum ParentArgument {
    /// The page that contains the comment
    Page(PageParent),
    Text(String),
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct CommentText {
    /// The content of the comment
    pub content: String,
}

#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct CommentRichText {
    pub text: CommentText,
}

/// One rich-text item: the typed form, JSON text, or any other object.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
#[serde(untagged)]
pub enum RichTextArgument {
    Text(CommentRichText),
    Json(String),
    Other(BTreeMap<String, Value>),
}

/// `API-create-a-comment`: untagged unions, one of them in an array.
#[derive(Debug, Deserialize, Serialize, InputSchema)]
pub struct CreateComment {
    pub parent: ParentArgument,
    pub rich_text: Vec<RichTextArgument>,
}
