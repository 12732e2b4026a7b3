use std::collections::BTreeMap;

use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
pub struct Paging {
    pub offset: u32,
}

#[derive(Deserialize, InputSchema)]
pub struct Query {
    pub text: String,
    #[serde(flatten)]
    pub extra: BTreeMap<String, u32>,
    #[serde(flatten)]
    pub paging: Paging,
}

fn main() {}
