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
    #[schema(title = "Paging")]
    pub paging: Paging,
}

fn main() {}
