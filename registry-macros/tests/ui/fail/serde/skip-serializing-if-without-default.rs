use serde::{Deserialize, Serialize};
use toolreg::InputSchema;

#[derive(Deserialize, Serialize, InputSchema)]
pub struct Report {
    pub title: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

fn main() {}
