use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
pub struct Paging {
    pub offset: u32,
    pub limit: u32,
}

#[derive(Deserialize, InputSchema)]
pub struct Query {
    pub limit: u32,
    #[serde(flatten)]
    pub paging: Paging,
}

fn main() {}
