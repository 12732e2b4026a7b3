use toolreg::InputSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize, InputSchema)]
pub struct Report {
    pub title: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

fn main() {}
